-- A three-state Markov chain of the weather: n-step forecasts, the
-- stationary distribution, expected hitting times, and the chain
-- re-estimated from a sampled path (luma.markov; docs/MARKOV.md).
--
-- States 1 sunny, 2 cloudy, 3 rainy with a row-stochastic transition
-- matrix P (P[i][j] = Pr(i -> j)).  The rows of P^n all tend to the
-- stationary distribution pi = pi P; hitting times solve h = 1 + P h off
-- the target.  A path of 5,000 days drawn from P gives back P by counting
-- transitions (MarkovChain, Laplace smoothing).  Draws the forecast from a
-- sunny day converging to pi (markov_weather.png in OUTDIR):
--   build/luma scripts/examples/markov_weather.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local markov = luma.markov

local names = { "sunny", "cloudy", "rainy" }
local P = luma.matrix{ { 0.7, 0.2, 0.1 },
                       { 0.3, 0.4, 0.3 },
                       { 0.2, 0.3, 0.5 } }
print(string.format("irreducible: %s, period %d", tostring(markov.is_irreducible(P)),
  markov.period(P)))
print("P^2 (the weather in two days):")
print(markov.n_step(P, 2))
local pi = markov.stationary(P)
print(string.format("stationary distribution: sunny %.4f, cloudy %.4f, rainy %.4f",
  pi:get(1, 1), pi:get(1, 2), pi:get(1, 3)))
print(string.format("mean return time to a rainy day 1/pi_3 = %.3f days", 1 / pi:get(1, 3)))
local h = markov.hitting_times(P, 3)
print(string.format("expected days until rain: from sunny %.3f, from cloudy %.3f",
  h:get(1, 1), h:get(2, 1)))

local path = markov.sample_path(P, 5000, { start = 1, seed = 7 })
local chain = markov.MarkovChain{ alpha = 0 }:fit(path)
local worst = 0
for i = 1, 3 do
  for j = 1, 3 do worst = math.max(worst, math.abs(chain.transmat:get(i, j) - P:get(i, j))) end
end
print(string.format("re-estimated from 5000 sampled days: largest error in P %.4f", worst))

if outdir then
  local days, p = 15, luma.matrix{ { 1, 0, 0 } }
  local curves = luma.zeros(days + 1, 3)
  for t = 0, days do
    for j = 1, 3 do curves:set(t + 1, j, p:get(1, j)) end
    p = p * P
  end
  local fig = luma.plot.figure{ title = "Forecast from a sunny day: p P^n tends to pi" }
  local t = luma.arange(0, days)
  for j = 1, 3 do
    fig:line(t, curves:col(j), { label = names[j], color = "C" .. j, marker = "o" })
    fig:line({ 0, days }, { pi:get(1, j), pi:get(1, j) }, { color = "C" .. j, style = "--" })
  end
  fig:axes(1, 1):set{ xlabel = "days ahead", ylabel = "probability" }
  print("wrote " .. fig:save(outdir .. "/markov_weather.png"))
end
