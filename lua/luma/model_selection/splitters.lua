--- luma.model_selection.splitters: the splitters, train_test_split and cv
-- resolution (check_cv, which every cross-validation loop goes through).
--
-- A splitter's split(X [, y [, groups]]) returns an iterator of (train,
-- test) pairs, each an n x 1 matrix of 1-based row indices ready for
-- X:take(train).  Splitters that coincide with scikit-learn's definitions
-- (KFold and StratifiedKFold without shuffling, GroupKFold,
-- TimeSeriesSplit, LeaveOneOut, LeavePOut, PredefinedSplit) produce the
-- same folds (1-based).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local common = require("luma.model_selection.common")
local args = require("luma.util.args")
local labels = require("luma.util.labels")
local fail = common.fail

local splitters = {}

-- The largest sample count split takes in place of X (a matrix's row limit).
local MAX_SAMPLES = 2147483647

-- A splitter class from a parameter schema (validated like an
-- estimator's) and a function folds(self, n, y, groups) returning the
-- list of {train, test} tables of 1-based indices.  needs: "y" or
-- "groups" when split requires them; count(self, n): the number of splits
-- when it is not n_splits (times n_repeats), with count_needs_n when it
-- depends on the sample count n (get_n_splits then requires X).
local function splitter(name, params, folds, needs, count, count_needs_n)
  local class = { name = "luma.model_selection." .. name }
  local schema = {}
  for _, p in ipairs(params) do schema[p.name] = p end
  local meta = { __index = {}, __name = class.name }
  local methods = meta.__index
  class.methods = methods -- where help and the API walk find split and get_n_splits

  -- (by the metatable's name: a test runner that reloads this module makes
  -- a second copy of the class)
  local function is_instance(v)
    local mt = getmetatable(v)
    return type(mt) == "table" and rawget(mt, "__name") == class.name
  end

  function methods.split(self, X, y, groups)
    local n
    if common.is_data(X) then n = common.n_rows(X)
    elseif math.type(X) == "integer" and X >= 0 and X <= MAX_SAMPLES then n = X
    else
      fail(2, "bad argument #1 to 'split' (luma.Matrix, luma.Table or sample count in [0, %d] "
        .. "expected, "
        .. "got %s)", MAX_SAMPLES, math.type(X) == "integer" and tostring(X) or args.type_of(X))
    end
    if needs == "y" and y == nil then
      fail(2, "bad argument #2 to 'split' (%s needs the labels y)", class.name)
    end
    if needs == "groups" and groups == nil then
      fail(2, "bad argument #3 to 'split' (%s needs the groups)", class.name)
    end
    -- y and groups as numbers: labels of any kind (a list, a categorical
    -- column: luma.util.labels) as their codes, which split alike
    local given = { y, groups }
    for arg = 2, 3 do
      local v = given[arg - 1]
      if v ~= nil then
        local what = arg == 2 and "y" or "groups"
        if not luma.ismatrix(v) then
          if not labels.accepts(v) then
            fail(2, "bad argument #%d to 'split' (a luma.Matrix or a list of labels expected, "
              .. "got %s)", arg, args.type_of(v))
          end
          v = labels.numeric(v, { fname = "split", argn = arg, what = what }, 2)
        end
        if v:rows() ~= n then
          fail(2, "bad argument #%d to 'split' (X has %d rows but %s has %d)", arg, n, what,
            v:rows())
        end
        given[arg - 1] = v
      end
    end
    y, groups = given[1], given[2]
    local list = folds(self, n, y, groups, 3)
    local k = 0
    return function()
      k = k + 1
      local f = list[k]
      if f then return luma.matrix(f[1]), luma.matrix(f[2]) end
    end
  end

  function methods.get_n_splits(self, X)
    if count then
      local n
      if common.is_data(X) then n = common.n_rows(X)
      elseif math.type(X) == "integer" and X >= 0 then n = X
      elseif X ~= nil or count_needs_n then
        fail(2, "bad argument #1 to 'get_n_splits' (%s needs X: a luma.Matrix, a Table or a sample "
          .. "count >= 0, got %s)", class.name,
          math.type(X) == "integer" and tostring(X) or args.type_of(X))
      end
      return count(self, n)
    end
    return self.params.n_splits * (self.params.n_repeats or 1)
  end

  -- (relayed: the folds' checks raise at depths that differ between the
  -- splitters)
  for _, m in ipairs({ "split", "get_n_splits" }) do
    methods[m] = args.method(methods[m], m, class.name, is_instance, true)
  end

  luma.doc.set_members(methods, class.name, {
    split = { signature = "splitter:split(X [, y = nil [, groups = nil]])",
      doc = "The folds of X (a luma.Matrix, a luma.Table or a sample count); y and groups "
        .. "(n x 1) where "
        .. "the splitter needs them. Returns an iterator of (train, test) pairs of n x 1 "
        .. "index matrices, for X:take(train)." },
    get_n_splits = { signature = "splitter:get_n_splits([X = nil])",
      doc = "The number of splits split yields (for X, where it depends on the sample "
        .. "count). Returns an integer." },
  })

  meta.__tostring = function(self)
    if not is_instance(self) then args.bad_self("__tostring", class.name, self, 2) end
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
      for k, v in pairs(args.options(class.name, 1, values, nil, nil, 2)) do
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
  -- help(Splitter) and help(instance): the parameters with their defaults.
  local record = { name = class.name, doc = params.doc, params = {} }
  local shown = {}
  for i, p in ipairs(params) do
    record.params[i] = { name = p.name, type = p.what:gsub("^an? ", ""), default = p.default,
      doc = p.doc }
    shown[i] = p.name .. " = " .. tostring(p.default)
  end
  record.signature = name .. "{" .. table.concat(shown, ", ") .. "}"
  luma.doc.set(class, record)
  luma.doc.set(meta, record)
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
                   what = "an integer >= 2", doc = "number of folds" }
local SHUFFLE = { name = "shuffle", default = false, check = is_bool, what = "a boolean",
                  doc = "shuffle the samples before splitting" }
local SEED = { name = "seed", check = is_seed, what = "an integer or a luma.Generator",
               doc = "seed of the shuffle (nil: the default generator)" }

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

splitters.KFold = splitter("KFold", { N_SPLITS, SHUFFLE, SEED,
  doc = "K folds of contiguous blocks (the first n mod k one larger), or of a random "
    .. "permutation with shuffle = true." }, kfold_folds)

-- Labels coded by order of first appearance (scikit-learn's stratification
-- order), with the count of each class.  A NaN label is an error (at
-- the level of the caller's caller, the splitter's user).
local function codes_by_appearance(self, y, level)
  local code, codes, counts, k = {}, {}, {}, 0
  for i = 1, y:rows() do
    local v = y:get(i, 1)
    if v ~= v then fail(level + 2, "%s: y has a NaN label (row %d)", tostring(self), i) end
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
  local codes, counts, n_classes = codes_by_appearance(self, y, level)
  if n_classes == 0 then fail(level + 1, "%s: y is empty", tostring(self)) end
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

splitters.StratifiedKFold = splitter("StratifiedKFold", { N_SPLITS, SHUFFLE, SEED,
  doc = "K folds preserving the class proportions of y (scikit-learn's allocation)." },
  stratified_folds, "y")

-- Repetitions with independent shuffles, all drawn from one seed.
local function repeated(inner_folds)
  return function(self, n, y, groups, level)
    local rng = estimator.rng(self.params.seed)
    -- the inner splitter's class, printed as the outer one (errors name
    -- what the user built)
    local inner_class = {}
    for k, v in pairs(getmetatable(self)) do inner_class[k] = v end
    inner_class.__tostring = function() return tostring(self) end
    local out = {}
    for _ = 1, self.params.n_repeats do
      local inner = { params = { n_splits = self.params.n_splits, shuffle = true,
                                 seed = rng:copy() } }
      rng:jump()
      setmetatable(inner, inner_class)
      for _, f in ipairs(inner_folds(inner, n, y, groups, level + 1)) do out[#out + 1] = f end
    end
    return out
  end
end

local N_REPEATS = { name = "n_repeats", default = 10, check = positive_integer(1),
                    what = "an integer >= 1", doc = "repetitions, each with new shuffles" }
splitters.RepeatedKFold = splitter("RepeatedKFold", { N_SPLITS, N_REPEATS, SEED,
  doc = "KFold repeated n_repeats times with different shuffles." }, repeated(kfold_folds))
splitters.RepeatedStratifiedKFold = splitter("RepeatedStratifiedKFold", { N_SPLITS, N_REPEATS, SEED,
  doc = "StratifiedKFold repeated n_repeats times with different shuffles." },
  repeated(stratified_folds), "y")

splitters.LeaveOneOut = splitter("LeaveOneOut", { doc = "Each sample is the test set once." },
  function(_, n, _, _, level)
    if n < 2 then fail(level + 1, "LeaveOneOut needs at least 2 samples, got %d", n) end
    local out = {}
    for i = 1, n do out[i] = { complement(n, { i }), { i } } end
    return out
  end, nil, function(_, n) return n end, true)

splitters.LeavePOut = splitter("LeavePOut", {
  { name = "p", default = 2, check = positive_integer(1), what = "an integer >= 1",
    doc = "size of each test set" },
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
  end, true)

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
           what = "a fraction in (0, 1) or a sample count",
           doc = "size of each " .. name:match("^(%a+)") .. " set" }
end
local SHUFFLE_SPLITS = { name = "n_splits", default = 10, check = positive_integer(1),
                         what = "an integer >= 1", doc = "number of random partitions" }

splitters.ShuffleSplit = splitter("ShuffleSplit", { SHUFFLE_SPLITS, SIZE("test_size"),
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

splitters.StratifiedShuffleSplit = splitter("StratifiedShuffleSplit", { SHUFFLE_SPLITS,
  SIZE("test_size"), SIZE("train_size"), SEED,
  doc = "n_splits random train/test partitions preserving the class proportions of y." },
  function(self, n, y, _, level)
    local n_train, n_test = split_sizes(self.params, n, level + 1)
    local codes, counts, n_classes = codes_by_appearance(self, y, level)
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
splitters.GroupKFold = splitter("GroupKFold", { N_SPLITS,
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

splitters.TimeSeriesSplit = splitter("TimeSeriesSplit", { N_SPLITS,
  { name = "max_train_size", check = positive_integer(1), what = "an integer >= 1",
    doc = "cap on the training window (nil: all earlier samples)" },
  { name = "test_size", check = positive_integer(1), what = "an integer >= 1",
    doc = "samples per test set (nil: n / (n_splits + 1))" },
  { name = "gap", default = 0, check = positive_integer(0), what = "an integer >= 0",
    doc = "samples left out between training and test sets" },
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

splitters.PredefinedSplit = splitter("PredefinedSplit", {
  { name = "test_fold", check = luma.ismatrix, what = "a vector of fold numbers",
    doc = "test fold of each sample (0 or negative: always in training)" },
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
    -- (a tail call of get_n_splits: level 2 is its caller)
    if self.params.test_fold == nil then fail(2, "PredefinedSplit needs test_fold") end
    local flat = self.params.test_fold:flatten()
    return flat:select(flat:ge(1)):unique():rows()
  end)

-- ------------------------------------------------------- train_test_split

-- The positional form of test_size: train_test_split(X, y, 0.2).
local function test_size_positional(value)
  if type(value) == "number" then return { test_size = value } end
end

--- train_test_split(X, y [, {test_size = 0.25, train_size, shuffle = true,
-- stratify = labels, seed}]) -> X_train, X_test, y_train, y_test.
-- The options may be a test size alone: (X, y, 0.2), or (X, 0.2) without y.
function splitters.train_test_split(X, y, opts)
  if not common.is_data(X) then
    fail(2, "bad argument #1 to 'train_test_split' (X must be a luma.Matrix or a luma.Table, "
      .. "got %s)", type(X))
  end
  -- (X, opts) and (X, 0.2) leave y out; a list of labels is y, not options
  if opts == nil and (type(y) == "number" or (type(y) == "table" and getmetatable(y) == nil
    and rawget(y, 1) == nil)) then
    y, opts = nil, y
  end
  local n = common.n_rows(X)
  if y ~= nil then
    local count = labels.count(y)
    if count == nil then
      fail(2, "bad argument #2 to 'train_test_split' (y must be a luma.Matrix, a list of "
        .. "labels, a categorical column or a one-column luma.Table, got %s)", args.type_of(y))
    end
    if count ~= n then
      fail(2, "bad argument #2 to 'train_test_split' (X has %d rows but y has %d)", n, count)
    end
  end
  opts = common.options("train_test_split", 3, opts, test_size_positional, { test_size = true,
    train_size = true, shuffle = true, stratify = true, seed = true }, 2)
  local params = { test_size = opts.test_size or (opts.train_size == nil and 0.25 or nil),
                   train_size = opts.train_size }
  local train, test
  if opts.stratify ~= nil then
    if opts.shuffle == false then
      fail(2, "train_test_split: stratify needs shuffle = true")
    end
    local s = splitters.StratifiedShuffleSplit{ n_splits = 1, test_size = params.test_size,
      train_size = params.train_size, seed = opts.seed }
    train, test = s:split(X, opts.stratify)()
  elseif opts.shuffle == false then
    local n_train, n_test = split_sizes(params, n, 2)
    local tr, te = {}, {}
    for i = 1, n_train do tr[i] = i end
    for i = 1, n_test do te[i] = n_train + i end
    train, test = luma.matrix(tr), luma.matrix(te)
  else
    local s = splitters.ShuffleSplit{ n_splits = 1, test_size = params.test_size,
      train_size = params.train_size, seed = opts.seed }
    train, test = s:split(X)()
  end
  if y then
    return X:take(train), X:take(test), labels.take(y, train), labels.take(y, test)
  end
  return X:take(train), X:take(test)
end

-- ---------------------------------------------------------- check_cv

--- check_cv(cv, X, y, is_classifier [, groups]) -> a list of {train, test} pairs.
-- cv: nil (5 folds), an integer k (StratifiedKFold for classifiers, KFold
-- otherwise), a splitter, or any iterable of (train, test) pairs: an
-- iterator function, or a table of {train, test} tables.
function splitters.check_cv(cv, X, y, is_classifier, groups)
  if not (common.is_data(X) or (math.type(X) == "integer" and X >= 0)) then
    fail(2, "bad argument #2 to 'check_cv' (luma.Matrix, luma.Table or sample count >= 0 "
      .. "expected, got %s)",
      math.type(X) == "integer" and tostring(X) or args.type_of(X))
  end
  local splits = {}
  cv = cv or 5
  if type(cv) == "number" and not (math.type(cv) == "integer" and cv >= 2) then
    fail(2, "check_cv: cv must be an integer >= 2, got %s", tostring(cv))
  end
  if math.type(cv) == "integer" then
    local s = (is_classifier and y) and splitters.StratifiedKFold{ n_splits = cv }
      or splitters.KFold{ n_splits = cv }
    cv = s
  end
  if type(cv) == "table" and getmetatable(cv) and cv.split then
    for train, test in args.relay(2, function() return cv:split(X, y, groups) end) do
      splits[#splits + 1] = { train, test }
    end
  elseif type(cv) == "function" then
    for train, test in cv do splits[#splits + 1] = { train, test } end
  elseif type(cv) == "table" then
    for i, pair in ipairs(cv) do
      local function indices(v) return type(v) == "table" or luma.ismatrix(v) end
      if type(pair) ~= "table" or not indices(pair[1]) or not indices(pair[2]) then
        fail(2, "check_cv: cv entry %d must be a {train, test} pair of index lists or matrices", i)
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

return splitters
