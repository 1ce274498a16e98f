--- luma.plot: figures as standalone SVG or PNG (drawn in-process) and
-- as braille drawings on the terminal, and the plots of machine-learning
-- results (docs/PLOT.md).
--
-- The package is one part per concern, merged here:
--   figure    Figure (a grid of Axes) and the artists of an Axes
--   scale     linear and log scales, limits, nice ticks
--   color     colours, colormaps (viridis ...) and the class palette
--   contour   contour lines and bands by marching triangles
--   svg       the SVG writer and files (SVG, PNG)
--   raster    the PNG writer: the same drawing on luma.plot.native's canvas
--   terminal  the braille renderer
--   ml        plots taking estimators and results (decision regions,
--             curves, ROC, confusion matrix, dendrogram, ...)
--   common    argument checks shared by the parts (not public)
-- and luma.plot.native (src/ml/plot): whether stdout is a terminal and
-- its size, and the raster canvas (FreeType text, zlib PNG).  Layout is
-- plain Lua with no dependency; a build without FreeType and zlib writes
-- PNG through Debian's librsvg2-bin (rsvg-convert) instead.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local common = require("luma.plot.common")
local figure = require("luma.plot.figure")
local color = require("luma.plot.color")
local scale = require("luma.plot.scale")
local svg = require("luma.plot.svg")
local terminal = require("luma.plot.terminal")
local native = require("luma.plot.native")

local plot = {}
local Figure, Axes = figure.Figure, figure.Axes

plot.figure = figure.new

--- fig:svg() -> the SVG document as a string (works in sandboxed states).
function Figure:svg()
  return svg.render(self)
end

--- fig:save(path [, {scale}]) -> path.
function Figure:save(path, opts)
  return svg.save(self, path, opts)
end

-- Writes text to standard output (through print when io is absent).
local function write(text)
  if type(io) == "table" and io.stdout then
    io.stdout:write(text)
    io.stdout:flush()
  else
    print((text:gsub("\n$", "")))
  end
end

--- terminal(fig [, {width, height, color, write = true}]): draws fig
-- with braille characters on standard output, or returns the text when
-- write is false.
function plot.terminal(fig, opts)
  if getmetatable(fig) ~= Figure then
    common.fail(2, "bad argument #1 to 'terminal' (figure expected, got %s)", type(fig))
  end
  local text = terminal.render(fig, opts)
  if opts and opts.write == false then return text end
  write(text)
end

--- fig:show([{width, height, color}]) -> nothing, or the path of the SVG
-- file written when standard output is not a terminal that can draw.
function Figure:show(opts)
  opts = common.check_opts("show", 1, opts, { width = true, height = true, color = true })
  local getenv = os and os.getenv or function() return nil end
  local sandboxed = luma.config().sandboxed
  if sandboxed or (native.isatty("stdout") and getenv("TERM") ~= "dumb") then
    write(terminal.render(self, opts))
    return -- no value at all: the REPL prints a result, even nil, after the plot
  end
  -- os.tmpname creates the file it names: the SVG goes next to it
  local base = os.tmpname()
  local path = base .. ".svg"
  svg.save(self, path)
  os.remove(base)
  write("luma.plot: figure written to " .. path .. "\n")
  return path
end

--- ax:figure() -> the figure the axes belong to.
function Axes:figure()
  return self.fig
end

-- One-call plots: a new one-panel figure with the artist in it.
for _, name in ipairs{ "line", "scatter", "bar", "step", "errorbar", "fill_between", "heatmap",
    "contour", "contourf" } do
  plot[name] = function(...)
    local fig = figure.new()
    Axes[name](fig:axes(1, 1), ...)
    return fig
  end
end

--- hist(values [, opts]) -> fig, counts, edges.
function plot.hist(values, opts)
  local fig = figure.new()
  local counts, edges = fig:axes(1, 1):hist(values, opts)
  return fig, counts, edges
end

--- colormap(name, t) -> "#rrggbb": the colormap's colour at t in [0, 1].
function plot.colormap(name, t)
  color.check_cmap("colormap", 1, name)
  return color.sample(name, common.required_number("colormap", 2, "t", t))
end

--- colormaps() -> the list of colormap names.
plot.colormaps = color.names

--- palette() -> the qualitative palette's colours (a new list).
function plot.palette()
  return table.move(color.PALETTE, 1, #color.PALETTE, 1, {})
end

--- ticks(lo, hi [, {n = 6, scale = "linear"}]) -> values, labels.
function plot.ticks(lo, hi, opts)
  opts = common.check_opts("ticks", 3, opts, { n = true, scale = true })
  args.arg(type(lo) == "number", 1, "ticks", "number", lo, 2)
  args.arg(type(hi) == "number", 2, "ticks", "number", hi, 2)
  lo, hi = common.number("ticks", 1, "lo", lo), common.number("ticks", 2, "hi", hi)
  if lo == hi then common.fail(2, "bad argument #2 to 'ticks' (hi must differ from lo)") end
  local kind = common.choice("ticks", 3, "scale", opts.scale, { "linear", "log" }, "linear")
  if kind == "log" and math.min(lo, hi) <= 0 then
    common.fail(2, "bad argument #1 to 'ticks' (a log scale needs positive limits)")
  end
  local n = opts.n or 6
  if math.type(n) ~= "integer" or n < 2 or n > 100 then
    common.fail(2, "bad argument #3 to 'ticks' (n must be an integer in 2..100)")
  end
  return scale.ticks(kind, lo, hi, n)
end

for name, fn in pairs(require("luma.plot.ml")) do plot[name] = fn end

-- ----------------------------------------------------------------- help

local doc = luma.doc.set
local STYLE_SIG = "{color = next, width = 1.5, style = \"-\", label = nil, alpha = 1, "
  .. "marker = nil, size = 6}"
local STYLE_DOC = " Style options: color (a name, '#rrggbb', '#rgb' or 'C1'..'C10'; default: the next "
  .. "colour of the palette), width (px), style ('-', '--', ':', '-.'), label (legend entry), "
  .. "alpha, marker ('o', 's', '^', 'v', 'd', 'x', '+'), size (marker diameter, px). NaN or "
  .. "infinite points are skipped with a warning."

doc(plot, { name = "luma.plot",
  doc = "Plots as standalone SVG, PNG (drawn in-process) or braille drawings on the "
    .. "terminal. figure{...} makes a figure with a grid of axes; fig:axes(i, j) draws into "
    .. "one (line, scatter, bar, hist, step, errorbar, fill_between, heatmap, contour, "
    .. "contourf, text, arrow, hline, vline; set{...} for labels, scales, limits, legend); "
    .. "fig:svg(), fig:save(path), fig:show(). One-call versions (line, scatter, bar, hist, "
    .. "...) return a new figure. ML plots: decision_regions, regression_band, "
    .. "learning_curve, validation_curve, search_heatmap, roc_curve, precision_recall_curve, "
    .. "confusion_matrix, residuals, feature_importances, elbow, silhouette, dendrogram, "
    .. "embedding, hist_kde, traces. See docs/PLOT.md." })
doc(plot.figure, { name = "luma.plot.figure",
  signature = "figure([{width = 640, height = 480, rows = 1, cols = 1, title, font_size = 11, "
    .. "background = \"white\"}]) -> Figure",
  doc = "A new figure of width x height pixels with a rows x cols grid of axes (fig:axes(i, "
    .. "j)); the plot methods of axes (1, 1) are also figure methods. Returns the figure." })
doc(plot.terminal, { name = "luma.plot.terminal",
  signature = "terminal(fig [, {width, height, color, write = true}]) -> nil or string",
  doc = "Draws fig with Unicode braille characters (2 x 4 dots a character) and ANSI colours "
    .. "on standard output. width and height (characters) default to the terminal's size (the "
    .. "height less 4 rows, at most 30; 80 x 24 when unknown); color: \"truecolor\", \"256\" "
    .. "or false (default: from COLORTERM, off with NO_COLOR). With write = false the text is "
    .. "returned instead." })
doc(plot.colormap, { name = "luma.plot.colormap", signature = "colormap(name, t) -> string",
  doc = "The colour of colormap name (viridis, magma, inferno, plasma, cividis, coolwarm, gray; "
    .. "_r reverses) at t in [0, 1], as \"#rrggbb\"." })
doc(plot.colormaps, { name = "luma.plot.colormaps", signature = "colormaps() -> list",
  doc = "The names of the colormaps." })
doc(plot.palette, { name = "luma.plot.palette", signature = "palette() -> list",
  doc = "The qualitative palette's ten colours (Tableau 10), used for series and classes in "
    .. "order; 'C1'..'C10' name them." })
doc(plot.ticks, { name = "luma.plot.ticks",
  signature = "ticks(lo, hi [, {n = 6, scale = \"linear\"}]) -> values, labels",
  doc = "The tick positions an axis from lo to hi gets (about n nice numbers: 1, 2 or 5 times "
    .. "a power of ten, Heckbert 1990; powers of ten on a log scale) and their labels." })
doc(plot.hist, { name = "luma.plot.hist",
  signature = "hist(values [, {bins = 10, range = nil, density = false, color, label}]) -> fig, counts, edges",
  doc = "A new figure with the histogram of values (see Axes:hist)." })
for _, name in ipairs{ "line", "scatter", "bar", "step", "errorbar", "fill_between", "heatmap",
    "contour", "contourf" } do
  doc(plot[name], { name = "luma.plot." .. name, signature = name .. "(...) -> fig",
    doc = "A new one-panel figure with ax:" .. name .. "(...) drawn in it (see "
      .. "help(luma.plot.Axes." .. name .. "))." })
end
local FIGOPTS = "ax = nil, width = 640, height = 480, title"
local ML = {
  { "decision_regions", "decision_regions(est, X, y [, {resolution = 150, names = nil, "
      .. FIGOPTS .. "}]) -> fig",
    "The decision regions of a classifier on two features: its predictions on a resolution x "
      .. "resolution grid over the data (lightened class colours) behind the training points "
      .. "by class. An unfitted est is fitted on X, y first. Returns the figure." },
  { "regression_band", "regression_band(est, X, y [, {k = 2, points = 200, xlabel, ylabel, "
      .. FIGOPTS .. "}]) -> fig",
    "A regression fit on one feature with its predictive band: mean +- k std from "
      .. "est:predict(X, {std = true}) (BayesianLinearRegression, GaussianProcessRegressor) "
      .. "on a grid, and the data; or from a table {x, mean, std} as the first argument. "
      .. "Returns the figure." },
  { "learning_curve", "learning_curve(est, X, y [, {train_sizes, cv, scoring, shuffle, seed, "
      .. "n_jobs, " .. FIGOPTS .. "}]) -> fig",
    "Training and cross-validation scores against the training-set size (mean +- 1 std over "
      .. "folds) by luma.model_selection.learning_curve, or from a table {sizes, train, test} "
      .. "as the first argument. Returns the figure." },
  { "validation_curve", "validation_curve(est, X, y [, {param_name, param_range, cv, scoring, "
      .. "n_jobs, xscale = \"auto\", " .. FIGOPTS .. "}]) -> fig",
    "Training and cross-validation scores against one hyperparameter (mean +- 1 std), by "
      .. "luma.model_selection.validation_curve or from {name, values, train, test}; a log "
      .. "axis when positive values span two decades. Returns the figure." },
  { "search_heatmap", "search_heatmap(search [, {x = nil, y = nil, metric = "
      .. "\"mean_test_<primary>\", cmap = \"viridis\", " .. FIGOPTS .. "}]) -> fig",
    "A fitted grid search's (or its results') mean test score over two parameters x and y "
      .. "(the first two by name by default; the best over the other parameters), annotated. "
      .. "Returns the figure." },
  { "roc_curve", "roc_curve(y, scores [, {label = \"ROC\", pos_label = nil, color, "
      .. FIGOPTS .. "}]) -> fig",
    "The ROC curve with its area (AUC) in the legend and the chance diagonal (Fawcett 2006). "
      .. "Also roc_curve(est, X, y [, opts]): scores from est's decision_function, else the "
      .. "last column of predict_proba. Several curves share a panel through ax. Returns the "
      .. "figure." },
  { "precision_recall_curve", "precision_recall_curve(y, scores [, {label = \"PR\", "
      .. "pos_label = nil, color, " .. FIGOPTS .. "}]) -> fig",
    "The precision-recall staircase with the average precision in the legend; also (est, X, "
      .. "y [, opts]) as roc_curve. Returns the figure." },
  { "confusion_matrix", "confusion_matrix(y, predictions [, {labels = nil, normalize = nil, "
      .. "cmap = \"viridis\", " .. FIGOPTS .. "}]) -> fig",
    "The confusion matrix as an annotated heatmap, true labels down and predicted across; "
      .. "normalize \"true\", \"pred\" or \"all\" shows rates. Also (est, X, y [, opts]). "
      .. "Returns the figure." },
  { "residuals", "residuals(y, predictions [, {" .. FIGOPTS .. "}]) -> fig",
    "Residuals y - prediction against the fitted values, with the zero line; also (est, X, y "
      .. "[, opts]). Returns the figure." },
  { "feature_importances", "feature_importances(est [, {names = nil, top = 20, " .. FIGOPTS
      .. "}]) -> fig",
    "Horizontal bars of est.feature_importances (else its first column of coef), largest "
      .. "on top; est may also be the values. Returns the figure." },
  { "elbow", "elbow(ks, values [, {ylabel = \"inertia\", " .. FIGOPTS .. "}]) -> fig",
    "A clustering criterion against the number of clusters. Also elbow(est, X, {ks, param = "
      .. "\"n_clusters\"}) (clones fitted for each k; inertia, else -score) and elbow(X, "
      .. "{ks}) with k-means (needs luma.cluster). Returns the figure." },
  { "silhouette", "silhouette(X, labels [, {" .. FIGOPTS .. "}]) -> fig, mean",
    "Each sample's silhouette (Rousseeuw 1987) as a bar, sorted within its cluster, and the "
      .. "mean as a dashed line; labels may be a clusterer (its labels, else fit_predict). "
      .. "Returns the figure and the mean silhouette." },
  { "silhouette_samples", "silhouette_samples(X, labels) -> list",
    "The silhouette of each row of X: (b - a) / max(a, b) with a the mean distance to its "
      .. "own cluster and b the least mean distance to another, 0 alone in a cluster. Returns "
      .. "a Lua list." },
  { "dendrogram", "dendrogram(Z [, {labels = nil, color = \"C1\", " .. FIGOPTS .. "}]) -> "
      .. "fig, order",
    "The merge tree of an (n-1) x 3 or 4 matrix (a, b, height [, count]) with 1-based ids: "
      .. "leaves 1..n, row i makes cluster n + i; or of a fitted clusterer's linkage_matrix "
      .. "(or children and distances). Returns the figure and the leaves left to right." },
  { "embedding", "embedding(Y, labels [, {X = nil, c = nil, " .. FIGOPTS .. "}]) -> fig",
    "2-D coordinates (the first two columns of Y) coloured by label, or by the values c; Y "
      .. "may be an estimator (its embedding, else fit_transform(X)). Returns the figure." },
  { "kde", "kde(values [, bandwidth = Scott's rule]) -> density, bandwidth",
    "A Gaussian kernel density estimate of the values as a function of x, and its "
      .. "bandwidth (default sigma n^(-1/5), Scott 1992, sigma with ddof 1)." },
  { "hist_kde", "hist_kde(values [, {bins = 30, bandwidth = nil, label, color, xlabel, "
      .. FIGOPTS .. "}]) -> fig",
    "A density histogram of the values with a Gaussian KDE over it. Returns the figure." },
  { "traces", "traces(samples [, {names = nil, bins = 30, width = 820}]) -> fig",
    "MCMC diagnostics: for each column of the n x d samples, the chain against the iteration "
      .. "and its histogram with a KDE. Returns the figure." },
}
for _, m in ipairs(ML) do
  doc(plot[m[1]], { name = "luma.plot." .. m[1], signature = m[2], doc = m[3] })
end

plot.Figure, plot.Axes = Figure, Axes
doc(Figure, { name = "luma.plot.Figure",
  doc = "A figure: a grid of axes and a title. Methods: axes(i, j), svg(), save(path), "
    .. "show(), and the plot methods of axes (1, 1)." })
doc(Axes, { name = "luma.plot.Axes",
  doc = "One panel of a figure: data coordinates, scales, ticks, legend and the artists drawn "
    .. "in it. Methods: line, scatter, bar, hist, step, errorbar, fill_between, heatmap "
    .. "(imshow), contour, contourf, text, arrow, hline, vline, set, limits, ticks, box, "
    .. "transform." })

local METHODS = {
  { Figure, "axes", "fig:axes([row = 1, col = 1]) -> Axes", "The axes at that grid position." },
  { Figure, "svg", "fig:svg() -> string", "The figure as a standalone SVG document." },
  { Figure, "save", "fig:save(path [, {scale = 1}]) -> path",
    "Writes the figure as SVG, or as PNG (scale multiplies the pixel size), by the "
      .. "extension of path. PNG is drawn in-process (anti-aliased, DejaVu Sans text through "
      .. "FreeType, zlib), or through rsvg-convert (Debian's librsvg2-bin) when Luma was built "
      .. "without FreeType and zlib. Not available in a sandboxed state (use fig:svg())." },
  { Figure, "show", "fig:show([{width = columns, height = rows - 4, color = true}]) -> nothing or path",
    "Draws the figure in braille on the terminal (see luma.plot.terminal). When standard "
      .. "output is not a terminal or TERM is dumb, writes an SVG file to a temporary path, "
      .. "prints the path and returns it." },
  { Axes, "set", "ax:set{title, xlabel, ylabel, xlim = {lo, hi}, ylim, xscale = \"linear\", "
      .. "yscale, grid = true, legend = \"best\", aspect = \"auto\", xticks, yticks, "
      .. "xticklabels, yticklabels} -> ax",
    "Labels, limits (lo > hi reverses an axis), scales (\"linear\" or \"log\", which refuses "
      .. "non-positive data), grid, legend position (\"best\", \"upper right\", \"upper "
      .. "left\", \"lower left\", \"lower right\", \"outside\", or false) and aspect "
      .. "(\"equal\": one unit is as long on both axes)." },
  { Axes, "line", "ax:line(x, y [, " .. STYLE_SIG .. "]) -> ax",
    "A polyline through the points (line(y) uses x = 1..n)." .. STYLE_DOC },
  { Axes, "scatter", "ax:scatter(x, y [, {size = 6, color, marker = \"o\", label, alpha, c, "
      .. "cmap = \"viridis\", vmin, vmax, colorbar = true, labels, classes, edgecolor}]) -> ax",
    "Markers at the points. size: a diameter in px or one per point. c: one value per point "
      .. "coloured through cmap (with a colorbar); labels: one class label per point, each "
      .. "class in its palette colour and legend entry (classes fixes their order). Scatters "
      .. "of more than 5000 opaque points drop markers that land on the same quarter pixel "
      .. "as one already drawn." },
  { Axes, "bar", "ax:bar(x, heights [, {width = 0.8, bottom = 0, horizontal, color, label, "
      .. "alpha, edgecolor}]) -> ax",
    "Bars centred at x (a list of names puts them at 1..n, labelled)." },
  { Axes, "hist", "ax:hist(values [, {bins = 10, range, density, color, label, alpha}]) -> "
      .. "counts, edges",
    "A histogram: bins equal-width bins over range (default: the data's) or a list of edges; "
      .. "the last bin includes its right edge (NumPy's rule). density scales the bars to "
      .. "area 1. Returns the counts (or densities) and the edges as lists." },
  { Axes, "step", "ax:step(x, y [, {where = \"pre\"} + style]) -> ax",
    "A staircase through the points: \"pre\" jumps at each x to its y, \"post\" holds "
      .. "y until the next x, \"mid\" jumps half-way." },
  { Axes, "errorbar", "ax:errorbar(x, y, yerr [, {xerr, line = false, capsize = 3} + "
      .. "style]) -> ax",
    "Points with error bars; yerr/xerr: a number, one value per point (symmetric) or "
      .. "{lower, upper} lists." },
  { Axes, "fill_between", "ax:fill_between(x, y1 [, y2 = 0] [, {color, alpha = 0.3, label}]) "
      .. "-> ax", "The area between two curves." },
  { Axes, "heatmap", "ax:heatmap(Z [, {cmap = \"viridis\", vmin, vmax, extent = {x0, x1, y0, "
      .. "y1}, origin = \"upper\", colorbar = true, annotate, colors, xticklabels, "
      .. "yticklabels}]) -> ax",
    "Z (a matrix or rows) as coloured cells, with a colorbar (a string names it). Without "
      .. "extent cell (i, j) is centred at (j, i) and origin \"upper\" puts row 1 on top; "
      .. "with extent the cells tile it. annotate (true or a format) writes each value in "
      .. "its cell; colors (a list) colours integer cells 1..k as categories. Also imshow." },
  { Axes, "contour", "ax:contour(x, y, Z [, {levels = 8, cmap, colors, width, label, "
      .. "colorbar}]) -> ax",
    "Level lines of Z[i][j] given at (x[j], y[i]) by marching triangles; levels: a count of "
      .. "nice levels or a list." },
  { Axes, "contourf", "ax:contourf(x, y, Z [, {levels = 8, cmap, colors, alpha, colorbar}]) "
      .. "-> ax", "Filled bands between the levels of Z (see contour)." },
  { Axes, "text", "ax:text(x, y, s [, {color, size, anchor = \"start\", valign = "
      .. "\"baseline\", rotation, coords = \"data\", weight}]) -> ax",
    "Text at a data point (coords \"axes\": x and y in [0, 1] across the panel)." },
  { Axes, "arrow", "ax:arrow(x1, y1, x2, y2 [, {color, width, head = 8, label}]) -> ax",
    "An arrow from (x1, y1) to (x2, y2)." },
  { Axes, "hline", "ax:hline(y [, " .. STYLE_SIG .. "]) -> ax",
    "A horizontal line across the panel." .. STYLE_DOC },
  { Axes, "vline", "ax:vline(x [, " .. STYLE_SIG .. "]) -> ax",
    "A vertical line across the panel." .. STYLE_DOC },
  { Axes, "transforms", "ax:transforms() -> fx, fy",
    "The functions from data x and from data y to SVG pixels (what transform applies)." },
  { Axes, "figure", "ax:figure() -> Figure", "The figure the axes belong to." },
  { Figure, "each_axes", "fig:each_axes() -> iterator",
    "Iterates over the axes that exist, in grid order (row by row)." },
  { Axes, "limits", "ax:limits() -> x0, x1, y0, y1",
    "The axis limits the panel is drawn with: the user's, else the data's widened by 5% "
      .. "(bars and images keep their edges)." },
  { Axes, "ticks", "ax:ticks() -> xvalues, xlabels, yvalues, ylabels", "The ticks drawn." },
  { Axes, "box", "ax:box() -> {x, y, w, h}", "The plotting area in figure pixels (origin "
      .. "top left)." },
  { Axes, "transform", "ax:transform(x, y) -> px, py",
    "The pixel of the SVG at which data point (x, y) is drawn." },
}
for _, name in ipairs{ "line", "plot", "scatter", "bar", "step", "errorbar", "fill_between",
    "heatmap", "imshow", "contour", "contourf", "text", "arrow", "hline", "vline", "set" } do
  local target = name == "plot" and "line" or name == "imshow" and "heatmap" or name
  METHODS[#METHODS + 1] = { Figure, name, "fig:" .. name .. "(...) -> fig",
    "Calls ax:" .. target .. "(...) on axes (1, 1) and returns the figure, so a one-panel "
      .. "figure chains: fig:line(x, y):set{title = \"t\"}:save(\"f.svg\"). See "
      .. "help(luma.plot.Axes." .. target .. ")." }
end
METHODS[#METHODS + 1] = { Figure, "hist", "fig:hist(values [, {bins = 10, range = nil, "
  .. "density = false}]) -> counts, edges", "Calls ax:hist on axes (1, 1) and returns its "
  .. "counts and edges." }
for _, m in ipairs(METHODS) do
  local cls = m[1] == Figure and "Figure" or "Axes"
  doc(m[1][m[2]], { name = "luma.plot." .. cls .. "." .. m[2], signature = m[3], doc = m[4] })
end

-- Errors at the caller's line (util.args): the methods of figures and axes
-- check their self, and they and the functions above relay their errors
-- (raised by shared checks at varying depths inside the package).
local function always() return true end
args.wrap_methods(Axes, Axes.__name, args.is_named(Axes.__name), nil, always)
args.wrap_methods(Figure, Figure.__name, args.is_named(Figure.__name), nil, always)
args.guard_functions(plot, "luma.plot", nil, true) -- (they check their own option tables)

return plot
