-- LuaRocks package of Luma: `luarocks make` in a clean clone builds the C
-- module with the Makefile and installs it, the Lua modules and the luma
-- command into the rock tree (scripts/check-rock tests it).
-- SPDX-License-Identifier: MIT
rockspec_format = "3.0"
package = "luma"
version = "0.2.0-1"
source = {
  url = "git+file:///luma", -- (a local clone: `luarocks make` builds the working tree)
  tag = "v0.2.0",
}
description = {
  summary = "An embeddable scripting language for machine learning",
  detailed = [[
Luma is Lua 5.4 with native matrices over BLAS and LAPACK and a library of
machine-learning methods in the manner of scikit-learn: linear models, SVMs,
trees and ensembles, clustering, decompositions, mixtures, Gaussian
processes, hidden Markov models, time series, neural networks with automatic
differentiation, model selection and plotting.]],
  license = "MIT",
  labels = { "machine-learning", "statistics", "matrix", "neural-networks" },
}
dependencies = { "lua >= 5.4, < 5.5" }
-- BLAS and LAPACK as Debian's alternatives provide them (libblas.so.3 and
-- liblapack.so.3: OpenBLAS by default); the C module links -lblas -llapack.
external_dependencies = {
  BLAS = { library = "blas" },
  LAPACK = { library = "lapack" },
}
build = {
  type = "make",
  build_target = "lua-module",
  build_variables = { LUA_INCDIR = "$(LUA_INCDIR)" },
  install_target = "install-rock",
  install_variables = {
    ROCK_LIBDIR = "$(LIBDIR)",
    ROCK_LUADIR = "$(LUADIR)",
    ROCK_BINDIR = "$(BINDIR)",
  },
}
