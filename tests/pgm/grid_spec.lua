--- luma.pgm.grid: the binary denoising MRF on a grid (issue 32 item 5):
-- graph-cut MAP against brute-force enumeration, ICM's monotone energy,
-- belief propagation exact on a chain, Gibbs marginals, bad input.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local grid = require("luma.pgm.grid")
local errors_with = support.errors_with

-- Every spin configuration of an H x W grid (2^(H W) rows, -1/+1, pixel
-- k of row s is bit k-1 of s-1) and, per configuration, the sum of x_i x_j
-- over the 4-neighbour pairs.
local function enumerate(H, W)
  local n = H * W
  local S = luma.zeros(2 ^ n, n)
  for s = 1, 2 ^ n do
    local v = s - 1
    for k = 1, n do
      S:set(s, k, v % 2 == 1 and 1 or -1)
      v = v // 2
    end
  end
  local pairs = luma.zeros(2 ^ n, 1)
  for r = 1, H do
    for c = 1, W do
      local k = (r - 1) * W + c
      if c < W then pairs = pairs + S:col(k):mul(S:col(k + 1)) end
      if r < H then pairs = pairs + S:col(k):mul(S:col(k + W)) end
    end
  end
  return S, pairs
end

-- The energies of every configuration: -beta pairs - S f (f as a column,
-- row-major).
local function energies(S, pairs, beta, f)
  return pairs * -beta - S * f:reshape(-1, 1)
end

-- The exact marginals P(x_k = +1) (1 x n) of p ∝ exp(-E).
local function exact_marginals(S, E)
  local w = (E - E:min()):neg():exp()
  local plus = S:add(1):div(2)
  return (w:t() * plus) / w:sum()
end

-- A random binary image (-1/+1) and extra field from g.
local function instance(g, H, W)
  local y = g:uniform(H, W):ge(0.5) * 2 - 1
  local field = g:normal(H, W)
  return y, field
end

describe("luma.pgm.grid", function()
  local S44, P44 = enumerate(4, 4)

  it("graphcut finds the minimum energy of brute-force enumeration on 200 random 4 x 4 grids", function()
    local g = luma.random.Generator(32)
    local gaps = 0
    for k = 1, 200 do
      local y, field = instance(g, 4, 4)
      local beta = k % 10 == 0 and 0 or g:uniform() * 2 -- some without coupling at all
      local eta = g:uniform() * 3
      local opts = { beta = beta, eta = eta, h = g:normal() * 0.3, field = field }
      local x, info = grid.graphcut(y, opts)
      local f = y * eta + opts.h + field
      local E = energies(S44, P44, beta, f)
      local best = E:min()
      assert(math.abs(info.energy - best) <= 1e-10 * math.max(1, math.abs(best)),
        string.format("instance %d: graph cut %.17g, enumeration %.17g", k, info.energy, best))
      assert.near(info.energy, grid.energy(x, y, opts), 1e-12)
      -- the cut's capacity, shifted by the constant, is the energy
      assert.near(info.energy, info.flow - beta * 24 - f:abs():sum(), 1e-9)
      -- ICM and max-product reach local minima only: never below
      local _, icm = grid.icm(y, opts)
      local _, bp = grid.bp(y, { beta = beta, eta = eta, h = opts.h, field = field, mode = "max",
        damping = 0.5, max_iter = 200 })
      assert.is_true(icm.energy >= best - 1e-9)
      assert.is_true(bp.energy >= best - 1e-9)
      if icm.energy > best + 1e-9 then gaps = gaps + 1 end
    end
    assert.is_true(gaps > 0) -- ICM is not exact: the comparison can tell
  end)

  it("graphcut keeps the image's coding (0/1 in, 0/1 out) and cleans an isolated flipped pixel", function()
    local y = luma.zeros(5, 5)
    y:set(3, 3, 1)
    local x = grid.graphcut(y, { beta = 1, eta = 1 })
    assert.same(luma.zeros(5, 5):totable(), x:totable())
    local ypm = y * 2 - 1
    assert.same((luma.ones(5, 5) * -1):totable(), grid.graphcut(ypm, { beta = 1, eta = 1 }):totable())
  end)

  it("ICM never increases the energy, sweep after sweep, on random grids", function()
    local g = luma.random.Generator(5)
    for _ = 1, 30 do
      local y, field = instance(g, 12, 9)
      local opts = { beta = g:uniform() * 3 - 1, eta = g:uniform() * 2, field = field }
      local init = g:uniform(12, 9):ge(0.5) * 2 - 1
      local last = grid.energy(init, y, opts)
      for sweeps = 1, 6 do
        local x, info = grid.icm(y, { beta = opts.beta, eta = opts.eta, field = field, init = init,
          max_sweeps = sweeps })
        assert.near(info.energy, grid.energy(x, y, opts), 1e-9)
        assert.is_true(info.energy <= last + 1e-12)
        last = info.energy
      end
    end
  end)

  it("belief propagation gives the exact marginals on a chain (a tree) to 1e-12", function()
    local g = luma.random.Generator(11)
    for _, shape in ipairs{ { 1, 10 }, { 9, 1 }, { 1, 2 }, { 1, 1 } } do
      local H, W = shape[1], shape[2]
      local S, P = enumerate(H, W)
      for _ = 1, 5 do
        local y, field = instance(g, H, W)
        local beta = g:uniform() * 4 - 2 -- attractive and repulsive
        local opts = { beta = beta, eta = 0.7, field = field, tol = 1e-15, max_iter = 200 }
        local marg, info = grid.bp(y, opts)
        assert.is_true(info.converged)
        assert.is_true(info.n_iter <= H * W + 1) -- a flooding schedule spans a chain in n steps
        local exact = exact_marginals(S, energies(S, P, beta, y * 0.7 + field))
        for k = 1, H * W do
          local r, c = (k - 1) // W + 1, (k - 1) % W + 1
          assert(math.abs(marg:get(r, c) - exact:get(1, k)) <= 1e-12,
            string.format("%d x %d, pixel %d: bp %.17g, exact %.17g", H, W, k, marg:get(r, c), exact:get(1, k)))
        end
        -- max-product's map is the MAP of the chain, damped or not
        local E = energies(S, P, beta, y * 0.7 + field)
        for _, damping in ipairs{ 0, 0.5 } do
          local _, mx = grid.bp(y, { beta = beta, eta = 0.7, field = field, mode = "max",
            damping = damping, tol = 1e-14, max_iter = 500 })
          assert.near(E:min(), mx.energy, 1e-9)
        end
      end
    end
  end)

  it("loopy belief propagation reports its convergence and stops at max_iter", function()
    local g = luma.random.Generator(3)
    local y = instance(g, 20, 20)
    local _, info = grid.bp(y, { beta = 0.4, eta = 1, tol = 1e-10, max_iter = 500 })
    assert.is_true(info.converged)
    assert.is_true(info.delta < 1e-10)
    assert.is_true(info.n_iter > 5 and info.n_iter < 500)
    local _, short = grid.bp(y, { beta = 0.4, eta = 1, tol = 1e-10, max_iter = 3 })
    assert.equal(3, short.n_iter)
    assert.is_false(short.converged)
    assert.is_true(short.delta > 1e-10)
  end)

  it("belief propagation is bit-identical for any thread count", function()
    local y = instance(luma.random.Generator(8), 150, 70)
    local saved = luma.config().threads
    local results = {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      local marg, info = grid.bp(y, { beta = 0.8, eta = 1.3, damping = 0.2, max_iter = 30 })
      results[threads] = { marg:totable(), info.n_iter, info.delta }
    end
    luma.config{ threads = saved }
    assert.same(results[1], results[2])
  end)

  it("Gibbs sampling estimates the exact marginals of a 3 x 3 grid, reproducibly", function()
    local S, P = enumerate(3, 3)
    local y = luma.matrix{ { 1, -1, 1 }, { -1, 1, 1 }, { 1, 1, -1 } }
    local opts = { beta = 0.5, eta = 0.4, burn_in = 200, n_sweeps = 40000, seed = 9 }
    local x, marg = grid.gibbs(y, opts)
    local exact = exact_marginals(S, energies(S, P, 0.5, y * 0.4))
    for k = 1, 9 do
      local r, c = (k - 1) // 3 + 1, (k - 1) % 3 + 1
      -- 40,000 correlated draws: a standard error near 0.005
      assert.near(exact:get(1, k), marg:get(r, c), 0.03)
    end
    local x2, marg2 = grid.gibbs(y, opts)
    assert.same(x:totable(), x2:totable())
    assert.same(marg:totable(), marg2:totable())
    local _, marg3 = grid.gibbs(y, { beta = 0.5, eta = 0.4, burn_in = 200, n_sweeps = 40000, seed = 10 })
    assert.is_false((marg3 - marg):abs():max() == 0)
  end)

  describe("refuses bad input at the caller's line", function()
    local y = luma.matrix{ { 1, -1 }, { -1, 1 } }
    it("non-binary images", function()
      errors_with("^tests/pgm/grid_spec%.lua:%d+: bad argument #1 to 'icm' %(y must be a binary image, values %-1/%+1 or 0/1, got 0%.5 at row 2, column 1%)",
        function() grid.icm(luma.matrix{ { 1, 0 }, { 0.5, 1 } }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: bad argument #1 to 'graphcut' %(y mixes the codings",
        function() grid.graphcut(luma.matrix{ { 1, 0 }, { -1, 1 } }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: bad argument #1 to 'bp' %(y must be a luma%.Matrix, got table%)",
        function() grid.bp({ 1, -1 }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: bad argument #1 to 'energy' %(x must be a binary image.*nan",
        function() grid.energy(luma.matrix{ { 0 / 0, 1 }, { 1, 1 } }, y) end)
    end)
    it("shape mismatches", function()
      errors_with("^tests/pgm/grid_spec%.lua:%d+: bad argument #1 to 'energy' %(x is 1 x 4 but y is 2 x 2%)",
        function() grid.energy(luma.matrix{ { 1, 1, 1, 1 } }, y) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.gibbs: field must have the image's shape 2 x 2, got 3 x 2",
        function() grid.gibbs(y, { field = luma.zeros(3, 2) }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.icm: init must have the image's shape 2 x 2, got 2 x 1",
        function() grid.icm(y, { init = luma.matrix{ { 1 }, { 1 } } }) end)
    end)
    it("non-attractive couplings for graph cut, and bad options", function()
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.graphcut: beta must be >= 0 %(an attractive coupling%), got %-0%.5.*not submodular",
        function() grid.graphcut(y, { beta = -0.5 }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.bp: damping must be in %[0, 1%), got 1",
        function() grid.bp(y, { damping = 1 }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.bp: mode must be \"sum\" or \"max\"",
        function() grid.bp(y, { mode = "mean" }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.bp: |beta| must be at most 50",
        function() grid.bp(y, { beta = 60 }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: luma%.pgm%.grid%.icm: beta must be a finite number, got inf",
        function() grid.icm(y, { beta = math.huge }) end)
      errors_with("^tests/pgm/grid_spec%.lua:%d+: .*unknown option 'bata'",
        function() grid.icm(y, { bata = 1 }) end)
    end)
  end)
end)

-- The native loops charge their work to the state's instruction budget
-- (docs/EMBEDDING.md, "Cost model"), as tests/vm/native_limits_spec.lua
-- checks for other families: under a limit of 10^6 units each call stops
-- with the limit error (its data cost far less), and finishes without one.
describe("luma.pgm.grid under an instruction limit", function()
  local HOST = [[
#include <stdio.h>
#include <stdlib.h>
#include "luma.h"
int main(int argc, char **argv) {
  luma_Options opts = {0};
  opts.instruction_limit = (uint64_t)strtoull(argv[1], NULL, 10);
  lua_State *L = luma_newstate(&opts);
  int rc = luma_run_string(L, argv[2], "=limited", 0);
  puts(rc == LUA_OK ? "finished" : lua_tostring(L, -1));
  luma_close(L);
  return 0;
}
]]
  local CALLS = {
    graphcut = [[
      local y = luma.random.Generator(1):uniform(200, 200):ge(0.5) * 2 - 1
      require("luma.pgm.grid").graphcut(y, { beta = 1, eta = 0.5 })]],
    bp = [[
      local y = luma.random.Generator(2):uniform(100, 100):ge(0.5) * 2 - 1
      require("luma.pgm.grid").bp(y, { tol = 0, max_iter = 300 })]],
    gibbs = [[
      local y = luma.random.Generator(3):uniform(100, 100):ge(0.5) * 2 - 1
      require("luma.pgm.grid").gibbs(y, { burn_in = 0, n_sweeps = 300, seed = 1 })]],
    icm = [[
      local y = luma.random.Generator(4):uniform(300, 300):ge(0.5) * 2 - 1
      require("luma.pgm.grid").icm(y, { beta = -1, max_sweeps = 100 })]],
    maxflow = [[
      local g = luma.random.Generator(5)
      local E = luma.matrix.hstack{ g:integers(1, 20000, 60000, 2), g:uniform(60000, 1) }
      require("luma.pgm.grid").maxflow(20000, E, { source = 1, sink = 20000 })]],
  }
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(HOST, dir))
  local function run(limit, code)
    return support.run(support.quote(host) .. " " .. limit .. " " .. support.quote(code))
  end
  for _, name in ipairs{ "graphcut", "bp", "gibbs", "icm", "maxflow" } do
    it(name .. " stops at the budget and finishes without one", function()
      assert.equal("finished\n", run(0, CALLS[name]))
      local out = run(1000000, CALLS[name])
      assert.truthy(out:find("instruction limit", 1, true), out)
      -- stopped inside the call, not while making its data
      assert.truthy(out:find("in function 'luma.pgm.grid.", 1, true)
        or out:find("pgm/grid", 1, true), out)
    end)
  end
end)
