--- luma.tree.linear_leaves: a ridge regression in each leaf of a grown
-- regression tree (notes 000 §9.1: "a linear model in each leaf" as the
-- alternative to the leaf mean; Quinlan's M5 model trees, 1992, use the
-- same idea).  The tree is grown as usual (constant leaves) and each
-- leaf's rows then get their own ridge fit, the intercept unpenalized, so
-- predictions are piecewise linear instead of piecewise constant.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local linear_leaves = {}

--- linear_leaves.fit(tree, leaves, X, y [, w], alpha) -> coef, intercept:
-- node_count x d coefficients and node_count x 1 intercepts (zero for
-- internal nodes), from a weighted ridge fit on the rows of each leaf
-- (leaves: the n x 1 leaf of each training row).
function linear_leaves.fit(tree, leaves, X, y, w, alpha)
  local n_nodes, d = tree.node_count, X:cols()
  local coef, intercept = luma.zeros(n_nodes, d), luma.zeros(n_nodes, 1)
  local rows = {}
  for i = 1, leaves:rows() do
    local leaf = leaves:get(i, 1)
    local list = rows[leaf]
    if not list then
      list = {}
      rows[leaf] = list
    end
    list[#list + 1] = i
  end
  for leaf, list in pairs(rows) do
    local index = luma.matrix(list)
    local Xl, yl = X:take(index), y:take(index)
    local wl = w and w:take(index) or luma.ones(#list, 1)
    local total = wl:sum()
    local xm = (wl:t() * Xl) / total
    local ym = (wl:t() * yl):get(1, 1) / total
    local Xc = Xl - xm
    local sw = wl:sqrt()
    local A = Xc:mul(sw)
    local G = A:t() * A
    G:diag():add(alpha, G:diag())
    -- pinv keeps a leaf with fewer rows than features (or alpha = 0) well defined
    local beta = luma.linalg.pinv(G) * (A:t() * (yl - ym):mul(sw))
    coef:row(leaf):assign(beta:t())
    intercept:set(leaf, 1, ym - (xm * beta):get(1, 1))
  end
  return coef, intercept
end

--- linear_leaves.predict(coef, intercept, leaves, X) -> n x 1.
function linear_leaves.predict(coef, intercept, leaves, X)
  return X:mul(coef:take(leaves)):sum(2) + intercept:take(leaves)
end

return linear_leaves
