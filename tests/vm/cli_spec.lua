-- The `luma` command: scripts, options, LUMA_INIT, exit statuses and
-- error reports.  Options mirror stock lua; an unknown one exits with 2.
-- SPDX-License-Identifier: MIT
local support = require("support")
local run = support.luma_run
local luma = require("luma")

describe("luma command", function()
  -- OpenBLAS picks its kernels by CPU model and took the 2004 Prescott
  -- ones on this project's virtual Xeons (dgemm 19 GFLOP/s instead of 97):
  -- the binary restarts itself with OPENBLAS_CORETYPE naming the better
  -- ones (src/vm/blascore.c), and leaves a user's own setting alone.
  it("runs with the fastest OpenBLAS kernels this CPU supports", function()
    local c = luma.config()
    if os.getenv("OPENBLAS_CORETYPE") == nil then
      local out, err, code = run({ "-e", "io.write(luma.config().blas_core, ' ', tostring(luma.config().blas_core_better))" })
      assert.equal("", err)
      assert.equal(0, code)
      assert.equal((c.blas_core_better or c.blas_core) .. " nil", out)
    end
    local out = run({ "-e", "io.write(luma.config().blas_core)" }, nil, { OPENBLAS_CORETYPE = "Prescott" })
    assert.equal("Prescott", out)
  end)

  -- OpenBLAS's workers spin for 0.1-0.3 s after the library loads, which
  -- halved the interpreter's speed on 2-CPU machines: the command ends
  -- them at start (main.c), and the first threaded BLAS call starts them
  -- again.  Without that, a 2-CPU machine shows 2 threads at the start.
  it("starts a script with no BLAS worker threads, and BLAS starts them when it needs them", function()
    local out, err, code = run({ "-e", table.concat({
      "local function threads()",
      "  for l in io.lines('/proc/self/status') do",
      "    local n = l:match('^Threads:%s*(%d+)') if n then return tonumber(n) end",
      "  end",
      "end",
      "local before = threads()",
      "local A = luma.matrix.ones(600, 600)",
      "local B = A * A",
      "io.write(before, ' ', threads() - before == luma.config().blas_threads - 1 and 'ok' or 'bad', ' ', B:get(600, 600))",
    }, "\n") }, nil, { OPENBLAS_NUM_THREADS = "2" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("1 ok 600", out)
  end)

  it("runs a script with its arguments in the global arg", function()
    local script = support.write_temp("print(#arg, arg[0] ~= nil, arg[1], arg[2], ...)\n", ".lua")
    local out, err, code = run({ script, "a", "b c" })
    os.remove(script)
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("2\ttrue\ta\tb c\ta\tb c\n", out)
  end)

  it("prints tables as luma.pprint shows them, other values as stock print", function()
    local script = support.write_temp(table.concat({
      "print({ 1, 2, { a = 1 } }, 'x', 3, nil, true, 2.5)",
      "print(luma.linear.Ridge{ alpha = 2 })",
      "print(setmetatable({}, { __tostring = function() return 'own text' end }))",
      "print(luma.matrix{ { 1, 2 } })",
      "require = nil -- the script's globals do not matter",
      "print({ b = 'two', a = 1 })",
      "print()",
    }, "\n") .. "\n", ".lua")
    local out, err, code = run({ script })
    os.remove(script)
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("{ 1, 2, { a = 1 } }\tx\t3\tnil\ttrue\t2.5\nRidge(alpha=2)\nown text\n"
      .. "matrix 1 x 2\n[[1  2]]\n{ a = 1, b = \"two\" }\n\n", out)
    -- stock lua5.4 with require "luma" keeps its own print (not under the
    -- sanitizers: their C module cannot load into uninstrumented lua5.4)
    if os.getenv("LUMA_SANITIZED") ~= "1" then
      local stock = support.run("lua5.4 -", "require('luma') print({})",
        { LUA_CPATH = support.build .. "/?.so;;" })
      assert.matches("^table: 0x%x+\n$", stock)
    end
  end)

  it("puts the interpreter and options at negative arg indices", function()
    local script = support.write_temp("print(arg[-1], arg[-2])\n", ".lua")
    local out, _, code = run({ "-e", "x=1", script })
    os.remove(script)
    assert.equal(0, code)
    assert.equal("x=1\t-e\n", out)
  end)

  it("runs -e statements in order, with luma preloaded as a global", function()
    local out, err, code = run({ "-e", "x = 6", "-e", "print(x * 7, luma.VERSION ~= nil)" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("42\ttrue\n", out)
  end)

  it("requires a module with -l into a global, or g=mod into g", function()
    local out, _, code = run({ "-l", "luma.repl", "-lR=luma.repl", "-e",
      "print(type(R.pretty), R == require('luma.repl'))" })
    assert.equal(0, code)
    assert.equal("function\ttrue\n", out)
  end)

  it("reads the script from stdin with -", function()
    local out, _, code = run({ "-", "x" }, "print('from stdin', ...)")
    assert.equal(0, code)
    assert.equal("from stdin\tx\n", out)
  end)

  it("runs stdin as a script when it is not a terminal", function()
    local out, _, code = run({}, "print(1 + 2)\nprint(luma.zeros(1, 1):get(1, 1))\n")
    assert.equal(0, code)
    assert.equal("3\n0.0\n", out)
  end)

  it("with -i and piped stdin, evaluates line by line without prompts", function()
    local out, err, code = run({ "-i" }, "1 + 1\nx = 5\nx * 2\nfor i = 1, 2 do\nprint(i)\nend\n")
    assert.equal(0, code)
    assert.equal("", err)
    assert.equal("2\n10\n1\n2\n", out)
  end)

  it("prints the version with -v and --version", function()
    for _, flag in ipairs({ "-v", "--version" }) do
      local out, _, code = run({ flag })
      assert.equal(0, code)
      assert.matches("^Luma %d+%.%d+%.%d+ %(Lua 5%.4%.%d+%)\n$", out)
    end
  end)

  it("prints usage with -h on stdout and exits 0", function()
    local out, _, code = run({ "-h" })
    assert.equal(0, code)
    assert.matches("^usage: luma %[options%] %[script %[args%]%]", out)
  end)

  it("runs LUMA_INIT first, as code or @file, unless -E", function()
    local out = run({ "-e", "print(INIT)" }, nil, { LUMA_INIT = "INIT = 'code'" })
    assert.equal("code\n", out)
    local init = support.write_temp("INIT = 'file'\n", ".lua")
    out = run({ "-e", "print(INIT)" }, nil, { LUMA_INIT = "@" .. init })
    os.remove(init)
    assert.equal("file\n", out)
    out = run({ "-E", "-e", "print(INIT)" }, nil, { LUMA_INIT = "INIT = 'code'" })
    assert.equal("nil\n", out)
  end)

  it("defines a help global that prints documentation", function()
    local out, _, code = run({ "-e", "help(luma.zeros)" })
    assert.equal(0, code)
    assert.equal("luma.matrix.zeros: zeros(rows [, cols = 1]) -> matrix\n"
      .. "  A rows x cols matrix of zeros (cols 1 if omitted).\n", out)
  end)
end)

describe("luma command failures", function()
  it("exits 2 with usage on an unknown option", function()
    local out, err, code = run({ "--frobnicate" })
    assert.equal(2, code)
    assert.equal("", out)
    assert.matches("^luma: unrecognized option '%-%-frobnicate'\nusage: luma", err)
  end)

  it("exits 2 when -e or -l lacks its argument", function()
    local _, err, code = run({ "-e" })
    assert.equal(2, code)
    assert.matches("^luma: '%-e' needs an argument", err)
  end)

  it("exits 1 with a message for a missing script file", function()
    local _, err, code = run({ "/nonexistent/script.lua" })
    assert.equal(1, code)
    assert.equal("luma: cannot open /nonexistent/script.lua: No such file or directory\n", err)
  end)

  it("exits 1 on a syntax error, naming file and line", function()
    local script = support.write_temp("x = 1\nif then\n", ".lua")
    local _, err, code = run({ script })
    os.remove(script)
    assert.equal(1, code)
    assert.matches("^luma: .-:2: unexpected symbol near 'then'\n$", err)
  end)

  it("exits 1 on a runtime error with a traceback", function()
    local script = support.write_temp("local function f() error('boom') end\nf()\n", ".lua")
    local _, err, code = run({ script })
    os.remove(script)
    assert.equal(1, code)
    assert.matches("^luma: .-:1: boom\nstack traceback:\n", err)
    assert.matches("in local 'f'", err)
  end)

  it("reports non-string error objects by type", function()
    local _, err, code = run({ "-e", "error({})" })
    assert.equal(1, code)
    assert.matches("^luma: %(error object is a table value%)", err)
  end)

  it("uses __tostring of error objects", function()
    local _, err, code = run({ "-e", "error(setmetatable({}, {__tostring = function() return 'custom' end}))" })
    assert.equal(1, code)
    assert.equal("luma: custom\n", err)
  end)

  it("stops at the first failing -e and does not run the script", function()
    local out, _, code = run({ "-e", "error('first')", "-e", "print('second')" })
    assert.equal(1, code)
    assert.equal("", out)
  end)

  it("keeps going in -i mode after an error", function()
    local out, err, code = run({ "-i" }, "error('oops')\n1 + 1\n")
    assert.equal(0, code)
    assert.equal("2\n", out)
    assert.matches("luma: stdin:1: oops", err)
  end)

  it("reports an unfinished chunk at end of input in -i mode", function()
    local _, err, code = run({ "-i" }, "for i = 1, 2 do\n")
    assert.equal(0, code)
    assert.matches("luma: stdin:1: 'end' expected near <eof>", err)
  end)
end)
