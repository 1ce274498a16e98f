-- luma.nn.conv: convolution (plain and transposed), pooling, Dropout2d,
-- BatchNorm2d and Upsample modules
-- for signals and images (docs/NN.md, "Convolutional networks"),
-- PyTorch's names and semantics.
--
-- Layout: a batch of N samples is an N-row matrix; a row holds one
-- sample's channels-first tensor flattened row-major, C x L for the 1-D
-- layers and C x H x W for the 2-D ones, and every layer's output has the
-- same layout (Flatten, then Linear, reads it as it is).  The spatial
-- shape: Conv1d takes L = columns / in_channels; Conv2d takes input_size
-- = {H, W}, or square images (H = W = sqrt(columns / in_channels)) when
-- it is not given; the pooling layers and Upsample, which do not know the
-- channels, take input_size = {C, L} or {C, H, W}, which output_size() of the layer
-- before gives.
--
-- Each convolution or pooling call is one autograd node whose forward and
-- backward are C kernels (src/ml/nn/conv.c: im2col and dgemm, col2im);
-- BatchNorm2d is composed of autograd operations, Upsample of gathers.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local autograd = require("luma.autograd")
local variable = require("luma.autograd.variable")
local module = require("luma.nn.module")
local native = require("luma.nn.native")

local fail = args.fail
local class = module.class
local Variable = autograd.Variable
local record = variable.record

local conv = {}

local MAX = 2147483647

local function as_variable(x, fname)
  if autograd.is_variable(x) then return x end
  if luma.ismatrix(x) then return Variable(x) end
  fail(4, "%s: input must be a luma.Matrix or a luma.autograd.Variable, got %s", fname,
    args.type_of(x))
end

local function wants_grad(x) return x ~= nil and x.requires_grad == true end

-- The helpers' level is the one their caller would give fail(): where
-- the error is reported.
local function check_int(v, name, fname, min, level)
  if math.type(v) ~= "integer" or v < min or v > MAX then
    fail(level + 1, "%s: %s must be an integer in [%d, %d], got %s", fname, name, min, MAX, tostring(v))
  end
  return v
end

-- An option of dims sizes: an integer (every dimension) or a list of dims
-- integers, each >= min; nil gives default.
local function sizes(v, dims, name, fname, min, default, level)
  if v == nil then v = default end
  if math.type(v) == "integer" then
    check_int(v, name, fname, min, level + 1)
    return dims == 1 and { v } or { v, v }
  end
  if type(v) ~= "table" or #v ~= dims then
    fail(level + 1, "%s: %s must be an integer or a list of %d integers, got %s", fname, name, dims,
      args.type_of(v))
  end
  local out = {}
  for i = 1, dims do out[i] = check_int(v[i], name, fname, min, level + 1) end
  return out
end

local function generator_of(opts, fname, level)
  local g = opts.generator
  if g == nil then return luma.random.Generator() end
  if type(g) ~= "userdata" and type(g) ~= "table" then
    fail(level + 1, "%s: generator must be a luma.random.Generator, got %s", fname, args.type_of(g))
  end
  return g
end

local function out_size(n, k, s, p, d)
  local span = n + 2 * p - d * (k - 1) - 1
  return span < 0 and 0 or span // s + 1
end

-- The 2-D geometry of a window layer on an input of C x H x W (a 1-D one
-- is H = 1 with a 1-high window): the native functions' arguments.
local function geometry(self, C, H, W)
  local k, s, p, d = self._k, self._s, self._p, self._d
  local oh, ow = out_size(H, k[1], s[1], p[1], d[1]), out_size(W, k[2], s[2], p[2], d[2])
  return { C, H, W, k[1], k[2], s[1], s[2], p[1], p[2], d[1], d[2], self.groups or 1 }, oh, ow
end

-- "3" for 1-D, "3 x 3" for 2-D (the layer's own view of its sizes).
local function shown(self, t)
  if self._dims == 1 then return tostring(t[2]) end
  return string.format("%d x %d", t[1], t[2])
end

local function check_fits(self, fname, H, W, oh, ow, level)
  if oh < 1 or ow < 1 then
    local k, p, d = self._k, self._p, self._d
    local kh, kw = d[1] * (k[1] - 1) + 1, d[2] * (k[2] - 1) + 1
    if self._dims == 1 then
      fail(level + 1, "%s: the kernel (%d wide, dilated) is larger than the padded input (%d)", fname,
        kw, W + 2 * p[2])
    end
    fail(level + 1, "%s: the kernel (%d x %d, dilated) is larger than the padded input (%d x %d)",
      fname, kh, kw, H + 2 * p[1], W + 2 * p[2])
  end
end

-- Lifts 1-D options {a} to the 2-D geometry {1 or zero, a}.
local function lift(t, dims, fill)
  if dims == 1 then return { fill, t[1] } end
  return t
end

-- Convolutions -------------------------------------------------------------

local CONV_OPTIONS = { stride = true, padding = true, dilation = true, groups = true, bias = true,
  input_size = true, generator = true }

local TRANSPOSE_OPTIONS = { stride = true, padding = true, output_padding = true, dilation = true,
  groups = true, bias = true, input_size = true, generator = true }

-- The options and parameters of a convolution, or (transposed) of its
-- adjoint: kernel_size, stride, padding, dilation (and output_padding)
-- as given (1 or 2 numbers) and lifted to the 2-D geometry (_k, _s, _p,
-- _d, _op), and PyTorch's default U(-1/sqrt(fan_in), 1/sqrt(fan_in))
-- weight and bias: kaiming_uniform_(a = sqrt(5)) with fan_in the weight's
-- second dimension, in/groups x kernel (out x that weight) or, for the
-- transposed layer, out/groups x kernel (in x that weight).
local function window_init(self, fname, dims, cin, cout, k, opts, transposed)
  opts = args.options(fname, 4, opts, nil, transposed and TRANSPOSE_OPTIONS or CONV_OPTIONS, 5)
  check_int(cin, "in_channels", fname, 1, 5)
  check_int(cout, "out_channels", fname, 1, 5)
  local groups = opts.groups == nil and 1 or opts.groups
  check_int(groups, "groups", fname, 1, 5)
  for _, pair in ipairs({ { "in_channels", cin }, { "out_channels", cout } }) do
    if pair[2] % groups ~= 0 then
      fail(5, "%s: %s (%d) is not divisible by groups (%d)", fname, pair[1], pair[2], groups)
    end
  end
  self._dims = dims
  self.in_channels, self.out_channels, self.groups = cin, cout, groups
  self.kernel_size = sizes(k, dims, "kernel_size", fname, 1, nil, 5)
  self.stride = sizes(opts.stride, dims, "stride", fname, 1, 1, 5)
  self.padding = sizes(opts.padding, dims, "padding", fname, 0, 0, 5)
  self.dilation = sizes(opts.dilation, dims, "dilation", fname, 1, 1, 5)
  if transposed then
    self.output_padding = sizes(opts.output_padding, dims, "output_padding", fname, 0, 0, 5)
    for i = 1, dims do
      local op, st, di = self.output_padding[i], self.stride[i], self.dilation[i]
      if op >= st and op >= di then
        fail(5, "%s: output_padding (%d) must be smaller than the stride (%d) or the dilation (%d)",
          fname, op, st, di)
      end
    end
    self._op = lift(self.output_padding, dims, 0)
  end
  self._k, self._s = lift(self.kernel_size, dims, 1), lift(self.stride, dims, 1)
  self._p, self._d = lift(self.padding, dims, 0), lift(self.dilation, dims, 1)
  if opts.input_size ~= nil then
    self.input_size = sizes(opts.input_size, dims, "input_size", fname, 1, nil, 5)
  end
  local rows, fan = cout, cin // groups * self._k[1] * self._k[2]
  if transposed then rows, fan = cin, cout // groups * self._k[1] * self._k[2] end
  local bound = 1 / math.sqrt(fan)
  local g = generator_of(opts, fname, 5)
  self:register_parameter("weight", g:uniform(rows, fan) * (2 * bound) - bound)
  if opts.bias ~= false then
    self:register_parameter("bias", g:uniform(1, cout) * (2 * bound) - bound)
  end
end

local function conv_init(self, fname, dims, cin, cout, k, opts)
  window_init(self, fname, dims, cin, cout, k, opts, false)
end

-- The input's C x H x W by the layer's rule, or an error naming both.
local function conv_input(self, fname, x)
  local n, cols = x.value:rows(), x.value:cols()
  local C = self.in_channels
  if self._dims == 1 then
    local L = self.input_size and self.input_size[1] or cols // C
    if cols ~= C * L or L < 1 then
      fail(4, "%s: input is %d x %d but the layer expects in_channels (%d) x length%s per row",
        fname, n, cols, C, self.input_size and (" (" .. L .. ") = " .. C * L) or "")
    end
    return C, 1, L
  end
  local H, W
  if self.input_size then
    H, W = self.input_size[1], self.input_size[2]
  else
    local side = math.floor(math.sqrt(cols / C) + 0.5)
    H, W = side, side
  end
  if cols ~= C * H * W or H < 1 then
    if self.input_size and cols % (H * W) == 0 then
      fail(4, "%s: input has %d channels of %d x %d (%d columns a row) but in_channels is %d",
        fname, cols // (H * W), H, W, cols, C)
    end
    if self.input_size then
      fail(4, "%s: input is %d x %d but the layer expects in_channels x H x W = %d x %d x %d = %d "
        .. "columns per row", fname, n, cols, C, H, W, C * H * W)
    end
    fail(4, "%s: input is %d x %d, which is not in_channels (%d) x H x W for square images; "
      .. "give input_size = {H, W}", fname, n, cols, C)
  end
  return C, H, W
end

-- One conv node: the value by native.conv2d, the backward by
-- native.conv2d_backward for the inputs that want a gradient.
local function convolve(x, weight, bias, geo)
  local xv, wv = x.value, weight.value
  local bv = bias and bias.value
  local y = native.conv2d(xv, wv, bv, table.unpack(geo))
  return record("conv", y, { x, weight, bias }, function(g)
    local dx, dw, db = native.conv2d_backward(xv, wv, g, wants_grad(x), wants_grad(weight),
      wants_grad(bias), table.unpack(geo))
    return { dx, dw, db }
  end)
end

local function conv_forward(self, fname, x)
  x = as_variable(x, fname)
  local C, H, W = conv_input(self, fname, x)
  local geo, oh, ow = geometry(self, C, H, W)
  check_fits(self, fname, H, W, oh, ow, 3)
  return convolve(x, self.weight, self.bias, geo)
end

-- The output's shape for an input of input_size ({L} or {H, W}; the
-- layer's own when omitted): {C_out, L_out} or {C_out, H_out, W_out}.
local function conv_output_size(self, fname, input_size)
  input_size = input_size or self.input_size
  if input_size == nil then
    fail(2, "%s: output_size needs the input's size (no input_size option was given)", fname)
  end
  local size = sizes(input_size, self._dims, "input_size", fname, 1, nil, 2)
  size = lift(size, self._dims, 1)
  local _, oh, ow = geometry(self, self.in_channels, size[1], size[2])
  check_fits(self, fname, size[1], size[2], oh, ow, 2)
  if self._dims == 1 then return { self.out_channels, ow } end
  return { self.out_channels, oh, ow }
end

local function conv_repr(self)
  local parts = { string.format("%d, %d, kernel_size=%s, stride=%s", self.in_channels,
    self.out_channels, shown(self, self._k), shown(self, self._s)) }
  if self._p[1] ~= 0 or self._p[2] ~= 0 then parts[#parts + 1] = "padding=" .. shown(self, self._p) end
  if self._d[1] ~= 1 or self._d[2] ~= 1 then parts[#parts + 1] = "dilation=" .. shown(self, self._d) end
  if self.groups ~= 1 then parts[#parts + 1] = "groups=" .. self.groups end
  if self.bias == nil then parts[#parts + 1] = "bias=false" end
  return table.concat(parts, ", ")
end

--- Conv1d(in_channels, out_channels, kernel_size [, {stride = 1, padding
-- = 0, dilation = 1, groups = 1, bias = true, input_size = nil, generator
-- = nil}]): rows of C x L.
conv.Conv1d = class("Conv1d", {
  init = function(self, cin, cout, k, opts) conv_init(self, "Conv1d", 1, cin, cout, k, opts) end,
  forward = function(self, x) return conv_forward(self, "Conv1d", x) end,
  output_size = function(self, size) return conv_output_size(self, "Conv1d", size) end,
  extra_repr = conv_repr,
})

--- Conv2d(in_channels, out_channels, kernel_size [, {stride = 1, padding
-- = 0, dilation = 1, groups = 1, bias = true, input_size = nil, generator
-- = nil}]): rows of C x H x W.
conv.Conv2d = class("Conv2d", {
  init = function(self, cin, cout, k, opts) conv_init(self, "Conv2d", 2, cin, cout, k, opts) end,
  forward = function(self, x) return conv_forward(self, "Conv2d", x) end,
  output_size = function(self, size) return conv_output_size(self, "Conv2d", size) end,
  extra_repr = conv_repr,
})

-- Transposed convolution ---------------------------------------------------

-- (n - 1) s - 2 p + d (k - 1) + op + 1, PyTorch's output size.
local function transpose_size(n, k, s, p, d, op) return (n - 1) * s - 2 * p + d * (k - 1) + op + 1 end

-- The output's H, W for an input of H x W, or an error when it is empty.
local function transpose_output(self, fname, H, W, level)
  local k, s, p, d, op = self._k, self._s, self._p, self._d, self._op
  local oh = transpose_size(H, k[1], s[1], p[1], d[1], op[1])
  local ow = transpose_size(W, k[2], s[2], p[2], d[2], op[2])
  if oh < 1 or ow < 1 then
    if self._dims == 1 then
      fail(level + 1, "%s: the output of a length %d input would be empty (%d): the padding (%d) "
        .. "crops more than the dilated kernel (%d) adds", fname, W, ow, p[2], d[2] * (k[2] - 1) + 1)
    end
    fail(level + 1, "%s: the output of a %d x %d input would be empty (%d x %d): the padding "
      .. "(%d x %d) crops more than the dilated kernel (%d x %d) adds", fname, H, W, oh, ow, p[1], p[2],
      d[1] * (k[1] - 1) + 1, d[2] * (k[2] - 1) + 1)
  end
  return oh, ow
end

-- ConvTranspose1d and ConvTranspose2d: a 1-D layer is the 2-D one on a
-- 1-high input with a 1-high kernel (no stride, padding or dilation
-- across it), as for Conv1d.
local function transpose_init(self, fname, dims, cin, cout, k, opts)
  window_init(self, fname, dims, cin, cout, k, opts, true)
end

local function transpose_forward(self, fname, x)
  x = as_variable(x, fname)
  local C, H, W = conv_input(self, fname, x)
  transpose_output(self, fname, H, W, 3)
  local k, s, p, d, op = self._k, self._s, self._p, self._d, self._op
  local geo = { C, H, W, k[1], k[2], s[1], s[2], p[1], p[2], d[1], d[2], self.groups, op[1], op[2] }
  local xv, wv = x.value, self.weight.value
  local weight, bias = self.weight, self.bias
  local y = native.conv_transpose2d(xv, wv, bias and bias.value, table.unpack(geo))
  return record("conv_transpose", y, { x, weight, bias }, function(g)
    local dx, dw, db = native.conv_transpose2d_backward(xv, wv, g, wants_grad(x), wants_grad(weight),
      wants_grad(bias), table.unpack(geo))
    return { dx, dw, db }
  end)
end

local function transpose_output_size(self, fname, input_size)
  input_size = input_size or self.input_size
  if input_size == nil then
    fail(2, "%s: output_size needs the input's size (no input_size option was given)", fname)
  end
  local size = lift(sizes(input_size, self._dims, "input_size", fname, 1, nil, 2), self._dims, 1)
  local oh, ow = transpose_output(self, fname, size[1], size[2], 2)
  if self._dims == 1 then return { self.out_channels, ow } end
  return { self.out_channels, oh, ow }
end

local function transpose_repr(self)
  local text = conv_repr(self)
  local op = self._op
  if op[1] ~= 0 or op[2] ~= 0 then text = text .. ", output_padding=" .. shown(self, op) end
  return text
end

--- ConvTranspose1d(in_channels, out_channels, kernel_size [, {stride = 1,
-- padding = 0, output_padding = 0, dilation = 1, groups = 1, bias = true,
-- input_size = nil, generator = nil}]): the adjoint of Conv1d in its
-- input (PyTorch's ConvTranspose1d), rows of C x L.
conv.ConvTranspose1d = class("ConvTranspose1d", {
  init = function(self, cin, cout, k, opts)
    transpose_init(self, "ConvTranspose1d", 1, cin, cout, k, opts)
  end,
  forward = function(self, x) return transpose_forward(self, "ConvTranspose1d", x) end,
  output_size = function(self, size) return transpose_output_size(self, "ConvTranspose1d", size) end,
  extra_repr = transpose_repr,
})

--- ConvTranspose2d(in_channels, out_channels, kernel_size [, {stride = 1,
-- padding = 0, output_padding = 0, dilation = 1, groups = 1, bias = true,
-- input_size = nil, generator = nil}]): the adjoint of Conv2d in its
-- input (PyTorch's ConvTranspose2d), rows of C x H x W.
conv.ConvTranspose2d = class("ConvTranspose2d", {
  init = function(self, cin, cout, k, opts)
    transpose_init(self, "ConvTranspose2d", 2, cin, cout, k, opts)
  end,
  forward = function(self, x) return transpose_forward(self, "ConvTranspose2d", x) end,
  output_size = function(self, size) return transpose_output_size(self, "ConvTranspose2d", size) end,
  extra_repr = transpose_repr,
})

-- Pooling --------------------------------------------------------------------

-- input_size {C, L} or {C, H, W}: returns C, H, W.
local function pool_shape(v, dims, fname, level)
  if type(v) ~= "table" or #v ~= dims + 1 then
    fail(level + 1, "%s: input_size must be a list of %d integers (%s), got %s", fname, dims + 1,
      dims == 1 and "C, L" or "C, H, W", type(v) == "table" and ("a list of " .. #v) or args.type_of(v))
  end
  for i = 1, dims + 1 do check_int(v[i], "input_size", fname, 1, level + 1) end
  if dims == 1 then return v[1], 1, v[2] end
  return v[1], v[2], v[3]
end

local function pool_input(self, fname, x)
  local n, cols = x.value:rows(), x.value:cols()
  local C, H, W = self._C, self._H, self._W
  if cols ~= C * H * W then
    fail(4, "%s: input is %d x %d but input_size is %s = %d columns per row", fname, n, cols,
      self._dims == 1 and string.format("%d x %d", C, W) or string.format("%d x %d x %d", C, H, W),
      C * H * W)
  end
end

local function pool_init(self, fname, dims, kind, kernel_size, opts)
  opts = args.options(fname, 2, opts, nil, { stride = true, padding = true, input_size = true }, 4)
  self._dims, self._kind = dims, kind
  self.kernel_size = sizes(kernel_size, dims, "kernel_size", fname, 1, nil, 4)
  self.stride = sizes(opts.stride, dims, "stride", fname, 1, self.kernel_size, 4)
  self.padding = sizes(opts.padding, dims, "padding", fname, 0, 0, 4)
  for i = 1, dims do
    if self.padding[i] > self.kernel_size[i] // 2 then
      fail(4, "%s: padding (%d) must be at most half the kernel size (%d)", fname,
        self.padding[i], self.kernel_size[i])
    end
  end
  self._k, self._s = lift(self.kernel_size, dims, 1), lift(self.stride, dims, 1)
  self._p, self._d = lift(self.padding, dims, 0), { 1, 1 }
  self._C, self._H, self._W = pool_shape(opts.input_size, dims, fname, 4)
  self.input_size = opts.input_size
  local _, oh, ow = geometry(self, self._C, self._H, self._W)
  check_fits(self, fname, self._H, self._W, oh, ow, 4)
  self._oh, self._ow = oh, ow
end

local function pool_node(kind, x, geo)
  local xv = x.value
  return record(kind .. "_pool", native.pool2d(kind, xv, table.unpack(geo)), { x }, function(g)
    return { native.pool2d_backward(kind, xv, g, table.unpack(geo)) }
  end)
end

local function pool_forward(self, fname, x)
  x = as_variable(x, fname)
  pool_input(self, fname, x)
  local geo = geometry(self, self._C, self._H, self._W)
  return pool_node(self._kind, x, geo)
end

local function pool_output_size(self)
  if self._dims == 1 then return { self._C, self._ow } end
  return { self._C, self._oh, self._ow }
end

local function pool_repr(self)
  return string.format("kernel_size=%s, stride=%s, padding=%s", shown(self, self._k),
    shown(self, self._s), shown(self, self._p))
end

local function pool_class(name, dims, kind)
  return class(name, {
    init = function(self, k, opts) pool_init(self, name, dims, kind, k, opts) end,
    forward = function(self, x) return pool_forward(self, name, x) end,
    output_size = pool_output_size,
    extra_repr = pool_repr,
  })
end

--- MaxPool1d/2d(kernel_size, {stride = kernel_size, padding = 0,
-- input_size = {C, L} or {C, H, W}}), AvgPool1d/2d the same.
conv.MaxPool1d = pool_class("MaxPool1d", 1, "max")
conv.MaxPool2d = pool_class("MaxPool2d", 2, "max")
conv.AvgPool1d = pool_class("AvgPool1d", 1, "avg")
conv.AvgPool2d = pool_class("AvgPool2d", 2, "avg")

local function adaptive_class(name, dims)
  return class(name, {
    init = function(self, output_size, opts)
      opts = args.options(name, 2, opts, nil, { input_size = true }, 3)
      self._dims = dims
      self.output_size_ = sizes(output_size, dims, "output_size", name, 1, nil, 3)
      self._C, self._H, self._W = pool_shape(opts.input_size, dims, name, 3)
      self.input_size = opts.input_size
      local o = lift(self.output_size_, dims, 1)
      self._oh, self._ow = o[1], o[2]
    end,
    forward = function(self, x)
      x = as_variable(x, name)
      pool_input(self, name, x)
      return pool_node("adaptive", x, { self._C, self._H, self._W, self._oh, self._ow })
    end,
    output_size = pool_output_size,
    extra_repr = function(self)
      return "output_size=" .. (dims == 1 and tostring(self._ow) or (self._oh .. " x " .. self._ow))
    end,
  })
end

--- AdaptiveAvgPool1d/2d(output_size, {input_size = {C, L} or {C, H, W}}).
conv.AdaptiveAvgPool1d = adaptive_class("AdaptiveAvgPool1d", 1)
conv.AdaptiveAvgPool2d = adaptive_class("AdaptiveAvgPool2d", 2)

-- Normalization and resampling ---------------------------------------------

--- Dropout2d([p = 0.5 [, {input_size = {C, H, W} or {C, L}, generator =
-- nil}]]): in training each channel of each sample is zeroed whole with
-- probability p and the kept ones scaled by 1 / (1 - p) (Tompson et al.,
-- CVPR 2015; PyTorch's Dropout2d); the identity at inference.
conv.Dropout2d = class("Dropout2d", {
  init = function(self, p, opts)
    p = p == nil and 0.5 or p
    if type(p) ~= "number" or not (p >= 0 and p < 1) then
      fail(3, "Dropout2d: p must be a number in [0, 1), got %s", tostring(p))
    end
    opts = args.options("Dropout2d", 2, opts, nil, { input_size = true, generator = true }, 3)
    local size = opts.input_size
    if type(size) ~= "table" or (#size ~= 2 and #size ~= 3) then
      fail(3, "Dropout2d: input_size must be a list of 3 integers (C, H, W) or 2 (C, L), got %s",
        type(size) == "table" and ("a list of " .. #size) or args.type_of(size))
    end
    local plane = 1
    for i = 1, #size do
      check_int(size[i], "input_size", "Dropout2d", 1, 3)
      if i > 1 then plane = plane * size[i] end
    end
    self.p, self.input_size = p, size
    self._C, self._plane = size[1], plane
    self.generator = generator_of(opts, "Dropout2d", 3)
    -- column j of a row belongs to channel channel_of[j]
    local channel_of = {}
    for j = 1, self._C * plane do channel_of[j] = (j - 1) // plane + 1 end
    self._channel_of = luma.matrix(channel_of)
  end,
  forward = function(self, x)
    x = as_variable(x, "Dropout2d")
    local n, cols, C = x.value:rows(), x.value:cols(), self._C
    if cols ~= C * self._plane then
      if cols % self._plane == 0 then
        fail(3, "Dropout2d: input has %d channels of %d values (%d columns a row) but input_size "
          .. "has %d", cols // self._plane, self._plane, cols, C)
      end
      fail(3, "Dropout2d: input is %d x %d but input_size is %d channels of %d values = %d columns",
        n, cols, C, self._plane, C * self._plane)
    end
    if not self.training or self.p == 0 then return x end
    local keep = 1 - self.p
    local mask = self.generator:uniform(n, C):lt(keep) / keep
    return x:mul(mask:take(self._channel_of, 2))
  end,
  output_size = function(self) return self.input_size end,
  extra_repr = function(self) return string.format("p=%g", self.p) end,
})

-- x (N x C S, S the spatial size) as the (S N) x C matrix whose columns
-- are the channels, and back: row-major reshapes around a transpose
-- (autograd operations, so the gradient flows through them).
local function channels_as_columns(x, N, C, S)
  return x:reshape(N * C, S):t():reshape(S * N, C)
end
local function columns_as_channels(z, N, C, S)
  return z:reshape(S, N * C):t():reshape(N, C * S)
end

--- BatchNorm2d(num_features [, {eps = 1e-5, momentum = 0.1, affine =
-- true, track_running_stats = true}]): Ioffe & Szegedy (2015) per
-- channel, the statistics over the batch and every position.
conv.BatchNorm2d = class("BatchNorm2d", {
  init = function(self, C, opts)
    opts = args.options("BatchNorm2d", 2, opts, nil,
      { eps = true, momentum = true, affine = true, track_running_stats = true }, 3)
    check_int(C, "num_features", "BatchNorm2d", 1, 3)
    self.num_features = C
    self.eps = opts.eps or 1e-5
    self.momentum = opts.momentum or 0.1
    self.affine = opts.affine ~= false
    self.track_running_stats = opts.track_running_stats ~= false
    if self.affine then
      self:register_parameter("weight", luma.ones(1, C))
      self:register_parameter("bias", luma.zeros(1, C))
    end
    if self.track_running_stats then
      self:register_buffer("running_mean", luma.zeros(1, C))
      self:register_buffer("running_var", luma.ones(1, C))
    end
  end,
  forward = function(self, x)
    x = as_variable(x, "BatchNorm2d")
    local N, cols, C = x.value:rows(), x.value:cols(), self.num_features
    if cols % C ~= 0 or cols == 0 then
      fail(3, "BatchNorm2d: input is %d x %d, whose %d columns are not num_features (%d) "
        .. "channels of one size", N, cols, cols, C)
    end
    local S = cols // C
    local z = channels_as_columns(x, N, C, S)
    local values = z.value -- (S N) x C, a channel a column
    if self.training or not self.track_running_stats then
      if self.training and N * S < 2 then
        fail(3, "BatchNorm2d: a training batch needs at least 2 values a channel, got %d", N * S)
      end
      local centred = z - z:mean(1)
      z = centred:div((centred:mul(centred):mean(1) + self.eps):sqrt())
      if self.training and self.track_running_stats then
        local m = self.momentum
        self.running_mean:assign(self.running_mean * (1 - m) + values:mean(1) * m)
        self.running_var:assign(self.running_var * (1 - m) + values:var(1, 1) * m)
      end
    else
      z = (z - self.running_mean):div((self.running_var + self.eps):sqrt())
    end
    if self.affine then z = z:mul(self.weight) + self.bias end
    return columns_as_channels(z, N, C, S)
  end,
  extra_repr = function(self)
    return string.format("%d, eps=%g, momentum=%g, affine=%s", self.num_features, self.eps,
      self.momentum, tostring(self.affine))
  end,
})

-- The 1-based columns of the upsampled image (C x sH H x sW W) that copy
-- input position k, for the offset (a, b) inside its block, as one index
-- vector over the input positions.
local function block_indices(C, H, W, sh, sw, a, b)
  local idx, k = {}, 0
  local oh, ow = H * sh, W * sw
  for c = 0, C - 1 do
    for h = 0, H - 1 do
      for w = 0, W - 1 do
        k = k + 1
        idx[k] = (c * oh + h * sh + a) * ow + w * sw + b + 1
      end
    end
  end
  return luma.matrix(idx)
end

--- Upsample({scale_factor = s or {sh, sw}, mode = "nearest", input_size =
-- {C, H, W}}): each pixel repeated into an sh x sw block.
conv.Upsample = class("Upsample", {
  init = function(self, opts)
    opts = args.options("Upsample", 1, opts, nil,
      { scale_factor = true, mode = true, input_size = true }, 3)
    if opts.mode ~= nil and opts.mode ~= "nearest" then
      fail(3, "Upsample: mode must be \"nearest\" (the only one so far), got %s", tostring(opts.mode))
    end
    if opts.scale_factor == nil then fail(3, "Upsample: scale_factor is required") end
    self.scale_factor = sizes(opts.scale_factor, 2, "scale_factor", "Upsample", 1, nil, 3)
    self._C, self._H, self._W = pool_shape(opts.input_size, 2, "Upsample", 3)
    self.input_size = opts.input_size
    local C, H, W = self._C, self._H, self._W
    local sh, sw = self.scale_factor[1], self.scale_factor[2]
    -- output column j copies input column source[j]
    local source, j = {}, 0
    for c = 0, C - 1 do
      for y = 0, H * sh - 1 do
        for z = 0, W * sw - 1 do
          j = j + 1
          source[j] = (c * H + y // sh) * W + z // sw + 1
        end
      end
    end
    self._source = luma.matrix(source)
    self._blocks = {}
    for a = 0, sh - 1 do
      for b = 0, sw - 1 do self._blocks[#self._blocks + 1] = block_indices(C, H, W, sh, sw, a, b) end
    end
    self._dims, self._oh, self._ow = 2, H * sh, W * sw
  end,
  forward = function(self, x)
    x = as_variable(x, "Upsample")
    pool_input(self, "Upsample", x)
    local blocks = self._blocks
    -- the gradient of an input pixel: the sum over its block, offsets in
    -- row-major order
    return record("upsample", x.value:take(self._source, 2), { x }, function(g)
      local dx = g:take(blocks[1], 2)
      for k = 2, #blocks do dx = dx + g:take(blocks[k], 2) end
      return { dx }
    end)
  end,
  output_size = pool_output_size,
  extra_repr = function(self)
    return string.format("scale_factor=%d x %d, mode=nearest", self.scale_factor[1], self.scale_factor[2])
  end,
})

return conv
