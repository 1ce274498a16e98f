-- luma.nn.layers: the modules of luma.nn (docs/NN.md, "Modules"), rows
-- being samples.  Each is a luma.nn.module class: its init registers
-- parameters, its forward composes autograd operations, so gradients come
-- from luma.autograd and no layer writes a backward of its own.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local autograd = require("luma.autograd")
local module = require("luma.nn.module")
local initializers = require("luma.nn.initializers")

local fail = args.fail
local class = module.class
local Variable = autograd.Variable

local layers = {}

-- A matrix input becomes a constant Variable (no gradient is asked of it).
local function as_variable(x, fname)
  if autograd.is_variable(x) then return x end
  if luma.ismatrix(x) then return Variable(x) end
  fail(3, "%s: input must be a luma.Matrix or a luma.autograd.Variable, got %s", fname,
    args.type_of(x))
end

local function check_width(x, n, fname, what)
  local rows, cols = x.value:rows(), x.value:cols()
  if cols ~= n then
    fail(4, "%s: input is %d x %d but the layer expects %d %s per row", fname, rows, cols, n, what)
  end
end

-- Sizes up to a matrix dimension's limit (2^31 - 1).
local function check_count(value, name, fname)
  if math.type(value) ~= "integer" or value < 1 or value > 2147483647 then
    fail(4, "%s: %s must be an integer in [1, 2147483647], got %s", fname, name, tostring(value))
  end
end

local function generator_of(opts, fname)
  local g = opts.generator
  if g == nil then return luma.random.Generator() end
  if type(g) ~= "userdata" and type(g) ~= "table" then
    fail(4, "%s: generator must be a luma.random.Generator, got %s", fname, args.type_of(g))
  end
  return g
end

--- Linear(in_features, out_features [, {bias = true, init = "uniform",
-- generator = nil}]): y = x W^T + b, W out x in (PyTorch's layout).
layers.Linear = class("Linear", {
  init = function(self, n_in, n_out, opts)
    check_count(n_in, "in_features", "Linear")
    check_count(n_out, "out_features", "Linear")
    opts = args.options("Linear", 3, opts, nil, { bias = true, init = true, generator = true }, 3)
    local g = generator_of(opts, "Linear")
    self.in_features, self.out_features = n_in, n_out
    local scheme = opts.init or "uniform"
    self:register_parameter("weight", initializers.weight(scheme, n_out, n_in, g, "Linear", 4))
    if opts.bias ~= false then
      -- PyTorch's default for the bias too: U(-1/sqrt(in), 1/sqrt(in))
      local bound = 1 / math.sqrt(n_in)
      local b = scheme == "uniform" and (g:uniform(1, n_out) * (2 * bound) - bound) or luma.zeros(1, n_out)
      self:register_parameter("bias", b)
    end
  end,
  forward = function(self, x)
    x = as_variable(x, "Linear")
    check_width(x, self.in_features, "Linear", "features")
    return autograd.linear(x, self.weight, self.bias)
  end,
  extra_repr = function(self)
    return string.format("in_features=%d, out_features=%d, bias=%s", self.in_features,
      self.out_features, tostring(self.bias ~= nil))
  end,
})

--- Identity(): returns its input.
layers.Identity = class("Identity", {
  forward = function(_, x) return as_variable(x, "Identity") end,
})

--- Flatten(): rows stay samples; a matrix is already flat, so this is the
-- identity (kept for Torch and PyTorch model definitions).
layers.Flatten = class("Flatten", {
  forward = function(_, x) return as_variable(x, "Flatten") end,
})

-- An activation: a module without parameters applying method `op` of
-- Variable with the options given to the constructor.
local function activation(name, op, params)
  return class(name, {
    init = function(self, ...)
      for i, p in ipairs(params or {}) do
        local v = select(i, ...)
        if v == nil then v = p.default end
        if type(v) ~= "number" or v ~= v then
          fail(3, "%s: %s must be a number, got %s", name, p.name, tostring(v))
        end
        self[p.name] = v
      end
    end,
    forward = function(self, x)
      x = as_variable(x, name)
      if params then
        local values = {}
        for i, p in ipairs(params) do values[i] = self[p.name] end
        return x[op](x, table.unpack(values))
      end
      return x[op](x)
    end,
    extra_repr = function(self)
      local parts = {}
      for _, p in ipairs(params or {}) do parts[#parts + 1] = p.name .. "=" .. tostring(self[p.name]) end
      return table.concat(parts, ", ")
    end,
  })
end

layers.ReLU = activation("ReLU", "relu")
layers.LeakyReLU = activation("LeakyReLU", "leaky_relu", { { name = "negative_slope", default = 0.01 } })
layers.ELU = activation("ELU", "elu", { { name = "alpha", default = 1 } })
layers.Softplus = activation("Softplus", "softplus")
layers.Tanh = activation("Tanh", "tanh")
layers.Sigmoid = activation("Sigmoid", "sigmoid")

local function check_dim(dim, name)
  if dim ~= 1 and dim ~= 2 then fail(4, "%s: dim must be 1 or 2, got %s", name, tostring(dim)) end
end

--- Softmax([dim = 2]) and LogSoftmax([dim = 2]): along each row (dim 2,
-- the classes of a sample) or down each column (dim 1).
layers.Softmax = class("Softmax", {
  init = function(self, dim) self.dim = dim or 2 check_dim(self.dim, "Softmax") end,
  forward = function(self, x) return as_variable(x, "Softmax"):softmax(self.dim) end,
  extra_repr = function(self) return "dim=" .. self.dim end,
})
layers.LogSoftmax = class("LogSoftmax", {
  init = function(self, dim) self.dim = dim or 2 check_dim(self.dim, "LogSoftmax") end,
  forward = function(self, x) return as_variable(x, "LogSoftmax"):log_softmax(self.dim) end,
  extra_repr = function(self) return "dim=" .. self.dim end,
})

--- Maxout(k): the maximum of each group of k consecutive columns, so an
-- n x (m k) input gives n x m (Goodfellow et al., "Maxout networks",
-- ICML 2013).
layers.Maxout = class("Maxout", {
  init = function(self, k) check_count(k, "k", "Maxout") self.k = k end,
  forward = function(self, x)
    x = as_variable(x, "Maxout")
    local n, width = x.value:rows(), x.value:cols()
    if width % self.k ~= 0 then
      fail(3, "Maxout: input is %d x %d, whose %d columns are not groups of k = %d", n, width,
        width, self.k)
    end
    -- row-major: row i's groups are consecutive, so (n m) x k holds one
    -- group a row
    return x:reshape(n * width // self.k, self.k):max(2):reshape(n, width // self.k)
  end,
  extra_repr = function(self) return "k=" .. self.k end,
})

--- Dropout([p = 0.5 [, {mode = "inverted", generator = nil}]]): in
-- training each element is kept with probability 1 - p.  "inverted"
-- (PyTorch's) divides the kept ones by 1 - p and leaves inference alone;
-- "scaled" (Srivastava et al., JMLR 2014, and the course notes) keeps
-- them as they are and multiplies by 1 - p at inference.  Either way the
-- expected activation is the same in both modes.
layers.Dropout = class("Dropout", {
  init = function(self, p, opts)
    p = p == nil and 0.5 or p
    if type(p) ~= "number" or not (p >= 0 and p < 1) then
      fail(3, "Dropout: p must be a number in [0, 1), got %s", tostring(p))
    end
    opts = args.options("Dropout", 2, opts, nil, { mode = true, generator = true }, 3)
    local mode = opts.mode or "inverted"
    if mode ~= "inverted" and mode ~= "scaled" then
      fail(3, "Dropout: mode must be \"inverted\" or \"scaled\", got %s", tostring(mode))
    end
    self.p, self.mode, self.generator = p, mode, generator_of(opts, "Dropout")
  end,
  forward = function(self, x)
    x = as_variable(x, "Dropout")
    local keep = 1 - self.p
    if not self.training then
      return self.mode == "scaled" and x * keep or x
    end
    if self.p == 0 then return x end
    local mask = self.generator:uniform(x.value:rows(), x.value:cols()):lt(keep)
    if self.mode == "inverted" then mask = mask / keep end
    return x:mul(mask)
  end,
  extra_repr = function(self) return string.format("p=%g, mode=%s", self.p, self.mode) end,
})

-- (x - mean) / sqrt(var + eps), mean and var along dim (biased).
local function standardize(x, dim, eps)
  local centred = x - x:mean(dim)
  return centred:div((centred:mul(centred):mean(dim) + eps):sqrt())
end

--- BatchNorm1d(num_features [, {eps = 1e-5, momentum = 0.1, affine = true,
-- track_running_stats = true}]): Ioffe & Szegedy (2015).  Training:
-- each column standardized with the batch's mean and biased variance,
-- then gamma * z + beta; the running mean and unbiased variance move by
-- momentum.  Inference: the running statistics.
layers.BatchNorm1d = class("BatchNorm1d", {
  init = function(self, n, opts)
    check_count(n, "num_features", "BatchNorm1d")
    opts = args.options("BatchNorm1d", 2, opts, nil,
      { eps = true, momentum = true, affine = true, track_running_stats = true }, 3)
    self.num_features = n
    self.eps = opts.eps or 1e-5
    self.momentum = opts.momentum or 0.1
    self.affine = opts.affine ~= false
    self.track_running_stats = opts.track_running_stats ~= false
    if self.affine then
      self:register_parameter("weight", luma.ones(1, n))
      self:register_parameter("bias", luma.zeros(1, n))
    end
    if self.track_running_stats then
      self:register_buffer("running_mean", luma.zeros(1, n))
      self:register_buffer("running_var", luma.ones(1, n))
    end
  end,
  forward = function(self, x)
    x = as_variable(x, "BatchNorm1d")
    check_width(x, self.num_features, "BatchNorm1d", "features")
    local z
    if self.training or not self.track_running_stats then
      local n = x.value:rows()
      if self.training and n < 2 then
        fail(3, "BatchNorm1d: a training batch needs at least 2 rows, got %d", n)
      end
      z = standardize(x, 1, self.eps)
      if self.training and self.track_running_stats then
        local m = self.momentum
        local mean, var = x.value:mean(1), x.value:var(1, 1)
        self.running_mean:assign(self.running_mean * (1 - m) + mean * m)
        self.running_var:assign(self.running_var * (1 - m) + var * m)
      end
    else
      z = (x - self.running_mean):div((self.running_var + self.eps):sqrt())
    end
    if self.affine then z = z:mul(self.weight) + self.bias end
    return z
  end,
  extra_repr = function(self)
    return string.format("%d, eps=%g, momentum=%g, affine=%s", self.num_features, self.eps,
      self.momentum, tostring(self.affine))
  end,
})

--- LayerNorm(num_features [, {eps = 1e-5, elementwise_affine = true}]):
-- each row standardized over its features (Ba, Kiros & Hinton, 2016).
layers.LayerNorm = class("LayerNorm", {
  init = function(self, n, opts)
    check_count(n, "num_features", "LayerNorm")
    opts = args.options("LayerNorm", 2, opts, nil, { eps = true, elementwise_affine = true }, 3)
    self.num_features, self.eps = n, opts.eps or 1e-5
    if opts.elementwise_affine ~= false then
      self:register_parameter("weight", luma.ones(1, n))
      self:register_parameter("bias", luma.zeros(1, n))
    end
  end,
  forward = function(self, x)
    x = as_variable(x, "LayerNorm")
    check_width(x, self.num_features, "LayerNorm", "features")
    local z = standardize(x, 2, self.eps)
    if self.weight then z = z:mul(self.weight) + self.bias end
    return z
  end,
  extra_repr = function(self) return string.format("%d, eps=%g", self.num_features, self.eps) end,
})

--- Embedding(num_embeddings, embedding_dim [, {generator = nil}]): a
-- table of vectors, N(0, 1) at the start (PyTorch's); forward(indices)
-- gives their rows, 1-based (a table or a vector of integers).
layers.Embedding = class("Embedding", {
  init = function(self, n, dim, opts)
    check_count(n, "num_embeddings", "Embedding")
    check_count(dim, "embedding_dim", "Embedding")
    opts = args.options("Embedding", 3, opts, nil, { generator = true }, 3)
    self.num_embeddings, self.embedding_dim = n, dim
    self:register_parameter("weight", generator_of(opts, "Embedding"):normal(n, dim))
  end,
  forward = function(self, indices)
    local list = luma.ismatrix(indices) and indices:flatten():totable() or indices
    if type(list) ~= "table" then
      fail(3, "Embedding: indices must be a table or a vector of integers, got %s", args.type_of(indices))
    end
    if type(list[1]) == "table" then list = list[1] end
    for i, v in ipairs(list) do
      if math.type(v) ~= "integer" and not (type(v) == "number" and v == math.floor(v)) or
        v < 1 or v > self.num_embeddings then
        fail(3, "Embedding: index %d is %s, outside 1..%d", i, tostring(v), self.num_embeddings)
      end
    end
    return self.weight:take(list, 1)
  end,
  extra_repr = function(self) return string.format("%d, %d", self.num_embeddings, self.embedding_dim) end,
})

--- Sequential{m1, m2, ...} or Sequential(m1, m2, ...) (PyTorch's form):
-- the modules applied in turn; children are named "1", "2", ... (Lua's
-- first index).
layers.Sequential = class("Sequential", {
  init = function(self, list, ...)
    if module.is_module(list) then list = { list, ... } end
    if type(list) ~= "table" then
      fail(3, "Sequential: expected modules or a list of modules, got %s", args.type_of(list))
    end
    for i, m in ipairs(list) do
      if not module.is_module(m) then
        fail(3, "Sequential: element %d is not a luma.nn module (got %s)", i, args.type_of(m))
      end
      self:add_module(tostring(i), m)
    end
  end,
  forward = function(self, x)
    for _, m in ipairs(self:children()) do x = m(x) end
    return x
  end,
})

return layers
