-- make plots: regenerates the notes' figures that have data behind them
-- (scripts/examples/plot_*.lua: notes 004 §9.2.2 polynomial fits and the
-- overfitting table, notes 004 Ch. 11 Gaussian mixtures and EM, the Ising
-- Gibbs sample) as SVG files in OUTDIR, with an index.html that shows
-- them all in a browser.
--   build/luma scripts/make-plots.lua [OUTDIR = build/plots]
-- SPDX-License-Identifier: MIT
local outdir = arg and arg[1] or "build/plots"
local EXAMPLES = { "plot_polynomial_fits", "plot_gmm_em", "plot_ising" }

local here = (arg and arg[0] or "scripts/make-plots.lua"):match("^(.*)/[^/]*$") or "."
assert(os.execute("mkdir -p '" .. outdir:gsub("'", "'\\''") .. "'"), "cannot create " .. outdir)

for _, name in ipairs(EXAMPLES) do
  local chunk = assert(loadfile(here .. "/examples/" .. name .. ".lua"))
  chunk(outdir)
end

-- the gallery: every SVG written above, in order
local files = {}
local ls = io.popen("ls '" .. outdir:gsub("'", "'\\''") .. "'")
for f in ls:lines() do
  if f:match("%.svg$") then files[#files + 1] = f end
end
ls:close()
local page = { '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Luma plots</title></head>',
  '<body style="font-family: sans-serif">', "<h1>Figures of the notes, drawn by luma.plot</h1>" }
for _, f in ipairs(files) do
  page[#page + 1] = string.format('<h2>%s</h2><img src="%s">', f, f)
end
page[#page + 1] = "</body></html>\n"
local index = assert(io.open(outdir .. "/index.html", "wb"))
index:write(table.concat(page, "\n"))
index:close()
print(string.format("%d figures and %s/index.html", #files, outdir))
