--- luma.preprocessing: transformers under the estimator contract.
--
-- Scalers, normalizers, encoders, imputers, polynomial and basis
-- expansions (notes 000 §6.4, §7.3) and a function wrapper.  All are
-- estimator.class transformers: fit(X), transform(X), fit_transform(X),
-- inverse_transform(X) where it exists; fitted attributes use
-- scikit-learn's names without the trailing underscore.  Encoders give
-- codes 1..k (Luma is 1-based; scikit-learn uses 0..k-1).
local luma = require("luma")
local estimator = require("luma.estimator")

local pp = {}

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

-- NaN and Inf would silently poison means, ranges and codes; only the
-- imputer and FunctionTransformer accept them.
local function check_finite(self, method, X)
  if not X:isfinite():all() then
    fail(4, "bad argument #1 to '%s' (X contains NaN or Inf; %s needs finite values; "
      .. "impute them first, e.g. with luma.preprocessing.SimpleImputer)", method,
      self.__class.short_name)
  end
end

-- Wraps a class spec's fit and transform so both refuse non-finite X.
local function finite_only(spec)
  for _, method in ipairs({ "fit", "transform" }) do
    local impl = spec[method]
    spec[method] = function(self, X, ...)
      check_finite(self, method, X)
      return impl(self, X, ...)
    end
  end
  return spec
end

-- A value as it reads in a message: 4 rather than 4.0.
local function shown(v)
  return string.format("%.15g", v)
end

-- A 1 x d row with zeros replaced by ones (scikit-learn's rule for
-- constant features: leave them unscaled).
local function nonzero(row)
  return luma.matrix.where(row:eq(0), 1, row)
end

local function example(cls_fn)
  return function()
    local X = luma.matrix{ { 1, -2, 3 }, { 4, 5, -6 }, { 7, 8, 9 }, { -1, 0, 2 } }
    return cls_fn(), X, nil
  end
end

-- ------------------------------------------------------------- scalers

pp.StandardScaler = estimator.class(finite_only{
  name = "luma.preprocessing.StandardScaler", kind = "transformer",
  doc = "Centres each column and divides by its population standard deviation (ddof 0).",
  params = {
    { name = "with_mean", type = "boolean", default = true, doc = "subtract the mean" },
    { name = "with_std", type = "boolean", default = true, doc = "divide by the std" },
  },
  example = example(function() return pp.StandardScaler{} end),
  fit = function(self, X)
    self.mean = X:mean(1)
    self.var = X:var(1)
    self.scale = nonzero(self.var:sqrt())
    if not self.params.with_mean then self.mean = luma.zeros(1, X:cols()) end
    if not self.params.with_std then self.scale = luma.ones(1, X:cols()) end
  end,
  transform = function(self, X) return (X - self.mean):div(self.scale) end,
  inverse_transform = function(self, X) return X:mul(self.scale) + self.mean end,
})

pp.MinMaxScaler = estimator.class(finite_only{
  name = "luma.preprocessing.MinMaxScaler", kind = "transformer",
  doc = "Maps each column's [min, max] onto feature_range.",
  params = {
    { name = "feature_range", type = "table", default = { 0, 1 }, doc = "{lo, hi}, lo < hi" },
    { name = "clip", type = "boolean", default = false, doc = "clip transformed values to the range" },
  },
  example = example(function() return pp.MinMaxScaler{} end),
  fit = function(self, X)
    local r = self.params.feature_range
    if type(r[1]) ~= "number" or type(r[2]) ~= "number" or not (r[1] < r[2]) then
      fail(3, "luma.preprocessing.MinMaxScaler: feature_range must be {lo, hi} with lo < hi")
    end
    self.data_min, self.data_max = X:min(1), X:max(1)
    self.data_range = self.data_max - self.data_min
    self.scale = nonzero(self.data_range):pow(-1) * (r[2] - r[1])
    self.min = self.data_min:mul(self.scale) * -1 + r[1]
  end,
  transform = function(self, X)
    local Z = X:mul(self.scale) + self.min
    if self.params.clip then Z = Z:clamp(self.params.feature_range[1], self.params.feature_range[2]) end
    return Z
  end,
  inverse_transform = function(self, X) return (X - self.min):div(self.scale) end,
})

pp.MaxAbsScaler = estimator.class(finite_only{
  name = "luma.preprocessing.MaxAbsScaler", kind = "transformer",
  doc = "Divides each column by its largest absolute value (keeps zeros and signs).",
  params = {},
  example = example(function() return pp.MaxAbsScaler{} end),
  fit = function(self, X)
    self.max_abs = X:abs():max(1)
    self.scale = nonzero(self.max_abs)
  end,
  transform = function(self, X) return X:div(self.scale) end,
  inverse_transform = function(self, X) return X:mul(self.scale) end,
})

pp.RobustScaler = estimator.class(finite_only{
  name = "luma.preprocessing.RobustScaler", kind = "transformer",
  doc = "Centres on the median and divides by the interquartile range (quantile_range).",
  params = {
    { name = "with_centering", type = "boolean", default = true, doc = "subtract the median" },
    { name = "with_scaling", type = "boolean", default = true, doc = "divide by the IQR" },
    { name = "quantile_range", type = "table", default = { 25, 75 }, doc = "{q_lo, q_hi} in percent" },
  },
  example = example(function() return pp.RobustScaler{} end),
  fit = function(self, X)
    local q = self.params.quantile_range
    if type(q[1]) ~= "number" or type(q[2]) ~= "number" or not (q[1] >= 0 and q[1] < q[2] and q[2] <= 100) then
      fail(3, "luma.preprocessing.RobustScaler: quantile_range must be 0 <= lo < hi <= 100")
    end
    local Q = luma.stats.quantile(X, { q[1] / 100, 0.5, q[2] / 100 })
    self.center = self.params.with_centering and Q:row(2):copy() or luma.zeros(1, X:cols())
    self.scale = self.params.with_scaling and nonzero(Q:row(3) - Q:row(1)) or luma.ones(1, X:cols())
  end,
  transform = function(self, X) return (X - self.center):div(self.scale) end,
  inverse_transform = function(self, X) return X:mul(self.scale) + self.center end,
})

pp.Normalizer = estimator.class(finite_only{
  name = "luma.preprocessing.Normalizer", kind = "transformer",
  doc = "Scales each row to unit norm (l1, l2 or max); rows of zeros stay zero.",
  params = { { name = "norm", type = "string", default = "l2", values = { "l1", "l2", "max" },
    doc = "the row norm" } },
  example = example(function() return pp.Normalizer{} end),
  fit = function() end,
  transform = function(self, X)
    local n = self.params.norm
    local r = n == "l1" and X:abs():sum(2) or (n == "l2" and X:pow(2):sum(2):sqrt() or X:abs():max(2))
    return X:div(nonzero(r))
  end,
})

pp.Binarizer = estimator.class(finite_only{
  name = "luma.preprocessing.Binarizer", kind = "transformer",
  doc = "1 where a value exceeds threshold, else 0.",
  params = { { name = "threshold", type = "number", default = 0, doc = "values > threshold become 1" } },
  example = example(function() return pp.Binarizer{} end),
  fit = function() end,
  transform = function(self, X) return X:gt(self.params.threshold) end,
})

-- ------------------------------------------------------------- imputer

pp.SimpleImputer = estimator.class{
  name = "luma.preprocessing.SimpleImputer", kind = "transformer",
  doc = "Replaces missing values (NaN, or missing_values) by each column's mean, median, "
    .. "most frequent value or a constant.",
  params = {
    { name = "strategy", type = "string", default = "mean",
      values = { "mean", "median", "most_frequent", "constant" }, doc = "what replaces a gap" },
    { name = "fill_value", type = "number", default = 0, doc = "the constant strategy's value" },
    { name = "missing_values", type = "number", default = 0 / 0, nan_ok = true,
      doc = "the marker of a gap (NaN by default)" },
  },
  example = function()
    return pp.SimpleImputer{}, luma.matrix{ { 1, 0 / 0 }, { 3, 4 }, { 0 / 0, 6 } }, nil
  end,
  fit = function(self, X)
    local mv = self.params.missing_values
    local missing = mv ~= mv and X:isnan() or X:eq(mv)
    local stats = luma.zeros(1, X:cols())
    for j = 1, X:cols() do
      local present = X:col(j):select(missing:col(j):eq(0))
      local v
      local strategy = self.params.strategy
      if strategy == "constant" then
        v = self.params.fill_value
      elseif present:rows() == 0 then
        fail(3, "luma.preprocessing.SimpleImputer: column %d has no observed value", j)
      elseif strategy == "mean" then
        v = present:mean()
      elseif strategy == "median" then
        v = luma.stats.median(present):get(1, 1)
      else
        v = luma.stats.mode(present):get(1, 1)
      end
      stats:set(1, j, v)
    end
    self.statistics = stats
  end,
  transform = function(self, X)
    local mv = self.params.missing_values
    local missing = mv ~= mv and X:isnan() or X:eq(mv)
    return luma.matrix.where(missing, self.statistics, X)
  end,
}

-- ------------------------------------------------------------ encoders

-- Sorted distinct values of each column, as Lua lists and lookup tables.
local function column_categories(X)
  local cats, index = {}, {}
  for j = 1, X:cols() do
    local u = X:col(j):unique()
    cats[j], index[j] = {}, {}
    for i = 1, u:rows() do
      cats[j][i] = u:get(i, 1)
      index[j][u:get(i, 1)] = i
    end
  end
  return cats, index
end

pp.OrdinalEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.OrdinalEncoder", kind = "transformer",
  doc = "Codes each column's values 1..k in sorted order (categories); unknown values are an "
    .. "error or unknown_value with handle_unknown = \"use_encoded_value\".",
  params = {
    { name = "handle_unknown", type = "string", default = "error", values = { "error", "use_encoded_value" },
      doc = "what an unseen value does" },
    { name = "unknown_value", type = "number", default = 0 / 0, nan_ok = true, doc = "its code" },
  },
  example = example(function() return pp.OrdinalEncoder{} end),
  fit = function(self, X) self.categories, self._index = column_categories(X) end,
  transform = function(self, X)
    local out = luma.zeros(X:rows(), X:cols())
    for j = 1, X:cols() do
      for i = 1, X:rows() do
        local code = self._index[j][X:get(i, j)]
        if not code then
          if self.params.handle_unknown == "error" then
            fail(3, "luma.preprocessing.OrdinalEncoder: unknown value %s in column %d", shown(X:get(i, j)), j)
          end
          code = self.params.unknown_value
        end
        out:set(i, j, code)
      end
    end
    return out
  end,
  -- Codes outside 1..k (such as unknown_value) come back as NaN.
  inverse_transform = function(self, Z)
    local out = luma.zeros(Z:rows(), Z:cols())
    for j = 1, Z:cols() do
      local cats = self.categories[j]
      for i = 1, Z:rows() do out:set(i, j, cats[Z:get(i, j)] or 0 / 0) end
    end
    return out
  end,
})

pp.OneHotEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.OneHotEncoder", kind = "transformer",
  doc = "One 0/1 column per category of each column (sorted); drop removes the first "
    .. "category (\"first\") or one of two (\"if_binary\"); unknown values are an error or "
    .. "all zeros (handle_unknown = \"ignore\").",
  params = {
    { name = "handle_unknown", type = "string", default = "error", values = { "error", "ignore" },
      doc = "what an unseen value does" },
    { name = "drop", type = "string", values = { "first", "if_binary" }, doc = "categories to drop" },
  },
  example = example(function() return pp.OneHotEncoder{} end),
  fit = function(self, X)
    self.categories, self._index = column_categories(X)
    self._first = {}
    local offset = 0
    for j = 1, X:cols() do
      local k = #self.categories[j]
      local dropped = (self.params.drop == "first" or (self.params.drop == "if_binary" and k == 2)) and 1 or 0
      self._first[j] = { offset = offset, drop = dropped }
      offset = offset + k - dropped
    end
    self.n_features_out = offset
  end,
  transform = function(self, X)
    local out = luma.zeros(X:rows(), self.n_features_out)
    for j = 1, X:cols() do
      local info = self._first[j]
      for i = 1, X:rows() do
        local code = self._index[j][X:get(i, j)]
        if not code and self.params.handle_unknown == "error" then
          fail(3, "luma.preprocessing.OneHotEncoder: unknown value %s in column %d", shown(X:get(i, j)), j)
        end
        if code and code > info.drop then out:set(i, info.offset + code - info.drop, 1) end
      end
    end
    return out
  end,
  inverse_transform = function(self, Z)
    local out = luma.zeros(Z:rows(), #self.categories)
    for j = 1, #self.categories do
      local info = self._first[j]
      local k = #self.categories[j]
      for i = 1, Z:rows() do
        local v = info.drop == 1 and self.categories[j][1] or 0 / 0
        for c = info.drop + 1, k do
          if Z:get(i, info.offset + c - info.drop) == 1 then v = self.categories[j][c] end
        end
        out:set(i, j, v)
      end
    end
    return out
  end,
})

pp.LabelEncoder = estimator.class(finite_only{
  name = "luma.preprocessing.LabelEncoder", kind = "transformer",
  doc = "Codes labels (a column) 1..k in sorted order; classes holds the labels.",
  params = {},
  example = function() return pp.LabelEncoder{}, luma.matrix{ 30, 10, 20, 10 }, nil end,
  fit = function(self, y)
    local _, classes = estimator.encode_labels(y)
    self.classes = classes
  end,
  transform = function(self, y)
    local idx = {}
    for i = 1, self.classes:rows() do idx[self.classes:get(i, 1)] = i end
    local out = luma.zeros(y:rows(), 1)
    for i = 1, y:rows() do
      local c = idx[y:get(i, 1)]
      if not c then fail(3, "luma.preprocessing.LabelEncoder: unknown label %s", shown(y:get(i, 1))) end
      out:set(i, 1, c)
    end
    return out
  end,
  inverse_transform = function(self, codes) return estimator.decode_labels(codes, self.classes) end,
})

-- --------------------------------------------------------- expansions

-- How many monomials monomials() makes: sum over t of C(n+t-1, t), or
-- C(n, t) without powers (computed in floating point to detect blow-up).
local function monomial_count(n, degree, interaction_only, include_bias)
  local total, term = include_bias and 1 or 0, 1
  for t = 1, degree do
    term = interaction_only and term * (n - t + 1) / t or term * (n + t - 1) / t
    total = total + term
  end
  return total
end

-- Refuse expansions whose column count alone would exhaust memory.
local MAX_POLYNOMIAL_FEATURES = 1e7

-- The exponent tuples of every monomial of total degree <= d over n
-- variables in scikit-learn's order (by degree, then combinations with
-- replacement in lexicographic order).
local function monomials(n, degree, interaction_only, include_bias)
  local out = {}
  if include_bias then out[1] = {} end
  for d = 1, degree do
    local function rec(start, left, acc)
      if left == 0 then
        out[#out + 1] = { table.unpack(acc) }
        return
      end
      for i = start, n do
        acc[#acc + 1] = i
        rec(interaction_only and i + 1 or i, left - 1, acc)
        acc[#acc] = nil
      end
    end
    rec(1, d, {})
  end
  return out
end

pp.PolynomialFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.PolynomialFeatures", kind = "transformer",
  doc = "All products of the features up to degree (scikit-learn's column order).",
  params = {
    { name = "degree", type = "integer", default = 2, min = 0, doc = "the largest total degree" },
    { name = "interaction_only", type = "boolean", default = false, doc = "no powers of one feature" },
    { name = "include_bias", type = "boolean", default = true, doc = "a leading column of ones" },
  },
  example = example(function() return pp.PolynomialFeatures{} end),
  fit = function(self, X)
    local p = self.params
    local count = monomial_count(X:cols(), p.degree, p.interaction_only, p.include_bias)
    if count < 1 then
      fail(3, "luma.preprocessing.PolynomialFeatures: degree %d%s gives no features",
        p.degree, p.include_bias and "" or " without the bias column")
    elseif count > MAX_POLYNOMIAL_FEATURES then
      fail(3, "luma.preprocessing.PolynomialFeatures: %d features of degree %d would give %.3g "
        .. "columns (at most %d); lower degree or use interaction_only", X:cols(), p.degree,
        count, MAX_POLYNOMIAL_FEATURES)
    end
    self.powers = monomials(X:cols(), p.degree, p.interaction_only, p.include_bias)
    self.n_features_out = #self.powers
  end,
  transform = function(self, X)
    local out = luma.ones(X:rows(), #self.powers)
    for k, mono in ipairs(self.powers) do
      local col = out:col(k)
      for _, i in ipairs(mono) do col:mul(X:col(i), col) end
    end
    return out
  end,
  -- Names of the output columns from the input names (default x1..xd,
  -- 1-based like the rest of Luma), scikit-learn's "x1^2 x2" style.
  get_feature_names_out = function(self, names)
    local out = {}
    for k, mono in ipairs(self.powers) do
      if #mono == 0 then out[k] = "1"
      else
        local counts, order = {}, {}
        for _, i in ipairs(mono) do
          if not counts[i] then order[#order + 1] = i end
          counts[i] = (counts[i] or 0) + 1
        end
        local parts = {}
        for _, i in ipairs(order) do
          local nm = names and names[i] or ("x" .. i)
          parts[#parts + 1] = counts[i] > 1 and (nm .. "^" .. counts[i]) or nm
        end
        out[k] = table.concat(parts, " ")
      end
    end
    return out
  end,
})

pp.RBFFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.RBFFeatures", kind = "transformer",
  doc = "Radial basis features z_k = exp(-|x - c_k|^2 / lambda) (notes 000 §6.4); centers is "
    .. "a k x d matrix, or a count k of training rows chosen at random (seed).",
  params = {
    { name = "centers", type = "matrix|integer", default = 10, doc = "the centres or how many" },
    { name = "lambda", type = "number", default = 1, gt = 0, doc = "the width lambda" },
    { name = "seed", type = "seed", doc = "for choosing centres" },
  },
  example = example(function() return pp.RBFFeatures{ centers = 2, seed = 1 } end),
  fit = function(self, X)
    local c = self.params.centers
    if luma.ismatrix(c) then
      if c:cols() ~= X:cols() then fail(3, "luma.preprocessing.RBFFeatures: centers have %d columns but X has %d", c:cols(), X:cols()) end
      self.centers = c:copy()
    else
      if c < 1 or c > X:rows() then fail(3, "luma.preprocessing.RBFFeatures: centers must be in 1..%d", X:rows()) end
      self.centers = X:take(estimator.rng(self.params.seed):choice(X:rows(), c, { replace = false }))
    end
  end,
  transform = function(self, X)
    return (luma.pairwise.distances(X, self.centers, "sqeuclidean") * (-1 / self.params.lambda)):exp()
  end,
})

-- Projections X A - offsets for the arctan and Heaviside bases.
local function projection_fit(name)
  return function(self, X)
    local A = self.params.weights
    if A:rows() ~= X:cols() then
      fail(3, "luma.preprocessing.%s: weights must have %d rows (one per feature), got %d", name, X:cols(), A:rows())
    end
    local o = self.params.offsets
    self.offsets = o and o:flatten():t() or luma.zeros(1, A:cols())
    if self.offsets:cols() ~= A:cols() then
      fail(3, "luma.preprocessing.%s: %d offsets for %d basis functions", name, self.offsets:cols(), A:cols())
    end
  end
end

pp.ArctanFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.ArctanFeatures", kind = "transformer",
  doc = "z_k = arctan(x . a_k - alpha_k) (notes 000 §6.4's arctan(lambda x - alpha) and "
    .. "§7.3's arctan(a_k' x)); weights is d x k, offsets k values.",
  params = {
    { name = "weights", type = "matrix", doc = "the directions a_k as columns (required)" },
    { name = "offsets", type = "matrix", doc = "alpha_k (default 0)" },
  },
  example = example(function() return pp.ArctanFeatures{ weights = luma.matrix{ { 1, 0 }, { 0, 1 }, { 1, 1 } } } end),
  fit = function(self, X)
    if not self.params.weights then fail(2, "luma.preprocessing.ArctanFeatures: weights is required") end
    projection_fit("ArctanFeatures")(self, X)
  end,
  transform = function(self, X)
    return (X * self.params.weights - self.offsets):map(math.atan)
  end,
})

pp.HeavisideFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.HeavisideFeatures", kind = "transformer",
  doc = "z_k = [x . a_k - alpha_k >= 0] (notes 000 §7.3's Heaviside(a_k' x) steps).",
  params = {
    { name = "weights", type = "matrix", doc = "the directions a_k as columns (required)" },
    { name = "offsets", type = "matrix", doc = "alpha_k (default 0)" },
  },
  example = example(function() return pp.HeavisideFeatures{ weights = luma.matrix{ { 1 }, { -1 }, { 0 } } } end),
  fit = function(self, X)
    if not self.params.weights then fail(2, "luma.preprocessing.HeavisideFeatures: weights is required") end
    projection_fit("HeavisideFeatures")(self, X)
  end,
  transform = function(self, X) return (X * self.params.weights - self.offsets):ge(0) end,
})

pp.FunctionTransformer = estimator.class{
  name = "luma.preprocessing.FunctionTransformer", kind = "transformer",
  doc = "Applies a Lua function to X (and inverse_func in inverse_transform).",
  params = {
    { name = "func", type = "function", doc = "X -> matrix (nil: identity)" },
    { name = "inverse_func", type = "function", doc = "the inverse (optional)" },
  },
  example = example(function() return pp.FunctionTransformer{} end),
  fit = function() end,
  transform = function(self, X)
    local out = self.params.func and self.params.func(X) or X:copy()
    if not luma.ismatrix(out) then fail(2, "luma.preprocessing.FunctionTransformer: func must return a matrix") end
    return out
  end,
  inverse_transform = function(self, X)
    if not self.params.inverse_func then return X:copy() end
    return self.params.inverse_func(X)
  end,
}

luma.doc.set(pp, { name = "luma.preprocessing",
  doc = "StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler, Normalizer, Binarizer, "
    .. "SimpleImputer, OrdinalEncoder, OneHotEncoder, LabelEncoder, PolynomialFeatures, "
    .. "RBFFeatures, ArctanFeatures, HeavisideFeatures, FunctionTransformer." })

return pp
