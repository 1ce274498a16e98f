-- luma.nn.initializers: starting weights for an out x in layer, drawn
-- from a luma.random.Generator so a training run repeats bit for bit.
--
-- Scales (fan_in = in, fan_out = out): LeCun, variance 1 / fan_in (LeCun
-- et al., "Efficient BackProp", 1998; notes 003 section 1.23, scale
-- sqrt(1/n_{l-1})); Glorot / Xavier, variance 2 / (fan_in + fan_out)
-- (Glorot & Bengio, AISTATS 2010; notes 003 section 1.23, scale
-- sqrt(2/(n_{l-1} + n_l))); He / Kaiming, variance 2 / fan_in (He et
-- al., ICCV 2015).  A uniform draw on [-a, a] has variance a^2 / 3.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local initializers = {}

local function normal(std) return function(g, out, n_in) return g:normal(out, n_in) * std end end
local function uniform(bound)
  return function(g, out, n_in) return g:uniform(out, n_in) * (2 * bound) - bound end
end

-- name -> function(fan_in, fan_out) -> sampler(g, out, in)
local SCHEMES = {
  -- PyTorch's default for Linear: U(-1/sqrt(fan_in), 1/sqrt(fan_in))
  uniform = function(fan_in) return uniform(1 / math.sqrt(fan_in)) end,
  lecun_normal = function(fan_in) return normal(math.sqrt(1 / fan_in)) end,
  lecun_uniform = function(fan_in) return uniform(math.sqrt(3 / fan_in)) end,
  glorot_normal = function(fan_in, fan_out) return normal(math.sqrt(2 / (fan_in + fan_out))) end,
  glorot_uniform = function(fan_in, fan_out) return uniform(math.sqrt(6 / (fan_in + fan_out))) end,
  he_normal = function(fan_in) return normal(math.sqrt(2 / fan_in)) end,
  he_uniform = function(fan_in) return uniform(math.sqrt(6 / fan_in)) end,
  zeros = function() return function(_, out, n_in) return luma.zeros(out, n_in) end end,
}
SCHEMES.xavier_normal, SCHEMES.xavier_uniform = SCHEMES.glorot_normal, SCHEMES.glorot_uniform
SCHEMES.kaiming_normal, SCHEMES.kaiming_uniform = SCHEMES.he_normal, SCHEMES.he_uniform
initializers.SCHEMES = SCHEMES

--- weight(scheme, out, in, generator, fname, level) -> out x in matrix;
-- an unknown scheme is an error at `level` (fail's) from here.
function initializers.weight(scheme, out, n_in, g, fname, level)
  local make = SCHEMES[scheme]
  if make == nil then
    local names = {}
    for name in pairs(SCHEMES) do names[#names + 1] = name end
    table.sort(names)
    args.fail(level, "%s: init must be one of %s, got %s", fname, table.concat(names, ", "), tostring(scheme))
  end
  return make(n_in, out)(g, out, n_in)
end

return initializers
