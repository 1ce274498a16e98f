-- luma.datasets: the bundled data sets match scikit-learn 1.2.1's loaders
-- (reference values printed by load_diabetes(), load_wine(), load_digits(),
-- load_breast_cancer() from Debian's python3-sklearn), and the generators
-- produce the documented shapes, labels and formulas.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local ds = luma.datasets

describe("bundled data sets #smoke", function()
  it("load with their shapes, targets and names", function()
    local shapes = { iris = { 150, 4, 3 }, wine = { 178, 13, 3 }, breast_cancer = { 569, 30, 2 },
      digits = { 1797, 64, 10 }, diabetes = { 442, 10 } }
    for name, s in pairs(shapes) do
      local X, y, info = ds.load(name)
      assert.same({ s[1], s[2] }, { X:shape() })
      assert.same({ s[1], 1 }, { y:shape() })
      assert.equal(s[2], #info.feature_names)
      assert.equal(s[3], info.target_names and #info.target_names)
      assert.truthy(info.description)
    end
    local X, y, info = ds.load("iris")
    assert.matrix_near({{5.1, 3.5, 1.4, 0.2}}, X:row(1), 0)
    assert.equal(0, y:get(1, 1))
    assert.equal("virginica", info.target_names[y:get(150, 1) + 1])
  end)

  it("agree with scikit-learn's loaders", function()
    local W, wy = ds.load("wine")
    assert.matrix_near({{14.13, 4.1, 2.74, 24.5, 96.0, 2.05, 0.76, 0.56, 1.35, 9.2, 0.61, 1.6, 560.0}},
      W:row(178), 0)
    assert.equal(2, wy:get(178, 1))
    local D, dy = ds.load("digits")
    assert.equal(561718, D:sum())
    assert.equal(8, dy:get(1797, 1))
    local B, by = ds.load("breast_cancer")
    assert.is_true(math.abs(B:sum() - 1056474.4596356) < 1e-6)
    assert.equal(357, by:sum())
    -- diabetes is centred and scaled to unit column norms, as scikit-learn's
    local X, y = ds.load("diabetes")
    assert.is_true(math.abs(X:get(1, 1) - 0.038075906433423026) < 1e-15)
    assert.is_true(math.abs(X:get(442, 10) - 0.0030644094143684884) < 1e-15)
    assert.equal(151, y:get(1, 1))
    assert.matrix_near(luma.ones(1, 10), X:pow(2):sum(1), 1e-12)
    local raw = ds.load("diabetes", { scaled = false })
    assert.matrix_near({{59, 2, 32.1, 101, 157, 93.2, 38, 4, 4.8598, 87}}, raw:row(1), 0)
  end)

  it("name unknown sets and options", function()
    assert.has_error(function() ds.load("mnist") end,
      "luma.datasets.load: unknown data set 'mnist' (known: breast_cancer, diabetes, digits, iris, wine)")
    assert.has_error(function() ds.load("iris", { scale = true }) end,
      "luma.datasets.load: unknown option 'scale' (valid: scaled, as_table)")
  end)
end)

describe("bundled data sets as Tables", function()
  it("give the features by name and the target as a categorical column", function()
    local T, info = ds.load("iris", { as_table = true })
    local X, y = ds.load("iris")
    assert.same({ "sepal length (cm)", "sepal width (cm)", "petal length (cm)",
      "petal width (cm)", "target" }, T:names())
    assert.equal(150, T:nrows())
    assert.matrix_near(X, T:to_matrix(info.feature_names), 0)
    assert.equal("category", T:dtypes().target)
    -- categories in the data set's order: code k is target_names[k], label k - 1 of y
    assert.same({ "setosa", "versicolor", "virginica" }, T.target.categories)
    assert.matrix_near(y + 1, T.target.codes, 0)
    assert.equal("virginica", T.target:get(150))
    local D = ds.load("diabetes", { as_table = true })
    assert.equal("numeric", D:dtypes().target)
    assert.equal(151, D.target:get(1, 1))
    assert.has_error(function() ds.load("iris", { table = true }) end,
      "luma.datasets.load: unknown option 'table' (valid: scaled, as_table)")
  end)
end)

describe("generators #smoke", function()
  it("make blobs around given centers", function()
    local centers = luma.matrix{{0, 0}, {100, 100}}
    local X, y = ds.make_blobs{ n_samples = 11, centers = centers, cluster_std = 0.1, seed = 1 }
    assert.same({ 11, 2 }, { X:shape() })
    assert.equal(6, y:eq(1):sum()) -- the first n mod k clusters get one more
    for i = 1, 11 do
      local c = centers:row(y:get(i, 1))
      assert.is_true((X:row(i) - c):abs():max() < 1)
    end
    local X2 = ds.make_blobs{ n_samples = 11, centers = centers, cluster_std = 0.1, seed = 1 }
    assert.matrix_near(X, X2, 0) -- reproducible
  end)

  it("follow their formulas", function()
    local X, y = ds.make_friedman1{ n_samples = 50, seed = 2 }
    local x = function(j) return X:col(j) end
    local expected = (x(1):mul(x(2)) * math.pi):sin() * 10 + (x(3) - 0.5):pow(2) * 20
      + x(4) * 10 + x(5) * 5
    assert.matrix_near(expected, y, 1e-12)
    local xs, ys = ds.make_sinusoid{ n_samples = 30, noise = 0, seed = 3 }
    assert.is_true(xs:min() >= -5 and xs:max() < 5)
    assert.matrix_near((xs / 5):sin() * -1 + xs:cos(), ys, 1e-15)
    local R, ry, coef = ds.make_regression{ n_samples = 20, n_features = 4, n_informative = 2,
      bias = 3, seed = 4 }
    assert.matrix_near(R * coef + 3, ry, 1e-12)
    assert.equal(0, coef:get(3, 1) + coef:get(4, 1))
  end)

  it("shape moons, circles and classification problems", function()
    local M, my = ds.make_moons{ n_samples = 40, seed = 5 }
    assert.equal(20, my:eq(1):sum())
    local C, cy = ds.make_circles{ n_samples = 40, factor = 0.5, seed = 6 }
    local radius = C:pow(2):sum(2):sqrt()
    assert.matrix_near(cy:eq(1) + cy:eq(2) * 0.5, radius, 1e-12)
    local K, ky = ds.make_classification{ n_samples = 60, n_features = 5, n_classes = 3,
      flip_y = 0, seed = 7 }
    assert.same({ 60, 5 }, { K:shape() })
    assert.equal(20, ky:eq(2):sum())
    assert.has_error(function() ds.make_classification{ n_classes = 5, n_informative = 2 } end,
      "luma.datasets.make_classification: 5 classes need more than 2 informative features")
    assert.has_error(function() ds.make_circles{ factor = 2 } end,
      "luma.datasets.make_circles: factor must be in (0, 1), got 2")
    assert.has_error(function() ds.make_blobs{ n_sample = 3 } end,
      "luma.datasets.make_blobs: unknown option 'n_sample' (valid: center_box, centers, cluster_std, n_features, n_samples, seed)")
    assert.has_error(function() ds.make_moons{ n_samples = 1 } end,
      "luma.datasets.make_moons: n_samples must be an integer >= 2, got 1")
  end)
end)

describe("generators' positional forms", function()
  it("take n_samples (and n_features) before or instead of the options", function()
    local X, y = luma.datasets.make_classification(200, 5, { seed = 3 })
    assert.same({ 200, 5, 200 }, { X:rows(), X:cols(), y:rows() })
    local A = luma.datasets.make_classification{ n_samples = 200, n_features = 5, seed = 3 }
    assert.matrix_near(A, X, 0)
    local M = luma.datasets.make_moons(30)
    assert.same({ 30, 2 }, { M:rows(), M:cols() })
    local B = luma.datasets.make_blobs(40, 3, { centers = 2, seed = 1 })
    assert.same({ 40, 3 }, { B:rows(), B:cols() })
  end)

  it("reject other arguments clearly", function()
    assert.has_error(function() luma.datasets.make_moons(30, 2) end,
      "bad argument #2 to 'make_moons' (options table expected, got number)")
    assert.has_error(function() luma.datasets.make_moons(30, {}, 1) end,
      "luma.datasets.make_moons: too many arguments (3; expected at most 2)")
    assert.has_error(function() luma.datasets.make_classification(200, { n_samples = 10 }) end,
      "luma.datasets.make_classification: n_samples given twice (positionally and as an option)")
    assert.has_error(function() luma.datasets.make_regression(true) end,
      "bad argument #1 to 'make_regression' (options table expected, got boolean)")
  end)
end)
