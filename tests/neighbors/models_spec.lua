-- The neighbour models of luma.neighbors.
--
-- Reference values:
--   digits, 5-fold KFold (no shuffling) accuracies of KNeighborsClassifier
--     for k = 1 and 5: scikit-learn 1.2.1 (Debian's python3-sklearn),
--     cross_val_score(KNeighborsClassifier(n_neighbors=k), X, y, cv=KFold(5))
--     on load_digits() (equal to luma.datasets.load("digits")), with both
--     algorithm="brute" and "kd_tree":
--       k = 1: 346/360, 343/360, 347/359, 355/359, 343/359
--       k = 5: 342/360, 347/360, 346/359, 352/359, 346/359
--   everything else by hand, on 1-D points where the distances are plain
--   differences (derivations next to each test).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")

-- required, not luma.neighbors: the index's luma.save loader registers
-- with the luma.persist this spec file uses (Busted reloads modules per file)
local NB = require("luma.neighbors")
local M = luma.matrix

-- Three training points on a line: 0, 1, 3 with classes 1, 2, 2.
local X3, y3 = M{ 0, 1, 3 }, M{ 1, 2, 2 }

describe("KNeighborsClassifier", function()
  it("matches scikit-learn's cross-validated accuracy on digits", function()
    local X, y = luma.datasets.load("digits")
    local expected = {
      [1] = { 346 / 360, 343 / 360, 347 / 359, 355 / 359, 343 / 359 },
      [5] = { 342 / 360, 347 / 360, 346 / 359, 352 / 359, 346 / 359 },
    }
    for k, acc in pairs(expected) do
      for _, algorithm in ipairs({ "auto", "kd_tree" }) do
        local scores = luma.model_selection.cross_val_score(
          NB.KNeighborsClassifier{ n_neighbors = k, algorithm = algorithm }, X, y,
          { cv = luma.model_selection.KFold{ n_splits = 5 } })
        local rows = {}
        for i, a in ipairs(acc) do rows[i] = { a } end
        assert.matrix_near(rows, scores, 1e-15)
      end
    end
  end)

  it("votes uniformly or by inverse distance (hand-checked)", function()
    -- query 0.5: distances 0.5 (row 1), 0.5 (row 2), 2.5 (row 3)
    local uniform = NB.KNeighborsClassifier{ n_neighbors = 3 }:fit(X3, y3)
    assert.matrix_near({ { 1 / 3, 2 / 3 } }, uniform:predict_proba(M{ { 0.5 } }))
    -- two neighbours, one vote each: the smaller class wins the tie
    local two = NB.KNeighborsClassifier{ n_neighbors = 2 }:fit(X3, y3)
    assert.matrix_near({ { 1 } }, two:predict(M{ { 0.5 } }), 0)
    -- weights 1/d = 2, 2, 0.4: class 1 gets 2, class 2 gets 2.4
    local dist = NB.KNeighborsClassifier{ n_neighbors = 3, weights = "distance" }:fit(X3, y3)
    assert.matrix_near({ { 2 / 4.4, 2.4 / 4.4 } }, dist:predict_proba(M{ { 0.5 } }), 1e-15)
    assert.matrix_near({ { 2 } }, dist:predict(M{ { 0.5 } }), 0)
    -- a neighbour at distance 0 takes all the weight (scikit-learn's rule)
    assert.matrix_near({ { 0, 1 } }, dist:predict_proba(M{ { 1 } }), 0)
    -- a weight function of the distance matrix: exp(-d)
    local f = NB.KNeighborsClassifier{ n_neighbors = 3, weights = function(d) return (d * -1):exp() end }
    f:fit(X3, y3)
    local a, b = math.exp(-0.5), math.exp(-0.5) + math.exp(-2.5)
    assert.matrix_near({ { a / (a + b), b / (a + b) } }, f:predict_proba(M{ { 0.5 } }), 1e-15)
  end)

  it("finds the neighbours of the training points without themselves", function()
    local m = NB.KNeighborsClassifier{ n_neighbors = 1 }:fit(X3, y3)
    local d, i = m:kneighbors()
    assert.matrix_near({ { 1 }, { 1 }, { 2 } }, d)
    assert.matrix_near({ { 2 }, { 1 }, { 2 } }, i, 0)
    local d2, i2 = m:kneighbors(M{ { 2.9 } }, 2)
    assert.matrix_near({ { 0.1, 1.9 } }, d2, 1e-15)
    assert.matrix_near({ { 3, 2 } }, i2, 0)
  end)

  it("keeps its predictions through luma.save and luma.load", function()
    local X, y = luma.datasets.load("iris")
    for _, algorithm in ipairs({ "brute", "kd_tree", "ball_tree", "laesa" }) do
      local m = NB.KNeighborsClassifier{ n_neighbors = 7, algorithm = algorithm }:fit(X, y)
      local path = os.tmpname()
      luma.save(m, path)
      local back = luma.load(path)
      os.remove(path)
      assert.equal(algorithm, back.effective_algorithm)
      assert.matrix_near(m:predict_proba(X), back:predict_proba(X), 0)
    end
  end)
end)

describe("KNeighborsRegressor", function()
  it("averages the neighbours' targets (hand-checked)", function()
    local y = M{ 10, 20, 40 }
    local m = NB.KNeighborsRegressor{ n_neighbors = 2 }:fit(X3, y)
    assert.matrix_near({ { 15 } }, m:predict(M{ { 0.5 } }))
    -- weights 2, 2, 0.4: (20 + 40 + 16) / 4.4
    local w = NB.KNeighborsRegressor{ n_neighbors = 3, weights = "distance" }:fit(X3, y)
    assert.matrix_near({ { 76 / 4.4 } }, w:predict(M{ { 0.5 } }), 1e-15)
    -- every column of y
    local two = NB.KNeighborsRegressor{ n_neighbors = 2 }:fit(X3, M.hstack{ y, y * 2 })
    assert.matrix_near({ { 15, 30 } }, two:predict(M{ { 0.5 } }))
  end)
end)

describe("radius neighbours", function()
  it("classify by the points within the radius, with an outlier label", function()
    -- radius 1.2: query 0.5 has rows 1 and 2 (one vote each: class 1 on
    -- the tie), query 2 has rows 2 and 3, query 10 has none
    local Q = M{ 0.5, 2, 10 }
    local strict = NB.RadiusNeighborsClassifier{ radius = 1.2 }:fit(X3, y3)
    assert.matrix_near({ { 1 }, { 2 } }, strict:predict(M{ 0.5, 2 }), 0)
    support.errors_with("no training point within radius 1.2 of row 3", function() strict:predict(Q) end)
    local frequent = NB.RadiusNeighborsClassifier{ radius = 1.2, outlier_label = "most_frequent" }
    frequent:fit(X3, y3)
    assert.matrix_near({ { 1 }, { 2 }, { 2 } }, frequent:predict(Q), 0)
    assert.matrix_near({ { 0.5, 0.5 }, { 0, 1 }, { 0, 1 } }, frequent:predict_proba(Q))
    local other = NB.RadiusNeighborsClassifier{ radius = 1.2, outlier_label = 7 }:fit(X3, y3)
    assert.matrix_near({ { 1 }, { 2 }, { 7 } }, other:predict(Q), 0)
    local warnings = support.capture_warnings(function()
      assert.matrix_near({ { 0.5, 0.5 }, { 0, 1 }, { 0, 0 } }, other:predict_proba(Q))
    end)
    assert.equal(1, #warnings)
  end)

  it("regress on the points within the radius, NaN without any", function()
    local m = NB.RadiusNeighborsRegressor{ radius = 1.2 }:fit(X3, M{ 10, 20, 40 })
    local p
    local warnings = support.capture_warnings(function() p = m:predict(M{ 2, 10 }) end)
    assert.near(30, p:get(1, 1), 1e-15)
    assert.is_true(p:get(2, 1) ~= p:get(2, 1))
    assert.equal(1, #warnings)
  end)
end)

describe("NearestNeighbors", function()
  -- Points 0, 1, 3, 7: the nearest other point of each is 1 -> 2 (1),
  -- 2 -> 1 (1), 3 -> 2 (2), 4 -> 3 (4).
  local X = M{ 0, 1, 3, 7 }

  it("builds plain, symmetrised and mutual kNN graphs (hand-checked)", function()
    local nn = NB.NearestNeighbors{ n_neighbors = 1 }:fit(X)
    assert.matrix_near({ { 1, 2, 1 }, { 2, 1, 1 }, { 3, 2, 2 }, { 4, 3, 4 } },
      nn:kneighbors_graph(nil, 1, "distance"))
    assert.matrix_near({ { 1, 2, 1 }, { 2, 1, 1 } },
      nn:kneighbors_graph(nil, 1, "connectivity", { symmetrize = "and" }))
    assert.matrix_near({ { 0, 1, 0, 0 }, { 1, 0, 1, 0 }, { 0, 1, 0, 1 }, { 0, 0, 1, 0 } },
      nn:kneighbors_graph(nil, 1, "connectivity", { symmetrize = "or", format = "dense" }))
    -- the module function, counting each point as its own first neighbour
    assert.matrix_near({ { 1, 1, 0 }, { 2, 2, 0 }, { 3, 3, 0 }, { 4, 4, 0 } },
      NB.kneighbors_graph(X, 1, { mode = "distance", include_self = true }))
    assert.matrix_near(nn:kneighbors_graph(nil, 2), NB.kneighbors_graph(X, 2))
  end)

  it("finds the points within a radius", function()
    local nn = NB.NearestNeighbors{ radius = 2 }:fit(X)
    local dists, inds = nn:radius_neighbors()
    assert.matrix_near({ { 1 }, { 2 } }, dists[2])
    assert.matrix_near({ { 1 }, { 3 } }, inds[2], 0)
    assert.equal(0, inds[4]:rows())
    assert.matrix_near({ { 1, 2, 1 }, { 2, 1, 1 }, { 2, 3, 1 }, { 3, 2, 1 } },
      nn:radius_neighbors_graph())
    local d, i, counts = nn:radius_neighbors(M{ { 2 } }, 1, { flat = true })
    assert.matrix_near({ { 1 }, { 1 } }, d)
    assert.matrix_near({ { 2 }, { 3 } }, i, 0)
    assert.matrix_near({ { 2 } }, counts, 0)
  end)
end)

describe("kernel kNN", function()
  local X, y = luma.datasets.load("digits")
  local Xtr, ytr, Xte = X:sub(1, 400, nil, nil), y:sub(1, 400, nil, nil), X:sub(401, 500, nil, nil)

  it("finds the Euclidean neighbours with a linear or RBF kernel", function()
    -- linear: K(x_i, x_i) - 2 K(x_i, x) = |x_i - x|^2 - |x|^2; RBF:
    -- 1 - 2 exp(-gamma |x_i - x|^2), both increasing in |x_i - x| (on the
    -- integer-valued digits the scores are exact, so ties agree too)
    local plain = NB.KNeighborsClassifier{ n_neighbors = 5 }:fit(Xtr, ytr)
    local _, ind = plain:kneighbors(Xte)
    local dist = plain:kneighbors(Xte)
    for _, kernel in ipairs({ "linear", "rbf" }) do
      local m = NB.KernelKNeighborsClassifier{ n_neighbors = 5, kernel = kernel }:fit(Xtr, ytr)
      local kd, ki = m:kneighbors(Xte)
      assert.matrix_near(ind, ki, 0)
      assert.matrix_near(plain:predict(Xte), m:predict(Xte), 0)
      if kernel == "rbf" then
        -- feature-space distance sqrt(2 - 2 exp(-gamma d^2)), gamma = 1/64
        local expected = ((dist:pow(2) * (-1 / 64)):exp() * -2 + 2):sqrt()
        assert.matrix_near(expected, kd, 1e-12)
      else
        assert.matrix_near(dist, kd, 1e-9)
      end
    end
    local r = NB.KernelKNeighborsRegressor{ n_neighbors = 5, kernel = "linear" }:fit(Xtr, ytr)
    assert.matrix_near(NB.KNeighborsRegressor{ n_neighbors = 5 }:fit(Xtr, ytr):predict(Xte),
      r:predict(Xte), 1e-12)
  end)
end)

describe("MultiLabelKNeighbors", function()
  -- Users at 0, 1, 2, 10, 11 liking labels (1 0 0), (1 1 0), (0 1 0),
  -- (0 0 1), (0 1 1).  Query 0.9: neighbours 1 (row 2), 0 (row 1), 2
  -- (row 3), label frequencies 2/3, 2/3, 0.  Query 10.4: neighbours 10,
  -- 11, 2: frequencies 0, 2/3, 2/3.
  local X = M{ 0, 1, 2, 10, 11 }
  local Y = M{ { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0, 1, 1 } }
  local Q = M{ 0.9, 10.4 }

  it("recommends the most frequent labels among the neighbours (hand-checked)", function()
    local m = NB.MultiLabelKNeighbors{ n_neighbors = 3, top_k = 2 }:fit(X, Y)
    assert.matrix_near({ { 2 / 3, 2 / 3, 0 }, { 0, 2 / 3, 2 / 3 } }, m:predict_proba(Q), 1e-15)
    local labels, scores = m:recommend(Q)
    assert.matrix_near({ { 1, 2 }, { 2, 3 } }, labels, 0)
    assert.matrix_near({ { 2 / 3, 2 / 3 }, { 2 / 3, 2 / 3 } }, scores, 1e-15)
    assert.matrix_near({ { 1, 1, 0 }, { 0, 1, 1 } }, m:predict(Q), 0)
    -- the users' own labels (1 0 1) and (0 0 1): one hit in two each
    assert.near(0.5, m:score(Q, M{ { 1, 0, 1 }, { 0, 0, 1 } }), 1e-15)
    -- a single neighbour: only its labels are marked
    local one = NB.MultiLabelKNeighbors{ n_neighbors = 1, top_k = 2 }:fit(X, Y)
    assert.matrix_near({ { 1, 1, 0 }, { 0, 0, 1 } }, one:predict(Q), 0)
  end)
end)
