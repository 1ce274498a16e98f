--- luma.pgm.grid.maxflow: Boykov-Kolmogorov max-flow / min-cut (issue 32
-- item 5).  The flow values of tests/pgm/reference/maxflow_networkx.lua
-- are networkx 2.8's maximum_flow_value, printed by
--   /usr/bin/python3 tests/pgm/reference/maxflow_networkx.py > tests/pgm/reference/maxflow_networkx.lua
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local grid = require("luma.pgm.grid")
local errors_with = support.errors_with

local CASES = dofile("tests/pgm/reference/maxflow_networkx.lua")

-- The m x 3 edge matrix of a flat list i, j, c, i, j, c, ...
local function edge_matrix(flat)
  local m = #flat // 3
  local E = luma.zeros(math.max(m, 1), 3)
  for e = 1, m do
    for c = 1, 3 do E:set(e, c, flat[3 * (e - 1) + c]) end
  end
  if m == 0 then E = luma.zeros(0, 3) end
  return E
end

-- The capacity of the cut (side: 1 source side, 0 sink side): the edges
-- from the source side to the sink side.
local function cut_capacity(flat, side)
  local total = 0
  for e = 1, #flat // 3 do
    local i, j, c = flat[3 * e - 2], flat[3 * e - 1], flat[3 * e]
    if side:get(i, 1) == 1 and side:get(j, 1) == 0 then total = total + c end
  end
  return total
end

describe("luma.pgm.grid.maxflow", function()
  it("finds the flow of CLRS's figure 26.1 (23) and a cut of that capacity", function()
    local flat = { 1, 2, 16, 1, 3, 13, 2, 3, 10, 3, 2, 4, 2, 4, 12, 4, 3, 9, 3, 5, 14, 5, 4, 7,
                   4, 6, 20, 5, 6, 4 }
    local flow, side = grid.maxflow(6, edge_matrix(flat), { source = 1, sink = 6 })
    assert.equal(23, flow)
    assert.equal(23, cut_capacity(flat, side))
    -- the residual graph reaches 2, 3 and 5 from the source (the cut is 2->4, 5->4, 5->6: 12+7+4)
    for i, want in ipairs{ 1, 1, 1, 0, 1, 0 } do assert.equal(want, side:get(i, 1)) end
  end)

  it("equals networkx's maximum_flow_value on 100 random graphs, and the cut's capacity "
    .. "equals the flow (max-flow / min-cut theorem)", function()
    assert.equal(100, #CASES)
    local zero = 0
    for k, case in ipairs(CASES) do
      local flow, side = grid.maxflow(case.n, edge_matrix(case.edges), { source = 1, sink = case.n })
      -- integer capacities add exactly; two-decimal ones to rounding
      local tol = k <= 80 and 0 or 1e-9 * math.max(1, case.flow)
      assert(math.abs(flow - case.flow) <= tol,
        string.format("graph %d: flow %.17g, networkx %.17g", k, flow, case.flow))
      assert.equal(1, side:get(1, 1))
      assert.equal(0, side:get(case.n, 1))
      local cut = cut_capacity(case.edges, side)
      assert(math.abs(cut - flow) <= 1e-9 * math.max(1, flow),
        string.format("graph %d: cut %.17g, flow %.17g", k, cut, flow))
      if case.flow == 0 then zero = zero + 1 end
    end
    assert.is_true(zero >= 10) -- the graphs whose sink nothing enters, at least
  end)

  it("gives the same flow with terminal capacities and with reverse capacities (m x 4)", function()
    for k = 1, 30 do
      local case = CASES[k]
      local n, s, t = case.n, 1, case.n
      -- the inner nodes 2..n-1 renumbered 1..n-2, the terminals' edges as capacities
      local T = luma.zeros(n - 2, 2)
      local pairs4, index = {}, {}
      for e = 1, #case.edges // 3 do
        local i, j, c = case.edges[3 * e - 2], case.edges[3 * e - 1], case.edges[3 * e]
        if i == s and j ~= t then T:set(j - 1, 1, T:get(j - 1, 1) + c)
        elseif j == t and i ~= s then T:set(i - 1, 2, T:get(i - 1, 2) + c)
        elseif i ~= s and i ~= t and j ~= s and j ~= t then
          -- an edge and its reverse share a row of the m x 4 form
          local key = math.min(i, j) .. "," .. math.max(i, j)
          local row = index[key]
          if not row then
            row = { math.min(i, j) - 1, math.max(i, j) - 1, 0, 0 }
            pairs4[#pairs4 + 1] = row
            index[key] = row
          end
          if i < j then row[3] = row[3] + c else row[4] = row[4] + c end
        end
      end
      local direct = 0
      for e = 1, #case.edges // 3 do
        if case.edges[3 * e - 2] == s and case.edges[3 * e - 1] == t then direct = direct + case.edges[3 * e] end
      end
      local E = #pairs4 > 0 and luma.matrix(pairs4) or luma.zeros(0, 4)
      local flow = grid.maxflow(n - 2, E, { terminals = T })
      assert(math.abs(flow + direct - case.flow) <= 1e-9 * math.max(1, case.flow),
        string.format("graph %d: %.17g + %.17g, networkx %.17g", k, flow, direct, case.flow))
    end
  end)

  it("cuts nothing in a graph without capacities and keeps isolated nodes on the sink side", function()
    local flow, side = grid.maxflow(3, luma.zeros(0, 3), { terminals = luma.matrix{ { 1, 0 }, { 0, 0 }, { 0, 2 } } })
    assert.equal(0, flow)
    assert.equal(1, side:get(1, 1))
    assert.equal(0, side:get(2, 1))
    assert.equal(0, side:get(3, 1))
  end)

  it("pushes a node's own source-to-sink capacity directly", function()
    local flow = grid.maxflow(1, luma.zeros(0, 3), { terminals = luma.matrix{ { 5, 3 } } })
    assert.equal(3, flow)
  end)

  describe("refuses bad input at the caller's line", function()
    local E = luma.matrix{ { 1, 2, 1 }, { 2, 3, 1 } }
    it("a negative capacity", function()
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: bad argument #2 to 'maxflow' %(the capacity in row 2 is %-1",
        function() grid.maxflow(3, luma.matrix{ { 1, 2, 1 }, { 2, 3, -1 } }, { source = 1, sink = 3 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: .*the reverse capacity in row 1 is %-?nan",
        function() grid.maxflow(3, luma.matrix{ { 1, 2, 1, 0 / 0 } }, { source = 1, sink = 3 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: .*the sink capacity in row 2 is %-2",
        function() grid.maxflow(3, E, { terminals = luma.matrix{ { 1, 0 }, { 0, -2 }, { 0, 1 } } }) end)
    end)
    it("a node index out of range", function()
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: bad argument #2 to 'maxflow' %(edge 2 has target node 4%.0: nodes are integers 1%.%.3%)",
        function() grid.maxflow(3, luma.matrix{ { 1, 2, 1 }, { 2, 4, 1 } }, { source = 1, sink = 3 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: .*edge 1 has source node 1%.5",
        function() grid.maxflow(3, luma.matrix{ { 1.5, 2, 1 } }, { source = 1, sink = 3 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: luma%.pgm%.grid%.maxflow: sink must be a node 1%.%.3, got 0",
        function() grid.maxflow(3, E, { source = 1, sink = 0 }) end)
    end)
    it("shape mismatches and missing terminals", function()
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: bad argument #3 to 'maxflow' %(terminals must be 3 x 2",
        function() grid.maxflow(3, E, { terminals = luma.ones(2, 2) }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: bad argument #2 to 'maxflow' %(edges must be m x 3",
        function() grid.maxflow(3, luma.ones(2, 2), { source = 1, sink = 3 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: luma%.pgm%.grid%.maxflow: needs terminal capacities",
        function() grid.maxflow(3, E) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: luma%.pgm%.grid%.maxflow: give both source and sink",
        function() grid.maxflow(3, E, { source = 1 }) end)
      errors_with("^tests/pgm/maxflow_spec%.lua:%d+: .*unknown option 'sorce'",
        function() grid.maxflow(3, E, { sorce = 1, sink = 3 }) end)
    end)
  end)
end)
