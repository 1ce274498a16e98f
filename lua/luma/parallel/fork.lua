--- luma.parallel.fork: the fork backend: tasks in ctx.n_jobs forked worker
-- processes (luma.pool, src/vm/pool.c).  Workers inherit the whole state,
-- so tasks need no serialization on the way in; each result comes back as
-- one string, a flag byte ("+" a result, "-" an error message) before the
-- outcome's bytes.
-- SPDX-License-Identifier: MIT
local pool = require("luma.pool")
local common = require("luma.parallel.common")

local fork = {}

--- run(run, n, ctx) -> results, or the error of the first failing task in
-- task order.
function fork.run(run, n, ctx)
  local encoded = pool.run(function(i)
    local ok, s = common.outcome(run, i)
    return (ok and "+" or "-") .. s
  end, n, ctx.n_jobs, ctx.progress, ctx.threads_per_job)
  local results = {}
  for i = 1, n do
    local s = encoded[i]
    if s:sub(1, 1) ~= "+" then error(s:sub(2), 0) end
    results[i] = common.decode(s:sub(2))
  end
  return results
end

return fork
