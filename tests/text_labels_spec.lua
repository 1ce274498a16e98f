-- Class labels in every container a user holds them (issue 29): a Lua
-- list of strings, numbers or booleans, a categorical column of a
-- luma.Table, a one-column Table, or a matrix.  Every classifier fits on
-- them, keeps them in est.classes, predicts them back in the container it
-- was given, saves and loads them; searches, cross-validation, metrics,
-- plots and LabelEncoder take them too; regressors refuse strings.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local M = luma.matrix

-- Sorted words: the i-th smallest numeric label stands for WORDS[i], so
-- coding the words 1..k in sorted order gives back the numeric order.
local WORDS = { "ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay" }

-- y's labels as words, by their rank among y's distinct values.
local function as_words(y)
  local classes = y:unique()
  local rank = {}
  for k = 1, classes:rows() do rank[classes:get(k, 1)] = k end
  local out = {}
  for i = 1, y:rows() do out[i] = WORDS[rank[y:get(i, 1)]] end
  return out, rank
end

-- Two clusters, 12 rows, and the same labels as strings, codes and a Table.
local X = M{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0.5, 0.5 }, { 1.5, 0.2 },
             { 3, 3 }, { 3, 4 }, { 4, 3 }, { 4, 4 }, { 3.5, 3.5 }, { 2.5, 3.8 } }
local TEXT = { "no", "no", "no", "no", "no", "no", "yes", "yes", "yes", "yes", "yes", "yes" }
local CODES = M{ 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2 }
local T = luma.Table({ x1 = X:col(1), x2 = X:col(2), label = TEXT },
  { columns = { "x1", "x2", "label" } })
local FEATURES = T:drop{ "label" }

describe("text labels: every classifier", function()
  for _, name in ipairs(getmetatable(luma).__lazy) do pcall(require, "luma." .. name) end
  local names = {}
  for name, class in pairs(estimator.classes) do
    if name:match("^luma%.") and class.kind == "classifier" and class.labels ~= false then
      names[#names + 1] = name
    end
  end
  table.sort(names)

  it("are all found (the walk is not empty)", function()
    assert.is_true(#names >= 30, "only " .. #names .. " classifiers")
  end)

  for _, name in ipairs(names) do
    it(name .. " predicts the same classes from strings as from codes", function()
      local class = estimator.classes[name]
      local est, Xe, ye = class.example(luma.tree.DecisionTreeClassifier{ max_depth = 2 })
      local words, rank = as_words(ye)
      local a = est:clone():fit(Xe, ye)
      local b = est:clone():fit(Xe, words)
      -- classes are the words in sorted order, one per numeric class
      assert.equal(a.classes:rows(), #b.classes)
      for k = 1, #b.classes do assert.equal(WORDS[k], b.classes[k]) end
      -- predict gives a list of strings: the numeric predictions, mapped
      local pa, pb = a:predict(Xe), b:predict(Xe)
      assert.equal("table", type(pb))
      assert.equal(Xe:rows(), #pb)
      for i = 1, Xe:rows() do assert.equal(WORDS[rank[pa:get(i, 1)]], pb[i]) end
      -- probabilities: identical, so their columns follow b.classes as
      -- a's follow a.classes
      if class.methods.predict_proba then
        local ok, Pa = pcall(a.predict_proba, a, Xe)
        if ok then assert.matrix_near(Pa, b:predict_proba(Xe), 1e-12) end
      end
      -- score on the strings is the score on the codes
      assert.equal(a:score(Xe, ye), b:score(Xe, words))
      -- the categorical column of a Table gives a Categorical back
      local c = est:clone():fit(Xe, luma.Table.Categorical(words))
      local pc = c:predict(Xe)
      assert.is_true(luma.Table.is_categorical(pc))
      assert.same(pb, pc:totable())
      -- saved and loaded with the model
      local back = luma.persist.decode(luma.persist.encode(b))
      assert.same(b.classes, back.classes)
      assert.same(pb, back:predict(Xe))
    end)
  end
end)

describe("text labels: containers", function()
  local Tree = luma.tree.DecisionTreeClassifier

  it("fit on a CSV's categorical column, as a one-column Table or the column", function()
    local csv = "x1,x2,label\n"
    for i = 1, #TEXT do csv = csv .. X:get(i, 1) .. "," .. X:get(i, 2) .. "," .. TEXT[i] .. "\n" end
    local D = luma.io.parse_csv(csv)
    assert.equal("category", D:dtypes().label)
    for _, y in ipairs({ D:select{ "label" }, D:column("label"), D.label }) do
      local m = Tree{}:fit(D:drop{ "label" }, y)
      assert.same({ "no", "yes" }, m.classes)
      local p = m:predict(D:drop{ "label" })
      assert.is_true(luma.Table.is_categorical(p))
      -- the user's categories, so codes compare with the column's own
      assert.same(D.label.categories, p.categories)
      assert.same(TEXT, p:totable())
      assert.equal(1, m:score(D:drop{ "label" }, y))
    end
  end)

  it("predict returns the kind of container fit was given", function()
    -- a list of strings: a list of strings
    local m = Tree{}:fit(X, TEXT)
    assert.same(TEXT, m:predict(X))
    -- a list of numbers: a list of numbers, integers kept; classes a matrix
    local ints = {}
    for i = 1, #TEXT do ints[i] = TEXT[i] == "yes" and 1 or 0 end
    local n = Tree{}:fit(X, ints)
    assert.same(ints, n:predict(X))
    assert.equal("integer", math.type(n:predict(X)[1]))
    assert.matrix_near({ { 0 }, { 1 } }, n.classes, 0)
    -- booleans: booleans, false before true
    local bools = {}
    for i = 1, #TEXT do bools[i] = TEXT[i] == "yes" end
    local b = Tree{}:fit(X, bools)
    assert.same({ false, true }, b.classes)
    assert.same(bools, b:predict(X))
    -- a matrix: a matrix, as always (a row of labels counts as a column)
    assert.matrix_near(CODES, Tree{}:fit(X, CODES):predict(X), 0)
    assert.matrix_near(CODES, Tree{}:fit(X, CODES:t()):predict(X), 0)
    -- a Table with one numeric column: a matrix
    assert.matrix_near(CODES, Tree{}:fit(X, luma.Table{ y = CODES }):predict(X), 0)
  end)

  it("predict_proba's columns follow classes, sorted byte-wise", function()
    -- "Zebra" sorts before "ant" (upper case first, whatever the locale)
    local y = {}
    for i = 1, #TEXT do y[i] = TEXT[i] == "yes" and "Zebra" or "ant" end
    local m = luma.neighbors.KNeighborsClassifier{ n_neighbors = 1 }:fit(X, y)
    assert.same({ "Zebra", "ant" }, m.classes)
    local P = m:predict_proba(X)
    for i = 1, #y do
      assert.equal(1, P:get(i, y[i] == "Zebra" and 1 or 2))
    end
  end)

  it("staged predictions and class weights use the labels", function()
    local gb = luma.ensemble.GradientBoostingClassifier{ n_estimators = 3, seed = 1 }
      :fit(X, T.label)
    local stages = 0
    for p in gb:staged_predict(X) do
      stages = stages + 1
      assert.is_true(luma.Table.is_categorical(p))
    end
    assert.equal(3, stages)
    -- {label = weight} weighs the same class as {[code] = weight}
    local noisy = { table.unpack(TEXT) }
    noisy[6], noisy[12] = "yes", "no"
    local codes = M{ 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1 }
    local by_label = luma.svm.SVC{ C = 1, class_weight = { yes = 10 } }:fit(X, noisy)
    local by_code = luma.svm.SVC{ C = 1, class_weight = { [2] = 10 } }:fit(X, codes)
    assert.matrix_near(by_code.dual_coef, by_label.dual_coef, 1e-12)
    assert.same({ yes = 10 }, by_label.params.class_weight) -- the user's table, unchanged
  end)

  it("keep the labels in est.classes when a method fails inside the class", function()
    local s = luma.svm.SVC{}:fit(X, TEXT)
    local ok, err = pcall(s.predict, s, M{ { 0 / 0, 1 } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("non-finite", 1, true))
    assert.same({ "no", "yes" }, s.classes)
    assert.same(TEXT, s:predict(X))
  end)

  it("score counts a label the model never saw as wrong", function()
    local m = Tree{}:fit(X, TEXT)
    local y = { table.unpack(TEXT) }
    y[1], y[2], y[3] = "maybe", "maybe", "maybe"
    assert.equal(0.75, m:score(X, y))
  end)

  it("refuses labels it cannot read, naming the argument", function()
    local Tree_ = Tree{}
    assert.has_error(function() Tree_:fit(X, { "a", 1, "b" }) end,
      "bad argument #2 to 'fit' (y mixes labels of two types: y[1] is a string but y[2] is a "
        .. "number)")
    assert.has_error(function() Tree_:fit(X, luma.Table.Categorical{ "a", false, "b" }) end,
      "bad argument #2 to 'fit' (y has a missing label in row 2; drop or impute those rows first)")
    assert.has_error(function() Tree_:fit(X, T) end,
      "bad argument #2 to 'fit' (y as a luma.Table must have one column, got 3)")
    assert.has_error(function() Tree_:fit(X, { "a", "b" }) end,
      "bad argument #2 to 'fit' (X has 12 rows but y has 2)")
    local m = Tree{}:fit(X, TEXT)
    assert.has_error(function() m:score(X, CODES) end,
      "bad argument #2 to 'score' (y holds numbers but DecisionTreeClassifier was fitted on "
        .. "strings)")
    local n = Tree{}:fit(X, CODES)
    assert.has_error(function() n:score(X, TEXT) end,
      "bad argument #2 to 'score' (y holds strings but DecisionTreeClassifier was fitted on "
        .. "numbers)")
  end)

  it("regressors refuse strings with a clear message", function()
    for _, y in ipairs({ TEXT, T.label, T:select{ "label" } }) do
      assert.has_error(function() luma.linear.Ridge{}:fit(X, y) end,
        "bad argument #2 to 'fit' (y must be numeric for a regressor; got strings)")
    end
    -- a list of numbers is a target like a column
    local y = {}
    for i = 1, X:rows() do y[i] = X:get(i, 1) + 2 * X:get(i, 2) end
    assert.matrix_near(luma.linear.LinearRegression{}:fit(X, M(y)).coef,
      luma.linear.LinearRegression{}:fit(X, y).coef, 1e-12)
  end)
end)

describe("text labels: saved models", function()
  it("save and load string classes and the container", function()
    local path = os.tmpname()
    local m = luma.linear.LogisticRegression{}:fit(FEATURES, T.label)
    luma.save(m, path)
    local back = luma.load(path)
    os.remove(path)
    assert.same({ "no", "yes" }, back.classes)
    local p = back:predict(FEATURES)
    assert.is_true(luma.Table.is_categorical(p))
    assert.same(TEXT, p:totable())
    assert.matrix_near(m:predict_proba(FEATURES), back:predict_proba(FEATURES), 0)
  end)

  it("still load classifiers saved before labels were kept", function()
    -- tests/io/fixtures/classifiers-v1.luma was written by the build of
    -- commit 13b37a4 with tests/io/fixtures/classifiers-v1.lua
    local v = luma.load("tests/io/fixtures/classifiers-v1.luma")
    local y = M{ 5, 5, 5, 5, 7, 7, 7, 7 }
    for _, name in ipairs({ "tree", "logistic", "knn" }) do
      assert.matrix_near({ { 5 }, { 7 } }, v[name].classes, 0)
      assert.matrix_near(y, v[name]:predict(v.X), 0)
    end
    assert.matrix_near(v.proba, v.logistic:predict_proba(v.X), 1e-12)
  end)

  it("save models fitted on a numeric matrix as before (no labels record)", function()
    local m = luma.tree.DecisionTreeClassifier{}:fit(X, CODES)
    assert.is_nil(rawget(m, "__labels"))
    assert.is_not_nil(rawget(luma.tree.DecisionTreeClassifier{}:fit(X, TEXT), "__labels"))
  end)

  it("refuse a damaged labels record", function()
    local m = luma.tree.DecisionTreeClassifier{}:fit(X, TEXT)
    local bytes = luma.persist.encode(m)
    -- the saved kind "list" becomes "lisp": a record this Luma does not know
    local damaged = luma.serial.decode(bytes)
    damaged.state.__labels.kind = "lisp"
    assert.has_error(function() luma.persist.decode(luma.serial.encode(damaged)) end,
      "luma.load: corrupted luma.Labels (kind)")
  end)
end)

describe("text labels: model selection", function()
  local ms = luma.model_selection
  local Logistic = luma.linear.LogisticRegression

  -- 40 rows, two noisy classes
  local g = luma.random.Generator(7)
  local X40 = g:normal(40, 2)
  local words, codes = {}, luma.zeros(40, 1)
  for i = 1, 40 do
    local yes = X40:get(i, 1) + 0.5 * X40:get(i, 2) + 0.3 * g:normal() > 0
    words[i] = yes and "yes" or "no"
    codes:set(i, 1, yes and 2 or 1)
  end

  it("cross_val_score gives the scores of the codes", function()
    local a = ms.cross_val_score(Logistic{}, X40, codes, { cv = 4 })
    assert.matrix_near(a, ms.cross_val_score(Logistic{}, X40, words, { cv = 4 }), 0)
    assert.matrix_near(a, ms.cross_val_score(Logistic{}, X40,
      luma.Table.Categorical(words), { cv = 4 }), 0)
    -- f1 of the larger label ("yes"), as of code 2
    local f1 = ms.cross_val_score(Logistic{}, X40, words, { cv = 4, scoring = "f1" })
    local scorer = luma.metrics.make_scorer(luma.metrics.f1_score, { options = { pos_label = 2 } })
    assert.matrix_near(ms.cross_val_score(Logistic{}, X40, codes, { cv = 4, scoring = scorer }),
      f1, 1e-15)
  end)

  it("GridSearch picks the same candidate and keeps the labels", function()
    local grid = { C = { 0.01, 1, 100 } }
    local a = ms.GridSearch{ estimator = Logistic{}, param_grid = grid, cv = 4 }:fit(X40, codes)
    local b = ms.GridSearch{ estimator = Logistic{}, param_grid = grid, cv = 4 }:fit(X40, words)
    assert.equal(a.best_params.C, b.best_params.C)
    assert.equal(a.best_score, b.best_score)
    assert.same({ "no", "yes" }, b.classes)
    local want, got = a:predict(X40), b:predict(X40)
    for i = 1, 40 do assert.equal(want:get(i, 1) == 2 and "yes" or "no", got[i]) end
  end)

  it("cross_val_predict, train_test_split and the stratified splitters take them", function()
    local p = ms.cross_val_predict(Logistic{}, X40, words, { cv = 4 })
    local q = ms.cross_val_predict(Logistic{}, X40, codes, { cv = 4 })
    for i = 1, 40 do assert.equal(q:get(i, 1) == 2 and "yes" or "no", p[i]) end
    local c = ms.cross_val_predict(Logistic{}, X40, luma.Table.Categorical(words), { cv = 4 })
    assert.same(p, c:totable())
    -- the same folds for the words as for their codes
    local s = ms.StratifiedKFold{ n_splits = 4 }
    local folds = {}
    for _, test in s:split(X40, codes) do folds[#folds + 1] = test end
    local k = 0
    for _, test in s:split(X40, words) do
      k = k + 1
      assert.matrix_near(folds[k], test, 0)
    end
    local Xa, Xb, ya, yb = ms.train_test_split(X40, words, { stratify = words, seed = 2 })
    assert.equal(30, Xa:rows())
    assert.equal(10, Xb:rows())
    assert.equal(30, #ya)
    assert.equal(10, #yb)
    -- each label still goes with its row
    for i = 1, 10 do
      for r = 1, 40 do
        if Xb:get(i, 1) == X40:get(r, 1) and Xb:get(i, 2) == X40:get(r, 2) then
          assert.equal(words[r], yb[i])
        end
      end
    end
    -- stratified: 10 test rows keep the shares of "yes" and "no" to within one row
    local yes = 0
    for i = 1, 40 do yes = yes + (words[i] == "yes" and 1 or 0) end
    local test_yes = 0
    for i = 1, 10 do test_yes = test_yes + (yb[i] == "yes" and 1 or 0) end
    assert.is_true(math.abs(test_yes - yes / 4) <= 1)
  end)

  it("pipelines pass them to their last step", function()
    local pipe = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{}, Logistic{})
    pipe:fit(X40, words)
    assert.same({ "no", "yes" }, pipe.classes)
    local direct = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{}, Logistic{})
      :fit(X40, codes)
    assert.equal(direct:score(X40, codes), pipe:score(X40, words))
    local p = pipe:predict(X40)
    assert.equal(40, #p)
    for i = 1, 40 do assert.equal(direct:predict(X40):get(i, 1) == 2 and "yes" or "no", p[i]) end
    -- a list of numbers reaches the last step as it is: a list comes back
    local ints = {}
    for i = 1, 40 do ints[i] = math.tointeger(codes:get(i, 1)) end
    local q = luma.pipeline.make_pipeline(luma.preprocessing.StandardScaler{}, Logistic{})
      :fit(X40, ints):predict(X40)
    assert.equal("table", type(q))
    for i = 1, 40 do assert.equal(p[i] == "yes" and 2 or 1, q[i]) end
  end)
end)

describe("text labels: metrics", function()
  local m = luma.metrics
  local yt = { "cat", "dog", "dog", "eel", "cat", "dog", "eel", "eel" }
  local yp = { "cat", "dog", "eel", "eel", "dog", "dog", "eel", "cat" }
  local function codes(list)
    local idx = { cat = 1, dog = 2, eel = 3 }
    local out = luma.zeros(#list, 1)
    for i, v in ipairs(list) do out:set(i, 1, idx[v]) end
    return out
  end
  local ct, cp = codes(yt), codes(yp)

  it("give the numbers of the codes, compared by value in any container", function()
    local cat_t = luma.Table.Categorical(yt)
    local tab_p = luma.Table{ label = yp }
    for _, pair in ipairs({ { yt, yp }, { cat_t, yp }, { yt, tab_p }, { cat_t, tab_p } }) do
      local a, b = pair[1], pair[2]
      assert.equal(m.accuracy_score(ct, cp), m.accuracy_score(a, b))
      assert.equal(0.625, m.accuracy_score(a, b))
      assert.equal(m.balanced_accuracy_score(ct, cp), m.balanced_accuracy_score(a, b))
      assert.equal(m.matthews_corrcoef(ct, cp), m.matthews_corrcoef(a, b))
      assert.equal(m.cohen_kappa_score(ct, cp), m.cohen_kappa_score(a, b))
      for _, avg in ipairs({ "macro", "micro", "weighted" }) do
        assert.equal(m.f1_score(ct, cp, { average = avg }), m.f1_score(a, b, { average = avg }))
        assert.equal(m.precision_score(ct, cp, { average = avg }),
          m.precision_score(a, b, { average = avg }))
        assert.equal(m.recall_score(ct, cp, { average = avg }),
          m.recall_score(a, b, { average = avg }))
      end
      assert.equal(m.adjusted_rand_score(ct, cp), m.adjusted_rand_score(a, b))
    end
  end)

  it("take lists of numbers as columns", function()
    local lt = {}
    for i = 1, ct:rows() do lt[i] = math.tointeger(ct:get(i, 1)) end
    assert.equal(m.accuracy_score(ct, cp), m.accuracy_score(lt, cp))
    local C, labels = m.confusion_matrix(lt, cp)
    assert.matrix_near(m.confusion_matrix(ct, cp), C, 0)
    assert.matrix_near({ { 1 }, { 2 }, { 3 } }, labels, 0)
    local e = luma.preprocessing.LabelEncoder{}:fit({ 30, 10, 20, 10 })
    assert.matrix_near({ { 10 }, { 20 }, { 30 } }, e.classes, 0)
    assert.matrix_near({ { 3 }, { 1 } }, e:transform({ 30, 10 }), 0)
  end)

  it("confusion_matrix and classification_report name the labels", function()
    local C, labels = m.confusion_matrix(yt, yp)
    local Cc = m.confusion_matrix(ct, cp)
    assert.matrix_near(Cc, C, 0)
    assert.matrix_near({ { 1, 1, 0 }, { 0, 2, 1 }, { 1, 0, 2 } }, C, 0)
    assert.same({ "cat", "dog", "eel" }, labels)
    -- labels in a given order, one of them absent from both columns
    local C2, l2 = m.confusion_matrix(yt, yp, { labels = { "eel", "cat", "fox" } })
    assert.same({ "eel", "cat", "fox" }, l2)
    assert.matrix_near({ { 2, 1, 0 }, { 0, 1, 0 }, { 0, 0, 0 } }, C2, 0)
    local report = m.classification_report(yt, yp)
    assert.truthy(report:find("\n%s+dog%s+0%.67%s+0%.67%s+0%.67%s+3\n"))
  end)

  it("binary scores take the larger label as positive unless told", function()
    local y = { "no", "yes", "yes", "no", "yes", "no" }
    local p = { "no", "yes", "no", "no", "yes", "yes" }
    local c = M{ 0, 1, 1, 0, 1, 0 }
    local d = M{ 0, 1, 0, 0, 1, 1 }
    assert.equal(m.f1_score(c, d), m.f1_score(y, p))
    assert.equal(m.f1_score(c, d, { pos_label = 0 }), m.f1_score(y, p, { pos_label = "no" }))
    local s = M{ 0.1, 0.9, 0.4, 0.35, 0.8, 0.6 }
    assert.equal(m.roc_auc_score(c, s), m.roc_auc_score(y, s))
    assert.equal(m.average_precision_score(c, s), m.average_precision_score(y, s))
    assert.equal(m.log_loss(c, s), m.log_loss(y, s))
    assert.equal(m.brier_score_loss(c, s), m.brier_score_loss(y, s))
    assert.has_error(function() m.f1_score(y, p, { pos_label = "maybe" }) end,
      "luma.metrics: pos_label \"maybe\" is not a label (labels: \"no\", \"yes\"); set "
        .. "pos_label to the positive one")
    assert.has_error(function() m.accuracy_score(y, d) end,
      "luma.metrics.accuracy_score: y_true holds strings but y_pred holds numbers")
  end)
end)

describe("text labels: LabelEncoder and plots", function()
  local pp = luma.preprocessing

  it("LabelEncoder codes a categorical column and gives it back", function()
    local e = pp.LabelEncoder{}:fit(T.label)
    assert.same({ "no", "yes" }, e.classes)
    assert.matrix_near(CODES, e:transform(T.label), 0)
    assert.matrix_near(CODES, e:transform(TEXT), 0)
    local back = e:inverse_transform(M{ 2, 1 })
    assert.is_true(luma.Table.is_categorical(back))
    assert.same({ "yes", "no" }, back:totable())
    -- a one-column Table, a list
    assert.matrix_near(CODES, pp.LabelEncoder{}:fit_transform(T:select{ "label" }), 0)
    local l = pp.LabelEncoder{}:fit(TEXT)
    assert.same({ "yes", "no" }, l:inverse_transform(M{ 2, 1 }))
    assert.has_error(function() l:transform({ "maybe" }) end,
      "luma.preprocessing.LabelEncoder: unknown label maybe")
  end)

  it("plots take string labels and fit on them", function()
    local m = luma.neighbors.KNeighborsClassifier{ n_neighbors = 3 }
    local fig = luma.plot.decision_regions(m, X, T.label, { resolution = 8 })
    assert.truthy(fig:svg():find("<svg", 1, true))
    assert.same({ "no", "yes" }, m.classes)
    assert.truthy(luma.plot.confusion_matrix(TEXT, m:predict(X)):svg():find(">yes<", 1, true))
    assert.truthy(luma.plot.roc_curve(TEXT, m:predict_proba(X):col(2)):svg():find("AUC = 1.000",
      1, true))
  end)
end)
