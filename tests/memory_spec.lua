-- The brief's GC promise: matrix storage lives inside Lua userdata, so the
-- collector sees its size and a loop of temporaries stays bounded with no
-- collectgarbage() call.  Each run is a fresh luma process so its peak
-- resident memory (VmHWM) belongs to the loop alone.
local support = require("support")

local LOOP = [[
local n = tonumber(arg[1])
for i = 1, n do
  local A = luma.zeros(1000, 1000)   -- 8 MB, touched by the fill
  A:set(1, 1, i)
end
local f = assert(io.open("/proc/self/status"))
local status = f:read("a")
f:close()
print(status:match("VmHWM:%s*(%d+)"))
]]

describe("memory accounting", function()
  -- Under AddressSanitizer freed memory sits in a quarantine and every
  -- page is shadowed, so peak RSS says nothing about the collector there
  -- (and the loop takes many minutes): the plain builds prove this.
  local sanitized = require("luma").config().sanitized
  local test = sanitized and pending or it
  test("keeps 100,000 temporary 1000 x 1000 matrices under 1 GB peak RSS", function()
    local script = support.write_temp(LOOP, ".lua")
    local out, err, code = support.luma_run({ script, "100000" })
    os.remove(script)
    assert.equal("", err)
    assert.equal(0, code)
    local peak_kb = tonumber(out)
    -- 800 GB are allocated in total.  Without accounting the heap would
    -- hold thousands of dead matrices; so it did (1.7 GB after 3000
    -- iterations) while the matrix type had a __gc metamethod, because an
    -- object with a finalizer survives one extra cycle.
    assert.is_true(peak_kb < 1024 * 1024, "peak RSS " .. tostring(peak_kb) .. " KB")
  end)

  it("counts matrix storage in collectgarbage('count')", function()
    local luma = require("luma")
    collectgarbage()
    collectgarbage("stop") -- no collection of other garbage in between
    local before = collectgarbage("count")
    local A = luma.zeros(1000, 1000)
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    -- 8e6 bytes of elements = 7812.5 KiB, plus a small header.
    assert.is_true(grown >= 7812.5 and grown < 7820, "grew by " .. grown .. " KB")
    A = nil
    collectgarbage()
    local left = collectgarbage("count") - before
    assert.is_true(left < 100, "still " .. left .. " KB after collecting")
  end)
end)
