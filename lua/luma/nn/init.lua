--- luma.nn: neural-network modules and losses over luma.autograd
-- (docs/NN.md, "Modules" and "Losses").
--
-- Parts: module (the Module base and luma.nn.class), initializers,
-- layers, losses.  Torch7's nn and PyTorch's torch.nn names; rows are
-- samples.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local module = require("luma.nn.module")
local layers = require("luma.nn.layers")
local losses = require("luma.nn.losses")
local initializers = require("luma.nn.initializers")
local mlp = require("luma.nn.mlp")
local parallel = require("luma.nn.parallel")

local nn = {}
local doc = luma.doc.set

nn.class = module.class
nn.MLPClassifier, nn.MLPRegressor, nn.Autoencoder = mlp.MLPClassifier, mlp.MLPRegressor, mlp.Autoencoder
nn.MetricEmbedding = mlp.MetricEmbedding
nn.CNNClassifier = require("luma.nn.cnn").CNNClassifier
nn.is_module = module.is_module
nn.DataParallel = parallel.DataParallel
for name, ctor in pairs(layers) do nn[name] = ctor end
for name, ctor in pairs(losses) do
  if name ~= "distance" then nn[name] = ctor end
end
-- the recurrent cells and layers (luma.nn.recurrent documents them)
for name, ctor in pairs(require("luma.nn.recurrent")) do nn[name] = ctor end
-- the sequence estimators over them
for name, class in pairs(require("luma.nn.sequence")) do nn[name] = class end

--- init(M, scheme [, generator]) -> M: refills the out x in matrix M.
function nn.init(M, scheme, g)
  if not luma.ismatrix(M) then
    args.fail(2, "bad argument #1 to 'init' (luma.Matrix expected, got %s)", args.type_of(M))
  end
  M:assign(initializers.weight(scheme, M:rows(), M:cols(), g or luma.random.Generator(), "init", 3))
  return M
end

-- The gradients of params (a list of Variables; those without one are
-- skipped) for a clipping function whose second argument, `what`, must
-- be a number > 0.
local function clipped_gradients(fname, params, what, limit)
  if type(params) ~= "table" then
    args.fail(3, "bad argument #1 to '%s' (a list of Variables expected, got %s)", fname, args.type_of(params))
  end
  if type(limit) ~= "number" or not (limit > 0) then
    args.fail(3, "bad argument #2 to '%s' (%s must be a number > 0, got %s)", fname, what, tostring(limit))
  end
  local list = {}
  for i, v in ipairs(params) do
    if not luma.autograd.is_variable(v) then
      args.fail(3, "bad argument #1 to '%s' (params[%d] is a %s, not a luma.autograd.Variable)",
        fname, i, args.type_of(v))
    end
    if v.grad ~= nil then list[#list + 1] = v.grad end
  end
  return list
end

--- clip_grad_norm(params, max_norm) -> total_norm: scales the gradients
-- of params (a list of Variables) together so that their joint Euclidean
-- norm is at most max_norm (Pascanu, Mikolov & Bengio, ICML 2013).
function nn.clip_grad_norm(params, max_norm)
  local grads = clipped_gradients("clip_grad_norm", params, "max_norm", max_norm)
  local sq = 0
  for _, G in ipairs(grads) do sq = sq + G:mul(G):sum() end
  local total = math.sqrt(sq)
  if total > max_norm then
    local scale = max_norm / (total + 1e-6) -- PyTorch's 1e-6
    for _, G in ipairs(grads) do G:mul(scale, G) end
  end
  return total
end

--- clip_grad_value(params, clip): clamps every gradient element of
-- params to [-clip, clip].
function nn.clip_grad_value(params, clip)
  for _, G in ipairs(clipped_gradients("clip_grad_value", params, "clip", clip)) do
    G:assign(G:clamp(-clip, clip))
  end
end

--- batches(X [, y] [, {batch_size = 32, shuffle = false, drop_last =
-- false, generator = nil}]) -> iterator: for a training loop, yields
-- (Xb, yb, first_row) over the rows of X (and y) in mini-batches, in a
-- fresh order each call when shuffle (Torch's and PyTorch's DataLoader).
function nn.batches(X, y, opts)
  if not luma.ismatrix(X) then
    args.fail(2, "bad argument #1 to 'batches' (luma.Matrix expected, got %s)", args.type_of(X))
  end
  if opts == nil and type(y) == "table" and getmetatable(y) == nil then y, opts = nil, y end
  if y ~= nil and not (luma.ismatrix(y) and y:rows() == X:rows()) then
    args.fail(2, "bad argument #2 to 'batches' (y must be a luma.Matrix with X's %d rows, got %s)",
      X:rows(), luma.ismatrix(y) and (y:rows() .. " rows") or args.type_of(y))
  end
  opts = args.options("batches", 3, opts, nil,
    { batch_size = true, shuffle = true, drop_last = true, generator = true }, 2)
  local size = opts.batch_size or 32
  if math.type(size) ~= "integer" or size < 1 then
    args.fail(2, "batches: batch_size must be a positive integer, got %s", tostring(size))
  end
  local n = X:rows()
  local order = luma.arange(1, math.max(n, 1))
  if opts.shuffle then order = (opts.generator or luma.random.Generator()):permutation(n) end
  local last = opts.drop_last and n - n % size or n
  local start = 1
  return function()
    if start > last then return nil end
    local stop = math.min(start + size - 1, last)
    local idx = order:sub(start, stop)
    local first = start
    start = stop + 1
    return X:take(idx), y and y:take(idx) or nil, first
  end
end

local SCHEME_NAMES = {}
for name in pairs(initializers.SCHEMES) do SCHEME_NAMES[#SCHEME_NAMES + 1] = name end
table.sort(SCHEME_NAMES)

local G = " generator (a luma.random.Generator, default a fresh one) makes the draws repeatable."

local DOCS = {
  { nn, "luma.nn", nil, "Neural-network modules and losses over luma.autograd, with Torch7's "
    .. "and PyTorch's names; rows are samples. A module is called on a matrix or Variable and "
    .. "returns a Variable; loss:backward() fills each parameter's grad. Modules: Sequential, "
    .. "Linear, Identity, Flatten, ReLU, LeakyReLU, ELU, Softplus, Tanh, Sigmoid, Softmax, "
    .. "LogSoftmax, Maxout, Dropout, BatchNorm1d, LayerNorm, Embedding, RNNCell, GRUCell, "
    .. "LSTMCell, RNN, GRU, LSTM, Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d, MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, "
    .. "AdaptiveAvgPool1d, AdaptiveAvgPool2d, Dropout2d, BatchNorm2d, Upsample; losses: MSELoss, L1Loss, "
    .. "HuberLoss, BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, NLLLoss, TripletMarginLoss, "
    .. "ContrastiveLoss; class(name, def) makes a new module. docs/NN.md." },
  { nn.class, "luma.nn.class", "class(name, {init = fn, forward = fn, extra_repr = fn, ...}) -> constructor",
    "A new module type. init(self, ...) sets it up with self:register_parameter(name, M), "
      .. "self:register_buffer(name, M) and self:add_module(name, m); forward(self, x, ...) "
      .. "computes with autograd operations (its backward comes from them). Instances have "
      .. "parameters(), named_parameters(), children(), train([mode]), evaluate(), zero_grad(), "
      .. "state_dict(), load_state_dict(state), print as a tree, and call forward when called." },
  { nn.is_module, "luma.nn.is_module", "is_module(x) -> boolean", "Whether x is a luma.nn module." },
  { nn.clip_grad_norm, "luma.nn.clip_grad_norm", "clip_grad_norm(params, max_norm) -> total_norm",
    "Scales the gradients of params (a list of Variables, model:parameters()) together so "
      .. "that their joint Euclidean norm is at most max_norm; returns the norm before "
      .. "clipping (Pascanu, Mikolov & Bengio, ICML 2013)." },
  { nn.batches, "luma.nn.batches", "batches(X [, y = nil] [, {batch_size = 32, shuffle = false, drop_last = false, generator = nil}]) -> iterator",
    "Mini-batches for a training loop: for Xb, yb, first in batches(X, y, opts) do ... end gives "
      .. "the rows of X and y batch_size at a time (the last batch shorter unless drop_last), "
      .. "in a new random order at each call when shuffle (from generator). first is the "
      .. "batch's first position in that order." },
  { nn.clip_grad_value, "luma.nn.clip_grad_value", "clip_grad_value(params, clip) -> nothing",
    "Clamps every gradient element of params to [-clip, clip]." },
  { nn.init, "luma.nn.init", "init(M, scheme [, generator = nil]) -> M",
    "Refills the out x in weight matrix M in place by scheme: " .. table.concat(SCHEME_NAMES, ", ")
      .. ". uniform is PyTorch's Linear default U(-1/sqrt(in), 1/sqrt(in)); lecun: variance 1/in; "
      .. "glorot/xavier: 2/(in + out); he/kaiming: 2/in." .. G },
  { nn.Linear, "luma.nn.Linear", "Linear(in_features, out_features [, {bias = true, init = \"uniform\", generator = nil}]) -> module",
    "y = x W^T + b with W out x in (PyTorch's layout) and b 1 x out; init names a scheme of "
      .. "luma.nn.init (the bias is drawn as PyTorch does with uniform, zeros otherwise)." .. G },
  { nn.Sequential, "luma.nn.Sequential", "Sequential{m1, m2, ...} -> module",
    "Applies the modules in turn; children are named \"1\", \"2\", ..." },
  { nn.Identity, "luma.nn.Identity", "Identity() -> module", "Returns its input." },
  { nn.Flatten, "luma.nn.Flatten", "Flatten() -> module",
    "The identity on matrices (rows are already flat samples), for model definitions ported from Torch." },
  { nn.ReLU, "luma.nn.ReLU", "ReLU() -> module", "max(x, 0) element-wise." },
  { nn.LeakyReLU, "luma.nn.LeakyReLU", "LeakyReLU([negative_slope = 0.01]) -> module", "x for x > 0, negative_slope x otherwise." },
  { nn.ELU, "luma.nn.ELU", "ELU([alpha = 1]) -> module", "x for x > 0, alpha (e^x - 1) otherwise." },
  { nn.Softplus, "luma.nn.Softplus", "Softplus() -> module", "log(1 + e^x) element-wise." },
  { nn.Tanh, "luma.nn.Tanh", "Tanh() -> module", "tanh(x) element-wise." },
  { nn.Sigmoid, "luma.nn.Sigmoid", "Sigmoid() -> module", "1 / (1 + e^-x) element-wise." },
  { nn.Softmax, "luma.nn.Softmax", "Softmax([dim = 2]) -> module", "Softmax of each row (dim 2) or column (dim 1)." },
  { nn.LogSoftmax, "luma.nn.LogSoftmax", "LogSoftmax([dim = 2]) -> module", "Log-softmax of each row (dim 2) or column (dim 1), computed stably." },
  { nn.Maxout, "luma.nn.Maxout", "Maxout(k) -> module",
    "The maximum of each group of k consecutive columns: n x (m k) gives n x m (Goodfellow et al., ICML 2013)." },
  { nn.Dropout, "luma.nn.Dropout", "Dropout([p = 0.5 [, {mode = \"inverted\", generator = nil}]]) -> module",
    "In training keeps each element with probability 1 - p. mode \"inverted\" (PyTorch's) "
      .. "divides the kept ones by 1 - p and does nothing at inference; \"scaled\" (Srivastava "
      .. "et al., JMLR 2014) keeps them unscaled and multiplies by 1 - p at inference." .. G },
  { nn.BatchNorm1d, "luma.nn.BatchNorm1d", "BatchNorm1d(num_features [, {eps = 1e-5, momentum = 0.1, affine = true, track_running_stats = true}]) -> module",
    "Ioffe & Szegedy (2015): in training each column is standardized by the batch mean and "
      .. "biased variance, then weight * z + bias; running_mean and running_var (unbiased) "
      .. "move by momentum and are used at inference." },
  { nn.LayerNorm, "luma.nn.LayerNorm", "LayerNorm(num_features [, {eps = 1e-5, elementwise_affine = true}]) -> module",
    "Each row standardized over its features, then weight * z + bias (Ba, Kiros & Hinton, 2016)." },
  { nn.Embedding, "luma.nn.Embedding", "Embedding(num_embeddings, embedding_dim [, {generator = nil}]) -> module",
    "A num_embeddings x embedding_dim weight, N(0, 1) at first; module(indices) returns the "
      .. "rows of the 1-based indices (a table or vector), and backward adds into them." .. G },
  { nn.MSELoss, "luma.nn.MSELoss", "MSELoss([{reduction = \"mean\"}]) -> loss",
    "loss(input, target): (x - t)^2, reduced by \"mean\", \"sum\" or \"none\" (one value a row)." },
  { nn.L1Loss, "luma.nn.L1Loss", "L1Loss([{reduction = \"mean\"}]) -> loss", "loss(input, target): |x - t|." },
  { nn.HuberLoss, "luma.nn.HuberLoss", "HuberLoss([{delta = 1, reduction = \"mean\"}]) -> loss",
    "loss(input, target): d^2 / 2 where |d| <= delta, delta (|d| - delta / 2) beyond, d = x - t (Huber 1964)." },
  { nn.BCELoss, "luma.nn.BCELoss", "BCELoss([{reduction = \"mean\", label_smoothing = 0}]) -> loss",
    "loss(p, t): -(t log p + (1 - t) log(1 - p)) on probabilities, logs clamped at -100; "
      .. "label_smoothing eps maps targets 0 to eps and 1 to 1 - eps." },
  { nn.BCEWithLogitsLoss, "luma.nn.BCEWithLogitsLoss", "BCEWithLogitsLoss([{reduction = \"mean\", label_smoothing = 0}]) -> loss",
    "loss(z, t): BCE of sigmoid(z), computed stably as softplus(z) - z t." },
  { nn.CrossEntropyLoss, "luma.nn.CrossEntropyLoss", "CrossEntropyLoss([{reduction = \"mean\", label_smoothing = 0}]) -> loss",
    "loss(logits, target): -sum_k q_k log_softmax(z)_k with target class indices (1-based, a "
      .. "table or vector) or an n x c matrix of probabilities; label_smoothing eps uses "
      .. "(1 - eps) q + eps / c (Szegedy et al., CVPR 2016)." },
  { nn.NLLLoss, "luma.nn.NLLLoss", "NLLLoss([{reduction = \"mean\"}]) -> loss",
    "loss(logp, target): -logp[i, y_i] for log-probabilities and 1-based class indices." },
  { nn.TripletMarginLoss, "luma.nn.TripletMarginLoss", "TripletMarginLoss([{margin = 1, reduction = \"mean\"}]) -> loss",
    "loss(anchor, positive, negative): [d(a, p) - d(a, n) + margin]_+ a row, d Euclidean "
      .. "(with PyTorch's 1e-6); the positive shares the anchor's label, the negative does not "
      .. "(Schroff et al., CVPR 2015)." },
  { nn.ContrastiveLoss, "luma.nn.ContrastiveLoss", "ContrastiveLoss([{margin = 1, form = \"pairwise\", reduction = \"mean\"}]) -> loss",
    "loss(x1, x2, similar): for pairs a row and similar an n x 1 matrix of 1 and 0. "
      .. "\"pairwise\" (Hadsell, Chopra & LeCun, CVPR 2006): d^2 / 2 for similar pairs, "
      .. "[margin - d]_+^2 / 2 for dissimilar ones; \"notes\": [d - margin]_+ and [1 - d]_+." },
}
for _, d in ipairs(DOCS) do
  doc(d[1], { name = d[2], signature = d[3], doc = d[4] })
end

-- Convolutional networks (lua/luma/nn/conv.lua; docs/NN.md, "Convolutional networks")
do
  local conv = require("luma.nn.conv")
  for name, ctor in pairs(conv) do nn[name] = ctor end
  local CONV = " Rows are samples, each a channels-first tensor flattened row-major (docs/NN.md, "
    .. "\"Convolutional networks\"); m:output_size() gives the output's shape for the next layer's input_size."
  local CONV_OPTS = "{stride = 1, padding = 0, dilation = 1, groups = 1, bias = true, input_size = nil, generator = nil}"
  local POOL_DOC = "stride defaults to kernel_size; padding (zeros, at most half the kernel) on both sides; "
    .. "output size floor((n + 2 padding - kernel) / stride) + 1 as PyTorch."
  local conv_docs = {
    { nn.Conv1d, "luma.nn.Conv1d", "Conv1d(in_channels, out_channels, kernel_size [, " .. CONV_OPTS .. "]) -> module",
      "1-D convolution (cross-correlation, as PyTorch) of rows of C x L (L = columns / in_channels, "
        .. "or input_size = {L}) by im2col and dgemm; weight out x (in/groups kernel_size), bias 1 x out, "
        .. "both U(-1/sqrt(fan_in), 1/sqrt(fan_in)) as PyTorch; output rows of out x L_out with L_out = "
        .. "floor((L + 2 padding - dilation (kernel_size - 1) - 1) / stride) + 1." .. CONV .. G },
    { nn.Conv2d, "luma.nn.Conv2d", "Conv2d(in_channels, out_channels, kernel_size [, " .. CONV_OPTS .. "]) -> module",
      "2-D convolution of rows of C x H x W (input_size = {H, W}; square images when omitted) by "
        .. "im2col and dgemm (Chellapilla, Puri & Simard, 2006); kernel_size, stride, padding and "
        .. "dilation are an integer or {h, w}; weight out x (in/groups kH kW) (PyTorch's out x "
        .. "in/groups x kH x kW flattened), bias 1 x out, PyTorch's default init; output rows of out x "
        .. "H_out x W_out sized as PyTorch." .. CONV .. G },
    { nn.ConvTranspose1d, "luma.nn.ConvTranspose1d", "ConvTranspose1d(in_channels, out_channels, kernel_size [, "
        .. "{stride = 1, padding = 0, output_padding = 0, dilation = 1, groups = 1, bias = true, input_size = nil, "
        .. "generator = nil}]) -> module",
      "Transposed 1-D convolution (PyTorch's ConvTranspose1d; the adjoint of Conv1d in its input) of rows "
        .. "of C x L (L = columns / in_channels, or input_size = {L}) by dgemm and col2im; output L_out = "
        .. "(L - 1) stride - 2 padding + dilation (kernel_size - 1) + output_padding + 1, output_padding "
        .. "smaller than the stride or the dilation; weight in x (out/groups kernel_size) (PyTorch's in x "
        .. "out/groups x kernel_size flattened), bias 1 x out, U(-1/sqrt(out/groups kernel_size), ...) as "
        .. "PyTorch." .. CONV .. G },
    { nn.ConvTranspose2d, "luma.nn.ConvTranspose2d", "ConvTranspose2d(in_channels, out_channels, kernel_size [, "
        .. "{stride = 1, padding = 0, output_padding = 0, dilation = 1, groups = 1, bias = true, input_size = nil, "
        .. "generator = nil}]) -> module",
      "Transposed 2-D convolution (PyTorch's ConvTranspose2d; the adjoint of Conv2d in its input, for "
        .. "decoders and upsampling) of rows of C x H x W (input_size = {H, W}; square when omitted) by "
        .. "dgemm and col2im; output H_out = (H - 1) stride - 2 padding + dilation (kernel - 1) + "
        .. "output_padding + 1, output_padding smaller than the stride or the dilation; weight in x "
        .. "(out/groups kH kW) (PyTorch's in x out/groups x kH x kW flattened), bias 1 x out, "
        .. "U(-1/sqrt(out/groups kH kW), ...) as PyTorch." .. CONV .. G },
    { nn.Dropout2d, "luma.nn.Dropout2d", "Dropout2d([p = 0.5 [, {input_size = {C, H, W} or {C, L}, generator = nil}]]) -> module",
      "Channel dropout (Tompson et al., CVPR 2015; PyTorch's Dropout2d): in training each channel of "
        .. "each sample is zeroed whole with probability p and the kept ones are divided by 1 - p; the "
        .. "identity at inference." .. CONV .. G },
    { nn.MaxPool1d, "luma.nn.MaxPool1d", "MaxPool1d(kernel_size, {input_size = {C, L} [, stride = kernel_size, padding = 0]}) -> module",
      "The maximum of each window of each channel; the gradient goes to the window's first maximum "
        .. "(as PyTorch). " .. POOL_DOC .. CONV },
    { nn.MaxPool2d, "luma.nn.MaxPool2d", "MaxPool2d(kernel_size, {input_size = {C, H, W} [, stride = kernel_size, padding = 0]}) -> module",
      "The maximum of each kH x kW window of each channel; the gradient goes to the window's first "
        .. "maximum in row-major order (as PyTorch). " .. POOL_DOC .. CONV },
    { nn.AvgPool1d, "luma.nn.AvgPool1d", "AvgPool1d(kernel_size, {input_size = {C, L} [, stride = kernel_size, padding = 0]}) -> module",
      "The mean of each window of each channel, padding counted as zeros (PyTorch's "
        .. "count_include_pad). " .. POOL_DOC .. CONV },
    { nn.AvgPool2d, "luma.nn.AvgPool2d", "AvgPool2d(kernel_size, {input_size = {C, H, W} [, stride = kernel_size, padding = 0]}) -> module",
      "The mean of each kH x kW window of each channel, padding counted as zeros (PyTorch's "
        .. "count_include_pad). " .. POOL_DOC .. CONV },
    { nn.AdaptiveAvgPool1d, "luma.nn.AdaptiveAvgPool1d", "AdaptiveAvgPool1d(output_size, {input_size = {C, L}}) -> module",
      "Means over output_size windows per channel, window i covering [floor(i L / n), ceil((i + 1) L / n)) as PyTorch." .. CONV },
    { nn.AdaptiveAvgPool2d, "luma.nn.AdaptiveAvgPool2d", "AdaptiveAvgPool2d(output_size, {input_size = {C, H, W}}) -> module",
      "Means over oH x oW adaptive windows per channel (output_size an integer or {oH, oW}), as PyTorch; "
        .. "AdaptiveAvgPool2d(1) is global average pooling." .. CONV },
    { nn.BatchNorm2d, "luma.nn.BatchNorm2d", "BatchNorm2d(num_features [, {eps = 1e-5, momentum = 0.1, affine = true, track_running_stats = true}]) -> module",
      "Batch normalization per channel (Ioffe & Szegedy, 2015): in training each channel is standardized "
        .. "by its mean and biased variance over the batch and every position, then weight * z + bias "
        .. "(1 x num_features each); running_mean and running_var (unbiased) move by momentum and are "
        .. "used at inference. Rows are samples, each num_features channels of any one spatial size "
        .. "flattened channels first (docs/NN.md, \"Convolutional networks\")." },
    { nn.Upsample, "luma.nn.Upsample", "Upsample({scale_factor = s, input_size = {C, H, W} [, mode = \"nearest\"]}) -> module",
      "Nearest-neighbour upsampling by integer factors (scale_factor an integer or {sh, sw}): each "
        .. "pixel becomes an sh x sw block; the gradient of a pixel is the sum over its block." .. CONV },
  }
  for _, d in ipairs(conv_docs) do doc(d[1], { name = d[2], signature = d[3], doc = d[4] }) end
end

local METHOD_DOCS = {
  register_parameter = { "m:register_parameter(name, M) -> Variable", "Makes the matrix M a parameter (a Variable requiring its gradient) at m[name]." },
  register_buffer = { "m:register_buffer(name, M) -> M", "Keeps the matrix M at m[name] in the state_dict without training it." },
  add_module = { "m:add_module(name, child) -> child", "Adds a child module at m[name]." },
  parameters = { "m:parameters() -> {Variable, ...}", "Every parameter: the module's own, then its children's, in the order added." },
  named_parameters = { "m:named_parameters() -> {{name, Variable}, ...}", "As parameters, with dotted names (\"2.weight\")." },
  children = { "m:children() -> {module, ...}", "The child modules in order." },
  train = { "m:train([mode = true]) -> m", "Training mode (true) or inference mode (false) for m and its children." },
  evaluate = { "m:evaluate() -> m", "Inference mode: Dropout passes, BatchNorm uses its running statistics." },
  zero_grad = { "m:zero_grad()", "Forgets every parameter's accumulated gradient." },
  state_dict = { "m:state_dict() -> {name = matrix}", "Copies of every parameter and buffer under dotted names." },
  load_state_dict = { "m:load_state_dict(state) -> m", "Copies state's matrices into the parameters and buffers of the same names and shapes; all must be there and nothing else." },
}
for name, d in pairs(METHOD_DOCS) do
  doc(module.methods[name], { name = "luma.nn.Module." .. name, signature = d[1], doc = d[2] })
end
args.wrap_methods(module.methods, "luma.nn.Module", module.is_module)

return nn
