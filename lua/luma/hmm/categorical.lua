--- luma.hmm CategoricalHMM: a hidden Markov model with discrete emissions
-- (notes 002 §1.16 Q7–Q12, the dice HMM; hmmlearn's CategoricalHMM with
-- 1-based symbols).
--
-- Observations are an n x 1 matrix of symbols 1..n_features; emissionprob
-- (k x n_features) is row-stochastic.  Baum-Welch's emission M-step
-- (Rabiner 1989, eq. 40c): emissionprob[j][v] = sum_t gamma_t(j) [x_t = v]
-- / sum_t gamma_t(j); a state with no expected visits keeps its row.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local base = require("luma.hmm.base")
local chain = require("luma.markov.chain")

local M = {}
local fail = base.fail

local model = {}

-- Symbols: integers in 1..F (F the fitted n_features, or the parameter;
-- at fit without it, the largest symbol).
function model.check_X(self, method, X, fitting)
  if X:cols() ~= 1 then
    fail("bad argument #1 to '%s' (%s: X must be an n x 1 column of symbols, got %d columns)",
      method, self.__class.short_name, X:cols())
  end
  local F = fitting and self.params.n_features or (not fitting and self.n_features)
  if X:isfinite():all() and X:eq(X:floor()):all() and X:min() >= 1 and (not F or X:max() <= F) then
    return
  end
  for t = 1, X:rows() do
    local v = X:get(t, 1)
    if not (v == math.floor(v) and v >= 1 and v < math.huge and (not F or v <= F)) then
      fail("bad argument #1 to '%s' (%s: X[%d] = %s is not a symbol of the alphabet 1..%s)",
        method, self.__class.short_name, t, base.number_text(v), F and tostring(F) or "n")
    end
  end
end

function model.initialize(self, X, rng)
  local p = self.params
  local k = p.n_components
  local E0 = luma.ismatrix(p.emissionprob_init) and p.emissionprob_init
  local F = p.n_features or (E0 and E0:cols()) or math.tointeger(X:max())
  self.n_features = F
  model.check_X(self, "fit", X) -- against the alphabet now known
  if p.emissionprob_init then
    local E = p.emissionprob_init
    if not luma.ismatrix(E) or E:rows() ~= k or E:cols() ~= F then
      fail("bad argument to 'fit' (emissionprob_init must be %d x %d)", k, F)
    end
    -- the same checks as a transition matrix's rows: non-negative, sum 1
    for i = 1, k do
      local row = E:row(i)
      if not row:isfinite():all() or row:min() < 0 then
        fail("bad argument to 'fit' (emissionprob_init row %d has a negative or non-finite "
          .. "probability)", i)
      end
      if math.abs(row:sum() - 1) > 1e-8 then
        fail("bad argument to 'fit' (row %d of emissionprob_init sums to %.15g, not 1)", i, row:sum())
      end
    end
    self.emissionprob = E:copy()
  else
    local R = rng:uniform(k, F)
    self.emissionprob = R:div(R:sum(2))
  end
end

function model.log_emission(self, X)
  return self.emissionprob:log():t():take(X)
end

function model.m_step(self, X, gamma)
  local F = self.n_features
  local counts = gamma:t() * luma.arange(1, F):t():eq(X) -- k x F
  local sums = counts:sum(2)
  local E = self.emissionprob
  for i = 1, counts:rows() do
    local s = sums:get(i, 1)
    if s > 0 then E:row(i):assign(counts:row(i) / s) end
  end
end

function model.n_emission_params(self)
  return self.params.n_components * (self.n_features - 1)
end

function model.sample_emission(self, states, rng)
  return chain.draw_rows(self.emissionprob, states, rng)
end

M.CategoricalHMM = base.class({
  name = "luma.hmm.CategoricalHMM",
  doc = "A hidden Markov model with categorical emissions (Rabiner 1989; Bishop, Pattern "
    .. "Recognition and Machine Learning, sec. 13.2), as hmmlearn's CategoricalHMM with "
    .. "symbols 1..n_features. X is an n x 1 column of symbols; several sequences are stacked "
    .. "with lengths. startprob is the distribution of the first observation's state (no "
    .. "transition before it). Fitted: startprob (1 x k), transmat (k x k, row-stochastic), "
    .. "emissionprob (k x n_features), n_features, history, n_iter, converged. Methods: "
    .. "predict (Viterbi), predict_proba (smoothing), filter, posteriors (gamma and xi), "
    .. "decode, score (log p(X)), sample, aic, bic.",
  params = {
    { name = "n_features", type = "integer", min = 1,
      doc = "number of symbols (default: the largest symbol in X at fit)" },
    { name = "emissionprob_init", type = "matrix",
      doc = "initial emission probabilities (k x n_features; default random rows)" },
  },
  example = function()
    return M.CategoricalHMM{ n_components = 2, seed = 1 },
      luma.matrix{ 1, 1, 2, 1, 3, 3, 2, 3, 3, 1, 1, 2 }
  end,
}, model)

return M
