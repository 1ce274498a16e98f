--- luma.lds KalmanFilter: the linear dynamical system (linear-Gaussian
-- state-space model) with its Kalman filter, RTS smoother, likelihood,
-- sampling and EM (notes 003 §1.14 L931-978 and §3 items 14-16).
--
-- Model: z_1 ~ N(mu0, P0), z_t = A z_{t-1} + w_t, w_t ~ N(0, Q) (the
-- notes' Gamma), x_t = C z_t + v_t, v_t ~ N(0, R) (the notes' Sigma).
-- The parameter names are pykalman's: transition_matrix A,
-- transition_covariance Q, observation_matrix C, observation_covariance
-- R, initial_state_mean mu0, initial_state_covariance P0.
--
-- The recursions run natively over the whole sequence (luma.lds.native,
-- src/ml/lds/lds.c).  Covariance sequences are n x m^2 matrices: row t is
-- the t-th m x m covariance flattened row by row (lds.unflatten(V, t)
-- gives it back as a matrix); sums over time are then one column sum.
--
-- EM (Shumway and Stoffer 1982; Ghahramani and Hinton 1996; Bishop
-- sec. 13.3.2), the M-step of notes 003 §3 item 16 with its errata fixed:
-- A = (sum_{t>=2} E[z_t z_{t-1}^T]) (sum_{t>=2} E[z_{t-1} z_{t-1}^T])^-1
-- (the notes put E[z_t z_t^T] in the second factor), and the Gamma/Sigma
-- updates with their transposes in place.  C and R use the observed rows
-- only (a NaN row is missing).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")
local dcommon = require("luma.decomposition.common")
local native = require("luma.lds.native")

local fail, number_text = dcommon.fail, dcommon.number_text
local linalg = luma.linalg

local M = {}

local NAME = "KalmanFilter"
local PARAMS = { "transition_matrix", "transition_covariance", "observation_matrix",
  "observation_covariance", "initial_state_mean", "initial_state_covariance" }
local COVARIANCES = { transition_covariance = true, observation_covariance = true,
  initial_state_covariance = true }

--- M.unflatten(V, t): the t-th m x m block of an n x m^2 covariance
-- sequence, as a new matrix.
function M.unflatten(V, t)
  if not luma.ismatrix(V) then
    fail("bad argument #1 to 'unflatten' (luma.Matrix expected, got %s)", type(V))
  end
  local m = math.tointeger(math.sqrt(V:cols()))
  if not m or m * m ~= V:cols() then
    fail("bad argument #1 to 'unflatten' (V has %d columns, not a square number)", V:cols())
  end
  if math.type(t) ~= "integer" or t < 1 or t > V:rows() then
    fail("bad argument #2 to 'unflatten' (t must be an integer in 1..%d)", V:rows())
  end
  return V:row(t):reshape(m, m):copy()
end

-- A symmetric positive semi-definite covariance parameter, or an error
-- naming it and its smallest eigenvalue.
local function check_psd(name, S)
  local scale = math.max(S:abs():max(), 1e-300)
  if (S - S:t()):abs():max() > 1e-10 * scale then
    fail("%s: %s must be symmetric", NAME, name)
  end
  local w = linalg.eigh(S, { vectors = false })
  local low = w:min()
  if low < -1e-10 * scale then
    fail("%s: %s is not positive semi-definite (smallest eigenvalue %s)", NAME, name,
      number_text(low))
  end
end

-- The model's six parameters for data of p columns: fitted values, else
-- the given ones, else pykalman's defaults (A = I, Q = I, C = the first m
-- columns of I_p, R = I, mu0 = 0, P0 = I), all shape-checked.
local function model_of(self, p, method)
  if self:is_fitted() then
    if p ~= self.n_features_in then
      fail("bad argument #1 to '%s' (X must have %d columns, got %d)", method,
        self.n_features_in, p)
    end
    local out = {}
    for _, k in ipairs(PARAMS) do out[k] = self[k] end
    return out
  end
  local prm = self.params
  local m = prm.n_dim_state
  if not m then
    m = (prm.transition_matrix and prm.transition_matrix:rows())
      or (prm.observation_matrix and prm.observation_matrix:cols())
      or (prm.initial_state_mean and prm.initial_state_mean:rows() * prm.initial_state_mean:cols())
      or p
  end
  local eye_pm = luma.zeros(p, m)
  for i = 1, math.min(p, m) do eye_pm:set(i, i, 1) end
  local out = {
    transition_matrix = prm.transition_matrix or luma.eye(m),
    transition_covariance = prm.transition_covariance or luma.eye(m),
    observation_matrix = prm.observation_matrix or eye_pm,
    observation_covariance = prm.observation_covariance or luma.eye(p),
    initial_state_mean = prm.initial_state_mean or luma.zeros(m, 1),
    initial_state_covariance = prm.initial_state_covariance or luma.eye(m),
  }
  if out.initial_state_mean:cols() ~= 1 then out.initial_state_mean = out.initial_state_mean:flatten() end
  local shapes = {
    transition_matrix = { m, m }, transition_covariance = { m, m },
    observation_matrix = { p, m }, observation_covariance = { p, p },
    initial_state_mean = { m, 1 }, initial_state_covariance = { m, m },
  }
  for _, k in ipairs(PARAMS) do
    local v, want = out[k], shapes[k]
    if v:rows() ~= want[1] or v:cols() ~= want[2] then
      fail("%s: %s must be %d x %d (state dimension %d, observation dimension %d), got %d x %d",
        NAME, k, want[1], want[2], m, p, v:rows(), v:cols())
    end
    if not v:isfinite():all() then fail("%s: %s has a non-finite element", NAME, k) end
    if COVARIANCES[k] then check_psd(k, v) end
  end
  return out
end

local function check_X(method, X)
  if not luma.ismatrix(X) then
    fail("bad argument #1 to '%s' (X must be a luma.Matrix, got %s)", method, type(X))
  end
  if X:rows() < 1 or X:cols() < 1 then fail("bad argument #1 to '%s' (X is empty)", method) end
end

-- The native pass over X with the model's parameters.
-- Its errors (a partly missing row, a covariance that is not positive
-- definite) are raised as this module's are, without a location in it.
local function run(mdl, X, opts)
  local r = table.pack(pcall(native.filter, X, mdl.transition_matrix, mdl.transition_covariance,
    mdl.observation_matrix, mdl.observation_covariance, mdl.initial_state_mean,
    mdl.initial_state_covariance, opts))
  if not r[1] then
    local msg = r[2]
    error(type(msg) == "string" and (msg:gsub("^lua/luma/[%w_/]+%.lua:%d+: ", "")) or msg, 0)
  end
  return table.unpack(r, 2, r.n)
end

local function pass(self, method, X, opts)
  check_X(method, X)
  return run(model_of(self, X:cols(), method), X, opts)
end

-- ------------------------------------------------------------------ EM

-- Sum over the rows of an n x m^2 covariance sequence, as m x m.
local function block_sum(V, m)
  return V:sum(1):reshape(m, m):copy()
end

local function sym(S) return (S + S:t()) * 0.5 end

-- One M-step from the smoothed moments r (native.filter with smooth) on
-- X; updates the parameters named in learn (a set) inside mdl.
local function m_step(mdl, X, r, learn, observed)
  local n, m = X:rows(), r.smoothed_means:cols()
  local Ms, Vs, Vc = r.smoothed_means, r.smoothed_covariances, r.cross_covariances
  local first, last = Ms:row(1):t(), Ms:row(n):t()
  local Ezz1 = M.unflatten(Vs, 1) + first * first:t()
  local Szz = block_sum(Vs, m) + Ms:t() * Ms
  if n >= 2 then
    local Sprev = Szz - (M.unflatten(Vs, n) + last * last:t()) -- t = 1..n-1
    local Snext = Szz - Ezz1                                   -- t = 2..n
    local Scross = block_sum(Vc, m) + Ms:sub(2, n):t() * Ms:sub(1, n - 1) -- E[z_t z_{t-1}^T]
    if learn.transition_matrix then
      mdl.transition_matrix = linalg.solve(Sprev, Scross:t(), { assume = "spd" }):t():copy()
    end
    if learn.transition_covariance then
      local A = mdl.transition_matrix
      local AS = A * Scross:t()
      mdl.transition_covariance = sym(Snext - AS - AS:t() + A * Sprev * A:t()) / (n - 1)
    end
  end
  local Xo, Mo, Vo = X, Ms, Vs
  if observed then Xo, Mo, Vo = X:take(observed), Ms:take(observed), Vs:take(observed) end
  local no = Xo:rows()
  local SzzO = block_sum(Vo, m) + Mo:t() * Mo
  local Sxz = Xo:t() * Mo
  if learn.observation_matrix then
    mdl.observation_matrix = linalg.solve(SzzO, Sxz:t(), { assume = "spd" }):t():copy()
  end
  if learn.observation_covariance then
    local C = mdl.observation_matrix
    local CSzx = C * Sxz:t()
    mdl.observation_covariance = sym(Xo:t() * Xo - CSzx - CSzx:t() + C * SzzO * C:t()) / no
  end
  if learn.initial_state_mean then mdl.initial_state_mean = first:copy() end
  if learn.initial_state_covariance then mdl.initial_state_covariance = sym(M.unflatten(Vs, 1)) end
end

-- The schema's check of em_vars: "all" or a list of names from PARAMS
-- (so that a misspelt name is an error at construction, with the value).
local function valid_em_vars(v)
  if v == "all" then return true end
  if type(v) ~= "table" then return false end
  local valid, n = {}, 0
  for _, k in ipairs(PARAMS) do valid[k] = true end
  for _ in pairs(v) do n = n + 1 end
  if n ~= #v then return false end
  for _, k in ipairs(v) do
    if not valid[k] then return false end
  end
  return true
end

local function learn_set(self)
  local v = self.params.em_vars
  local set = {}
  for _, k in ipairs(v == "all" and PARAMS or v) do set[k] = true end
  return set
end

-- Rows of X that are observed (nil when all are).
local function observed_rows(X)
  local miss = X:col(1):isnan()
  if not miss:any() then return nil end
  local idx = luma.matrix.find(miss:eq(0))
  if idx:rows() == 0 then fail("bad argument #1 to 'fit' (%s: every row of X is missing)", NAME) end
  return idx
end

local function fit(self, X)
  check_X("fit", X)
  local learn = learn_set(self)
  local mdl = model_of(self, X:cols(), "fit")
  local observed = observed_rows(X)
  local history = {}
  local p = self.params
  local iter = 0
  for i = 1, p.max_iter do
    local r = run(mdl, X, { smooth = true })
    history[i] = r.loglik
    iter = i
    if i > 1 and history[i] - history[i - 1] < p.tol then break end
    m_step(mdl, X, r, learn, observed)
  end
  for _, k in ipairs(PARAMS) do self[k] = mdl[k] end
  self.loglik_history = luma.matrix(#history > 0 and history or { 0 / 0 })
  self.n_iter = iter
end

-- ------------------------------------------------------------ methods

local function filter(self, X)
  local r = pass(self, "filter", X)
  return r.filtered_means, r.filtered_covariances, r.loglik
end

local function smooth(self, X)
  local r = pass(self, "smooth", X, { smooth = true })
  return r.smoothed_means, r.smoothed_covariances, r.cross_covariances
end

-- One-step predictions of the observations: C a_t and C P_t C^T + R.
local function predict(self, X)
  check_X("predict", X)
  local mdl = model_of(self, X:cols(), "predict")
  local r = run(mdl, X)
  local C, R = mdl.observation_matrix, mdl.observation_covariance
  local p = C:rows()
  local means = r.predicted_means * C:t()
  -- C P C^T for every row at once: (P flattened) times (C kron C)^T
  local covs = r.predicted_covariances * luma.matrix.kron(C, C):t() + R:reshape(1, p * p)
  return means, covs
end

local function loglikelihood(self, X)
  check_X("loglikelihood", X)
  return run(model_of(self, X:cols(), "loglikelihood"), X, { loglik_only = true })
end

local function sample(self, n, rng)
  if math.type(n) ~= "integer" or n < 1 then
    fail("bad argument #1 to 'sample' (n must be an integer >= 1, got %s)", tostring(n))
  end
  local p = self:is_fitted() and self.n_features_in
    or (self.params.observation_matrix and self.params.observation_matrix:rows())
    or (self.params.observation_covariance and self.params.observation_covariance:rows())
  if not p then
    fail("%s.sample: needs the observation dimension: fit first or give observation_matrix", NAME)
  end
  local mdl = model_of(self, p, "sample")
  rng = args.generator(rng, 2, "sample", 2) or estimator.rng(self.params.seed)
  local m = mdl.transition_matrix:rows()
  -- a factor L L^T = S of a PSD covariance (eigh, so singular ones work)
  local function factor(S)
    local w, U = linalg.eigh(S)
    return U:mul(w:clamp(0, math.huge):sqrt():t())
  end
  local W = rng:normal(n, m) * factor(mdl.transition_covariance):t()
  W:row(1):assign(rng:normal(1, m) * factor(mdl.initial_state_covariance):t()
    + mdl.initial_state_mean:t())
  local Z = native.recurse(mdl.transition_matrix, W)
  local Xs = Z * mdl.observation_matrix:t() + rng:normal(n, p) * factor(mdl.observation_covariance):t()
  return Z, Xs
end

M.KalmanFilter = estimator.class{
  name = "luma.lds.KalmanFilter",
  kind = "density",
  doc = "The linear dynamical system z_1 ~ N(mu0, P0), z_t = A z_{t-1} + N(0, Q), x_t = C z_t "
    .. "+ N(0, R) with its Kalman filter (Kalman 1960), Rauch-Tung-Striebel smoother (Rauch, "
    .. "Tung and Striebel 1965) and EM for the parameters (Shumway and Stoffer 1982; Bishop, "
    .. "Pattern Recognition and Machine Learning, sec. 13.3). Parameters not given default to "
    .. "pykalman's (identities, zero mean); filter, smooth, loglikelihood and sample work "
    .. "before fit with the given parameters (fit with max_iter = 0 just fixes them). A row of NaN in X is a missing "
    .. "observation (its update is skipped). Covariance sequences are n x m^2 matrices, row t "
    .. "the t-th covariance flattened (luma.lds.unflatten). fit runs EM on em_vars; fitted: "
    .. "the six parameters, loglik_history (never decreasing) and n_iter.",
  params = {
    { name = "transition_matrix", type = "matrix", doc = "A (m x m); default the identity" },
    { name = "transition_covariance", type = "matrix", doc = "Q (m x m, PSD); default the identity" },
    { name = "observation_matrix", type = "matrix", doc = "C (p x m); default the first m columns of I" },
    { name = "observation_covariance", type = "matrix", doc = "R (p x p, PSD); default the identity" },
    { name = "initial_state_mean", type = "matrix", doc = "mu0 (m x 1); default zero" },
    { name = "initial_state_covariance", type = "matrix", doc = "P0 (m x m, PSD); default the identity" },
    { name = "n_dim_state", type = "integer", min = 1,
      doc = "state dimension m when no parameter fixes it (default: the observation dimension)" },
    { name = "em_vars", type = "string|table", default = "all", check = valid_em_vars,
      expect = "\"all\" or a list of names among " .. table.concat(PARAMS, ", "),
      doc = "\"all\" or the list of parameter names fit learns (the others stay fixed)" },
    { name = "max_iter", type = "integer", default = 10, min = 0, doc = "EM iterations" },
    { name = "tol", type = "number", default = 0, min = 0,
      doc = "stop when the log-likelihood gains less in one iteration" },
    { name = "seed", type = "seed", doc = "generator of sample" },
  },
  example = function()
    local t = luma.arange(1, 30)
    return M.KalmanFilter{ n_dim_state = 1, max_iter = 3 },
      luma.matrix.hstack{ t:mul(0.3):sin(), t:mul(0.3):cos() }
  end,
  method_docs = {
    filter = { signature = "kf:filter(X) -> means, covariances, loglik",
      doc = "The Kalman filter over the rows of X: the filtered means E[z_t | x_1..x_t] (n x m), "
        .. "their covariances (n x m^2, Joseph-form updates) and the log-likelihood log p(X). "
        .. "Returns two matrices and a number." },
    smooth = { signature = "kf:smooth(X) -> means, covariances, cross_covariances",
      doc = "The RTS smoother: E[z_t | X] (n x m), cov(z_t | X) and the lag-one "
        .. "cov(z_t, z_{t-1} | X) (n x m^2 each; cross row 1 is zero). Returns three matrices." },
    predict = { signature = "kf:predict(X) -> means, covariances",
      doc = "One-step-ahead predictions of each observation from the ones before it: C a_t "
        .. "(n x p) and C P_t C^T + R (n x p^2). Returns two matrices." },
    score_samples = { signature = "kf:score_samples(X) -> matrix",
      doc = "The log-likelihood of each step given the earlier ones, log N(x_t | C a_t, C P_t "
        .. "C^T + R), from the innovations (0 for a missing row). Returns an n x 1 matrix." },
    loglikelihood = { signature = "kf:loglikelihood(X) -> number",
      doc = "log p(X), the sum of the innovations' log-densities. Returns a number." },
    sample = { signature = "kf:sample(n [, rng = nil]) -> states, observations",
      doc = "Draws a path of n steps; rng defaults to a generator made from seed. Returns the "
        .. "n x m states and the n x p observations." },
  },
  fit = fit,
  filter = filter,
  smooth = smooth,
  predict = predict,
  score_samples = function(self, X) return pass(self, "score_samples", X).loglik_steps end,
  loglikelihood = loglikelihood,
  sample = sample,
}

luma.doc.set(M.unflatten, { name = "luma.lds.unflatten",
  signature = "unflatten(V, t) -> matrix",
  doc = "The t-th covariance of an n x m^2 covariance sequence (as filter and smooth return) "
    .. "as an m x m matrix. Returns a new matrix." })

return M
