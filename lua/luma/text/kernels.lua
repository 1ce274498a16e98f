--- luma.text.kernels: the bag-of-words intersection kernel (notes 001,
-- kernels on documents).
--
-- K(x, y) = sum_k min(c_k(x), c_k(y)) over the counts of two documents
-- (a Mercer kernel).  Normalized, the notes print sum_k min / sqrt(c_k(x)
-- c_k(y)) per term, which divides by zero for a term absent from one
-- document and is not bounded by 1; their erratum (and the set version,
-- |X n Y| / sqrt(|X| |Y|)) normalizes the totals instead:
--   K(x, y) = sum_k min(c_k(x), c_k(y)) / sqrt(sum_k c_k(x) * sum_k c_k(y)),
-- which lies in [0, 1], is 1 for identical documents and is defined as 0
-- when either document is empty.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.text.native")

local kernels = {}

local function counts(v, n)
  if luma.ismatrix(v) then return luma.sparse.from_dense(v) end
  if luma.sparse.issparse(v) then return v end
  args.fail(3, "bad argument #%d to 'bow_kernel' (a luma.SparseMatrix or luma.Matrix of counts "
    .. "expected, got %s)", n, args.type_of(v))
end

--- bow_kernel(X [, Y = X [, {normalize = true}]]) -> the dense Gram matrix
function kernels.bow_kernel(X, Y, opts)
  if type(Y) == "table" and not luma.ismatrix(Y) and not luma.sparse.issparse(Y) and opts == nil then
    Y, opts = nil, Y
  end
  if opts ~= nil and (type(opts) ~= "table" or getmetatable(opts) ~= nil) then
    args.fail(2, "bad argument #3 to 'bow_kernel' (options table expected, got %s)",
      args.type_of(opts))
  end
  args.check_opts("bow_kernel", opts, { normalize = true }, 2)
  local normalize = true
  if opts and opts.normalize ~= nil then
    args.arg(type(opts.normalize) == "boolean", 3, "bow_kernel", "boolean normalize",
      opts.normalize, 2)
    normalize = opts.normalize
  end
  local A = counts(X, 1)
  local B = Y == nil and A or counts(Y, 2)
  if A:cols() ~= B:cols() then
    args.fail(2, "bad argument #2 to 'bow_kernel' (Y has %d columns but X has %d)", B:cols(),
      A:cols())
  end
  local K, msg = native.intersection(A, B, normalize)
  if not K then args.fail(2, "%s", msg) end
  return K
end
luma.doc.set(kernels.bow_kernel, { name = "luma.text.bow_kernel",
  signature = "luma.text.bow_kernel(X [, Y = X] [, {normalize = true}]) -> matrix",
  params = { { name = "normalize", type = "boolean", default = true,
    doc = "divide by sqrt(sum X[i] * sum Y[j])" } },
  doc = "The bag-of-words intersection kernel between the rows of two count matrices (sparse "
    .. "or dense, documents x terms): K[i][j] = sum_k min(X[i][k], Y[j][k]), divided by "
    .. "sqrt(sum_k X[i][k] * sum_k Y[j][k]) when normalize (the histogram intersection kernel of "
    .. "Swain and Ballard, \"Color indexing\", IJCV 1991, on term counts; the totals are "
    .. "normalized as in the set kernel |X n Y| / sqrt(|X| |Y|), so K is in [0, 1]; 0 for an "
    .. "empty document). Counts must be "
    .. "finite and >= 0. Returns a dense X.rows x Y.rows matrix; rows run on the state's threads." })

return kernels
