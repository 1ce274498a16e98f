--- luma.preprocessing.features: feature expansions.
--
-- PolynomialFeatures (scikit-learn's monomials and column order), the
-- notes' fixed basis functions -- radial (RBFFeatures, notes 000 §6.4),
-- arctan (ArctanFeatures, §6.4 and §7.3) and Heaviside steps
-- (HeavisideFeatures, §7.3) -- and FunctionTransformer, which applies any
-- Lua function (and, unlike the others, lets NaN and Inf through).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.preprocessing.common")
local fail, finite_only, example = common.fail, common.finite_only, common.example

local features = {}

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

features.PolynomialFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.PolynomialFeatures", kind = "transformer",
  method_docs = {
    get_feature_names_out = { signature = "est:get_feature_names_out([input_features = nil])",
      doc = "The names of the output columns built from the input names (input_features, "
        .. "else feature_names_in, else \"x1\" .. \"xd\"), scikit-learn's \"x1^2 x2\" "
        .. "style. Returns a list of strings." },
  },
  doc = "All products of the features up to degree (scikit-learn's column order).",
  params = {
    { name = "degree", type = "integer", default = 2, min = 0, doc = "the largest total degree" },
    { name = "interaction_only", type = "boolean", default = false, doc = "no powers of one feature" },
    { name = "include_bias", type = "boolean", default = true, doc = "a leading column of ones" },
  },
  example = example(function() return features.PolynomialFeatures{} end),
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
  get_feature_names_out = function(self, input_features)
    local names, out = estimator.input_names(self, input_features), {}
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
          parts[#parts + 1] = counts[i] > 1 and (names[i] .. "^" .. counts[i]) or names[i]
        end
        out[k] = table.concat(parts, " ")
      end
    end
    return out
  end,
})

features.RBFFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.RBFFeatures", kind = "transformer",
  doc = "Radial basis features z_k = exp(-|x - c_k|^2 / lambda) (Bishop, sec. 3.1); centers is "
    .. "a k x d matrix, or a count k of training rows chosen at random (seed).",
  params = {
    { name = "centers", type = "matrix|integer", default = 10, doc = "the centres or how many" },
    { name = "lambda", type = "number", default = 1, gt = 0, doc = "the width lambda" },
    { name = "seed", type = "seed", doc = "for choosing centres" },
  },
  example = example(function() return features.RBFFeatures{ centers = 2, seed = 1 } end),
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

features.ArctanFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.ArctanFeatures", kind = "transformer",
  doc = "z_k = arctan(x . a_k - alpha_k), sigmoid-shaped basis functions "
    .. "(Bishop, sec. 3.1); weights is d x k, offsets k values.",
  params = {
    { name = "weights", type = "matrix", doc = "the directions a_k as columns (required)" },
    { name = "offsets", type = "matrix", doc = "alpha_k (default 0)" },
  },
  example = example(function() return features.ArctanFeatures{ weights = luma.matrix{ { 1, 0 }, { 0, 1 }, { 1, 1 } } } end),
  fit = function(self, X)
    if not self.params.weights then fail(2, "luma.preprocessing.ArctanFeatures: weights is required") end
    projection_fit("ArctanFeatures")(self, X)
  end,
  transform = function(self, X)
    return (X * self.params.weights - self.offsets):map(math.atan)
  end,
})

features.HeavisideFeatures = estimator.class(finite_only{
  name = "luma.preprocessing.HeavisideFeatures", kind = "transformer",
  doc = "z_k = [x . a_k - alpha_k >= 0] (threshold units).",
  params = {
    { name = "weights", type = "matrix", doc = "the directions a_k as columns (required)" },
    { name = "offsets", type = "matrix", doc = "alpha_k (default 0)" },
  },
  example = example(function() return features.HeavisideFeatures{ weights = luma.matrix{ { 1 }, { -1 }, { 0 } } } end),
  fit = function(self, X)
    if not self.params.weights then fail(2, "luma.preprocessing.HeavisideFeatures: weights is required") end
    projection_fit("HeavisideFeatures")(self, X)
  end,
  transform = function(self, X) return (X * self.params.weights - self.offsets):ge(0) end,
})

features.FunctionTransformer = estimator.class{
  name = "luma.preprocessing.FunctionTransformer", kind = "transformer",
  doc = "Applies a Lua function to X (and inverse_func in inverse_transform).",
  params = {
    { name = "func", type = "function", doc = "X -> matrix (nil: identity)" },
    { name = "inverse_func", type = "function", doc = "the inverse (optional)" },
  },
  example = example(function() return features.FunctionTransformer{} end),
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

return features
