--- luma.mixture.common: checks and helpers shared by the mixture models
-- (gaussian, bayesian, student, discrete); not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local dcommon = require("luma.decomposition.common")

local common = {}

common.fail = dcommon.fail
common.number_text = dcommon.number_text
common.check_fitted = dcommon.check_fitted
common.check_nonnegative = dcommon.check_nonnegative
common.EPS = dcommon.EPS
common.LOG_2PI = math.log(2 * math.pi)

--- common.warning(fmt, ...): through warn(), so a host can redirect it.
function common.warning(fmt, ...)
  dcommon.warning("luma.mixture", fmt, ...)
end

--- common.check_X(name, method, X, k): finite elements and, for fit, at
-- least one row per component.
function common.check_X(name, method, X, k)
  dcommon.check_finite(name, method, X)
  if k and X:rows() < k then
    common.fail("bad argument #1 to '%s' (%s needs at least n_components = %d rows, one per "
      .. "component; X has %d)", method, name, k, X:rows())
  end
end

--- common.weights_param(name, w, k) -> k x 1: weights_init checked: k
-- non-negative numbers summing to 1 (a matrix or a table).
function common.weights_param(name, w, k)
  local m = luma.ismatrix(w) and w:flatten() or luma.matrix(w)
  if m:rows() ~= k then
    common.fail("%s: weights_init has %d entries but n_components is %d", name, m:rows(), k)
  end
  if not m:isfinite():all() or m:lt(0):any() or math.abs(m:sum() - 1) > 1e-6 then
    common.fail("%s: weights_init must be non-negative and sum to 1 (within 1e-6), sum is %s", name,
      common.number_text(m:sum()))
  end
  return m
end

--- common.matrix_param(name, pname, v, rows, cols): a rows x cols matrix
-- parameter (means_init, ...), checked.
function common.matrix_param(name, pname, v, rows, cols)
  if not luma.ismatrix(v) or v:rows() ~= rows or v:cols() ~= cols then
    common.fail("%s: %s must be a %d x %d matrix%s", name, pname, rows, cols,
      luma.ismatrix(v) and string.format(", got %d x %d", v:rows(), v:cols()) or "")
  end
  if not v:isfinite():all() then common.fail("%s: %s has a non-finite element", name, pname) end
  return v:copy()
end

-- The schema entries of how a fit starts, worded once for every mixture.
local START_PARAMS = {
  n_init = { name = "n_init", type = "integer", default = 1, min = 1,
    doc = "initializations; the run with the best final log-likelihood (lower bound for "
      .. "BayesianGaussianMixture) is kept" },
  init_params = { name = "init_params", type = "string", default = "kmeans",
    values = { "kmeans", "k-means++", "random", "random_from_data" },
    doc = "initial responsibilities: k-means labels, k-means++ seeds, random, or random rows" },
  warm_start = { name = "warm_start", type = "boolean", default = false,
    doc = "start each fit from the previous fit's parameters (one initialization)" },
  seed = { name = "seed", type = "seed", doc = "generator of the initialization and of sample" },
}

--- common.param(name) -> a fresh copy of the shared schema entry name
-- (n_init, init_params, warm_start or seed): each class owns its entries.
function common.param(name)
  local copy = {}
  for k, v in pairs(START_PARAMS[name]) do copy[k] = v end
  return copy
end

-- The help of the methods every mixture has, worded once.
local METHOD_DOCS = {
  predict = { signature = "est:predict(X) -> labels",
    doc = "The component of largest responsibility for each row of X. Returns an n x 1 matrix "
      .. "of components 1..k." },
  predict_proba = { signature = "est:predict_proba(X) -> matrix",
    doc = "The responsibilities p(component | x) of each row of X. Returns an n x k matrix whose "
      .. "rows sum to 1." },
  fit_predict = { signature = "est:fit_predict(X [, y = nil]) -> labels",
    doc = "Fits the mixture to X and returns the components of the final E-step (as predict(X) "
      .. "after fit). Returns an n x 1 matrix." },
  n_parameters = { signature = "est:n_parameters() -> integer",
    doc = "The number of free parameters. Returns an integer." },
  bic = { signature = "est:bic(X) -> number",
    doc = "The Bayesian information criterion -2 log L + p log n on X (Schwarz 1978; lower is "
      .. "better). Returns a number." },
  aic = { signature = "est:aic(X) -> number",
    doc = "The Akaike information criterion -2 log L + 2 p on X (Akaike 1974; lower is better). "
      .. "Returns a number." },
}

--- common.method_docs(docs, names) -> docs with the shared help of each
-- method in the list names that docs does not word itself.
function common.method_docs(docs, names)
  for _, name in ipairs(names) do
    if not docs[name] then
      local d = METHOD_DOCS[name]
      docs[name] = { signature = d.signature, doc = d.doc }
    end
  end
  return docs
end

--- common.resp_init(self, X, k, rng) -> n x k initial responsibilities by
-- params.init_params: "kmeans" (the labels of one luma.cluster.KMeans run
-- seeded by rng), "k-means++" (its seeds alone), "random" (uniform rows
-- normalized), "random_from_data" (k distinct rows) -- scikit-learn's
-- four choices.
function common.resp_init(self, X, k, rng)
  local how = self.params.init_params
  local n = X:rows()
  if how == "kmeans" then
    local labels = luma.cluster.KMeans{ n_clusters = k, n_init = 1, seed = rng }:fit(X).labels
    return luma.arange(1, k):t():eq(labels)
  elseif how == "random" then
    local R = rng:uniform(n, k)
    return R:div(R:sum(2))
  end
  local indices
  if how == "k-means++" then
    if luma.sparse.issparse(X) then
      common.fail("bad argument #1 to 'fit' (init_params \"k-means++\" needs a dense X; use "
        .. "\"kmeans\", \"random\" or \"random_from_data\" with a sparse one)")
    end
    indices = select(2, luma.cluster.kmeans_plusplus(X, k, { seed = rng }))
  else
    indices = rng:choice(n, k, { replace = false })
  end
  local R = luma.zeros(n, k)
  for c = 1, k do R:set(math.tointeger(indices:get(c, 1)), c, 1) end
  return R
end

--- common.check_sample(n, rng): sample's arguments: n an integer in
-- [1, 2^31 - 1] (a matrix's row limit), rng nil or a luma.Generator.
function common.check_sample(n, rng)
  if math.type(n) ~= "integer" or n < 1 or n > 2147483647 then
    common.fail("bad argument #1 to 'sample' (n must be an integer in [1, 2147483647], got %s)",
      tostring(n))
  end
  if rng ~= nil and args.type_of(rng) ~= "luma.Generator" then
    common.fail("bad argument #2 to 'sample' (luma.Generator or nil expected, got %s)",
      args.type_of(rng))
  end
end

--- common.sample_counts(rng, n, weights) -> a table of k counts summing to
-- n, multinomial(n, weights) by conditional binomials.
function common.sample_counts(rng, n, weights)
  local k = weights:rows()
  local counts, left, mass = {}, n, 1
  for c = 1, k - 1 do
    local w = weights:get(c, 1)
    local p = mass > 0 and math.min(1, math.max(0, w / mass)) or 0
    counts[c] = left > 0 and math.tointeger(rng:binomial(left, p)) or 0
    left, mass = left - counts[c], mass - w
  end
  counts[k] = left
  return counts
end

--- common.example_data(): two well separated 2-D groups of 6 points, for
-- the persistence registry test of the mixtures.
function common.example_data()
  return luma.matrix{ { 0.1, 0.2 }, { 0.4, -0.1 }, { -0.3, 0.1 }, { 0.2, 0.5 }, { -0.1, -0.4 },
    { 0.3, 0.0 }, { 5.1, 4.8 }, { 4.7, 5.3 }, { 5.4, 5.1 }, { 4.9, 4.6 }, { 5.2, 5.5 }, { 4.8, 5.0 } }
end

return common
