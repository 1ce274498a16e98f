--- luma.tsa.common: checks and helpers shared by the parts of luma.tsa;
-- not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local dcommon = require("luma.decomposition.common")

local common = {}

common.fail = dcommon.fail
common.number_text = dcommon.number_text

-- A table of numbers as a matrix, or nil and why not (luma.matrix's
-- message: ragged rows, a non-number).
local function table_matrix(t)
  local ok, v = pcall(luma.matrix, t)
  if ok then return v end
  return nil, (tostring(v):gsub("^bad argument #1 to 'matrix' %((.*)%)$", "%1"))
end

--- common.series(fname, x [, argn = 1]) -> n x 1: a series (a vector or a
-- table of numbers) as a column, finite, non-empty.
function common.series(fname, x, argn)
  argn = argn or 1
  local v
  if luma.ismatrix(x) then
    if x:rows() ~= 1 and x:cols() ~= 1 then
      common.fail("bad argument #%d to '%s' (x must be a vector, got %d x %d)", argn, fname,
        x:rows(), x:cols())
    end
    v = x:cols() == 1 and x or x:t()
  elseif type(x) == "table" then
    local why
    v, why = table_matrix(x)
    if not v then
      common.fail("bad argument #%d to '%s' (x must be a vector or a table of numbers: %s)", argn,
        fname, why)
    end
    if v:cols() ~= 1 then v = v:flatten() end
  else
    common.fail("bad argument #%d to '%s' (x must be a vector or a table of numbers, got %s)",
      argn, fname, type(x))
  end
  if v:rows() < 1 then common.fail("bad argument #%d to '%s' (x is empty)", argn, fname) end
  if not v:isfinite():all() then
    local p = math.tointeger(luma.matrix.find(v:isfinite():eq(0)):get(1, 1))
    common.fail("bad argument #%d to '%s' (x has a non-finite element, %s at %d)", argn, fname,
      common.number_text(v:get(p, 1)), p)
  end
  return v
end

--- common.options(fname, opts, valid, argn) -> opts: an option table with
-- only the names in valid (a set); an unknown one is an error listing them.
function common.options(fname, opts, valid, argn)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    common.fail("bad argument #%d to '%s' (options table expected, got %s)", argn, fname, type(opts))
  end
  for k in pairs(opts) do
    if not valid[k] then
      local names = {}
      for name in pairs(valid) do names[#names + 1] = name end
      table.sort(names)
      common.fail("bad argument #%d to '%s' (unknown option '%s'; valid: %s)", argn, fname,
        tostring(k), table.concat(names, ", "))
    end
  end
  return opts
end

--- common.integer(fname, name, v, lo [, hi]): an integer option in range.
function common.integer(fname, name, v, lo, hi)
  if math.type(v) ~= "integer" or v < lo or (hi and v > hi) then
    common.fail("%s: %s must be an integer in %d..%s, got %s", fname, name, lo,
      hi and tostring(hi) or "", tostring(v))
  end
  return v
end

--- common.coefficients(fname, name, c) -> k x 1 (k may be 0): a list of
-- polynomial coefficients (a vector, a table or nil).
function common.coefficients(fname, name, c)
  if c == nil then return luma.zeros(0, 1) end
  local v = luma.ismatrix(c) and c:flatten() or (type(c) == "table" and (#c == 0
    and luma.zeros(0, 1) or table_matrix(c)))
  if not v then common.fail("%s: %s must be a vector or a table of numbers", fname, name) end
  v = v:flatten()
  if v:rows() > 0 and not v:isfinite():all() then
    common.fail("%s: %s has a non-finite element", fname, name)
  end
  return v
end

--- common.levinson(gamma, p) -> phi (p x 1), sigma2, pacf (p x 1): the
-- Durbin-Levinson recursion on autocovariances gamma[0..p] (a column,
-- gamma:get(h + 1, 1) = gamma(h)) (Durbin 1960; Brockwell and Davis,
-- Time Series: Theory and Methods, sec. 5.2).
function common.levinson(gamma, p)
  local g = {}
  for h = 0, p do g[h] = gamma:get(h + 1, 1) end
  local phi, pacf = {}, {}
  local v = g[0]
  for k = 1, p do
    local acc = g[k]
    for j = 1, k - 1 do acc = acc - phi[j] * g[k - j] end
    local a = v > 0 and acc / v or 0
    local new = {}
    for j = 1, k - 1 do new[j] = phi[j] - a * phi[k - j] end
    new[k] = a
    phi = new
    pacf[k] = a
    v = v * (1 - a * a)
  end
  local out, pc = luma.zeros(p, 1), luma.zeros(p, 1)
  for k = 1, p do out:set(k, 1, phi[k]); pc:set(k, 1, pacf[k]) end
  return out, v, pc
end

--- common.step_up(r) -> phi: AR coefficients from partial
-- autocorrelations r (the Levinson step-up; |r_k| < 1 for all k is
-- exactly stationarity, Barndorff-Nielsen and Schou 1973).
function common.step_up(r)
  local phi = {}
  for k = 1, #r do
    local new = {}
    for j = 1, k - 1 do new[j] = phi[j] - r[k] * phi[k - j] end
    new[k] = r[k]
    phi = new
  end
  return phi
end

--- common.step_down(phi) -> r: partial autocorrelations from AR
-- coefficients (the inverse of step_up); nil when some |r_k| >= 1 (not
-- stationary).
function common.step_down(phi)
  local a = {}
  for i = 1, #phi do a[i] = phi[i] end
  local r = {}
  for k = #a, 1, -1 do
    local rk = a[k]
    if not (math.abs(rk) < 1) then return nil end
    r[k] = rk
    local new = {}
    for j = 1, k - 1 do new[j] = (a[j] + rk * a[k - j]) / (1 - rk * rk) end
    a = new
  end
  return r
end

--- common.stationary(phi): whether 1 - sum phi_i z^i has all its roots
-- outside the unit circle (phi a table).
function common.stationary(phi)
  return common.step_down(phi) ~= nil
end

--- common.totable(v): a column as a Lua table.
function common.totable(v)
  local t = {}
  for i = 1, v:rows() do t[i] = v:get(i, 1) end
  return t
end

--- common.chi2_sf(q, df): P(chi^2_df > q).
function common.chi2_sf(q, df)
  return luma.special.gammaincc(df / 2, q / 2)
end

return common
