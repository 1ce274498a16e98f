-- Junction-tree inference on the 37-node ALARM-sized network of
-- data/pgm/alarm37.net: build the tree, calibrate, and read every node's
-- posterior marginal given evidence on two nodes (bn:marginals with
-- method "jt"); best of 20.  pgm_alarm37.py computes the same marginals
-- by NumPy variable elimination (einsum with a greedy contraction order).
-- SPDX-License-Identifier: MIT
local path = (arg and arg[1]) or "data/pgm/alarm37.net"
local bn = luma.pgm.BayesianNetwork()
local current, rows
local function flush()
  if current then
    bn:set_cpt(current.name, { states = current.states, parents = current.parents,
      probs = #current.parents == 0 and rows[1] or rows })
  end
end
for line in io.lines(path) do
  local name, k, rest = line:match("^node (%S+) (%d+)%s*(.*)$")
  if name then
    flush()
    local states, parents = {}, {}
    for s = 1, tonumber(k) do states[s] = "s" .. s end
    for p in rest:gmatch("%S+") do parents[#parents + 1] = p end
    current, rows = { name = name, states = states, parents = parents }, {}
  elseif line:match("^probs ") then
    local row = {}
    for x in line:sub(7):gmatch("%S+") do row[#row + 1] = tonumber(x) end
    rows[#rows + 1] = row
  end
end
flush()
local evidence = { N36 = "s1", N20 = "s2" }
local best, m = math.huge, nil
for _ = 1, 20 do
  local t0 = luma.now()
  m = bn:marginals{ evidence = evidence, method = "jt" }
  best = math.min(best, luma.now() - t0)
end
assert(math.abs(m.N0.s1 + m.N0.s2 + m.N0.s3 + m.N0.s4 - 1) < 1e-12)
print("time " .. best)
