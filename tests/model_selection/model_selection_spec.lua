-- luma.model_selection splitters, train_test_split and check_cv.  Folds of
-- the deterministic splitters are compared with scikit-learn 1.2.1's on the
-- same inputs (its 0-based indices plus one), produced by:
--   from sklearn.model_selection import StratifiedKFold, GroupKFold, KFold
--   [list(te + 1) for tr, te in SPLITTER.split(np.zeros(n), y, groups)]
-- Random splitters are checked by their invariants at fixed seeds.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ms = luma.model_selection
local M = luma.matrix

-- The test folds of a split as plain tables of integers.
local function test_folds(splitter, X, y, groups)
  local out = {}
  for _, test in splitter:split(X, y, groups) do
    local t = {}
    for i = 1, test:rows() do t[i] = math.tointeger(test:get(i, 1)) end
    out[#out + 1] = t
  end
  return out
end

-- Every split partitions 1..n (or a subset for train_size) without overlap.
local function assert_partitions(splitter, n, y, groups, full)
  for train, test in splitter:split(n, y, groups) do
    local seen = {}
    for _, part in ipairs({ train, test }) do
      for i = 1, part:rows() do
        local v = math.tointeger(part:get(i, 1))
        assert.is_nil(seen[v])
        seen[v] = true
      end
    end
    if full ~= false then
      for i = 1, n do assert.is_true(seen[i]) end
    end
  end
end

describe("splitters #smoke", function()
  it("cut KFold into contiguous blocks, the first n mod k one larger", function()
    assert.same({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11}}, test_folds(ms.KFold{ n_splits = 4 }, 11))
    assert.same({{1, 2, 3}, {4, 5}, {6, 7}}, test_folds(ms.KFold{ n_splits = 3 }, luma.zeros(7, 2)))
    assert.equal(5, ms.KFold{}:get_n_splits())
    local shuffled = test_folds(ms.KFold{ n_splits = 3, shuffle = true, seed = 1 }, 9)
    assert.are_not.same({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, shuffled)
    assert.same(shuffled, test_folds(ms.KFold{ n_splits = 3, shuffle = true, seed = 1 }, 9))
    assert_partitions(ms.KFold{ n_splits = 3, shuffle = true, seed = 2 }, 10)
  end)

  it("stratify like scikit-learn", function()
    assert.same({{1, 2, 5, 8}, {3, 6, 9}, {4, 7, 10}},
      test_folds(ms.StratifiedKFold{ n_splits = 3 }, 10, M{1, 1, 1, 1, 2, 2, 2, 3, 3, 3}))
    local y = M{2, 1, 2, 3, 1, 2, 1, 3, 2, 2, 1, 3, 3}
    assert.same({{1, 2, 3, 4}, {5, 6, 8}, {7, 9, 12}, {10, 11, 13}},
      test_folds(ms.StratifiedKFold{ n_splits = 4 }, 13, y))
    assert_partitions(ms.StratifiedKFold{ n_splits = 4, shuffle = true, seed = 3 }, 13, y)
    -- shuffled folds keep each class's allocation per fold
    for _, test in ms.StratifiedKFold{ n_splits = 2, shuffle = true, seed = 4 }:split(12,
        M{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}) do
      assert.equal(6, test:rows())
      assert.equal(3, test:le(6):sum())
    end
  end)

  it("keep groups together like scikit-learn", function()
    local g = M{5, 5, 1, 1, 1, 7, 7, 7, 7, 2, 9, 9, 9, 9, 9}
    assert.same({{11, 12, 13, 14, 15}, {6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}},
      test_folds(ms.GroupKFold{ n_splits = 3 }, 15, nil, g))
  end)

  it("split time series forward", function()
    local folds = {}
    for train, test in ms.TimeSeriesSplit{ n_splits = 3 }:split(10) do
      folds[#folds + 1] = { train:rows(), test:get(1, 1), test:rows() }
    end
    assert.same({{4, 5, 2}, {6, 7, 2}, {8, 9, 2}}, folds)
    local train, test = ms.TimeSeriesSplit{ n_splits = 2, max_train_size = 3, gap = 1,
      test_size = 2 }:split(10)()
    assert.matrix_near({{3}, {4}, {5}}, train) -- tests start at 7 and 9 (1-based); a gap of 1
    assert.matrix_near({{7}, {8}}, test)
  end)

  it("leave out one or p samples", function()
    assert.same({{1}, {2}, {3}}, test_folds(ms.LeaveOneOut{}, 3))
    assert.equal(4, ms.LeaveOneOut{}:get_n_splits(4))
    assert.same({{1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}, test_folds(ms.LeavePOut{ p = 2 }, 4))
    assert.equal(10, ms.LeavePOut{ p = 3 }:get_n_splits(5))
  end)

  it("use predefined folds, 0 meaning always train", function()
    local s = ms.PredefinedSplit{ test_fold = M{0, 1, 1, 0, 2} }
    assert.same({{2, 3}, {5}}, test_folds(s, 5))
    assert.equal(2, s:get_n_splits())
    local train = s:split(5)()
    assert.matrix_near({{1}, {4}, {5}}, train)
  end)

  it("draw shuffle splits of the requested sizes", function()
    local s = ms.ShuffleSplit{ n_splits = 4, test_size = 0.25, seed = 5 }
    local count = 0
    for train, test in s:split(10) do
      count = count + 1
      assert.equal(3, test:rows()) -- ceil(0.25 * 10)
      assert.equal(7, train:rows())
    end
    assert.equal(4, count)
    assert_partitions(ms.ShuffleSplit{ n_splits = 2, test_size = 3, train_size = 4, seed = 6 },
      10, nil, nil, false)
    local y = M{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}
    for _, test in ms.StratifiedShuffleSplit{ n_splits = 3, test_size = 0.5, seed = 7 }:split(12, y) do
      assert.equal(3, test:le(6):sum()) -- half of each class
    end
  end)

  it("resolve cv arguments", function()
    local y = M{1, 1, 2, 2, 1, 2}
    local splits = ms.check_cv(3, luma.zeros(6, 1), y, true)
    assert.equal(3, #splits)
    for _, pair in ipairs(splits) do
      assert.equal(1, pair[2]:le(2):add(pair[2]:eq(5)):gt(0):sum()) -- one of class 1
    end
    assert.equal(2, #ms.check_cv(2, luma.zeros(6, 1), y, false))
    assert.equal(1, #ms.check_cv({ { {1, 2}, {3} } }, luma.zeros(3, 1)))
    assert.equal(3, #ms.check_cv(ms.LeaveOneOut{}, luma.zeros(3, 1)))
    assert.has_error(function() ms.check_cv("x", luma.zeros(3, 1)) end,
      "cv must be an integer, a splitter or an iterable of (train, test) pairs, got string")
  end)
end)

describe("train_test_split #smoke", function()
  it("splits rows of X and y together", function()
    local X = luma.hstack{ luma.arange(20), luma.arange(20) * 10 }
    local y = luma.arange(20)
    local Xtr, Xte, ytr, yte = ms.train_test_split(X, y, { seed = 1 })
    assert.equal(15, Xtr:rows())
    assert.equal(5, Xte:rows()) -- ceil(0.25 * 20)
    assert.matrix_near(Xtr:col(1), ytr)
    assert.matrix_near(Xte:col(2), yte * 10)
    local a = ms.train_test_split(X, y, { seed = 1 })
    assert.matrix_near(Xtr, a)
    local Xtr2, Xte2 = ms.train_test_split(X, y, { shuffle = false, test_size = 4 })
    assert.matrix_near(X:sub(1, 16), Xtr2)
    assert.matrix_near(X:sub(17, 20), Xte2)
    local labels = M{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2}
    local _, _, _, yte3 = ms.train_test_split(luma.zeros(12, 1), labels,
      { stratify = labels, test_size = 0.25, seed = 2 })
    assert.equal(2, yte3:eq(1):sum()) -- 8 * 0.25
    assert.equal(1, yte3:eq(2):sum())
  end)
end)

describe("splitter errors", function()
  it("say what is wrong", function()
    assert.has_error(function() ms.KFold{ n_splits = 1 } end,
      "luma.model_selection.KFold: parameter 'n_splits' must be an integer >= 2, got 1")
    assert.has_error(function() ms.KFold{ folds = 3 } end,
      "luma.model_selection.KFold: unknown parameter 'folds' (valid: n_splits, shuffle, seed)")
    assert.has_error(function() test_folds(ms.KFold{ n_splits = 5 }, 3) end,
      "KFold(n_splits=5, shuffle=false): cannot split 3 samples into n_splits=5 folds")
    assert.has_error(function() test_folds(ms.StratifiedKFold{ n_splits = 3 }, 4, M{1, 1, 2, 2}) end,
      "StratifiedKFold(n_splits=3, shuffle=false): n_splits=3 is more than the members of every "
      .. "class (largest class: 2); use fewer folds")
    -- a NaN label is no class (it used to fail as "table index is NaN")
    for _, S in ipairs{ "StratifiedKFold", "RepeatedStratifiedKFold", "StratifiedShuffleSplit" } do
      local s = ms[S]{ n_splits = 2 }
      assert.has_error(function() test_folds(s, 4, M{ 1, 0 / 0, 1, 2 }) end,
        tostring(s) .. ": y has a NaN label (row 2)")
    end
    assert.has_error(function() test_folds(ms.StratifiedKFold{}, 4) end,
      "bad argument #2 to 'split' (luma.model_selection.StratifiedKFold needs the labels y)")
    assert.has_error(function() test_folds(ms.GroupKFold{ n_splits = 3 }, 4, nil, M{1, 1, 2, 2}) end,
      "GroupKFold(n_splits=3): n_splits=3 is more than the 2 groups")
    assert.has_error(function() test_folds(ms.KFold{}, 10, M{1, 2}) end,
      "bad argument #2 to 'split' (X has 10 rows but y has 2)")
    assert.has_error(function() test_folds(ms.ShuffleSplit{ test_size = 1.5 }, 10) end,
      "test_size=1.5 must be a fraction in (0, 1) or a count")
    assert.has_error(function() ms.train_test_split(luma.zeros(4, 1), M{1, 2}) end,
      "bad argument #2 to 'train_test_split' (X has 4 rows but y has 2)")
    assert.has_error(function() ms.train_test_split(luma.zeros(4, 1), nil, { tests = 1 }) end,
      "train_test_split: unknown option 'tests' (valid: seed, shuffle, stratify, test_size, train_size)")
  end)

  it("warn when a class is smaller than the number of folds", function()
    local warnings = {}
    local saved = _G.warn
    _G.warn = function(msg) warnings[#warnings + 1] = msg end
    local ok = pcall(test_folds, ms.StratifiedKFold{ n_splits = 3 }, 7, M{1, 1, 1, 1, 2, 2, 1})
    _G.warn = saved
    assert.is_true(ok)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:find("only 2 members, fewer than n_splits=3", 1, true))
  end)
end)
