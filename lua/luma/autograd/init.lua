--- luma.autograd: reverse-mode automatic differentiation over luma
-- matrices (docs/NN.md).
--
-- Parts: variable (the Variable type, the graph, backward, no_grad), ops
-- (the differentiable operations), check (gradcheck).  A Variable wraps a
-- matrix; operations on Variables run at once and record what backward()
-- needs, so ordinary Lua control flow defines the model.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local variable = require("luma.autograd.variable")
local ops = require("luma.autograd.ops")
local check = require("luma.autograd.check")

local autograd = {}
local methods = variable.methods
local doc = luma.doc.set

--- Variable(M [, {requires_grad = false}]) -> Variable
function autograd.Variable(M, opts)
  local v = variable.make(M, opts, 2)
  return v
end

autograd.no_grad = variable.no_grad
autograd.is_variable = variable.is_variable
autograd.matmul, autograd.maximum, autograd.minimum = ops.matmul, ops.maximum, ops.minimum
autograd.hstack, autograd.vstack = ops.hstack, ops.vstack
autograd.linear, autograd.addmm = ops.linear, ops.addmm
autograd.grad = check.grad
autograd.gradcheck = check.gradcheck

doc(autograd, { name = "luma.autograd",
  doc = "Reverse-mode automatic differentiation, define by run: wrap matrices in "
    .. "Variable(M, {requires_grad = true}), compute with Variables (Lua control flow is "
    .. "the model), call backward() on a scalar result and read each leaf's grad. Also "
    .. "grad(f, inputs), gradcheck(f, inputs), no_grad(fn), matmul, linear, addmm, maximum, "
    .. "minimum, hstack, vstack. docs/NN.md." })
doc(autograd.Variable, { name = "luma.autograd.Variable",
  signature = "Variable(M [, {requires_grad = false}]) -> Variable",
  doc = "A leaf of the graph wrapping the matrix M (a number becomes 1 x 1), sharing its "
    .. "storage. Fields: value (the matrix), grad (the accumulated gradient, a matrix or "
    .. "nil), requires_grad. Operators: + - (broadcasting), * (matrix product; a number "
    .. "scales), / (by a number), unary -, ^ (by a number)." })
doc(autograd.no_grad, { name = "luma.autograd.no_grad", signature = "no_grad(fn, ...) -> ...",
  doc = "Calls fn(...) with recording off: operations inside build no graph. Returns fn's "
    .. "results." })
doc(autograd.is_variable, { name = "luma.autograd.is_variable", signature = "is_variable(v) -> boolean",
  doc = "Whether v is a luma.autograd.Variable." })
doc(ops.matmul, { name = "luma.autograd.matmul", signature = "matmul(a, b) -> Variable",
  doc = "The matrix product a b (a or b may be a matrix or a number); the gradients are "
    .. "G b^T and a^T G. Also a * b and a:matmul(b)." })
doc(ops.linear, { name = "luma.autograd.linear", signature = "linear(x, W [, b = nil]) -> Variable",
  doc = "x W^T + b with W out x in and b 1 x out (PyTorch's F.linear; nn.Linear uses it), as "
    .. "one node: dgemm adds the product onto the bias rows. Gradients G W, G^T x and the "
    .. "column sums of G, each computed only when its input requires a gradient." })
doc(ops.addmm, { name = "luma.autograd.addmm", signature = "addmm(b, x, W) -> Variable",
  doc = "b + x W with b a 1 x out row and W in x out (torch.addmm with a broadcast row), "
    .. "as one node like linear." })
doc(ops.maximum, { name = "luma.autograd.maximum", signature = "maximum(a, b) -> Variable",
  doc = "Element-wise maximum with broadcasting; at ties each operand gets half the gradient." })
doc(ops.minimum, { name = "luma.autograd.minimum", signature = "minimum(a, b) -> Variable",
  doc = "Element-wise minimum with broadcasting; at ties each operand gets half the gradient." })
doc(ops.hstack, { name = "luma.autograd.hstack", signature = "hstack{a, b, ...} -> Variable",
  doc = "Variables (or matrices) side by side; each gets its columns of the gradient." })
doc(ops.vstack, { name = "luma.autograd.vstack", signature = "vstack{a, b, ...} -> Variable",
  doc = "Variables (or matrices) one above the other; each gets its rows of the gradient." })

local METHOD_DOCS = {
  backward = { "v:backward([seed [, {retain_graph = false}]])",
    "Accumulates the gradient of v into the grad field of every leaf below it. seed "
      .. "(v's shape) is required when v is not 1 x 1. The graph is freed afterwards "
      .. "unless retain_graph; a second backward through it is then an error." },
  zero_grad = { "v:zero_grad()", "Forgets v's accumulated gradient (grad = nil)." },
  detach = { "v:detach() -> Variable", "A new leaf sharing v's value that records nothing." },
  is_leaf = { "v:is_leaf() -> boolean", "Whether v was made by Variable or detach rather "
    .. "than by an operation." },
  shape = { "v:shape() -> rows, cols", "The shape of v's value." },
  add = { "a:add(b) -> Variable", "Element-wise a + b with broadcasting (also a + b); "
    .. "the gradient is summed back over broadcast rows and columns." },
  subtract = { "a:subtract(b) -> Variable", "Element-wise a - b with broadcasting (also a - b)." },
  mul = { "a:mul(b) -> Variable", "Element-wise a * b with broadcasting." },
  div = { "a:div(b) -> Variable", "Element-wise a / b with broadcasting." },
  matmul = { "a:matmul(b) -> Variable", "The matrix product (also a * b)." },
  maximum = { "a:maximum(b) -> Variable", "Element-wise maximum (ties split the gradient)." },
  minimum = { "a:minimum(b) -> Variable", "Element-wise minimum (ties split the gradient)." },
  neg = { "v:neg() -> Variable", "-v (also unary -)." },
  exp = { "v:exp() -> Variable", "Element-wise e^x." },
  log = { "v:log() -> Variable", "Element-wise natural logarithm." },
  log1p = { "v:log1p() -> Variable", "Element-wise log(1 + x)." },
  sqrt = { "v:sqrt() -> Variable", "Element-wise square root." },
  abs = { "v:abs() -> Variable", "Element-wise |x| (gradient 0 at 0)." },
  tanh = { "v:tanh() -> Variable", "Element-wise hyperbolic tangent." },
  sigmoid = { "v:sigmoid() -> Variable", "Element-wise 1 / (1 + e^-x)." },
  relu = { "v:relu() -> Variable", "Element-wise max(x, 0) (gradient 0 at 0)." },
  softplus = { "v:softplus() -> Variable", "Element-wise log(1 + e^x)." },
  pow = { "v:pow(p) -> Variable", "Element-wise x^p for a number p (also v ^ p)." },
  leaky_relu = { "v:leaky_relu([slope = 0.01]) -> Variable", "x for x > 0, slope x otherwise." },
  elu = { "v:elu([alpha = 1]) -> Variable", "x for x > 0, alpha (e^x - 1) otherwise." },
  clamp = { "v:clamp(lo, hi) -> Variable", "Element-wise min(max(x, lo), hi); the gradient "
    .. "passes where lo <= x <= hi." },
  sum = { "v:sum([dim]) -> Variable", "Sum of all elements (1 x 1), down the columns (dim 1, "
    .. "1 x cols) or along the rows (dim 2, rows x 1)." },
  mean = { "v:mean([dim]) -> Variable", "Mean of all elements or along dim." },
  var = { "v:var([dim [, ddof = 0]]) -> Variable", "Variance (sum of squared deviations / "
    .. "(n - ddof)) of all elements or along dim." },
  max = { "v:max([dim]) -> Variable", "Largest element (1 x 1; ties share the gradient "
    .. "evenly) or along dim (the first largest gets it)." },
  min = { "v:min([dim]) -> Variable", "Smallest element, as max." },
  softmax = { "v:softmax([dim]) -> Variable", "exp(x - logsumexp(x)) along dim (default: "
    .. "each row of a matrix, the length of a vector)." },
  log_softmax = { "v:log_softmax([dim]) -> Variable", "x - logsumexp(x) along dim, as softmax." },
  logsumexp = { "v:logsumexp([dim]) -> Variable", "log(sum(exp(x))) of all elements (1 x 1) "
    .. "or along dim, computed stably." },
  t = { "v:t() -> Variable", "The transpose." },
  reshape = { "v:reshape(rows, cols) -> Variable", "The elements in row-major order with a "
    .. "new shape (one size may be -1)." },
  sub = { "v:sub(r1, r2, c1, c2) -> Variable", "Rows r1..r2 and columns c1..c2 (nil: the "
    .. "whole range) as a new Variable." },
  row = { "v:row(i) -> Variable", "Row i (1 x cols)." },
  col = { "v:col(j) -> Variable", "Column j (rows x 1)." },
  take = { "v:take(indices [, dim = 1]) -> Variable", "Rows (dim 1) or columns (dim 2) by "
    .. "1-based index, repeats allowed (gather); repeated rows add their gradients." },
  masked_select = { "v:masked_select(mask) -> Variable", "The elements where mask (v's "
    .. "shape) is nonzero, row-major, as a column." },
}
for name, d in pairs(METHOD_DOCS) do
  assert(methods[name], "luma.autograd: no method " .. name)
  doc(methods[name], { name = "luma.autograd.Variable." .. name, signature = d[1], doc = d[2] })
end
-- every method checks its self first, blaming the caller
args.wrap_methods(methods, "luma.autograd.Variable", variable.is_variable)

return autograd
