-- luma.optim (issue 6).  Reference values: closed forms where stated;
-- otherwise computed with Debian's python3 (numpy 1.24, scipy 1.10,
-- scikit-learn 1.2) as noted next to each test.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local optim = luma.optim

local function col(t) return luma.matrix(t) end

-- Rosenbrock in d dimensions: value and gradient, writing into g.
local function rosen(x, want, g)
  local n = x:rows()
  local f = 0
  for i = 1, n - 1 do
    local a, b = x:get(i, 1), x:get(i + 1, 1)
    f = f + 100 * (b - a * a) ^ 2 + (1 - a) ^ 2
  end
  if not want then return f end
  for i = 1, n do
    local xi, gi = x:get(i, 1), 0
    if i < n then
      local xn = x:get(i + 1, 1)
      gi = gi - 400 * xi * (xn - xi * xi) - 2 * (1 - xi)
    end
    if i > 1 then
      local xp = x:get(i - 1, 1)
      gi = gi + 200 * (xi - xp * xp)
    end
    g:set(i, 1, gi)
  end
  return f, g
end

local function rosen_hess(x)
  local a, b = x:get(1, 1), x:get(2, 1)
  return luma.matrix{ { 1200 * a * a - 400 * b + 2, -400 * a }, { -400 * a, 200 } }
end

-- Beale: minimum 0 at (3, 0.5).  Booth: minimum 0 at (1, 3).
local function beale(x, want)
  local a, b = x:get(1, 1), x:get(2, 1)
  local t1, t2, t3 = 1.5 - a + a * b, 2.25 - a + a * b * b, 2.625 - a + a * b ^ 3
  local f = t1 * t1 + t2 * t2 + t3 * t3
  if not want then return f end
  return f, col{ 2 * t1 * (b - 1) + 2 * t2 * (b * b - 1) + 2 * t3 * (b ^ 3 - 1),
    2 * t1 * a + 2 * t2 * 2 * a * b + 2 * t3 * 3 * a * b * b }
end
local function booth(x, want)
  local a, b = x:get(1, 1), x:get(2, 1)
  local u, v = a + 2 * b - 7, 2 * a + b - 5
  local f = u * u + v * v
  if not want then return f end
  return f, col{ 2 * u + 4 * v, 4 * u + 2 * v }
end

-- The SPD quadratic 1/2 x'Ax - b'x; minimum at A^-1 b.
local A4 = luma.matrix{ { 4, 1, 0, 0 }, { 1, 3, 1, 0 }, { 0, 1, 2, 0.5 }, { 0, 0, 0.5, 1 } }
local b4 = col{ 1, 2, 3, 4 }
local function quad(x, want)
  local Ax = A4 * x
  local f = 0.5 * x:dot(Ax) - b4:dot(x)
  if not want then return f end
  return f, Ax - b4
end

describe("optim.minimize known optima", function()
  local gradient_methods = { "lbfgs", "lbfgsb", "bfgs", "cg", "newton" }
  for _, m in ipairs(gradient_methods) do
    it(m .. " reaches the 2-D Rosenbrock minimum (1, 1)", function()
      local r = optim.minimize(rosen, { -1.2, 1 }, { method = m, hess = rosen_hess, gtol = 1e-8 })
      assert.is_true(r.converged, r.message)
      assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-5)
      assert.is_true(r.fun < 1e-10)
      assert.is_true(r.nfev >= r.iterations and r.ngev >= 1)
    end)
  end

  it("nelder-mead reaches the 2-D Rosenbrock minimum", function()
    local r = optim.minimize(rosen, { -1.2, 1 }, { method = "nelder-mead" })
    assert.is_true(r.converged)
    assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-6)
    assert.is_nil(r.ngev == nil or nil)
  end)

  it("lbfgs reaches the 100-D Rosenbrock minimum (all ones)", function()
    local x0 = luma.zeros(100, 1)
    for i = 1, 100 do x0:set(i, 1, i % 2 == 1 and -1.2 or 1) end
    local r = optim.minimize(rosen, x0, { gtol = 1e-7 })
    assert.is_true(r.converged, r.message)
    assert.matrix_near(luma.ones(100, 1), r.x, 1e-5)
    -- scipy L-BFGS-B needs 515 iterations from this start; a sane count
    assert.is_true(r.iterations > 100 and r.iterations < 2000)
  end)

  for _, m in ipairs({ "lbfgs", "bfgs", "cg", "nelder-mead" }) do
    it(m .. " finds Beale's (3, 0.5) and Booth's (1, 3)", function()
      local r = optim.minimize(beale, { 1, 1 }, { method = m, gtol = 1e-9 })
      assert.matrix_near({ { 3 }, { 0.5 } }, r.x, 1e-5)
      r = optim.minimize(booth, { 0, 0 }, { method = m, gtol = 1e-9 })
      assert.matrix_near({ { 1 }, { 3 } }, r.x, 1e-6)
    end)
  end

  it("gradient descent: fixed, Armijo and exact steps on an SPD quadratic", function()
    local xstar = luma.linalg.solve(A4, b4)
    for _, step in ipairs({ "fixed", "armijo", "exact" }) do
      local r = optim.minimize(quad, luma.zeros(4, 1),
        { method = "gd", step = step, step_size = 0.2, A = A4, gtol = 1e-10, ftol = 0, max_iter = 100000 })
      -- Armijo and exact steps stop when f no longer decreases in floating
      -- point (|g| ~ 1e-7 with f ~ -3), hence the tolerance
      assert.is_true(r.converged, step .. ": " .. r.message)
      assert.matrix_near(xstar, r.x, 1e-6)
    end
  end)

  it("conjugate gradients with exact steps reach the minimum of an n-D SPD quadratic in n steps", function()
    -- notes 000 §2.5 theorem; Fletcher-Reeves equals Polak-Ribiere here
    local xstar = luma.linalg.solve(A4, b4)
    for _, beta in ipairs({ "fr", "pr" }) do
      local r = optim.minimize(quad, luma.zeros(4, 1), { method = "cg", beta = beta, A = A4, gtol = 1e-10 })
      assert.are.equal(4, r.iterations)
      assert.matrix_near(xstar, r.x, 1e-10)
    end
  end)

  it("BFGS keeps H symmetric positive definite and reaches A^-1 after n exact steps", function()
    -- notes 000 §2.5: H_{n+1} = A^-1 on a quadratic with exact line searches
    local r = optim.minimize(quad, luma.zeros(4, 1), { method = "bfgs", A = A4, gtol = 1e-12,
      return_hess_inv = true })
    assert.are.equal(4, r.iterations)
    assert.matrix_near(luma.linalg.inv(A4), r.hess_inv, 1e-8)
    -- along a non-quadratic run, check every H through the history of Rosenbrock
    local H = optim.minimize(rosen, { -1.2, 1 }, { method = "bfgs", return_hess_inv = true }).hess_inv
    assert.matrix_near(H, H:t(), 1e-15)
    assert.has_no.errors(function() luma.linalg.cholesky(H) end)
    local w = luma.linalg.eigh(H)
    assert.is_true(w:min() > 0)
  end)

  it("Newton on a quadratic converges in one step", function()
    local r = optim.minimize(quad, luma.zeros(4, 1), { method = "newton", hess = function() return A4 end })
    assert.are.equal(1, r.iterations)
    assert.matrix_near(luma.linalg.solve(A4, b4), r.x, 1e-12)
  end)

  it("L-BFGS-B honours box bounds", function()
    -- min of Rosenbrock with x1 <= 0.5: on the boundary, x2 = x1^2 = 0.25 (by hand)
    local r = optim.minimize(rosen, { -1.2, 1 }, { lower = { -2, -2 }, upper = { 0.5, 2 }, gtol = 1e-9 })
    assert.is_true(r.converged, r.message)
    assert.matrix_near({ { 0.5 }, { 0.25 } }, r.x, 1e-6)
    assert.is_true(math.abs(r.fun - 0.25) < 1e-10)
  end)

  it("the callback can stop the run and history records each iteration", function()
    local seen = 0
    local r = optim.minimize(rosen, { -1.2, 1 }, { history = true, callback = function(it)
      seen = it
      return it >= 5
    end })
    assert.is_false(r.converged)
    assert.are.equal("stopped by the callback", r.message)
    assert.are.equal(5, r.iterations)
    assert.are.equal(5, seen)
    assert.are.equal(5, #r.history)
    assert.is_true(r.history[5].fun <= r.history[1].fun)
  end)

  it("max_iter stops with converged = false and a message", function()
    local r = optim.minimize(rosen, { -1.2, 1 }, { method = "bfgs", max_iter = 3 })
    assert.is_false(r.converged)
    assert.are.equal(3, r.iterations)
    assert.are.equal("maximum number of iterations reached", r.message)
    for _, k in ipairs({ "x", "fun", "grad_norm", "iterations", "nfev", "ngev", "converged", "message" }) do
      assert.is_not_nil(r[k], k)
    end
  end)
end)

describe("optim line searches and one-dimensional solvers", function()
  local f = function(x) return (x - 2) ^ 2 + 1 end
  it("bracket {a, b, c} satisfies f(a) >= f(b) <= f(c)", function()
    local a, b, c, fa, fb, fc = optim.bracket(f, 0, 0.1)
    assert.is_true(a < b and b < c)
    assert.is_true(fa >= fb and fb <= fc)
  end)
  it("golden section and Brent refine the bracket to x = 2", function()
    local x = optim.golden_section(f, 0, 1, 5, { tol = 1e-10 })
    assert.is_true(math.abs(x - 2) < 1e-7)
    local xb = optim.brent(f, 0, 1, 5)
    assert.is_true(math.abs(xb - 2) < 1e-8)
  end)
  it("minimize_scalar brent, golden and bounded", function()
    assert.is_true(math.abs(optim.minimize_scalar(f).x - 2) < 1e-7)
    assert.is_true(math.abs(optim.minimize_scalar(f, { method = "golden" }).x - 2) < 1e-7)
    local r = optim.minimize_scalar(f, { bounds = { 3, 5 } }) -- minimum on the bound 3
    assert.are.equal(3, r.x)
    r = optim.minimize_scalar(math.cos, { bounds = { 0, 6 } }) -- pi
    assert.is_true(math.abs(r.x - math.pi) < 1e-5)
  end)
  it("Armijo returns a step with sufficient decrease; strong Wolfe meets both conditions", function()
    local phi = function(a) return (a - 3) ^ 2 end -- phi(0) = 9, phi'(0) = -6
    local a, fa = optim.armijo(phi, 9, -6, { alpha0 = 16 })
    assert.are.equal(4, a) -- 16 and 8 fail, 4 gives 1 <= 9 - 1e-4*4*6
    assert.are.equal(1, fa)
    local aw, fw = optim.strong_wolfe(function(t) return (t - 3) ^ 2, 2 * (t - 3) end, 9, -6)
    assert.is_true(fw <= 9 - 1e-4 * aw * 6)
    assert.is_true(math.abs(2 * (aw - 3)) <= 0.9 * 6)
  end)
  it("Newton root finding gives sqrt(a) (notes 002 O4)", function()
    local r = optim.root_scalar(function(x) return x * x - 2 end,
      { method = "newton", x0 = 1, fprime = function(x) return 2 * x end })
    assert.is_true(r.converged)
    assert.is_true(math.abs(r.root - math.sqrt(2)) < 1e-15)
    -- quadratic convergence from x0 = 1: 1.5, 1.41667, 1.414216, 1.41421356237469, then exact
    assert.is_true(r.iterations <= 6)
  end)
  it("bisection and Brent find the root of x^3 - 2x - 5 (2.0945514815423265, Wallis)", function()
    local g = function(x) return x ^ 3 - 2 * x - 5 end
    for _, m in ipairs({ "bisect", "brentq" }) do
      local r = optim.root_scalar(g, { method = m, bracket = { 2, 3 } })
      assert.is_true(math.abs(r.root - 2.0945514815423265) < 1e-11, m)
    end
    assert.has_error(function() optim.root_scalar(g, { method = "bisect", bracket = { 3, 4 } }) end)
  end)
end)

describe("optim numerical derivatives", function()
  local f = function(x) local a, b = x:get(1, 1), x:get(2, 1); return a * a * b + math.sin(b) end
  it("gradient and Hessian by finite differences match the closed forms", function()
    local x = col{ 1, 2 }
    assert.matrix_near({ { 4 }, { 1 + math.cos(2) } }, optim.approx_grad(f, x), 1e-9)
    assert.matrix_near({ { 4, 2 }, { 2, -math.sin(2) } }, optim.hessian(f, x), 1e-6)
  end)
  it("Jacobian rows index outputs (notes 000 §2.3)", function()
    local F = function(x) local a, b = x:get(1, 1), x:get(2, 1); return col{ a * b, a + 3 * b, a * a } end
    assert.matrix_near({ { 2, 1 }, { 1, 3 }, { 2, 0 } }, optim.jacobian(F, col{ 1, 2 }), 1e-9)
  end)
  it("check_grad accepts a right gradient and flags a wrong one", function()
    local rf = function(x, want) return rosen(x, want, luma.zeros(2, 1)) end
    local err = optim.check_grad(rf, nil, col{ -1.2, 1 })
    assert.is_true(err < 1e-5)
    local bad = optim.check_grad(rosen, function(x) local _, g = rosen(x, true, luma.zeros(2, 1)); return g * 1.01 end, col{ -1.2, 1 })
    assert.is_true(bad > 1)
  end)
end)

describe("optim stochastic optimizers", function()
  -- least squares 1/2n |Xw - y|^2 on fixed-seed data, minibatches of 10
  local g = luma.random.Generator(7)
  local X = g:normal(200, 3)
  local wtrue = col{ 1, -2, 0.5 }
  local y = X * wtrue
  local function loss(w) local r = X * w - y; return r:dot(r) / 400 end
  local cases = {
    { "SGD", { lr = 0.05 } }, { "Momentum", { lr = 0.01 } }, { "Nesterov", { lr = 0.01 } },
    { "Adagrad", { lr = 0.5 } }, { "RMSprop", { lr = 0.01 } }, { "Adam", { lr = 0.05 } },
    { "Adam", { lr = 0.05, bias_correction = false } }, { "Adam", { lr = 0.05, eps_placement = "outside" } },
    { "AdamW", { lr = 0.05, weight_decay = 1e-4 } },
  }
  for _, c in ipairs(cases) do
    it(c[1] .. " reduces a convex loss at least 100-fold", function()
      local opt = optim[c[1]](c[2])
      local w = luma.zeros(3, 1)
      local rng = luma.random.Generator(3)
      local before = loss(w)
      for _ = 1, 300 do
        local idx = rng:choice(200, 10)
        local Xb, yb = X:take(idx, 1), y:take(idx, 1)
        opt:step(w, Xb:t() * (Xb * w - yb) * (1 / 10))
      end
      assert.is_true(loss(w) < before / 100, c[1] .. " loss " .. loss(w))
    end)
  end
  it("Adam's first step is lr * sign(g) with bias correction (eps inside the root)", function()
    -- u^ = g, v^ = g^2: step lr g / sqrt(g^2 + eps)
    local p = col{ 1, 1 }
    optim.Adam{ lr = 0.1 }:step(p, col{ 2, -0.5 })
    assert.matrix_near({ { 1 - 0.1 * 2 / math.sqrt(4 + 1e-8) }, { 1 + 0.1 * 0.5 / math.sqrt(0.25 + 1e-8) } }, p, 1e-15)
    local q = col{ 1 }
    optim.Adam{ lr = 0.1, bias_correction = false }:step(q, col{ 2 })
    -- u = 0.2, v = 0.004: step 0.1 * 0.2 / sqrt(0.004 + 1e-8)
    assert.matrix_near({ { 1 - 0.1 * 0.2 / math.sqrt(0.004 + 1e-8) } }, q, 1e-15)
  end)
  it("momentum follows notes 001 §J: v = gamma v + lr g, theta -= v", function()
    local p = col{ 0 }
    local o = optim.Momentum{ lr = 0.1, momentum = 0.5 }
    o:step(p, col{ 1 }) -- v = 0.1, p = -0.1
    o:step(p, col{ 1 }) -- v = 0.15, p = -0.25
    assert.matrix_near({ { -0.25 } }, p, 1e-15)
  end)
  it("schedules: step, exponential, inverse time, cosine", function()
    local s = optim.schedules
    assert.is_true(math.abs(s.step{ lr0 = 1, step_size = 10, gamma = 0.1 }(25) - 0.01) < 1e-17)
    assert.is_true(math.abs(s.exponential{ lr0 = 1, gamma = 0.5 }(4) - 0.125) < 1e-15)
    assert.is_true(math.abs(s.inverse_time{ lr0 = 1, decay = 0.5 }(3) - 0.5) < 1e-15)
    assert.is_true(math.abs(s.cosine{ lr0 = 1, T_max = 10 }(6) - 0.5) < 1e-15)
    assert.are.equal(0, s.cosine{ lr0 = 1, T_max = 10 }(20))
    local o = optim.SGD{ lr = s.exponential{ lr0 = 1, gamma = 0.5 } }
    local p = col{ 0 }
    o:step(p, col{ 1 }); o:step(p, col{ 1 }) -- 1 + 0.5
    assert.matrix_near({ { -1.5 } }, p, 1e-15)
  end)
end)

describe("optim constraints", function()
  -- min x1^2 + x2^2 s.t. x1 + x2 = 1: (0.5, 0.5) by Lagrange (notes 000 §2.3)
  local f = function(x, want) local v = x:dot(x); if want then return v, x * 2 end; return v end
  it("the quadratic penalty method approaches the constrained minimum", function()
    local c = function(x, want)
      local v = col{ x:get(1, 1) + x:get(2, 1) - 1 }
      if want then return v, luma.matrix{ { 1, 1 } } end
      return v
    end
    local r = optim.penalty(f, c, { 0, 0 }, { tol = 1e-7 })
    assert.is_true(r.converged)
    assert.matrix_near({ { 0.5 }, { 0.5 } }, r.x, 1e-6)
  end)
  it("the log barrier solves min (x-2)^2 s.t. x <= 1 (answer 1)", function()
    local fx = function(x, want) local v = (x:get(1, 1) - 2) ^ 2; if want then return v, col{ 2 * (x:get(1, 1) - 2) } end; return v end
    local g = function(x, want) local v = col{ x:get(1, 1) - 1 }; if want then return v, luma.matrix{ { 1 } } end; return v end
    local r = optim.barrier(fx, g, { 0 }, { tol = 1e-9 })
    assert.is_true(r.converged)
    assert.is_true(math.abs(r.x:get(1, 1) - 1) < 1e-8)
    assert.has_error(function() optim.barrier(fx, g, { 2 }) end)
  end)
  it("projected gradient for a box", function()
    local r = optim.projected_gradient(rosen, { -1.2, 1 }, { -2, -2 }, { 0.5, 2 }, { gtol = 1e-8, max_iter = 100000 })
    assert.matrix_near({ { 0.5 }, { 0.25 } }, r.x, 1e-5)
  end)
  it("transforms: exp and square for positivity, tanh for an interval, softmax for the simplex", function()
    -- min (x - 3)^2 over x > 0 through x = e^y: 3
    local fx = function(x, want) local d = x - 3; if want then return d:dot(d), d * 2 end; return d:dot(d) end
    for _, T in ipairs({ optim.transforms.exp(), optim.transforms.square() }) do
      local r = optim.minimize(optim.transform_objective(fx, T), { 0.5 }, { gtol = 1e-10, ftol = 0 })
      assert.is_true(math.abs(T.forward(r.x):get(1, 1) - 3) < 1e-8)
    end
    local I = optim.transforms.interval(0, 1)
    local y = I.inverse(col{ 0.25 })
    assert.matrix_near({ { 0.25 } }, I.forward(y), 1e-14)
    -- the simplex: min |x - (0.2, 0.3, 0.5)|^2 is that point
    local target = col{ 0.2, 0.3, 0.5 }
    local fs = function(x, want) local d = x - target; if want then return d:dot(d), d * 2 end; return d:dot(d) end
    local S = optim.transforms.softmax()
    local r = optim.minimize(optim.transform_objective(fs, S), luma.zeros(3, 1), { gtol = 1e-12, ftol = 0 })
    assert.matrix_near(target, S.forward(r.x), 1e-6)
    -- the chain rule through each transform agrees with finite differences
    for _, T in ipairs({ optim.transforms.exp(), optim.transforms.square(), I, S }) do
      local h = optim.transform_objective(fs, T)
      assert.is_true(optim.check_grad(h, nil, col{ 0.3, -0.2, 0.1 }) < 1e-7)
    end
  end)
end)

describe("optim QP, NNLS and LP", function()
  it("LP: max x + y s.t. x + 2y <= 4, 3x + y <= 6 is (1.6, 1.2) (by hand: the two lines cross)", function()
    local r = optim.linprog(col{ -1, -1 }, { A_ub = { { 1, 2 }, { 3, 1 } }, b_ub = { 4, 6 } })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { 1.6 }, { 1.2 } }, r.x, 1e-12)
    assert.is_true(math.abs(r.fun + 2.8) < 1e-12)
  end)
  it("LP: Beale's cycling example (degenerate at the origin) reaches its optimum", function()
    -- min -3/4 x1 + 20 x2 - 1/2 x3 + 6 x4 s.t. 1/4 x1 - 8 x2 - x3 + 9 x4 <= 0,
    -- 1/2 x1 - 12 x2 - 1/2 x3 + 3 x4 <= 0, x3 <= 1: textbook Dantzig pricing with
    -- first-row ties cycles here; the optimum is x = (1, 0, 1, 0), value -5/4
    local r = optim.linprog(col{ -0.75, 20, -0.5, 6 }, { A_ub = { { 0.25, -8, -1, 9 },
      { 0.5, -12, -0.5, 3 }, { 0, 0, 1, 0 } }, b_ub = { 0, 0, 1 } })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { 1 }, { 0 }, { 1 }, { 0 } }, r.x, 1e-12)
    assert.near(-1.25, r.fun, 1e-12)
  end)
  it("LP: a degenerate vertex (three constraints through (1, 1)) does not cycle", function()
    -- max x + y s.t. x <= 1, y <= 1, x + y <= 2, with x, y >= 0
    local r = optim.linprog(col{ -1, -1 }, { A_ub = { { 1, 0 }, { 0, 1 }, { 1, 1 } }, b_ub = { 1, 1, 2 } })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-12)
  end)
  it("LP: equalities, free variables and bounds; least absolute deviation regression", function()
    -- LAD line through (0,0), (1,1), (2,2), (3,10), (4,4): the line y = x
    -- through the four collinear points (objective |10 - 3| = 7) is the
    -- unique optimum, since moving it changes four residuals to first order
    local xs, ys = { 0, 1, 2, 3, 4 }, { 0, 1, 2, 10, 4 }
    -- variables a, b, e1..e5 with -e <= y - a - b x <= e
    local c = col{ 0, 0, 1, 1, 1, 1, 1 }
    local Aub, bub = {}, {}
    for i = 1, 5 do
      local r1, r2 = { -1, -xs[i], 0, 0, 0, 0, 0 }, { 1, xs[i], 0, 0, 0, 0, 0 }
      r1[2 + i] = -1; r2[2 + i] = -1
      Aub[#Aub + 1] = r1; bub[#bub + 1] = -ys[i]
      Aub[#Aub + 1] = r2; bub[#bub + 1] = ys[i]
    end
    local lower = col{ -math.huge, -math.huge, 0, 0, 0, 0, 0 }
    local r = optim.linprog(c, { A_ub = Aub, b_ub = bub, lower = lower })
    assert.are.equal("optimal", r.status)
    assert.is_true(math.abs(r.fun - 7) < 1e-10)
    assert.matrix_near({ { 0 }, { 1 } }, r.x:sub(1, 2, 1, 1), 1e-10)
    -- an equality: min x s.t. x + y = 3, y <= 2 -> x = 1
    local e = optim.linprog(col{ 1, 0 }, { A_eq = { { 1, 1 } }, b_eq = { 3 }, upper = col{ math.huge, 2 } })
    assert.matrix_near({ { 1 }, { 2 } }, e.x, 1e-12)
  end)
  it("LP: infeasible and unbounded problems are reported, not answered", function()
    local r = optim.linprog(col{ 1, 1 }, { A_ub = { { 1, 1 } }, b_ub = { -1 } })
    assert.are.equal("infeasible", r.status)
    assert.is_false(r.converged)
    assert.is_nil(r.x)
    r = optim.linprog(col{ -1, 0 }, { A_ub = { { 0, 1 } }, b_ub = { 1 } })
    assert.are.equal("unbounded", r.status)
  end)
  it("NNLS (Lawson-Hanson) on a problem solved by hand", function()
    -- x2 = 0 is active; then x1 minimizes (x1-2)^2 + 1 + (x1-1)^2: 1.5, residual sqrt(1.5)
    local x, rn = optim.nnls(luma.matrix{ { 1, 0 }, { 0, 1 }, { 1, 1 } }, col{ 2, -1, 1 })
    assert.matrix_near({ { 1.5 }, { 0 } }, x, 1e-14)
    assert.is_true(math.abs(rn - math.sqrt(1.5)) < 1e-14)
    -- an unconstrained optimum already non-negative is the least-squares solution
    local A = luma.matrix{ { 1, 2 }, { 3, 4 }, { 5, 7 } }
    local xs = col{ 1, 2 }
    local xn = optim.nnls(A, A * xs)
    assert.matrix_near(xs, xn, 1e-12)
  end)
  it("QP: equality constraint and box (hand-checked)", function()
    local r = optim.qp(luma.eye(2), col{ -1, -1 }, { A_eq = { { 1, 1 } }, b_eq = { 1 } })
    assert.matrix_near({ { 0.5 }, { 0.5 } }, r.x, 1e-14)
    -- min 1/2|x|^2 - 3 x1 - x2 on [0,1]^2: the unconstrained (3, 1) clipped to (1, 1)
    r = optim.qp(luma.eye(2), col{ -3, -1 }, { lower = 0, upper = 1 })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-14)
    -- a degenerate one: the bound x1 <= 1 and x1 + x2 <= 2 both active at (1, 1) for c = (-3, -3)
    r = optim.qp(luma.eye(2), col{ -3, -3 }, { A_ub = { { 1, 1 } }, b_ub = { 2 }, upper = col{ 1, 1 } })
    assert.matrix_near({ { 1 }, { 1 } }, r.x, 1e-9)
  end)

  -- SVM QPs of notes 004 §12.5 on 7 points.  scikit-learn's SVC(kernel =
  -- "linear", C = 1, tol = 1e-12) gives w = (-2/3, 4/3), b = -1, primal
  -- value 25/9, alpha (support 4, 6, 1, 3, 7; 1-based) = (1/18, 0, 8/9,
  -- 17/18, 0, 1, 1).
  local X = luma.matrix{ { 1, 2 }, { 2, 3 }, { 3, 3 }, { 2, 1 }, { 3, 1 }, { 4, 2.5 }, { 2.5, 2 } }
  local y = col{ 1, 1, 1, -1, -1, -1, 1 }
  local N, D, C = 7, 2, 1.0
  it("QP: the SVM primal (12.55-12.56) over [w; b; xi]", function()
    local n = D + 1 + N
    local P = luma.zeros(n, n)
    P:sub(1, D, 1, D):assign(luma.eye(D))
    local q = luma.vstack({ luma.zeros(D + 1, 1), luma.full(N, 1, C) })
    local YX = X:mul(y)
    local G = luma.vstack({ luma.hstack({ -YX, -y, -luma.eye(N) }), luma.hstack({ luma.zeros(N, D + 1), -luma.eye(N) }) })
    local h = luma.vstack({ luma.full(N, 1, -1), luma.zeros(N, 1) })
    local r = optim.qp(P, q, { A_ub = G, b_ub = h })
    assert.are.equal("optimal", r.status)
    assert.matrix_near({ { -2 / 3 }, { 4 / 3 }, { -1 } }, r.x:sub(1, 3, 1, 1), 1e-10)
    assert.is_true(math.abs(r.fun - 25 / 9) < 1e-10)
  end)
  it("QP: the SVM dual (12.57) with y'alpha = 0 and 0 <= alpha <= C", function()
    local K = X * X:t()
    local Q = K:mul(y * y:t())
    local r = optim.qp(Q, luma.full(N, 1, -1), { A_eq = y:t(), b_eq = { 0 }, lower = 0, upper = C })
    assert.are.equal("optimal", r.status)
    assert.is_true(math.abs(r.fun + 25 / 9) < 1e-10) -- strong duality
    local w = X:t() * r.x:mul(y)
    assert.matrix_near({ { -2 / 3 }, { 4 / 3 } }, w, 1e-10)
    assert.matrix_near({ { 1 / 18 }, { 0 }, { 8 / 9 }, { 17 / 18 }, { 0 }, { 1 }, { 1 } }, r.x, 1e-10)
  end)
end)

describe("optim native objectives", function()
  -- X_ij = sin(0.7 i j + 0.3 i), 40 x 3; references from scikit-learn's
  -- LogisticRegression(tol = 1e-12) on the same formula.
  local n, d = 40, 3
  local X = luma.zeros(n, d)
  for i = 1, n do for j = 1, d do X:set(i, j, math.sin(0.7 * i * j + 0.3 * i)) end end
  local ybin, y3, sw = luma.zeros(n, 1), luma.zeros(n, 1), luma.zeros(n, 1)
  for i = 1, n do
    local s = X:get(i, 1) - 2 * X:get(i, 2) + 0.5 * X:get(i, 3) + 0.3 * math.cos(i)
    ybin:set(i, 1, s > 0 and 1 or 0)
    y3:set(i, 1, X:get(i, 1) > 0.3 and 3 or (X:get(i, 2) > 0 and 2 or 1))
    sw:set(i, 1, 1 + i % 3)
  end
  it("logistic loss with sample weights matches scikit-learn (C = 2)", function()
    local obj = optim.logistic_loss(X, ybin, { C = 2, sample_weight = sw })
    assert.are.equal(4, obj:size())
    local r = optim.minimize(obj, luma.zeros(4, 1), { gtol = 1e-10 })
    assert.is_true(r.converged)
    assert.matrix_near({ { 1.16793778734 }, { -4.453466475703 }, { -0.768377532508 }, { 0.009330024482 } }, r.x, 1e-7)
    -- the definition: C * sum s_i log(1 + exp(-y_i (x_i w + b))) + |w|^2 / 2, by hand
    local w = col{ 0.3, -0.2, 0.1, 0.05 }
    local v, g = obj(w, true)
    local ref = 0
    for i = 1, n do
      local m = (ybin:get(i, 1) == 1 and 1 or -1) * (X:row(i) * w:sub(1, 3, 1, 1) + 0.05):get(1, 1)
      ref = ref + sw:get(i, 1) * math.log(1 + math.exp(-m))
    end
    ref = 2 * ref + 0.5 * (0.09 + 0.04 + 0.01)
    assert.is_true(math.abs(v - ref) < 1e-12)
    assert.matrix_near(optim.approx_grad(function(z) return obj(z) end, w), g, 1e-8)
  end)
  it("softmax loss matches scikit-learn's multinomial LogisticRegression (C = 0.5)", function()
    local obj = optim.softmax_loss(X, y3, { C = 0.5 })
    assert.are.equal(12, obj:size())
    local r = optim.minimize(obj, luma.zeros(12, 1), { gtol = 1e-10 })
    assert.is_true(r.converged)
    local W = r.x:sub(1, 9, 1, 1):reshape(3, 3) -- d x K
    assert.matrix_near({ { -0.746771137849, -0.914259885459, 1.661031023307 },
      { -1.152113758135, 1.13200374309, 0.020110015045 },
      { -0.083141478503, 0.140151811833, -0.057010333331 } }, W, 1e-7)
    assert.matrix_near({ { -0.131244018977 }, { -0.073835790499 }, { 0.205079809476 } }, r.x:sub(10, 12, 1, 1), 1e-7)
    local z = luma.random.Generator(2):normal(12, 1)
    local _, g = obj(z, true)
    assert.matrix_near(optim.approx_grad(function(v) return obj(v) end, z), g, 1e-7)
  end)
  it("a transposed (column-major) X gives the same loss", function()
    local Xt = X:t():copy():t()
    local a = optim.logistic_loss(X, ybin)
    local b = optim.logistic_loss(Xt, ybin)
    local w = col{ 0.1, 0.2, 0.3, 0.4 }
    assert.is_true(math.abs(a(w) - b(w)) < 1e-12)
  end)
  it("rejects bad labels", function()
    assert.has_error(function() optim.logistic_loss(X, y3) end)
  end)
end)

describe("optim bad input", function()
  it("an objective returning NaN stops with the iteration", function()
    local calls = 0
    local f = function(x, want)
      calls = calls + 1
      if calls > 5 then return 0 / 0, x end
      return rosen(x, want, luma.zeros(2, 1))
    end
    assert.has_error(function() optim.minimize(f, { -1.2, 1 }) end,
      nil) -- message checked below
    calls = 0
    local ok, err = pcall(optim.minimize, f, { -1.2, 1 })
    assert.is_false(ok)
    assert.truthy(err:find("objective returned NaN at iteration %d+"))
    calls = 0
    ok, err = pcall(optim.minimize, f, { -1.2, 1 }, { method = "bfgs" })
    assert.truthy(err:find("objective returned NaN at iteration %d+"))
  end)
  it("an objective returning a non-number is an error naming the type", function()
    local ok, err = pcall(optim.minimize, function() return "x" end, { 1 })
    assert.is_false(ok)
    assert.truthy(err:find("objective returned string at iteration 0"))
  end)
  it("a gradient of the wrong shape is an error", function()
    local ok, err = pcall(optim.minimize, function(x, want) return 1, luma.zeros(3, 1) end, { 1, 2 })
    assert.is_false(ok)
    assert.truthy(err:find("gradient is 3 x 1 at iteration 0, expected 2 x 1", 1, true))
    ok, err = pcall(optim.minimize, function(x, want) return 1, luma.zeros(3, 1) end, { 1, 2 }, { method = "cg" })
    assert.truthy(err:find("gradient is 3 x 1", 1, true))
  end)
  it("non-finite x0 is an argument error", function()
    local ok, err = pcall(optim.minimize, rosen, { 1, 0 / 0 })
    assert.truthy(err:find("bad argument #2 to 'minimize' (x0 has NaN at row 2)", 1, true))
    ok, err = pcall(optim.minimize, rosen, { math.huge, 0 })
    assert.truthy(err:find("x0 has an infinite value at row 1", 1, true))
  end)
  it("a lower bound above the upper bound is an argument error", function()
    local ok, err = pcall(optim.minimize, rosen, { 0, 0 }, { lower = { 0, 2 }, upper = { 1, 1 } })
    assert.is_false(ok)
    assert.truthy(err:find("lower bound 2 is above upper bound 1 at row 2", 1, true))
    assert.has_error(function() optim.qp(luma.eye(1), col{ 0 }, { lower = 1, upper = 0 }) end)
    assert.has_error(function() optim.linprog(col{ 1 }, { lower = 1, upper = 0 }) end)
  end)
  it("an infeasible QP is reported as infeasible", function()
    -- x1 + x2 = 3 with 0 <= x <= 1
    local r = optim.qp(luma.eye(2), col{ -3, -1 }, { lower = 0, upper = 1, A_eq = { { 1, 1 } }, b_eq = { 3 } })
    assert.are.equal("infeasible", r.status)
    assert.is_false(r.converged)
    assert.is_nil(r.x)
  end)
  it("an infeasible LP is reported as infeasible", function()
    local r = optim.linprog(col{ 1 }, { A_eq = { { 1 } }, b_eq = { -1 } }) -- x = -1 with x >= 0
    assert.are.equal("infeasible", r.status)
    assert.are.equal("problem is infeasible", r.message)
  end)
  it("unknown options and methods list the valid ones", function()
    local ok, err = pcall(optim.minimize, rosen, { 0, 0 }, { mehtod = "bfgs" })
    assert.truthy(err:find("unknown option 'mehtod'", 1, true))
    ok, err = pcall(optim.minimize, rosen, { 0, 0 }, { method = "sgd" })
    assert.truthy(err:find("unknown method 'sgd'", 1, true))
  end)
end)

describe("optim docs", function()
  it("help records exist for the module and minimize", function()
    assert.is_not_nil(luma.doc.get(optim))
    assert.is_not_nil(luma.doc.get(optim.minimize))
    -- by object (the by-name index holds records weakly: a test runner that
    -- reloads modules may leave it without this one), and by name through help
    assert.is_not_nil(luma.doc.get(optim.qp))
    assert.matches("^luma%.optim%.qp", luma.help("luma.optim.qp"))
  end)
end)
