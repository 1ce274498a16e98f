-- OrdinalEncoder and OneHotEncoder on text categories: categories learned
-- at fit (sorted), mapped through on new data whatever its order, saved
-- with the model, and unseen or rare values handled as scikit-learn 1.2.
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn) on the
-- same data, e.g. for the infrequent categories
--   X = np.array([["Paris"]*5 + ["Lyon"]*3 + ["Nice"]*2 + ["Brest"] + ["Caen"]*2]).T
--   e = OneHotEncoder(min_frequency=3, handle_unknown="infrequent_if_exist",
--                     sparse_output=False).fit(X)
--   e.infrequent_categories_, e.get_feature_names_out(["city"]),
--   e.transform([["Paris"], ["Nice"], ["Oslo"], ["Lyon"]])
-- Luma's codes are scikit-learn's plus one, and its names read
-- "city=Paris" / "city=infrequent" where scikit-learn writes city_Paris /
-- city_infrequent_sklearn.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local pp = luma.preprocessing

-- 5 Paris, 3 Lyon, 2 Nice, 1 Brest, 2 Caen (13 rows, one column).
local cities = {}
for _, c in ipairs{ { "Paris", 5 }, { "Lyon", 3 }, { "Nice", 2 }, { "Brest", 1 }, { "Caen", 2 } } do
  for _ = 1, c[2] do cities[#cities + 1] = c[1] end
end

local function names(e, input) return table.concat(e:get_feature_names_out(input), ",") end

describe("encoders on text categories", function()
  it("OrdinalEncoder learns sorted categories from rows of strings", function()
    local e = pp.OrdinalEncoder{}:fit{ { "b", "x" }, { "a", "y" }, { "c", "x" } }
    assert.same({ { "a", "b", "c" }, { "x", "y" } }, e.categories)
    assert.matrix_near({ { 3, 2 }, { 1, 1 } }, e:transform{ { "c", "y" }, { "a", "x" } })
    assert.equal(2, e.n_features_in)
    -- scikit-learn: [[2, 1], [-1, 0]] with unknown_value = -1 (codes 0-based)
    e:set_params{ handle_unknown = "use_encoded_value", unknown_value = -1 }:fit{ { "b", "x" },
      { "a", "y" }, { "c", "x" } }
    assert.matrix_near({ { 3, 2 }, { -1, 1 } }, e:transform{ { "c", "y" }, { "d", "x" } })
    assert.same({ "x1", "x2" }, e:get_feature_names_out())
  end)

  it("OneHotEncoder codes the same categories whatever the order of the rows", function()
    local e = pp.OneHotEncoder{}:fit(cities)
    assert.same({ "Brest", "Caen", "Lyon", "Nice", "Paris" }, e.categories[1])
    assert.equal("x1=Brest,x1=Caen,x1=Lyon,x1=Nice,x1=Paris", names(e))
    local Z = e:transform{ "Nice", "Brest", "Paris" }
    assert.matrix_near({ { 0, 0, 0, 1, 0 }, { 1, 0, 0, 0, 0 }, { 0, 0, 0, 0, 1 } }, Z)
    -- fitted on the rows reversed: the same categories, the same codes
    local reversed = {}
    for i = #cities, 1, -1 do reversed[#reversed + 1] = cities[i] end
    assert.matrix_near(Z, pp.OneHotEncoder{}:fit(reversed):transform{ "Nice", "Brest", "Paris" })
  end)

  it("groups rare categories by min_frequency as scikit-learn 1.2", function()
    local e = pp.OneHotEncoder{ min_frequency = 3, handle_unknown = "infrequent_if_exist" }:fit(cities)
    assert.same({ "Brest", "Caen", "Nice" }, e.infrequent_categories[1])
    assert.equal("city=Lyon,city=Paris,city=infrequent", names(e, { "city" }))
    -- an unseen value (Oslo) joins the infrequent column
    assert.matrix_near({ { 0, 1, 0 }, { 0, 0, 1 }, { 0, 0, 1 }, { 1, 0, 0 } },
      e:transform{ "Paris", "Nice", "Oslo", "Lyon" })
    -- a fraction of the rows: 0.2 * 13 = 2.6, with max_categories = 2
    local f = pp.OneHotEncoder{ min_frequency = 0.2, max_categories = 2 }:fit(cities)
    assert.same({ "Brest", "Caen", "Lyon", "Nice" }, f.infrequent_categories[1])
    -- every category rare: one column of ones
    local all = pp.OneHotEncoder{ min_frequency = 10 }:fit(cities)
    assert.equal("x1=infrequent", names(all))
    assert.matrix_near({ { 1 } }, all:transform{ "Paris" })
  end)

  it("limits the columns by max_categories, ties broken in sorted order", function()
    -- counts Brest 1, Caen 2, Lyon 3, Nice 2, Paris 5; scikit-learn counts
    -- the infrequent column even before there is one
    local e4 = pp.OneHotEncoder{ max_categories = 4 }:fit(cities)
    assert.same({ "Brest", "Caen" }, e4.infrequent_categories[1])
    assert.equal("x1=Lyon,x1=Nice,x1=Paris,x1=infrequent", names(e4))
    local e5 = pp.OneHotEncoder{ max_categories = 5 }:fit(cities)
    assert.same({ "Brest" }, e5.infrequent_categories[1])
    local both = pp.OneHotEncoder{ min_frequency = 2, max_categories = 3 }:fit(cities)
    assert.same({ "Brest", "Caen", "Nice" }, both.infrequent_categories[1])
  end)

  it("drops the first output column with infrequent groups as scikit-learn 1.2.1", function()
    local e = pp.OneHotEncoder{ min_frequency = 3, drop = "first",
      handle_unknown = "infrequent_if_exist" }:fit(cities)
    assert.equal("x1=Paris,x1=infrequent", names(e))
    assert.matrix_near({ { 1, 0 }, { 0, 1 }, { 0, 1 }, { 0, 0 }, { 0, 1 } },
      e:transform{ "Paris", "Nice", "Oslo", "Lyon", "Brest" })
    -- three output columns: if_binary drops none
    assert.equal(3, pp.OneHotEncoder{ min_frequency = 3, drop = "if_binary" }:fit(cities).n_features_out)
  end)

  it("ignores unknown values on request, else names them with the row", function()
    local ig = pp.OneHotEncoder{ min_frequency = 3, handle_unknown = "ignore" }:fit(cities)
    assert.matrix_near({ { 0, 0, 0 }, { 0, 0, 1 } }, ig:transform{ "Oslo", "Caen" })
    local e = pp.OneHotEncoder{}:fit(cities)
    errors_with('unknown value "Oslo" in column 1 %(row 2%)', function() e:transform{ "Paris", "Oslo" } end)
    local o = pp.OrdinalEncoder{}:fit(cities)
    errors_with('OrdinalEncoder: unknown value "Rome" in column 1 %(row 1%)', function() o:transform{ "Rome" } end)
  end)

  it("takes declared categories in their order (scikit-learn's categories)", function()
    -- scikit-learn: OneHotEncoder(categories=[["Paris", "Oslo", "Lyon"]]) fitted on
    -- Paris, Lyon, Paris names city_Paris, city_Oslo, city_Lyon and codes Lyon as
    -- [0, 0, 1], Oslo (never seen at fit) as [0, 1, 0]
    local e = pp.OneHotEncoder{ categories = { { "Paris", "Oslo", "Lyon" } } }:fit{ "Paris", "Lyon", "Paris" }
    assert.equal("city=Paris,city=Oslo,city=Lyon", names(e, { "city" }))
    assert.matrix_near({ { 0, 0, 1 }, { 0, 1, 0 } }, e:transform{ "Lyon", "Oslo" })
    local o = pp.OrdinalEncoder{ categories = { { 30, 10, 20 } } }:fit(luma.matrix{ 10, 20 })
    assert.matrix_near({ { 1 }, { 3 } }, o:transform(luma.matrix{ 30, 20 }))
    errors_with('value "Lyon" in column 1 %(row 2%) is not among the given categories', function()
      pp.OneHotEncoder{ categories = { { "Paris" } } }:fit{ "Paris", "Lyon" }
    end)
    errors_with("categories%[1%]%[2%] must be a distinct string, as column 1 holds", function()
      pp.OrdinalEncoder{ categories = { { "a", 2 } } }:fit{ "a" }
    end)
    errors_with("categories must be a list of 2 non%-empty lists", function()
      pp.OrdinalEncoder{ categories = { { "a" } } }:fit{ { "a", "b" } }
    end)
  end)

  it("saves the categories with the model", function()
    local e = pp.OneHotEncoder{ min_frequency = 3, handle_unknown = "infrequent_if_exist" }:fit(cities)
    local o = pp.OrdinalEncoder{}:fit(cities)
    local path = os.tmpname()
    luma.save({ onehot = e, ordinal = o }, path)
    local back = luma.load(path)
    os.remove(path)
    local new = { "Lyon", "Oslo", "Paris", "Brest" }
    assert.matrix_near(e:transform(new), back.onehot:transform(new), 0)
    assert.same(e.categories, back.onehot.categories)
    assert.equal("x1=Lyon,x1=Paris,x1=infrequent", names(back.onehot))
    assert.matrix_near({ { 3 }, { 5 }, { 1 } }, back.ordinal:transform{ "Lyon", "Paris", "Brest" }, 0)
  end)
end)

describe("encoders' bad input", function()
  it("refuses a column that mixes strings and numbers", function()
    errors_with("column 1 mixes strings and numbers %(row 2%)", function() pp.OneHotEncoder{}:fit{ "a", 1 } end)
  end)

  it("refuses numbers where it was fitted on strings", function()
    local e = pp.OrdinalEncoder{}:fit{ "a", "b" }
    errors_with("column 1 holds numbers but OrdinalEncoder was fitted on strings", function()
      e:transform(luma.matrix{ 1, 2 })
    end)
  end)

  it("refuses ragged rows, empty lists and other values", function()
    errors_with("row 2 of the list is not like row 1 %(a list of 2 values%)", function()
      pp.OneHotEncoder{}:fit{ { "a", "b" }, { "c" } }
    end)
    errors_with("X must be a luma.Matrix, a luma.Table or a non%-empty list", function()
      pp.OneHotEncoder{}:fit{}
    end)
    errors_with("column 1, row 1: \"true\" is not a string, a finite number or false %(missing%)", function()
      pp.OrdinalEncoder{}:fit{ true }
    end)
  end)

  it("checks the width of new rows", function()
    local e = pp.OneHotEncoder{}:fit{ { "a", "b" } }
    errors_with("X has 1 columns but luma.preprocessing.OneHotEncoder was fitted on 2", function()
      e:transform{ "a" }
    end)
  end)

  it("inverse_transform takes a matrix", function()
    for _, E in ipairs{ pp.OneHotEncoder, pp.OrdinalEncoder } do
      local e = E{}:fit{ { "a", "b" } }
      errors_with("bad argument #1 to 'inverse_transform' %(luma.Matrix expected, got nil%)",
        function() e:inverse_transform() end)
    end
  end)

  it("refuses a fractional min_frequency above 1", function()
    errors_with("min_frequency must be a count %(an integer >= 1%) or a fraction in %(0, 1%), got 1.5",
      function() pp.OneHotEncoder{ min_frequency = 1.5 }:fit(cities) end)
    errors_with("max_categories", function() pp.OneHotEncoder{ max_categories = 1 } end)
  end)
end)
