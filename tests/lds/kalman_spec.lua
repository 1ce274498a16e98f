-- luma.lds.KalmanFilter (lua/luma/lds/kalman.lua, src/ml/lds/lds.c).
--
-- CONDITIONING: the filter and the smoother are checked against the
-- closed-form Gaussian conditioning of the joint law of (z_1..z_5,
-- x_1..x_5), built here from the model (Var z_1 = P0, Var z_t = A Var
-- z_{t-1} A^T + Q, cov(z_s, z_t) = A^(s-t) Var z_t, x_t = C z_t + v_t) as
-- a luma.dist.MultivariateNormal and conditioned with its conditional
-- method: filtered = z_t given x_1..x_t, smoothed = z_t given x_1..x_5,
-- cross = the (z_t, z_{t-1}) block of the latter, log-likelihood = the
-- joint log-density of the x's.
-- STATSMODELS: statsmodels 0.13.5 (Debian /usr/bin/python3), for the model
--   and the 6 observations of "agrees with statsmodels":
--   from statsmodels.tsa.statespace.kalman_smoother import KalmanSmoother
--   k = KalmanSmoother(k_endog=2, k_states=2); k.bind(X) (6 x 2, row 4 NaN)
--   k.design = C; k.obs_cov = R; k.transition = A; k.selection = eye(2);
--   k.state_cov = Q; k.initialize_known(mu0, P0); r = k.smooth()
--   r.llf_obs.sum(), r.smoothed_state[:, 0], r.smoothed_state_cov[:, :, 2].ravel(),
--   r.filtered_state[:, 5]; printed with repr.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

-- fn raises an error containing text (plain, not a pattern).
local function errors_with(text, fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  assert.truthy(tostring(err):find(text, 1, true), tostring(err))
end
local KF, unflatten = luma.lds.KalmanFilter, luma.lds.unflatten

local A = luma.matrix{ { 0.9, 0.2 }, { -0.1, 0.8 } }
local Q = luma.matrix{ { 0.3, 0.05 }, { 0.05, 0.2 } }
local C = luma.matrix{ { 1.0, 0.5 }, { 0.0, 1.0 }, { 0.7, -0.3 } }
local R = luma.matrix{ { 0.5, 0.1, 0.0 }, { 0.1, 0.4, 0.05 }, { 0.0, 0.05, 0.6 } }
local mu0 = luma.matrix{ { 0.5 }, { -0.3 } }
local P0 = luma.matrix{ { 1.0, 0.2 }, { 0.2, 0.8 } }
local X = luma.matrix{ { 0.8, -0.1, 0.6 }, { 1.2, 0.4, 0.3 }, { 0.1, 0.9, -0.5 },
  { -0.4, 0.2, -0.6 }, { 0.3, -0.7, 0.9 } }
local m, p, n = 2, 3, 5

local function model() return KF{ transition_matrix = A, transition_covariance = Q,
  observation_matrix = C, observation_covariance = R, initial_state_mean = mu0,
  initial_state_covariance = P0 } end

-- The joint N(mean, cov) of (z_1..z_n, x_1..x_n): z_t at (t-1) m + 1..t m,
-- x_t at n m + (t-1) p + 1..
local function joint()
  local d = n * (m + p)
  local mean, cov = luma.zeros(d, 1), luma.zeros(d, d)
  local Ez, Vz = { mu0 }, { P0 }
  for t = 2, n do
    Ez[t] = A * Ez[t - 1]
    Vz[t] = A * Vz[t - 1] * A:t() + Q
  end
  local function zi(t) return (t - 1) * m + 1 end
  local function xi(t) return n * m + (t - 1) * p + 1 end
  local function put(r, c, B)
    cov:sub(r, r + B:rows() - 1, c, c + B:cols() - 1):assign(B)
  end
  for t = 1, n do
    mean:sub(zi(t), zi(t) + m - 1):assign(Ez[t])
    mean:sub(xi(t), xi(t) + p - 1):assign(C * Ez[t])
  end
  for s = 1, n do
    for t = 1, s do
      local Ast = luma.eye(m)
      for _ = t + 1, s do Ast = A * Ast end
      local Czz = Ast * Vz[t] -- cov(z_s, z_t)
      put(zi(s), zi(t), Czz); put(zi(t), zi(s), Czz:t())
      put(xi(s), zi(t), C * Czz); put(zi(t), xi(s), (C * Czz):t())
      put(zi(s), xi(t), Czz * C:t()); put(xi(t), zi(s), C * Czz:t())
      local Cxx = C * Czz * C:t()
      if s == t then Cxx = Cxx + R end
      put(xi(s), xi(t), Cxx); put(xi(t), xi(s), Cxx:t())
    end
  end
  return luma.dist.MultivariateNormal{ mean = mean, cov = (cov + cov:t()) / 2 }, zi, xi
end

-- z_first..z_last given the x_t for t in steps.
local function posterior(steps, first, last)
  local J, zi, xi = joint()
  local given, values = {}, {}
  for _, t in ipairs(steps) do
    for k = 0, p - 1 do
      given[#given + 1] = xi(t) + k
      values[#values + 1] = X:get(t, k + 1)
    end
  end
  local post = J:conditional(given, values) -- coordinates: the z's, in order
  local keep = {}
  for i = zi(first), zi(last) + m - 1 do keep[#keep + 1] = i end
  return post:marginal(keep)
end

local function upto(k) local s = {} for t = 1, k do s[t] = t end return s end

describe("KalmanFilter against the conditioning of the joint Gaussian", function()
  it("filters: z_t given x_1..x_t, and log p(X)", function()
    local means, covs, ll = model():filter(X)
    for t = 1, n do
      local post = posterior(upto(t), t, t)
      assert.matrix_near(post.mean:t(), means:row(t), 1e-10)
      assert.matrix_near(post.cov, unflatten(covs, t), 1e-10)
    end
    local J, _, xi = joint()
    local xs = {}
    for i = xi(1), xi(n) + p - 1 do xs[#xs + 1] = i end
    local marg = J:marginal(xs)
    assert.near(marg:logpdf(X:reshape(1, n * p)):get(1, 1), ll, 1e-10)
    assert.near(ll, model():loglikelihood(X), 1e-12)
  end)

  it("smooths: z_t given x_1..x_5, with the lag-one cross-covariances", function()
    local means, covs, cross = model():smooth(X)
    local post = posterior(upto(n), 1, n)
    assert.matrix_near(post.mean:reshape(n, m), means, 1e-10)
    for t = 1, n do
      local i = (t - 1) * m + 1
      assert.matrix_near(post.cov:sub(i, i + m - 1, i, i + m - 1), unflatten(covs, t), 1e-10)
      if t >= 2 then
        assert.matrix_near(post.cov:sub(i, i + m - 1, i - m, i - 1), unflatten(cross, t), 1e-10)
      end
    end
    assert.matrix_near(luma.zeros(1, m * m), cross:row(1), 0)
  end)

  it("skips a missing (NaN) row: the same as conditioning without it", function()
    local Xm = X:copy()
    Xm:row(3):fill(0 / 0)
    local kf = model()
    local means, covs = kf:smooth(Xm)
    local post = posterior({ 1, 2, 4, 5 }, 1, n)
    assert.matrix_near(post.mean:reshape(n, m), means, 1e-10)
    assert.matrix_near(post.cov:sub(5, 6, 5, 6), unflatten(covs, 3), 1e-10)
    local fm = kf:filter(Xm)
    assert.matrix_near(posterior({ 1, 2 }, 3, 3).mean:t(), fm:row(3), 1e-10)
  end)

  it("keeps covariances symmetric positive definite on a long sequence (Joseph form)", function()
    local kf = model()
    local _, Xs = kf:sample(2000, luma.random.Generator(3))
    local _, covs = kf:filter(Xs)
    local _, scovs = kf:smooth(Xs)
    for _, V in ipairs{ covs, scovs } do
      for _, t in ipairs{ 1, 10, 1000, 2000 } do
        local S = unflatten(V, t)
        assert.matrix_near(S, S:t(), 0)
        assert.is_true(luma.linalg.eigh(S, { vectors = false }):min() > 0)
      end
    end
  end)

  it("predicts one step ahead: C a_t and C P_t C^T + R, whose log-densities sum to log p(X)", function()
    local kf = KF{ transition_matrix = A, transition_covariance = Q, observation_matrix = C,
      observation_covariance = R, initial_state_mean = mu0, initial_state_covariance = P0,
      max_iter = 0 }:fit(X)
    local means, covs = kf:predict(X)
    assert.matrix_near(C * mu0, means:row(1):t(), 1e-14)
    assert.matrix_near(C * P0 * C:t() + R, covs:row(1):reshape(p, p), 1e-14)
    local total = 0
    for t = 1, n do
      local d = luma.dist.MultivariateNormal{ mean = means:row(t):t(), cov = covs:row(t):reshape(p, p):copy() }
      total = total + d:logpdf(X:row(t)):get(1, 1)
    end
    assert.near(total, kf:loglikelihood(X), 1e-10)
    assert.near(total, kf:score_samples(X):sum(), 1e-10)
  end)
end)

describe("KalmanFilter agrees with statsmodels", function()
  it("on a sequence with a missing row", function()
    local X6 = luma.matrix{ { 0.8, -0.1 }, { 1.2, 0.4 }, { 0.1, 0.9 }, { 0 / 0, 0 / 0 },
      { -0.4, 0.2 }, { 0.3, -0.7 } }
    local kf = KF{ transition_matrix = A, transition_covariance = Q,
      observation_matrix = luma.matrix{ { 1.0, 0.5 }, { 0.0, 1.0 } },
      observation_covariance = luma.matrix{ { 0.5, 0.1 }, { 0.1, 0.4 } },
      initial_state_mean = mu0, initial_state_covariance = P0 }
    local means, covs = kf:smooth(X6)
    local fm = kf:filter(X6)
    assert.near(-11.564935544455807, kf:loglikelihood(X6), 1e-10)
    assert.matrix_near({ { 0.6356106398691741, 0.09902623589570758 } }, means:row(1), 1e-10)
    assert.matrix_near({ { 0.20711804849311322, -0.010753578988519332, -0.010753578988519325,
      0.1543331348238954 } }, covs:row(3), 1e-10)
    assert.matrix_near({ { 0.20513281417467788, -0.21133254444426292 } }, fm:row(6), 1e-10)
  end)
end)

describe("KalmanFilter EM", function()
  it("never decreases the log-likelihood and moves towards the generating model", function()
    local truth = model()
    local states, Xs = truth:sample(400, luma.random.Generator(11))
    assert.equal(400, states:rows())
    local kf = KF{ n_dim_state = 2, max_iter = 30 }:fit(Xs)
    local h = kf.loglik_history
    assert.equal(30, h:rows())
    for i = 2, h:rows() do assert.is_true(h:get(i, 1) >= h:get(i - 1, 1) - 1e-8 * math.abs(h:get(i - 1, 1))) end
    assert.is_true(h:get(30, 1) > h:get(1, 1) + 100)
    -- the learned parameters explain the data at least as well as the last E-step said
    assert.is_true(kf:loglikelihood(Xs) >= h:get(30, 1))
  end)

  it("learns only em_vars and handles missing rows", function()
    local _, Xs = model():sample(200, luma.random.Generator(5))
    Xs:row(7):fill(0 / 0)
    Xs:row(50):fill(0 / 0)
    local kf = KF{ transition_matrix = A, observation_matrix = C, em_vars = { "transition_covariance",
      "observation_covariance" }, max_iter = 15 }:fit(Xs)
    assert.matrix_near(A, kf.transition_matrix, 0)
    assert.matrix_near(C, kf.observation_matrix, 0)
    local h = kf.loglik_history
    for i = 2, h:rows() do assert.is_true(h:get(i, 1) >= h:get(i - 1, 1) - 1e-8) end
    assert.is_true(kf.observation_covariance:get(1, 1) > 0)
  end)

  it("recovers a scalar random walk plus noise (local level model) from a long series", function()
    local truth = KF{ transition_matrix = luma.eye(1), transition_covariance = luma.full(1, 1, 0.5),
      observation_matrix = luma.eye(1), observation_covariance = luma.full(1, 1, 2.0) }
    local _, Xs = truth:sample(5000, luma.random.Generator(1))
    local kf = KF{ transition_matrix = luma.eye(1), observation_matrix = luma.eye(1),
      em_vars = { "transition_covariance", "observation_covariance" }, max_iter = 200, tol = 1e-9 }:fit(Xs)
    -- sampling error of the MLE with 5000 steps is a few percent
    assert.near(0.5, kf.transition_covariance:get(1, 1), 0.1)
    assert.near(2.0, kf.observation_covariance:get(1, 1), 0.2)
  end)
end)

describe("KalmanFilter bad input", function()
  it("rejects infinite observations", function()
    local Xi = X:copy()
    Xi:set(2, 2, math.huge)
    errors_with("X has an infinite element at row 2, column 2", function() model():filter(Xi) end)
  end)

  it("samples with a luma.Generator or none", function()
    errors_with("bad argument #2 to 'sample' (luma.Generator or nil expected, got string)",
      function() model():sample(3, "seed") end)
  end)

  it("rejects a partly missing row", function()
    local Xi = X:copy()
    Xi:set(4, 1, 0 / 0)
    errors_with("X row 4 is partly NaN", function() model():smooth(Xi) end)
  end)

  it("rejects a covariance that is not positive semi-definite", function()
    errors_with("KalmanFilter: transition_covariance is not positive semi-definite",
      function() KF{ transition_matrix = A, transition_covariance = luma.matrix{ { 1, 2 }, { 2, 1 } } }:filter(X:sub(1, 5, 1, 2)) end)
    errors_with("observation_covariance must be symmetric",
      function() KF{ observation_covariance = luma.matrix{ { 1, 0.5 }, { 0, 1 } } }:filter(X:sub(1, 5, 1, 2)) end)
  end)

  it("rejects parameters of the wrong shapes", function()
    errors_with("KalmanFilter: observation_matrix must be 3 x 2 (state dimension 2, observation dimension 3), got 2 x 2",
      function() KF{ transition_matrix = A, observation_matrix = luma.eye(2) }:filter(X) end)
    local kf = model():fit(X)
    errors_with("X must have 3 columns, got 2", function() kf:filter(X:sub(1, 5, 1, 2)) end)
  end)

  it("names a singular innovation covariance", function()
    errors_with("innovation covariance C P C^T + R is not positive definite at step 1",
      function() KF{ observation_covariance = luma.zeros(2, 2), initial_state_covariance = luma.zeros(2, 2) }
        :filter(X:sub(1, 5, 1, 2)) end)
  end)

  it("rejects an em_vars name it does not know", function()
    errors_with("parameter 'em_vars' must be \"all\" or a list of names among "
      .. "transition_matrix, transition_covariance, observation_matrix, observation_covariance, "
      .. "initial_state_mean, initial_state_covariance, got {\"A\"}",
      function() KF{ em_vars = { "A" } } end)
    errors_with("parameter 'em_vars' must be", function() KF{ em_vars = "some" } end)
  end)
end)
