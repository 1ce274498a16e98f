-- Native loops charge their work to the state's instruction budget
-- (docs/EMBEDDING.md, "Cost model"): under a small limit, Louvain, the
-- Laplacian eigensolver, agglomerative linkage, the Kalman smoother and
-- the autocovariances stop with the limit error instead of running to the
-- end, a LAPACK decomposition whose cost exceeds the budget is refused
-- before it starts, and the same calls finish without a limit.
-- SPDX-License-Identifier: MIT
local support = require("support")

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

-- Each call does far more than 10^6 units of native work in few VM
-- instructions: Louvain on a random graph of 20,000 nodes and 100,000
-- edges, a 3000-point spectral embedding by Lanczos, a 2000-point
-- linkage, a 50,000-step smoother, 2000 autocovariances of a 100,000-step
-- series.  Their data are small enough for the random draws, which are
-- charged too, to fit in the budget.
local CALLS = {
  louvain = [[
    local edges = luma.random.Generator(1):integers(1, 20000, 100000, 2)
    luma.cluster.louvain(edges, { n_nodes = 20000, seed = 1 })]],
  spectral_embedding = [[
    local X = luma.random.Generator(1):normal(3000, 2)
    luma.cluster.spectral_embedding(luma.cluster.knn_graph(X, 10),
      { n_components = 4, eigen_solver = "lanczos", seed = 1 })]],
  linkage = [[
    luma.cluster.linkage(luma.random.Generator(2):normal(2000, 5), "average")]],
  kalman = [[
    local kf = luma.lds.KalmanFilter{ transition_matrix = luma.eye(4), observation_matrix =
      luma.matrix{ { 1, 0, 0, 0 }, { 0, 1, 0, 0 } }, transition_covariance = luma.eye(4),
      observation_covariance = luma.eye(2) }
    kf:smooth(luma.random.Generator(3):normal(50000, 2))]],
  acovf = [[
    luma.tsa.acovf(luma.random.Generator(4):normal(100000, 1), { nlags = 2000 })]],
  -- LAPACK cannot be stopped once called: refused up front, naming its cost
  svd = [[
    luma.linalg.svd(luma.random.Generator(5):normal(300, 300))]],
}

describe("native clustering and state-space loops under an instruction limit", function()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. support.quote(dir)))
  local host = assert(support.compile_host(HOST, dir))
  local function run(limit, code)
    local out = support.run(support.quote(host) .. " " .. limit .. " " .. support.quote(code))
    return out
  end

  for name, code in pairs(CALLS) do
    it(name .. " stops at the budget and finishes without one", function()
      assert.equal("finished\n", run(0, code))
      local out = run(1000000, code)
      assert.truthy(out:find("instruction limit", 1, true), out)
      -- stopped by the call, not while drawing its data
      assert.falsy(out:find("in method 'integers'", 1, true)
        or out:find("in method 'normal'", 1, true), out)
    end)
  end

  it("names the LAPACK routine it refuses and its cost", function()
    -- 300^3 = 2.7e7 units against a budget of 10^6
    assert.truthy(run(1000000, CALLS.svd):find("luma.linalg.svd would cost about", 1, true))
  end)
end)
