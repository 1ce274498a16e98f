-- Gibbs sampling of a 2-D Ising model (notes 000 Ch. 11-12): spins
-- x_i in {-1, +1} on a 12 x 12 torus with the notes' pair potential
-- phi(x_i, x_j) = exp(-(x_i - x_j)^2 / (2 T)), so that
-- P(x_i = +1 | neighbours) = 1 / (1 + exp(-2 sum_j x_j / T)).
-- Prints the mean |magnetization| at a low and a high temperature.
-- Run with: build/luma scripts/examples/ising_gibbs.lua
-- SPDX-License-Identifier: MIT
local mc = luma.montecarlo
local L = 12

local function index(r, c) return ((r - 1) % L) * L + ((c - 1) % L) + 1 end

local function conditionals(T)
  local list = {}
  for r = 1, L do
    for c = 1, L do
      local nb = { index(r - 1, c), index(r + 1, c), index(r, c - 1), index(r, c + 1) }
      list[index(r, c)] = function(x, rng)
        local s = x:get(1, nb[1]) + x:get(1, nb[2]) + x:get(1, nb[3]) + x:get(1, nb[4])
        return rng:random() < 1 / (1 + math.exp(-2 * s / T)) and 1 or -1
      end
    end
  end
  return list
end

for _, T in ipairs({ 1.0, 5.0 }) do
  local samples = mc.gibbs{ conditionals = conditionals(T), init = luma.ones(1, L * L),
    n = 200, burn_in = 100, seed = 1 }
  local magnetization = samples:mean(2):abs():mean()
  print(string.format("T = %.1f  mean |magnetization| = %.3f", T, magnetization))
end
