-- luma.nn.mlp: multilayer perceptron estimators, MLPClassifier and
-- MLPRegressor, with scikit-learn's parameters and fitted attributes
-- (docs/NN.md, "MLP estimators"; notes 001 section J).
--
-- The network and its objective are scikit-learn's (sklearn/neural_network,
-- 1.2): weights fan_in x fan_out with Glorot-uniform starting values
-- (bound sqrt(6 / (fan_in + fan_out)), sqrt(2 / ...) for the logistic
-- activation) for weights and biases alike; the loss is half the mean
-- squared error (regression), the mean log loss with a logistic output for
-- two classes or a softmax for more, plus alpha / (2 n) times the sum of
-- the squared weights (not the biases), n the batch's rows.  Gradients
-- come from luma.autograd; "adam" and "sgd" step luma.optim's optimizers
-- over mini-batches, "lbfgs" runs luma.optim.minimize on all the
-- parameters at once.  Beyond scikit-learn: dropout and batch_norm
-- between the hidden layers, and label_smoothing of the classifier's
-- targets (two classes: 0 -> eps, 1 -> 1 - eps; more: as luma.nn.CrossEntropyLoss).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local autograd = require("luma.autograd")
local layers = require("luma.nn.layers")
local losses = require("luma.nn.losses")
local parallel = require("luma.nn.parallel")

local fail = args.fail
local Variable = autograd.Variable

local M = {}

-- What a fit keeps beside the estimator and never saves: the parameters'
-- Variables, the optimizer, the generator, the batch-norm and dropout
-- modules.  A loaded estimator starts without and makes what it needs.
local runtime_of, set_runtime = require("luma.util.runtime").store()

local ACTIVATIONS = {
  identity = function(h) return h end,
  logistic = function(h) return h:sigmoid() end,
  tanh = function(h) return h:tanh() end,
  relu = function(h) return h:relu() end,
}

local function check_sizes(self, list, what)
  for i, h in ipairs(list) do
    if math.type(h) ~= "integer" or h < 1 then
      fail(6, "%s: %s[%d] must be a positive integer, got %s", self.__class.short_name, what, i, tostring(h))
    end
  end
end

-- The layer sizes: n_features, the hidden sizes, n_outputs.  An
-- autoencoder's are n_features, the hidden sizes, n_components (the
-- code), the hidden sizes reversed, n_features; self.code_layer is the
-- layer whose output is the code.
local function layer_sizes(self, n_features, n_outputs)
  local hidden = self.params.hidden_layer_sizes
  check_sizes(self, hidden, "hidden_layer_sizes")
  local sizes = { n_features }
  for _, h in ipairs(hidden) do sizes[#sizes + 1] = h end
  if self.__class.kind == "transformer" and self.params.loss == nil then
    sizes[#sizes + 1] = self.params.n_components
    self.code_layer = #sizes - 1
    for i = #hidden, 1, -1 do sizes[#sizes + 1] = hidden[i] end
  end
  sizes[#sizes + 1] = n_outputs
  return sizes
end

-- Whether the network regresses (MLPRegressor, Autoencoder).
local function regresses(self) return self.__class.kind ~= "classifier" end

-- scikit-learn's starting values, drawn from the estimator's generator;
-- with batch_norm, each hidden layer's scale, shift and running
-- statistics (batch_norms[i], saved with the estimator).
local function initialize(self, sizes, g)
  local factor = self.params.activation == "logistic" and 2 or 6
  self.coefs, self.intercepts = {}, {}
  for i = 1, #sizes - 1 do
    local bound = math.sqrt(factor / (sizes[i] + sizes[i + 1]))
    self.coefs[i] = g:uniform(sizes[i], sizes[i + 1]) * (2 * bound) - bound
    self.intercepts[i] = g:uniform(1, sizes[i + 1]) * (2 * bound) - bound
  end
  self.n_layers = #sizes
  self.n_outputs = sizes[#sizes]
  if self.params.batch_norm then
    self.batch_norms = {}
    for i = 1, #sizes - 2 do
      self.batch_norms[i] = { weight = luma.ones(1, sizes[i + 1]), bias = luma.zeros(1, sizes[i + 1]),
        running_mean = luma.zeros(1, sizes[i + 1]), running_var = luma.ones(1, sizes[i + 1]) }
    end
  end
end

-- The modules between the hidden layers, made on first use: BatchNorm1d
-- over the saved batch_norms matrices (shared, so training updates them)
-- and Dropout drawing from the fit's generator.
local function hidden_modules(self)
  local r = runtime_of(self)
  if r.norms then return r.norms, r.drops end
  r.norms, r.drops = {}, {}
  for i, state in ipairs(self.batch_norms or {}) do
    local bn = layers.BatchNorm1d(state.weight:cols())
    bn.weight, bn.bias = Variable(state.weight, { requires_grad = true }), Variable(state.bias, { requires_grad = true })
    bn.running_mean, bn.running_var = state.running_mean, state.running_var
    r.norms[i] = bn
  end
  if (self.params.dropout or 0) > 0 then
    for i = 1, #self.coefs - 1 do
      r.drops[i] = layers.Dropout(self.params.dropout, { generator = r.generator or luma.random.Generator() })
    end
  end
  return r.norms, r.drops
end

-- The network's parameters as Variables sharing the fitted matrices, in
-- the order coefs, intercepts, then the batch norms' weights and biases.
local function variables(self)
  local r = runtime_of(self)
  if r.vars then return r.vars end
  local list = {}
  for i = 1, #self.coefs do list[#list + 1] = Variable(self.coefs[i], { requires_grad = true }) end
  for i = 1, #self.intercepts do list[#list + 1] = Variable(self.intercepts[i], { requires_grad = true }) end
  local norms = hidden_modules(self)
  for _, bn in ipairs(norms) do
    list[#list + 1] = bn.weight
    list[#list + 1] = bn.bias
  end
  r.vars = list
  return list
end

-- The values of layers first..last (1-based, of #coefs) from the input
-- h of layer first: every hidden layer's activation follows it, but an
-- autoencoder's code layer takes code_activation.
local function through(self, h, first, last, training)
  local vars = variables(self)
  local norms, drops = hidden_modules(self)
  local L = #self.coefs
  local act = ACTIVATIONS[self.params.activation]
  h = autograd.is_variable(h) and h or Variable(h)
  for i = first, last do
    h = autograd.addmm(vars[L + i], h, vars[i])
    if i == self.code_layer then
      h = ACTIVATIONS[self.params.code_activation](h)
    elseif i < L then
      local bn = norms[i]
      if bn then h = bn:train(training)(h) end
      h = act(h)
      local drop = drops[i]
      if drop then h = drop:train(training)(h) end
    end
  end
  return h
end

-- The output layer's raw values (before the output activation).
local function forward(self, X, training)
  return through(self, X, 1, #self.coefs, training)
end

-- The data loss of one batch: half the mean squared error, or the mean
-- log loss of the logistic or softmax output.
local function data_loss(self, X, T, training)
  local z = forward(self, X, training)
  local n = X:rows()
  if regresses(self) then
    local d = z - T
    return d:mul(d):sum() * (0.5 / n)
  elseif self.n_outputs == 1 then
    -- binary log loss on the logistic output, computed from the logits
    return (z:softplus() - z:mul(T)):sum() / n
  end
  return -(z:log_softmax(2):mul(T)):sum() / n
end

-- Adds the penalty's gradient (alpha / n) W to each weight's grad and
-- returns the penalty alpha / (2 n) sum |W|^2 of a batch of n rows, in
-- closed form: through the graph it cost six passes over every weight.
local function add_penalty(self, n)
  local alpha = self.params.alpha
  if alpha == 0 then return 0 end
  local vars, total = variables(self), 0
  for i = 1, #self.coefs do
    local W = vars[i].value
    total = total + W:dot(W)
    local step, g = W * (alpha / n), vars[i].grad
    vars[i].grad = g and g:add(step, g) or step
  end
  return total * (alpha / (2 * n))
end

-- The objective's gradient at the current weights on one batch, into the
-- parameters' grads (which must be clear); returns the objective and the
-- loss scikit-learn reports for it.  They differ only for a regressor of
-- t > 1 outputs: scikit-learn reports half the mean over all n t squared
-- errors but its gradient (deltas divided by n alone) is that of half
-- their sum over n, which is what it minimizes.  With data_parallel the
-- data loss's gradient comes from luma.nn.DataParallel across the MPI
-- ranks; the penalty's is added on every rank alike.
local function gradient(self, X, T)
  local parallel_ = runtime_of(self).parallel
  local data
  if parallel_ then
    data = parallel_:backward(function(Xs, Ts) return data_loss(self, Xs, Ts, true) end, X, T)
  else
    local loss = data_loss(self, X, T, true)
    data = loss.value:get(1, 1)
    if data == data then loss:backward() end
  end
  local pen = add_penalty(self, X:rows())
  local reported_scale = regresses(self) and 1 / T:cols() or 1
  return data + pen, data * reported_scale + pen
end

-- The targets the network fits: y itself (regression), the class
-- indicator (two classes) or one-hot rows, smoothed as asked.
local function targets(self, y)
  if regresses(self) then return y end
  local k = self.classes:rows()
  local indicator = y:col(1):eq(self.classes:t())
  local unknown = indicator:sum(2):eq(0)
  if unknown:any() then
    local i = unknown:argmax(1):get(1, 1)
    fail(6, "%s: label %.15g (row %d) is not one of the classes", self.__class.short_name, y:get(i, 1), i)
  end
  local codes = indicator:argmax(2)
  local eps = self.params.label_smoothing
  if k == 2 then
    local t = codes:eq(2)
    return eps > 0 and t * (1 - 2 * eps) + eps or t
  end
  local onehot = codes:eq(luma.arange(1, k):t())
  return eps > 0 and onehot * (1 - eps) + eps / k or onehot
end

-- Validation score during the fit (before the estimator counts as
-- fitted): accuracy or R^2, as scikit-learn's score.
local function score_of(self, X, y)
  local z = autograd.no_grad(function() return forward(self, X, false).value end)
  if regresses(self) then return luma.metrics.r2_score(y, z) end
  local codes = self.n_outputs == 1 and z:gt(0) + 1 or z:argmax(2)
  return luma.metrics.accuracy_score(y, self.classes:take(codes))
end

local function copy_all(list)
  local out = {}
  for i, M_ in ipairs(list) do out[i] = M_:copy() end
  return out
end

local function restore(dst, src)
  for i = 1, #dst do dst[i]:assign(src[i]) end
end

local function make_optimizer(self, n)
  local p = self.params
  local params = variables(self)
  if p.solver == "adam" or p.solver == nil then -- (MetricEmbedding has no solver: adam)
    -- eps outside the root, as scikit-learn's AdamOptimizer
    return luma.optim.Adam{ lr = p.learning_rate_init, beta1 = p.beta_1, beta2 = p.beta_2,
      eps = p.epsilon, eps_placement = "outside", params = params }
  end
  local lr = p.learning_rate_init
  if p.learning_rate == "invscaling" then
    -- scikit-learn: lr_init / (t + 1)^power_t, t the samples seen
    local batch = p.batch_size or math.min(200, n)
    lr = function(t) return p.learning_rate_init / ((t - 1) * batch + 1) ^ p.power_t end
  end
  if p.momentum == 0 then return luma.optim.SGD{ lr = lr, params = params } end
  local cls = p.nesterovs_momentum and luma.optim.Nesterov or luma.optim.Momentum
  return cls{ lr = lr, momentum = p.momentum, params = params }
end

-- One pass over X, T in mini-batches; returns the mean loss.
local function epoch(self, X, T, g)
  local p = self.params
  local n = X:rows()
  local batch = math.min(p.batch_size or math.min(200, n), n)
  local order = p.shuffle and g:permutation(n) or luma.arange(1, n)
  local total = 0
  for start = 1, n, batch do
    local stop = math.min(start + batch - 1, n)
    local idx = order:sub(start, stop)
    local Xb, Tb = X:take(idx), T:take(idx)
    local opt = runtime_of(self).optimizer
    opt:zero_grad()
    local _, value = gradient(self, Xb, Tb)
    if value ~= value then
      fail(5, "%s: the loss became NaN at epoch %d, batch starting at row %d; lower "
        .. "learning_rate_init or scale X", self.__class.short_name, self.n_iter + 1, start)
    end
    opt:step()
    total = total + value * (stop - start + 1)
  end
  return total / n
end

-- The mini-batch solvers: epochs until max_iter, or until the loss (or,
-- with early_stopping, the validation score) has not improved by tol for
-- n_iter_no_change epochs; "adaptive" divides the rate by 5 instead while
-- it is above 1e-6.
local function fit_stochastic(self, X, T, y, g, incremental)
  local p = self.params
  local r = runtime_of(self)
  if not r.optimizer then r.optimizer = make_optimizer(self, X:rows()) end
  if p.data_parallel and not r.parallel then
    -- batch norm's statistics and dropout's draws would differ between
    -- shards computed on different ranks, and the ranks would drift apart
    if p.batch_norm or p.dropout > 0 then
      fail(5, "%s: data_parallel cannot be combined with batch_norm or dropout (each rank "
        .. "would draw or normalize its shards differently)", self.__class.short_name)
    end
    r.parallel = parallel.DataParallel{ params = variables(self),
      shards = p.data_parallel ~= true and p.data_parallel or nil }
  end
  local Xv, yv
  if p.early_stopping and not incremental then
    local ytrain
    X, Xv, ytrain, yv = luma.model_selection.train_test_split(X, y, { test_size = p.validation_fraction,
      seed = g, stratify = self.__class.kind == "classifier" and y or nil })
    T = targets(self, ytrain)
    self.validation_scores = self.validation_scores or {}
  end
  self.loss_curve = self.loss_curve or {}
  local stall, best_params = 0, nil
  local epochs = incremental and 1 or p.max_iter
  for _ = 1, epochs do
    local loss = epoch(self, X, T, g)
    self.n_iter = self.n_iter + 1
    self.loss_curve[#self.loss_curve + 1] = loss
    if p.verbose > 0 then print(string.format("Iteration %d, loss = %.8f", self.n_iter, loss)) end
    local improved
    if Xv then
      local s = score_of(self, Xv, yv)
      self.validation_scores[#self.validation_scores + 1] = s
      improved = self.best_validation_score == nil or s > self.best_validation_score + p.tol
      if self.best_validation_score == nil or s > self.best_validation_score then
        self.best_validation_score = s
        best_params = { copy_all(self.coefs), copy_all(self.intercepts) }
      end
    else
      improved = self.best_loss == nil or loss < self.best_loss - p.tol
      if self.best_loss == nil or loss < self.best_loss then self.best_loss = loss end
    end
    stall = improved and 0 or stall + 1
    if not incremental and stall >= p.n_iter_no_change then
      local opt = r.optimizer
      if p.solver == "sgd" and p.learning_rate == "adaptive" and opt.lr > 1e-6 then
        opt.lr = opt.lr / 5
        stall = 0
      else
        break
      end
    end
  end
  if best_params then
    restore(self.coefs, best_params[1])
    restore(self.intercepts, best_params[2])
  end
end

-- L-BFGS over every parameter at once (scikit-learn's "lbfgs": maxiter
-- max_iter, gtol tol).
local function fit_lbfgs(self, X, T)
  local p = self.params
  local vars = variables(self)
  local sizes = {}
  for i, v in ipairs(vars) do sizes[i] = v.value:rows() * v.value:cols() end
  local function unpack_into(x)
    local at = 1
    for i, v in ipairs(vars) do
      v.value:assign(x:sub(at, at + sizes[i] - 1):reshape(v.value:rows(), v.value:cols()))
      at = at + sizes[i]
    end
  end
  local function flat(list)
    local parts = {}
    for i, M_ in ipairs(list) do parts[i] = M_:flatten() end
    return luma.matrix.vstack(parts)
  end
  local curve, reported = {}, nil
  local function f(x)
    unpack_into(x)
    for _, v in ipairs(vars) do v.grad = nil end
    local value
    value, reported = gradient(self, X, T)
    local grads = {}
    for i, v in ipairs(vars) do grads[i] = v.grad or luma.zeros(v.value:rows(), v.value:cols()) end
    return value, flat(grads)
  end
  local x0 = flat((function() local l = {} for i, v in ipairs(vars) do l[i] = v.value end return l end)())
  local r = luma.optim.minimize(f, x0, { method = "lbfgs", max_iter = p.max_iter, gtol = p.tol,
    -- (the last evaluation is the accepted point of the iteration)
    callback = function() curve[#curve + 1] = reported end })
  -- the last evaluation leaves the weights at r.x and its reported loss
  f(r.x)
  self.n_iter = r.iterations
  self.best_loss = reported
  if #curve == 0 then curve[1] = reported end
  curve[#curve] = reported
  self.loss_curve = curve
end

local function fit_network(self, X, y, incremental)
  local p = self.params
  local fname = incremental and "partial_fit" or "fit"
  args.finite(X, 1, fname, 4)
  if X:rows() == 0 or X:rows() ~= y:rows() then
    fail(4, "bad argument #2 to '%s' (X has %d rows and y %d; both need the same number, at least 1)",
      fname, X:rows(), y:rows())
  end
  if not (incremental and self.coefs) then
    -- a fresh network: the seed's generator draws it, shuffles, drops out
    set_runtime(self, { generator = estimator.rng(p.seed) })
    local n_out = regresses(self) and y:cols()
      or (self.classes:rows() == 2 and 1 or self.classes:rows())
    initialize(self, layer_sizes(self, X:cols(), n_out), runtime_of(self).generator)
    self.n_iter, self.loss_curve, self.best_loss = 0, nil, nil
    self.validation_scores, self.best_validation_score = nil, nil
  elseif X:cols() ~= self.coefs[1]:rows() then
    fail(4, "%s: X has %d features but the network was fitted with %d", self.__class.short_name,
      X:cols(), self.coefs[1]:rows())
  end
  local r = runtime_of(self)
  r.generator = r.generator or estimator.rng(p.seed)
  local T = targets(self, y)
  if p.solver == "lbfgs" then
    if incremental then fail(4, "%s: partial_fit needs solver \"adam\" or \"sgd\"", self.__class.short_name) end
    fit_lbfgs(self, X, T)
  else
    fit_stochastic(self, X, T, y, r.generator, incremental)
  end
  self.loss = self.loss_curve[#self.loss_curve]
  self.out_activation = regresses(self) and "identity"
    or (self.n_outputs == 1 and "logistic" or "softmax")
end

-- Layers first..last (default all) of a fitted network on X at
-- inference, after checking X: finite, with the columns layer first takes
-- (the methods' errors are raised again at their caller's line).
local function run_layers(self, X, fname, first, last)
  first, last = first or 1, last or #self.coefs
  args.finite(X, 1, fname, 3)
  local width = self.coefs[first]:rows()
  if X:cols() ~= width then
    fail(3, "%s: X has %d columns but the network's layer %d takes %d", fname, X:cols(), first, width)
  end
  return autograd.no_grad(function() return through(self, X, first, last, false).value end)
end


--- loss_gradient(est, X, y) -> loss, coef_grads, intercept_grads: the
-- objective of a fitted network at its current weights on X, y and its
-- gradients (lists like coefs and intercepts), as scikit-learn's
-- _backprop computes them (tests/nn/mlp_spec.lua compares the two).
function M.loss_gradient(est, X, y)
  local vars = variables(est)
  for _, v in ipairs(vars) do v.grad = nil end
  local _, reported = gradient(est, X, targets(est, y))
  local L = #est.coefs
  local coef_grads, intercept_grads = {}, {}
  for i = 1, L do
    coef_grads[i] = vars[i].grad
    intercept_grads[i] = vars[L + i].grad
  end
  return reported, coef_grads, intercept_grads
end

local PARAMS = {
  { name = "hidden_layer_sizes", type = "table", default = { 100 },
    doc = "the sizes of the hidden layers, in order" },
  { name = "activation", type = "string", default = "relu", values = { "identity", "logistic", "tanh", "relu" },
    doc = "the hidden layers' activation" },
  { name = "solver", type = "string", default = "adam", values = { "adam", "sgd", "lbfgs" },
    doc = "adam and sgd over mini-batches, or L-BFGS over the whole data" },
  { name = "alpha", type = "number", default = 0.0001, min = 0, doc = "L2 penalty: alpha / (2 n) times the sum of squared weights" },
  { name = "batch_size", type = "integer", min = 1, doc = "rows per mini-batch (default min(200, n))" },
  { name = "learning_rate", type = "string", default = "constant", values = { "constant", "invscaling", "adaptive" },
    doc = "sgd's rate: constant, learning_rate_init / (t + 1)^power_t (t samples seen), or divided by 5 when the loss stalls" },
  { name = "learning_rate_init", type = "number", default = 0.001, gt = 0, doc = "the starting step size" },
  { name = "power_t", type = "number", default = 0.5, min = 0, doc = "invscaling's exponent" },
  { name = "max_iter", type = "integer", default = 200, min = 1, doc = "epochs (adam, sgd) or iterations (lbfgs)" },
  { name = "shuffle", type = "boolean", default = true, doc = "shuffle the rows every epoch" },
  { name = "seed", type = "seed", doc = "seed or generator for the starting weights, shuffling, dropout and the validation split" },
  { name = "tol", type = "number", default = 1e-4, min = 0, doc = "the improvement that counts (loss or validation score)" },
  { name = "verbose", type = "integer", default = 0, min = 0, doc = "print the loss of every epoch" },
  { name = "momentum", type = "number", default = 0.9, min = 0, max = 1, doc = "sgd's momentum" },
  { name = "nesterovs_momentum", type = "boolean", default = true, doc = "sgd's Nesterov momentum" },
  { name = "early_stopping", type = "boolean", default = false,
    doc = "hold out validation_fraction of the rows and stop when their score stalls; keeps the best weights" },
  { name = "validation_fraction", type = "number", default = 0.1, gt = 0, max = 0.9, doc = "early stopping's held-out share" },
  { name = "beta_1", type = "number", default = 0.9, min = 0, max = 1, doc = "adam's first-moment decay" },
  { name = "beta_2", type = "number", default = 0.999, min = 0, max = 1, doc = "adam's second-moment decay" },
  { name = "epsilon", type = "number", default = 1e-8, gt = 0, doc = "adam's epsilon" },
  { name = "n_iter_no_change", type = "integer", default = 10, min = 1, doc = "epochs without improvement before stopping" },
  { name = "dropout", type = "number", default = 0, min = 0, max = 0.99, doc = "inverted dropout after each hidden activation" },
  { name = "batch_norm", type = "boolean", default = false, doc = "BatchNorm1d before each hidden activation" },
  { name = "label_smoothing", type = "number", default = 0, min = 0, max = 0.5,
    doc = "classifier only: smoothed targets (two classes: 0 -> eps, 1 -> 1 - eps; more: (1 - eps) onehot + eps / k)" },
  { name = "data_parallel", type = "boolean|integer", default = false, min = 1,
    doc = "adam and sgd: split every batch across the ranks of an MPI job (luma.nn.DataParallel); "
      .. "true cuts it into one shard per rank, a number into that many shards, which gives the "
      .. "same weights for any number of ranks" },
}

local FITTED = "Fitted: coefs, intercepts (lists of matrices, coefs[i] fan_in x fan_out), n_iter, "
  .. "loss, loss_curve, best_loss, validation_scores and best_validation_score (early_stopping), "
  .. "n_layers, n_outputs, out_activation."

local function example_data()
  local g = luma.random.Generator(30)
  return g:normal(40, 3)
end

M.MLPRegressor = estimator.class{
  name = "luma.nn.MLPRegressor", kind = "regressor",
  method_docs = {
    partial_fit = { signature = "est:partial_fit(X, y) -> est",
      doc = "One more epoch of adam or sgd over X, y (the first call starts the network)." },
  },
  doc = "Multilayer perceptron regressor, scikit-learn's MLPRegressor (Goodfellow, Bengio & "
    .. "Courville, Deep Learning, 2016, ch. 6): hidden layers with the activation, an identity "
    .. "output, half the mean squared error plus the L2 penalty, trained by adam, sgd or lbfgs. "
    .. "partial_fit(X, y) runs one more epoch. " .. FITTED,
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.MLPRegressor{ hidden_layer_sizes = { 8 }, solver = "lbfgs", max_iter = 50, seed = 1 }, X,
      X:col(1) - X:col(2) * 0.5
  end,
  fit = function(self, X, y)
    if not y:isfinite():all() then fail(3, "bad argument #2 to 'fit' (y contains NaN or Inf)") end
    fit_network(self, X, y, false)
  end,
  partial_fit = function(self, X, y)
    args.matrix(X, 1, "partial_fit", 2)
    args.matrix(y, 2, "partial_fit", 2)
    fit_network(self, X, y, true)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
    return self
  end,
  predict = function(self, X)
    return run_layers(self, X, "predict")
  end,
}

local function fit_classes(self, y, classes)
  if y:cols() ~= 1 then fail(4, "bad argument #2 to 'fit' (y must be one column of labels)") end
  local _, found = estimator.encode_labels(y)
  self.classes = classes and classes:flatten():unique() or self.classes or found
  if self.classes:rows() < 2 then
    fail(4, "bad argument #2 to 'fit' (%s needs at least two classes, y has only %.15g)",
      self.__class.short_name, self.classes:get(1, 1))
  end
end

local function probabilities(self, X, fname)
  local z = run_layers(self, X, fname)
  if self.n_outputs == 1 then
    local p = z:sigmoid()
    return luma.matrix.hstack{ 1 - p, p }
  end
  return z:softmax(2)
end

M.MLPClassifier = estimator.class{
  name = "luma.nn.MLPClassifier", kind = "classifier",
  method_docs = {
    partial_fit = { signature = "est:partial_fit(X, y [, classes = nil]) -> est",
      doc = "One more epoch of adam or sgd over X, y; the first call needs classes (every "
        .. "label that will appear) unless y has them all." },
  },
  doc = "Multilayer perceptron classifier, scikit-learn's MLPClassifier (Goodfellow, Bengio & "
    .. "Courville, Deep Learning, 2016, ch. 6): hidden layers with the activation, a logistic "
    .. "output for two classes or a softmax for more, the mean log loss plus the L2 penalty, "
    .. "trained by adam, sgd or lbfgs. predict_proba gives n x k probabilities; "
    .. "partial_fit(X, y [, classes]) runs one more epoch. Fitted also: classes. " .. FITTED,
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.MLPClassifier{ hidden_layer_sizes = { 8 }, solver = "lbfgs", max_iter = 50, seed = 1 }, X,
      (X:col(1) + X:col(2)):gt(0)
  end,
  fit = function(self, X, y)
    self.classes = nil
    fit_classes(self, y)
    fit_network(self, X, y, false)
  end,
  partial_fit = function(self, X, y, classes)
    args.matrix(X, 1, "partial_fit", 2)
    args.matrix(y, 2, "partial_fit", 2)
    if classes ~= nil then args.matrix(classes, 3, "partial_fit", 2) end
    fit_classes(self, y, classes)
    fit_network(self, X, y, true)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
    return self
  end,
  predict_proba = function(self, X)
    return probabilities(self, X, "predict_proba")
  end,
  predict = function(self, X)
    return estimator.decode_labels(probabilities(self, X, "predict"):argmax(2), self.classes)
  end,
}

-- The autoencoder's parameters: the MLP's but label_smoothing, and the
-- code's size and activation.
local AUTOENCODER_PARAMS = {
  { name = "n_components", type = "integer", default = 2, min = 1, doc = "the size of the code layer" },
  { name = "code_activation", type = "string", default = "identity",
    values = { "identity", "logistic", "tanh", "relu" }, doc = "the code layer's activation" },
}
for _, param in ipairs(PARAMS) do
  if param.name ~= "label_smoothing" then AUTOENCODER_PARAMS[#AUTOENCODER_PARAMS + 1] = param end
end

M.Autoencoder = estimator.class{
  name = "luma.nn.Autoencoder", kind = "transformer",
  doc = "Autoencoder (Hinton & Salakhutdinov, Science 313, 2006; Goodfellow, Bengio & Courville, "
    .. "Deep Learning, 2016, ch. 14): an MLP trained to reproduce X through a code layer of "
    .. "n_components units; the encoder is the hidden layers then the code, the decoder the "
    .. "hidden layers reversed. transform gives the code (n x n_components), inverse_transform "
    .. "the reconstruction from a code. The loss is MLPRegressor's (half the squared error, the "
    .. "L2 penalty alpha); same solvers and options. With identity activations and no hidden "
    .. "layer it spans PCA's subspace. Fitted: coefs, intercepts, code_layer, n_features_out, "
    .. "n_iter, loss, loss_curve, best_loss.",
  params = AUTOENCODER_PARAMS,
  example = function()
    local X = example_data()
    return M.Autoencoder{ hidden_layer_sizes = {}, n_components = 2, solver = "lbfgs", max_iter = 50, seed = 1 }, X
  end,
  fit = function(self, X)
    fit_network(self, X, X, false)
    self.n_features_out = self.params.n_components -- inverse_transform's width
  end,
  transform = function(self, X)
    return run_layers(self, X, "transform", 1, self.code_layer)
  end,
  inverse_transform = function(self, Z)
    return run_layers(self, Z, "inverse_transform", self.code_layer + 1)
  end,
}

-- MetricEmbedding's training: epochs over the rows as anchors in
-- mini-batches; each anchor gets a random positive (same label, another
-- row when its class has one) and a random negative (another label), and
-- the loss is the triplet loss of their embeddings, or the contrastive
-- loss of the (anchor, positive) and (anchor, negative) pairs.
local function fit_embedding(self, X, codes, k)
  local p = self.params
  local n = X:rows()
  local r = runtime_of(self)
  local g = r.generator
  local members = {}
  for c = 1, k do members[c] = {} end
  for i = 1, n do
    local c = codes:get(i, 1)
    members[c][#members[c] + 1] = i
  end
  local function draw(list, avoid)
    local pick = list[math.floor(g:uniform(1, 1):get(1, 1) * #list) + 1]
    if pick == avoid and #list > 1 then return draw(list, avoid) end
    return pick
  end
  local triplet = losses.TripletMarginLoss{ margin = p.margin }
  local contrastive = losses.ContrastiveLoss{ margin = p.margin }
  r.optimizer = r.optimizer or make_optimizer(self, n)
  local batch = math.min(p.batch_size or math.min(200, n), n)
  self.loss_curve = {}
  local stall = 0
  for _ = 1, p.max_iter do
    local order = g:permutation(n)
    local total = 0
    for start = 1, n, batch do
      local stop = math.min(start + batch - 1, n)
      local anchors, positives, negatives = {}, {}, {}
      for q = start, stop do
        local a = order:get(q, 1)
        local c = codes:get(a, 1)
        local other = (c + math.floor(g:uniform(1, 1):get(1, 1) * (k - 1))) % k + 1
        anchors[#anchors + 1] = a
        positives[#positives + 1] = draw(members[c], a)
        negatives[#negatives + 1] = draw(members[other])
      end
      r.optimizer:zero_grad()
      local ea = forward(self, X:take(anchors), true)
      local ep = forward(self, X:take(positives), true)
      local en = forward(self, X:take(negatives), true)
      local loss
      if p.loss == "triplet" then
        loss = triplet(ea, ep, en)
      else
        local m = #anchors
        local similar = luma.matrix.vstack{ luma.ones(m, 1), luma.zeros(m, 1) }
        loss = contrastive(autograd.vstack{ ea, ea }, autograd.vstack{ ep, en }, similar)
      end
      local value = loss.value:get(1, 1)
      if value ~= value then
        fail(5, "%s: the loss became NaN at epoch %d; lower learning_rate_init or scale X",
          self.__class.short_name, #self.loss_curve + 1)
      end
      loss:backward()
      -- the L2 penalty alpha / (2 m) sum |W|^2 of the batch's m anchors
      value = value + add_penalty(self, stop - start + 1)
      r.optimizer:step()
      total = total + value * (stop - start + 1)
    end
    local epoch_loss = total / n
    self.loss_curve[#self.loss_curve + 1] = epoch_loss
    local improved = self.best_loss == nil or epoch_loss < self.best_loss - p.tol
    if self.best_loss == nil or epoch_loss < self.best_loss then self.best_loss = epoch_loss end
    stall = improved and 0 or stall + 1
    if stall >= p.n_iter_no_change then break end
  end
  self.n_iter = #self.loss_curve
  self.loss = self.loss_curve[#self.loss_curve]
end

local EMBEDDING_PARAMS = {
  { name = "n_components", type = "integer", default = 2, min = 1, doc = "the embedding's dimension" },
  { name = "loss", type = "string", default = "triplet", values = { "triplet", "contrastive" },
    doc = "triplet: [d(a, p) - d(a, n) + margin]_+; contrastive: Hadsell et al.'s pairwise loss" },
  { name = "margin", type = "number", default = 1, gt = 0, doc = "the losses' margin" },
}
local EMBEDDING_SHARED = { hidden_layer_sizes = true, activation = true, alpha = true, batch_size = true,
  learning_rate_init = true, max_iter = true, seed = true, tol = true, n_iter_no_change = true,
  beta_1 = true, beta_2 = true, epsilon = true }
for _, param in ipairs(PARAMS) do
  if EMBEDDING_SHARED[param.name] then EMBEDDING_PARAMS[#EMBEDDING_PARAMS + 1] = param end
end

M.MetricEmbedding = estimator.class{
  name = "luma.nn.MetricEmbedding", kind = "transformer",
  doc = "A learnt embedding for retrieval: an MLP mapping rows to n_components dimensions, "
    .. "trained with Adam so that rows of the same label land close and rows of different "
    .. "labels far apart, by the triplet loss (Schroff, Kalenichenko & Philbin, FaceNet, CVPR "
    .. "2015) or the contrastive loss (Hadsell, Chopra & LeCun, CVPR 2006) on random positives "
    .. "and negatives for every row. fit(X, y); transform(X) gives the embeddings, for "
    .. "luma.neighbors. Fitted: coefs, intercepts, classes, n_iter, loss, loss_curve, best_loss.",
  params = EMBEDDING_PARAMS,
  example = function()
    local X = example_data()
    return M.MetricEmbedding{ hidden_layer_sizes = { 8 }, max_iter = 5, seed = 1 }, X,
      (X:col(1) + X:col(2)):gt(0)
  end,
  fit = function(self, X, y)
    args.finite(X, 1, "fit", 2)
    if not luma.ismatrix(y) or y:cols() ~= 1 or y:rows() ~= X:rows() then
      fail(2, "bad argument #2 to 'fit' (%s needs labels y, one per row of X)", self.__class.short_name)
    end
    local codes, classes = estimator.encode_labels(y)
    if classes:rows() < 2 then
      fail(2, "bad argument #2 to 'fit' (%s needs at least two labels, y has one)", self.__class.short_name)
    end
    self.classes = classes
    set_runtime(self, { generator = estimator.rng(self.params.seed) })
    initialize(self, layer_sizes(self, X:cols(), self.params.n_components), runtime_of(self).generator)
    fit_embedding(self, X, codes, classes:rows())
    self.n_features_out = self.params.n_components
  end,
  transform = function(self, X)
    return run_layers(self, X, "transform")
  end,
}

return M
