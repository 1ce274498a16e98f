-- scripts/bench/run.lua's regression guard, quick subset and machine
-- limits, on rows whose sides print fixed times (sh -c 'echo time ...'),
-- so every ratio, change and fraction is exact.  The runner is copied
-- into a scratch directory with its own rows/, baseline.lua, quick.lua
-- and kernels/matmul.lua, and BUILD points at a scratch build directory
-- whose benchtool prints a fixed stream result.
-- SPDX-License-Identifier: MIT
local support = require("support")

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  return text
end

local function shell_ok(cmd)
  assert(os.execute(cmd), cmd)
end

-- A row file whose sides report luma_s and peer_s seconds.
local function row(luma_s, peer_s, extra)
  return string.format([[
local env = ...
return {
  kind = "internal",
  runs = 3,
  luma = { argv = { "sh", "-c", "echo time %s" } },
  peer = { name = "sh", argv = { "sh", "-c", "echo time %s" } },
  %s
}
]], luma_s, peer_s, extra or "")
end

local BASELINE = [[
return {
  machine = "test machine", date = "2000-01-02", commit = "abc1234",
  rows = { fast = 1.5, even = 1.0, gone = 3 },
}
]]

describe("bench runner (scripts/bench/run.lua)", function()
  local dir, build

  local function bench(args)
    local words = { support.quote(support.luma), support.quote(dir .. "/run.lua") }
    for _, a in ipairs(args) do words[#words + 1] = support.quote(a) end
    return support.run(table.concat(words, " "), nil, { BUILD = build })
  end

  -- The table line of a row, split on runs of two or more spaces.
  local function cells(out, name)
    local line = out:match("\n(" .. name .. " [^\n]*)")
    assert.is_string(line, "no line for " .. name .. " in:\n" .. out)
    local t = {}
    for cell in (line .. "  "):gmatch("(.-)%s%s+") do t[#t + 1] = cell end
    return t
  end

  before_each(function()
    local p = io.popen("mktemp -d")
    dir = p:read("l")
    p:close()
    build = dir .. "/build"
    shell_ok("mkdir -p " .. support.quote(dir .. "/rows") .. " " .. support.quote(dir .. "/kernels")
      .. " " .. support.quote(build))
    shell_ok("cp scripts/bench/run.lua " .. support.quote(dir .. "/run.lua"))
    local luma_path = support.luma:sub(1, 1) == "/" and support.luma
      or os.getenv("PWD") .. "/" .. support.luma
    shell_ok("ln -s " .. support.quote(luma_path) .. " " .. support.quote(build .. "/luma"))
    -- the machine: 20 GB/s (the better of copy and triad), and a 3000^3
    -- dgemm in 0.054 s, 1000 GFLOP/s
    write(build .. "/benchtool", "#!/bin/sh\necho 'copy 8 triad 20 threads 2 mib 64'\n")
    shell_ok("chmod +x " .. support.quote(build .. "/benchtool"))
    write(dir .. "/kernels/matmul.lua", 'print("time 0.054")\n')
    -- fast: ratio 2 against 1.5 (+33%); 2e9 flops in 2 ms = 1000 GFLOP/s
    write(dir .. "/rows/fast.lua", row("0.002", "0.001", 'limit = { kind = "flops", flops = 2e9 },'))
    -- even: ratio 1 against 1 (+0%); 3e7 bytes in 3 ms = 10 GB/s
    write(dir .. "/rows/even.lua", row("0.003", "0.003", 'limit = { kind = "bandwidth", bytes = 3e7 },'))
    -- other: ratio 0.5, no baseline entry
    write(dir .. "/rows/other.lua", row("0.001", "0.002"))
    write(dir .. "/baseline.lua", BASELINE)
    write(dir .. "/quick.lua", 'return { { name = "even", runs = 1 } }\n')
  end)

  after_each(function()
    shell_ok("rm -rf " .. support.quote(dir))
  end)

  it("compares each ratio with the baseline, marks and lists the worse ones", function()
    local out, err, code = bench({})
    assert.equal(0, code, err)
    assert.same({ "fast", "sh", "2.00", "1.00", "2", "+33% WORSE", "ms", "100% of dgemm" },
      { table.unpack(cells(out, "fast"), 1, 8) })
    assert.same({ "even", "sh", "3.00", "3.00", "1", "+0%", "ms", "50% of bandwidth" },
      { table.unpack(cells(out, "even"), 1, 8) })
    assert.same({ "other", "sh", "1.00", "2.00", "0.5", "new", "ms", "-" },
      { table.unpack(cells(out, "other"), 1, 8) })
    assert.truthy(out:find("WORSE than the baseline by more than 15% (1):\n"
      .. "  fast: luma/peer 2 against 1.5 (+33%)", 1, true), out)
    assert.truthy(out:find("limit: memory bandwidth 20.0 GB/s", 1, true), out)
    assert.truthy(out:find("limit: dgemm 1000.0 GFLOP/s", 1, true), out)
    local json = read(build .. "/bench.json")
    assert.truthy(json:find('"worse":true', 1, true))
    assert.truthy(json:find('"machine_limits":{"bandwidth":{', 1, true))
  end)

  it("runs the quick list with its runs per side", function()
    local out, err, code = bench({ "--quick" })
    assert.equal(0, code, err)
    assert.same({ "even", "sh", "3.00", "3.00", "1", "+0%" }, { table.unpack(cells(out, "even"), 1, 6) })
    assert.falsy(out:find("\nfast ", 1, true))
    assert.falsy(out:find("\nother ", 1, true))
    assert.truthy(read(build .. "/bench.json"):find('"runs":1,', 1, true))
  end)

  it("rejects a quick list naming a row that does not exist", function()
    write(dir .. "/quick.lua", 'return { { name = "even" }, { name = "renamed" } }\n')
    local _, err, code = bench({ "--quick" })
    assert.equal(2, code)
    assert.truthy(err:find("quick.lua: entry 2 must be", 1, true), err)
  end)

  it("writes this run's ratios, keeps unmeasured rows and drops removed ones", function()
    local _, err, code = bench({ "--write-baseline", "even" })
    assert.equal(0, code, err)
    local b = load(read(dir .. "/baseline.lua"), "=baseline", "t", {})()
    assert.same({ even = 1, fast = 1.5 }, b.rows)
    assert.truthy(b.note:find("1 row measured", 1, true), b.note)
    assert.truthy(b.note:find("1 kept from the previous baseline (2000-01-02, commit abc1234): fast",
      1, true), b.note)
    assert.truthy(b.machine:find("logical CPUs", 1, true), b.machine)
    assert.truthy(b.date:match("^%d%d%d%d%-%d%d%-%d%d$"), b.date)
  end)

  it("writes to --baseline FILE, which the next run reads", function()
    local path = dir .. "/other-baseline.lua"
    local _, err, code = bench({ "--baseline", path, "--write-baseline" })
    assert.equal(0, code, err)
    assert.same({ even = 1, fast = 2, other = 0.5 }, load(read(path), "=b", "t", {})().rows)
    local out = bench({ "--baseline=" .. path })
    assert.equal("+0%", cells(out, "fast")[6])
    assert.equal("+0%", cells(out, "other")[6])
  end)

  it("shows every row as new without a baseline file", function()
    os.remove(dir .. "/baseline.lua")
    local out, err, code = bench({})
    assert.equal(0, code, err)
    assert.equal("new", cells(out, "fast")[6])
    assert.truthy(out:find("vs base: no baseline at", 1, true))
  end)

  it("loads the baseline as data: a chunk reaching for the libraries is refused", function()
    write(dir .. "/baseline.lua", 'os.execute("touch pwned"); return { rows = {} }\n')
    local _, err, code = bench({})
    assert.equal(2, code)
    assert.truthy(err:find("bad baseline", 1, true), err)
    assert.truthy(err:find("global 'os'", 1, true), err)
  end)

  it("refuses a baseline whose ratios are not positive numbers", function()
    write(dir .. "/baseline.lua", 'return { rows = { fast = "1.5" } }\n')
    local _, err, code = bench({})
    assert.equal(2, code)
    assert.truthy(err:find("rows must map row names to positive ratios", 1, true), err)
  end)

  it("selects rows by plain text, so names with '-' need no escaping", function()
    write(dir .. "/rows/add-1e7.lua", row("0.001", "0.001"))
    local out, err, code = bench({ "add-1e7" })
    assert.equal(0, code, err)
    assert.equal("add-1e7", cells(out, "add%-1e7")[1])
    assert.falsy(out:find("\nfast ", 1, true))
  end)
end)
