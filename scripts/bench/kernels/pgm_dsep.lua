-- 10,000 d-separation queries (x, y single nodes, z three nodes) on a
-- random 100-node DAG (about 250 edges) by Bayes ball
-- (DiGraph:d_separated).  The DAG and the queries come from the same
-- 31-bit LCG as pgm_dsep.py, so both answer the same queries; the count
-- of separated pairs is printed to stderr to check they agree.
-- SPDX-License-Identifier: MIT
local seed = 2026
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end
local n = 100
local g = luma.pgm.DiGraph()
for v = 1, n do g:add_node(v) end
for i = 1, n do
  for j = i + 1, n do if rand(1000) < 50 then g:add_edge(i, j) end end
end
local queries = {}
for q = 1, 10000 do
  local picked, seen = {}, {}
  while #picked < 5 do
    local v = rand(n) + 1
    if not seen[v] then seen[v] = true; picked[#picked + 1] = v end
  end
  queries[q] = { picked[1], picked[2], { picked[3], picked[4], picked[5] } }
end
local best, count = math.huge, 0
for _ = 1, 3 do
  local t0 = luma.now()
  count = 0
  for _, q in ipairs(queries) do
    if g:d_separated(q[1], q[2], q[3]) then count = count + 1 end
  end
  best = math.min(best, luma.now() - t0)
end
io.stderr:write("separated " .. count .. "\n")
print("time " .. best)
