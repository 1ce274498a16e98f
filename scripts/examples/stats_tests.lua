-- Hypothesis tests and a bootstrap interval on simulated data
-- (luma.stats; docs/STATS.md).
--
-- Two groups of 40 measurements, N(10, 2^2) and N(11, 2^2): the
-- two-sample t-test and Welch's test find the difference of means, the
-- Kolmogorov-Smirnov test compares the whole distributions, and the
-- percentile bootstrap gives a 95% interval for the difference of means.
-- Then a chi-squared test of independence on a 2 x 3 table of counts, and
-- a one-way ANOVA of three groups.  Seeded: the numbers are the same on
-- every run.  Draws the two samples' histograms (stats_tests.png in
-- OUTDIR):
--   build/luma scripts/examples/stats_tests.lua [OUTDIR]
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local outdir = ... or arg and arg[1]
local stats = luma.stats

local rng = luma.random.Generator(11)
local a = luma.randn(40, 1, rng) * 2 + 10
local b = luma.randn(40, 1, rng) * 2 + 11
print(string.format("means %.3f and %.3f, standard deviations %.3f and %.3f",
  a:mean(), b:mean(), stats.std(a, 1):get(1, 1), stats.std(b, 1):get(1, 1)))

local t = stats.ttest_ind(a, b)
print(string.format("t-test:      t = %.3f, df = %d, p = %.4f", t.statistic, t.df, t.pvalue))
local w = stats.ttest_ind(a, b, { equal_var = false })
print(string.format("Welch:       t = %.3f, df = %.1f, p = %.4f", w.statistic, w.df, w.pvalue))
local ks = stats.ks_2samp(a, b)
print(string.format("KS 2-sample: D = %.3f, p = %.4f", ks.statistic, ks.pvalue))

local both = luma.matrix.vstack{ a, b }
local group = luma.zeros(80, 1)
for i = 41, 80 do group:set(i, 1, 1) end
local boot = stats.bootstrap(luma.matrix.hstack{ both, group }, function(s)
  local sa, na, sb, nb = 0, 0, 0, 0
  for i = 1, s:rows() do
    if s:get(i, 2) == 0 then sa, na = sa + s:get(i, 1), na + 1
    else sb, nb = sb + s:get(i, 1), nb + 1 end
  end
  return sb / nb - sa / na
end, { n_resamples = 2000, seed = 5 })
print(string.format("bootstrap difference of means %.3f, 95%% interval [%.3f, %.3f]",
  boot.estimate, boot.ci[1], boot.ci[2]))

local counts = luma.matrix{ { 30, 15, 5 }, { 20, 20, 10 } }
local chi = stats.chi2_contingency(counts)
print(string.format("chi-squared independence: statistic %.3f, df %d, p = %.4f",
  chi.statistic, chi.df, chi.pvalue))
local c = luma.randn(40, 1, rng) * 2 + 10
local anova = stats.f_oneway(a, b, c)
print(string.format("one-way ANOVA of three groups: F = %.3f, p = %.4f", anova.statistic,
  anova.pvalue))

if outdir then
  local fig = luma.plot.figure{ title = "Two samples of 40: N(10, 4) and N(11, 4)" }
  fig:hist(a, { bins = 12, alpha = 0.6, label = "group a" })
  fig:hist(b, { bins = 12, alpha = 0.6, label = "group b" })
  fig:axes(1, 1):set{ xlabel = "value", ylabel = "count" }
  print("wrote " .. fig:save(outdir .. "/stats_tests.png"))
end
