-- Busted helper loaded before every spec (see .busted); the other shared
-- test utilities are require("support") (tests/support/init.lua).
--
-- Registers assert.matrix_near(expected, actual [, tol]): expected is a
-- matrix (dense or sparse) or a table of row tables; passes when shapes are equal and every
-- element satisfies |a - e| <= tol * max(1, |e|) (default tol 1e-12), with
-- NaN matching only NaN.  The failure message names the first bad element.
-- SPDX-License-Identifier: MIT
local assert = require("luassert")
local say = require("say")
local luma = require("luma")

local function as_rows(m)
  if luma.ismatrix(m) then return m:totable() end
  if luma.sparse.issparse(m) then return m:todense():totable() end
  return m
end

local function compare(expected, actual, tol)
  local e, a = as_rows(expected), as_rows(actual)
  if type(e) ~= "table" or type(a) ~= "table" then
    return false, "expected and actual must be matrices or tables of rows"
  end
  if #e ~= #a then return false, string.format("%d rows expected, got %d", #e, #a) end
  for i = 1, #e do
    if #e[i] ~= #a[i] then
      return false, string.format("row %d: %d columns expected, got %d", i, #e[i], #a[i])
    end
    for j = 1, #e[i] do
      local ev, av = e[i][j], a[i][j]
      local ok
      if ev ~= ev then ok = av ~= av
      elseif ev == math.huge or ev == -math.huge then ok = av == ev
      else ok = math.abs(av - ev) <= tol * math.max(1, math.abs(ev)) end
      if not ok then
        return false, string.format("element [%d][%d]: expected %.17g, got %.17g (tol %g)",
          i, j, ev, av, tol)
      end
    end
  end
  return true
end

local function matrix_near(state, arguments)
  local tol = arguments[3] or 1e-12
  local ok, why = compare(arguments[1], arguments[2], tol)
  state.failure_message = why
  return ok
end

say:set("assertion.matrix_near.positive", "Expected matrices to be equal within tolerance")
say:set("assertion.matrix_near.negative", "Expected matrices to differ beyond tolerance")
assert:register("assertion", "matrix_near", matrix_near,
  "assertion.matrix_near.positive", "assertion.matrix_near.negative")
