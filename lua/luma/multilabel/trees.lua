--- luma.multilabel.trees: decision trees and random forests with one
-- output per label (notes 001 §K: leaves keep how often each label
-- occurred among the training rows that reached them, so labels can be
-- ranked).
--
-- A leaf's label frequencies are the mean of its 0/1 label rows, which is
-- what a multi-output regression tree stores; and for 0/1 outputs the
-- multi-output Gini impurity, the mean over labels of 2 p_j (1 - p_j), is
-- exactly twice the multi-output squared error, the mean of p_j (1 - p_j),
-- so both choose the same splits.  These models are therefore the
-- regression tree and forest of luma.tree / luma.ensemble fitted on Y,
-- read as label frequencies: scikit-learn's multi-output
-- DecisionTreeClassifier and RandomForestClassifier (predict_proba's
-- probability of label 1 for each output; predict marks p > 0.5).
-- SPDX-License-Identifier: MIT
local estimator = require("luma.estimator")
local cart = require("luma.tree.cart")
local forest = require("luma.ensemble.forest")
local common = require("luma.multilabel.common")

local trees = {}

-- The parameter entries of class, less those named in skip.
local function params_of(class, skip)
  local out = {}
  for _, name in ipairs(class.param_names) do
    if not skip[name] then
      local entry = {}
      for k, v in pairs(class.schema[name]) do entry[k] = v end
      out[#out + 1] = entry
    end
  end
  return out
end

local SKIPPED = { criterion = true, leaf_model = true, leaf_alpha = true }

-- A multi-label model over the regressor class `base`.
local function model_class(name, base, doc)
  local short = name:match("([^%.]+)$")
  return {
    name = name,
    kind = "classifier",
    labels = false,
    doc = doc,
    method_docs = common.method_docs(short, "the label frequencies", {
      predict_proba = { signature = "est:predict_proba(X)",
        doc = "Each label's frequency among the training rows in the leaf each row of X "
          .. "reaches (averaged over the trees of a forest). Returns an m x L matrix." },
      predict = { signature = "est:predict(X)",
        doc = "Marks the labels whose frequency is above 0.5. Returns an m x L matrix of "
          .. "0/1." } }),
    params = params_of(base, SKIPPED),
    fit = function(self, X, Y)
      common.check_labels(short, Y)
      local p = {}
      for _, pname in ipairs(base.param_names) do
        if not SKIPPED[pname] then p[pname] = self.params[pname] end
      end
      self.model = base(p):fit(X, Y)
      self.feature_importances = self.model.feature_importances
      self.n_labels = Y:cols()
    end,
    predict_proba = function(self, X)
      return self.model:predict(X)
    end,
    predict = function(self, X)
      return self.model:predict(X):gt(0.5)
    end,
    score = function(self, X, Y)
      return common.subset_accuracy(Y, self.model:predict(X):gt(0.5))
    end,
    recommend = function(self, X, k)
      common.check_recommend(self, X)
      return common.top_k(short, self.model:predict(X), k or 1)
    end,
  }
end

local tree_spec = model_class("luma.multilabel.MultiLabelTree", cart.DecisionTreeRegressor,
  "A multi-label decision tree (CART; Breiman et al. 1984): one tree for all labels whose "
    .. "leaves keep each label's frequency among their training rows, split by the "
    .. "multi-output Gini impurity (equivalently, squared error on the 0/1 labels), as "
    .. "scikit-learn's DecisionTreeClassifier given a label matrix. Fitted: model (the "
    .. "luma.tree.DecisionTreeRegressor holding the tree), feature_importances, n_labels.")
tree_spec.example = common.example(function() return trees.MultiLabelTree{ max_depth = 2 } end)
trees.MultiLabelTree = estimator.class(tree_spec)

local forest_spec = model_class("luma.multilabel.MultiLabelForest", forest.RandomForestRegressor,
  "A multi-label random forest (Breiman 2001): bootstrap samples, max_features features per "
    .. "split, each tree's leaf label frequencies averaged, as scikit-learn's "
    .. "RandomForestClassifier given a label matrix (set max_features = \"sqrt\" for its "
    .. "default). Fitted: model (the luma.ensemble.RandomForestRegressor), "
    .. "feature_importances, n_labels.")
forest_spec.example = common.example(function()
  return trees.MultiLabelForest{ n_estimators = 5, seed = 1 }
end)
trees.MultiLabelForest = estimator.class(forest_spec)

return trees
