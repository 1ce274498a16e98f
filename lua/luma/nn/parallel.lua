--- luma.nn.parallel: data-parallel training over the ranks of an MPI job
-- (docs/NN.md, "Data-parallel training").
--
-- Every rank runs the same script on the same data, so a batch needs no
-- sending: it is cut into `shards` fixed row ranges, rank r computes the
-- gradients of shards r + 1, r + 1 + N, ... (N ranks), and one exchange
-- (luma.mpi.allgather) gives every rank every shard's gradients, which
-- each rank then adds up in shard order 1, 2, ..., shards.  The same
-- additions in the same order on every rank keep the parameters
-- identical everywhere; and since neither the cut nor the order depends
-- on N, a fixed `shards` gives the same parameters, bit for bit, with 1,
-- 2 or 3 ranks (given the same BLAS thread count: see docs/NN.md).  This
-- is the synchronous data parallelism of Dean et al. (NIPS 2012) and of
-- PyTorch's DistributedDataParallel, with a reduction order fixed by
-- shards rather than by ranks.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local mpi = require("luma.mpi")
local variable = require("luma.autograd.variable")

local fail = args.fail
local is_variable = variable.is_variable

local parallel = {}

local DataParallel = { __name = "luma.nn.DataParallel" }
DataParallel.__index = DataParallel

local function check_params(params, fname, level)
  if type(params) ~= "table" or #params == 0 then
    fail(level + 1, "%s: params must be a non-empty list of Variables (model:parameters()), got %s",
      fname, args.type_of(params))
  end
  for i, v in ipairs(params) do
    if not is_variable(v) then
      fail(level + 1, "%s: params[%d] is a %s, not a luma.autograd.Variable", fname, i, args.type_of(v))
    end
  end
end

--- DataParallel{params [, shards = number of ranks]} -> an object whose
-- backward(fn, ...) computes a batch's gradients across the ranks.
function parallel.DataParallel(opts)
  opts = args.options("DataParallel", 1, opts, nil, { params = true, shards = true }, 2)
  check_params(opts.params, "DataParallel", 2)
  local ranks = mpi.size()
  local shards = opts.shards or ranks
  if math.type(shards) ~= "integer" or shards < 1 then
    fail(2, "DataParallel: shards must be a positive integer, got %s", tostring(shards))
  end
  return setmetatable({ params = opts.params, shards = shards, rank = mpi.rank(), ranks = ranks },
    DataParallel)
end

-- Rows [first, last] of shard k of n rows: the first n % shards shards
-- have one row more; a shard may be empty when n < shards.
local function shard_rows(n, shards, k)
  local base, extra = n // shards, n % shards
  local first = (k - 1) * base + math.min(k - 1, extra) + 1
  return first, first + base + (k <= extra and 1 or 0) - 1
end

-- Writes the gradients of params (zeros where one has none) into row, a
-- 1 x width view: each one row-major at its offset, then the loss.
local function flatten_into(row, params, loss)
  local offset = 0
  for _, v in ipairs(params) do
    local r, c = v.value:rows(), v.value:cols()
    local part = row:sub(1, 1, offset + 1, offset + r * c)
    if v.grad then part:reshape(r, c):assign(v.grad) else part:fill(0) end
    offset = offset + r * c
  end
  row:set(1, offset + 1, loss)
end

--- dp:backward(fn, M1 [, M2, ...]) -> loss: the batch's gradient into
-- every parameter's grad and its loss, fn(S1, S2, ...) being the mean loss
-- (a 1 x 1 Variable) of the rows S of M1, M2, ... in one shard.
function DataParallel:backward(fn, ...)
  if getmetatable(self) ~= DataParallel then args.bad_self("backward", DataParallel.__name, self, 2) end
  args.arg(type(fn) == "function", 1, "backward", "function", fn, 2)
  local data = table.pack(...)
  if data.n == 0 then fail(2, "DataParallel.backward: no data matrices to cut into shards") end
  local n
  for i = 1, data.n do
    local M = data[i]
    if not luma.ismatrix(M) then
      fail(2, "bad argument #%d to 'backward' (luma.Matrix expected, got %s)", i + 1, args.type_of(M))
    end
    n = n or M:rows()
    if M:rows() ~= n then
      fail(2, "DataParallel.backward: the data matrices have %d and %d rows", n, M:rows())
    end
  end
  if n == 0 then fail(2, "DataParallel.backward: the batch is empty") end
  local params, shards, ranks = self.params, self.shards, self.ranks
  local width = 1
  for _, v in ipairs(params) do width = width + v.value:rows() * v.value:cols() end
  local saved = {}
  for i, v in ipairs(params) do saved[i], v.grad = v.grad, nil end
  -- this rank's shards, each one row of gradients (a rank without
  -- shards, when shards < ranks, sends none)
  local count = self.rank < shards and (shards - self.rank - 1) // ranks + 1 or 0
  -- the rows of this rank's shards, kept between batches
  if not (self.rows and self.rows:rows() == count and self.rows:cols() == width) then
    self.rows = luma.zeros(count, width)
  end
  local mine = self.rows
  local m = 0
  for k = self.rank + 1, shards, ranks do
    m = m + 1
    local first, last = shard_rows(n, shards, k)
    local loss = 0
    if last >= first then
      local pieces = {}
      for i = 1, data.n do pieces[i] = data[i]:sub(first, last) end
      local value = fn(table.unpack(pieces, 1, data.n))
      if not (is_variable(value) and value.value:rows() == 1 and value.value:cols() == 1) then
        fail(2, "DataParallel.backward: fn must return a 1 x 1 Variable (the shard's mean loss), got %s",
          is_variable(value) and string.format("a %d x %d Variable", value.value:rows(), value.value:cols())
          or args.type_of(value))
      end
      -- the batch mean is the shards' means weighted by their rows
      local weighted = value * ((last - first + 1) / n)
      if weighted.requires_grad then weighted:backward() end
      loss = weighted.value:get(1, 1)
    end
    flatten_into(mine:row(m), params, loss)
    for _, v in ipairs(params) do v.grad = nil end
  end
  -- every rank's rows in rank order: rank r's j-th is shard r + 1 + (j - 1) N,
  -- so shard k is row (k - 1) // N + 1 of rank (k - 1) % N
  local all, counts = mine, { count }
  if ranks > 1 then
    all, counts = mpi.allgather(mine, self.gathered)
    self.gathered = all
  end
  local first_row = { 0 }
  for r = 2, ranks do first_row[r] = first_row[r - 1] + counts[r - 1] end
  -- every shard's row, added in shard order
  local function shard(k) return all:row(first_row[(k - 1) % ranks + 1] + (k - 1) // ranks + 1) end
  local total = shards == 1 and shard(1):copy() or shard(1) + shard(2)
  for k = 3, shards do total:add(shard(k), total) end
  -- each gradient a view of its part of total
  local offset = 0
  for i, v in ipairs(params) do
    local r, c = v.value:rows(), v.value:cols()
    local g = total:sub(1, 1, offset + 1, offset + r * c):reshape(r, c)
    v.grad = saved[i] and saved[i] + g or g
    offset = offset + r * c
  end
  return total:get(1, width)
end

luma.doc.set(parallel.DataParallel, { name = "luma.nn.DataParallel",
  signature = "DataParallel{params [, shards = luma.mpi.size()]} -> DataParallel",
  doc = "Synchronous data-parallel gradients over the ranks of an MPI job (the same script "
    .. "runs alone or under mpirun -np N; every rank holds the same data and model). params: "
    .. "model:parameters(). Each batch is cut into shards fixed row ranges; rank r computes "
    .. "shards r + 1, r + 1 + N, ...; one exchange gives every rank every shard's gradient, "
    .. "added in shard order, so the parameters stay identical on every rank, and a fixed "
    .. "shards gives the same result for any number of ranks. docs/NN.md." })
luma.doc.set(DataParallel.backward, { name = "luma.nn.DataParallel.backward",
  signature = "dp:backward(fn, M1 [, M2, ...]) -> loss",
  doc = "Sets every parameter's grad (added to one it already has) to the gradient of the "
    .. "batch's mean loss and returns that loss. fn(S1, S2, ...) gets the rows of one shard "
    .. "of each matrix M1, M2, ... (the batch's inputs and targets) and returns their mean "
    .. "loss as a 1 x 1 Variable." })

return parallel
