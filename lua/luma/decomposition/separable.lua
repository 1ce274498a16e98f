--- luma.decomposition SeparableNMF: non-negative factorization of a
-- separable matrix by the anchor-words method (notes 000 Ch. 4 §4.3.2;
-- Arora, Ge, Kannan and Moitra, Computing a nonnegative matrix
-- factorization -- provably, 2012; Donoho and Stodden 2003).
--
-- Separability: every column j of W has an anchor row i with W_ij > 0 and
-- W_ik = 0 for k != j, so after normalizing the rows of X, W and H to sum
-- to 1 every row of X is a convex combination of the anchor rows, which
-- are the vertices of the rows' convex hull.  The notes' greedy
-- elimination: a row is deleted when it lies in the convex hull of the
-- remaining rows, tested as the feasibility of a linear program (here the
-- least l1 distance to the hull, zero up to tol, through luma.optim's
-- simplex).  One pass suffices: deleting a row inside the hull of the
-- others leaves that hull unchanged.  The survivors form H; W comes from
-- non-negative least squares of each row on them.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.decomposition.common")

local fail, check_finite = common.fail, common.check_finite

local M = {}

local NAME = "SeparableNMF"

-- The l1 distance from x (1 x d) to the convex hull of the rows of V
-- (r x d): min sum(s+ + s-) over lambda >= 0, sum lambda = 1,
-- V^T lambda + s+ - s- = x^T.
local function hull_distance(V, x)
  local r, d = V:shape()
  local c = luma.matrix.vstack{ luma.zeros(r, 1), luma.ones(2 * d, 1) }
  local A = luma.zeros(d + 1, r + 2 * d)
  A:sub(1, d, 1, r):assign(V:t())
  A:sub(1, d, r + 1, r + d):assign(luma.eye(d))
  A:sub(1, d, r + d + 1, r + 2 * d):assign(luma.eye(d) * -1)
  A:sub(d + 1, d + 1, 1, r):assign(1)
  local b = luma.matrix.vstack{ x:t(), luma.ones(1, 1) }
  local res = luma.optim.linprog(c, { A_eq = A, b_eq = b })
  if res.status ~= "optimal" then return math.huge end
  return res.fun
end

local function fit_transform(self, X)
  local p = self.params
  check_finite(NAME, "fit", X)
  common.check_nonnegative(NAME, "fit", X)
  local n = X:rows()
  local sums = X:sum(2)
  if sums:min() <= 0 then
    local i = math.tointeger(sums:argmin())
    fail("bad argument #1 to 'fit' (%s: row %d of X is all zeros, so it cannot be normalized)", NAME, i)
  end
  local Xn = X:div(sums)
  local keep = {}
  for i = 1, n do keep[i] = true end
  for i = 1, n do
    local others = {}
    for j = 1, n do
      if keep[j] and j ~= i then others[#others + 1] = j end
    end
    if #others > 0 and hull_distance(Xn:take(others), Xn:row(i)) <= p.tol then keep[i] = false end
  end
  local anchors = {}
  for i = 1, n do
    if keep[i] then anchors[#anchors + 1] = i end
  end
  if p.n_components and #anchors ~= p.n_components then
    fail("%s.fit: found %d anchor rows, not n_components = %d (the matrix is not separable with "
      .. "that rank up to tol = %s)", NAME, #anchors, p.n_components, common.number_text(p.tol))
  end
  local H = Xn:take(anchors)
  local Wn = luma.zeros(n, #anchors)
  for i = 1, n do
    local w = luma.optim.nnls(H:t(), Xn:row(i):t())
    Wn:row(i):assign(w:t())
  end
  self.anchors = luma.matrix(anchors)
  self.components = H
  self.n_components = #anchors
  self.n_features_out = #anchors
  local W = Wn:mul(sums)
  local R = X - W * H
  self.reconstruction_err = math.sqrt(luma.matrix.dot(R, R))
  return W
end

M.SeparableNMF = estimator.class{
  name = "luma.decomposition.SeparableNMF",
  kind = "transformer",
  doc = "Non-negative factorization X = W H of a separable non-negative matrix (every column of "
    .. "W has an anchor row) by the anchor-words method (Arora, Ge, Kannan and Moitra, "
    .. "Computing a nonnegative matrix factorization -- provably, 2012): rows are normalized to "
    .. "sum to 1, every row inside the convex hull of the others is deleted (a linear program "
    .. "per row), the survivors are H and W follows by non-negative least squares. Fitted: "
    .. "anchors (the row numbers, k x 1), components (H, rows summing to 1), n_components, "
    .. "reconstruction_err. transform(X) solves for W; inverse_transform(W) is W H.",
  params = {
    { name = "n_components", type = "integer", min = 1,
      doc = "the expected number of anchors (an error if another number is found; nil: any)" },
    { name = "tol", type = "number", default = 1e-9, min = 0,
      doc = "a row within this l1 distance of the hull of the others is inside it" },
  },
  example = function()
    local H = luma.matrix{ { 3, 1, 0, 1 }, { 0, 2, 2, 1 } }
    local W = luma.matrix{ { 1, 0 }, { 0, 1 }, { 0.5, 0.5 }, { 0.2, 0.8 }, { 0.7, 0.3 } }
    return M.SeparableNMF{}, W * H
  end,
  fit = function(self, X) fit_transform(self, X) end,
  fit_transform = fit_transform,
  transform = function(self, X)
    check_finite(NAME, "transform", X)
    common.check_nonnegative(NAME, "transform", X)
    local W = luma.zeros(X:rows(), self.n_components)
    for i = 1, X:rows() do
      W:row(i):assign(luma.optim.nnls(self.components:t(), X:row(i):t()):t())
    end
    return W
  end,
  inverse_transform = function(self, W)
    check_finite(NAME, "inverse_transform", W)
    return W * self.components
  end,
}

return M
