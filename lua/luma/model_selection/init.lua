--- luma.model_selection: splitters, train_test_split and cv resolution.
--
-- A splitter's split(X [, y [, groups]]) returns an iterator of (train,
-- test) pairs, each an n x 1 matrix of 1-based row indices ready for
-- X:take(train).  Splitters that coincide with scikit-learn's definitions
-- (KFold and StratifiedKFold without shuffling, GroupKFold,
-- TimeSeriesSplit, LeaveOneOut, LeavePOut, PredefinedSplit) produce the
-- same folds (1-based).
local luma = require("luma")
local estimator = require("luma.estimator")

local ms = {}

local function fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end

-- ------------------------------------------------------------ splitters

-- A splitter class from a parameter schema (validated like an
-- estimator's) and a function folds(self, n, y, groups) returning the
-- list of {train, test} tables of 1-based indices.  needs: "y" or
-- "groups" when split requires them; count(self, n): the number of splits
-- when it is not n_splits (times n_repeats).
local function splitter(name, params, folds, needs, count)
  local class = { name = "luma.model_selection." .. name }
  local schema = {}
  for _, p in ipairs(params) do schema[p.name] = p end
  local meta = { __index = {}, __name = class.name }
  local methods = meta.__index

  function methods.split(self, X, y, groups)
    local n
    if luma.ismatrix(X) then n = X:rows()
    elseif math.type(X) == "integer" then n = X
    else fail(2, "bad argument #1 to 'split' (X must be a luma.Matrix or a sample count)") end
    if needs == "y" and y == nil then
      fail(2, "bad argument #2 to 'split' (%s needs the labels y)", class.name)
    end
    if needs == "groups" and groups == nil then
      fail(2, "bad argument #3 to 'split' (%s needs the groups)", class.name)
    end
    for arg, v in pairs({ [2] = y, [3] = groups }) do
      if not luma.ismatrix(v) then
        fail(2, "bad argument #%d to 'split' (a luma.Matrix expected, got %s)", arg, type(v))
      end
      if v:rows() ~= n then
        fail(2, "bad argument #%d to 'split' (X has %d rows but %s has %d)", arg, n,
          arg == 2 and "y" or "groups", v:rows())
      end
    end
    local list = folds(self, n, y, groups, 3)
    local k = 0
    return function()
      k = k + 1
      local f = list[k]
      if f then return luma.matrix(f[1]), luma.matrix(f[2]) end
    end
  end

  function methods.get_n_splits(self, X)
    if count then return count(self, luma.ismatrix(X) and X:rows() or X) end
    return self.params.n_splits * (self.params.n_repeats or 1)
  end

  meta.__tostring = function(self)
    local parts = {}
    for _, p in ipairs(params) do
      local v = self.params[p.name]
      if v ~= nil then parts[#parts + 1] = p.name .. "=" .. tostring(v) end
    end
    return name .. "(" .. table.concat(parts, ", ") .. ")"
  end

  setmetatable(class, {
    __call = function(_, values)
      local self = setmetatable({ params = {} }, meta)
      for _, p in ipairs(params) do self.params[p.name] = p.default end
      for k, v in pairs(values or {}) do
        local p = schema[k]
        if not p then
          local names = {}
          for i, q in ipairs(params) do names[i] = q.name end
          fail(2, "%s: unknown parameter '%s' (valid: %s)", class.name, tostring(k),
            table.concat(names, ", "))
        end
        if not p.check(v) then
          fail(2, "%s: parameter '%s' must be %s, got %s", class.name, k, p.what, tostring(v))
        end
        self.params[k] = v
      end
      if class.validate then class.validate(self) end
      return self
    end,
  })
  luma.doc.set(class, { name = class.name, doc = params.doc })
  return class
end

local function positive_integer(min)
  return function(v) return math.type(v) == "integer" and v >= min end
end
local function is_bool(v) return type(v) == "boolean" end
local function is_seed(v)
  local mt = getmetatable(v)
  return v == nil or math.type(v) == "integer"
    or (type(mt) == "table" and rawget(mt, "__name") == "luma.Generator")
end

local N_SPLITS = { name = "n_splits", default = 5, check = positive_integer(2),
                   what = "an integer >= 2" }
local SHUFFLE = { name = "shuffle", default = false, check = is_bool, what = "a boolean" }
local SEED = { name = "seed", check = is_seed, what = "an integer or a luma.Generator" }

-- Train indices: 1..n except the test ones.
local function complement(n, test)
  local in_test, train = {}, {}
  for _, i in ipairs(test) do in_test[i] = true end
  for i = 1, n do
    if not in_test[i] then train[#train + 1] = i end
  end
  return train
end

-- Folds from a fold number per sample (1..k).
local function folds_from_assignment(n, assign, k)
  local tests = {}
  for f = 1, k do tests[f] = {} end
  for i = 1, n do
    local f = assign[i]
    if f then table.insert(tests[f], i) end
  end
  local out = {}
  for f = 1, k do out[f] = { complement(n, tests[f]), tests[f] } end
  return out
end

local function order(n, self)
  local idx = {}
  for i = 1, n do idx[i] = i end
  if self.params.shuffle then
    local p = estimator.rng(self.params.seed):permutation(n)
    for i = 1, n do idx[i] = math.tointeger(p:get(i, 1)) end
  end
  return idx
end

local function check_n_splits(self, n, level)
  if self.params.n_splits > n then
    fail(level + 1, "%s: cannot split %d samples into n_splits=%d folds", tostring(self), n,
      self.params.n_splits)
  end
end

-- Contiguous blocks; the first n mod k folds are one larger.
local function kfold_folds(self, n, _, _, level)
  check_n_splits(self, n, level + 1)
  local k, idx = self.params.n_splits, order(n, self)
  local out, start = {}, 1
  for f = 1, k do
    local size = n // k + (f <= n % k and 1 or 0)
    local test = {}
    for i = start, start + size - 1 do test[#test + 1] = idx[i] end
    table.sort(test)
    out[f] = { complement(n, test), test }
    start = start + size
  end
  return out
end

ms.KFold = splitter("KFold", { N_SPLITS, SHUFFLE, SEED,
  doc = "K folds of contiguous blocks (the first n mod k one larger), or of a random "
    .. "permutation with shuffle = true." }, kfold_folds)

-- Labels coded by order of first appearance (scikit-learn's stratification
-- order), with the count of each class.
local function codes_by_appearance(y)
  local code, codes, counts, k = {}, {}, {}, 0
  for i = 1, y:rows() do
    local v = y:get(i, 1)
    if not code[v] then
      k = k + 1
      code[v] = k
      counts[k] = 0
    end
    codes[i] = code[v]
    counts[code[v]] = counts[code[v]] + 1
  end
  return codes, counts, k
end

-- scikit-learn's StratifiedKFold: deal the sorted labels round-robin to
-- fix how many of each class each fold tests, then hand each class's
-- samples to folds in blocks (shuffled blocks with shuffle = true).
local function stratified_folds(self, n, y, _, level)
  local k = self.params.n_splits
  local codes, counts, n_classes = codes_by_appearance(y)
  local smallest = math.huge
  local enough = false
  for c = 1, n_classes do
    smallest = math.min(smallest, counts[c])
    if counts[c] >= k then enough = true end
  end
  if not enough then
    fail(level + 1, "%s: n_splits=%d is more than the members of every class (largest "
      .. "class: %d); use fewer folds", tostring(self), k, math.max(table.unpack(counts)))
  end
  if smallest < k then
    warn(string.format("%s: the least populated class has only %d members, fewer than "
      .. "n_splits=%d; some test folds will lack it", tostring(self), smallest, k))
  end
  -- allocation[f][c]: members of class c in test fold f
  local sorted_codes = {}
  for c = 1, n_classes do
    for _ = 1, counts[c] do sorted_codes[#sorted_codes + 1] = c end
  end
  local allocation = {}
  for f = 1, k do
    allocation[f] = {}
    for c = 1, n_classes do allocation[f][c] = 0 end
  end
  for i, c in ipairs(sorted_codes) do
    local f = (i - 1) % k + 1
    allocation[f][c] = allocation[f][c] + 1
  end
  local rng = self.params.shuffle and estimator.rng(self.params.seed) or nil
  local assign, next_of_class = {}, {}
  local fold_list = {}
  for c = 1, n_classes do
    local list = {}
    for f = 1, k do
      for _ = 1, allocation[f][c] do list[#list + 1] = f end
    end
    if rng then rng:shuffle(list) end
    fold_list[c] = list
    next_of_class[c] = 0
  end
  for i = 1, n do
    local c = codes[i]
    next_of_class[c] = next_of_class[c] + 1
    assign[i] = fold_list[c][next_of_class[c]]
  end
  return folds_from_assignment(n, assign, k)
end

ms.StratifiedKFold = splitter("StratifiedKFold", { N_SPLITS, SHUFFLE, SEED,
  doc = "K folds preserving the class proportions of y (scikit-learn's allocation)." },
  stratified_folds, "y")

-- Repetitions with independent shuffles, all drawn from one seed.
local function repeated(inner_folds)
  return function(self, n, y, groups, level)
    local rng = estimator.rng(self.params.seed)
    local out = {}
    for _ = 1, self.params.n_repeats do
      local inner = { params = { n_splits = self.params.n_splits, shuffle = true,
                                 seed = rng:copy() } }
      rng:jump()
      setmetatable(inner, getmetatable(self))
      for _, f in ipairs(inner_folds(inner, n, y, groups, level + 1)) do out[#out + 1] = f end
    end
    return out
  end
end

local N_REPEATS = { name = "n_repeats", default = 10, check = positive_integer(1),
                    what = "an integer >= 1" }
ms.RepeatedKFold = splitter("RepeatedKFold", { N_SPLITS, N_REPEATS, SEED,
  doc = "KFold repeated n_repeats times with different shuffles." }, repeated(kfold_folds))
ms.RepeatedStratifiedKFold = splitter("RepeatedStratifiedKFold", { N_SPLITS, N_REPEATS, SEED,
  doc = "StratifiedKFold repeated n_repeats times with different shuffles." },
  repeated(stratified_folds), "y")

ms.LeaveOneOut = splitter("LeaveOneOut", { doc = "Each sample is the test set once." },
  function(_, n, _, _, level)
    if n < 2 then fail(level + 1, "LeaveOneOut needs at least 2 samples, got %d", n) end
    local out = {}
    for i = 1, n do out[i] = { complement(n, { i }), { i } } end
    return out
  end, nil, function(_, n) return n end)

ms.LeavePOut = splitter("LeavePOut", {
  { name = "p", default = 2, check = positive_integer(1), what = "an integer >= 1" },
  doc = "Every subset of p samples is a test set once (n choose p splits)." },
  function(self, n, _, _, level)
    local p = self.params.p
    if p >= n then fail(level + 1, "LeavePOut: p=%d must be below the %d samples", p, n) end
    local out, combo = {}, {}
    for i = 1, p do combo[i] = i end
    while true do
      local test = { table.unpack(combo) }
      out[#out + 1] = { complement(n, test), test }
      local i = p -- next combination in lexicographic order
      while i >= 1 and combo[i] == n - p + i do i = i - 1 end
      if i < 1 then break end
      combo[i] = combo[i] + 1
      for j = i + 1, p do combo[j] = combo[j - 1] + 1 end
      if #out > 1e6 then fail(level + 1, "LeavePOut: more than a million splits") end
    end
    return out
  end, nil, function(self, n)
    local c = 1
    for i = 1, self.params.p do c = c * (n - self.params.p + i) / i end
    return math.floor(c + 0.5)
  end)

-- The number of test samples for a size given as a fraction (ceil) or a
-- count, as scikit-learn computes it.
local function test_count(name, size, n, level)
  if math.type(size) == "integer" then
    if size <= 0 or size >= n then
      fail(level + 1, "%s=%d must be in [1, %d) samples", name, size, n)
    end
    return size
  end
  if type(size) ~= "number" or size <= 0 or size >= 1 then
    fail(level + 1, "%s=%s must be a fraction in (0, 1) or a count", name, tostring(size))
  end
  return name == "test_size" and math.ceil(size * n) or math.floor(size * n)
end

local function split_sizes(params, n, level)
  local n_test = test_count("test_size", params.test_size or (params.train_size and nil) or 0.1,
    n, level + 1)
  local n_train = params.train_size and test_count("train_size", params.train_size, n, level + 1)
    or n - n_test
  if n_train + n_test > n then
    fail(level + 1, "train_size + test_size = %d samples, more than the %d available",
      n_train + n_test, n)
  end
  return n_train, n_test
end

local SIZE = function(name)
  return { name = name, check = function(v) return type(v) == "number" end,
           what = "a fraction in (0, 1) or a sample count" }
end
local SHUFFLE_SPLITS = { name = "n_splits", default = 10, check = positive_integer(1),
                         what = "an integer >= 1" }

ms.ShuffleSplit = splitter("ShuffleSplit", { SHUFFLE_SPLITS, SIZE("test_size"),
  SIZE("train_size"), SEED,
  doc = "n_splits random train/test partitions (test_size default 0.1)." },
  function(self, n, _, _, level)
    local n_train, n_test = split_sizes(self.params, n, level + 1)
    local rng = estimator.rng(self.params.seed)
    local out = {}
    for s = 1, self.params.n_splits do
      local p = rng:permutation(n)
      local test, train = {}, {}
      for i = 1, n_test do test[i] = math.tointeger(p:get(i, 1)) end
      for i = 1, n_train do train[i] = math.tointeger(p:get(n_test + i, 1)) end
      table.sort(test)
      table.sort(train)
      out[s] = { train, test }
    end
    return out
  end)

-- Per-class test counts proportional to the class sizes, rounded down and
-- the remainder given to the classes with the largest fractional parts.
local function proportional(counts, total, n)
  local alloc, given, rest = {}, 0, {}
  for c, count in ipairs(counts) do
    local exact = count * total / n
    alloc[c] = math.floor(exact)
    given = given + alloc[c]
    rest[#rest + 1] = { c = c, frac = exact - alloc[c] }
  end
  table.sort(rest, function(a, b)
    if a.frac ~= b.frac then return a.frac > b.frac end
    return a.c < b.c
  end)
  for i = 1, total - given do alloc[rest[i].c] = alloc[rest[i].c] + 1 end
  return alloc
end

ms.StratifiedShuffleSplit = splitter("StratifiedShuffleSplit", { SHUFFLE_SPLITS,
  SIZE("test_size"), SIZE("train_size"), SEED,
  doc = "n_splits random train/test partitions preserving the class proportions of y." },
  function(self, n, y, _, level)
    local n_train, n_test = split_sizes(self.params, n, level + 1)
    local codes, counts, n_classes = codes_by_appearance(y)
    if n_test < n_classes or n_train < n_classes then
      fail(level + 1, "%s: train and test sets need at least one sample of each of the %d "
        .. "classes (train %d, test %d)", tostring(self), n_classes, n_train, n_test)
    end
    for c = 1, n_classes do
      if counts[c] < 2 then
        fail(level + 1, "%s: a class has only %d member; every class needs at least 2",
          tostring(self), counts[c])
      end
    end
    local members = {}
    for c = 1, n_classes do members[c] = {} end
    for i = 1, n do table.insert(members[codes[i]], i) end
    local test_alloc = proportional(counts, n_test, n)
    local rng = estimator.rng(self.params.seed)
    local out = {}
    for s = 1, self.params.n_splits do
      local test, train_pool = {}, {}
      for c = 1, n_classes do
        local list = { table.unpack(members[c]) }
        rng:shuffle(list)
        for i, v in ipairs(list) do
          if i <= test_alloc[c] then test[#test + 1] = v else train_pool[#train_pool + 1] = v end
        end
      end
      rng:shuffle(train_pool)
      local train = {}
      for i = 1, n_train do train[i] = train_pool[i] end
      table.sort(test)
      table.sort(train)
      out[s] = { train, test }
    end
    return out
  end, "y")

-- scikit-learn's GroupKFold: the largest groups first, each to the fold
-- with the fewest samples so far.
ms.GroupKFold = splitter("GroupKFold", { N_SPLITS,
  doc = "K folds that never split a group (groups of near-equal total size)." },
  function(self, n, _, groups, level)
    local k = self.params.n_splits
    local ids, sizes, group_of = {}, {}, {}
    for i = 1, n do
      local g = groups:get(i, 1)
      if not sizes[g] then
        sizes[g] = 0
        ids[#ids + 1] = g
      end
      sizes[g] = sizes[g] + 1
      group_of[i] = g
    end
    if k > #ids then
      fail(level + 1, "%s: n_splits=%d is more than the %d groups", tostring(self), k, #ids)
    end
    table.sort(ids, function(a, b)
      if sizes[a] ~= sizes[b] then return sizes[a] > sizes[b] end
      return a > b -- ties: NumPy's argsort of the sorted group ids, reversed
    end)
    local fold_total, fold_of = {}, {}
    for f = 1, k do fold_total[f] = 0 end
    for _, g in ipairs(ids) do
      local lightest = 1
      for f = 2, k do
        if fold_total[f] < fold_total[lightest] then lightest = f end
      end
      fold_total[lightest] = fold_total[lightest] + sizes[g]
      fold_of[g] = lightest
    end
    local assign = {}
    for i = 1, n do assign[i] = fold_of[group_of[i]] end
    return folds_from_assignment(n, assign, k)
  end, "groups")

ms.TimeSeriesSplit = splitter("TimeSeriesSplit", { N_SPLITS,
  { name = "max_train_size", check = positive_integer(1), what = "an integer >= 1" },
  { name = "test_size", check = positive_integer(1), what = "an integer >= 1" },
  { name = "gap", default = 0, check = positive_integer(0), what = "an integer >= 0" },
  doc = "Expanding-window splits for ordered data: each test block follows its training "
    .. "block (scikit-learn's definition)." },
  function(self, n, _, _, level)
    local k, gap = self.params.n_splits, self.params.gap
    local test_size = self.params.test_size or n // (k + 1)
    if k + 1 > n then
      fail(level + 1, "%s: %d folds need more than %d samples", tostring(self), k + 1, n)
    end
    if n - gap - test_size * k <= 0 then
      fail(level + 1, "%s: too many splits for %d samples with test_size=%d and gap=%d",
        tostring(self), n, test_size, gap)
    end
    local out = {}
    for start = n - k * test_size, n - 1, test_size do -- 0-based test start
      local train_end = start - gap
      local first = 0
      local max_train = self.params.max_train_size
      if max_train and max_train < train_end then first = train_end - max_train end
      local train, test = {}, {}
      for i = first, train_end - 1 do train[#train + 1] = i + 1 end
      for i = start, math.min(start + test_size, n) - 1 do test[#test + 1] = i + 1 end
      out[#out + 1] = { train, test }
    end
    return out
  end)

ms.PredefinedSplit = splitter("PredefinedSplit", {
  { name = "test_fold", check = luma.ismatrix, what = "a vector of fold numbers" },
  doc = "Fixed splits: test_fold[i] = f >= 1 puts sample i in test fold f; 0 keeps it in "
    .. "every training set (a hold-out validation set is test_fold = 1 on its rows)." },
  function(self, n, _, _, level)
    local tf = self.params.test_fold
    if tf == nil then fail(level + 1, "PredefinedSplit needs test_fold") end
    if tf:rows() * tf:cols() ~= n then
      fail(level + 1, "PredefinedSplit: test_fold has %d entries but X has %d rows",
        tf:rows() * tf:cols(), n)
    end
    local values, assign = {}, {}
    local flat = tf:flatten()
    for i = 1, n do
      local f = flat:get(i, 1)
      if f >= 1 then
        if not values[f] then values[f] = true end
        assign[i] = f
      end
    end
    local sorted = {}
    for f in pairs(values) do sorted[#sorted + 1] = f end
    table.sort(sorted)
    local renumber = {}
    for i, f in ipairs(sorted) do renumber[f] = i end
    for i = 1, n do
      if assign[i] then assign[i] = renumber[assign[i]] end
    end
    local k = #sorted
    if k == 0 then fail(level + 1, "PredefinedSplit: test_fold has no fold number >= 1") end
    return folds_from_assignment(n, assign, k)
  end, nil, function(self)
    local flat = self.params.test_fold:flatten()
    return flat:select(flat:ge(1)):unique():rows()
  end)

-- ------------------------------------------------------- train_test_split

--- train_test_split(X, y [, {test_size = 0.25, train_size, shuffle = true,
-- stratify = labels, seed}]) -> X_train, X_test, y_train, y_test.
function ms.train_test_split(X, y, opts)
  if not luma.ismatrix(X) then
    fail(2, "bad argument #1 to 'train_test_split' (X must be a luma.Matrix, got %s)", type(X))
  end
  if y ~= nil and not luma.ismatrix(y) then
    fail(2, "bad argument #2 to 'train_test_split' (y must be a luma.Matrix, got %s)", type(y))
  end
  opts = opts or {}
  local valid = { test_size = true, train_size = true, shuffle = true, stratify = true,
                  seed = true }
  for k in pairs(opts) do
    if not valid[k] then
      fail(2, "train_test_split: unknown option '%s' (valid: test_size, train_size, shuffle, "
        .. "stratify, seed)", tostring(k))
    end
  end
  local n = X:rows()
  if y and y:rows() ~= n then
    fail(2, "bad argument #2 to 'train_test_split' (X has %d rows but y has %d)", n, y:rows())
  end
  local params = { test_size = opts.test_size or (opts.train_size == nil and 0.25 or nil),
                   train_size = opts.train_size }
  local train, test
  if opts.stratify ~= nil then
    if opts.shuffle == false then
      fail(2, "train_test_split: stratify needs shuffle = true")
    end
    local s = ms.StratifiedShuffleSplit{ n_splits = 1, test_size = params.test_size,
      train_size = params.train_size, seed = opts.seed }
    train, test = s:split(X, opts.stratify)()
  elseif opts.shuffle == false then
    local n_train, n_test = split_sizes(params, n, 2)
    local tr, te = {}, {}
    for i = 1, n_train do tr[i] = i end
    for i = 1, n_test do te[i] = n_train + i end
    train, test = luma.matrix(tr), luma.matrix(te)
  else
    local s = ms.ShuffleSplit{ n_splits = 1, test_size = params.test_size,
      train_size = params.train_size, seed = opts.seed }
    train, test = s:split(X)()
  end
  if y then return X:take(train), X:take(test), y:take(train), y:take(test) end
  return X:take(train), X:take(test)
end

-- ---------------------------------------------------------- check_cv

--- check_cv(cv, y, is_classifier) -> a list of {train, test} pairs.
-- cv: nil (5 folds), an integer k (StratifiedKFold for classifiers, KFold
-- otherwise), a splitter, or any iterable of (train, test) pairs: an
-- iterator function, or a table of {train, test} tables.
function ms.check_cv(cv, X, y, is_classifier, groups)
  local splits = {}
  cv = cv or 5
  if math.type(cv) == "integer" then
    local s = (is_classifier and y) and ms.StratifiedKFold{ n_splits = cv }
      or ms.KFold{ n_splits = cv }
    cv = s
  end
  if type(cv) == "table" and getmetatable(cv) and cv.split then
    for train, test in cv:split(X, y, groups) do splits[#splits + 1] = { train, test } end
  elseif type(cv) == "function" then
    for train, test in cv do splits[#splits + 1] = { train, test } end
  elseif type(cv) == "table" then
    for i, pair in ipairs(cv) do
      if type(pair) ~= "table" or pair[1] == nil or pair[2] == nil then
        fail(2, "cv entry %d must be a {train, test} pair", i)
      end
      splits[i] = { luma.ismatrix(pair[1]) and pair[1] or luma.matrix(pair[1]),
                    luma.ismatrix(pair[2]) and pair[2] or luma.matrix(pair[2]) }
    end
  else
    fail(2, "cv must be an integer, a splitter or an iterable of (train, test) pairs, got %s",
      type(cv))
  end
  if #splits == 0 then fail(2, "cv produced no splits") end
  return splits
end

-- ------------------------------------------------------------- scoring

-- A scorer from the scoring argument: nil (the estimator's own score), a
-- registered name (luma.metrics), or a function(est, X, y) -> number.
local function resolve_scorer(scoring, level)
  if scoring == nil then
    return function(est, X, y) return est:score(X, y) end, "score"
  end
  if type(scoring) == "function" then return scoring, "score" end
  if type(scoring) == "string" then
    return require("luma.metrics").get_scorer(scoring), scoring
  end
  if type(scoring) == "table" and getmetatable(scoring) and getmetatable(scoring).__call then
    return scoring, scoring.name or "score"
  end
  fail(level + 1, "scoring must be nil, a scorer name, a scorer or a function, got %s",
    type(scoring))
end

-- Scorers by name: scoring may also be a list of names (or a table of
-- name = scorer) for several at once.
local function resolve_scorers(scoring, level)
  if type(scoring) == "table" and not getmetatable(scoring) then
    local out, names = {}, {}
    for k, v in pairs(scoring) do
      if math.type(k) == "integer" then
        local fn, name = resolve_scorer(v, level + 1)
        out[name] = fn
        names[#names + 1] = name
      else
        out[k] = resolve_scorer(v, level + 1)
        names[#names + 1] = k
      end
    end
    table.sort(names)
    return out, names
  end
  local fn, name = resolve_scorer(scoring, level + 1)
  return { [name] = fn }, { name }
end

local function is_classifier(est)
  return est:kind_of() == "classifier"
end

local function check_xy(fname, X, y)
  if not luma.ismatrix(X) then
    fail(3, "bad argument #2 to '%s' (X must be a luma.Matrix, got %s)", fname, type(X))
  end
  if y ~= nil and (not luma.ismatrix(y) or y:rows() ~= X:rows()) then
    fail(3, "bad argument #3 to '%s' (X has %d rows but y has %s)", fname, X:rows(),
      luma.ismatrix(y) and tostring(y:rows()) or type(y))
  end
end

-- Fits a clone on one split and scores it; a failing fit gives
-- error_score (or raises when error_score is "raise").
local function fit_and_score(est, X, y, train, test, scorers, names, opts)
  local model = est:clone()
  if opts.params then model:set_params(opts.params) end
  local Xtr, ytr = X:take(train), y and y:take(train)
  local t0 = luma.now()
  local ok, err = pcall(model.fit, model, Xtr, ytr)
  local result = { fit_time = luma.now() - t0, test = {}, train = {} }
  if not ok then
    if opts.error_score == "raise" then error(err, 0) end
    warn(string.format("%s: fit failed (%s); its scores are set to error_score",
      tostring(model), tostring(err)))
    for _, name in ipairs(names) do
      result.test[name] = opts.error_score
      result.train[name] = opts.error_score
    end
    result.score_time = 0
    result.failed = tostring(err)
    return result
  end
  local Xte, yte = X:take(test), y and y:take(test)
  t0 = luma.now()
  for _, name in ipairs(names) do
    result.test[name] = scorers[name](model, Xte, yte)
    if opts.train_score then result.train[name] = scorers[name](model, Xtr, ytr) end
  end
  result.score_time = luma.now() - t0
  result.model = model
  return result
end

local function mean_std(values)
  local n, sum = #values, 0
  for _, v in ipairs(values) do sum = sum + v end
  local mean = sum / n
  local ss = 0
  for _, v in ipairs(values) do ss = ss + (v - mean) ^ 2 end
  return mean, math.sqrt(ss / n)
end

local CV_OPTIONS = { cv = true, scoring = true, return_train_score = true,
                     return_estimator = true, groups = true, error_score = true, n_jobs = true }

local function check_opts(fname, opts, valid, level)
  for k in pairs(opts or {}) do
    if not valid[k] then
      local names = {}
      for name in pairs(valid) do names[#names + 1] = name end
      table.sort(names)
      fail(level + 1, "%s: unknown option '%s' (valid: %s)", fname, tostring(k),
        table.concat(names, ", "))
    end
  end
  return opts or {}
end

--- cross_validate(est, X, y [, opts]) -> results: test_<name>, train_<name>
-- (with return_train_score), fit_time, score_time (each a list over the
-- folds) and estimators (with return_estimator).
function ms.cross_validate(est, X, y, opts)
  if not require("luma.estimator").is_estimator(est) then
    fail(2, "bad argument #1 to 'cross_validate' (an estimator expected, got %s)", type(est))
  end
  check_xy("cross_validate", X, y)
  opts = check_opts("cross_validate", opts, CV_OPTIONS, 2)
  local scorers, names = resolve_scorers(opts.scoring, 2)
  local splits = ms.check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local out = { fit_time = {}, score_time = {} }
  for _, name in ipairs(names) do
    out["test_" .. name] = {}
    if opts.return_train_score then out["train_" .. name] = {} end
  end
  if opts.return_estimator then out.estimators = {} end
  local error_score = opts.error_score
  if error_score == nil then error_score = 0 / 0 end
  local results = require("luma.parallel").map(function(split)
    local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
      { train_score = opts.return_train_score, error_score = error_score })
    if not opts.return_estimator then r.model = nil end
    return r
  end, splits, { n_jobs = opts.n_jobs })
  for k, r in ipairs(results) do
    out.fit_time[k], out.score_time[k] = r.fit_time, r.score_time
    for _, name in ipairs(names) do
      out["test_" .. name][k] = r.test[name]
      if opts.return_train_score then out["train_" .. name][k] = r.train[name] end
    end
    if opts.return_estimator then out.estimators[k] = r.model end
  end
  return out
end

--- cross_val_score(est, X, y [, opts]) -> scores (a column, one per fold).
function ms.cross_val_score(est, X, y, opts)
  opts = opts or {}
  if type(opts.scoring) == "table" and not getmetatable(opts.scoring) then
    fail(2, "cross_val_score takes one scorer; use cross_validate for several")
  end
  local r = ms.cross_validate(est, X, y, opts)
  local _, names = resolve_scorers(opts.scoring, 2)
  return luma.matrix(r["test_" .. names[1]])
end

--- cross_val_predict(est, X, y [, {cv, method = "predict", groups}]) ->
-- each sample's prediction from the model that did not see it.
function ms.cross_val_predict(est, X, y, opts)
  check_xy("cross_val_predict", X, y)
  opts = check_opts("cross_val_predict", opts, { cv = true, method = true, groups = true }, 2)
  local method = opts.method or "predict"
  if type(est[method]) ~= "function" then
    fail(2, "cross_val_predict: %s has no method '%s'", tostring(est), method)
  end
  local splits = ms.check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local out, seen = nil, {}
  for _, split in ipairs(splits) do
    local model = est:clone():fit(X:take(split[1]), y and y:take(split[1]))
    local pred = model[method](model, X:take(split[2]))
    out = out or luma.zeros(X:rows(), pred:cols())
    for i = 1, split[2]:rows() do
      local row = math.tointeger(split[2]:get(i, 1))
      if seen[row] then
        fail(2, "cross_val_predict: sample %d is in more than one test fold", row)
      end
      seen[row] = true
      out:row(row):assign(pred:row(i))
    end
  end
  for i = 1, X:rows() do
    if not seen[i] then fail(2, "cross_val_predict: sample %d is in no test fold", i) end
  end
  return out
end

-- ------------------------------------------------------------ searches

--- The results of a search: one row per candidate with params, mean_<s>,
-- std_<s>, rank_<s> and split<k>_<s> for each scorer s (test scores;
-- train_<s>... with return_train_score), mean_fit_time and
-- mean_score_time.  Prints as an aligned table.
local Results = { __name = "luma.model_selection.Results" }
Results.__index = Results
ms.Results = Results

local function format_value(v)
  if type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.4g", v)
  end
  if type(v) == "table" and not getmetatable(v) then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. format_value(v[k]) end
    return table.concat(parts, ", ")
  end
  return tostring(v)
end

function Results.__tostring(self)
  local cols = { "rank_" .. self.primary, "mean_" .. self.primary, "std_" .. self.primary,
                 "mean_fit_time", "params" }
  local rows = { cols }
  local order = {}
  for i = 1, #self do order[i] = i end
  table.sort(order, function(a, b)
    local ra, rb = self[a]["rank_" .. self.primary], self[b]["rank_" .. self.primary]
    if ra ~= rb then return ra < rb end
    return a < b
  end)
  for _, i in ipairs(order) do
    local row = {}
    for j, c in ipairs(cols) do row[j] = format_value(self[i][c]) end
    rows[#rows + 1] = row
  end
  local widths = {}
  for _, row in ipairs(rows) do
    for j, cell in ipairs(row) do widths[j] = math.max(widths[j] or 0, #cell) end
  end
  local lines = {}
  for _, row in ipairs(rows) do
    local cells = {}
    for j, cell in ipairs(row) do
      cells[j] = j == #row and cell or string.format("%-" .. widths[j] .. "s", cell)
    end
    lines[#lines + 1] = table.concat(cells, "  ")
  end
  return table.concat(lines, "\n")
end

-- Every combination of a grid {name = {values...}} (or a list of grids).
local function expand_grid(grid, level)
  if type(grid) ~= "table" then fail(level + 1, "param_grid must be a table") end
  local grids = grid[1] ~= nil and grid or { grid }
  local out = {}
  for _, g in ipairs(grids) do
    local names = {}
    for name, values in pairs(g) do
      if type(values) ~= "table" or #values == 0 then
        fail(level + 1, "param_grid: '%s' needs a non-empty list of values", tostring(name))
      end
      names[#names + 1] = name
    end
    table.sort(names)
    local function rec(i, current)
      if i > #names then
        local copy = {}
        for k, v in pairs(current) do copy[k] = v end
        out[#out + 1] = copy
        return
      end
      for _, v in ipairs(g[names[i]]) do
        current[names[i]] = v
        rec(i + 1, current)
      end
      current[names[i]] = nil
    end
    rec(1, {})
  end
  return out
end

-- Ranks (1 = best, ties share the lowest rank, NaN last) of a list.
local function ranks(values)
  local order = {}
  for i = 1, #values do order[i] = i end
  local function key(v) return v ~= v and -math.huge or v end
  table.sort(order, function(a, b)
    local ka, kb = key(values[a]), key(values[b])
    if ka ~= kb then return ka > kb end
    return a < b
  end)
  local out, rank = {}, 0
  for pos, i in ipairs(order) do
    if pos == 1 or key(values[i]) ~= key(values[order[pos - 1]]) then rank = pos end
    out[i] = rank
  end
  return out
end

-- Evaluates candidate parameter sets by cross-validation and refits.
local function run_search(self, X, y, candidates)
  local p = self.params
  local est = p.estimator
  local scorers, names = resolve_scorers(p.scoring, 3)
  local primary = type(p.refit) == "string" and p.refit or names[1]
  if scorers[primary] == nil then
    fail(3, "%s: refit = '%s' is not one of the scorers (%s)", tostring(self), primary,
      table.concat(names, ", "))
  end
  local splits = ms.check_cv(p.cv, X, y, is_classifier(est))
  local results = setmetatable({ primary = primary, scorers = names }, Results)
  local error_score = p.error_score
  local tasks = {}
  for c = 1, #candidates do
    for k = 1, #splits do tasks[#tasks + 1] = { c, k } end
  end
  local runs = require("luma.parallel").map(function(task)
    local r = fit_and_score(est, X, y, splits[task[2]][1], splits[task[2]][2], scorers, names,
      { params = candidates[task[1]], train_score = p.return_train_score,
        error_score = error_score })
    r.model = nil
    return r
  end, tasks, { n_jobs = p.n_jobs })
  for c, params in ipairs(candidates) do
    local row = { params = params }
    local per = {}
    local fit_times, score_times = {}, {}
    for _, name in ipairs(names) do per[name] = { test = {}, train = {} } end
    for k = 1, #splits do
      local r = runs[(c - 1) * #splits + k]
      fit_times[k], score_times[k] = r.fit_time, r.score_time
      for _, name in ipairs(names) do
        per[name].test[k] = r.test[name]
        row[string.format("split%d_test_%s", k, name)] = r.test[name]
        if p.return_train_score then
          per[name].train[k] = r.train[name]
          row[string.format("split%d_train_%s", k, name)] = r.train[name]
        end
      end
    end
    for _, name in ipairs(names) do
      row["mean_" .. name], row["std_" .. name] = mean_std(per[name].test)
      if p.return_train_score then
        row["mean_train_" .. name], row["std_train_" .. name] = mean_std(per[name].train)
      end
    end
    row.mean_fit_time, row.std_fit_time = mean_std(fit_times)
    row.mean_score_time, row.std_score_time = mean_std(score_times)
    results[c] = row
  end
  for _, name in ipairs(names) do
    local means = {}
    for c = 1, #results do means[c] = results[c]["mean_" .. name] end
    local r = ranks(means)
    for c = 1, #results do results[c]["rank_" .. name] = r[c] end
  end
  self.results = results
  local best
  if type(p.refit) == "function" then
    best = p.refit(results)
    if math.type(best) ~= "integer" or best < 1 or best > #results then
      fail(3, "%s: the refit function must return a row number in 1..%d", tostring(self),
        #results)
    end
  else
    for c = 1, #results do
      if results[c]["rank_" .. primary] == 1 then best = c break end
    end
  end
  self.best_index = best
  self.best_params = results[best].params
  self.best_score = results[best]["mean_" .. primary]
  if self.best_score ~= self.best_score then
    fail(3, "%s: every candidate failed to fit", tostring(self))
  end
  if p.refit ~= false then
    local t0 = luma.now()
    self.best_estimator = est:clone():set_params(self.best_params):fit(X, y)
    self.refit_time = luma.now() - t0
    self.classes = self.best_estimator.classes
  end
end

local SEARCH_PARAMS = {
  { name = "estimator", type = "estimator", doc = "the estimator to tune" },
  { name = "scoring", type = "string|function|table", doc = "a scorer name, a function "
    .. "(est, X, y) -> score, or a list of names (default: the estimator's score)" },
  { name = "cv", type = "any", doc = "folds: an integer, a splitter or (train, test) pairs "
    .. "(default 5; stratified for classifiers)" },
  { name = "refit", type = "boolean|string|function", default = true, doc = "refit the best "
    .. "candidate on all data: true, the scorer name that picks it, a function(results) -> "
    .. "row, or false" },
  { name = "error_score", type = "number|string", default = 0 / 0, nan_ok = true,
    doc = "score of a "
    .. "failing fit (\"raise\" re-raises its error)" },
  { name = "return_train_score", type = "boolean", default = false,
    doc = "also score the training folds" },
  { name = "n_jobs", type = "integer", default = 1, min = 1, doc = "worker processes" },
}

local function search_delegate(method)
  return function(self, X, ...)
    if not self.best_estimator then
      fail(2, "%s: %s needs refit ~= false", tostring(self), method)
    end
    return self.best_estimator[method](self.best_estimator, X, ...)
  end
end

local function search_class(name, extra_params, candidates, doc, example)
  local params = {}
  for _, p in ipairs(SEARCH_PARAMS) do params[#params + 1] = p end
  for _, p in ipairs(extra_params) do params[#params + 1] = p end
  return estimator.class{
    name = "luma.model_selection." .. name,
    kind = "meta",
    requires_y = false,
    doc = doc,
    params = params,
    example = example,
    fit = function(self, X, y)
      if self.params.estimator == nil then
        fail(2, "%s: the estimator parameter is required", name)
      end
      run_search(self, X, y, candidates(self, 3))
    end,
    predict = search_delegate("predict"),
    predict_proba = search_delegate("predict_proba"),
    decision_function = search_delegate("decision_function"),
    transform = search_delegate("transform"),
    score = function(self, X, y)
      local fn = resolve_scorer(self.params.scoring and self.results.primary ~= "score"
        and self.results.primary or nil, 2)
      return fn(self.best_estimator, X, y)
    end,
  }
end

ms.GridSearch = search_class("GridSearch", {
  { name = "param_grid", type = "table", doc = "{name = {values...}} or a list of such grids; "
    .. "nested parameters as step__param" },
}, function(self, level)
  if self.params.param_grid == nil then fail(level + 1, "GridSearch: param_grid is required") end
  return expand_grid(self.params.param_grid, level + 1)
end, "Exhaustive search over a parameter grid by cross-validation; refits the best.",
function(base)
  local X = luma.random.Generator(1):normal(12, 2)
  return ms.GridSearch{ estimator = base, param_grid = { alpha = { 0.1, 1 } }, cv = 3 }, X,
    X:sum(2)
end)

--- Samplers for RandomSearch: each has sample(rng) -> one value.
-- (kind and bounds are kept so luma.save can write a search's parameters)
local Sampler = { __name = "luma.model_selection.Sampler" }
Sampler.__tostring = function(self) return string.format("%s(%s, %s)", self.kind, self.lo, self.hi) end
ms.Sampler = Sampler

local function sampler(kind, lo, hi, draw)
  return setmetatable({ sample = draw, kind = kind, lo = lo, hi = hi }, Sampler)
end

function ms.uniform(lo, hi)
  if not (hi > lo) then fail(2, "uniform needs lo < hi") end
  return sampler("uniform", lo, hi, function(rng) return rng:uniform(nil, nil, lo, hi) end)
end

function ms.log_uniform(lo, hi)
  if not (lo > 0 and hi > lo) then fail(2, "log_uniform needs 0 < lo < hi") end
  local a, b = math.log(lo), math.log(hi)
  return sampler("log_uniform", lo, hi,
    function(rng) return math.exp(rng:uniform(nil, nil, a, b)) end)
end

function ms.randint(lo, hi)
  if math.type(lo) ~= "integer" or math.type(hi) ~= "integer" or hi < lo then
    fail(2, "randint needs integers lo <= hi")
  end
  return sampler("randint", lo, hi, function(rng) return rng:integers(lo, hi) end)
end

-- One draw from a distribution spec: a list (uniform choice), an object
-- with sample(rng) (ms.uniform, ms.log_uniform, ms.randint), or anything
-- with sample(n, rng) returning a matrix (luma.dist distributions).
local function draw_value(spec, rng, name, level)
  if type(spec) == "table" and getmetatable(spec) == nil then
    if #spec == 0 then fail(level + 1, "param_distributions: '%s' is an empty list", name) end
    return spec[rng:integers(1, #spec)]
  end
  local mt = getmetatable(spec)
  if type(spec) == "table" and type(spec.sample) == "function" then
    if mt == Sampler then return spec.sample(rng) end
    local m = spec:sample(1, rng)
    return luma.ismatrix(m) and m:get(1, 1) or m
  end
  fail(level + 1, "param_distributions: '%s' must be a list or a distribution", name)
end

ms.RandomSearch = search_class("RandomSearch", {
  { name = "param_distributions", type = "table", doc = "{name = list or distribution}: "
    .. "lists are sampled uniformly; distributions by their sample method" },
  { name = "n_iter", type = "integer", default = 10, min = 1, doc = "candidates drawn" },
  { name = "seed", type = "seed", doc = "seed of the candidate draws" },
}, function(self, level)
  local dists = self.params.param_distributions
  if dists == nil then fail(level + 1, "RandomSearch: param_distributions is required") end
  local names = {}
  for k in pairs(dists) do names[#names + 1] = k end
  table.sort(names)
  local rng = estimator.rng(self.params.seed)
  local out = {}
  for c = 1, self.params.n_iter do
    local params = {}
    for _, name in ipairs(names) do params[name] = draw_value(dists[name], rng, name, level + 1) end
    out[c] = params
  end
  return out
end, "Random search over parameter distributions by cross-validation; refits the best.",
function(base)
  local X = luma.random.Generator(2):normal(12, 2)
  return ms.RandomSearch{ estimator = base, n_iter = 2, seed = 1, cv = 3,
    param_distributions = { alpha = ms.log_uniform(0.1, 10) } }, X, X:sum(2)
end)

-- --------------------------------------------------------------- curves

--- validation_curve(est, X, y, {param_name, param_range, cv, scoring}) ->
-- train_scores, test_scores (one row per value, one column per fold).
function ms.validation_curve(est, X, y, opts)
  check_xy("validation_curve", X, y)
  opts = check_opts("validation_curve", opts, { param_name = true, param_range = true,
    cv = true, scoring = true, groups = true }, 2)
  if type(opts.param_name) ~= "string" or type(opts.param_range) ~= "table" then
    fail(2, "validation_curve needs param_name (a string) and param_range (a list)")
  end
  local scorers, names = resolve_scorers(opts.scoring, 2)
  if #names ~= 1 then fail(2, "validation_curve takes one scorer") end
  local splits = ms.check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local train = luma.zeros(#opts.param_range, #splits)
  local test = luma.zeros(#opts.param_range, #splits)
  for i, value in ipairs(opts.param_range) do
    for k, split in ipairs(splits) do
      local r = fit_and_score(est, X, y, split[1], split[2], scorers, names,
        { params = { [opts.param_name] = value }, train_score = true, error_score = "raise" })
      train:set(i, k, r.train[names[1]])
      test:set(i, k, r.test[names[1]])
    end
  end
  return train, test
end

--- learning_curve(est, X, y, {train_sizes, cv, scoring, shuffle, seed}) ->
-- sizes (a column), train_scores, test_scores (rows per size, columns per
-- fold).  train_sizes: fractions of the largest training fold or counts
-- (default 0.1, 0.325, 0.55, 0.775, 1).
function ms.learning_curve(est, X, y, opts)
  check_xy("learning_curve", X, y)
  opts = check_opts("learning_curve", opts, { train_sizes = true, cv = true, scoring = true,
    shuffle = true, seed = true, groups = true }, 2)
  local scorers, names = resolve_scorers(opts.scoring, 2)
  local splits = ms.check_cv(opts.cv, X, y, is_classifier(est), opts.groups)
  local max_train = math.huge
  for _, split in ipairs(splits) do max_train = math.min(max_train, split[1]:rows()) end
  local sizes = {}
  for i, s in ipairs(opts.train_sizes or { 0.1, 0.325, 0.55, 0.775, 1.0 }) do
    local count = math.type(s) == "integer" and s or math.floor(s * max_train)
    if count < 1 or count > max_train then
      fail(2, "learning_curve: train size %s gives %d samples, outside 1..%d", tostring(s),
        count, max_train)
    end
    sizes[i] = count
  end
  local rng = opts.shuffle and estimator.rng(opts.seed) or nil
  local train = luma.zeros(#sizes, #splits)
  local test = luma.zeros(#sizes, #splits)
  for k, split in ipairs(splits) do
    local order = split[1]
    if rng then order = order:take(rng:permutation(order:rows())) end
    for i, count in ipairs(sizes) do
      local r = fit_and_score(est, X, y, order:sub(1, count), split[2], scorers, names,
        { train_score = true, error_score = "raise" })
      train:set(i, k, r.train[names[1]])
      test:set(i, k, r.test[names[1]])
    end
  end
  return luma.matrix(sizes), train, test
end

luma.doc.set(ms, { name = "luma.model_selection",
  doc = "Splitters (KFold, StratifiedKFold, RepeatedKFold, RepeatedStratifiedKFold, "
    .. "LeaveOneOut, LeavePOut, ShuffleSplit, StratifiedShuffleSplit, GroupKFold, "
    .. "TimeSeriesSplit, PredefinedSplit), train_test_split, check_cv, cross_validate, "
    .. "cross_val_score, cross_val_predict, GridSearch, RandomSearch (with uniform, "
    .. "log_uniform, randint), validation_curve and learning_curve." })

return ms
