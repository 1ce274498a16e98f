--- luma.tree: decision trees (docs/TREE.md).
--
-- One part per concern, merged here into the table users get as luma.tree:
--   cart           DecisionTreeClassifier, DecisionTreeRegressor,
--                  ExtraTreeClassifier, ExtraTreeRegressor, Stump,
--                  StumpRegressor
--   prune          prune_cv (cost-complexity pruning chosen by
--                  cross-validation with the one-standard-error rule)
--   export         export_text, export_graphviz
--   linear_leaves  ridge models in the leaves of a regression tree
--   common         the tree parameter schema and helpers shared with
--                  luma.ensemble (not public)
-- and luma.tree.native, the C kernels (src/ml/tree/tree_lua.c).
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local tree = {}

for _, part in ipairs{ "cart", "prune", "export" } do
  for name, member in pairs(require("luma.tree." .. part)) do tree[name] = member end
end

luma.doc.set(tree, { name = "luma.tree",
  doc = "Decision trees (CART, Breiman et al. 1984): DecisionTreeClassifier, "
    .. "DecisionTreeRegressor, ExtraTreeClassifier, ExtraTreeRegressor, Stump, "
    .. "StumpRegressor; pruning by cost-complexity with prune_cv (the one-standard-error "
    .. "rule); export_text, export_graphviz." })

return tree
