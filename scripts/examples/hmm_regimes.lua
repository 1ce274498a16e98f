-- A regime-switching series decoded by a Gaussian hidden Markov model
-- (docs/HMM.md).
--
-- Daily "returns" switch between a calm regime (mean 0.05, sd 0.5) and a
-- turbulent one (mean -0.1, sd 2); regimes last about 50 and 20 days
-- (staying probabilities 0.98 and 0.95).  A 2-state GaussianHMM fitted by
-- Baum-Welch recovers the parameters, Viterbi decodes the regimes, and
-- BIC over 1..3 states picks 2.  Prints those numbers; given OUTDIR, also
-- draws the series with the posterior probability of the turbulent regime
-- into OUTDIR/hmm_regimes.svg.
--
--   luma scripts/examples/hmm_regimes.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local GaussianHMM = luma.hmm.GaussianHMM

local truth = GaussianHMM{ n_components = 2, n_iter = 0,
  startprob_init = luma.matrix{ { 1, 0 } },
  transmat_init = luma.matrix{ { 0.98, 0.02 }, { 0.05, 0.95 } },
  means_init = luma.matrix{ { 0.05 }, { -0.1 } },
  covars_init = luma.matrix{ { 0.25 }, { 4 } } }:fit(luma.zeros(2, 1))
local X, regimes = truth:sample(2000, luma.random.Generator(2024))

local model = GaussianHMM{ n_components = 2, n_iter = 200, tol = 1e-6, seed = 1 }:fit(X)

-- order the fitted states by variance: state 1 calm, state 2 turbulent
local order = model.covars:col(1):argsort()
local calm, turb = math.tointeger(order:get(1, 1)), math.tointeger(order:get(2, 1))
local function p(i, j) return model.transmat:get(i, j) end
print(string.format("Baum-Welch: %d iterations, log-likelihood %.2f", model.n_iter,
  model.history:get(model.n_iter, 1)))
print("regime      mean     sd   stay prob  mean duration (days)")
for _, s in ipairs{ { "calm", calm }, { "turbulent", turb } } do
  local k = s[2]
  print(string.format("%-9s %7.3f %6.3f %10.4f %10.1f", s[1], model.means:get(k, 1),
    math.sqrt(model.covars:get(k, 1)), p(k, k), 1 / (1 - p(k, k))))
end

-- Viterbi decoding against the regimes that generated the series
local states = model:predict(X)
local decoded = states:eq(turb) + 1 -- 1 calm, 2 turbulent, as the truth's labels
print(string.format("Viterbi agrees with the true regimes on %.1f%% of the days",
  100 * decoded:eq(regimes):mean()))
local gamma = model:predict_proba(X)
print(string.format("days with p(turbulent) > 0.9: %d (true turbulent days: %d)",
  math.tointeger(gamma:col(turb):gt(0.9):sum()), math.tointeger(regimes:eq(2):sum())))

-- the number of regimes by BIC
local bics = {}
for k = 1, 3 do
  local m = GaussianHMM{ n_components = k, n_iter = 200, tol = 1e-6, seed = 1 }:fit(X)
  bics[k] = m:bic(X)
  print(string.format("BIC with %d state%s: %.1f", k, k > 1 and "s" or "", bics[k]))
end
local best = 1
for k = 2, 3 do if bics[k] < bics[best] then best = k end end
print(string.format("BIC chooses %d states", best))

local outdir = arg and arg[1]
if outdir then
  local plot = luma.plot
  local fig = plot.figure{ rows = 2, cols = 1, width = 900, height = 520,
    title = "A regime-switching series decoded by a 2-state GaussianHMM" }
  local days = luma.arange(X:rows())
  fig:axes(1, 1):line(days, X, { color = "C1" })
  fig:axes(1, 1):set{ ylabel = "return" }
  local top = fig:axes(2, 1)
  top:line(days, gamma:col(turb), { label = "p(turbulent | all days)", color = "C2" })
  top:line(days, regimes - 1, { label = "true regime", color = "black" })
  top:set{ xlabel = "day", ylabel = "probability", ylim = { -0.05, 1.05 } }
  fig:save(outdir .. "/hmm_regimes.svg")
  print("wrote " .. outdir .. "/hmm_regimes.svg")
end
