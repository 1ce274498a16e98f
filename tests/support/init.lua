-- Shared test utilities: running the luma binary and other programs.
-- SPDX-License-Identifier: MIT
local support = {}

support.build = os.getenv("LUMA_BUILD") or "build"
support.luma = support.build .. "/luma"

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end
support.quote = quote

--- Runs a shell command line; returns stdout, stderr, exit status.
--- `input` (optional) is written to the command's stdin.
function support.run(cmdline, input, env)
  local out, err, inp = os.tmpname(), os.tmpname(), os.tmpname()
  local f = assert(io.open(inp, "wb"))
  f:write(input or "")
  f:close()
  local prefix = ""
  for k, v in pairs(env or {}) do prefix = prefix .. k .. "=" .. quote(v) .. " " end
  local ok, how, code = os.execute(string.format("%s%s < %s > %s 2> %s",
    prefix, cmdline, inp, out, err))
  local so, se = slurp(out), slurp(err)
  os.remove(out); os.remove(err); os.remove(inp)
  if how == "signal" then code = 128 + code end
  return so, se, ok and 0 or code
end

--- Runs the luma binary with the given arguments (a list of words).
function support.luma_run(args, input, env)
  local words = { support.luma }
  for _, a in ipairs(args or {}) do words[#words + 1] = quote(a) end
  return support.run(table.concat(words, " "), input, env)
end

--- Writes text to a fresh temporary file and returns its path.
function support.write_temp(text, suffix)
  local path = os.tmpname() .. (suffix or "")
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

--- Compiles a C host (source text) against the build's libluma.a with the
--- libraries the build links (`make host-libs`); under the sanitizers
--- (LUMA_SANITIZED=1) with clang and the same sanitizers.  Returns the path
--- of the executable, or nil and the compiler's messages.
function support.compile_host(source, dir)
  local src, exe = dir .. "/host.c", dir .. "/host"
  local f = assert(io.open(src, "w"))
  f:write(source)
  f:close()
  local libs = support.run("make --no-print-directory -s host-libs BUILD=" .. quote(support.build))
  local sanitized = os.getenv("LUMA_SANITIZED") == "1"
  local cc = sanitized and "clang -fsanitize=address,undefined" or "cc"
  local _, err, code = support.run(string.format("%s -std=c11 -Isrc/vm $(pkg-config --cflags lua5.4) "
    .. "-o %s %s %s %s", cc, quote(exe), quote(src), quote(support.build .. "/libluma.a"),
    libs:gsub("\n", " ")))
  if code ~= 0 then return nil, err end
  return exe
end

--- rows(flat, ncol) -> a table of row tables: reference values printed flat
--- (row-major, as NumPy's ravel gives them) cut into rows of ncol.
function support.rows(flat, ncol)
  local out = {}
  for i = 1, #flat // ncol do
    out[i] = {}
    for j = 1, ncol do out[i][j] = flat[(i - 1) * ncol + j] end
  end
  return out
end

--- Asserts that fn raises an error whose message matches the Lua pattern.
function support.errors_with(pattern, fn)
  local ok, err = pcall(fn)
  assert(not ok, "expected an error matching " .. pattern)
  assert(tostring(err):match(pattern), string.format("error %q does not match %q", tostring(err), pattern))
end

--- Runs fn with warn() captured; returns the list of warning messages
--- (fn's own errors propagate).
function support.capture_warnings(fn)
  local warnings, saved = {}, _G.warn
  _G.warn = function(msg) warnings[#warnings + 1] = msg end
  local ok, err = pcall(fn)
  _G.warn = saved
  if not ok then error(err, 0) end
  return warnings
end

--- support.grid(rows, cols, f) -> a rows x cols matrix of f(i, j), i and j
-- 0-based: the closed formulas the PyTorch reference scripts share.
function support.grid(rows, cols, f)
  local M = require("luma").zeros(rows, cols)
  for i = 1, rows do
    for j = 1, cols do M:set(i, j, f(i - 1, j - 1)) end
  end
  return M
end

--- support.torch_near(expected, actual, what [, tol = 1e-10 [, floor = 1e-15]]):
-- |actual - expected| <= tol |expected| + floor element by element
-- (matrices or tables), the error naming what, the element and both
-- values.  The floor is for elements that are 0 in exact arithmetic, where
-- both libraries leave rounding of 1e-17 to 1e-16.
function support.torch_near(expected, actual, what, tol, floor)
  tol, floor = tol or 1e-10, floor or 1e-15
  local luma = require("luma")
  local E = luma.ismatrix(expected) and expected or luma.matrix(expected)
  local A = luma.ismatrix(actual) and actual or luma.matrix(actual)
  if E:rows() ~= A:rows() or E:cols() ~= A:cols() then
    error(string.format("%s: PyTorch's is %d x %d, luma's %d x %d", what, E:rows(), E:cols(),
      A:rows(), A:cols()), 2)
  end
  for i = 1, E:rows() do
    for j = 1, E:cols() do
      local e, a = E:get(i, j), A:get(i, j)
      if not (math.abs(a - e) <= tol * math.abs(e) + floor) then
        error(string.format("%s [%d][%d]: PyTorch %.17g, luma %.17g (relative %.3g)", what, i, j,
          e, a, math.abs(a - e) / math.abs(e)), 2)
      end
    end
  end
end

-- The C source of a host that runs `host SETUP CODE` in a sandboxed state
-- with a 10^7 instruction limit and a 64 MB memory limit and prints the
-- seconds CODE took, the first line of its error (or "finished") and what
-- the next run returns (support.sandboxed_runner).
local SANDBOX_HOST = [[
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "luma.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* host SETUP CODE: a sandboxed state with a 10^7 instruction limit and a
 * 64 MB memory limit runs SETUP, then CODE, and prints the seconds CODE
 * took, the first line of its error (or "finished") and what the next
 * run returns. */
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  luma_Options opts = {0};
  opts.sandbox = 1;
  opts.memory_limit = (size_t)64 << 20;
  opts.instruction_limit = 10000000;
  lua_State *L = luma_newstate(&opts);
  if (luma_run_string(L, argv[1], "=setup", 0) != LUA_OK) {
    printf("setup failed: %s\n", lua_tostring(L, -1));
    return 1;
  }
  double start = now();
  int rc = luma_run_string(L, argv[2], "=repro", 0);
  double took = now() - start;
  const char *msg = rc == LUA_OK ? "finished" : lua_tostring(L, -1);
  printf("%.3f\n%.*s\n", took, (int)strcspn(msg, "\n"), msg);
  lua_settop(L, 0);
  rc = luma_run_string(L, "return tostring(1 + 1)", "=next", 1);
  puts(rc == LUA_OK ? lua_tostring(L, -1) : "the next run failed");
  luma_close(L);
  return 0;
}
]]

--- support.sandboxed_runner(setup [, opts]) -> run, dir: compiles the
--- sandboxed host into a new temporary directory dir (the caller removes
--- it); run(code) runs setup then code in a fresh sandboxed state and
--- returns the seconds code took, the first line of its error (or
--- "finished") and what the state's next run returned.  opts:
--- instruction_limit (10^7; 0 for none), timeout (30 seconds).  The
--- limits specs of the sparse and text kernels.
function support.sandboxed_runner(setup, opts)
  opts = opts or {}
  local source = SANDBOX_HOST:gsub("opts.instruction_limit = 10000000;",
    "opts.instruction_limit = " .. (opts.instruction_limit or 10000000) .. ";")
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(source, dir))
  local prefix = "timeout " .. (opts.timeout or 30) .. " " .. support.quote(host) .. " "
  return function(code)
    local out = support.run(prefix .. support.quote(setup) .. " " .. support.quote(code))
    local took, message, next_run = out:match("^(%S+)\n([^\n]*)\n([^\n]*)\n$")
    assert(took, "the host printed: " .. out)
    return tonumber(took), message, next_run
  end, dir
end

return support
