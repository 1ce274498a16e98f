--- luma.svm.platt: probability outputs of the SVM classifiers (notes 004
-- S20, "squashed probability ... Platt-style calibration").
--
-- A sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B)) is fitted to decision
-- values f of points the model did not train on (5-fold cross-validation
-- inside fit, folds from the estimator's seed), with Platt's smoothed
-- targets (Platt 1999) and the Newton method with backtracking of Lin, Lin
-- & Weng (Machine Learning 68, 2007).  With more than two classes the
-- pairwise probabilities of one-vs-one are coupled by Wu, Lin & Weng's
-- method 2 (JMLR 5, 2004).  This is LIBSVM's procedure; only the random
-- folds differ from it.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local platt = {}

local exp, log, abs, max, min, floor = math.exp, math.log, math.abs, math.max, math.min, math.floor

-- The negative log-likelihood term of one point, stable for any sign.
local function nll(f, t)
  if f >= 0 then return t * f + log(1 + exp(-f)) end
  return (t - 1) * f + log(1 + exp(f))
end

--- sigmoid_train(dec, labels) -> A, B: dec and labels (+1/-1) are Lua
-- lists of the same length.
function platt.sigmoid_train(dec, labels)
  local n = #dec
  local prior1, prior0 = 0, 0
  for i = 1, n do
    if labels[i] > 0 then prior1 = prior1 + 1 else prior0 = prior0 + 1 end
  end
  local max_iter, min_step, sigma, eps = 100, 1e-10, 1e-12, 1e-5
  -- Platt's targets: (N+ + 1)/(N+ + 2) and 1/(N- + 2) instead of 1 and 0
  local hi, lo = (prior1 + 1) / (prior1 + 2), 1 / (prior0 + 2)
  local t = {}
  local A, B = 0, log((prior0 + 1) / (prior1 + 1))
  local fval = 0
  for i = 1, n do
    t[i] = labels[i] > 0 and hi or lo
    fval = fval + nll(dec[i] * A + B, t[i])
  end
  for _ = 1, max_iter do
    -- gradient and Hessian (plus sigma I, strictly positive definite)
    local h11, h22, h21, g1, g2 = sigma, sigma, 0, 0, 0
    for i = 1, n do
      local f = dec[i] * A + B
      local p, q
      if f >= 0 then
        local e = exp(-f)
        p, q = e / (1 + e), 1 / (1 + e)
      else
        local e = exp(f)
        p, q = 1 / (1 + e), e / (1 + e)
      end
      local d2 = p * q
      h11 = h11 + dec[i] * dec[i] * d2
      h22 = h22 + d2
      h21 = h21 + dec[i] * d2
      local d1 = t[i] - p
      g1 = g1 + dec[i] * d1
      g2 = g2 + d1
    end
    if abs(g1) < eps and abs(g2) < eps then break end
    local det = h11 * h22 - h21 * h21
    local dA = -(h22 * g1 - h21 * g2) / det
    local dB = -(-h21 * g1 + h11 * g2) / det
    local gd = g1 * dA + g2 * dB
    local step = 1
    while step >= min_step do
      local newA, newB = A + step * dA, B + step * dB
      local newf = 0
      for i = 1, n do newf = newf + nll(dec[i] * newA + newB, t[i]) end
      if newf < fval + 1e-4 * step * gd then
        A, B, fval = newA, newB, newf
        break
      end
      step = step / 2
    end
    if step < min_step then break end -- the line search failed: keep the last point
  end
  return A, B
end

--- sigmoid_predict(dec, A, B) -> the matrix of P(+1 | f) for the matrix dec.
function platt.sigmoid_predict(dec, A, B)
  return (dec * -A - B):sigmoid()
end

--- cv_decisions(n, rng, fit_decide) -> a Lua list of n decision values,
-- each from a model that did not see that point: the points are shuffled
-- by rng and cut into 5 folds; fit_decide(train, test) (Lua lists of
-- positions) returns the decision values of test.
function platt.cv_decisions(n, rng, fit_decide)
  local folds = 5
  local perm = rng:permutation(n)
  local order = {}
  for i = 1, n do order[i] = math.tointeger(perm:get(i, 1)) end
  local dec = {}
  for f = 0, folds - 1 do
    local first, last = floor(f * n / folds), floor((f + 1) * n / folds)
    local train, test = {}, {}
    for i = 1, n do
      if i > first and i <= last then test[#test + 1] = order[i] else train[#train + 1] = order[i] end
    end
    if #test > 0 then
      local values = fit_decide(train, test)
      for i, pos in ipairs(test) do dec[pos] = values[i] end
    end
  end
  return dec
end

-- Wu, Lin & Weng's method 2: p minimizing sum_{i != j} (r_ji p_i - r_ij p_j)^2
-- over the simplex, by their fixed-point iteration on Q p = (p'Qp) e.
local function couple(r, k)
  local Q, p, Qp = {}, {}, {}
  for t = 1, k do
    p[t] = 1 / k
    Q[t] = {}
    Q[t][t] = 0
    for j = 1, k do
      if j ~= t then
        Q[t][t] = Q[t][t] + r[j][t] * r[j][t]
        Q[t][j] = -r[j][t] * r[t][j]
      end
    end
  end
  local eps, max_iter = 0.005 / k, max(100, k)
  for _ = 1, max_iter do
    local pQp = 0
    for t = 1, k do
      local s = 0
      for j = 1, k do s = s + Q[t][j] * p[j] end
      Qp[t] = s
      pQp = pQp + p[t] * s
    end
    local max_error = 0
    for t = 1, k do max_error = max(max_error, abs(Qp[t] - pQp)) end
    if max_error < eps then break end
    for t = 1, k do
      local diff = (-Qp[t] + pQp) / Q[t][t]
      p[t] = p[t] + diff
      pQp = (pQp + diff * (diff * Q[t][t] + 2 * Qp[t])) / (1 + diff) / (1 + diff)
      for j = 1, k do
        Qp[j] = (Qp[j] + diff * Q[t][j]) / (1 + diff)
        p[j] = p[j] / (1 + diff)
      end
    end
  end
  return p
end

--- proba(D, probA, probB, k) -> n x k: class probabilities from the
-- one-vs-one decision values D (n x pairs, positive for the pair's first
-- class, pairs in the order (1,2), (1,3), ..., (k-1,k)).
function platt.proba(D, probA, probB, k)
  local n = D:rows()
  local min_prob = 1e-7
  local R = {}
  for pair = 1, D:cols() do
    R[pair] = platt.sigmoid_predict(D:col(pair), probA:get(pair, 1), probB:get(pair, 1))
  end
  if k == 2 then
    -- the coupling's minimizer is then the pairwise probability itself
    -- (LIBSVM iterates towards it and stops within 0.0025)
    local r = R[1]:clamp(min_prob, 1 - min_prob)
    return luma.matrix.hstack{ r, -r + 1 }
  end
  local P = luma.zeros(n, k)
  local r = {}
  for i = 1, k do r[i] = {} end
  for row = 1, n do
    local pair = 0
    for i = 1, k - 1 do
      for j = i + 1, k do
        pair = pair + 1
        local v = min(max(R[pair]:get(row, 1), min_prob), 1 - min_prob)
        r[i][j], r[j][i] = v, 1 - v
      end
    end
    local p = couple(r, k)
    for c = 1, k do P:set(row, c, p[c]) end
  end
  return P
end

luma.doc.set(platt, { name = "luma.svm.platt",
  doc = "Probability outputs of the SVM classifiers: Platt's sigmoid on cross-validated "
    .. "decision values (Newton method of Lin, Lin & Weng 2007) and Wu, Lin & Weng's pairwise "
    .. "coupling." })

return platt
