--- Options tables (issue 29): every public function, method or class that
-- takes an options table rejects a key it does not know, with an error
-- that names the key and lists the valid ones -- a misspelt option
-- (normalise = true) must never be silently ignored.  The walk covers
-- whatever luma.repl.public_api() finds, as the help walk does, so a
-- function that lands later is checked as it lands: its help signature
-- says where its options table goes ("f(X [, opts])", "f(X [, {k = 5}])",
-- "Class{alpha = 1}").
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local repl = require("luma.repl")
local estimator = require("luma.estimator")

local WRONG = "definitely_not_an_option"

-- Parameters named params that are not options tables, with the reason.
local NOT_OPTIONS = {
  ["luma.tsa.ARIMA.loglikelihood"] = "params is the vector of the model's parameters",
  ["luma.nn.clip_grad_norm"] = "params is a list of Variables (model:parameters())",
  ["luma.nn.clip_grad_value"] = "params is a list of Variables (model:parameters())",
}

-- The parameter names of a signature's first form, and the position of
-- its options table: an opts/options parameter, a {...} written out (but
-- a list, "{A, B, ...}"), params (an estimator's or a prior's), or
-- set_params' values; a signature that is only a table, "f{...}", takes
-- it first.
local function parameters(signature, name)
  local sig = signature:match("^[^|]*")
  local call = sig:match("^[%w_.:]*(%b())") or sig:match("^[%w_.:]*(%b{})")
  if not call then return nil end
  local function is_list(braces) return braces:find("...", 1, true) ~= nil end
  if call:sub(1, 1) == "{" then
    if is_list(call) then return nil end
    return {}, 1
  end
  local inside = call:sub(2, -2):gsub("%b{}", function(b) return is_list(b) and "list" or "opts" end)
  inside = inside:gsub("[%[%]]", "")
  local list, at = {}, nil
  for piece in (inside .. ","):gmatch("([^,]*),") do
    local param = piece:match("^%s*([%a_][%w_]*)")
    if param then
      list[#list + 1] = param
      if param == "opts" or param == "options" or (param == "params" and not NOT_OPTIONS[name])
        or (param == "values" and name:match("%.set_params$")) then
        at = #list
      end
    end
  end
  return list, at
end

-- Arguments by parameter name: small valid inputs, so that a function
-- reaches its options whatever order it checks things in.
local g = luma.random.Generator(7)
local X = g:normal(12, 3)
local y01 = luma.matrix{ 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 }
local SPD = X:t() * X + luma.eye(3)
local GRAPH = luma.matrix{ { 0, 1, 1, 0 }, { 1, 0, 1, 0 }, { 1, 1, 0, 1 }, { 0, 0, 1, 0 } }
local STOCHASTIC = luma.matrix{ { 0.5, 0.5, 0 }, { 0.25, 0.5, 0.25 }, { 0, 0.5, 0.5 } }
local JOINT = luma.matrix{ { 0.25, 0.25 }, { 0.125, 0.375 } }
local function quadratic(x) return (x:t() * x):get(1, 1), x * 2 end
local BY_NAME = {
  X = X, A = SPD, B = luma.eye(3), Q = SPD, c = luma.ones(3, 1), M = X, G = GRAPH, W = GRAPH,
  P = STOCHASTIC, affinity = GRAPH, y = y01, y_true = y01, y_pred = y01, scores = X:col(1),
  prob = luma.full(12, 1, 0.5), x = X:col(1), p = luma.full(3, 1, 1 / 3),
  q = luma.full(3, 1, 1 / 3), values = X:col(1), samples = X, n = 5, k = 2, steps = 3,
  order = 2, n_neighbors = 2, radius = 1.0, epsilon = 1.0, n_clusters = 2, b = luma.ones(3, 1),
  beta = 2, f = quadratic, x0 = luma.zeros(3, 1), lo = 0, hi = 1, text = "a,b\n1,2\n",
  name = "rbf", method = "single", metric = "euclidean", mode = "connectivity",
  effect_size = 0.5, eps = 0.1, input_size = 3, hidden_size = 2, users = 1,
  R = luma.sparse.csr(3, 3, { 1, 2, 3, 3 }, { 1, 2, 1, 3 }, { 1, 2, 3, 4 }),
  T = luma.Table{ user = luma.matrix{ 1, 2 }, item = luma.matrix{ 1, 1 }, rating = luma.matrix{ 4, 5 } },
}

-- Files for the readers, removed when the spec ends.
local CSV, LIBSVM, NPY, SCRATCH = os.tmpname(), os.tmpname(), os.tmpname(), os.tmpname()
do
  local f = assert(io.open(CSV, "w"))
  f:write("a,b\n1,2\n3,4\n")
  f:close()
  f = assert(io.open(LIBSVM, "w"))
  f:write("1 1:0.5 2:1\n0 1:1\n")
  f:close()
  luma.io.write_npy(X, NPY)
end
BY_NAME.source = LIBSVM -- (luma.sparse.read_libsvm's file)

-- The base estimator meta classes wrap in their examples: a ridge-like
-- model that also transforms (as tests/persist_registry_spec.lua's).
local Base = estimator.class{
  name = "options_test.Base", kind = "regressor", doc = "base",
  params = { { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" } },
  fit = function(self, Xf, yf)
    self.coef = luma.linalg.solve(Xf:t() * Xf + luma.eye(Xf:cols()) * self.params.alpha, Xf:t() * yf)
  end,
  predict = function(self, Xp) return Xp * self.coef end,
  transform = function(self, Xt) return Xt * self.coef end,
}

local function fitted(class)
  local est, Xe, ye = class.example(Base{})
  est:fit(Xe, ye)
  return est, Xe, ye
end

local function figure() return luma.plot.figure{ width = 120, height = 90 } end
local function phi(t) return (t - 1) ^ 2 end
local ridge = luma.linear.Ridge{}:fit(X, X:col(1))
local tree = luma.tree.DecisionTreeClassifier{ max_depth = 2 }:fit(X, y01)
local chain = luma.markov.MarkovChain{}:fit(luma.matrix{ 1, 2, 1, 3, 2, 1, 1, 2, 3, 3 })
local col = X:col(1)

-- Where the names above do not fit: the arguments of the call, BAD at the
-- options table's place.
local CALLS = {
  ["luma.recommend.evaluate"] = function(bad)
    local est, Xe, ye = luma.recommend.AltMin.example()
    est:fit(Xe, ye)
    return est, luma.sparse.csr(6, 5, { 1 }, { 2 }, { 3 }), bad
  end,
  ["luma.Generator.choice"] = function(bad) return luma.random.Generator(1), { 1, 2, 3 }, 2, bad end,
  ["luma.Matrix.unique"] = function(bad) return luma.matrix{ 1, 2, 2 }, bad end,
  ["luma.Table.Categorical"] = function(bad) return { "a", "b" }, bad end,
  ["luma.Table.rename"] = function(bad) return luma.Table{ a = { 1, 2 } }, bad end,
  ["luma.bayes.DirichletCategorical"] = function(bad)
    bad.alpha = { 1, 1 }
    return bad
  end,
  ["luma.bayes.DirichletCategorical.update"] = function(bad)
    return luma.bayes.DirichletCategorical{ alpha = { 1, 1 } }, luma.matrix{ 1, 2 }, bad
  end,
  ["luma.bayes.NormalInverseWishart"] = function(bad)
    bad.delta = { 0, 0 }
    return bad
  end,
  ["luma.bayes.NormalKnownVariance"] = function(bad)
    bad.sigma = 1
    return bad
  end,
  ["luma.bayes.NaturalConjugate"] = function(bad)
    bad.family, bad.lambda, bad.y = luma.dist.Poisson{ lambda = 1 }, 1, 1
    return bad
  end,
  ["luma.datasets.load"] = function(bad) return "iris", bad end,
  ["luma.dist.Binomial.fit"] = function(bad)
    bad.n = 4
    return luma.matrix{ 1, 2, 3 }, bad
  end,
  ["luma.dist.Categorical.fit"] = function(bad) return luma.matrix{ 1, 2, 2 }, bad end,
  ["luma.dist.NegativeBinomial.fit"] = function(bad) return luma.matrix{ 1, 2, 5, 0 }, bad end,
  ["luma.io.read_csv"] = function(bad) return CSV, bad end,
  ["luma.io.read_libsvm"] = function(bad) return LIBSVM, bad end,
  ["luma.io.read_npy"] = function(bad) return NPY, bad end,
  ["luma.io.open_npy"] = function(bad) return NPY, bad end,
  ["luma.io.write_csv"] = function(bad) return X, SCRATCH, bad end,
  ["luma.sparse.npz_bytes"] = function(bad) return luma.sparse.eye(2), bad end,
  ["luma.sparse.write_npz"] = function(bad) return SCRATCH, luma.sparse.eye(2), bad end,
  ["luma.info.conditional_entropy"] = function(bad) return JOINT, bad end,
  ["luma.info.joint_entropy"] = function(bad) return JOINT, bad end,
  ["luma.info.mutual_information"] = function(bad) return JOINT, bad end,
  ["luma.info.kl_mvnormal"] = function(bad)
    return luma.zeros(2, 1), luma.eye(2), luma.ones(2, 1), luma.eye(2), bad
  end,
  ["luma.info.kl_normal"] = function(bad) return 0, 1, 1, 2, bad end,
  ["luma.inspection.permutation_importance"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.markov.google_matrix"] = function(bad) return GRAPH, bad end,
  ["luma.markov.random_walk"] = function(bad) return GRAPH, 3, bad end,
  ["luma.matrix.hstack"] = function(bad)
    bad[1], bad[2] = luma.eye(2), luma.eye(2)
    return bad
  end,
  ["luma.matrix.vstack"] = function(bad)
    bad[1], bad[2] = luma.eye(2), luma.eye(2)
    return bad
  end,
  ["luma.metrics.make_scorer"] = function(bad) return luma.metrics.r2_score, bad end,
  ["luma.model_selection.cross_val_predict"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.model_selection.cross_val_score"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.model_selection.cross_validate"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.model_selection.learning_curve"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.model_selection.validation_curve"] = function(bad)
    bad.param_name, bad.param_range = "alpha", { 1, 2 }
    return ridge, X, X:col(1), bad
  end,
  ["luma.montecarlo.estimate"] = function(bad)
    return function(v) return v:get(1, 1) end, luma.dist.Normal{}, 10, bad
  end,
  ["luma.montecarlo.gibbs"] = function(bad)
    bad.conditionals = { function() return 0 end, function() return 0 end }
    bad.init, bad.n = { 0, 0 }, 3
    return bad
  end,
  ["luma.montecarlo.importance_sampling"] = function(bad)
    return function(v) return v:get(1, 1) end, function(v) return -0.5 * v:get(1, 1) ^ 2 end,
      luma.dist.Normal{}, 10, bad
  end,
  ["luma.montecarlo.metropolis_hastings"] = function(bad)
    bad.log_density, bad.init, bad.n = function() return 0 end, 0, 3
    return bad
  end,
  ["luma.montecarlo.rejection_sampling"] = function(bad)
    return function(v) return -0.5 * v:get(1, 1) ^ 2 end, luma.dist.Normal{}, 2, 3, bad
  end,
  ["luma.optim.armijo"] = function(bad) return phi, 1, -2, bad end,
  ["luma.optim.strong_wolfe"] = function(bad)
    return function(t) return (t - 1) ^ 2, 2 * (t - 1) end, 1, -2, bad
  end,
  ["luma.optim.barrier"] = function(bad)
    return quadratic, function(x) return x - 5, luma.eye(3) end, luma.zeros(3, 1), bad
  end,
  ["luma.optim.bracket"] = function(bad) return phi, 0, 0.5, bad end,
  ["luma.nn.Linear"] = function(bad) return 3, 2, bad end,
  ["luma.nn.BatchNorm1d"] = function(bad) return 3, bad end,
  ["luma.nn.LayerNorm"] = function(bad) return 3, bad end,
  ["luma.nn.Embedding"] = function(bad) return 5, 2, bad end,
  ["luma.nn.Dropout"] = function(bad) return 0.5, bad end,
  ["luma.nn.Dropout2d"] = function(bad) return 0.5, bad end,
  ["luma.optim.brent"] = function(bad) return phi, 0, 0.5, 3, bad end,
  ["luma.optim.golden_section"] = function(bad) return phi, 0, 0.5, 3, bad end,
  ["luma.optim.check_grad"] = function(bad)
    return function(x) return (x:t() * x):get(1, 1) end, function(x) return x * 2 end,
      luma.ones(3, 1), bad
  end,
  ["luma.optim.jacobian"] = function(bad) return function(x) return x * 2 end, luma.ones(3, 1), bad end,
  ["luma.optim.penalty"] = function(bad)
    return quadratic, function(x) return luma.matrix{ x:sum() - 1 }, luma.ones(1, 3) end,
      luma.zeros(3, 1), bad
  end,
  ["luma.optim.projected_gradient"] = function(bad)
    return quadratic, luma.ones(3, 1), luma.zeros(3, 1) - 1, luma.ones(3, 1) * 2, bad
  end,
  ["luma.optim.minimize_scalar"] = function(bad) return phi, bad end,
  ["luma.optim.root_scalar"] = function(bad)
    bad.bracket = { 0, 2 }
    return function(t) return t - 1 end, bad
  end,
  ["luma.parallel.map"] = function(bad) return function(t) return t end, { 1, 2 }, bad end,
  ["luma.plot.elbow"] = function(bad) return { 1, 2, 3 }, { 3, 2, 1 }, bad end,
  ["luma.plot.learning_curve"] = function(bad) return ridge, X, X:col(1), bad end,
  ["luma.plot.validation_curve"] = function(bad)
    bad.param_name, bad.param_range = "alpha", { 1, 2 }
    return ridge, X, X:col(1), bad
  end,
  ["luma.plot.Axes.arrow"] = function(bad) return figure():axes(1, 1), 0, 0, 1, 1, bad end,
  ["luma.plot.terminal"] = function(bad) return figure(), bad end,
  ["luma.stats.bootstrap"] = function(bad)
    return col, function(v) return v:mean() end, bad
  end,
  ["luma.stats.permutation_test"] = function(bad)
    return col, col + 1, function(a, b) return a:mean() - b:mean() end, bad
  end,
  ["luma.tree.export_graphviz"] = function(bad) return tree, bad end,
  ["luma.tree.export_text"] = function(bad) return tree, bad end,
  ["luma.tree.prune_cv"] = function(bad) return luma.tree.DecisionTreeClassifier{}, X, y01, bad end,
  ["luma.tsa.undiff"] = function(bad) return luma.matrix{ 1, 2 }, luma.matrix{ 0 }, bad end,
  ["luma.markov.MarkovChain.stationary"] = function(bad) return chain, bad end,
  ["luma.gaussian_process.GaussianProcessClassifier.log_marginal_likelihood"] = function(bad)
    local est = fitted(luma.gaussian_process.GaussianProcessClassifier)
    return est, nil, bad
  end,
  ["luma.gaussian_process.GaussianProcessRegressor.log_marginal_likelihood"] = function(bad)
    local est = fitted(luma.gaussian_process.GaussianProcessRegressor)
    return est, nil, bad
  end,
}

-- Instances for the methods of types other than estimators.
local SELVES = {
  ["luma.pgm.BayesianNetwork"] = function()
    local bn = luma.pgm.BayesianNetwork{ { "a", "b" } }
    bn:set_cpt("a", { states = { "x", "y" }, probs = { 0.5, 0.5 } })
    return bn:set_cpt("b", { states = { "x", "y" }, parents = { "a" }, probs = { { 1, 0 }, { 0, 1 } } })
  end,
  ["luma.pgm.DiGraph"] = function() return luma.pgm.DiGraph{ { "a", "b" } } end,
  ["luma.pgm.Graph"] = function() return luma.pgm.Graph{ { "a", "b" } } end,
  ["luma.pgm.MarkovNetwork"] = function()
    return luma.pgm.MarkovNetwork():add_variable("a", 2):add_factor({ "a" }, { 1, 2 })
  end,
  ["luma.pgm.FactorGraph"] = function()
    return luma.pgm.FactorGraph():add_variable("a", 2):add_factor({ "a" }, { 1, 2 })
  end,
  ["luma.plot.Axes"] = function() return figure():axes(1, 1) end,
  ["luma.plot.Figure"] = figure,
  ["luma.bayes.BetaBernoulli"] = function() return luma.bayes.BetaBernoulli{} end,
  ["luma.bayes.GammaPoisson"] = function() return luma.bayes.GammaPoisson{} end,
  ["luma.bayes.NormalInverseGamma"] = function() return luma.bayes.NormalInverseGamma{} end,
  ["luma.bayes.DirichletCategorical"] = function()
    return luma.bayes.DirichletCategorical{ alpha = { 1, 1 } }
  end,
  ["luma.bayes.NormalKnownVariance"] = function() return luma.bayes.NormalKnownVariance{ sigma = 1 } end,
  ["luma.bayes.NaturalConjugate"] = function()
    return luma.bayes.NaturalConjugate{ family = luma.dist.Poisson{ lambda = 1 }, lambda = 1, y = 1 }
  end,
  ["luma.bayes.NormalInverseWishart"] = function()
    return luma.bayes.NormalInverseWishart{ delta = { 0, 0 } }
  end,
  ["luma.pgm.BoltzmannMachine"] = function()
    return require("luma.pgm.rbm").BoltzmannMachine{ W = luma.zeros(2, 2) }
  end,
}

-- Plot arguments by parameter name (coordinates as columns).
local PLOT = { x = col, y = col, y1 = col, y2 = col, yerr = col:abs(), heights = col:abs(),
  Z = luma.eye(3), s = "text", values = col, path = "/dev/null" }

-- The arguments of entry e's call with bad at its options table.
local function arguments(e, list, at, bad)
  local custom = CALLS[e.name]
  if custom then return table.pack(custom(bad)) end
  local argv, n = {}, 0
  local owner = e.name:match("^(.*)%.[%w_]+$")
  local is_method = e.record.signature:find("^[%w_]+:") ~= nil
  local class = luma
  for part in owner:gmatch("[^.]+") do
    if part ~= "luma" then class = type(class) == "table" and class[part] or nil end
  end
  if owner == "luma" or type(class) ~= "table" or not class.example then class = nil end
  local Xm = X
  if is_method then
    if class then
      local est, Xe = fitted(class)
      argv[1], Xm = est, Xe
    elseif SELVES[owner] then
      argv[1] = SELVES[owner]()
    else
      argv[1] = ridge -- estimator.set_params and other shared methods
    end
    n = 1
  end
  local plot = owner and owner:match("^luma%.plot") ~= nil
  for i, p in ipairs(list) do
    local v
    if i == at then v = bad
    elseif p == "X" then v = Xm
    elseif plot and PLOT[p] ~= nil then v = PLOT[p]
    else v = BY_NAME[p] end
    argv[n + i] = v
  end
  if at > #list then argv[n + at] = bad end
  argv.n = n + math.max(#list, at)
  return argv
end

describe("options tables", function()
  teardown(function()
    for _, path in ipairs({ CSV, LIBSVM, NPY, SCRATCH }) do os.remove(path) end
  end)

  it("reject an unknown key everywhere, naming it and listing the valid ones", function()
    local checked, failures = 0, {}
    for _, e in ipairs(repl.public_api()) do
      local sig = e.record and e.record.signature
      local list, at
      if sig and e.kind ~= "module" then list, at = parameters(sig, e.name) end
      if at then
        checked = checked + 1
        local ok, err = pcall(function()
          local argv = arguments(e, list, at, { [WRONG] = 1 })
          return e.value(table.unpack(argv, 1, argv.n))
        end)
        err = tostring(err)
        if ok then
          failures[#failures + 1] = e.name .. ": accepted " .. WRONG
        elseif not (err:find("unknown option '" .. WRONG .. "'", 1, true)
          or err:find("unknown parameter '" .. WRONG .. "'", 1, true))
          or not err:find("valid", 1, true) then
          failures[#failures + 1] = e.name .. ": " .. err
        end
      end
    end
    assert.is_true(checked >= 350, "only " .. checked .. " functions with options found")
    assert(#failures == 0, string.format("\n%d of %d calls did not reject %s:\n  %s", #failures,
      checked, WRONG, table.concat(failures, "\n  ")))
  end)
end)
