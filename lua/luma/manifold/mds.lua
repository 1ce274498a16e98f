--- luma.manifold MDS: multidimensional scaling (notes 003 §1.15, §3.17).
--
-- "classical": Torgerson's scaling.  From squared distances D2 the
-- double-centred B = -1/2 J D2 J (J = I - 11^T/n) is the Gram matrix of
-- centred coordinates, and Y = U_q Lambda_q^{1/2} from its top q
-- eigenpairs minimizes trace((B - Y Y^T)^2).  Errata: the notes write
-- Y = U Lambda (the square root is missing) and drop the square of the
-- objective; the double centring, which they leave unspecified, is the
-- standard one.  With Euclidean input this is PCA's scores.
-- "smacof": metric MDS by SMACOF (de Leeuw 1977; Borg and Groenen,
-- Modern Multidimensional Scaling, ch. 8), scikit-learn's MDS (1.2.1):
-- the Guttman transform X <- B(X) X / n never increases the raw stress
-- sum_{i<j} (d_ij - |x_i - x_j|)^2; n_init random starts, the lowest
-- stress kept.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local dcommon = require("luma.decomposition.common")

local fail = dcommon.fail

local M = {}

local NAME = "MDS"

-- The dissimilarities of the input: Euclidean distances of the rows, or
-- the given square matrix (checked symmetric, non-negative).
local function dissimilarities(p, X)
  if p.dissimilarity == "euclidean" then
    return luma.pairwise.distances(X, "euclidean")
  end
  local n = X:rows()
  if X:cols() ~= n then
    fail("bad argument #1 to 'fit' (%s: a %s matrix must be square, got %d x %d)", NAME,
      p.dissimilarity, n, X:cols())
  end
  if (X - X:t()):abs():max() > 1e-8 * math.max(1, X:abs():max()) then
    fail("bad argument #1 to 'fit' (%s: the %s matrix must be symmetric)", NAME, p.dissimilarity)
  end
  if p.dissimilarity == "precomputed" and X:lt(0):any() then
    fail("bad argument #1 to 'fit' (%s: dissimilarities must be >= 0)", NAME)
  end
  return (X + X:t()) * 0.5
end

local function raw_stress(D, Y)
  local R = D - luma.pairwise.distances(Y, "euclidean")
  return luma.matrix.dot(R, R) / 2
end

local function classical(self, X)
  local p = self.params
  local B
  if p.dissimilarity == "gram" then
    local G = dissimilarities(p, X)
    B = G - G:mean(1) - G:mean(2) + G:mean()
  else
    local D2 = dissimilarities(p, X):pow(2)
    B = (D2 - D2:mean(1) - D2:mean(2) + D2:mean()) * -0.5
  end
  local q = p.n_components
  local w, V = luma.linalg.eigh((B + B:t()) * 0.5, { order = "descending" })
  w, V = w:sub(1, q, 1, 1):copy(), V:sub(nil, nil, 1, q):copy()
  if w:min() < -1e-9 * math.abs(w:max()) then
    dcommon.warning("luma.manifold", "%s: the centred Gram matrix has negative eigenvalues among "
      .. "the top %d (the dissimilarities are not Euclidean); they are taken as 0", NAME, q)
  end
  dcommon.svd_flip(V, luma.zeros(q, 1), true)
  self.eigenvalues = w
  local Y = V:mul(w:maximum(0):sqrt():t())
  if p.dissimilarity ~= "gram" then
    self.stress = raw_stress(dissimilarities(p, X), Y)
  end
  self.n_iter = 0
  return Y
end

-- One SMACOF run from X0 (scikit-learn's _smacof_single): the stress is
-- that of the configuration before each Guttman transform.
local function smacof_single(p, D, X0)
  local n = D:rows()
  local X = X0
  local old, stress
  local history = {}
  local it = 0
  for step = 1, p.max_iter do
    it = step
    local dis = luma.pairwise.distances(X, "euclidean")
    local R = dis - D
    stress = luma.matrix.dot(R, R) / 2
    if p.normalized_stress then stress = math.sqrt(stress / (luma.matrix.dot(D, D) / 2)) end
    history[step] = stress
    dis = luma.matrix.where(dis:eq(0), 1e-5, dis)
    local ratio = D:div(dis)
    local Bm = -ratio
    Bm:diag():add(ratio:sum(2), Bm:diag())
    X = (Bm * X) / n
    local size = X:pow(2):sum(2):sqrt():sum()
    if old ~= nil and old - stress / size < p.eps then break end
    old = stress / size
  end
  return X, stress, it, history
end

local function smacof(self, X, init)
  local p = self.params
  if p.dissimilarity == "gram" then
    fail("%s: dissimilarity \"gram\" needs method \"classical\"", NAME)
  end
  local D = dissimilarities(p, X)
  local n = D:rows()
  local rng = estimator.rng(p.seed)
  local runs = p.n_init
  if init ~= nil then
    if not luma.ismatrix(init) or init:rows() ~= n or init:cols() ~= p.n_components then
      fail("bad argument #3 to 'fit' (%s: init must be a %d x %d matrix)", NAME, n, p.n_components)
    end
    runs = 1
  end
  local best
  for _ = 1, runs do
    local start = init and init:copy() or rng:uniform(n, p.n_components)
    local Y, stress, it, history = smacof_single(p, D, start)
    if best == nil or stress < best.stress then
      best = { Y = Y, stress = stress, it = it, history = history }
    end
  end
  self.stress, self.n_iter = best.stress, best.it
  self.stress_history = luma.matrix(best.history)
  self.dissimilarity_matrix = D
  return best.Y
end

local function fit_transform(self, X, _, init)
  local p = self.params
  dcommon.check_finite(NAME, "fit", X)
  local n = X:rows()
  if n <= p.n_components then
    fail("bad argument #1 to 'fit' (%s needs more points than n_components = %d, got %d)", NAME,
      p.n_components, n)
  end
  local Y = p.method == "classical" and classical(self, X) or smacof(self, X, init)
  self.embedding = Y
  return Y
end

M.MDS = estimator.class{
  name = "luma.manifold.MDS",
  kind = "transformer",
  doc = "Multidimensional scaling: points in n_components dimensions whose distances match "
    .. "the given dissimilarities. method \"classical\" is Torgerson's scaling (the top "
    .. "eigenpairs of the double-centred squared distances, Y = U Lambda^{1/2}; Torgerson "
    .. "1952, Borg and Groenen ch. 12), \"smacof\" metric MDS by majorization as "
    .. "scikit-learn's MDS (de Leeuw 1977; Borg and Groenen ch. 8). Input: rows "
    .. "(dissimilarity \"euclidean\"), a distance matrix (\"precomputed\") or, for classical, "
    .. "a Gram matrix (\"gram\"). Fitted: embedding, stress (raw, or normalized: Kruskal's "
    .. "stress-1), n_iter, stress_history (smacof), eigenvalues (classical). "
    .. "fit_transform(X, nil, init) starts SMACOF from init.",
  params = {
    { name = "n_components", type = "integer", default = 2, min = 1, doc = "embedding dimension" },
    { name = "method", type = "string", default = "smacof", values = { "smacof", "classical" },
      doc = "SMACOF (metric stress) or classical (Torgerson) scaling" },
    { name = "dissimilarity", type = "string", default = "euclidean",
      values = { "euclidean", "precomputed", "gram" },
      doc = "rows, a distance matrix, or (classical) a Gram matrix" },
    { name = "n_init", type = "integer", default = 4, min = 1, doc = "SMACOF random starts" },
    { name = "max_iter", type = "integer", default = 300, min = 1, doc = "SMACOF iterations per start" },
    { name = "eps", type = "number", default = 1e-3, gt = 0,
      doc = "SMACOF stops when the stress per unit of configuration size falls by less" },
    { name = "normalized_stress", type = "boolean", default = false,
      doc = "report sqrt(stress / sum d^2) (Kruskal's stress-1) instead of the raw stress" },
    { name = "seed", type = "seed", doc = "SMACOF's random starts" },
  },
  example = function() return M.MDS{ seed = 0, n_init = 1 }, dcommon.example_data() end,
  method_docs = {
    fit = { signature = "est:fit(X [, y = nil] [, init = nil]) -> est",
      doc = "Computes the embedding of X (rows, or the dissimilarity / Gram matrix); init is "
        .. "SMACOF's starting configuration. Returns the estimator." },
    fit_transform = { signature = "est:fit_transform(X [, y = nil] [, init = nil]) -> matrix",
      doc = "Computes and returns the embedding (n x n_components)." },
  },
  fit = function(self, X, y, init) fit_transform(self, X, y, init) end,
  fit_transform = fit_transform,
}

return M
