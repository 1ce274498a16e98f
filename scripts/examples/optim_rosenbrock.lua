-- Minimizing the Rosenbrock function with five methods of luma.optim
-- (docs/OPTIM.md).
--
-- f(x, y) = (1 - x)^2 + 100 (y - x^2)^2 has its minimum 0 at (1, 1) at
-- the end of a long curved valley, the classic test of an optimizer
-- (Nocedal and Wright, Numerical Optimization, ex. 2.1).  From (-1.2, 1),
-- L-BFGS, BFGS, nonlinear conjugate gradients and Newton's method (with
-- the exact Hessian) use the gradient; Nelder-Mead only values.  Prints
-- each method's minimum, iterations and function evaluations, and draws
-- the paths of L-BFGS and Nelder-Mead over the contours
-- (optim_rosenbrock.png in OUTDIR):
--   build/luma scripts/examples/optim_rosenbrock.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local optim = luma.optim

local function f(p, want_grad, g)
  local x, y = p:get(1, 1), p:get(2, 1)
  local value = (1 - x) ^ 2 + 100 * (y - x * x) ^ 2
  if want_grad then
    g:set(1, 1, -2 * (1 - x) - 400 * x * (y - x * x))
    g:set(2, 1, 200 * (y - x * x))
    return value, g
  end
  return value
end
local function hess(p)
  local x, y = p:get(1, 1), p:get(2, 1)
  return luma.matrix{ { 2 - 400 * (y - x * x) + 800 * x * x, -400 * x }, { -400 * x, 200 } }
end

local paths = {}
print(string.format("%-12s %10s %10s %12s %6s %6s", "method", "x", "y", "f", "iter", "nfev"))
for _, method in ipairs{ "lbfgs", "bfgs", "cg", "newton", "nelder-mead" } do
  local path = {}
  local r = optim.minimize(f, { -1.2, 1 }, { method = method, hess = method == "newton" and hess
    or nil, gtol = 1e-8, max_iter = 5000,
    callback = function(_, x) path[#path + 1] = { x:get(1, 1), x:get(2, 1) } end })
  paths[method] = path
  print(string.format("%-12s %10.6f %10.6f %12.3e %6d %6d", method, r.x:get(1, 1), r.x:get(2, 1),
    r.fun, r.iterations, r.nfev))
end

if outdir then
  local xs, ys = luma.linspace(-1.5, 1.5, 121), luma.linspace(-0.5, 1.5, 81)
  local Z = luma.zeros(ys:rows(), xs:rows())
  for i = 1, ys:rows() do
    for j = 1, xs:rows() do
      Z:set(i, j, math.log(1 + f(luma.matrix{ xs:get(j, 1), ys:get(i, 1) })))
    end
  end
  local fig = luma.plot.figure{ width = 720, height = 520,
    title = "Rosenbrock's valley: paths from (-1.2, 1) to (1, 1)" }
  local ax = fig:axes(1, 1)
  ax:contour(xs, ys, Z, { levels = 14 })
  for k, method in ipairs{ "lbfgs", "nelder-mead" } do
    local px, py = {}, { }
    px[1], py[1] = -1.2, 1
    for _, pt in ipairs(paths[method]) do px[#px + 1], py[#py + 1] = pt[1], pt[2] end
    ax:line(luma.matrix(px), luma.matrix(py), { label = method, color = "C" .. k, marker = "o" })
  end
  ax:set{ xlabel = "x", ylabel = "y" }
  print("wrote " .. fig:save(outdir .. "/optim_rosenbrock.png"))
end
