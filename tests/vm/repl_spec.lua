-- The REPL on a real pseudo-terminal, driven by build/ptydrive: what a
-- person typing sees.  Each test is a script of send/expect steps.  Keys
-- are sent only once the prompt is back, as a person would: while the REPL
-- is busy the terminal is in cooked mode and its line discipline, not the
-- REPL, would consume a Ctrl-D.
-- SPDX-License-Identifier: MIT
local support = require("support")

local ptydrive = support.build .. "/ptydrive"

-- Runs the REPL under ptydrive with the given steps; returns its stdout
-- (rss/exit lines), stderr (transcript on failure) and exit status.
local function drive(steps, env)
  local script = support.write_temp(table.concat(steps, "\n") .. "\n")
  local out, err, code = support.run(string.format("%s -t 10 %s -- %s",
    ptydrive, script, support.luma), nil, env or { LUMA_HISTORY = "" })
  os.remove(script)
  return out, err, code
end

describe("REPL on a terminal", function()
  it("prints a banner, evaluates expressions and exits on Ctrl-D", function()
    local out, err, code = drive({
      "expect Luma ", "expect > ",
      "send 1 + 1\\r", "expect \\r\\n2\\r\\n",
      "send 'a' .. 'b', 3\\r", "expect [1] ab\\r\\n[2] 3\\r\\n",
      "expect > ", "send _ .. 'c'\\r", "expect abc",
      "expect > ", "send =6 * 7\\r", "expect 42",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("exit 0\n", out)
  end)

  it("asks for more lines with the continuation prompt", function()
    local _, err, code = drive({
      "expect > ",
      "send for i = 1, 3 do\\r", "expect >> ",
      "send   io.write(i * 11, ' ')\\r", "expect >> ",
      "send end\\r", "expect 11 22 33",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("completes luma.matr<TAB> to luma.matrix and methods after ':' with their '('", function()
    local _, err, code = drive({
      "expect > ",
      "send luma.matr\\t", "expect ix",
      "send \\x15A = luma.zeros(2, 3)\\r", "expect > ",
      "send A:sha\\t", "expect pe(",
      "send )\\r", "expect [1] 2\\r\\n[2] 3",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("interrupts a long loop with Ctrl-C and keeps the session", function()
    local _, err, code = drive({
      "expect > ",
      "send x = 0 while true do x = x + 1 end\\r",
      "sleep 0.3",
      "send \\x03", "expect interrupted!", "expect > ",
      "send x > 0\\r", "expect true",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("stops a parallel map's workers on Ctrl-C: killed and reaped, nothing left", function()
    -- Each task spins 30 s; the progress bar is on (stderr is the pty).  The
    -- count of luma's children is taken by a shell luma starts, so it is 1
    -- (that shell) when every worker is gone, zombies included.
    local _, err, code = drive({
      "expect > ",
      "send r = luma.parallel.map(function(i) local t = os.clock() "
        .. "while os.clock() - t < 30 do end return i end, {1, 2, 3, 4}, {n_jobs = 2})\\r",
      "sleep 0.5",
      "send \\x03", "expect interrupted!", "expect > ",
      "send io.popen('ps -o pid= --ppid $PPID | wc -l'):read('n')\\r", "expect \\r\\n1\\r\\n",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("clears the line with Ctrl-C at the prompt", function()
    local _, err, code = drive({
      "expect > ",
      "send this is not lua", "send \\x03", "expect ^C",
      "send 6 * 7\\r", "expect 42",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("discards the unfinished chunk on Ctrl-C at the continuation prompt", function()
    local _, err, code = drive({
      "expect > ",
      "send function h()\\r", "expect >> ",
      "send print(1)", "send \\x03", "expect ^C", "expect > ",
      "send end\\r", "expect near 'end'", "expect > ",
      "send h == nil\\r", "expect true",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("reads UTF-8 input in a UTF-8 locale", function()
    local _, err, code = drive({
      "expect > ",
      "send s = 'h\\xc3\\xa9llo \\xce\\xb1'\\r", "expect > ",
      "send #s, s\\r", "expect [1] 9\\r\\n[2] h\\xc3\\xa9llo \\xce\\xb1",
      "expect > ", "send \\x04", "wait",
    }, { LUMA_HISTORY = "", LC_ALL = "C.UTF-8" })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("reports errors with a traceback and continues", function()
    local _, err, code = drive({
      "expect > ",
      "send error('bad thing')\\r", "expect bad thing", "expect stack traceback:",
      "send 2 ^ 10\\r", "expect 1024.0",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("pretty-prints matrices and tables", function()
    local _, err, code = drive({
      "expect > ",
      "send luma.matrix{{1, 2}, {3, 4.5}}\\r", "expect matrix 2 x 2", "expect [[1.0  2.0]",
      "send {1, 'two', x = {y = true}}\\r", "expect {1, \"two\", x = {y = true}}",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("draws fig:show() with nothing printed after the plot", function()
    local _, err, code = drive({
      "expect > ",
      "send fig = luma.plot.line({1, 2, 3}, {1, 4, 9})\\r", "expect > ",
      "send fig:show{width = 30, height = 8, color = false}\\r",
      "expect color = false}\\r\\n",
      "absent nil", "expect \\r\\n> ",
      "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("shows help(x) from the doc registry", function()
    local _, err, code = drive({
      "expect > ",
      "send help(luma.eye)\\r", "expect eye(n [, m = n])", "expect identity matrix",
      "expect > ", "send \\x04", "wait",
    })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("pages help through $PAGER, wrapped to $COLUMNS", function()
    local _, err, code = drive({
      "expect > ",
      "send help(luma.linalg.svd)\\r",
      "expect PAGED:luma.linalg.svd: svd(A [, {mode = \"thin\"}]) -> U, s, Vt\\r\\n",
      "expect PAGED:  U, s, Vt with A = U diag(s) Vt and s descending (a\\r\\n",
      "expect PAGED:  column); thin:",
      "expect > ", "send \\x04", "wait",
    }, { LUMA_HISTORY = "", PAGER = "sed s/^/PAGED:/", COLUMNS = "60" })
    assert.equal("", err)
    assert.equal(0, code)
  end)

  it("saves history to LUMA_HISTORY and reads it back", function()
    local history = os.tmpname()
    os.remove(history)
    local _, err, code = drive({
      "expect > ", "send answer = 42\\r", "expect > ", "send \\x04", "wait",
    }, { LUMA_HISTORY = history })
    assert.equal("", err)
    assert.equal(0, code)
    local f = assert(io.open(history))
    local saved = f:read("a")
    f:close()
    assert.matches("answer\\040=\\04042", saved, 1, true)
    -- Up-arrow in a new session recalls the line.
    _, err, code = drive({
      "expect > ", "send \\x1b[A\\r", "expect > ", "send answer + 1\\r", "expect 43",
      "expect > ", "send \\x04", "wait",
    }, { LUMA_HISTORY = history })
    os.remove(history)
    assert.equal("", err)
    assert.equal(0, code)
  end)
end)
