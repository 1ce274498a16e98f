--- luma.multilabel: multi-label learning (notes 001 §K), with
-- scikit-learn's vocabulary where it has one.
--
-- Y is an n x L matrix of 0/1 (dense or luma.sparse), one column per
-- label; y_j = 0 means "not known to hold label j", not "does not".  The
-- parts: relevance (BinaryRelevance, ClassifierChain), prototypes
-- (MultiLabelLwP, LowRankLabelPredictor), trees (MultiLabelTree,
-- MultiLabelForest); the multi-label k-nearest neighbours are
-- luma.neighbors.MultiLabelKNeighbors, re-exported here.  The metrics
-- (luma.multilabel.metrics) are luma.metrics functions.  docs/MULTILABEL.md
-- describes them.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local multilabel = {}
local names = {}
for _, part in ipairs({ "luma.multilabel.relevance", "luma.multilabel.prototypes",
                        "luma.multilabel.trees" }) do
  for name, value in pairs(require(part)) do
    multilabel[name] = value
    names[#names + 1] = name
  end
end
multilabel.MultiLabelKNeighbors = require("luma.neighbors.multilabel").MultiLabelKNeighbors
names[#names + 1] = "MultiLabelKNeighbors"
table.sort(names)

luma.doc.set(multilabel, { name = "luma.multilabel",
  doc = "Multi-label learning on 0/1 label matrices (dense or sparse): " .. table.concat(names, ", ")
    .. "; the metrics are in luma.metrics (hamming_loss, label_ranking_average_precision_score, "
    .. "coverage_error, label_ranking_loss, precision_at_k ...); see docs/MULTILABEL.md." })

return multilabel
