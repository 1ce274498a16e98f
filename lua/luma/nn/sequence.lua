-- luma.nn.sequence: sequence estimators, SequenceClassifier and
-- SequenceRegressor (docs/NN.md, "Sequence estimators"): a recurrent
-- encoder (luma.nn.RNN, GRU or LSTM, optionally bidirectional and
-- stacked) and a linear head on its last state, trained like the MLP
-- estimators (adam or sgd over mini-batches, L2 penalty alpha, early
-- stopping), with gradient clipping.
--
-- Layout: the estimators take X as an n x (T d) matrix, a row a sequence
-- of T steps of d = n_features_per_step features, step after step
-- (columns (t - 1) d + 1 .. t d are step t), so that pipelines, the
-- model selection tools and luma.save see an ordinary matrix.  A batch of
-- rows becomes the layer's layout, a list of T n x d matrices.  Shorter
-- sequences are padded at the end and given as lengths (one integer a
-- row) to fit, predict, predict_proba and score: the encoder keeps each
-- row's state from its last step on (the reverse direction starts
-- there), so the head sees the state at the row's own end.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local autograd = require("luma.autograd")
local recurrent = require("luma.nn.recurrent")

local fail = args.fail
local Variable = autograd.Variable

local M = {}

-- What a fit keeps beside the estimator and never saves: the encoder
-- module, the head's Variables, the optimizer and the generator.  A loaded
-- estimator rebuilds the encoder from its saved state.
local runtime_of, set_runtime = require("luma.util.runtime").store()

local CELLS = { rnn = "RNN", gru = "GRU", lstm = "LSTM" }

local function directions(self) return self.params.bidirectional and 2 or 1 end

-- The encoder module of the fitted (or fitting) estimator, made from the
-- parameters and loaded with the saved state on first use.
local function encoder(self)
  local r = runtime_of(self)
  if r.encoder then return r.encoder end
  local p = self.params
  local m = recurrent[CELLS[p.cell]](self.n_features_per_step, p.hidden_size,
    { num_layers = p.num_layers, bidirectional = p.bidirectional, dropout = p.dropout,
      nonlinearity = p.cell == "rnn" and p.nonlinearity or nil,
      generator = r.generator or luma.random.Generator() })
  if self.state then
    m:load_state_dict(self.state)
  end
  -- the saved state is the module's own matrices from now on, so the
  -- optimizer's steps are what luma.save writes
  local state = {}
  for _, named in ipairs(m:named_parameters()) do state[named[1]] = named[2].value end
  self.state = state
  -- clipping bounds the gradient: its warning would only repeat the cure
  m.warn_exploding = p.clip_grad_norm == nil
  r.encoder = m
  return m
end

-- Every trained Variable: the encoder's parameters, then the head's
-- weight and bias (sharing self.coef and self.intercept).
local function variables(self)
  local r = runtime_of(self)
  if r.vars then return r.vars end
  local list = {}
  for _, v in ipairs(encoder(self):parameters()) do list[#list + 1] = v end
  r.head = { Variable(self.coef, { requires_grad = true }),
    Variable(self.intercept, { requires_grad = true }) }
  list[#list + 1] = r.head[1]
  list[#list + 1] = r.head[2]
  r.vars = list
  return list
end

-- The n x d steps of X (views of its column blocks).
local function steps_of(self, X)
  local d = self.n_features_per_step
  local xs = {}
  for t = 1, X:cols() // d do xs[t] = X:sub(nil, nil, (t - 1) * d + 1, t * d) end
  return xs
end

-- The head's raw outputs for the rows of X (lengths: nil or a list for
-- those rows): the last layer's final state, both directions side by
-- side, times coef plus intercept.
local function forward(self, X, lengths, training)
  local vars = variables(self)
  local m = encoder(self)
  m:train(training)
  local _, h_n = m(steps_of(self, X), { lengths = lengths })
  local D = directions(self)
  local last = #h_n
  local state = D == 2 and autograd.hstack { h_n[last - 1], h_n[last] } or h_n[last]
  local head = runtime_of(self).head
  return autograd.addmm(head[2], state, head[1]), vars
end

-- Whether the estimator regresses.
local function regresses(self) return self.__class.kind == "regressor" end

-- The data loss of a batch: half the mean squared error, or the mean log
-- loss of the softmax.
local function data_loss(self, X, T, lengths)
  local z = forward(self, X, lengths, true)
  local n = X:rows()
  if regresses(self) then
    local d = z - T
    return d:mul(d):sum() * (0.5 / n)
  end
  return -(z:log_softmax(2):mul(T)):sum() / n
end

-- Adds the L2 penalty's gradient (alpha / n) W to each weight matrix
-- (not the biases) and returns the penalty alpha / (2 n) sum |W|^2.
local function add_penalty(self, n)
  local alpha = self.params.alpha
  if alpha == 0 then return 0 end
  local total = 0
  local m = encoder(self)
  local weights = { runtime_of(self).head[1] }
  for _, named in ipairs(m:named_parameters()) do
    if named[1]:find("^weight") then weights[#weights + 1] = named[2] end
  end
  for _, v in ipairs(weights) do
    local W = v.value
    total = total + W:dot(W)
    local step = W * (alpha / n)
    v.grad = v.grad and v.grad:add(step, v.grad) or step
  end
  return total * (alpha / (2 * n))
end

-- The lengths given to a method: nil, or a list of n integers in [1, T]
-- (a list or an n x 1 matrix); errors at the user's line.
local function lengths_of(self, lengths, n, T, fname, argn)
  if lengths == nil then return nil end
  if luma.ismatrix(lengths) then
    if lengths:cols() ~= 1 then
      fail(3, "bad argument #%d to '%s' (lengths must be a column or a list, got a %d x %d "
        .. "matrix)", argn, fname, lengths:rows(), lengths:cols())
    end
    local list = {}
    for i = 1, lengths:rows() do list[i] = math.tointeger(lengths:get(i, 1)) or lengths:get(i, 1) end
    lengths = list
  end
  if type(lengths) ~= "table" or getmetatable(lengths) ~= nil then
    fail(3, "bad argument #%d to '%s' (lengths must be a list of integers, one a row, got %s)",
      argn, fname, args.type_of(lengths))
  end
  if #lengths ~= n then
    fail(3, "bad argument #%d to '%s' (X has %d rows but lengths has %d entries)", argn, fname,
      n, #lengths)
  end
  for i = 1, n do
    local len = lengths[i]
    if math.type(len) ~= "integer" or len < 1 or len > T then
      fail(3, "bad argument #%d to '%s' (lengths[%d] is %s but the sequences have %d steps of "
        .. "%d features (X's %d columns); each length must be an integer in [1, %d])", argn,
        fname, i, tostring(len), T, self.n_features_per_step, T * self.n_features_per_step, T)
    end
  end
  return lengths
end

-- The steps T of X's rows, or an error when its width is no multiple of
-- n_features_per_step (the layout: T blocks of d columns).
local function sequence_length(self, X, fname)
  local d = self.params.n_features_per_step
  if X:cols() % d ~= 0 then
    fail(3, "bad argument #1 to '%s' (X has %d columns, not a multiple of n_features_per_step "
      .. "= %d: a row must be T steps of %d features, step after step)", fname, X:cols(), d, d)
  end
  return X:cols() // d
end

local function pick(list, idx)
  if list == nil then return nil end
  local out = {}
  for k = 1, idx:rows() do out[k] = list[idx:get(k, 1)] end
  return out
end

-- The targets the network fits: y (regression) or one-hot rows.
local function targets(self, codes)
  if regresses(self) then return codes end
  return codes:eq(luma.arange(1, self.classes_count):t())
end

local function copy_all(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v.value:copy() end
  return out
end

local function make_optimizer(self)
  local p = self.params
  local params = variables(self)
  if p.solver == "adam" then
    return luma.optim.Adam{ lr = p.learning_rate_init, params = params }
  end
  if p.momentum == 0 then return luma.optim.SGD{ lr = p.learning_rate_init, params = params } end
  return luma.optim.Momentum{ lr = p.learning_rate_init, momentum = p.momentum, params = params }
end

-- The raw outputs of a fitted (or fitting) network at inference.
local function outputs(self, X, lengths)
  return autograd.no_grad(function() return forward(self, X, lengths, false).value end)
end

-- Accuracy or R^2 of the current network (the validation score).
local function score_codes(self, X, y, lengths)
  local z = outputs(self, X, lengths)
  if regresses(self) then return luma.metrics.r2_score(y, z) end
  return z:argmax(2):eq(y):mean()
end

-- One epoch over X, T (lengths) in shuffled mini-batches; returns the
-- mean objective.
local function epoch(self, X, T, lengths, g)
  local p = self.params
  local r = runtime_of(self)
  local n = X:rows()
  local batch = math.min(p.batch_size or math.min(32, n), n)
  local order = p.shuffle and g:permutation(n) or luma.arange(1, n)
  local total = 0
  for start = 1, n, batch do
    local stop = math.min(start + batch - 1, n)
    local idx = order:sub(start, stop)
    r.optimizer:zero_grad()
    local loss = data_loss(self, X:take(idx), T:take(idx), pick(lengths, idx))
    local value = loss.value:get(1, 1)
    if value ~= value then
      fail(5, "%s: the loss became NaN at epoch %d, batch starting at row %d; lower "
        .. "learning_rate_init, set clip_grad_norm or scale X", self.__class.short_name,
        self.n_iter + 1, start)
    end
    loss:backward()
    value = value + add_penalty(self, stop - start + 1)
    if p.clip_grad_norm then luma.nn.clip_grad_norm(r.vars, p.clip_grad_norm) end
    r.optimizer:step()
    total = total + value * (stop - start + 1)
  end
  return total / n
end

-- fit's work: a fresh network from the seed, epochs until max_iter or
-- until the loss (with early_stopping, the held-out score) stalls for
-- n_iter_no_change epochs, keeping the best weights.
local function fit_network(self, X, y, lengths)
  local p = self.params
  args.finite(X, 1, "fit", 4)
  local T = sequence_length(self, X, "fit")
  self.n_features_per_step, self.n_steps = p.n_features_per_step, T
  lengths = lengths_of(self, lengths, X:rows(), T, "fit", 3)
  local g = estimator.rng(p.seed)
  set_runtime(self, { generator = g })
  self.state = nil
  local width = directions(self) * p.hidden_size
  local n_out = regresses(self) and y:cols() or self.classes_count
  -- the head as PyTorch's Linear: U(-1/sqrt(width), 1/sqrt(width))
  local bound = 1 / math.sqrt(width)
  self.coef = g:uniform(width, n_out) * (2 * bound) - bound
  self.intercept = g:uniform(1, n_out) * (2 * bound) - bound
  local vars = variables(self)
  local r = runtime_of(self)
  r.optimizer = make_optimizer(self)
  local Xv, yv, lv
  if p.early_stopping then
    local idx = g:permutation(X:rows())
    local n_val = math.max(1, math.floor(p.validation_fraction * X:rows() + 0.5))
    if n_val >= X:rows() then
      fail(4, "%s: early_stopping needs at least 2 rows (validation_fraction leaves none to "
        .. "train on)", self.__class.short_name)
    end
    local vi, ti = idx:sub(1, n_val), idx:sub(n_val + 1, X:rows())
    Xv, yv, lv = X:take(vi), y:take(vi), pick(lengths, vi)
    X, y, lengths = X:take(ti), y:take(ti), pick(lengths, ti)
    self.validation_scores = {}
  end
  local targets_ = targets(self, y)
  self.n_iter, self.loss_curve, self.best_loss, self.best_validation_score = 0, {}, nil, nil
  local stall, best = 0, nil
  for _ = 1, p.max_iter do
    local loss = epoch(self, X, targets_, lengths, g)
    self.n_iter = self.n_iter + 1
    self.loss_curve[#self.loss_curve + 1] = loss
    local improved
    if Xv then
      local s = score_codes(self, Xv, yv, lv)
      self.validation_scores[#self.validation_scores + 1] = s
      improved = self.best_validation_score == nil or s > self.best_validation_score + p.tol
      if self.best_validation_score == nil or s > self.best_validation_score then
        self.best_validation_score = s
        best = copy_all(vars)
      end
      if p.verbose > 0 then
        print(string.format("Iteration %d, loss = %.8f, validation score = %.6f", self.n_iter,
          loss, s))
      end
    else
      improved = self.best_loss == nil or loss < self.best_loss - p.tol
      if self.best_loss == nil or loss < self.best_loss then self.best_loss = loss end
      if p.verbose > 0 then print(string.format("Iteration %d, loss = %.8f", self.n_iter, loss)) end
    end
    stall = improved and 0 or stall + 1
    if stall >= p.n_iter_no_change then break end
  end
  if best then
    for i, v in ipairs(vars) do v.value:assign(best[i]) end
  end
  self.loss = self.loss_curve[#self.loss_curve]
end

-- The checks of a fitted estimator's X and lengths (the contract has
-- checked the width against the fit's).
local function inference_input(self, X, lengths, fname, argn)
  args.finite(X, 1, fname, 3)
  return lengths_of(self, lengths, X:rows(), self.n_steps, fname, argn)
end

local PARAMS = {
  { name = "n_features_per_step", type = "integer", default = 1, min = 1,
    doc = "d, the features of one step: X's rows are T steps of d columns each, step after step" },
  { name = "cell", type = "string", default = "lstm", values = { "rnn", "gru", "lstm" },
    doc = "the encoder: luma.nn.RNN, GRU or LSTM" },
  { name = "hidden_size", type = "integer", default = 32, min = 1, doc = "the encoder's state size" },
  { name = "num_layers", type = "integer", default = 1, min = 1, doc = "stacked recurrent layers" },
  { name = "bidirectional", type = "boolean", default = false,
    doc = "run each layer both ways; the head sees both final states" },
  { name = "dropout", type = "number", default = 0, min = 0, max = 0.99,
    doc = "dropout between the recurrent layers, in training" },
  { name = "nonlinearity", type = "string", default = "tanh", values = { "tanh", "relu" },
    doc = "the RNN cell's activation (cell = \"rnn\")" },
  { name = "solver", type = "string", default = "adam", values = { "adam", "sgd" },
    doc = "adam, or sgd with momentum, over mini-batches" },
  { name = "learning_rate_init", type = "number", default = 0.01, gt = 0, doc = "the step size" },
  { name = "momentum", type = "number", default = 0.9, min = 0, max = 1, doc = "sgd's momentum" },
  { name = "alpha", type = "number", default = 0.0001, min = 0,
    doc = "L2 penalty: alpha / (2 n) times the sum of the squared weights (not the biases)" },
  { name = "batch_size", type = "integer", min = 1, doc = "rows per mini-batch (default min(32, n))" },
  { name = "max_iter", type = "integer", default = 100, min = 1, doc = "epochs" },
  { name = "shuffle", type = "boolean", default = true, doc = "shuffle the rows every epoch" },
  { name = "clip_grad_norm", type = "number", gt = 0,
    doc = "rescale the gradient of every batch to at most this norm (luma.nn.clip_grad_norm); "
      .. "nil: none, and the encoder warns when its gradient explodes" },
  { name = "tol", type = "number", default = 1e-4, min = 0,
    doc = "the improvement that counts (loss or validation score)" },
  { name = "early_stopping", type = "boolean", default = false,
    doc = "hold out validation_fraction of the rows and stop when their score stalls; keeps the best weights" },
  { name = "validation_fraction", type = "number", default = 0.1, gt = 0, max = 0.9,
    doc = "early stopping's held-out share" },
  { name = "n_iter_no_change", type = "integer", default = 10, min = 1,
    doc = "epochs without improvement before stopping" },
  { name = "seed", type = "seed", doc = "seed or generator for the starting weights, shuffling, dropout and the validation split" },
  { name = "verbose", type = "integer", default = 0, min = 0, doc = "print the loss of every epoch" },
}

local LAYOUT = "X is n x (T d): each row a sequence of T steps of d = n_features_per_step "
  .. "features, step after step (columns (t - 1) d + 1 .. t d are step t); predict needs the "
  .. "fit's T. Shorter sequences are padded at the end and their lengths (a list or column of "
  .. "integers in [1, T], one a row) given as the last argument of fit, predict, predict_proba "
  .. "and score: each row's state is then taken at its own last step. "
local FITTED = "Fitted: state (the encoder's parameters by name, as its state_dict), coef "
  .. "((directions hidden_size) x outputs) and intercept of the head, n_steps, n_iter, loss, "
  .. "loss_curve, best_loss, validation_scores and best_validation_score (early_stopping)."

-- A small problem for the examples: the sign of the sum of a series of 6
-- steps of 2 features (the second feature noise).
local function example_data()
  local g = luma.random.Generator(31)
  return g:normal(40, 12)
end
local function example_target(X)
  local s = luma.zeros(X:rows(), 1)
  for t = 1, 6 do s = s + X:col(2 * t - 1) end
  return s
end

M.SequenceRegressor = estimator.class{
  name = "luma.nn.SequenceRegressor", kind = "regressor",
  doc = "Sequence regressor: a recurrent encoder (luma.nn.RNN, GRU or LSTM; num_layers, "
    .. "bidirectional, dropout between layers) whose last state feeds a linear head, trained "
    .. "on half the mean squared error plus the L2 penalty alpha by adam or sgd, with "
    .. "optional gradient clipping and early stopping, as the MLP estimators. " .. LAYOUT
    .. FITTED,
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.SequenceRegressor{ n_features_per_step = 2, hidden_size = 8, max_iter = 5, seed = 1 },
      X, example_target(X)
  end,
  fit = function(self, X, y, lengths)
    if not y:isfinite():all() then fail(3, "bad argument #2 to 'fit' (y contains NaN or Inf)") end
    fit_network(self, X, y, lengths)
  end,
  predict = function(self, X, lengths)
    return outputs(self, X, inference_input(self, X, lengths, "predict", 2))
  end,
  score = function(self, X, y, lengths)
    local z = outputs(self, X, inference_input(self, X, lengths, "score", 3))
    return luma.metrics.r2_score(y, z)
  end,
}

local function fit_classes(self, y)
  if y:cols() ~= 1 then fail(4, "bad argument #2 to 'fit' (y must be one column of labels)") end
  local codes, classes = estimator.encode_labels(y)
  if classes:rows() < 2 then
    fail(4, "bad argument #2 to 'fit' (%s needs at least two classes, y has only %.15g)",
      self.__class.short_name, classes:get(1, 1))
  end
  self.classes, self.classes_count = classes, classes:rows()
  return codes
end

local function probabilities(self, X, lengths, fname, argn)
  return outputs(self, X, inference_input(self, X, lengths, fname, argn)):softmax(2)
end

M.SequenceClassifier = estimator.class{
  name = "luma.nn.SequenceClassifier", kind = "classifier",
  doc = "Sequence classifier: a recurrent encoder (luma.nn.RNN, GRU or LSTM; num_layers, "
    .. "bidirectional, dropout between layers) whose last state feeds a linear head and a "
    .. "softmax, trained on the mean log loss plus the L2 penalty alpha by adam or sgd, with "
    .. "optional gradient clipping and early stopping, as the MLP estimators. predict_proba "
    .. "gives n x k probabilities, columns in the order of classes. " .. LAYOUT .. FITTED
    .. " The classifier also keeps classes, the labels in order.",
  params = PARAMS,
  example = function()
    local X = example_data()
    return M.SequenceClassifier{ n_features_per_step = 2, hidden_size = 8, max_iter = 5, seed = 1 },
      X, example_target(X):gt(0)
  end,
  fit = function(self, X, y, lengths)
    local codes = fit_classes(self, y)
    fit_network(self, X, codes, lengths)
  end,
  predict_proba = function(self, X, lengths)
    return probabilities(self, X, lengths, "predict_proba", 2)
  end,
  predict = function(self, X, lengths)
    return estimator.decode_labels(probabilities(self, X, lengths, "predict", 2):argmax(2),
      self.classes)
  end,
  score = function(self, X, y, lengths)
    local pred = estimator.decode_labels(probabilities(self, X, lengths, "score", 3):argmax(2),
      self.classes)
    return pred:eq(y):mean()
  end,
}

return M
