--- luma.stats.common: argument checks shared by the parts of luma.stats
-- (descriptive, density, tests); not a public API.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local common = {}

--- fail(level, fmt, ...): error(string.format(fmt, ...), level) as the
-- caller would raise it (level 1 is the caller's own position).
function common.fail(level, fmt, ...)
  error(string.format(fmt, ...), level + 1)
end
local fail = common.fail

--- check_data(fname, X [, min_rows = 1]) -> X: a matrix of samples with at
-- least min_rows rows, else an error at the position of fname's caller.
function common.check_data(fname, X, min_rows)
  if not luma.ismatrix(X) then
    fail(3, "bad argument #1 to '%s' (a luma.Matrix of samples expected, got %s)", fname, type(X))
  end
  if X:rows() < (min_rows or 1) then
    fail(3, "luma.stats.%s: needs at least %d samples, got %d", fname, min_rows or 1, X:rows())
  end
  return X
end

return common
