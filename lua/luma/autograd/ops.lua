-- luma.autograd.ops: the differentiable operations (docs/NN.md).
--
-- Each operation computes its value with the matrix kernels and records a
-- backward function made of whole-matrix kernels (dgemm, element-wise
-- operations and reductions in C): no Lua code runs per element.  The
-- derivatives are the standard ones (Goodfellow, Bengio & Courville, Deep
-- Learning, 2016, sec. 6.5); where an operation is not differentiable at a
-- point (relu at 0, abs at 0, max at ties) the value chosen is PyTorch's,
-- so gradients can be compared with it: relu'(0) = 0, abs'(0) = 0,
-- clamp passes the gradient on its closed interval, elementwise maximum
-- and minimum split it equally at ties, a full max/min reduction spreads
-- it evenly over the tied elements and a max/min along a dimension gives
-- it to the first maximal element.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local variable = require("luma.autograd.variable")
-- g f'(x) for the activations, one fused pass in C (src/ml/nn)
local native = require("luma.nn.native")
local activation_backward = native.activation_backward

local fail = args.fail
local ismatrix = luma.ismatrix
local is_variable = variable.is_variable
local record = variable.record
local value_of = variable.value_of
local shape_text = variable.shape_text
local Variable, methods = variable.Variable, variable.methods

local ops = {}

-- rows, cols of a matrix by the method itself (one C call, not a lookup
-- through the matrix type's __index and then a call)
local shape = luma.zeros(0, 0).shape

-- An operand: a Variable, a matrix or a number; returns its value.
local function operand(x, n, fname, level)
  if is_variable(x) then return x.value end
  if ismatrix(x) or type(x) == "number" then return x end
  fail(level + 1, "bad argument #%d to '%s' (luma.autograd.Variable, luma.Matrix or number "
    .. "expected, got %s)", n, fname, args.type_of(x))
end

local function self_value(v, fname, level)
  if not is_variable(v) then
    args.bad_self(fname, "luma.autograd.Variable", v, level + 1)
  end
  return v.value
end

-- The shapes two operands broadcast to, or an error naming both.
local function check_broadcast(a, b, fname, level)
  if type(a) == "number" or type(b) == "number" then return end
  local ra, ca = shape(a)
  local rb, cb = shape(b)
  local rows_ok = ra == rb or ra == 1 or rb == 1
  local cols_ok = ca == cb or ca == 1 or cb == 1
  if not (rows_ok and cols_ok) then
    fail(level + 1, "%s: shapes %s and %s do not broadcast", fname, shape_text(a), shape_text(b))
  end
end

-- The gradient g of a broadcast result summed back to x's shape: over the
-- rows where x had one row, over the columns where it had one column.
local function unbroadcast(g, x)
  if type(x) == "number" then return nil end
  local r, c = shape(x)
  local gr, gc = shape(g)
  if gr ~= r then g = g:sum(1) end
  if gc ~= c then g = g:sum(2) end
  return g
end

local function as_matrix(v)
  if type(v) == "number" then return luma.full(1, 1, v) end
  return v
end

-- Whether the gradient of input x is wanted: a Variable requiring one.
local function wants_grad(x) return is_variable(x) and x.requires_grad end

-- Binary element-wise operations ------------------------------------------

local function binary(fname, a, b, level, forward, backward)
  local av, bv = operand(a, 1, fname, level + 1), operand(b, 2, fname, level + 1)
  check_broadcast(av, bv, fname, level + 1)
  local out = forward(av, bv)
  if type(out) == "number" then out = luma.full(1, 1, out) end
  return record(fname, out, { a, b }, function(g)
    local ga, gb = backward(g, av, bv, out)
    return { ga and unbroadcast(ga, av), gb and unbroadcast(gb, bv) }
  end)
end

-- (the forward and backward functions of each operation made once, not
-- at every call: the small-op overhead is mostly such allocations)
local function add_forward(x, y) return as_matrix(x) + y end
local function add_backward(g) return g, g end
function ops.add(a, b)
  local out = binary("add", a, b, 2, add_forward, add_backward)
  return out
end

local function sub_forward(x, y) return as_matrix(x) - y end
local function sub_backward(g) return g, -g end
function ops.sub(a, b)
  local out = binary("sub", a, b, 2, sub_forward, sub_backward)
  return out
end

local function mul_forward(x, y) return as_matrix(x):mul(y) end
local function mul_backward(g, x, y) return g:mul(y), g:mul(x) end
function ops.mul(a, b)
  local out = binary("mul", a, b, 2, mul_forward, mul_backward)
  return out
end

local function div_forward(x, y) return as_matrix(x):div(y) end
local function div_backward(g, _, y, out) return g:div(y), -(g:mul(out):div(y)) end
function ops.div(a, b)
  local out = binary("div", a, b, 2, div_forward, div_backward)
  return out
end

-- maximum/minimum: the gradient goes to the larger (smaller) operand and
-- is split in half at ties.
local function extremum(fname, pick, a, b)
  local out = binary(fname, a, b, 3, function(x, y) return pick(as_matrix(x), as_matrix(y)) end,
    function(g, x, y)
      local xm, ym = as_matrix(x), as_matrix(y)
      local first = fname == "maximum" and xm:gt(ym) or xm:lt(ym)
      local tie = xm:eq(ym) * 0.5
      local to_x = first + tie
      local to_y = 1 - first - tie
      return g:mul(to_x), g:mul(to_y)
    end)
  return out
end
function ops.maximum(a, b)
  local out = extremum("maximum", luma.matrix.maximum, a, b)
  return out
end
function ops.minimum(a, b)
  local out = extremum("minimum", luma.matrix.minimum, a, b)
  return out
end

--- matmul(a, b): the matrix product; dA = G B^T, dB = A^T G.
function ops.matmul(a, b)
  local av, bv = operand(a, 1, "matmul", 2), operand(b, 2, "matmul", 2)
  if type(av) == "number" or type(bv) == "number" then
    local out = binary("mul", a, b, 2, function(x, y) return as_matrix(x):mul(y) end,
      function(g, x, y) return g:mul(y), g:mul(x) end)
    return out
  end
  if av:cols() ~= bv:rows() then
    fail(2, "matmul: shapes %s and %s do not multiply (%d columns against %d rows)",
      shape_text(av), shape_text(bv), av:cols(), bv:rows())
  end
  return record("matmul", av * bv, { a, b }, function(g)
    return { wants_grad(a) and g * bv:t() or nil, wants_grad(b) and av:t() * g or nil }
  end)
end

-- x W + b (or x W^T + b when transposed: W out x in, PyTorch's layout) as
-- one node: the bias rows are written first and dgemm adds the product
-- onto them (src/ml/nn); the gradients are G W^T (G W), x^T G (G^T x) and
-- the column sums of G, each computed only when its input wants it.
local function affine(fname, x, W, b, transposed, arg_x, arg_W, arg_b)
  local xv, Wv = operand(x, arg_x, fname, 3), operand(W, arg_W, fname, 3)
  local bv = b ~= nil and operand(b, arg_b, fname, 3) or nil
  if type(xv) == "number" or type(Wv) == "number" or type(bv) == "number" then
    fail(3, "%s: x, W and b must be matrices or Variables, not numbers", fname)
  end
  local k = transposed and Wv:cols() or Wv:rows()
  local n = transposed and Wv:rows() or Wv:cols()
  if xv:cols() ~= k then
    fail(3, "%s: x is %s but W is %s (x needs %d columns)", fname, shape_text(xv),
      shape_text(Wv), k)
  end
  if bv and (bv:rows() ~= 1 or bv:cols() ~= n) then
    fail(3, "%s: b is %s but must be 1 x %d", fname, shape_text(bv), n)
  end
  return record(fname, native.affine(xv, Wv, bv, transposed), { x, W, b }, function(g)
    local gx = wants_grad(x) and g * (transposed and Wv or Wv:t()) or nil
    local gW = wants_grad(W) and (transposed and g:t() * xv or xv:t() * g) or nil
    return { gx, gW, bv and wants_grad(b) and g:sum(1) or nil }
  end)
end

--- linear(x, W [, b]): x W^T + b with W out x in (PyTorch's F.linear).
function ops.linear(x, W, b)
  local out = affine("linear", x, W, b, true, 1, 2, 3)
  return out
end

--- addmm(b, x, W): b + x W with b a 1 x out row (torch.addmm).
function ops.addmm(b, x, W)
  local out = affine("addmm", x, W, b, false, 2, 3, 1)
  return out
end

-- Unary element-wise operations -------------------------------------------

local function unary(fname, v, forward, backward)
  local x = self_value(v, fname, 3)
  local out = forward(x)
  return record(fname, out, { v }, function(g) return { backward(g, x, out) } end)
end

function methods.neg(v)
  local out = unary("neg", v, function(x) return -x end, function(g) return -g end)
  return out
end
function methods.exp(v)
  local out = unary("exp", v, function(x) return x:exp() end,
    function(g, _, y) return g:mul(y) end)
  return out
end
function methods.log(v)
  local out = unary("log", v, function(x) return x:log() end,
    function(g, x) return g:div(x) end)
  return out
end
function methods.log1p(v)
  local out = unary("log1p", v, function(x) return x:log1p() end,
    function(g, x) return g:div(x + 1) end)
  return out
end
function methods.sqrt(v)
  local out = unary("sqrt", v, function(x) return x:sqrt() end,
    function(g, _, y) return g:div(y * 2) end)
  return out
end
function methods.abs(v)
  local out = unary("abs", v, function(x) return x:abs() end,
    function(g, x) return g:mul(x:sign()) end)
  return out
end
function methods.tanh(v)
  local out = unary("tanh", v, function(x) return x:tanh() end,
    function(g, x, y) return activation_backward("tanh", g, x, y) end)
  return out
end
function methods.sigmoid(v)
  local out = unary("sigmoid", v, function(x) return x:sigmoid() end,
    function(g, x, y) return activation_backward("sigmoid", g, x, y) end)
  return out
end
function methods.relu(v)
  local out = unary("relu", v, function(x) return x:relu() end,
    function(g, x, y) return activation_backward("relu", g, x, y) end)
  return out
end
function methods.softplus(v)
  local out = unary("softplus", v, function(x) return x:softplus() end,
    function(g, x, y) return activation_backward("softplus", g, x, y) end)
  return out
end

--- v:pow(p): element-wise v^p for a number p.
function methods.pow(v, p)
  args.arg(type(p) == "number", 1, "pow", "number", p, 2)
  local out = unary("pow", v, function(x) return x:pow(p) end,
    function(g, x) return g:mul(x:pow(p - 1) * p) end)
  return out
end

--- v:leaky_relu([slope = 0.01]): x for x > 0, slope * x otherwise.
function methods.leaky_relu(v, slope)
  slope = slope == nil and 0.01 or slope
  args.arg(type(slope) == "number", 1, "leaky_relu", "number", slope, 2)
  local out = unary("leaky_relu", v,
    function(x) local pos = x:gt(0) return x:mul(pos + (1 - pos) * slope) end,
    function(g, x, y) return activation_backward("leaky_relu", g, x, y, slope) end)
  return out
end

--- v:elu([alpha = 1]): x for x > 0, alpha (e^x - 1) otherwise.
function methods.elu(v, alpha)
  alpha = alpha == nil and 1 or alpha
  args.arg(type(alpha) == "number", 1, "elu", "number", alpha, 2)
  local out = unary("elu", v,
    function(x) local pos = x:gt(0) return x:mul(pos) + x:minimum(0):expm1() * alpha end,
    function(g, x, y) return activation_backward("elu", g, x, y, alpha) end)
  return out
end

--- v:clamp(lo, hi): element-wise min(max(x, lo), hi); the gradient passes
-- where lo <= x <= hi.
function methods.clamp(v, lo, hi)
  args.arg(type(lo) == "number" and lo == lo, 1, "clamp", "number (not NaN)", lo, 2)
  args.arg(type(hi) == "number" and hi == hi, 2, "clamp", "number (not NaN)", hi, 2)
  if lo > hi then fail(2, "clamp: lo (%g) is greater than hi (%g)", lo, hi) end
  local out = unary("clamp", v, function(x) return x:clamp(lo, hi) end,
    function(g, x) return g:mul(x:ge(lo):mul(x:le(hi))) end)
  return out
end

-- Reductions ---------------------------------------------------------------

local function check_dim(dim, n, fname, level)
  if dim ~= nil and dim ~= 1 and dim ~= 2 then
    fail(level + 1, "bad argument #%d to '%s' (dim must be 1, 2 or nil, got %s)", n, fname,
      tostring(dim))
  end
end

-- g (1 x 1, 1 x c or r x 1) spread over x's shape.
local function expand(g, x)
  local gr, gc = shape(g)
  if gr == 1 and gc == 1 then return luma.full(x:rows(), x:cols(), g:get(1, 1)) end
  return luma.zeros(shape(x)) + g
end

--- v:sum([dim]): all elements (1 x 1), or down the columns (dim 1) or
-- along the rows (dim 2).
function methods.sum(v, dim)
  local x = self_value(v, "sum", 2)
  check_dim(dim, 1, "sum", 2)
  local out = dim and x:sum(dim) or luma.full(1, 1, x:sum())
  return record("sum", out, { v }, function(g) return { expand(g, x) } end)
end

function methods.mean(v, dim)
  local x = self_value(v, "mean", 2)
  check_dim(dim, 1, "mean", 2)
  local count = dim == 1 and x:rows() or dim == 2 and x:cols() or x:rows() * x:cols()
  local out = dim and x:mean(dim) or luma.full(1, 1, x:mean())
  return record("mean", out, { v }, function(g) return { expand(g, x) / count } end)
end

--- v:var([dim [, ddof = 0]]): variance (population by default).
function methods.var(v, dim, ddof)
  local x = self_value(v, "var", 2)
  check_dim(dim, 1, "var", 2)
  ddof = ddof == nil and 0 or ddof
  local count = dim == 1 and x:rows() or dim == 2 and x:cols() or x:rows() * x:cols()
  if type(ddof) ~= "number" or not (ddof >= 0 and ddof < count) then
    fail(2, "bad argument #2 to 'var' (ddof must be a number in [0, %d), got %s)", count,
      tostring(ddof))
  end
  local mean = dim and x:mean(dim) or x:mean()
  local out = dim and x:var(dim, ddof) or luma.full(1, 1, x:var(nil, ddof))
  return record("var", out, { v }, function(g)
    return { (x - mean):mul(g) * (2 / (count - ddof)) }
  end)
end

-- max/min: a full reduction spreads the gradient evenly over the tied
-- extreme elements; along a dimension it goes to the first one.
local function reduce_extreme(fname, v, dim)
  local x = self_value(v, fname, 3)
  check_dim(dim, 1, fname, 3)
  if x:rows() * x:cols() == 0 then fail(3, "%s: the Variable has no elements", fname) end
  local is_max = fname == "max"
  if dim == nil then
    local best = is_max and x:max() or x:min()
    local out = luma.full(1, 1, best)
    return record(fname, out, { v }, function(g)
      local hit = x:eq(best)
      return { hit * (g:get(1, 1) / hit:sum()) }
    end)
  end
  local out = is_max and x:max(dim) or x:min(dim)
  local where = is_max and x:argmax(dim) or x:argmin(dim)
  return record(fname, out, { v }, function(g)
    local positions = dim == 1 and luma.arange(1, x:rows()) or luma.arange(1, x:cols()):t()
    local first = positions:eq(where)
    return { first:mul(g) }
  end)
end
function methods.max(v, dim)
  local out = reduce_extreme("max", v, dim)
  return out
end
function methods.min(v, dim)
  local out = reduce_extreme("min", v, dim)
  return out
end

-- The dimension of softmax and friends when none is given: the one the
-- matrix kernels use (each row of a matrix, the length of a vector).
local function softmax_dim(x, dim)
  if dim ~= nil then return dim end
  if x:cols() == 1 and x:rows() > 1 then return 1 end
  return 2
end

local function sum_along(M, dim) return M:sum(dim) end

function methods.softmax(v, dim)
  local x = self_value(v, "softmax", 2)
  check_dim(dim, 1, "softmax", 2)
  dim = softmax_dim(x, dim)
  local y = x:softmax(dim)
  return record("softmax", y, { v }, function(g)
    return { y:mul(g - sum_along(g:mul(y), dim)) }
  end)
end

function methods.log_softmax(v, dim)
  local x = self_value(v, "log_softmax", 2)
  check_dim(dim, 1, "log_softmax", 2)
  dim = softmax_dim(x, dim)
  local y = x:log_softmax(dim)
  return record("log_softmax", y, { v }, function(g)
    return { g - y:exp():mul(sum_along(g, dim)) }
  end)
end

--- v:logsumexp([dim]): log(sum(exp(x))) over all elements (1 x 1) or
-- along dim.
function methods.logsumexp(v, dim)
  local x = self_value(v, "logsumexp", 2)
  check_dim(dim, 1, "logsumexp", 2)
  local out = dim and x:logsumexp(dim) or luma.full(1, 1, x:logsumexp())
  return record("logsumexp", out, { v }, function(g)
    return { (x - out):exp():mul(g) }
  end)
end

-- Shape operations ---------------------------------------------------------

function methods.t(v)
  local x = self_value(v, "t", 2)
  return record("t", x:t():copy(), { v }, function(g) return { g:t():copy() } end)
end

function methods.reshape(v, rows, cols)
  local x = self_value(v, "reshape", 2)
  local ok, out = pcall(x.reshape, x, rows, cols)
  if not ok then fail(2, "%s", (tostring(out):gsub("^.-:%d+: ", ""))) end
  out = out:copy()
  local r, c = x:rows(), x:cols()
  return record("reshape", out, { v }, function(g) return { g:reshape(r, c):copy() } end)
end

-- A block of v, as Matrix:sub (nil: the whole range); its gradient is g
-- in that block of zeros.
local function block(fname, v, r1, r2, c1, c2)
  local x = self_value(v, fname, 3)
  local ok, part = pcall(x.sub, x, r1, r2, c1, c2)
  if not ok then fail(3, "%s: %s", fname, (tostring(part):gsub("^.-:%d+: ", ""))) end
  return record(fname, part:copy(), { v }, function(g)
    local G = luma.zeros(x:rows(), x:cols())
    G:sub(r1, r2, c1, c2):assign(g)
    return { G }
  end)
end

--- v:sub(r1, r2, c1, c2), v:row(i), v:col(j): blocks.
function methods.sub(v, r1, r2, c1, c2)
  local out = block("sub", v, r1, r2, c1, c2)
  return out
end
function methods.row(v, i)
  args.arg(math.type(i) == "integer", 1, "row", "integer", i, 2)
  local out = block("row", v, i, i, nil, nil)
  return out
end
function methods.col(v, j)
  args.arg(math.type(j) == "integer", 1, "col", "integer", j, 2)
  local out = block("col", v, nil, nil, j, j)
  return out
end

--- v:take(indices [, dim = 1]): rows (or columns) by index, repeats
-- allowed; the backward adds each gradient row back to its source row
-- (one product with the 0/1 selection matrix).
function methods.take(v, indices, dim)
  local x = self_value(v, "take", 2)
  dim = dim == nil and 1 or dim
  check_dim(dim, 2, "take", 2)
  local ok, out = pcall(x.take, x, indices, dim)
  if not ok then fail(2, "%s", (tostring(out):gsub("^.-:%d+: ", ""))) end
  local idx = ismatrix(indices) and indices:reshape(1, -1):copy() or luma.matrix(indices):reshape(1, -1):copy()
  return record("take", out, { v }, function(g)
    if dim == 1 then
      local S = luma.arange(1, x:rows()):eq(idx) -- rows x k
      return { S * g }
    end
    local S = luma.arange(1, x:cols()):eq(idx) -- cols x k
    return { g * S:t() }
  end)
end

--- v:masked_select(mask): the elements where mask is nonzero, row-major,
-- as a column.
function methods.masked_select(v, mask)
  local x = self_value(v, "masked_select", 2)
  mask = value_of(mask)
  args.arg(ismatrix(mask), 1, "masked_select", "luma.Matrix", mask, 2)
  if mask:rows() ~= x:rows() or mask:cols() ~= x:cols() then
    fail(2, "masked_select: mask is %s but the Variable is %s", shape_text(mask), shape_text(x))
  end
  local out = x:select(mask)
  local r, c = x:rows(), x:cols()
  return record("masked_select", out, { v }, function(g)
    -- position p of x gets g[rank of p among the selected] or 0: take on
    -- g with a zero in front, at rank + 1 for selected positions, 1 else
    local flat = mask:ne(0):reshape(r * c, 1):copy()
    local where = flat:mul(flat:cumsum()) + 1
    return { luma.vstack{ luma.zeros(1, 1), g }:take(where):reshape(r, c):copy() }
  end)
end

local function stack(fname, list, joined, level)
  args.arg(type(list) == "table" and getmetatable(list) == nil and #list > 0, 1, fname,
    "non-empty list of Variables or matrices", list, level + 1)
  local values = {}
  for k, x in ipairs(list) do values[k] = operand(x, 1, fname, level + 1) end
  local ok, out = pcall(joined, values)
  if not ok then fail(level + 1, "%s", (tostring(out):gsub("^.-:%d+: ", ""))) end
  local horizontal = fname == "hstack"
  return record(fname, out, list, function(g)
    local grads, at = {}, 1
    for k, x in ipairs(values) do
      local size = horizontal and x:cols() or x:rows()
      grads[k] = horizontal and g:sub(nil, nil, at, at + size - 1):copy()
        or g:sub(at, at + size - 1, nil, nil):copy()
      at = at + size
    end
    return grads
  end)
end
function ops.hstack(list)
  local out = stack("hstack", list, luma.hstack, 2)
  return out
end
function ops.vstack(list)
  local out = stack("vstack", list, luma.vstack, 2)
  return out
end

-- Methods and operators ----------------------------------------------------

methods.add, methods.subtract, methods.mul, methods.div = ops.add, ops.sub, ops.mul, ops.div
methods.matmul, methods.maximum, methods.minimum = ops.matmul, ops.maximum, ops.minimum

Variable.__add = ops.add
Variable.__sub = ops.sub
-- `*` is the matrix product, as for matrices (a number scales).
Variable.__mul = ops.matmul
function Variable.__div(a, b)
  if type(b) ~= "number" then
    fail(2, "cannot divide by a Variable or matrix with '/': use a:div(b) for element-wise "
      .. "division")
  end
  return ops.div(a, b)
end
function Variable.__unm(a) return methods.neg(a) end
function Variable.__pow(a, p)
  if not is_variable(a) or type(p) ~= "number" then
    fail(2, "'^' takes a Variable and a number (v ^ p); got %s ^ %s", args.type_of(a),
      args.type_of(p))
  end
  return methods.pow(a, p)
end

return ops
