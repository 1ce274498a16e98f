--- luma.optim: the optimization toolkit (issue 6; notes 000 §2.3, §2.5,
-- 001 §J, 002 §1.4, 003 §1.23, 004 §12.5).  One table merging the parts:
--   line_search  bracket, golden_section, brent, armijo, strong_wolfe
--   minimize     minimize: lbfgs / lbfgsb (the C engine), bfgs, cg, gd,
--                newton, nelder-mead; the conventions for objectives
--   scalar       minimize_scalar, root_scalar
--   derivatives  approx_grad, jacobian, hessian, check_grad
--   constrained  penalty, barrier, projected_gradient, transforms,
--                transform_objective
--   sgd          stochastic optimizers (SGD ... AdamW) and schedules
--   qp           qp, nnls, linprog
-- plus, from the native half (luma.optim.native), the objectives
-- logistic_loss, softmax_loss and is_objective.  common holds the helpers
-- the parts share.  Help records live with their functions; the ones here
-- are for the members of sgd, qp and the native half, which set none.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local native = require("luma.optim.native")
local common = require("luma.optim.common")

local optim = {}
for _, part in ipairs({ "line_search", "minimize", "scalar", "derivatives", "constrained", "sgd", "qp" }) do
  for name, value in pairs(require("luma.optim." .. part)) do optim[name] = value end
end
optim.logistic_loss = native.logistic_loss
optim.softmax_loss = native.softmax_loss
optim.is_objective = native.is_objective

common.document(optim, {
  qp = { "qp(Q, c [, {A_eq = nil, b_eq = nil, A_ub = nil, b_ub = nil, lower = nil, upper = "
      .. "nil, tol = 1e-10, max_iter = 200}]) -> result",
    "The convex QP min 1/2 x'Qx + c'x under linear and box constraints, by Mehrotra's "
      .. "primal-dual interior point with an active-set polish (Nocedal and Wright, Numerical "
      .. "Optimization, sec. 16.6); bounds keep their own slacks and multipliers (no constraint "
      .. "rows are built for them). Returns {x, fun, status, converged, message, iterations, "
      .. "residual, y, z}: residual is the largest KKT residual relative to max(1, |Q|, |c|); "
      .. "status \"optimal\" (residual <= tol), \"inaccurate\" (tol is below the attainable "
      .. "accuracy: the iteration stopped improving and x is the best iterate, the message "
      .. "says why), \"infeasible\", \"max_iter\" or \"unbounded\"; z lists the multipliers "
      .. "of A_ub's rows, then of the finite lower bounds, then of the finite upper bounds.",
    params = {
      { name = "A_eq", default = nil, doc = "p x n matrix of the equality constraints A_eq x = b_eq" },
      { name = "b_eq", default = nil, doc = "p x 1 right-hand side" },
      { name = "A_ub", default = nil, doc = "m x n matrix of the inequalities A_ub x <= b_ub" },
      { name = "b_ub", default = nil, doc = "m x 1 right-hand side" },
      { name = "lower", default = nil, doc = "lower bounds: a number or an n x 1 matrix (nil: none)" },
      { name = "upper", default = nil, doc = "upper bounds: a number or an n x 1 matrix (nil: none)" },
      { name = "tol", default = 1e-10, doc = "target for the relative KKT residual" },
      { name = "max_iter", default = 200, doc = "interior-point iterations at most" },
    } },
  nnls = { "nnls(A, b [, {max_iter = 3 n, tol = 10 eps |A|_1}]) -> x, rnorm",
    "Non-negative least squares min |A x - b|_2 subject to x >= 0 (Lawson and Hanson, "
      .. "Solving Least Squares Problems, ch. 23)." },
  linprog = { "linprog(c [, {A_ub = nil, b_ub = nil, A_eq = nil, b_eq = nil, lower = 0, upper "
      .. "= inf, max_iter = 10000}]) -> result",
    "The linear program min c'x by a dense two-phase simplex with Bland's rule. Returns {x, "
      .. "fun, status, converged, message, iterations}; status \"optimal\", \"infeasible\", "
      .. "\"unbounded\" or \"max_iter\"." },
})
common.document(optim.schedules, {
  step = { "schedules.step{lr0, step_size, gamma = 0.1} -> schedule",
    "Step decay lr0 gamma^floor((t - 1) / step_size). Returns a function t -> rate." },
  exponential = { "schedules.exponential{lr0, gamma} -> schedule",
    "Exponential decay lr0 gamma^(t - 1). Returns a function t -> rate." },
  inverse_time = { "schedules.inverse_time{lr0, decay = 1, power = 1} -> schedule",
    "lr0 / (1 + decay (t - 1))^power. Returns a function t -> rate." },
  cosine = { "schedules.cosine{lr0, T_max, lr_min = 0} -> schedule",
    "Cosine annealing lr_min + (lr0 - lr_min)(1 + cos(pi (t - 1) / T_max)) / 2, held at "
      .. "lr_min after T_max steps (Loshchilov and Hutter, SGDR, 2017). Returns a function "
      .. "t -> rate." },
}, "luma.optim.schedules")

-- The stochastic optimizers: each class's record from its defaults (lr
-- first), and one record for the per-parameter update every class has.
local OPTIMIZER_DOCS = {
  SGD = "Plain stochastic gradient descent, p -= lr (g + weight_decay p).",
  Momentum = "Gradient descent with heavy-ball momentum (Polyak, 1964).",
  Nesterov = "Gradient descent with Nesterov's accelerated momentum (Sutskever et al., "
    .. "2013).",
  Adagrad = "Adagrad: per-coordinate rates scaled by the summed squared gradients (Duchi, "
    .. "Hazan and Singer, 2011).",
  RMSprop = "RMSprop: per-coordinate rates scaled by a moving average of squared gradients "
    .. "(Tieleman and Hinton, 2012).",
  Adam = "Adam: bias-corrected moving averages of the gradient and its square (Kingma and "
    .. "Ba, 2015).",
  AdamW = "AdamW: Adam with decoupled weight decay (Loshchilov and Hutter, 2019).",
}
for name, text in pairs(OPTIMIZER_DOCS) do
  local cls = optim[name]
  local keys = {}
  for k in pairs(cls.defaults) do if k ~= "lr" then keys[#keys + 1] = k end end
  table.sort(keys)
  table.insert(keys, 1, "lr")
  local shown, params = {}, {}
  for i, k in ipairs(keys) do
    shown[i] = k .. " = " .. tostring(cls.defaults[k])
    params[i] = { name = k, default = cls.defaults[k] }
  end
  shown[#shown + 1] = "params = nil"
  luma.doc.set(cls, { name = "luma.optim." .. name,
    signature = name .. "{" .. table.concat(shown, ", ") .. "}", params = params,
    doc = text .. " opt:step(params, grads) updates one matrix or a list of matrices in "
      .. "place; with {params = model:parameters()} (luma.nn), opt:zero_grad() and opt:step() "
      .. "train a module from its Variables' gradients. lr may be a schedule (a function of "
      .. "the step count). See docs/OPTIM.md." })
  luma.doc.set(cls.update, { name = "luma.optim." .. name .. ".update",
    signature = "opt:update(p, g, state, lr) -> nothing",
    doc = "The update rule for one parameter matrix p with gradient g, its state table and "
      .. "this step's rate (step calls it for each matrix)." })
end
luma.doc.set(optim, { name = "luma.optim",
  doc = "Optimization (Nocedal and Wright, Numerical Optimization): minimize (lbfgs, "
    .. "lbfgsb, bfgs, cg, gd, newton, nelder-mead), line searches (bracket, golden_section, brent, "
    .. "armijo, strong_wolfe), minimize_scalar, root_scalar, approx_grad / jacobian / hessian / "
    .. "check_grad, stochastic optimizers (SGD, Momentum, Nesterov, Adagrad, RMSprop, Adam, AdamW) "
    .. "and schedules, penalty, barrier, projected_gradient, transforms, qp, nnls, linprog, and the "
    .. "native objectives logistic_loss and softmax_loss." })

return optim
