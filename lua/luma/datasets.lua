--- luma.datasets: bundled real data sets and synthetic generators.
--
-- The five real data sets are compiled into the library from
-- data/datasets/*.csv (copied from Debian's python3-sklearn; sources and
-- licences in data/datasets/SOURCES.md), so load() needs no file system
-- and works in sandboxed states.  Each file starts with a line
-- "n_samples,n_features[,target names...]"; rows end with the target.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local args = require("luma.util.args")

local datasets = {}

local fail = args.fail

local function numbered(prefix, n)
  local names = {}
  for i = 1, n do names[i] = prefix .. (i - 1) end
  return names
end

local FEATURES = {
  iris = { "sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)" },
  wine = { "alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
    "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
    "od280/od315_of_diluted_wines", "proline" },
  breast_cancer = (function()
    local base = { "radius", "texture", "perimeter", "area", "smoothness", "compactness",
      "concavity", "concave points", "symmetry", "fractal dimension" }
    local names = {}
    for _, group in ipairs({ "mean", "error", "worst" }) do
      for _, b in ipairs(base) do names[#names + 1] = group .. " " .. b end
    end
    return names
  end)(),
  diabetes = { "age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6" },
  digits = (function()
    local names = {}
    for r = 0, 7 do
      for c = 0, 7 do names[#names + 1] = string.format("pixel_%d_%d", r, c) end
    end
    return names
  end)(),
}

local DESCRIPTIONS = {
  iris = "Fisher's iris flowers: 150 samples, 4 measurements, 3 species (classification).",
  wine = "UCI wine recognition: 178 wines, 13 chemical measurements, 3 cultivars "
    .. "(classification).",
  breast_cancer = "UCI Wisconsin diagnostic breast cancer: 569 samples, 30 features, "
    .. "malignant/benign (classification).",
  diabetes = "Efron et al. (2004) diabetes: 442 patients, 10 baseline variables, disease "
    .. "progression after one year (regression).",
  digits = "UCI optical handwritten digits: 1797 8x8 images, pixel values 0..16, digits 0-9 "
    .. "(classification).",
}

--- datasets.names(): the bundled data sets.
-- The Table of a loaded data set: features by name, then "target".
local function datasets_table(X, y, info)
  local Table = require("luma.Table")
  local T = Table.from_matrix(X, info.feature_names)
  if info.target_names == nil then return T:add_column("target", y) end
  local codes = y + 1 -- labels 0..k-1 in the files
  return T:add_column("target", Table.Categorical.from_codes(codes, info.target_names))
end

function datasets.names()
  return { "breast_cancer", "diabetes", "digits", "iris", "wine" }
end

--- load(name [, {scaled = true, as_table = false}]) -> X, y, info, or
-- Table, info with as_table.
-- info = {feature_names, target_names (classification), description,
-- n_samples, n_features}.  diabetes is centred and scaled like
-- scikit-learn's (each column to unit Euclidean norm) unless scaled =
-- false, which gives the raw measurements.  The table holds the features
-- under their names and a last column "target": categorical with the
-- target names as categories (in the data set's order, so code k is
-- target_names[k]) for classification, numeric for diabetes.
function datasets.load(name, opts)
  if FEATURES[name] == nil then
    fail(2, "luma.datasets.load: unknown data set '%s' (known: %s)", tostring(name),
      table.concat(datasets.names(), ", "))
  end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "scaled" and k ~= "as_table" then
      fail(2, "luma.datasets.load: unknown option '%s' (valid: scaled, as_table)", k)
    end
  end
  local text = require("luma.data." .. name)
  local first = text:match("^[^\n]*")
  local meta = {}
  for field in first:gmatch("[^,]+") do meta[#meta + 1] = field end
  local n, d = math.tointeger(tonumber(meta[1])), math.tointeger(tonumber(meta[2]))
  local body = text:sub(#first + 2)
  local all = luma.io.parse_csv(body, { header = false, as = "matrix" })
  assert(all:rows() == n and all:cols() == d + 1, "bundled data set " .. name .. " is damaged")
  local X = all:sub(nil, nil, 1, d):copy()
  local y = all:col(d + 1):copy()
  local info = { feature_names = FEATURES[name], description = DESCRIPTIONS[name],
                 n_samples = n, n_features = d }
  if #meta > 2 then
    info.target_names = {}
    for i = 3, #meta do info.target_names[#info.target_names + 1] = meta[i] end
  end
  if name == "diabetes" and opts.scaled ~= false then
    local centred = X - X:mean(1)
    X = centred:div(centred:norm(2, 1))
  end
  if opts.as_table then return datasets_table(X, y, info), info end
  return X, y, info
end

-- ------------------------------------------------------------ generators

local function rng_of(opts) return estimator.rng(opts.seed) end

-- A generator's options: an options table, or the common positional
-- forms make_classification(200, 5) (n_samples, then n_features where the
-- generator has it), optionally followed by the options table.
local function check_opts(fname, valid, ...)
  local given_args, opts = table.pack(...), {}
  local i = 1
  for _, key in ipairs{ "n_samples", "n_features" } do
    if valid[key] and type(given_args[i]) == "number" then
      opts[key] = given_args[i]
      i = i + 1
    end
  end
  local given = given_args[i]
  if given ~= nil then
    if type(given) ~= "table" or getmetatable(given) ~= nil then
      fail(3, "bad argument #%d to '%s' (options table expected, got %s)", i, fname,
        type(given))
    end
    for k, v in pairs(given) do
      if opts[k] ~= nil then
        fail(3, "luma.datasets.%s: %s given twice (positionally and as an option)", fname, k)
      end
      opts[k] = v
    end
  end
  if given_args.n > i then
    fail(3, "luma.datasets.%s: too many arguments (%d; expected at most %d)", fname,
      given_args.n, i)
  end
  local checked = args.check_opts("luma.datasets." .. fname, opts, valid, 3) -- (not a tail call)
  return checked
end

-- The largest count a generator makes (a matrix's row limit).
local MAX_COUNT = 2147483647

local function positive_int(fname, key, v, min)
  if math.type(v) ~= "integer" or v < (min or 1) then
    fail(3, "luma.datasets.%s: %s must be an integer >= %d, got %s", fname, key, min or 1,
      tostring(v))
  elseif v > MAX_COUNT then
    fail(3, "luma.datasets.%s: %s must be an integer <= %d, got %s", fname, key, MAX_COUNT, v)
  end
  return v
end

--- make_blobs{n_samples = 100, n_features = 2, centers = 3 (or a k x d
-- matrix), cluster_std = 1, center_box = {-10, 10}, seed} -> X, y (labels
-- 1..k): isotropic Gaussian clusters of near-equal sizes.
function datasets.make_blobs(...)
  local opts = check_opts("make_blobs", { n_samples = true, n_features = true, centers = true,
    cluster_std = true, center_box = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_blobs", "n_samples", opts.n_samples or 100)
  local centers = opts.centers or 3
  local d = opts.n_features or 2
  if not luma.ismatrix(centers) then
    local k = positive_int("make_blobs", "centers", centers)
    local box = opts.center_box or { -10, 10 }
    centers = rng:uniform(k, positive_int("make_blobs", "n_features", d), box[1], box[2])
  end
  local k = centers:rows()
  d = centers:cols()
  local std = opts.cluster_std or 1
  local X, y = luma.zeros(n, d), luma.zeros(n, 1)
  local row = 1
  for c = 1, k do
    local size = n // k + (c <= n % k and 1 or 0)
    if size > 0 then
      local block = rng:normal(size, d, 0, std) + centers:row(c)
      X:sub(row, row + size - 1):assign(block)
      y:sub(row, row + size - 1):assign(c)
      row = row + size
    end
  end
  local order = rng:permutation(n)
  return X:take(order), y:take(order)
end

--- make_regression{n_samples = 100, n_features = 10, n_informative = 10,
-- noise = 0, bias = 0, seed} -> X, y, coef: y = X coef + bias + noise.
function datasets.make_regression(...)
  local opts = check_opts("make_regression", { n_samples = true, n_features = true,
    n_informative = true, noise = true, bias = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_regression", "n_samples", opts.n_samples or 100)
  local d = positive_int("make_regression", "n_features", opts.n_features or 10)
  local k = math.min(opts.n_informative or 10, d)
  local X = rng:normal(n, d)
  local coef = luma.zeros(d, 1)
  coef:sub(1, k):assign(rng:uniform(k, 1, 0, 100))
  local y = X * coef + (opts.bias or 0)
  if (opts.noise or 0) > 0 then y = y + rng:normal(n, 1, 0, opts.noise) end
  return X, y, coef
end

--- make_classification{n_samples = 100, n_features = 20, n_informative =
-- 2, n_classes = 2, class_sep = 1, flip_y = 0.01, seed} -> X, y (labels
-- 1..n_classes): Gaussian clusters at hypercube vertices in the
-- informative dimensions, the rest noise (a simplified version of
-- scikit-learn's generator: no redundant or repeated features).
function datasets.make_classification(...)
  local opts = check_opts("make_classification", { n_samples = true, n_features = true,
    n_informative = true, n_classes = true, class_sep = true, flip_y = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_classification", "n_samples", opts.n_samples or 100)
  local d = positive_int("make_classification", "n_features", opts.n_features or 20)
  local k = positive_int("make_classification", "n_informative", opts.n_informative or 2)
  local classes = positive_int("make_classification", "n_classes", opts.n_classes or 2, 2)
  if k > d then fail(2, "luma.datasets.make_classification: n_informative > n_features") end
  if classes > 2 ^ k then
    fail(2, "luma.datasets.make_classification: %d classes need more than %d informative "
      .. "features", classes, k)
  end
  local sep = opts.class_sep or 1
  local X = rng:normal(n, d)
  local y = luma.zeros(n, 1)
  for i = 1, n do
    local c = (i - 1) % classes + 1
    y:set(i, 1, c)
    for j = 1, k do -- vertex c - 1 of the hypercube, coordinates +-sep
      local bit = ((c - 1) >> (j - 1)) & 1
      X:set(i, j, X:get(i, j) + (bit == 1 and sep or -sep))
    end
  end
  local flip = opts.flip_y or 0.01
  for i = 1, n do
    if rng:random() < flip then y:set(i, 1, rng:integers(1, classes)) end
  end
  local order = rng:permutation(n)
  return X:take(order), y:take(order)
end

--- make_moons{n_samples = 100, noise = 0, seed} -> X, y: two
-- interleaving half circles (labels 1 and 2).
function datasets.make_moons(...)
  local opts = check_opts("make_moons", { n_samples = true, noise = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_moons", "n_samples", opts.n_samples or 100, 2)
  local n_out, n_in = n // 2, n - n // 2
  local X, y = luma.zeros(n, 2), luma.zeros(n, 1)
  for i = 1, n_out do
    local t = math.pi * (i - 1) / math.max(n_out - 1, 1)
    X:set(i, 1, math.cos(t))
    X:set(i, 2, math.sin(t))
    y:set(i, 1, 1)
  end
  for i = 1, n_in do
    local t = math.pi * (i - 1) / math.max(n_in - 1, 1)
    X:set(n_out + i, 1, 1 - math.cos(t))
    X:set(n_out + i, 2, 1 - math.sin(t) - 0.5)
    y:set(n_out + i, 1, 2)
  end
  if (opts.noise or 0) > 0 then X = X + rng:normal(n, 2, 0, opts.noise) end
  local order = rng:permutation(n)
  return X:take(order), y:take(order)
end

--- make_circles{n_samples = 100, noise = 0, factor = 0.8, seed} -> X, y:
-- a large circle (label 1) around a smaller one (label 2).
function datasets.make_circles(...)
  local opts = check_opts("make_circles", { n_samples = true, noise = true, factor = true,
    seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_circles", "n_samples", opts.n_samples or 100, 2)
  local factor = opts.factor or 0.8
  if not (factor > 0 and factor < 1) then
    fail(2, "luma.datasets.make_circles: factor must be in (0, 1), got %s", tostring(factor))
  end
  local n_out = n // 2
  local X, y = luma.zeros(n, 2), luma.zeros(n, 1)
  for i = 1, n do
    local outer = i <= n_out
    local m = outer and n_out or n - n_out
    local t = 2 * math.pi * ((outer and i or i - n_out) - 1) / m
    local r = outer and 1 or factor
    X:set(i, 1, r * math.cos(t))
    X:set(i, 2, r * math.sin(t))
    y:set(i, 1, outer and 1 or 2)
  end
  if (opts.noise or 0) > 0 then X = X + rng:normal(n, 2, 0, opts.noise) end
  local order = rng:permutation(n)
  return X:take(order), y:take(order)
end

--- make_friedman1{n_samples = 100, n_features = 10, noise = 0, seed} ->
-- X ~ U[0, 1]^d, y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + noise.
function datasets.make_friedman1(...)
  local opts = check_opts("make_friedman1", { n_samples = true, n_features = true,
    noise = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_friedman1", "n_samples", opts.n_samples or 100)
  local d = positive_int("make_friedman1", "n_features", opts.n_features or 10, 5)
  local X = rng:uniform(n, d)
  local c = function(j) return X:col(j) end
  local y = (c(1):mul(c(2)) * math.pi):sin() * 10 + (c(3) - 0.5):pow(2) * 20 + c(4) * 10
    + c(5) * 5
  if (opts.noise or 0) > 0 then y = y + rng:normal(n, 1, 0, opts.noise) end
  return X, y
end

--- make_sinusoid{n_samples = 100, noise = 0.2, seed} -> x, y: the notes'
-- regression example (notes 004 §9.2): x ~ U[-5, 5],
-- y = -sin(x / 5) + cos(x) + e with e ~ N(0, noise^2).
function datasets.make_sinusoid(...)
  local opts = check_opts("make_sinusoid", { n_samples = true, noise = true, seed = true }, ...)
  local rng = rng_of(opts)
  local n = positive_int("make_sinusoid", "n_samples", opts.n_samples or 100)
  local x = rng:uniform(n, 1, -5, 5)
  local y = (x / 5):sin() * -1 + x:cos()
  local noise = opts.noise or 0.2
  if noise > 0 then y = y + rng:normal(n, 1, 0, noise) end
  return x, y
end

-- Every generator takes one options table; seed (an integer or a
-- Generator) makes it reproducible, nil draws from the default generator.
luma.doc.set_members(datasets, "luma.datasets", {
  names = { signature = "names() -> table of strings",
    doc = "The names of the bundled data sets, for load." },
  load = { signature = "load(name [, {scaled = true, as_table = false}]) -> X, y, info | "
      .. "Table, info",
    doc = "Loads a bundled data set (iris, wine, breast_cancer, diabetes, digits; see "
      .. "names()). Returns X (n x d), y (n x 1: class labels 0..k-1, or diabetes' numeric "
      .. "target) and info = {feature_names, target_names (classification), description, "
      .. "n_samples, n_features}. With as_table = true it returns a luma.Table instead of X "
      .. "and y: the features as numeric columns named by feature_names, then a column "
      .. "\"target\", categorical with categories target_names (code k is target_names[k], "
      .. "label k - 1 of y) or numeric for diabetes; and info. diabetes is centred and "
      .. "scaled like scikit-learn's unless scaled = false.",
    params = { { name = "scaled", default = true, doc = "diabetes only: centred, unit column norms" },
      { name = "as_table", default = false, doc = "return a luma.Table and info" } } },
  make_blobs = { signature = "make_blobs{n_samples = 100, n_features = 2, centers = 3, "
      .. "cluster_std = 1, center_box = {-10, 10}, seed = nil} -> X, y",
    doc = "Isotropic Gaussian clusters of near-equal sizes around centers (a count, or a "
      .. "k x d matrix of centres). Returns X (n x d) and labels 1..k."
      .. " n_samples and n_features may also come positionally, before or instead of "
      .. "the options: make_blobs(200, 5 [, opts])." },
  make_regression = { signature = "make_regression{n_samples = 100, n_features = 10, "
      .. "n_informative = 10, noise = 0, bias = 0, seed = nil} -> X, y, coef",
    doc = "A random linear regression problem y = X coef + bias + N(0, noise^2) noise, "
      .. "only n_informative coefficients nonzero."
      .. " n_samples and n_features may also come positionally, before or instead of "
      .. "the options: make_regression(200, 5 [, opts])." },
  make_classification = { signature = "make_classification{n_samples = 100, n_features = "
      .. "20, n_informative = 2, n_classes = 2, class_sep = 1, flip_y = 0.01, seed = nil} "
      .. "-> X, y",
    doc = "Gaussian clusters at hypercube vertices in the informative dimensions, the rest "
      .. "noise, a fraction flip_y of labels flipped (scikit-learn's generator without "
      .. "redundant or repeated features). Returns X and labels 1..n_classes."
      .. " n_samples and n_features may also come positionally, before or instead of "
      .. "the options: make_classification(200, 5 [, opts])." },
  make_moons = { signature = "make_moons{n_samples = 100, noise = 0, seed = nil} -> X, y",
    doc = "Two interleaving half circles in the plane. Returns X (n x 2) and labels 1, 2."
      .. " n_samples may also come positionally: make_moons(200 [, opts])." },
  make_circles = {
    signature = "make_circles{n_samples = 100, noise = 0, factor = 0.8, seed = nil} -> X, y",
    doc = "A large circle (label 1) around a smaller one (label 2, radius factor). Returns "
      .. "X (n x 2) and the labels."
      .. " n_samples may also come positionally: make_circles(200 [, opts])." },
  make_friedman1 = {
    signature = "make_friedman1{n_samples = 100, n_features = 10, noise = 0, seed = nil} "
      .. "-> X, y",
    doc = "Friedman's first regression problem (Friedman, Multivariate Adaptive Regression "
      .. "Splines, 1991): X ~ U[0, 1]^d, y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + "
      .. "5 x5 + noise."
      .. " n_samples and n_features may also come positionally, before or instead of "
      .. "the options: make_friedman1(200, 5 [, opts])." },
  make_sinusoid = { signature = "make_sinusoid{n_samples = 100, noise = 0.2, seed = nil} "
      .. "-> x, y",
    doc = "A one-dimensional nonlinear regression example: x ~ U[-5, 5], y = -sin(x / 5) + "
      .. "cos(x) + N(0, noise^2) noise. Returns x and y, n x 1 each."
      .. " n_samples may also come positionally: make_sinusoid(200 [, opts])." },
})

-- The generators' shared checks raise at levels that depend on the
-- generator: each public function raises at its caller's line.
args.relay_functions(datasets)

luma.doc.set(datasets, { name = "luma.datasets",
  doc = "Bundled data sets (load: iris, wine, breast_cancer, diabetes, digits) and "
    .. "generators (make_blobs, make_classification, make_regression, make_moons, "
    .. "make_circles, make_friedman1, make_sinusoid)." })

return datasets
