--- luma.stats: descriptive statistics, histograms, kernel density
-- estimation, empirical distribution functions, hypothesis tests and
-- confidence intervals.
--
-- Data are samples in rows: column statistics come back as 1 x d rows
-- (scipy.stats' axis = 0), whatever the number of columns.
--
-- The functions live in one part per concern, each a module returning
-- its functions; this file merges them into the package table:
--   descriptive.lua  mean, var, std, quantile, median, skewness, kurtosis,
--                    cov, corr, mode
--   density.lua      histogram, ecdf, KDE
--   tests.lua        binom_test, ztest, ttest_1samp, ttest_ind, ttest_rel,
--                    chisquare, chi2_contingency, f_oneway, kstest,
--                    ks_2samp, permutation_test, bootstrap, mean_ci,
--                    proportion_ci, power_ttest
--   common.lua       the argument checks the parts share; not re-exported
-- The other modules of this folder keep their own public names and are
-- not merged here: luma.dist (dist.lua), luma.bayes (bayes.lua),
-- luma.info (info.lua), luma.montecarlo (montecarlo.lua) and luma.theory
-- (theory.lua).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local stats = {}
for _, part in ipairs({ "descriptive", "density", "tests" }) do
  for name, fn in pairs(require("luma.stats." .. part)) do stats[name] = fn end
end

luma.doc.set(stats, { name = "luma.stats",
  doc = "Descriptive statistics over the rows of a matrix (mean, var, std, quantile, median, "
    .. "skewness, kurtosis, cov, corr, mode), histogram, ecdf, kernel density estimation "
    .. "(KDE), hypothesis tests (binom_test, ztest, ttest_1samp, ttest_ind, ttest_rel, "
    .. "chisquare, chi2_contingency, f_oneway, kstest, ks_2samp, permutation_test), the "
    .. "bootstrap, confidence intervals (mean_ci, proportion_ci) and power_ttest." })

return stats
