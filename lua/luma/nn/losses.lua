-- luma.nn.losses: loss modules (docs/NN.md, "Losses").  Each is called
-- as loss(input, target) and returns a Variable: 1 x 1 for the
-- reductions "mean" (default) and "sum", one value a row (n x 1) for
-- "none".  Definitions follow PyTorch's (torch.nn), so values and
-- gradients can be compared with it.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local autograd = require("luma.autograd")
local module = require("luma.nn.module")

local fail = args.fail
local class = module.class

local losses = {}

local REDUCTIONS = { mean = true, sum = true, none = true }

local function reduction_of(opts, name)
  local r = opts.reduction or "mean"
  if not REDUCTIONS[r] then
    fail(4, "%s: reduction must be \"mean\", \"sum\" or \"none\", got %s", name, tostring(r))
  end
  return r
end

local function as_variable(x, name, what)
  if autograd.is_variable(x) then return x end
  if luma.ismatrix(x) then return autograd.Variable(x) end
  fail(4, "%s: %s must be a luma.Matrix or a luma.autograd.Variable, got %s", name, what,
    args.type_of(x))
end

local function value_of(x) return autograd.is_variable(x) and x.value or x end

local function same_shape(a, b, name, what)
  local A, B = value_of(a), value_of(b)
  if not luma.ismatrix(B) then
    fail(4, "%s: %s must be a luma.Matrix or a luma.autograd.Variable, got %s", name, what, args.type_of(b))
  end
  if A:rows() ~= B:rows() or A:cols() ~= B:cols() then
    fail(4, "%s: input is %d x %d but %s is %d x %d", name, A:rows(), A:cols(), what, B:rows(), B:cols())
  end
end

-- Reduces element losses (n x c): "none" sums each row (n x 1).
local function reduce(l, reduction)
  if reduction == "mean" then return l:mean() end
  if reduction == "sum" then return l:sum() end
  return l.value:cols() == 1 and l or l:sum(2)
end

-- An element-wise loss class: elementwise(self, x, t) -> Variable.
local function elementwise_loss(name, extra_options, elementwise)
  local allowed = { reduction = true }
  for k in pairs(extra_options or {}) do allowed[k] = true end
  return class(name, {
    init = function(self, opts)
      opts = args.options(name, 1, opts, nil, allowed, 3)
      self.reduction = reduction_of(opts, name)
      for k, default in pairs(extra_options or {}) do
        local v = opts[k]
        if v == nil then v = default end
        if type(v) ~= "number" or v ~= v then fail(3, "%s: %s must be a number, got %s", name, k, tostring(v)) end
        self[k] = v
      end
    end,
    forward = function(self, input, target)
      local x = as_variable(input, name, "input")
      if luma.ismatrix(target) or autograd.is_variable(target) then same_shape(x, target, name, "target")
      else fail(3, "%s: target must be a luma.Matrix, got %s", name, args.type_of(target)) end
      return reduce(elementwise(self, x, target), self.reduction)
    end,
  })
end

--- MSELoss{reduction}: (x - t)^2.
losses.MSELoss = elementwise_loss("MSELoss", nil, function(_, x, t)
  local d = x - t
  return d:mul(d)
end)

--- L1Loss{reduction}: |x - t|.
losses.L1Loss = elementwise_loss("L1Loss", nil, function(_, x, t) return (x - t):abs() end)

--- HuberLoss{delta = 1, reduction}: 0.5 d^2 where |d| <= delta, delta
-- (|d| - delta / 2) beyond (Huber 1964), written with c = clamp(d) as
-- 0.5 c^2 + delta (|d| - |c|), which has the same value and gradient.
losses.HuberLoss = elementwise_loss("HuberLoss", { delta = 1 }, function(self, x, t)
  local d = x - t
  local c = d:clamp(-self.delta, self.delta)
  return c:mul(c) * 0.5 + (d:abs() - c:abs()) * self.delta
end)

-- The notes' label smoothing of binary targets: 0 -> eps, 1 -> 1 - eps.
local function smooth_binary(t, eps)
  if eps == 0 then return t end
  return value_of(t) * (1 - 2 * eps) + eps
end

--- BCELoss{reduction, label_smoothing = 0}: -(t log p + (1 - t) log(1 -
-- p)) for probabilities p, each log clamped at -100 as PyTorch does.
losses.BCELoss = elementwise_loss("BCELoss", { label_smoothing = 0 }, function(self, p, t)
  t = smooth_binary(t, self.label_smoothing)
  local logp = p:log():clamp(-100, math.huge)
  local log1mp = (1 - p):log():clamp(-100, math.huge)
  return -(logp:mul(t) + log1mp:mul(1 - value_of(t)))
end)

--- BCEWithLogitsLoss{reduction, label_smoothing = 0}: BCE of sigmoid(z),
-- computed stably as softplus(z) - z t.
losses.BCEWithLogitsLoss = elementwise_loss("BCEWithLogitsLoss", { label_smoothing = 0 },
  function(self, z, t)
    t = smooth_binary(t, self.label_smoothing)
    return z:softplus() - z:mul(t)
  end)

-- Class indices (a table or a vector of 1-based integers, one per row) as
-- an n x c one-hot matrix; a matrix of c columns is taken as
-- probabilities.
local function targets_of(target, n, c, name)
  if luma.ismatrix(target) and target:cols() == c and c > 1 then
    if target:rows() ~= n then
      fail(5, "%s: input is %d x %d but target is %d x %d", name, n, c, target:rows(), target:cols())
    end
    return target
  end
  -- (a column of indices, as y usually is, as well as a row)
  local list = luma.ismatrix(target) and target:flatten():t():totable()[1] or target
  if type(list) ~= "table" then
    fail(5, "%s: target must be class indices (a table or vector) or an n x %d matrix of "
      .. "probabilities, got %s", name, c, args.type_of(target))
  end
  if type(list[1]) == "table" then list = list[1] end
  if #list ~= n then fail(5, "%s: input has %d rows but target has %d class indices", name, n, #list) end
  local onehot = luma.zeros(n, c)
  for i, k in ipairs(list) do
    if type(k) ~= "number" or k ~= math.floor(k) or k < 1 or k > c then
      fail(5, "%s: target %d is %s, not a class in 1..%d", name, i, tostring(k), c)
    end
    onehot:set(i, k, 1)
  end
  return onehot
end

--- CrossEntropyLoss{reduction, label_smoothing = 0}: on logits z (n x
-- c) and class indices or probabilities q: -sum_k q_k log_softmax(z)_k.
-- With smoothing eps the target is (1 - eps) q + eps / c (Szegedy et al.,
-- CVPR 2016; PyTorch's definition).
losses.CrossEntropyLoss = class("CrossEntropyLoss", {
  init = function(self, opts)
    opts = args.options("CrossEntropyLoss", 1, opts, nil, { reduction = true, label_smoothing = true }, 3)
    self.reduction = reduction_of(opts, "CrossEntropyLoss")
    local eps = opts.label_smoothing or 0
    if type(eps) ~= "number" or not (eps >= 0 and eps <= 1) then
      fail(3, "CrossEntropyLoss: label_smoothing must be a number in [0, 1], got %s", tostring(eps))
    end
    self.label_smoothing = eps
  end,
  forward = function(self, input, target)
    local z = as_variable(input, "CrossEntropyLoss", "input")
    local n, c = z.value:rows(), z.value:cols()
    local q = targets_of(target, n, c, "CrossEntropyLoss")
    if self.label_smoothing > 0 then q = q * (1 - self.label_smoothing) + self.label_smoothing / c end
    local per_row = -(z:log_softmax(2):mul(q)):sum(2)
    if self.reduction == "mean" then return per_row:mean() end
    if self.reduction == "sum" then return per_row:sum() end
    return per_row
  end,
})

--- NLLLoss{reduction}: -logp[i, y_i] for log-probabilities (n x c) and
-- class indices.
losses.NLLLoss = class("NLLLoss", {
  init = function(self, opts)
    opts = args.options("NLLLoss", 1, opts, nil, { reduction = true }, 3)
    self.reduction = reduction_of(opts, "NLLLoss")
  end,
  forward = function(self, input, target)
    local lp = as_variable(input, "NLLLoss", "input")
    local n, c = lp.value:rows(), lp.value:cols()
    local per_row = -(lp:mul(targets_of(target, n, c, "NLLLoss"))):sum(2)
    if self.reduction == "mean" then return per_row:mean() end
    if self.reduction == "sum" then return per_row:sum() end
    return per_row
  end,
})

-- Row-wise Euclidean distance ||a - b + eps|| (n x 1), PyTorch's
-- pairwise_distance (its eps keeps the gradient finite at a = b).
local function distance(a, b, eps)
  local d = a - b + eps
  return d:mul(d):sum(2):sqrt()
end
losses.distance = distance

--- TripletMarginLoss{margin = 1, reduction}: [d(a, p) - d(a, n) +
-- margin]_+ for anchors, positives (same label as the anchor) and
-- negatives (another label), one triplet a row (Schroff et al., FaceNet,
-- CVPR 2015; the notes print the distances swapped, an erratum).
losses.TripletMarginLoss = class("TripletMarginLoss", {
  init = function(self, opts)
    opts = args.options("TripletMarginLoss", 1, opts, nil, { reduction = true, margin = true }, 3)
    self.reduction = reduction_of(opts, "TripletMarginLoss")
    self.margin = opts.margin or 1
  end,
  forward = function(self, anchor, positive, negative)
    local a = as_variable(anchor, "TripletMarginLoss", "anchor")
    same_shape(a, positive, "TripletMarginLoss", "positive")
    same_shape(a, negative, "TripletMarginLoss", "negative")
    local l = (distance(a, positive, 1e-6) - distance(a, negative, 1e-6) + self.margin):relu()
    return reduce(l, self.reduction)
  end,
})

--- ContrastiveLoss{margin = 1, form = "pairwise", reduction}: for pairs
-- (x1, x2) with similar = 1 or 0 a row: Hadsell, Chopra & LeCun (CVPR
-- 2006), similar d^2 / 2, dissimilar [margin - d]_+^2 / 2 ("pairwise");
-- or the course notes' form on the same pairs, similar [d - margin]_+,
-- dissimilar [1 - d]_+ ("notes").
losses.ContrastiveLoss = class("ContrastiveLoss", {
  init = function(self, opts)
    opts = args.options("ContrastiveLoss", 1, opts, nil, { reduction = true, margin = true, form = true }, 3)
    self.reduction = reduction_of(opts, "ContrastiveLoss")
    self.margin = opts.margin or 1
    self.form = opts.form or "pairwise"
    if self.form ~= "pairwise" and self.form ~= "notes" then
      fail(3, "ContrastiveLoss: form must be \"pairwise\" or \"notes\", got %s", tostring(self.form))
    end
  end,
  forward = function(self, x1, x2, similar)
    local a = as_variable(x1, "ContrastiveLoss", "x1")
    same_shape(a, x2, "ContrastiveLoss", "x2")
    if not luma.ismatrix(similar) or similar:cols() ~= 1 or similar:rows() ~= a.value:rows() then
      fail(3, "ContrastiveLoss: similar must be a %d x 1 matrix of 0 and 1", a.value:rows())
    end
    local d = distance(a, x2, 1e-6)
    local l
    if self.form == "pairwise" then
      local far = (self.margin - d):relu()
      l = (d:mul(d):mul(similar) + far:mul(far):mul(1 - similar)) * 0.5
    else
      l = (d - self.margin):relu():mul(similar) + (1 - d):relu():mul(1 - similar)
    end
    return reduce(l, self.reduction)
  end,
})

return losses
