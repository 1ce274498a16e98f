-- luma.preprocessing.  Reference values come from scikit-learn 1.2.1
-- (Debian's python3-sklearn) on the same data, printed at full precision:
--   import numpy as np; from sklearn import preprocessing as P
--   X = np.array([[1,-2,3],[4,5,-6],[7,8,9],[-1,0,2],[2,2,2],[10,-3,0.5]])
--   P.StandardScaler().fit_transform(X), P.MinMaxScaler((-1, 2)) ...,
--   P.RobustScaler(quantile_range=(10, 90)), P.Normalizer(norm=...), ...
-- Luma's ordinal codes are scikit-learn's plus one (1-based) and its
-- polynomial feature names count from x1.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with
local pp = luma.preprocessing

local X = luma.matrix{ { 1, -2, 3 }, { 4, 5, -6 }, { 7, 8, 9 }, { -1, 0, 2 }, { 2, 2, 2 }, { 10, -3, 0.5 } }

describe("luma.preprocessing scalers", function()
  it("StandardScaler matches scikit-learn (population std) and inverts", function()
    local s = pp.StandardScaler{}
    local Z = s:fit_transform(X)
    assert.matrix_near({
      { -0.7625542168276362, -0.9502552681394962, 0.2844400619942871 },
      { 0.04485613040162562, 0.86386842558136, -1.7635283843645801 },
      { 0.8522664776308875, 1.6413500086045842, 1.6497523595668653 },
      { -1.3008277816471443, -0.4319342127906801, 0.05688801239885743 },
      { -0.4934174344178823, 0.086386842558136, 0.05688801239885743 },
      { 1.6596768248601492, -1.2094157958139042, -0.2844400619942871 },
    }, Z, 1e-14)
    assert.matrix_near({ { 23 / 6, 10 / 6, 10.5 / 6 } }, s.mean, 1e-15)
    assert.matrix_near(X, s:inverse_transform(Z), 1e-14)
    -- with_mean = false only divides; with_std = false only centres
    local d = pp.StandardScaler{ with_mean = false }:fit_transform(X)
    assert.matrix_near(X:div(X:var(1):sqrt()), d, 1e-15)
    local c = pp.StandardScaler{ with_std = false }:fit_transform(X)
    assert.matrix_near(X - X:mean(1), c, 1e-15)
  end)

  it("leaves constant columns unscaled instead of dividing by zero", function()
    local C = luma.matrix{ { 5, 1 }, { 5, 2 }, { 5, 3 } }
    local s = pp.StandardScaler{}:fit(C)
    assert.matrix_near({ { 1, math.sqrt(2 / 3) } }, s.scale, 1e-15)
    assert.matrix_near({ { 0 }, { 0 }, { 0 } }, s:transform(C):col(1))
    assert.matrix_near({ { 0 }, { 0 }, { 0 } }, pp.MinMaxScaler{}:fit_transform(C):col(1))
  end)

  it("MinMaxScaler maps onto feature_range, clips on request, inverts", function()
    local s = pp.MinMaxScaler{ feature_range = { -1, 2 } }
    local Z = s:fit_transform(X)
    assert.matrix_near({
      { -0.4545454545454546, -0.7272727272727273, 0.8000000000000003 },
      { 0.36363636363636354, 1.1818181818181817, -1 },
      { 1.1818181818181817, 1.9999999999999998, 2 },
      { -1, -0.18181818181818188, 0.6000000000000002 },
      { -0.18181818181818188, 0.36363636363636354, 0.6000000000000002 },
      { 1.9999999999999998, -1, 0.30000000000000016 },
    }, Z, 1e-14)
    assert.matrix_near(X, s:inverse_transform(Z), 1e-14)
    -- the first column spans [-1, 10]: 21 maps to -1 + 3 * (21 + 1) / 11 = 5
    local far = luma.matrix{ { 21, 0, 0 } }
    assert.near(5, s:transform(far):get(1, 1), 1e-14)
    s:set_params{ clip = true }
    assert.equal(2, s:transform(far):get(1, 1))
  end)

  it("MaxAbsScaler divides by the largest magnitude", function()
    local s = pp.MaxAbsScaler{}
    local Z = s:fit_transform(X)
    assert.matrix_near({
      { 0.1, -0.25, 0.3333333333333333 },
      { 0.4, 0.625, -0.6666666666666666 },
      { 0.7, 1, 1 },
      { -0.1, 0, 0.2222222222222222 },
      { 0.2, 0.25, 0.2222222222222222 },
      { 1, -0.375, 0.05555555555555555 },
    }, Z, 1e-15)
    assert.matrix_near(X, s:inverse_transform(Z), 1e-15)
  end)

  it("RobustScaler centres on the median and divides by the quantile range", function()
    local s = pp.RobustScaler{ quantile_range = { 10, 90 } }
    local Z = s:fit_transform(X)
    assert.matrix_near({
      { -0.23529411764705882, -0.3333333333333333, 0.11428571428571428 },
      { 0.11764705882352941, 0.4444444444444444, -0.9142857142857143 },
      { 0.47058823529411764, 0.7777777777777778, 0.8 },
      { -0.47058823529411764, -0.1111111111111111, 0 },
      { -0.11764705882352941, 0.1111111111111111, 0 },
      { 0.8235294117647058, -0.4444444444444444, -0.17142857142857143 },
    }, Z, 1e-14)
    assert.matrix_near({ { 3, 1, 2 } }, s.center)
    assert.matrix_near(X, s:inverse_transform(Z), 1e-14)
  end)
end)

describe("luma.preprocessing row-wise transforms", function()
  it("Normalizer scales rows to unit l1, l2 and max norm; zero rows stay zero", function()
    local l1 = pp.Normalizer{ norm = "l1" }:fit_transform(X)
    assert.matrix_near({ { 0.7407407407407407, -0.2222222222222222, 0.03703703703703703 } }, l1:row(6), 1e-15)
    local l2 = pp.Normalizer{}:fit_transform(X)
    assert.matrix_near({ { 0.4558423058385518, 0.5698028822981898, -0.6837634587578276 } }, l2:row(2), 1e-15)
    assert.matrix_near(luma.ones(6, 1), l2:pow(2):sum(2), 1e-15)
    local mx = pp.Normalizer{ norm = "max" }:fit_transform(X)
    assert.matrix_near({ { 1, -0.3, 0.05 } }, mx:row(6), 1e-15)
    assert.matrix_near({ { 0, 0 } }, pp.Normalizer{}:fit_transform(luma.zeros(1, 2)))
  end)

  it("Binarizer thresholds strictly", function()
    local B = pp.Binarizer{ threshold = 1.5 }:fit_transform(X)
    assert.matrix_near({ { 0, 0, 1 }, { 1, 1, 0 }, { 1, 1, 1 }, { 0, 0, 1 }, { 1, 1, 1 }, { 1, 0, 0 } }, B)
    assert.equal(0, pp.Binarizer{ threshold = 2 }:fit_transform(luma.matrix{ { 2 } }):get(1, 1))
  end)
end)

describe("luma.preprocessing.SimpleImputer", function()
  local nan = 0 / 0
  local M = luma.matrix{ { 1, nan, 3 }, { nan, 4, 3 }, { 7, 4, nan }, { 1, 8, 5 } }

  it("fills gaps with scikit-learn's mean, median and most frequent statistics", function()
    assert.matrix_near({ { 3, 16 / 3, 11 / 3 } }, pp.SimpleImputer{}:fit(M).statistics, 1e-15)
    assert.matrix_near({ { 1, 4, 3 } }, pp.SimpleImputer{ strategy = "median" }:fit(M).statistics)
    assert.matrix_near({ { 1, 4, 3 } }, pp.SimpleImputer{ strategy = "most_frequent" }:fit(M).statistics)
    local filled = pp.SimpleImputer{ strategy = "constant", fill_value = -9 }:fit_transform(M)
    assert.matrix_near({ { 1, -9, 3 }, { -9, 4, 3 }, { 7, 4, -9 }, { 1, 8, 5 } }, filled)
  end)

  it("treats another marker as missing", function()
    local Z = pp.SimpleImputer{ missing_values = -1 }:fit_transform(luma.matrix{ { -1 }, { 2 }, { 4 } })
    assert.matrix_near({ { 3 }, { 2 }, { 4 } }, Z)
  end)

  it("refuses a column without any observed value", function()
    errors_with("column 2 has no observed value", function()
      pp.SimpleImputer{}:fit(luma.matrix{ { 1, nan }, { 2, nan } })
    end)
  end)
end)

describe("luma.preprocessing encoders", function()
  local C = luma.matrix{ { 3, 10 }, { 1, 20 }, { 3, 10 }, { 2, 30 } }

  it("OrdinalEncoder codes sorted categories from 1 and inverts", function()
    local e = pp.OrdinalEncoder{}
    local Z = e:fit_transform(C)
    assert.matrix_near({ { 3, 1 }, { 1, 2 }, { 3, 1 }, { 2, 3 } }, Z) -- scikit-learn's codes + 1
    assert.same({ { 1, 2, 3 }, { 10, 20, 30 } }, e.categories)
    assert.matrix_near(C, e:inverse_transform(Z))
    errors_with("unknown value 4 in column 1", function() e:transform(luma.matrix{ { 4, 10 } }) end)
    e:set_params{ handle_unknown = "use_encoded_value", unknown_value = -1 }
    e:fit(C)
    local U = e:transform(luma.matrix{ { 4, 20 } })
    assert.matrix_near({ { -1, 2 } }, U)
    local back = e:inverse_transform(U)
    assert.is_true(back:get(1, 1) ~= back:get(1, 1))
    assert.equal(20, back:get(1, 2))
  end)

  it("OneHotEncoder matches scikit-learn with drop = first and if_binary", function()
    local e = pp.OneHotEncoder{ drop = "first" }
    local Z = e:fit_transform(C)
    assert.matrix_near({ { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 1, 0, 0 }, { 1, 0, 0, 1 } }, Z)
    assert.equal(4, e.n_features_out)
    assert.matrix_near(C, e:inverse_transform(Z))
    local B = luma.matrix{ { 1, 5 }, { 2, 6 }, { 1, 7 } }
    local Zb = pp.OneHotEncoder{ drop = "if_binary" }:fit_transform(B)
    assert.matrix_near({ { 0, 1, 0, 0 }, { 1, 0, 1, 0 }, { 0, 0, 0, 1 } }, Zb)
  end)

  it("OneHotEncoder ignores unknown values on request, else names them", function()
    local e = pp.OneHotEncoder{}:fit(C)
    errors_with("unknown value 40 in column 2", function() e:transform(luma.matrix{ { 1, 40 } }) end)
    local ig = pp.OneHotEncoder{ handle_unknown = "ignore" }:fit(C)
    assert.matrix_near({ { 1, 0, 0, 0, 0, 0 } }, ig:transform(luma.matrix{ { 1, 40 } }))
    errors_with("X has 2 columns but luma.preprocessing.OneHotEncoder was fitted on 6",
      function() ig:inverse_transform(luma.zeros(1, 2)) end)
  end)

  it("LabelEncoder keeps the labels and inverts", function()
    local e = pp.LabelEncoder{}
    local codes = e:fit_transform(luma.matrix{ 30, 10, 20, 10 })
    assert.matrix_near({ { 3 }, { 1 }, { 2 }, { 1 } }, codes)
    assert.matrix_near({ { 10 }, { 20 }, { 30 } }, e.classes)
    assert.matrix_near({ { 20 }, { 30 } }, e:inverse_transform(luma.matrix{ 2, 3 }))
    errors_with("unknown label 15", function() e:transform(luma.matrix{ 15 }) end)
  end)
end)

-- Missing categories (issue 29, item 5), against scikit-learn 1.2.1 on
-- X = np.array([["Paris"], [np.nan], ["Lyon"], ["Paris"]], dtype=object):
--   OneHotEncoder().fit(X): categories_ [Lyon, Paris, nan], names city_Lyon,
--     city_Paris, city_nan, rows [0 1 0] [0 0 1] [1 0 0] [0 1 0];
--   OneHotEncoder(handle_unknown="ignore") fitted on Paris, Lyon: [Paris, nan,
--     Nice] -> [0 1] [0 0] [0 0]; without it: "Found unknown categories [nan]";
--   OrdinalEncoder().fit(X).transform(X) = [1 nan 0 1] (encoded_missing_value
--     = -1: [1 -1 0 1]);
--   SimpleImputer(strategy="most_frequent") on [b, a, nan]: a (the smallest of
--     the tied); strategy="constant": "missing_value";
--   OneHotEncoder on the numbers [1, nan, 2]: [1 0 0] [0 0 1] [0 1 0].
describe("luma.preprocessing missing values", function()
  local Table = luma.Table
  local T = Table{ city = { "Paris", false, "Lyon", "Paris" } }

  it("OneHotEncoder makes a missing value seen at fit a category of its own", function()
    local e = pp.OneHotEncoder{}:fit(T)
    assert.same({ { "Lyon", "Paris", false } }, e.categories)
    assert.same({ "city=Lyon", "city=Paris", "city=<NA>" }, e:get_feature_names_out())
    local Z = e:transform(T)
    assert.matrix_near({ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } }, Z, 0)
    assert.same({ "Paris", nil, "Lyon", "Paris" }, e:inverse_transform(Z):column("city"):totable())
    -- the missing category is saved with the others
    local path = os.tmpname()
    luma.save(e, path)
    local back = luma.load(path)
    os.remove(path)
    assert.same(e.categories, back.categories)
    assert.matrix_near(Z, back:transform(T), 0)
    -- numbers: NaN is the missing value
    assert.matrix_near({ { 1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
      pp.OneHotEncoder{}:fit_transform(luma.matrix{ 1, 0 / 0, 2 }), 0)
  end)

  it("OneHotEncoder treats a missing value fit never saw as unknown", function()
    local seen = Table{ city = { "Paris", "Lyon" } }
    local new = Table{ city = { "Paris", false, "Nice" } }
    local ig = pp.OneHotEncoder{ handle_unknown = "ignore" }:fit(seen)
    assert.matrix_near({ { 0, 1 }, { 0, 0 }, { 0, 0 } }, ig:transform(new), 0)
    errors_with("OneHotEncoder: a missing value in column 'city' %(row 2%), which fit never saw; "
      .. "use handle_unknown = \"ignore\"", function() pp.OneHotEncoder{}:fit(seen):transform(new) end)
    -- declared categories must declare it (false) to take it at fit
    errors_with("a missing value in column 'city' %(row 2%) is not among the given categories",
      function() pp.OneHotEncoder{ categories = { { "Lyon", "Paris" } } }:fit(T) end)
    assert.equal(3, pp.OneHotEncoder{ categories = { { "Lyon", "Paris", false } } }:fit(T)
      .n_features_out)
  end)

  it("OrdinalEncoder gives a missing value encoded_missing_value", function()
    local e = pp.OrdinalEncoder{}:fit(T)
    assert.same({ { "Lyon", "Paris" } }, e.categories)
    local Z = e:transform(T)
    assert.equal(2, Z:get(1, 1))
    assert.is_true(Z:get(2, 1) ~= Z:get(2, 1))
    assert.matrix_near({ { 2 }, { -1 }, { 1 }, { 2 } },
      pp.OrdinalEncoder{ encoded_missing_value = -1 }:fit_transform(T), 0)
    assert.same({ "Paris", nil, "Lyon", "Paris" }, e:inverse_transform(Z):column("city"):totable())
  end)

  it("SimpleImputer fills categorical columns, returning a Table", function()
    local C = Table({ c = { "b", "a", false }, x = { 1, 0 / 0, 3 } }, { columns = { "c", "x" } })
    local mf = pp.SimpleImputer{ strategy = "most_frequent" }:fit(C)
    assert.same({ "a", 1 }, mf.statistics)
    local out = mf:transform(C)
    assert.is_true(Table.is_table(out))
    assert.same({ "c", "x" }, out:names())
    assert.same({ "b", "a", "a" }, out:column("c"):totable())
    assert.matrix_near({ { 1 }, { 1 }, { 3 } }, out:column("x"), 0)
    local const = pp.SimpleImputer{ strategy = "constant" }:fit(C:select{ "c" })
    assert.same({ "missing_value" }, const.statistics)
    assert.same({ "b", "a", "missing" }, pp.SimpleImputer{ strategy = "constant",
      fill_value = "missing" }:fit_transform(C:select{ "c" }):column("c"):totable())
    -- a Table of numbers only gives a matrix, as before
    assert.matrix_near({ { 1 }, { 2 }, { 3 } },
      pp.SimpleImputer{}:fit_transform(C:select{ "x" }), 0)
    errors_with("strategy = \"mean\" needs numbers but column 'c' is categorical; use strategy = "
      .. "\"most_frequent\" or \"constant\"", function() pp.SimpleImputer{}:fit(C) end)
    errors_with("fill_value = \"missing\" is a string but column 'x' is numeric", function()
      pp.SimpleImputer{ strategy = "constant", fill_value = "missing" }:fit(C)
    end)
    errors_with("fill_value = 0 is a number but column 'c' is categorical", function()
      pp.SimpleImputer{ strategy = "constant", fill_value = 0 }:fit(C:select{ "c" })
    end)
    errors_with("was fitted on a luma.Table with categorical columns; give it a Table", function()
      mf:transform(luma.matrix{ { 1, 2 } })
    end)
  end)
end)

describe("luma.preprocessing expansions", function()
  it("PolynomialFeatures has scikit-learn's columns and names (1-based)", function()
    local p = pp.PolynomialFeatures{ degree = 3 }
    local Z = p:fit_transform(X:sub(1, 2, 1, 2))
    assert.matrix_near({ { 1, 1, -2, 1, -2, 4, 1, -2, 4, -8 },
                         { 1, 4, 5, 16, 20, 25, 64, 80, 100, 125 } }, Z)
    assert.same({ "1", "x1", "x2", "x1^2", "x1 x2", "x2^2", "x1^3", "x1^2 x2", "x1 x2^2", "x2^3" },
      p:get_feature_names_out())
    local q = pp.PolynomialFeatures{ degree = 3, interaction_only = true, include_bias = false }
    assert.matrix_near({ { 1, -2, 3, -2, 3, -6, -6 } }, q:fit_transform(X:sub(1, 1, 1, 3)))
    assert.same({ "a", "b", "c", "a b", "a c", "b c", "a b c" }, q:get_feature_names_out{ "a", "b", "c" })
    -- C(d + k, k) columns in all: 3 features of degree <= 4 give C(7, 4) = 35
    assert.equal(35, pp.PolynomialFeatures{ degree = 4 }:fit(X).n_features_out)
  end)

  it("PolynomialFeatures refuses empty and gigantic expansions", function()
    errors_with("degree 0 without the bias column gives no features", function()
      pp.PolynomialFeatures{ degree = 0, include_bias = false }:fit(X)
    end)
    errors_with("would give 8.46e%+12 columns", function()
      pp.PolynomialFeatures{ degree = 5 }:fit(luma.zeros(2, 1000))
    end)
  end)

  it("RBFFeatures computes exp(-|x - c|^2 / lambda) (notes 000 §6.4)", function()
    local centers = luma.matrix{ { 0, 0, 0 }, { 1, -2, 3 } }
    local Z = pp.RBFFeatures{ centers = centers, lambda = 4 }:fit_transform(X)
    -- row 2 = (4, 5, -6): |x - c1|^2 = 77, |x - c2|^2 = 9 + 49 + 81 = 139
    assert.matrix_near({ { math.exp(-77 / 4), math.exp(-139 / 4) } }, Z:row(2), 1e-14)
    assert.equal(1, Z:get(1, 2))
    -- random centres are distinct training rows, the same for the same seed
    local a = pp.RBFFeatures{ centers = 3, seed = 7 }:fit(X)
    local b = pp.RBFFeatures{ centers = 3, seed = 7 }:fit(X)
    assert.matrix_near(a.centers, b.centers)
    local D = luma.pairwise.distances(a.centers, X)
    for k = 1, 3 do assert.equal(0, D:row(k):min()) end
    errors_with("centers must be in 1..6", function() pp.RBFFeatures{ centers = 7 }:fit(X) end)
    errors_with("centers have 2 columns but X has 3", function()
      pp.RBFFeatures{ centers = luma.zeros(1, 2) }:fit(X)
    end)
  end)

  it("ArctanFeatures and HeavisideFeatures project then apply (notes 000 §6.4, §7.3)", function()
    local W = luma.matrix{ { 1, 0 }, { 0, 2 }, { 1, 0 } }
    local alpha = luma.matrix{ 0.5, -1 }
    local A = pp.ArctanFeatures{ weights = W, offsets = alpha }:fit_transform(X)
    -- row 1 = (1, -2, 3): x.a1 = 4, x.a2 = -4
    assert.matrix_near({ { math.atan(4 - 0.5), math.atan(-4 + 1) } }, A:row(1), 1e-15)
    local H = pp.HeavisideFeatures{ weights = W, offsets = alpha }:fit_transform(X)
    assert.matrix_near({ { 1, 0 }, { 0, 1 }, { 1, 1 } }, H:sub(1, 3, 1, 2))
    errors_with("weights must have 3 rows", function()
      pp.ArctanFeatures{ weights = luma.zeros(2, 2) }:fit(X)
    end)
    errors_with("2 offsets for 1 basis functions", function()
      pp.HeavisideFeatures{ weights = luma.ones(3, 1), offsets = luma.matrix{ 1, 2 } }:fit(X)
    end)
    errors_with("weights is required", function() pp.ArctanFeatures{}:fit(X) end)
  end)

  it("FunctionTransformer applies a function and its inverse", function()
    local f = pp.FunctionTransformer{ func = function(M) return M:exp() end,
                                      inverse_func = function(M) return M:log() end }
    local Z = f:fit_transform(X)
    assert.near(math.exp(-6), Z:get(2, 3), 1e-18)
    assert.matrix_near(X, f:inverse_transform(Z), 1e-14)
    errors_with("func must return a matrix", function()
      pp.FunctionTransformer{ func = function() return 1 end }:fit_transform(X)
    end)
  end)
end)

describe("luma.preprocessing bad input", function()
  it("refuses NaN and Inf where they would poison the statistics", function()
    local bad = luma.matrix{ { 1, 0 / 0 }, { 2, 3 } }
    for _, name in ipairs{ "StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler",
                           "Normalizer", "Binarizer", "PolynomialFeatures", "OrdinalEncoder",
                           "OneHotEncoder" } do
      -- (the encoders take a NaN as a missing value: see "missing values" below)
      if not name:find("Encoder") then
        errors_with("bad argument #1 to 'fit' %(" .. name .. ": X has a non%-finite element, nan "
          .. "at row 1, column 2; impute missing values first, e%.g%. with "
          .. "luma%.preprocessing%.SimpleImputer%)", function()
          pp[name]{}:fit(bad)
        end)
      end
      local fitted = pp[name]{}:fit(luma.matrix{ { 1, 2 }, { 3, 4 } })
      -- an infinity is not a missing value: no advice to impute it
      errors_with("bad argument #1 to 'transform' %(" .. name .. ": X has a non%-finite element, "
        .. "inf at row 1, column 1%)$", function()
        fitted:transform(luma.matrix{ { math.huge, 2 } })
      end)
    end
  end)

  it("checks ranges, widths and parameters", function()
    errors_with("feature_range must be {lo, hi} with lo < hi", function()
      pp.MinMaxScaler{ feature_range = { 1, 1 } }:fit(X)
    end)
    errors_with("quantile_range must be 0 <= lo < hi <= 100", function()
      pp.RobustScaler{ quantile_range = { 80, 20 } }:fit(X)
    end)
    errors_with("X has 2 columns but luma.preprocessing.StandardScaler was fitted on 3", function()
      pp.StandardScaler{}:fit(X):transform(luma.zeros(1, 2))
    end)
    errors_with("StandardScaler: transform called before fit", function()
      pp.StandardScaler{}:transform(X)
    end)
    errors_with("norm", function() pp.Normalizer{ norm = "l3" } end)
    errors_with("with_centring", function() pp.RobustScaler{ with_centring = true } end)
  end)
end)
