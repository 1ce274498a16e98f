-- Estimators on luma.Table: names recorded at fit, columns picked by name
-- at predict, categorical columns refused where numbers are needed and
-- encoded by the encoders, names through pipelines to the coefficients.
-- The data are exact: y = 100 + 20 x + {Lyon 0, Nice 50, Paris 200}[city]
-- + 3 z, so least squares recovers those numbers (to rounding).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local Table = luma.Table
local pp, pl = luma.preprocessing, luma.pipeline

local EFFECT = { Lyon = 0, Nice = 50, Paris = 200 }
local city = { "Paris", "Lyon", "Nice", "Paris", "Lyon", "Nice", "Lyon", "Paris" }
local x = { 1, 2, 3, 4, 5, 6, 7, 8 }
local z = { 0.5, -1, 2, 0, 1.5, -0.5, 3, 1 }
local yv = {}
for i = 1, #city do yv[i] = 100 + 20 * x[i] + EFFECT[city[i]] + 3 * z[i] end
local y = luma.matrix(yv)
local T = Table({ x = x, city = city, z = z }, { columns = { "x", "city", "z" } })

-- The pipeline of the issue: one-hot city (first category dropped, so the
-- coefficients are identifiable), numbers passed through, least squares.
local function city_model()
  local ct = pl.ColumnTransformer{ transformers = {
    { "city", pp.OneHotEncoder{ drop = "first" }, { "city" } },
    { "num", "passthrough", { dtype = "numeric" } } } }
  return pl.make_pipeline(ct, luma.linear.LinearRegression{})
end

describe("estimators fitted on a Table", function()
  it("record feature_names_in and pick columns by name at predict", function()
    local num = T:select{ "x", "z" }
    local m = luma.linear.LinearRegression{}:fit(num, y)
    assert.same({ "x", "z" }, m.feature_names_in)
    assert.equal(2, m.n_features_in)
    local p = m:predict(num)
    -- columns in another order, and an extra column, give the same rows
    assert.matrix_near(p, m:predict(T:select{ "z", "city", "x" }), 0)
    -- a matrix is taken by position
    assert.matrix_near(p, m:predict(num:to_matrix()), 0)
  end)

  it("name a missing column", function()
    local m = luma.linear.Ridge{}:fit(T:select{ "x", "z" }, y)
    errors_with("bad argument #1 to 'predict' %(X has no column 'z'; Ridge was fitted on x, z, "
      .. "and X has x, city%)", function()
      m:predict(T:select{ "x", "city" })
    end)
    -- the first of the fitted names that is missing, whatever else differs
    errors_with("X has no column 'x'; Ridge was fitted on x, z, and X has a, b", function()
      m:predict(Table({ a = x, b = z }, { columns = { "a", "b" } }))
    end)
  end)

  it("warn once per model when given a matrix after a Table, or the reverse", function()
    local num = T:select{ "x", "z" }
    local m = luma.linear.Ridge{}:fit(num, y)
    local p1, p2
    local warnings = support.capture_warnings(function()
      p1 = m:predict(num:to_matrix())
      p2 = m:predict(num:to_matrix())
      m:predict(num)  -- a Table: no warning
    end)
    assert.same({ "luma.linear.Ridge: predict got a matrix, without column names, but it was "
      .. "fitted on a luma.Table with columns x, z; the matrix's columns are taken in that "
      .. "order (warned once per model)" }, warnings)
    -- the columns are still taken by position
    assert.matrix_near(m:predict(num), p1, 0)
    assert.matrix_near(p1, p2, 0)
    -- a refit starts over, and the reverse mismatch has its own text
    local onmatrix = luma.linear.Ridge{}:fit(num:to_matrix(), y)
    warnings = support.capture_warnings(function()
      onmatrix:predict(num)
      onmatrix:score(num, y)
      m:fit(num, y):predict(num:to_matrix())
    end)
    assert.equal(2, #warnings)
    assert.equal("luma.linear.Ridge: predict got a luma.Table, but it was fitted on a matrix, "
      .. "without column names; the Table's columns (x, z) are taken by position (warned "
      .. "once per model)", warnings[1])
    assert.truthy(warnings[2]:find("predict got a matrix", 1, true))
  end)

  it("warn once for a pipeline, not again for each of its steps", function()
    local model = city_model():fit(T, y)
    local onehot = pl.make_pipeline(pp.StandardScaler{}, luma.linear.Ridge{}):fit(T:select{ "x", "z" }, y)
    local warnings = support.capture_warnings(function()
      onehot:predict(T:select{ "x", "z" }:to_matrix())
      onehot:predict(T:select{ "x", "z" }:to_matrix())
      model:predict(T)  -- the steps after the first get matrices by design: silent
    end)
    assert.equal(1, #warnings)
    assert.truthy(warnings[1]:find("^luma.pipeline.Pipeline: predict got a matrix"))
  end)

  it("refuse a categorical column where numbers are needed, suggesting OneHotEncoder", function()
    errors_with("bad argument #1 to 'fit' %(column 'city' is categorical but LinearRegression "
      .. "needs numbers; encode it first, e.g. with luma.preprocessing.OneHotEncoder", function()
      luma.linear.LinearRegression{}:fit(T, y)
    end)
    local s = pp.StandardScaler{}:fit(T:select{ "x" })
    errors_with("column 'city' is categorical but StandardScaler needs numbers", function()
      pp.StandardScaler{}:fit_transform(T:select{ "city" })
    end)
    assert.same({ "x" }, s:get_feature_names_out())
  end)

  it("name PolynomialFeatures' monomials after the Table's columns", function()
    local poly = pp.PolynomialFeatures{ degree = 2 }:fit(T:select{ "x", "z" })
    assert.same({ "1", "x", "z", "x^2", "x z", "z^2" }, poly:get_feature_names_out())
    -- row 3: x = 3, z = 2
    assert.matrix_near({ { 1, 3, 2, 9, 6, 4 } }, poly:transform(T:select{ "z", "x" }):row(3))
  end)

  it("work the same for any family (a nearest-neighbour classifier)", function()
    local labels = luma.matrix{ 1, 1, 1, 1, 2, 2, 2, 2 }
    local knn = luma.neighbors.KNeighborsClassifier{ n_neighbors = 1 }:fit(T:select{ "x", "z" }, labels)
    assert.same({ "x", "z" }, knn.feature_names_in)
    assert.matrix_near(labels, knn:predict(T:select{ "z", "x" }), 0)
    -- the text column renamed x: picked by name, then refused
    errors_with("column 'x' is categorical but KNeighborsClassifier needs numbers", function()
      knn:predict(T:select{ "z", "city", "x" }:rename{ city = "x", x = "city" })
    end)
  end)

  it("take y as a one-column Table", function()
    local m = luma.linear.LinearRegression{}:fit(T:select{ "x", "z" }, Table({ y = y }))
    assert.matrix_near(luma.linear.LinearRegression{}:fit(T:select{ "x", "z" }, y).coef, m.coef, 1e-12)
    errors_with("y as a luma.Table must have one column, got 2", function()
      luma.linear.LinearRegression{}:fit(T:select{ "x" }, T:select{ "x", "z" })
    end)
  end)
end)

describe("encoders on Table columns", function()
  it("code categorical columns by the categories learned at fit", function()
    local e = pp.OneHotEncoder{}:fit(T:select{ "city" })
    assert.same({ "city=Lyon", "city=Nice", "city=Paris" }, e:get_feature_names_out())
    -- a new table with other categories in its column: mapped by string
    local new = Table({ city = { "Nice", "Paris" } })
    assert.matrix_near({ { 0, 1, 0 }, { 0, 0, 1 } }, e:transform(new))
    local o = pp.OrdinalEncoder{}:fit(T:select{ "city", "x" })
    assert.same({ "Lyon", "Nice", "Paris" }, o.categories[1])
    assert.matrix_near({ { 3, 1 }, { 1, 2 } }, o:transform(T:head(2)))
  end)

  it("refuse input names other than the ones fit saw", function()
    local e = pp.OneHotEncoder{}:fit(T:select{ "city" })
    errors_with("input_features%[1%] is 'town' but OneHotEncoder was fitted on 'city'", function()
      e:get_feature_names_out{ "town" }
    end)
  end)

  it("give a Table back from inverse_transform, unknowns missing", function()
    local o = pp.OrdinalEncoder{ handle_unknown = "use_encoded_value", unknown_value = -1 }
      :fit(T:select{ "city" })
    local back = o:inverse_transform(luma.matrix{ 2, -1, 3 })
    assert.is_true(Table.is_table(back))
    assert.same({ "Nice", nil, "Paris" }, back:column("city"):totable())
  end)

  it("refuse an unseen missing category with its row, unless told to ignore it", function()
    local e = pp.OneHotEncoder{}:fit(Table({ city = { "Paris", "Lyon" } }))
    errors_with("OneHotEncoder: a missing value in column 'city' %(row 2%), which fit never saw",
      function() e:transform(Table({ city = { "Paris", false, "Lyon" } })) end)
    errors_with("column 'x' has an infinite value in row 1", function()
      pp.OneHotEncoder{}:fit(Table({ x = { math.huge, 1 } }))
    end)
  end)
end)

describe("names through a pipeline on a Table", function()
  it("recovers the coefficients and prints them by name", function()
    local model = city_model():fit(T, y)
    local lr = model.named_steps.linearregression
    assert.same({ "city=Nice", "city=Paris", "x", "z" }, lr.feature_names_in)
    assert.same({ "city=Nice", "city=Paris", "x", "z" }, model:get_feature_names_out())
    assert.matrix_near({ { 50 }, { 200 }, { 20 }, { 3 } }, lr.coef, 1e-9)
    assert.near(100, lr.intercept, 1e-9)
    local coefs = lr:coef_table()
    assert.same({ "city=Nice", "city=Paris", "x", "z", "(intercept)" }, coefs:column("feature"):totable())
    assert.matrix_near({ { 50 }, { 200 }, { 20 }, { 3 }, { 100 } }, coefs:column("coef"), 1e-9)
    assert.truthy(tostring(coefs):find("city=Paris", 1, true))
  end)

  it("predicts the same rows from a reordered, reloaded copy", function()
    local model = city_model():fit(T, y)
    local path = os.tmpname()
    luma.save(model, path)
    local back = luma.load(path)
    os.remove(path)
    local order = { 8, 3, 5, 1, 7, 2, 6, 4 }
    local shuffled = T:take(order):select{ "z", "city", "x" }
    local p = back:predict(shuffled)
    for r, i in ipairs(order) do assert.near(yv[i], p:get(r, 1), 1e-9) end
  end)

  it("selects columns by name, by a list of names and by dtype, with a remainder", function()
    local ct = pl.ColumnTransformer{ transformers = {
      { "cat", pp.OrdinalEncoder{}, "city" },
      { "scaled", pp.MinMaxScaler{}, { "z" } } }, remainder = "passthrough" }
    local Z = ct:fit_transform(T)
    assert.same({ "city", "z", "x" }, ct:get_feature_names_out())
    -- z spans [-1, 3]: 0.5 maps to 1.5 / 4
    assert.matrix_near({ { 3, 0.375, 1 }, { 1, 0, 2 } }, Z:sub(1, 2, 1, 3), 1e-15)
    local by_dtype = pl.ColumnTransformer{ transformers = {
      { "cat", pp.OneHotEncoder{}, { dtype = "category" } } } }:fit(T)
    assert.same({ "city=Lyon", "city=Nice", "city=Paris" }, by_dtype:get_feature_names_out())
    errors_with("ColumnTransformer: columns of 'cat': X has no column 'town' %(it has x, city, z%)",
      function()
        pl.ColumnTransformer{ transformers = { { "cat", pp.OneHotEncoder{}, { "town" } } } }:fit(T)
      end)
    errors_with("column 'city' is categorical and cannot pass through", function()
      pl.ColumnTransformer{ transformers = { { "n", pp.StandardScaler{}, { "x" } } },
        remainder = "passthrough" }:fit_transform(T)
    end)
  end)
end)
