-- luma.nn.cnn: CNNClassifier, a small convolutional image classifier as
-- a Luma estimator (docs/NN.md, "CNN estimator"), with the MLP
-- estimators' contract: fit, predict, predict_proba, score, parameters
-- for pipelines and searches, luma.save, early stopping, progress.
--
-- Input: rows of flattened images, each C x H x W channels first and
-- row-major (luma.nn's convolution layout), the shape given by
-- image_shape = {C, H, W} (one square channel when omitted).  The
-- network: for each entry of conv_channels a Conv2d with "same" zero
-- padding (kernel_size // 2), BatchNorm2d when batch_norm, ReLU, 2 x 2
-- pooling (max or avg) while the image is at least 2 x 2, and Dropout2d
-- when conv_dropout > 0; then the dense hidden layers (Linear,
-- BatchNorm1d when batch_norm, ReLU, Dropout when dropout > 0) and a
-- linear output of one unit a class.  The loss: the mean cross-entropy
-- of the softmax plus alpha / (2 n) times the sum of the squared weights
-- of the convolutions and dense layers (not biases), n the batch's rows,
-- as MLPClassifier's.  PyTorch's default starting weights, drawn from the
-- seed's generator with the shuffles and the dropout masks.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")
local autograd = require("luma.autograd")
local layers = require("luma.nn.layers")
local losses = require("luma.nn.losses")
local conv = require("luma.nn.conv")

local fail = args.fail

local M = {}

-- What a fit keeps beside the estimator and never saves: the network's
-- modules, the optimizer.  A loaded estimator rebuilds the network from
-- its parameters and loads the saved weights (est.state) into it.
local runtime_of, set_runtime = require("luma.util.runtime").store()

local function positive_list(v)
  if type(v) ~= "table" then return false end
  for i = 1, #v do
    if math.type(v[i]) ~= "integer" or v[i] < 1 then return false end
  end
  return next(v) == nil or #v > 0
end

local function image_shape_ok(v)
  return positive_list(v) and #v == 3
end

-- The fitted image shape {C, H, W}: image_shape, or one square channel.
local function resolve_shape(self, cols, level)
  local shape = self.params.image_shape
  if shape == nil then
    local side = math.floor(math.sqrt(cols) + 0.5)
    if side * side ~= cols then
      fail(level + 1, "%s: X has %d columns, which is not one square image; give image_shape = {C, H, W}",
        self.__class.short_name, cols)
    end
    return { 1, side, side }
  end
  local C, H, W = shape[1], shape[2], shape[3]
  if C * H * W ~= cols then
    fail(level + 1, "%s: X has %d columns but image_shape {%d, %d, %d} needs C x H x W = %d",
      self.__class.short_name, cols, C, H, W, C * H * W)
  end
  return { C, H, W }
end

-- The network for images of shape {C, H, W} and k classes; the weights
-- the penalty covers.
local function build(self, shape, k, g)
  local p = self.params
  local mods, penalized = {}, {}
  local function add(m) mods[#mods + 1] = m end
  local c_in, h, w = shape[1], shape[2], shape[3]
  local ks = p.kernel_size
  for _, c_out in ipairs(p.conv_channels) do
    local c = conv.Conv2d(c_in, c_out, ks, { padding = ks // 2, input_size = { h, w }, generator = g })
    add(c)
    penalized[#penalized + 1] = c.weight
    local size = c:output_size()
    h, w = size[2], size[3]
    if p.batch_norm then add(conv.BatchNorm2d(c_out)) end
    add(layers.ReLU())
    if p.pooling ~= "none" and h >= 2 and w >= 2 then
      local pool = (p.pooling == "max" and conv.MaxPool2d or conv.AvgPool2d)(2, { input_size = { c_out, h, w } })
      add(pool)
      size = pool:output_size()
      h, w = size[2], size[3]
    end
    if p.conv_dropout > 0 then
      add(conv.Dropout2d(p.conv_dropout, { input_size = { c_out, h, w }, generator = g }))
    end
    c_in = c_out
  end
  local width = c_in * h * w
  for _, units in ipairs(p.hidden_layer_sizes) do
    local lin = layers.Linear(width, units, { generator = g })
    add(lin)
    penalized[#penalized + 1] = lin.weight
    if p.batch_norm then add(layers.BatchNorm1d(units)) end
    add(layers.ReLU())
    if p.dropout > 0 then add(layers.Dropout(p.dropout, { generator = g })) end
    width = units
  end
  local out = layers.Linear(width, k, { generator = g })
  add(out)
  penalized[#penalized + 1] = out.weight
  return layers.Sequential(mods), penalized
end

-- The fitted network (rebuilt from est.state after luma.load).
local function network(self)
  local r = runtime_of(self)
  if r.model then return r.model end
  local model, penalized = build(self, self.input_shape, self.classes:rows(), luma.random.Generator(0))
  model:load_state_dict(self.state)
  model:evaluate()
  set_runtime(self, { model = model, penalized = penalized })
  return model
end

-- Adds (alpha / n) W to each penalized weight's gradient; returns the
-- penalty alpha / (2 n) sum |W|^2 (MLPClassifier's, in closed form).
local function add_penalty(self, penalized, n)
  local alpha = self.params.alpha
  if alpha == 0 then return 0 end
  local total = 0
  for _, v in ipairs(penalized) do
    local W = v.value
    total = total + W:dot(W)
    local step, g = W * (alpha / n), v.grad
    v.grad = g and g:add(step, g) or step
  end
  return total * (alpha / (2 * n))
end

local function make_optimizer(p, params)
  if p.solver == "adam" then
    return luma.optim.Adam{ lr = p.learning_rate_init, beta1 = p.beta_1, beta2 = p.beta_2,
      eps = p.epsilon, params = params }
  end
  if p.momentum == 0 then return luma.optim.SGD{ lr = p.learning_rate_init, params = params } end
  local cls = p.nesterovs_momentum and luma.optim.Nesterov or luma.optim.Momentum
  return cls{ lr = p.learning_rate_init, momentum = p.momentum, params = params }
end

local function accuracy(model, X, codes)
  local z = autograd.no_grad(function() return model:evaluate()(X).value end)
  return z:argmax(2):eq(codes):mean()
end

-- One pass over X in mini-batches; returns the mean objective.
local function epoch(self, r, X, codes, g, n_iter)
  local p = self.params
  local n = X:rows()
  local batch = math.min(p.batch_size or math.min(200, n), n)
  local order = p.shuffle and g:permutation(n) or luma.arange(1, n)
  local model, opt, loss_fn = r.model, r.optimizer, r.loss
  model:train()
  local total = 0
  for start = 1, n, batch do
    local stop = math.min(start + batch - 1, n)
    local idx = order:sub(start, stop)
    opt:zero_grad()
    local loss = loss_fn(model(X:take(idx)), codes:take(idx))
    local value = loss.value:get(1, 1)
    if value ~= value then
      fail(6, "%s: the loss became NaN at epoch %d, batch starting at row %d; lower "
        .. "learning_rate_init or scale X", self.__class.short_name, n_iter + 1, start)
    end
    loss:backward()
    value = value + add_penalty(self, r.penalized, stop - start + 1)
    opt:step()
    total = total + value * (stop - start + 1)
  end
  return total / n
end

local function fit_cnn(self, X, y)
  local p = self.params
  local shape = resolve_shape(self, X:cols(), 4)
  if not X:isfinite():all() then fail(4, "bad argument #1 to 'fit' (X contains NaN or Inf)") end
  if y:cols() ~= 1 then fail(4, "bad argument #2 to 'fit' (y must be one column of labels)") end
  local codes, classes = estimator.encode_labels(y)
  if classes:rows() < 2 then
    fail(4, "bad argument #2 to 'fit' (%s needs at least two classes, y has only %.15g)",
      self.__class.short_name, classes:get(1, 1))
  end
  self.classes, self.input_shape = classes, shape
  local g = estimator.rng(p.seed)
  local model, penalized = build(self, shape, classes:rows(), g)
  local r = { model = model, penalized = penalized, loss = losses.CrossEntropyLoss() }
  r.optimizer = make_optimizer(p, model:parameters())
  set_runtime(self, r)
  local Xv, cv
  if p.early_stopping then
    local ctrain
    X, Xv, ctrain, cv = luma.model_selection.train_test_split(X, codes,
      { test_size = p.validation_fraction, seed = g, stratify = codes })
    codes = ctrain
    self.validation_scores = {}
  end
  self.loss_curve, self.n_iter = {}, 0
  local stall, best_state = 0, nil
  for _ = 1, p.max_iter do
    local loss = epoch(self, r, X, codes, g, self.n_iter)
    self.n_iter = self.n_iter + 1
    self.loss_curve[self.n_iter] = loss
    local improved
    if Xv then
      local s = accuracy(model, Xv, cv)
      self.validation_scores[self.n_iter] = s
      improved = self.best_validation_score == nil or s > self.best_validation_score + p.tol
      if self.best_validation_score == nil or s > self.best_validation_score then
        self.best_validation_score = s
        best_state = model:state_dict()
      end
      if p.verbose > 0 then
        print(string.format("Iteration %d, loss = %.8f, validation score = %.4f", self.n_iter, loss, s))
      end
    else
      improved = self.best_loss == nil or loss < self.best_loss - p.tol
      if self.best_loss == nil or loss < self.best_loss then self.best_loss = loss end
      if p.verbose > 0 then print(string.format("Iteration %d, loss = %.8f", self.n_iter, loss)) end
    end
    stall = improved and 0 or stall + 1
    if stall >= p.n_iter_no_change then break end
  end
  if best_state then model:load_state_dict(best_state) end
  model:evaluate()
  self.loss = self.loss_curve[self.n_iter]
  self.state = model:state_dict()
  self.n_outputs = classes:rows()
end

local function probabilities(self, X)
  local model = network(self)
  return autograd.no_grad(function() return model:evaluate()(X).value end):softmax(2)
end

local PARAMS = {
  { name = "image_shape", type = "table", default = nil, nullable = true, check = image_shape_ok,
    expect = "a list {C, H, W} of positive integers",
    doc = "each row's image, channels x height x width, flattened channels first and row-major "
      .. "(default: one square channel)" },
  { name = "conv_channels", type = "table", default = { 16, 32 }, check = positive_list,
    expect = "a list of positive integers", doc = "the output channels of the convolution layers, in order" },
  { name = "kernel_size", type = "integer", default = 3, min = 1,
    doc = "the convolutions' square kernel, zero padding kernel_size // 2 (\"same\" for odd sizes)" },
  { name = "pooling", type = "string", default = "max", values = { "max", "avg", "none" },
    doc = "2 x 2 pooling after each convolution (while the image is at least 2 x 2)" },
  { name = "hidden_layer_sizes", type = "table", default = { 64 }, check = positive_list,
    expect = "a list of positive integers", doc = "the dense hidden layers after the convolutions" },
  { name = "dropout", type = "number", default = 0, min = 0, max = 0.99,
    doc = "Dropout after each dense hidden layer" },
  { name = "conv_dropout", type = "number", default = 0, min = 0, max = 0.99,
    doc = "Dropout2d (whole channels) after each convolution block" },
  { name = "batch_norm", type = "boolean", default = false,
    doc = "BatchNorm2d after each convolution, BatchNorm1d after each dense hidden layer" },
  { name = "solver", type = "string", default = "adam", values = { "adam", "sgd" },
    doc = "Adam (PyTorch's) or SGD with momentum over mini-batches" },
  { name = "learning_rate_init", type = "number", default = 0.001, gt = 0, doc = "the step size" },
  { name = "batch_size", type = "integer", min = 1, doc = "rows per mini-batch (default min(200, n))" },
  { name = "max_iter", type = "integer", default = 30, min = 1, doc = "epochs at most" },
  { name = "alpha", type = "number", default = 0.0001, min = 0,
    doc = "L2 penalty: alpha / (2 n) times the sum of the squared weights" },
  { name = "shuffle", type = "boolean", default = true, doc = "shuffle the rows every epoch" },
  { name = "seed", type = "seed",
    doc = "seed or generator for the starting weights, shuffling, dropout and the validation split" },
  { name = "tol", type = "number", default = 1e-4, min = 0, doc = "the improvement that counts (loss or validation score)" },
  { name = "n_iter_no_change", type = "integer", default = 10, min = 1, doc = "epochs without improvement before stopping" },
  { name = "early_stopping", type = "boolean", default = false,
    doc = "hold out validation_fraction of the rows (stratified) and stop when their accuracy stalls; keeps the best weights" },
  { name = "validation_fraction", type = "number", default = 0.1, gt = 0, max = 0.9, doc = "early stopping's held-out share" },
  { name = "verbose", type = "integer", default = 0, min = 0, doc = "print the loss (and validation score) of every epoch" },
  { name = "momentum", type = "number", default = 0.9, min = 0, max = 1, doc = "sgd's momentum" },
  { name = "nesterovs_momentum", type = "boolean", default = true, doc = "sgd's Nesterov momentum" },
  { name = "beta_1", type = "number", default = 0.9, min = 0, max = 1, doc = "adam's first-moment decay" },
  { name = "beta_2", type = "number", default = 0.999, min = 0, max = 1, doc = "adam's second-moment decay" },
  { name = "epsilon", type = "number", default = 1e-8, gt = 0, doc = "adam's epsilon" },
}

M.CNNClassifier = estimator.class{
  name = "luma.nn.CNNClassifier", kind = "classifier",
  doc = "Convolutional image classifier (LeCun, Bottou, Bengio & Haffner, Proc. IEEE 86, 1998): "
    .. "rows of images flattened channels first (image_shape = {C, H, W}); Conv2d layers of "
    .. "conv_channels with same padding, ReLU and 2 x 2 pooling, then dense hidden layers and a "
    .. "softmax output, trained on the mean cross-entropy plus the L2 penalty alpha by Adam or "
    .. "SGD over mini-batches, with early stopping and MLPClassifier's other options. "
    .. "predict_proba gives n x k probabilities. Fitted: classes, input_shape ({C, H, W}), state (the "
    .. "network's weights, a state_dict), n_iter, loss, loss_curve, best_loss, "
    .. "validation_scores and best_validation_score (early_stopping). docs/NN.md.",
  params = PARAMS,
  example = function()
    local g = luma.random.Generator(30)
    local X = g:normal(40, 16)
    return M.CNNClassifier{ conv_channels = { 2 }, hidden_layer_sizes = { 4 }, max_iter = 3, seed = 1 }, X,
      (X:col(1) + X:col(6)):gt(0)
  end,
  fit = fit_cnn,
  predict_proba = function(self, X)
    return probabilities(self, X)
  end,
  predict = function(self, X)
    return estimator.decode_labels(probabilities(self, X):argmax(2), self.classes)
  end,
}

return M
