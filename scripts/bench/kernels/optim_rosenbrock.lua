-- L-BFGS on the 100-D Rosenbrock function with a Lua objective (vectorized
-- with matrix views and out arguments), from x0 = (-1.2, 1, -1.2, 1, ...);
-- best of 5.  The SciPy side is optim_rosenbrock.py.
-- SPDX-License-Identifier: MIT
local n = 100
local x0 = luma.zeros(n, 1)
for i = 1, n do x0:set(i, 1, i % 2 == 1 and -1.2 or 1) end
local t1, t2 = luma.zeros(n - 1, 1), luma.zeros(n - 1, 1)
local function rosen(x, want, g)
  local a, b = x:sub(1, n - 1, 1, 1), x:sub(2, n, 1, 1)
  a:mul(a, t1):subtract(b, t1):neg(t1)     -- t1 = b - a^2
  a:neg(t2):add(1, t2)                     -- t2 = 1 - a
  local f = 100 * t1:dot(t1) + t2:dot(t2)
  if not want then return f end
  -- g_i = -400 a_i t1_i - 2 t2_i (i < n) + 200 t1_{i-1} (i > 1)
  local ga, gb = g:sub(1, n - 1, 1, 1), g:sub(2, n, 1, 1)
  g:set(n, 1, 0)
  a:mul(t1, ga):mul(-400, ga):subtract(t2:mul(2, t2), ga)
  gb:add(t1:mul(200, t1), gb)
  return f, g
end
local best, res = math.huge, nil
for _ = 1, 5 do
  local t0 = luma.now()
  res = luma.optim.minimize(rosen, x0, { method = "lbfgs" })
  best = math.min(best, luma.now() - t0)
end
assert(res.fun < 1e-6, "did not converge: " .. res.fun)
io.stderr:write(string.format("luma: fun %.3g iterations %d nfev %d\n", res.fun, res.iterations, res.nfev))
print("time " .. best)
