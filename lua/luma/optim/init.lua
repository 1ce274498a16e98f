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
  qp = { "qp(Q, c [, {A_eq, b_eq, A_ub, b_ub, lower, upper, tol, max_iter}])", "Convex QP min 1/2 x'Qx + c'x by a primal-dual interior point with an active-set polish; status optimal / infeasible / max_iter / unbounded." },
  nnls = { "nnls(A, b [, {max_iter}])", "Non-negative least squares (Lawson-Hanson); returns x, residual norm." },
  linprog = { "linprog(c [, {A_ub, b_ub, A_eq, b_eq, lower = 0, upper = inf}])", "Dense two-phase simplex (Bland's rule); status optimal / infeasible / unbounded / max_iter." },
  logistic_loss = { "logistic_loss(X, y [, {C = 1, fit_intercept = true, sample_weight}])",
    "Native objective C * sum_i s_i log(1 + exp(-y_i (x_i.w + b))) + |w|^2 / 2 (labels -1/+1 or 0/1; parameters w then b)." },
  softmax_loss = { "softmax_loss(X, y [, {C = 1, fit_intercept = true, sample_weight, n_classes}])",
    "Native objective C * sum_i s_i (-log softmax(x_i W + b)_{y_i}) + |W|_F^2 / 2 (labels 1..K; parameters W (d x K, row-major) then b)." },
})
for _, name in ipairs({ "SGD", "Momentum", "Nesterov", "Adagrad", "RMSprop", "Adam", "AdamW" }) do
  luma.doc.set(optim[name], { name = "luma.optim." .. name, signature = name .. "{lr, ...}",
    doc = "Stochastic optimizer; opt:step(params, grads) updates matrices in place. See docs/OPTIM.md for each update rule and its options." })
end
luma.doc.set(optim, { name = "luma.optim",
  doc = "Optimization (notes 000 §2.3/§2.5, 001 §J, 002 §1.4, 003 §1.23, 004 §12.5): minimize (lbfgs, "
    .. "lbfgsb, bfgs, cg, gd, newton, nelder-mead), line searches (bracket, golden_section, brent, "
    .. "armijo, strong_wolfe), minimize_scalar, root_scalar, approx_grad / jacobian / hessian / "
    .. "check_grad, stochastic optimizers (SGD, Momentum, Nesterov, Adagrad, RMSprop, Adam, AdamW) "
    .. "and schedules, penalty, barrier, projected_gradient, transforms, qp, nnls, linprog, and the "
    .. "native objectives logistic_loss and softmax_loss." })

return optim
