--- luma.mixture.em: the one EM driver of every mixture model (not public).
--
-- Generic EM (notes 001 §D "Generic EM algorithm", 004 G9, 002 U13–U14):
-- initialize theta, then alternate the E-step (responsibilities
-- r_nk = p(z_n = k | x_n, theta)) and the M-step (theta maximizing the
-- expected complete-data log-likelihood) until the bound moves by less
-- than tol; restart n_init times from fresh initializations and keep the
-- run with the largest final bound (002 U13, 004 G9).  The bound recorded
-- at iteration t is the (average) log-likelihood of the parameters the
-- E-step of iteration t used -- scikit-learn's lower_bound_ -- so the
-- history is L(theta_0), L(theta_1), ..., which EM never decreases
-- (Dempster, Laird and Rubin 1977; notes 001 §D, 004 G9): the property
-- each model's spec tests.
--
-- A model is a table of functions over the estimator self:
--   initialize(self, X, rng)        fresh parameters
--   e_step(self, X) -> bound, log_resp   average log-likelihood, n x k
--   m_step(self, X, log_resp)
--   lower_bound(self, X, log_resp, bound) -> number   (optional: variational
--                                   models; default the E-step's bound)
--   get_state(self) -> table, set_state(self, table)   the fitted parameters
-- Parameters read from self.params: n_init, max_iter, tol, warm_start, seed.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.mixture.common")

local em = {}

-- warm_start: the estimator contract forgets fitted fields before each
-- fit, so the last state of each estimator is kept here (weak keys: it
-- goes with the estimator).  A loaded estimator starts cold.
local warm = setmetatable({}, { __mode = "k" })

--- em.fit(self, X, model, name) -> labels (n x 1): runs EM and leaves the
-- best parameters in self with n_iter, converged, lower_bound and
-- lower_bound_history (the bounds of the kept run, a column).
function em.fit(self, X, model, name)
  local p = self.params
  local previous = p.warm_start and warm[self] or nil
  local n_init = previous and 1 or p.n_init
  local rng = estimator.rng(p.seed)
  local best, any_converged
  for _ = 1, n_init do
    local bound
    if previous then
      model.set_state(self, previous.state)
      bound = previous.lower_bound
    else
      model.initialize(self, X, rng)
      bound = -math.huge
    end
    local history, converged, n_iter = {}, false, 0
    if p.max_iter == 0 then
      bound = model.e_step(self, X)
      history[1] = bound
    end
    for it = 1, p.max_iter do
      local before = bound
      local log_prob_norm, log_resp = model.e_step(self, X)
      model.m_step(self, X, log_resp)
      bound = model.lower_bound and model.lower_bound(self, X, log_resp, log_prob_norm)
        or log_prob_norm
      history[it], n_iter = bound, it
      if math.abs(bound - before) < p.tol then
        converged = true
        break
      end
    end
    any_converged = any_converged or converged
    if best == nil or bound > best.bound then
      best = { bound = bound, state = model.get_state(self), n_iter = n_iter,
               converged = converged, history = history }
    end
  end
  if not any_converged and p.max_iter > 0 then
    common.warning("%s did not converge in %d iterations (n_init = %d); raise max_iter or tol, "
      .. "or check the initialization", name, p.max_iter, n_init)
  end
  model.set_state(self, best.state)
  self.n_iter = best.n_iter
  self.converged = best.converged
  self.lower_bound = best.bound
  self.lower_bound_history = luma.matrix(best.history)
  warm[self] = { state = best.state, lower_bound = best.bound }
  -- a final E-step, so that fit_predict's labels are predict's on X
  local _, log_resp = model.e_step(self, X)
  return log_resp:argmax(2)
end

return em
