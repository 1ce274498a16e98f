-- Run by tests/vm/locale_spec.lua: writes and reads numbers as text through
-- Luma and prints one "key=value" line for each, in the order below.
-- Arguments: a scratch folder, and "embedded" (a luma_newstate host: Lua's
-- own tostring is checked too) or "require" (stock lua5.4).
-- SPDX-License-Identifier: MIT
local dir, mode = ...
local luma = require("luma")
local function say(k, v) print(k .. "=" .. v) end
local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("a"); f:close(); return s end
say("host_g", string.format("%g", 0.5))
-- CSV: written text, read back, a field long enough for strtod
luma.io.write_csv(luma.matrix{{0.5, 1e-7}}, dir .. "/x.csv")
say("csv", (slurp(dir .. "/x.csv"):gsub("\n", "|")))
local Y = luma.io.read_csv(dir .. "/x.csv", {as = "matrix"})
say("csv_back", tostring(Y:get(1, 1) == 0.5 and Y:get(1, 2) == 1e-7))
local Z = luma.io.parse_csv("a\n0.12345678901234567890123\n", {as = "matrix"})
say("csv_long", tostring(Z:get(1, 1) == 0.12345678901234567890123))
-- libsvm
luma.io.write_libsvm(luma.matrix{{0.5, 0, 1e-7}}, luma.matrix{{1.5}}, dir .. "/x.svm")
say("libsvm", (slurp(dir .. "/x.svm"):gsub("\n", "|")))
local LX, Ly = luma.io.read_libsvm(dir .. "/x.svm")
say("libsvm_back", tostring(LX:get(1, 1) == 0.5 and LX:get(1, 3) == 1e-7 and Ly:get(1, 1) == 1.5))
-- save / load
luma.save(luma.matrix{{0.5, 1e-7}}, dir .. "/m.luma")
local M = luma.load(dir .. "/m.luma")
say("save_back", tostring(M:get(1, 1) == 0.5 and M:get(1, 2) == 1e-7))
-- printing
say("matrix", (tostring(luma.matrix{{0.5, 1e-7}}):gsub("\n", "|")))
say("matrix_fixed", (tostring(luma.matrix{{0.5, 1.25}}):gsub("\n", "|")))
say("table", (tostring(luma.Table{a = luma.matrix{{0.5}, {1.5}}}):gsub("\n", "|")))
say("pprint", luma.pprint.pformat({0.5, x = 1e-7}))
say("ridge", tostring(luma.linear.Ridge{alpha = 0.5}))
if mode == "embedded" then
  say("tostring", tostring(0.5) .. " " .. string.format("%.2f", 0.25) .. " " .. (0.5 .. ""))
end
-- help text
say("help_lasso", (luma.help(luma.linear.Lasso):gsub("\n", "|")))
-- SVG
local fig = luma.plot.figure()
fig:axes(1, 1):line({0, 0.5, 1}, {0.25, 1.5, 2}):scatter({0.1, 0.7}, {1.1, 1.7})
  :heatmap(luma.matrix{{0.5, 1.5}, {2.5, 3.5}}, {annotate = true})
fig:save(dir .. "/f.svg")
local svg = slurp(dir .. "/f.svg")
say("svg_len", #svg)
say("svg", (svg:gsub("\n", "|")))
