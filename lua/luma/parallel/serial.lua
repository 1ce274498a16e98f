--- luma.parallel.serial: the serial backend: every task in this process,
-- one after the other.  Results are returned as they are (nothing is
-- encoded, so they may be anything, functions included).
-- SPDX-License-Identifier: MIT
local serial = {}

--- run(run, n, ctx) -> results: run(i) for i = 1..n; ctx.progress(done,
-- total) after each when given.
function serial.run(run, n, ctx)
  local results = {}
  for i = 1, n do
    results[i] = run(i)
    if ctx.progress then ctx.progress(i, n) end
  end
  return results
end

return serial
