--- luma.pgm.rbm: the Boltzmann machine of notes 000 Ch. 11 (conditionals
-- and Gibbs sampling) and the restricted Boltzmann machine with binary
-- units trained by contrastive divergence, as scikit-learn's BernoulliRBM
-- (issue 32 item 5; docs/PGM.md).
--
-- Boltzmann machine (Barber, BRML 2012, sec. 4.2.5; notes 000 Ch. 11):
-- x in {0, 1}^D, W symmetric with a zero diagonal, b a bias,
--   p(x) = exp(sum_{i<j} w_ij x_i x_j + sum_i b_i x_i) / Z,
--   p(x_i = 1 | x_\i) = sigmoid(b_i + sum_{j != i} w_ij x_j),
-- sampled by Gibbs sweeps through luma.montecarlo.gibbs.
--
-- BernoulliRBM (Hinton, Training products of experts by minimizing
-- contrastive divergence, 2002; Tieleman, Training restricted Boltzmann
-- machines using approximations to the likelihood gradient, 2008): visible
-- v in {0,1}^D, hidden h in {0,1}^k, E(v, h) = -v.b_v - h.b_h - h W v,
-- free energy F(v) = -v.b_v - sum_j softplus(W_j v + b_h,j).  Each
-- mini-batch moves W by learning_rate / rows (<v h>_data - <v h>_model);
-- the model's side comes from k Gibbs steps started at persistent chains
-- (persistent = true: scikit-learn's algorithm, PCD) or at the batch
-- (CD-k).  scikit-learn's random_state is the parameter seed here, as
-- everywhere in Luma.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local estimator = require("luma.estimator")

local M = {}
local fail = args.fail
local NAME = "luma.pgm.BernoulliRBM"
local BM = "luma.pgm.BoltzmannMachine"

-- Checks that X (argument #argn of fname) is a 0/1 matrix with d columns
-- (d nil: any).
local function binary_rows(X, argn, fname, d, what)
  what = what or "X"
  if not luma.ismatrix(X) then
    fail(3, "bad argument #%d to '%s' (%s must be a luma.Matrix, got %s)", argn, fname, what,
      args.type_of(X))
  end
  if d and X:cols() ~= d then
    fail(3, "bad argument #%d to '%s' (%s has %d columns, expected %d)", argn, fname, what,
      X:cols(), d)
  end
  local ok = X:eq(0) + X:eq(1)
  if X:rows() * X:cols() > 0 and ok:min() < 1 then
    local p = math.tointeger(luma.matrix.find(ok:reshape(-1, 1):eq(0)):get(1, 1))
    local c = X:cols()
    local i, j = (p - 1) // c + 1, (p - 1) % c + 1
    fail(3, "bad argument #%d to '%s' (%s must hold 0 and 1 only, got %s at row %d, column %d)",
      argn, fname, what, tostring(X:get(i, j)), i, j)
  end
  return X
end

-- ------------------------------------------------------ Boltzmann machine

local BoltzmannMachine = {}
BoltzmannMachine.__index = BoltzmannMachine
BoltzmannMachine.__name = BM
BoltzmannMachine.__tostring = function(self)
  return string.format("BoltzmannMachine(%d units)", self.W:rows())
end

local function new_bm(p)
  args.check_opts(BM, p, { W = true, b = true }, 3)
  local W = p.W
  if not luma.ismatrix(W) or W:rows() ~= W:cols() or W:rows() < 1 then
    fail(3, "%s: W must be a square luma.Matrix of couplings, got %s", BM,
      luma.ismatrix(W) and string.format("%d x %d", W:rows(), W:cols()) or args.type_of(W))
  end
  local d = W:rows()
  local bad = args.nonfinite(W, "W", false)
  if bad then fail(3, "%s: %s", BM, bad) end
  if (W - W:t()):abs():max() > 1e-12 * math.max(1, W:abs():max()) then
    fail(3, "%s: W must be symmetric (w_ij = w_ji)", BM)
  end
  if W:diag():abs():max() ~= 0 then
    fail(3, "%s: W must have a zero diagonal (no self-couplings)", BM)
  end
  local b = p.b
  if b == nil then b = luma.zeros(1, d) end
  if not luma.ismatrix(b) or b:rows() * b:cols() ~= d or (b:rows() ~= 1 and b:cols() ~= 1) then
    fail(3, "%s: b must be a vector of %d biases (one per unit), got %s", BM, d,
      luma.ismatrix(b) and string.format("%d x %d", b:rows(), b:cols()) or args.type_of(b))
  end
  bad = args.nonfinite(b, "b", false)
  if bad then fail(3, "%s: %s", BM, bad) end
  return setmetatable({ W = W:copy(), b = b:reshape(1, d):copy() }, BoltzmannMachine)
end

setmetatable(BoltzmannMachine, { __call = function(_, p)
  if type(p) ~= "table" then
    fail(2, "%s expects a table {W = couplings, b = biases}, got %s", BM, args.type_of(p))
  end
  local self = new_bm(p) -- not a tail call: new_bm's checks blame this frame's caller
  return self
end })

--- bm:energy(X) -> n x 1: -(sum_{i<j} w_ij x_i x_j + b.x) per row.
function BoltzmannMachine:energy(X)
  binary_rows(X, 1, "energy", self.W:rows())
  return ((X * self.W):mul(X):sum(2) * 0.5 + X * self.b:t()):neg()
end

--- bm:conditionals(X) -> n x D: p(x_i = 1 | the rest of row x) for every i.
function BoltzmannMachine:conditionals(X)
  binary_rows(X, 1, "conditionals", self.W:rows())
  -- the zero diagonal leaves x_i itself out of its own field
  return (X * self.W + self.b):sigmoid()
end

--- bm:log_partition() -> log Z by enumerating the 2^D states (D <= 20).
function BoltzmannMachine:log_partition()
  local d = self.W:rows()
  if d > 20 then
    fail(2, "%s: log_partition enumerates 2^D states; D = %d is more than 20", BM, d)
  end
  local S = luma.zeros(2 ^ d, d)
  for s = 1, 2 ^ d do
    local v = s - 1
    for i = 1, d do
      if v % 2 == 1 then S:set(s, i, 1) end
      v = v // 2
    end
  end
  local negE = self:energy(S):neg()
  local top = negE:max()
  return top + math.log((negE - top):exp():sum())
end

--- bm:log_prob(X) -> n x 1 (exact, through log_partition).
function BoltzmannMachine:log_prob(X)
  binary_rows(X, 1, "log_prob", self.W:rows())
  return self:energy(X):neg() - self:log_partition()
end

--- bm:sample(n [, opts]) -> n x D samples by Gibbs sweeps.
function BoltzmannMachine:sample(n, opts)
  opts = args.options(BM .. ".sample", 2, opts, nil,
    { init = true, burn_in = true, order = true, seed = true }, 2)
  if math.type(n) ~= "integer" or n < 1 then
    fail(2, "bad argument #1 to 'sample' (n must be an integer >= 1, got %s)", tostring(n))
  end
  local d = self.W:rows()
  local init = opts.init and binary_rows(opts.init, 2, "sample", d, "init"):reshape(1, d)
    or luma.zeros(1, d)
  local W, b = self.W, self.b
  local conditionals = {}
  for i = 1, d do
    local wi = W:col(i)
    local bi = b:get(1, i)
    conditionals[i] = function(x, rng)
      local field = bi + (x * wi):get(1, 1)
      return rng:uniform() < 1 / (1 + math.exp(-field)) and 1 or 0
    end
  end
  local rng = opts.seed
  if rng ~= nil and math.type(rng) ~= "integer" and args.type_of(rng) ~= "luma.Generator" then
    fail(2, "%s.sample: seed must be an integer or a luma.Generator, got %s", BM, args.type_of(rng))
  end
  if math.type(rng) == "integer" then rng = luma.random.Generator(rng) end
  return luma.montecarlo.gibbs{ conditionals = conditionals, init = init, n = n,
    burn_in = opts.burn_in or 100, order = opts.order, rng = rng }
end

luma.doc.set_members(BoltzmannMachine, BM, {
  energy = { signature = "bm:energy(X) -> matrix",
    doc = "The energy -(sum_{i<j} w_ij x_i x_j + sum_i b_i x_i) of each row of X (0/1, D "
      .. "columns). Returns an n x 1 matrix." },
  conditionals = { signature = "bm:conditionals(X) -> matrix",
    doc = "The conditionals p(x_i = 1 | x_\\i) = sigmoid(b_i + sum_{j != i} w_ij x_j) of "
      .. "every unit i given the rest of each row of X (Barber, BRML, sec. 4.2.5). Returns an n x D "
      .. "matrix." },
  log_partition = { signature = "bm:log_partition() -> number",
    doc = "log Z by enumerating the 2^D states (D <= 20). Returns a number." },
  log_prob = { signature = "bm:log_prob(X) -> matrix",
    doc = "The exact log-probability of each row of X (through log_partition). Returns an "
      .. "n x 1 matrix." },
  sample = { signature = "bm:sample(n [, {init = zeros, burn_in = 100, order = \"fixed\", "
      .. "seed = nil}]) -> matrix",
    doc = "n samples by Gibbs sweeps over the units (luma.montecarlo.gibbs), each unit drawn "
      .. "from its conditional, after burn_in sweeps from init; order \"random\" visits the "
      .. "units in a random order each sweep; seed an integer or a luma.Generator. Returns an "
      .. "n x D 0/1 matrix." },
})
luma.doc.set(BoltzmannMachine, { name = BM,
  signature = "BoltzmannMachine{W, b = zeros}",
  doc = "A Boltzmann machine over D binary units (0/1): p(x) = exp(sum_{i<j} w_ij x_i x_j + "
    .. "sum_i b_i x_i) / Z (Barber, BRML, sec. 4.2.5; Ackley, Hinton and Sejnowski 1985). W is the D x D "
    .. "symmetric coupling matrix with a zero diagonal, b the D biases. Methods: energy, "
    .. "conditionals, sample (Gibbs), log_partition and log_prob (by enumeration).",
  params = { { name = "W", doc = "D x D symmetric couplings, zero diagonal" },
             { name = "b", default = "zeros", doc = "D biases" } } })
args.wrap_methods(BoltzmannMachine, BM, args.is_named(BM), nil, function() return true end)
M.BoltzmannMachine = BoltzmannMachine

-- ------------------------------------------------------------ BernoulliRBM

local function mean_hiddens(self, V)
  return (V * self.components:t() + self.intercept_hidden):sigmoid()
end

local function mean_visibles(self, Hs)
  return (Hs * self.components + self.intercept_visible):sigmoid()
end

-- Bernoulli draws: 1 where a uniform is below the probability.
local function bernoulli(P, rng)
  return rng:uniform(P:rows(), P:cols()):lt(P)
end

-- The pre-activations of the hidden units, V W^T + b_h.
local function mean_field(self, V)
  return V * self.components:t() + self.intercept_hidden
end

-- F(v) = -v.b_v - sum_j softplus(W_j v + b_h,j), per row (n x 1).
local function free_energy(self, V)
  return (V * self.intercept_visible:t() + mean_field(self, V):softplus():sum(2)):neg()
end

-- The parameters of a first fit, from the generator (scikit-learn's order:
-- the weights N(0, 0.01^2), then zeros).
local function initialize(self, d, rng)
  local p = self.params
  self.components = rng:normal(p.n_components, d) * 0.01
  self.intercept_hidden = luma.zeros(1, p.n_components)
  self.intercept_visible = luma.zeros(1, d)
  self.h_samples = luma.zeros(p.batch_size, p.n_components)
  self.n_features_out = p.n_components
end

-- One update on the mini-batch Vpos (scikit-learn's _fit for k = 1 with
-- persistent chains).
local function update(self, Vpos, rng)
  local p = self.params
  local Hpos = mean_hiddens(self, Vpos)
  local Hs = p.persistent and self.h_samples or bernoulli(Hpos, rng)
  local Vneg, Hneg
  for step = 1, p.k do
    Vneg = bernoulli(mean_visibles(self, Hs), rng)
    Hneg = mean_hiddens(self, Vneg)
    if step < p.k then Hs = bernoulli(Hneg, rng) end
  end
  local lr = p.learning_rate / Vpos:rows()
  self.components = self.components + (Hpos:t() * Vpos - Hneg:t() * Vneg) * lr
  self.intercept_hidden = self.intercept_hidden + (Hpos:sum(1) - Hneg:sum(1)) * lr
  self.intercept_visible = self.intercept_visible + (Vpos:sum(1) - Vneg:sum(1)) * lr
  if p.persistent then self.h_samples = bernoulli(Hneg, rng) end
end

-- The generator of partial_fit and gibbs: made from seed once, then kept
-- (scikit-learn's random_state_); without a seed, the default generator.
local function own_rng(self)
  if self.params.seed == nil then return luma.random.default() end
  local rng = rawget(self, "rng")
  if rng == nil then
    rng = estimator.rng(self.params.seed)
    self.rng = rng
  end
  return rng
end

local METHOD_DOCS = {
  partial_fit = { signature = "est:partial_fit(X) -> est",
    doc = "One update on the mini-batch X (0/1 rows); the first call initializes the model. "
      .. "Returns the estimator." },
  transform = { signature = "est:transform(X) -> matrix",
    doc = "The hidden units' activation probabilities p(h_j = 1 | v) = sigmoid(W v + b_h) "
      .. "of each row of X. Returns an n x n_components matrix." },
  score_samples = { signature = "est:score_samples(X) -> matrix",
    doc = "scikit-learn's stochastic pseudo-likelihood: per row, D log sigmoid(F(v~) - F(v)) "
      .. "with v~ the row with one feature, drawn at random (from seed), flipped. Returns an "
      .. "n x 1 matrix." },
  pseudo_likelihood = { signature = "est:pseudo_likelihood(X) -> matrix",
    doc = "The exact log pseudo-likelihood sum_i log p(v_i | v_\\i) = sum_i log sigmoid(F(v "
      .. "with v_i flipped) - F(v)) of each row: the expectation of score_samples over the "
      .. "flipped feature, without its noise. Returns an n x 1 matrix." },
  free_energy = { signature = "est:free_energy(X) -> matrix",
    doc = "F(v) = -v.b_v - sum_j log(1 + exp(W_j v + b_h,j)) of each row; p(v) is "
      .. "proportional to exp(-F(v)). Returns an n x 1 matrix." },
  gibbs = { signature = "est:gibbs(X) -> matrix",
    doc = "One Gibbs step v -> h -> v from each row of X, with the estimator's generator. "
      .. "Returns a 0/1 matrix of X's shape." },
}

M.BernoulliRBM = estimator.class{
  name = NAME,
  kind = "transformer",
  doc = "Restricted Boltzmann machine with binary visible and hidden units, as "
    .. "scikit-learn's BernoulliRBM: trained on 0/1 data by stochastic maximum likelihood, "
    .. "each mini-batch of batch_size rows moving the weights by learning_rate times the "
    .. "data's minus the model's <v h>, the model's side after k Gibbs steps from persistent "
    .. "chains (persistent = true, Tieleman 2008: scikit-learn's algorithm with k = 1) or from "
    .. "the batch (contrastive divergence CD-k, Hinton 2002). transform gives the hidden "
    .. "probabilities; score_samples scikit-learn's stochastic pseudo-likelihood, "
    .. "pseudo_likelihood its exact (deterministic) version. Fitted: components "
    .. "(n_components x D weights), intercept_hidden, intercept_visible, h_samples (the "
    .. "chains).",
  params = {
    { name = "n_components", type = "integer", default = 256, min = 1, doc = "hidden units" },
    { name = "learning_rate", type = "number", default = 0.1, gt = 0,
      doc = "step size (divided by the rows of each batch)" },
    { name = "batch_size", type = "integer", default = 10, min = 1, doc = "rows per mini-batch" },
    { name = "n_iter", type = "integer", default = 10, min = 0, doc = "passes over the data" },
    { name = "k", type = "integer", default = 1, min = 1, doc = "Gibbs steps per update (CD-k)" },
    { name = "persistent", type = "boolean", default = true,
      doc = "keep the Gibbs chains between updates (PCD, scikit-learn's) or restart them at "
        .. "the batch (CD-k)" },
    { name = "seed", type = "seed",
      doc = "the initial weights, the Gibbs draws and score_samples' flips (scikit-learn's random_state)" },
  },
  method_docs = METHOD_DOCS,
  example = function()
    local X = luma.matrix{ { 0, 0, 1 }, { 1, 1, 0 }, { 1, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 }, { 0, 0, 0 } }
    return M.BernoulliRBM{ n_components = 2, n_iter = 3, batch_size = 2, seed = 0 }, X
  end,
  check_state = function(self)
    estimator.check_fields(self, { components = "matrix", intercept_hidden = "matrix",
      intercept_visible = "matrix", h_samples = "matrix", rng = "?luma.Generator" })
  end,
  fit = function(self, X)
    binary_rows(X, 1, "fit")
    local p = self.params
    local rng = estimator.rng(p.seed)
    initialize(self, X:cols(), rng)
    local n = X:rows()
    -- scikit-learn's gen_even_slices over ceil(n / batch_size) batches:
    -- batch_size rows each, the last one cut at n
    for _ = 1, p.n_iter do
      for start = 1, n, p.batch_size do
        update(self, X:sub(start, math.min(n, start + p.batch_size - 1), nil, nil), rng)
      end
    end
  end,
  partial_fit = function(self, X)
    local fitted = self:is_fitted()
    binary_rows(X, 1, "partial_fit", fitted and self.n_features_in or nil)
    local rng = own_rng(self)
    if not fitted then initialize(self, X:cols(), rng) end
    update(self, X, rng)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
    return self
  end,
  transform = function(self, X)
    binary_rows(X, 1, "transform")
    return mean_hiddens(self, X)
  end,
  free_energy = function(self, X)
    X = estimator.check_input(self, "free_energy", X)
    binary_rows(X, 1, "free_energy")
    return free_energy(self, X)
  end,
  score_samples = function(self, X)
    binary_rows(X, 1, "score_samples")
    local n, d = X:rows(), X:cols()
    local rng = estimator.rng(self.params.seed)
    local flip = (rng:uniform(n, 1) * d):floor()
    local Xf = X:copy()
    for i = 1, n do
      local j = math.tointeger(flip:get(i, 1)) + 1
      Xf:set(i, j, 1 - Xf:get(i, j))
    end
    -- D log sigmoid(F(v~) - F(v)) = -D softplus(F(v) - F(v~))
    return (free_energy(self, X) - free_energy(self, Xf)):softplus() * -d
  end,
  pseudo_likelihood = function(self, X)
    X = estimator.check_input(self, "pseudo_likelihood", X)
    binary_rows(X, 1, "pseudo_likelihood")
    local n, d = X:rows(), X:cols()
    local A = mean_field(self, X)
    local base = free_energy(self, X)
    local vb = X * self.intercept_visible:t()
    local total = luma.zeros(n, 1)
    for i = 1, d do
      -- flipping v_i moves the pre-activations by (1 - 2 v_i) W[:, i]
      local sign = X:col(i) * -2 + 1
      local flipped = (vb + sign * self.intercept_visible:get(1, i)
        + (A + sign * self.components:col(i):t()):softplus():sum(2)):neg()
      total = total - (base - flipped):softplus()
    end
    return total
  end,
  gibbs = function(self, X)
    X = estimator.check_input(self, "gibbs", X)
    binary_rows(X, 1, "gibbs")
    local rng = own_rng(self)
    local Hs = bernoulli(mean_hiddens(self, X), rng)
    return bernoulli(mean_visibles(self, Hs), rng)
  end,
}

return M
