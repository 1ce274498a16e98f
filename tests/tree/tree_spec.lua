-- luma.tree: CART trees against scikit-learn, the criteria against
-- brute force, pruning, export, weights and linear leaves.
--
-- Reference values: scikit-learn 1.2.1, from tests/tree/sklearn_reference.py
-- (its output is tests/tree/sklearn_reference.lua).  scikit-learn rounds X
-- to float32, so its thresholds differ from Luma's (float64 midpoints) by
-- float32 rounding, about 3e-8 relative; everything else (structure,
-- impurities, counts, values, importances, pruning paths) agrees to
-- rounding.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ref = require("tree.sklearn_reference")
local T = luma.tree
local M = luma.matrix

local iris_X, iris_y = luma.datasets.load("iris")
local diab_X, diab_y = luma.datasets.load("diabetes")

local function column(list) return M(list) end

-- est.tree against a reference case, node by node.
local function same_tree(r, est)
  local t = est.tree
  assert.equal(#r.children_left, t.node_count)
  assert.matrix_near(column(r.children_left), t.children_left, 0)
  assert.matrix_near(column(r.children_right), t.children_right, 0)
  assert.matrix_near(column(r.feature), t.feature, 0)
  assert.matrix_near(column(r.threshold), t.threshold, 1e-7)
  assert.matrix_near(column(r.impurity), t.impurity, 1e-12)
  assert.matrix_near(column(r.n_node_samples), t.n_node_samples, 0)
  assert.matrix_near(column(r.weighted_n_node_samples), t.weighted_n_node_samples, 1e-12)
  assert.matrix_near(r.value, t.value, 1e-12)
  if r.importances then assert.matrix_near(column(r.importances), est.feature_importances, 1e-12) end
end

describe("DecisionTreeClassifier", function()
  it("grows scikit-learn's tree on iris (gini and entropy, depth 3)", function()
    same_tree(ref.iris_gini_depth3, T.DecisionTreeClassifier{ max_depth = 3 }:fit(iris_X, iris_y))
    same_tree(ref.iris_entropy_depth3,
      T.DecisionTreeClassifier{ max_depth = 3, criterion = "entropy" }:fit(iris_X, iris_y))
    -- log_loss is scikit-learn's other name for entropy
    same_tree(ref.iris_entropy_depth3,
      T.DecisionTreeClassifier{ max_depth = 3, criterion = "log_loss" }:fit(iris_X, iris_y))
  end)

  it("uses sample weights like scikit-learn", function()
    local w = luma.zeros(150, 1)
    for i = 1, 150 do w:set(i, 1, (i - 1) % 3 + 1) end
    same_tree(ref.iris_weighted_depth3,
      T.DecisionTreeClassifier{ max_depth = 3 }:fit(iris_X, iris_y, w))
  end)

  it("prunes with ccp_alpha like scikit-learn", function()
    same_tree(ref.iris_ccp, T.DecisionTreeClassifier{ ccp_alpha = 0.01 }:fit(iris_X, iris_y))
  end)

  it("predicts leaf frequencies and their argmax", function()
    local m = T.DecisionTreeClassifier{ max_depth = 3 }:fit(iris_X, iris_y)
    local P = m:predict_proba(iris_X)
    assert.matrix_near(luma.ones(150, 1), P:sum(2), 1e-15)
    assert.matrix_near(m.classes:take(P:argmax(2)), m:predict(iris_X), 0)
    assert.matrix_near(P:log(), m:predict_log_proba(iris_X), 1e-15)
    -- the depth-3 tree misclassifies 4 of 150 (the leaves [0 49 5], [0 1 45] minorities
    -- after the depth-3 splits: 1 + 2 + 1)
    assert.near(146 / 150, m:score(iris_X, iris_y), 1e-15)
    assert.equal(3, m:get_depth())
    assert.equal(5, m:get_n_leaves())
  end)

  it("applies rows to leaves and reports their paths", function()
    local m = T.DecisionTreeClassifier{ max_depth = 3 }:fit(iris_X, iris_y)
    local leaves = m:apply(iris_X)
    local path = m:decision_path(iris_X)
    assert.equal(m.tree.node_count, path:cols())
    for i = 1, 150, 7 do
      local leaf = leaves:get(i, 1)
      assert.equal(-1, m.tree.children_left:get(leaf, 1))
      assert.equal(1, path:get(i, leaf))
      assert.equal(1, path:get(i, 1))
      -- the path of a depth-d leaf has d + 1 nodes; leaf values give the prediction
      local P = m:predict_proba(iris_X:row(i))
      assert.matrix_near(m.tree.value:row(leaf) / m.tree.value:row(leaf):sum(), P, 1e-15)
    end
  end)

  it("keeps the original labels, any values", function()
    local y = iris_y:copy()
    local labels = { -7, 2.0, 1e6 } -- integral floats are labels, in sorted order
    for i = 1, 150 do y:set(i, 1, labels[iris_y:get(i, 1) + 1]) end
    local m = T.DecisionTreeClassifier{ max_depth = 3 }:fit(iris_X, y)
    assert.matrix_near({ { -7 }, { 2 }, { 1e6 } }, m.classes, 0)
    assert.near(146 / 150, m:score(iris_X, y), 1e-15)
    assert.matrix_near(y:sub(1, 3, 1, 1), m:predict(iris_X:sub(1, 3, 1, 4)), 0)
  end)

  it("balances classes like the equivalent sample weights", function()
    local keep = {} -- an imbalanced subset: all of class 0, 20 of class 1, 10 of class 2
    for i = 1, 50 do keep[#keep + 1] = i end
    for i = 51, 70 do keep[#keep + 1] = i end
    for i = 101, 110 do keep[#keep + 1] = i end
    local X, y = iris_X:take(M(keep)), iris_y:take(M(keep))
    local a = T.DecisionTreeClassifier{ class_weight = "balanced", max_depth = 2 }:fit(X, y)
    -- balanced: n / (k n_c) = 80 / (3 * {50, 20, 10})
    local w = luma.zeros(80, 1)
    for i = 1, 80 do w:set(i, 1, 80 / (3 * ({ 50, 20, 10 })[y:get(i, 1) + 1])) end
    local b = T.DecisionTreeClassifier{ max_depth = 2 }:fit(X, y, w)
    assert.matrix_near(b.tree.value, a.tree.value, 1e-12)
    assert.matrix_near(b.tree.threshold, a.tree.threshold, 0)
    local c = T.DecisionTreeClassifier{ class_weight = { [0] = 80 / 150, [1] = 80 / 60, [2] = 80 / 30 },
      max_depth = 2 }:fit(X, y)
    assert.matrix_near(a.tree.value, c.tree.value, 1e-12)
  end)

  it("treats integer weights as repeated rows", function()
    local g = luma.random.Generator(5)
    local w = g:integers(0, 3, 150, 1)
    local rows = {}
    for i = 1, 150 do
      for _ = 1, w:get(i, 1) do rows[#rows + 1] = i end
    end
    local a = T.DecisionTreeClassifier{ max_depth = 4 }:fit(iris_X, iris_y, w)
    local b = T.DecisionTreeClassifier{ max_depth = 4 }:fit(iris_X:take(M(rows)), iris_y:take(M(rows)))
    assert.matrix_near(b.tree.threshold, a.tree.threshold, 0)
    assert.matrix_near(b.tree.value, a.tree.value, 0)
    assert.matrix_near(b.tree.weighted_n_node_samples, a.tree.weighted_n_node_samples, 0)
  end)
end)

-- The best root split by brute force: every feature, every midpoint,
-- scored with the criterion's formula written out here.
local function log2(x) return math.log(x, 2) end
local IMPURITY = {
  gini = function(c, w)
    local s = 0
    for _, v in ipairs(c) do s = s + (v / w) ^ 2 end
    return 1 - s
  end,
  entropy = function(c, w)
    local h = 0
    for _, v in ipairs(c) do if v > 0 then h = h - v / w * log2(v / w) end end
    return h
  end,
  misclassification = function(c, w)
    return 1 - math.max(table.unpack(c)) / w
  end,
}

local function brute_root(X, codes, k, criterion)
  local n, d = X:shape()
  local total = {}
  for c = 1, k do total[c] = 0 end
  for i = 1, n do total[codes:get(i, 1)] = total[codes:get(i, 1)] + 1 end
  local imp = IMPURITY[criterion == "gain_ratio" and "entropy" or criterion]
  local root = imp(total, n)
  local best = { score = -math.huge }
  for j = 1, d do
    local values = {}
    for i = 1, n do values[#values + 1] = X:get(i, j) end
    table.sort(values)
    for q = 1, n - 1 do
      if values[q + 1] > values[q] then
        local t = values[q] / 2 + values[q + 1] / 2
        local l, r, nl = {}, {}, 0
        for c = 1, k do l[c], r[c] = 0, 0 end
        for i = 1, n do
          local c = codes:get(i, 1)
          if X:get(i, j) <= t then l[c] = l[c] + 1 nl = nl + 1 else r[c] = r[c] + 1 end
        end
        local nr = n - nl
        local gain = root - nl / n * imp(l, nl) - nr / n * imp(r, nr)
        local score = gain
        if criterion == "gain_ratio" then
          score = gain / -(nl / n * log2(nl / n) + nr / n * log2(nr / n))
        end
        if score > best.score + 1e-12 then best = { score = score, feature = j, threshold = t } end
      end
    end
  end
  return best
end

describe("split criteria", function()
  local g = luma.random.Generator(11)
  local X = g:integers(0, 9, 60, 3) + g:normal(60, 3) * 0.01
  local codes = g:integers(1, 3, 60, 1)
  for i = 1, 60 do -- make feature 2 informative
    if X:get(i, 2) > 6 then codes:set(i, 1, 3) end
  end

  for _, criterion in ipairs({ "gini", "entropy", "misclassification", "gain_ratio" }) do
    it("finds the best root split by " .. criterion, function()
      local m = T.DecisionTreeClassifier{ criterion = criterion, max_depth = 1 }:fit(X, codes)
      local b = brute_root(X, codes, 3, criterion)
      assert.equal(b.feature, m.tree.feature:get(1, 1))
      assert.near(b.threshold, m.tree.threshold:get(1, 1), 1e-12)
    end)
  end

  it("measures entropy in bits and Gini as 1 - sum p^2 (notes 002 D9, 003 §1.18)", function()
    -- four equally frequent classes: H = log2(4) = 2 bits (ln 4 = 1.3862944 nats)
    local X4 = M{ 1, 2, 3, 4, 5, 6, 7, 8 }
    local y4 = M{ 1, 2, 3, 4, 1, 2, 3, 4 }
    assert.near(2, T.DecisionTreeClassifier{ criterion = "entropy" }:fit(X4, y4).tree.impurity:get(1, 1), 1e-15)
    assert.near(0.75, T.DecisionTreeClassifier{}:fit(X4, y4).tree.impurity:get(1, 1), 1e-15)
    assert.near(0.75, T.DecisionTreeClassifier{ criterion = "misclassification" }:fit(X4, y4)
      .tree.impurity:get(1, 1), 1e-15)
  end)

  it("gives the notes' ratio the entropy tree (H(Y) of a node is a constant there)", function()
    local a = T.DecisionTreeClassifier{ criterion = "entropy", max_depth = 4 }:fit(iris_X, iris_y)
    local b = T.DecisionTreeClassifier{ criterion = "entropy_ratio", max_depth = 4 }:fit(iris_X, iris_y)
    assert.matrix_near(a.tree.threshold, b.tree.threshold, 0)
    assert.matrix_near(a.tree.feature, b.tree.feature, 0)
    -- but min_impurity_decrease then compares gain / H(Y): the root's gain ratio is
    -- (H - 2/3 * 1) / H with H = log2 3, about 0.369
    local H = math.log(3, 2)
    local ratio = (H - 2 / 3) / H
    local cut = T.DecisionTreeClassifier{ criterion = "entropy_ratio",
      min_impurity_decrease = ratio + 1e-6 }:fit(iris_X, iris_y)
    assert.equal(1, cut.tree.node_count)
    local kept = T.DecisionTreeClassifier{ criterion = "entropy_ratio", max_depth = 1,
      min_impurity_decrease = ratio - 1e-6 }:fit(iris_X, iris_y)
    assert.equal(3, kept.tree.node_count)
  end)
end)

describe("DecisionTreeRegressor", function()
  local R = T.DecisionTreeRegressor
  it("grows scikit-learn's trees on diabetes", function()
    same_tree(ref.diabetes_mse_depth3, R{ max_depth = 3 }:fit(diab_X, diab_y))
    same_tree(ref.diabetes_friedman_depth3, R{ max_depth = 3, criterion = "friedman_mse" }:fit(diab_X, diab_y))
    same_tree(ref.diabetes_mae_depth2, R{ max_depth = 2, criterion = "absolute_error" }:fit(diab_X, diab_y))
    same_tree(ref.diabetes_poisson_depth2, R{ max_depth = 2, criterion = "poisson" }:fit(diab_X, diab_y))
    same_tree(ref.diabetes_leaf20, R{ max_depth = 3, min_samples_leaf = 20 }:fit(diab_X, diab_y))
    same_tree(ref.diabetes_mid, R{ max_depth = 4, min_impurity_decrease = 50 }:fit(diab_X, diab_y))
  end)

  it("grows best-first with max_leaf_nodes like scikit-learn", function()
    local m = R{ max_leaf_nodes = 6 }:fit(diab_X, diab_y)
    same_tree(ref.diabetes_best_first_6, m)
    assert.equal(6, m:get_n_leaves())
  end)

  it("shares one tree among several targets", function()
    local Y = luma.hstack{ diab_y, diab_X:col(3) * 100 }
    local m = R{ max_depth = 2 }:fit(diab_X, Y)
    local r = ref.diabetes_two_outputs
    assert.matrix_near(column(r.feature), m.tree.feature, 0)
    assert.matrix_near(column(r.threshold), m.tree.threshold, 1e-7)
    assert.matrix_near(r.value, m.tree.value, 1e-9)
    assert.equal(2, m:predict(diab_X):cols())
  end)

  it("predicts leaf means", function()
    local m = R{ max_depth = 3 }:fit(diab_X, diab_y)
    local leaves = m:apply(diab_X)
    local pred = m:predict(diab_X)
    for _, i in ipairs({ 1, 100, 442 }) do
      local leaf = leaves:get(i, 1)
      local sum, count = 0, 0
      for r = 1, 442 do
        if leaves:get(r, 1) == leaf then sum, count = sum + diab_y:get(r, 1), count + 1 end
      end
      assert.near(sum / count, pred:get(i, 1), 1e-10)
    end
  end)

  it("fits a linear model in each leaf (notes 000 §9.1)", function()
    -- y = x for x < 0.5 and 3 - 2x above: one split and two exact lines
    local n = 40
    local X, y = luma.zeros(n, 1), luma.zeros(n, 1)
    for i = 1, n do
      local x = (i - 0.5) / n
      X:set(i, 1, x)
      y:set(i, 1, x < 0.5 and x or 3 - 2 * x)
    end
    local lin = R{ max_depth = 1, leaf_model = "linear", leaf_alpha = 0 }:fit(X, y)
    assert.near(0.5, lin.tree.threshold:get(1, 1), 1e-12)
    assert.matrix_near(y, lin:predict(X), 1e-12)
    assert.near(1, lin.leaf_coef:get(2, 1), 1e-12)
    assert.near(-2, lin.leaf_coef:get(3, 1), 1e-12)
    assert.near(3, lin.leaf_intercept:get(3, 1), 1e-12)
    -- constant leaves leave the within-leaf variation
    assert.is_true(R{ max_depth = 1 }:fit(X, y):score(X, y) < 0.9)
    -- with ridge the slope shrinks
    local ridge = R{ max_depth = 1, leaf_model = "linear", leaf_alpha = 1 }:fit(X, y)
    assert.is_true(math.abs(ridge.leaf_coef:get(2, 1)) < 1)
  end)
end)

describe("cost-complexity pruning", function()
  it("gives scikit-learn's pruning paths", function()
    local p = T.DecisionTreeRegressor{ max_depth = 6 }:cost_complexity_pruning_path(diab_X, diab_y)
    assert.matrix_near(column(ref.diabetes_path_depth6.ccp_alphas), p.ccp_alphas, 1e-9)
    assert.matrix_near(column(ref.diabetes_path_depth6.impurities), p.impurities, 1e-12)
    local q = T.DecisionTreeClassifier{}:cost_complexity_pruning_path(iris_X, iris_y)
    assert.matrix_near(column(ref.iris_path.ccp_alphas), q.ccp_alphas, 1e-12)
    assert.matrix_near(column(ref.iris_path.impurities), q.impurities, 1e-12)
  end)

  it("prunes to nested subtrees along the path", function()
    local est = T.DecisionTreeClassifier{}
    local p = est:cost_complexity_pruning_path(iris_X, iris_y)
    local leaves = math.huge
    for k = 1, p.ccp_alphas:rows() do
      local m = T.DecisionTreeClassifier{ ccp_alpha = p.ccp_alphas:get(k, 1) }:fit(iris_X, iris_y)
      -- the pruned tree's total leaf impurity is the path's
      local t, total = m.tree, 0
      for i = 1, t.node_count do
        if t.children_left:get(i, 1) == -1 then
          total = total + t.weighted_n_node_samples:get(i, 1) / 150 * t.impurity:get(i, 1)
        end
      end
      assert.near(p.impurities:get(k, 1), total, 1e-12)
      assert.is_true(m:get_n_leaves() <= leaves)
      leaves = m:get_n_leaves()
    end
    assert.equal(1, leaves)
  end)

  it("chooses the smallest tree within one standard error (notes 000 §9.1.1)", function()
    local r = T.prune_cv(T.DecisionTreeClassifier{}, iris_X, iris_y, { cv = 5 })
    local best, chosen = r.best_index, r.index
    assert.is_true(chosen >= best)
    local floor = r.mean_score:get(best, 1) - r.std_error:get(best, 1)
    assert.is_true(r.mean_score:get(chosen, 1) >= floor)
    for k = chosen + 1, r.ccp_alphas:rows() do
      assert.is_true(r.mean_score:get(k, 1) < floor)
    end
    assert.equal(r.ccp_alpha, r.estimator.params.ccp_alpha)
    assert.is_true(r.estimator:get_n_leaves() <= T.DecisionTreeClassifier{}:fit(iris_X, iris_y):get_n_leaves())
    -- the candidates are the geometric midpoints of the full tree's path
    local path = r.path_alphas
    assert.near(math.sqrt(path:get(2, 1) * path:get(3, 1)), r.ccp_alphas:get(2, 1), 1e-15)
    local plain = T.prune_cv(T.DecisionTreeClassifier{}, iris_X, iris_y, { cv = 5, rule = "best" })
    assert.equal(plain.best_index, plain.index)
  end)
end)

describe("tree export", function()
  local m = T.DecisionTreeClassifier{ max_depth = 2 }:fit(iris_X, iris_y)
  local names = { "sl", "sw", "pl", "pw" }

  it("writes scikit-learn's text format", function()
    -- export_text(m, feature_names=[...], show_weights=True), scikit-learn 1.2.1
    assert.equal("|--- pl <= 2.45\n|   |--- weights: [50.00, 0.00, 0.00] class: 0\n"
      .. "|--- pl >  2.45\n|   |--- pw <= 1.75\n|   |   |--- weights: [0.00, 49.00, 5.00] class: 1\n"
      .. "|   |--- pw >  1.75\n|   |   |--- weights: [0.00, 1.00, 45.00] class: 2\n",
      T.export_text(m, { feature_names = names, show_weights = true }))
    local deep = T.DecisionTreeClassifier{ max_depth = 4 }:fit(iris_X, iris_y)
    assert.equal("|--- feature_3 <= 2.45\n|   |--- class: 0\n|--- feature_3 >  2.45\n"
      .. "|   |--- feature_4 <= 1.75\n|   |   |--- truncated branch of depth 3\n"
      .. "|   |--- feature_4 >  1.75\n|   |   |--- truncated branch of depth 3\n",
      T.export_text(deep, { max_depth = 1 }))
    local r = T.DecisionTreeRegressor{ max_depth = 1 }:fit(diab_X, diab_y)
    assert.equal("|--- feature_9 <= -0.00\n|   |--- value: [109.99]\n|--- feature_9 >  -0.00\n"
      .. "|   |--- value: [193.15]\n", T.export_text(r))
  end)

  it("writes scikit-learn's DOT graph (node ids 1-based)", function()
    -- export_graphviz(m, feature_names=[...], class_names=["a", "b", "c"]) with ids + 1
    assert.equal('digraph Tree {\nnode [shape=box, fontname="helvetica"] ;\n'
      .. 'edge [fontname="helvetica"] ;\n'
      .. '1 [label="pl <= 2.45\\ngini = 0.667\\nsamples = 150\\nvalue = [50, 50, 50]\\nclass = a"] ;\n'
      .. '2 [label="gini = 0.0\\nsamples = 50\\nvalue = [50, 0, 0]\\nclass = a"] ;\n'
      .. '1 -> 2 [labeldistance=2.5, labelangle=45, headlabel="True"] ;\n'
      .. '3 [label="pw <= 1.75\\ngini = 0.5\\nsamples = 100\\nvalue = [0, 50, 50]\\nclass = b"] ;\n'
      .. '1 -> 3 [labeldistance=2.5, labelangle=-45, headlabel="False"] ;\n'
      .. '4 [label="gini = 0.168\\nsamples = 54\\nvalue = [0, 49, 5]\\nclass = b"] ;\n'
      .. '3 -> 4 ;\n'
      .. '5 [label="gini = 0.043\\nsamples = 46\\nvalue = [0, 1, 45]\\nclass = c"] ;\n'
      .. '3 -> 5 ;\n}',
      T.export_graphviz(m, { feature_names = names, class_names = { "a", "b", "c" } }))
    local r = T.DecisionTreeRegressor{ max_depth = 1 }:fit(diab_X, diab_y)
    assert.truthy(T.export_graphviz(r):find('1 [label="x[9] <= -0.004\\nsquared_error = 5929.885'
      .. '\\nsamples = 442\\nvalue = 152.133"] ;', 1, true))
  end)
end)

describe("randomized trees", function()
  it("scores max_features random features per split, reproducibly", function()
    local a = T.DecisionTreeClassifier{ max_features = 2, seed = 3 }:fit(iris_X, iris_y)
    local b = T.DecisionTreeClassifier{ max_features = 2, seed = 3 }:fit(iris_X, iris_y)
    assert.matrix_near(a.tree.threshold, b.tree.threshold, 0)
    assert.equal(2, a.max_features_used)
    assert.equal(2, T.DecisionTreeClassifier{ max_features = "log2" }:fit(iris_X, iris_y).max_features_used)
    assert.equal(3, T.DecisionTreeClassifier{ max_features = "log2" }:fit(luma.zeros(4, 11), M{ 1, 2, 1, 2 })
      .max_features_used)
    assert.equal(2, T.DecisionTreeClassifier{ max_features = "sqrt" }:fit(iris_X, iris_y).max_features_used)
    assert.equal(3, T.DecisionTreeClassifier{ max_features = 0.8 }:fit(iris_X, iris_y).max_features_used)
    -- a generator seed is not advanced by fit
    local g = luma.random.Generator(9)
    local c = T.DecisionTreeClassifier{ max_features = 1, seed = g }:fit(iris_X, iris_y)
    local d = T.DecisionTreeClassifier{ max_features = 1, seed = g }:fit(iris_X, iris_y)
    assert.matrix_near(c.tree.threshold, d.tree.threshold, 0)
  end)

  it("draws extra-tree thresholds inside each node's range", function()
    local m = T.ExtraTreeClassifier{ seed = 2 }:fit(iris_X, iris_y)
    assert.equal(1, m:score(iris_X, iris_y)) -- grown until pure (no duplicate rows disagree)
    local path = m:decision_path(iris_X)
    for node = 1, m.tree.node_count do
      local f = m.tree.feature:get(node, 1)
      if f > 0 then
        local lo, hi = math.huge, -math.huge
        for i = 1, 150 do
          if path:get(i, node) == 1 then
            lo, hi = math.min(lo, iris_X:get(i, f)), math.max(hi, iris_X:get(i, f))
          end
        end
        local t = m.tree.threshold:get(node, 1)
        assert.is_true(t >= lo and t < hi)
      end
    end
    local other = T.ExtraTreeClassifier{ seed = 3 }:fit(iris_X, iris_y)
    assert.is_false(other.tree.node_count == m.tree.node_count
      and other.tree.threshold:eq(m.tree.threshold):all())
  end)

  it("gives stumps as one-split trees (notes 002 §1.8 T1)", function()
    local s = T.Stump{}:fit(iris_X, iris_y)
    assert.equal(1, s:get_depth())
    assert.equal(3, s.tree.node_count)
    assert.equal("luma.tree.DecisionTreeClassifier", s.__class.name)
    assert.equal(1, T.StumpRegressor{}:fit(diab_X, diab_y):get_depth())
  end)
end)

describe("tree persistence", function()
  it("saves and loads fitted trees", function()
    local m = T.DecisionTreeRegressor{ max_depth = 3, leaf_model = "linear" }:fit(diab_X, diab_y)
    local path = os.tmpname()
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.matrix_near(m:predict(diab_X), back:predict(diab_X), 0)
    assert.matrix_near(m.tree.value, back.tree.value, 0)
  end)
end)
