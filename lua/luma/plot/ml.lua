--- luma.plot.ml: the plots of machine-learning work, taking fitted
-- estimators and results directly (or the plain numbers behind them).
--
-- Each function draws into opts.ax when given (so curves of several
-- models share one panel) or into a new one-panel figure, and returns
-- the figure.  A plot that needs a family this build lacks (a clusterer
-- for elbow/dendrogram, ...) raises an error naming the family and the
-- plain-data form that works without it.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local common = require("luma.plot.common")
local color = require("luma.plot.color")
local figure = require("luma.plot.figure")
local scale = require("luma.plot.scale")
local estimator = require("luma.estimator")

local fail, vector = common.fail, common.vector
local is_estimator = estimator.is_estimator

local ml = {}

-- The axes to draw into: opts.ax, else axes (1, 1) of a new figure.
local function target(fname, opts)
  local ax = opts.ax
  if ax ~= nil then
    if getmetatable(ax) ~= figure.Axes then
      fail(3, "bad argument to '%s' (ax must be an Axes, got %s)", fname, type(ax))
    end
    return ax
  end
  return figure.new{ width = opts.width, height = opts.height }:axes(1, 1)
end

-- opts with the keys every ML plot accepts added to `valid`.
local function options(fname, arg, opts, valid)
  valid.ax, valid.width, valid.height, valid.title = true, true, true, true
  opts = common.check_opts(fname, arg, opts, valid)
  return opts
end

local function finish(ax, opts, labels)
  labels.title = opts.title or labels.title
  ax:set(labels)
  return ax.fig
end

-- A matrix from a matrix or a table of rows (for data arguments).
local function as_matrix(fname, arg, what, X)
  if luma.ismatrix(X) then return X end
  if type(X) == "table" then
    local rows = common.grid(fname, arg, what, X)
    return luma.matrix(rows)
  end
  fail(3, "bad argument #%d to '%s' (%s must be a matrix, got %s)", arg, fname, what, type(X))
end

local function fitted(fname, est, X, y)
  if not est:is_fitted() then
    local ok, err = pcall(est.fit, est, X, y)
    if not ok then fail(3, "%s: fitting %s failed: %s", fname, tostring(est), tostring(err)) end
  end
  return est
end

-- Sorted distinct values of a list (numbers, then strings byte-wise, then
-- false and true: the order of a classifier's classes).
local function distinct(list)
  local seen, out = {}, {}
  for _, v in ipairs(list) do
    if not seen[v] then seen[v] = true out[#out + 1] = v end
  end
  table.sort(out, common.label_before)
  return out
end

local function label_text(v)
  return type(v) == "number" and scale.short(v) or tostring(v)
end

-- ---------------------------------------------------- decision regions

--- decision_regions(est, X, y [, {resolution = 150, alpha, names, ax}]) -> fig
function ml.decision_regions(est, X, y, opts)
  opts = options("decision_regions", 4, opts, { resolution = true, names = true })
  if not is_estimator(est) then
    fail(2, "bad argument #1 to 'decision_regions' (a classifier expected, got %s)", type(est))
  end
  X = as_matrix("decision_regions", 2, "X", X)
  local n, d = X:shape()
  if d ~= 2 then
    fail(2, "bad argument #2 to 'decision_regions' (X must have 2 columns, got %d; plot two "
      .. "features or an embedding)", d)
  end
  local given = common.labels("decision_regions", 3, "y", y)
  common.same_length("decision_regions", 3, "y", n, given, "X's rows")
  -- (a list of numbers is fitted as a column; labels of other kinds as given)
  local numbers = true
  for _, v in ipairs(given) do numbers = numbers and type(v) == "number" end
  fitted("decision_regions", est, X, (luma.ismatrix(y) or not numbers) and y
    or luma.matrix(given))
  local res = opts.resolution or 150
  if math.type(res) ~= "integer" or res < 2 or res > 1000 then
    fail(2, "bad argument #4 to 'decision_regions' (resolution must be an integer in 2..1000)")
  end
  local classes = est.classes and common.labels("decision_regions", 1, "est.classes", est.classes)
    or distinct(given)
  local index = {}
  for k, c in ipairs(classes) do index[c] = k end
  local x0, x1 = X:col(1):min(), X:col(1):max()
  local y0, y1 = X:col(2):min(), X:col(2):max()
  local px, py = (x1 - x0) * 0.05 + (x1 == x0 and 0.5 or 0), (y1 - y0) * 0.05 + (y1 == y0 and 0.5 or 0)
  x0, x1, y0, y1 = x0 - px, x1 + px, y0 - py, y1 + py
  -- predictions at the centres of a res x res grid of cells tiling the box
  local rows = {}
  for i = 1, res do
    for j = 1, res do
      rows[#rows + 1] = { x0 + (j - 0.5) * (x1 - x0) / res, y0 + (i - 0.5) * (y1 - y0) / res }
    end
  end
  local pred = common.labels("decision_regions", 1, "predictions", est:predict(luma.matrix(rows)))
  local Z = {}
  for i = 1, res do
    local row = {}
    for j = 1, res do row[j] = index[pred[(i - 1) * res + j]] or 0 / 0 end
    Z[i] = row
  end
  local light = {}
  for k = 1, #classes do light[k] = color.mix(color.palette(k), 0.6) end
  local ax = target("decision_regions", opts)
  ax:heatmap(Z, { colors = light, extent = { x0, x1, y0, y1 }, origin = "lower" })
  ax:scatter(X:col(1), X:col(2), { labels = given, classes = classes, edgecolor = "#333333" })
  local names = opts.names or {}
  return finish(ax, opts, { title = tostring(est):match("^[%w_.]+"), xlabel = names[1] or "x1",
    ylabel = names[2] or "x2" })
end

-- ------------------------------------------------------- regression band

--- regression_band(est | {x, mean, std}, X, y [, {k = 2, names, ax}]) -> fig
function ml.regression_band(model, X, y, opts)
  opts = options("regression_band", 4, opts, { k = true, points = true, xlabel = true,
    ylabel = true })
  local k = common.number("regression_band", 4, "k", opts.k, 2)
  local xs, mean, std
  if is_estimator(model) then
    X = as_matrix("regression_band", 2, "X", X)
    if X:cols() ~= 1 then
      fail(2, "bad argument #2 to 'regression_band' (X must have 1 column, got %d)", X:cols())
    end
    fitted("regression_band", model, X, y)
    local lo, hi = X:min(), X:max()
    local pad = (hi - lo) * 0.05
    local grid = luma.linspace(lo - pad, hi + pad, opts.points or 200)
    local ok, m, s = pcall(model.predict, model, grid, { std = true })
    if not ok or not luma.ismatrix(s) then
      fail(2, "bad argument #1 to 'regression_band' (%s gives no predictive std; use a model "
        .. "whose predict takes {std = true} (BayesianLinearRegression, "
        .. "GaussianProcessRegressor) or pass {x, mean, std})", tostring(model):match("^[%w_.]+"))
    end
    xs, mean, std = vector("regression_band", 2, "grid", grid), vector("regression_band", 1,
      "mean", m), vector("regression_band", 1, "std", s)
  elseif type(model) == "table" and model.x and model.mean and model.std then
    xs = vector("regression_band", 1, "x", model.x)
    mean = vector("regression_band", 1, "mean", model.mean)
    std = vector("regression_band", 1, "std", model.std)
    common.same_length("regression_band", 1, "mean", #xs, mean)
    common.same_length("regression_band", 1, "std", #xs, std)
  else
    fail(2, "bad argument #1 to 'regression_band' (a fitted regressor or {x, mean, std} "
      .. "expected)")
  end
  local lower, upper = {}, {}
  for i = 1, #xs do lower[i], upper[i] = mean[i] - k * std[i], mean[i] + k * std[i] end
  local ax = target("regression_band", opts)
  ax:fill_between(xs, lower, upper, { color = "C1", alpha = 0.25,
    label = string.format("±%s std", scale.short(k)) })
  ax:line(xs, mean, { color = "C1", label = "mean" })
  if X ~= nil and y ~= nil then
    ax:scatter(X, y, { color = "black", size = 5, label = "data" })
  end
  return finish(ax, opts, { xlabel = opts.xlabel or "x", ylabel = opts.ylabel or "y" })
end

-- --------------------------------------------- learning/validation curves

-- Mean and standard deviation of each row of a matrix (scores per fold).
local function row_stats(fname, what, M)
  M = as_matrix(fname, 1, what, M)
  local mean, std = {}, {}
  for i = 1, M:rows() do
    local r = M:row(i)
    mean[i] = r:mean()
    std[i] = r:std()
  end
  return mean, std
end

local function score_curves(ax, xs, train, test)
  for _, s in ipairs{ { train, "training score", "C1" }, { test, "cross-validation score", "C2" } } do
    if s[1] then
      local mean, std = row_stats("curve", "scores", s[1])
      common.same_length("curve", 1, "scores", #xs, mean)
      local lo, hi = {}, {}
      for i = 1, #mean do lo[i], hi[i] = mean[i] - std[i], mean[i] + std[i] end
      ax:fill_between(xs, lo, hi, { color = s[3], alpha = 0.2 })
      ax:line(xs, mean, { color = s[3], label = s[2], marker = "o", size = 5 })
    end
  end
end

--- learning_curve(est, X, y [, opts]) or learning_curve{sizes, train,
-- test} -> fig: mean scores ± 1 std over folds against training size.
function ml.learning_curve(est, X, y, opts)
  local sizes, train, test
  if is_estimator(est) then
    opts = options("learning_curve", 4, opts, { train_sizes = true, cv = true, scoring = true,
      shuffle = true, seed = true, n_jobs = true })
    sizes, train, test = require("luma.model_selection").learning_curve(est, X, y, {
      train_sizes = opts.train_sizes, cv = opts.cv, scoring = opts.scoring,
      shuffle = opts.shuffle, seed = opts.seed, n_jobs = opts.n_jobs })
  elseif type(est) == "table" and est.sizes then
    opts = options("learning_curve", 2, X, {})
    sizes, train, test = est.sizes, est.train, est.test
  else
    fail(2, "bad argument #1 to 'learning_curve' (an estimator or {sizes, train, test} expected)")
  end
  local ax = target("learning_curve", opts)
  score_curves(ax, vector("learning_curve", 1, "sizes", sizes), train, test)
  return finish(ax, opts, { title = "learning curve", xlabel = "training examples",
    ylabel = "score" })
end

--- validation_curve(est, X, y, {param_name, param_range, ...}) or
-- validation_curve{name, values, train, test} -> fig.
function ml.validation_curve(est, X, y, opts)
  local name, values, train, test
  if is_estimator(est) then
    opts = options("validation_curve", 4, opts, { param_name = true, param_range = true,
      cv = true, scoring = true, n_jobs = true, xscale = true })
    train, test = require("luma.model_selection").validation_curve(est, X, y, {
      param_name = opts.param_name, param_range = opts.param_range, cv = opts.cv,
      scoring = opts.scoring, n_jobs = opts.n_jobs })
    name, values = opts.param_name, opts.param_range
  elseif type(est) == "table" and est.values then
    opts = options("validation_curve", 2, X, { xscale = true })
    name, values, train, test = est.name, est.values, est.train, est.test
  else
    fail(2, "bad argument #1 to 'validation_curve' (an estimator or {name, values, train, "
      .. "test} expected)")
  end
  local xs = vector("validation_curve", 1, "param_range", values)
  local lo, hi = common.minmax(xs)
  local ax = target("validation_curve", opts)
  local xscale = opts.xscale or (lo and lo > 0 and hi / lo >= 100 and "log" or "linear")
  ax:set{ xscale = xscale }
  score_curves(ax, xs, train, test)
  return finish(ax, opts, { title = "validation curve", xlabel = name or "parameter",
    ylabel = "score" })
end

-- -------------------------------------------------------- search heatmap

--- search_heatmap(search | results, {x, y, metric}) -> fig: the mean
-- test score over two parameters (the best over any others).
function ml.search_heatmap(search, opts)
  opts = options("search_heatmap", 2, opts, { x = true, y = true, metric = true, cmap = true })
  local results = type(search) == "table" and (search.results or search)
  if type(results) ~= "table" or type(results[1]) ~= "table" or not results[1].params then
    fail(2, "bad argument #1 to 'search_heatmap' (a fitted search or its results expected)")
  end
  local metric = opts.metric or ("mean_test_" .. (results.primary or "score"))
  if results[1][metric] == nil then
    fail(2, "bad argument #2 to 'search_heatmap' (results have no '%s')", metric)
  end
  local px, py = opts.x, opts.y
  if px == nil or py == nil then
    local names = {}
    for k in pairs(results[1].params) do names[#names + 1] = k end
    table.sort(names)
    px, py = px or names[1], py or names[2]
  end
  for _, p in ipairs{ px, py } do
    if results[1].params[p] == nil then
      fail(2, "bad argument #2 to 'search_heatmap' (the candidates have no parameter '%s')",
        tostring(p))
    end
  end
  local xv, yv = {}, {}
  for c = 1, #results do
    xv[#xv + 1], yv[#yv + 1] = results[c].params[px], results[c].params[py]
  end
  xv, yv = distinct(xv), distinct(yv)
  local xi, yi = {}, {}
  for k, v in ipairs(xv) do xi[v] = k end
  for k, v in ipairs(yv) do yi[v] = k end
  local Z = {}
  for i = 1, #yv do
    Z[i] = {}
    for j = 1, #xv do Z[i][j] = 0 / 0 end
  end
  for c = 1, #results do
    local r = results[c]
    local i, j, v = yi[r.params[py]], xi[r.params[px]], r[metric]
    if v == v and not (Z[i][j] >= v) then Z[i][j] = v end
  end
  local xl, yl = {}, {}
  for k, v in ipairs(xv) do xl[k] = label_text(v) end
  for k, v in ipairs(yv) do yl[k] = label_text(v) end
  local ax = target("search_heatmap", opts)
  ax:heatmap(Z, { annotate = "%.3f", origin = "lower", cmap = opts.cmap or "viridis",
    xticklabels = xl, yticklabels = yl, colorbar = metric })
  return finish(ax, opts, { title = "grid search", xlabel = px, ylabel = py })
end

-- ----------------------------------------------------------- ROC and PR

-- Scores of the positive class from an estimator (decision_function, else
-- the last column of predict_proba) or given.
local function binary_scores(fname, a, X, y, opts)
  if is_estimator(a) then
    X = as_matrix(fname, 2, "X", X)
    fitted(fname, a, X, y)
    local s
    if a.decision_function then
      local ok, v = pcall(a.decision_function, a, X)
      if ok then s = v end
    end
    if not s and a.predict_proba then
      local P = a:predict_proba(X)
      s = P:col(P:cols())
    end
    if not s then
      fail(3, "bad argument #1 to '%s' (%s has neither decision_function nor predict_proba)",
        fname, tostring(a):match("^[%w_.]+"))
    end
    return y, s, opts, tostring(a):match("([%w_]+)%s*[{(]?") or "model"
  end
  -- plain labels and scores: luma.metrics takes labels of any kind (a list
  -- of strings, a categorical column) and scores as a column
  local function column(arg, what, v)
    if luma.ismatrix(v) then return v end
    local mt = getmetatable(v)
    if arg == 1 and (mt ~= nil or (type(v) == "table" and type(v[1]) ~= "number")) then
      return v
    end
    return luma.matrix(vector(fname, arg, what, v))
  end
  return column(1, "y", a), column(2, "scores", X), y, nil
end

--- roc_curve(y, scores [, opts]) or roc_curve(est, X, y [, opts]) -> fig
function ml.roc_curve(a, b, c, d)
  local y, s, opts, name = binary_scores("roc_curve", a, b, c, d)
  opts = options("roc_curve", 3, opts, { label = true, pos_label = true, color = true })
  local metrics = require("luma.metrics")
  local fpr, tpr = metrics.roc_curve(y, s, { pos_label = opts.pos_label })
  local auc = metrics.roc_auc_score(y, s, { pos_label = opts.pos_label })
  local ax = target("roc_curve", opts)
  if not ax.chance then
    ax:line({ 0, 1 }, { 0, 1 }, { color = "gray", style = "--", width = 1 })
    ax.chance = true
  end
  ax:line(fpr, tpr, { color = opts.color, label = string.format("%s (AUC = %.3f)",
    opts.label or name or "ROC", auc) })
  return finish(ax, opts, { title = "ROC curve", xlabel = "false positive rate",
    ylabel = "true positive rate", xlim = { 0, 1 }, ylim = { 0, 1.02 }, legend = "lower right" })
end

--- precision_recall_curve(y, scores [, opts]) or (est, X, y [, opts]) -> fig
function ml.precision_recall_curve(a, b, c, d)
  local y, s, opts, name = binary_scores("precision_recall_curve", a, b, c, d)
  opts = options("precision_recall_curve", 3, opts, { label = true, pos_label = true,
    color = true })
  local metrics = require("luma.metrics")
  local P, R = metrics.precision_recall_curve(y, s, { pos_label = opts.pos_label })
  local ap = metrics.average_precision_score(y, s, { pos_label = opts.pos_label })
  local ax = target("precision_recall_curve", opts)
  -- the curve is a staircase: precision holds until recall reaches the next point
  ax:step(R, P, { where = "post", color = opts.color,
    label = string.format("%s (AP = %.3f)", opts.label or name or "PR", ap) })
  return finish(ax, opts, { title = "precision-recall curve", xlabel = "recall",
    ylabel = "precision", xlim = { 0, 1 }, ylim = { 0, 1.02 }, legend = "lower left" })
end

-- ---------------------------------------------------- confusion matrix

--- confusion_matrix(y, p [, {labels, normalize}]) or (est, X, y [, opts]) -> fig
function ml.confusion_matrix(a, b, c, d)
  local y, p, opts
  if is_estimator(a) then
    local X = as_matrix("confusion_matrix", 2, "X", b)
    fitted("confusion_matrix", a, X, c)
    y, p, opts = c, a:predict(X), d
  else
    y, p, opts = a, b, c
  end
  opts = options("confusion_matrix", 3, opts, { labels = true, normalize = true, cmap = true })
  local ys = common.labels("confusion_matrix", 1, "y", y)
  local ps = common.labels("confusion_matrix", 2, "predictions", p)
  common.same_length("confusion_matrix", 2, "predictions", #ys, ps, "y")
  common.nonempty("confusion_matrix", 1, "y", ys)
  local labels = opts.labels and common.labels("confusion_matrix", 3, "labels", opts.labels)
  if not labels then
    local all = {}
    for _, v in ipairs(ys) do all[#all + 1] = v end
    for _, v in ipairs(ps) do all[#all + 1] = v end
    labels = distinct(all)
  end
  local index = {}
  for k, v in ipairs(labels) do index[v] = k end
  local C = {}
  for i = 1, #labels do
    C[i] = {}
    for j = 1, #labels do C[i][j] = 0 end
  end
  for i = 1, #ys do
    local r, s = index[ys[i]], index[ps[i]]
    if r and s then C[r][s] = C[r][s] + 1 end
  end
  local normalize = common.choice("confusion_matrix", 3, "normalize", opts.normalize,
    { "true", "pred", "all" })
  if normalize then
    local function total(i, j)
      local t = 0
      for a = 1, #labels do
        for b = 1, #labels do
          if (normalize == "true" and a == i) or (normalize == "pred" and b == j)
              or normalize == "all" then t = t + C[a][b] end
        end
      end
      return t
    end
    local N = {}
    for i = 1, #labels do
      N[i] = {}
      for j = 1, #labels do
        local t = total(i, j)
        N[i][j] = t > 0 and C[i][j] / t or 0
      end
    end
    C = N
  end
  local names = {}
  for k, v in ipairs(labels) do names[k] = label_text(v) end
  local ax = target("confusion_matrix", opts)
  ax:heatmap(C, { annotate = normalize and "%.2f" or "%d", cmap = opts.cmap or "viridis",
    xticklabels = names, yticklabels = names, colorbar = false })
  ax:set{ grid = false }
  return finish(ax, opts, { title = "confusion matrix", xlabel = "predicted label",
    ylabel = "true label" })
end

-- ------------------------------------------------------------ residuals

--- residuals(y, p [, opts]) or residuals(est, X, y [, opts]) -> fig:
-- residuals y - p against the fitted values p, with the zero line.
function ml.residuals(a, b, c, d)
  local y, p, opts
  if is_estimator(a) then
    local X = as_matrix("residuals", 2, "X", b)
    fitted("residuals", a, X, c)
    y, p, opts = c, a:predict(X), d
  else
    y, p, opts = a, b, c
  end
  opts = options("residuals", 3, opts, {})
  local ys, ps = vector("residuals", 1, "y", y), vector("residuals", 2, "predictions", p)
  common.same_length("residuals", 2, "predictions", #ys, ps, "y")
  local r = {}
  for i = 1, #ys do r[i] = ys[i] - ps[i] end
  local ax = target("residuals", opts)
  ax:hline(0, { style = "--", width = 1 })
  ax:scatter(ps, r, { size = 5, alpha = 0.8 })
  return finish(ax, opts, { title = "residuals", xlabel = "fitted value",
    ylabel = "residual (y - fitted)" })
end

-- -------------------------------------------------- feature importances

--- feature_importances(est | values [, {names, top}]) -> fig
function ml.feature_importances(a, opts)
  opts = options("feature_importances", 2, opts, { names = true, top = true })
  local values, what = nil, "importance"
  if is_estimator(a) then
    if a.feature_importances then
      values = vector("feature_importances", 1, "feature_importances", a.feature_importances)
    elseif luma.ismatrix(a.coef) then
      values, what = vector("feature_importances", 1, "coef", a.coef:col(1)), "coefficient"
    else
      fail(2, "bad argument #1 to 'feature_importances' (%s has neither feature_importances "
        .. "nor coef; fit it first or pass the values)", tostring(a):match("^[%w_.]+"))
    end
  else
    values = vector("feature_importances", 1, "values", a)
  end
  common.nonempty("feature_importances", 1, "values", values)
  local names = opts.names and common.labels("feature_importances", 2, "names", opts.names) or {}
  local order = {}
  for i = 1, #values do order[i] = i end
  table.sort(order, function(i, j)
    local a_, b_ = math.abs(values[i]), math.abs(values[j])
    if a_ ~= b_ then return a_ > b_ end
    return i < j
  end)
  local top = math.min(opts.top or 20, #values)
  -- the largest at the top: bars at top..1
  local pos, hs, ticks = {}, {}, {}
  for r = 1, top do
    local i = order[r]
    pos[r], hs[r] = top + 1 - r, values[i]
    ticks[r] = names[i] ~= nil and tostring(names[i]) or ("x" .. i)
  end
  local ax = target("feature_importances", opts)
  ax:bar(pos, hs, { horizontal = true, color = "C1" })
  ax:set{ yticks = pos, yticklabels = ticks }
  if what == "coefficient" then ax:vline(0, { width = 1 }) end
  return finish(ax, opts, { title = "feature " .. what .. "s", xlabel = what })
end

-- --------------------------------------------------- elbow, silhouette

-- A clusterer of the cluster family, or an error saying it has not landed.
local function cluster_family(fname, what)
  local ok, cluster = pcall(require, "luma.cluster")
  if not ok or type(cluster) ~= "table" or not cluster[what] then
    fail(3, "luma.plot.%s: needs luma.cluster.%s, which this build does not have; pass a "
      .. "clusterer (an estimator) or the plain values instead", fname, what)
  end
  return cluster[what]
end

--- elbow(ks, values [, opts]), elbow(est, X, {ks, param = "n_clusters"})
-- or elbow(X, {ks}) (k-means) -> fig: a criterion against the number of
-- clusters (inertia, or -score when the clusterer has no inertia).
function ml.elbow(a, b, c)
  local ks, values, opts
  local data_only = luma.ismatrix(a) and (b == nil or type(b) == "table" and not luma.ismatrix(b)
    and b[1] == nil)
  if is_estimator(a) or data_only then
    local est, X
    if is_estimator(a) then
      est, X, opts = a, b, c
    else
      X, opts = a, b
      est = cluster_family("elbow", "KMeans")()
    end
    opts = options("elbow", 3, opts, { ks = true, param = true, ylabel = true })
    X = as_matrix("elbow", 2, "X", X)
    ks = vector("elbow", 3, "ks", opts.ks or { 1, 2, 3, 4, 5, 6, 7, 8 })
    values = {}
    for i, k in ipairs(ks) do
      local m = est:clone()
      m:set_params{ [opts.param or "n_clusters"] = math.tointeger(k) or k }
      m:fit(X)
      values[i] = type(m.inertia) == "number" and m.inertia or -m:score(X)
    end
  else
    ks = vector("elbow", 1, "ks", a)
    values = vector("elbow", 2, "values", b)
    common.same_length("elbow", 2, "values", #ks, values, "ks")
    opts = options("elbow", 3, c, { ylabel = true })
  end
  local ax = target("elbow", opts)
  ax:line(ks, values, { marker = "o", color = "C1" })
  ax:set{ xticks = ks }
  return finish(ax, opts, { title = "elbow", xlabel = "number of clusters",
    ylabel = opts.ylabel or "inertia" })
end

--- silhouette_samples(X, labels) -> list of s(i) = (b - a) / max(a, b)
-- (Rousseeuw 1987): a the mean distance to the own cluster, b the least
-- mean distance to another; 0 for a sample alone in its cluster (as
-- scikit-learn).
function ml.silhouette_samples(X, labels)
  X = as_matrix("silhouette_samples", 1, "X", X)
  local lab = common.labels("silhouette_samples", 2, "labels", labels)
  local n = X:rows()
  common.same_length("silhouette_samples", 2, "labels", n, lab, "X's rows")
  local classes = distinct(lab)
  if #classes < 2 then
    fail(2, "bad argument #2 to 'silhouette_samples' (needs at least 2 clusters)")
  end
  local index, size = {}, {}
  for k, c in ipairs(classes) do index[c], size[k] = k, 0 end
  for i = 1, n do size[index[lab[i]]] = size[index[lab[i]]] + 1 end
  local D = luma.pairwise.distances(X):totable()
  local s = {}
  for i = 1, n do
    local sums = {}
    for k = 1, #classes do sums[k] = 0 end
    local row = D[i]
    for j = 1, n do
      local k = index[lab[j]]
      sums[k] = sums[k] + row[j]
    end
    local own = index[lab[i]]
    if size[own] <= 1 then
      s[i] = 0
    else
      local a = sums[own] / (size[own] - 1)
      local b = math.huge
      for k = 1, #classes do
        if k ~= own then b = math.min(b, sums[k] / size[k]) end
      end
      s[i] = (b - a) / math.max(a, b)
    end
  end
  return s
end

--- silhouette(X, labels | est [, opts]) -> fig, mean: each sample's
-- silhouette as a horizontal bar, sorted within its cluster, and the
-- mean as a dashed line.
function ml.silhouette(X, labels, opts)
  opts = options("silhouette", 3, opts, {})
  X = as_matrix("silhouette", 1, "X", X)
  if is_estimator(labels) then
    local est = labels
    labels = est.labels or est:fit_predict(X)
  end
  local lab = common.labels("silhouette", 2, "labels", labels)
  local s = ml.silhouette_samples(X, lab)
  local classes = distinct(lab)
  local ax = target("silhouette", opts)
  local y, mean = 0, 0
  for _, v in ipairs(s) do mean = mean + v end
  mean = mean / #s
  for k, c in ipairs(classes) do
    local vals = {}
    for i = 1, #lab do if lab[i] == c then vals[#vals + 1] = s[i] end end
    table.sort(vals)
    local pos = {}
    for i = 1, #vals do pos[i] = y + i end
    ax:bar(pos, vals, { horizontal = true, width = 1, color = color.palette(k),
      label = label_text(c) })
    y = y + #vals + math.max(1, #lab // 50)
  end
  ax:vline(mean, { style = "--", color = "red", width = 1,
    label = string.format("mean %.3f", mean) })
  ax:set{ yticks = {} }
  return finish(ax, opts, { title = "silhouette", xlabel = "silhouette coefficient",
    ylabel = "samples by cluster" }), mean
end

-- ------------------------------------------------------------ dendrogram

--- dendrogram(Z | est [, {labels, color}]) -> fig, order: Z is an (n-1) x
-- 3 or 4 merge matrix with 1-based ids (leaves 1..n, row i makes cluster
-- n + i at height Z[i][3]); order lists the leaves left to right.
function ml.dendrogram(Z, opts)
  opts = options("dendrogram", 2, opts, { labels = true, color = true })
  if is_estimator(Z) then
    -- a fitted agglomerative clusterer: its linkage matrix, or its merges
    -- (children, n-1 x 2, with the same 1-based ids) and their distances
    local est = Z
    if luma.ismatrix(est.linkage_matrix) then
      Z = est.linkage_matrix
    elseif luma.ismatrix(est.children) and luma.ismatrix(est.distances) then
      Z = luma.matrix.hstack{ est.children, est.distances:reshape(-1, 1) }
    else
      fail(2, "bad argument #1 to 'dendrogram' (%s has no linkage_matrix nor children and "
        .. "distances; fit an agglomerative clusterer (luma.cluster) or pass the (n-1) x 4 "
        .. "merge matrix)", tostring(est):match("^[%w_.]+"))
    end
  end
  local rows = common.grid("dendrogram", 1, "Z", Z)
  local m = #rows
  local n = m + 1
  if #rows[1] < 3 then
    fail(2, "bad argument #1 to 'dendrogram' (Z needs columns a, b, height [, count])")
  end
  local used = {}
  for i, r in ipairs(rows) do
    for c = 1, 2 do
      local id = r[c]
      if math.type(id) ~= "integer" and id ~= math.floor(id) or id < 1 or id >= n + i then
        fail(2, "bad argument #1 to 'dendrogram' (Z[%d][%d] = %s is not a leaf 1..%d or a "
          .. "cluster made by an earlier row)", i, c, tostring(id), n)
      end
      id = math.tointeger(id)
      if used[id] then
        fail(2, "bad argument #1 to 'dendrogram' (cluster %d is merged twice)", id)
      end
      used[id] = true
    end
    if not common.finite(r[3]) or r[3] < 0 then
      fail(2, "bad argument #1 to 'dendrogram' (Z[%d][3], a height, must be finite and >= 0)", i)
    end
  end
  -- leaves left to right by a depth-first walk from the root
  local order, pos, height = {}, {}, {}
  local function walk(id)
    if id <= n then
      order[#order + 1] = id
      pos[id], height[id] = #order, 0
      return
    end
    local r = rows[id - n]
    walk(math.tointeger(r[1]))
    walk(math.tointeger(r[2]))
    pos[id] = (pos[math.tointeger(r[1])] + pos[math.tointeger(r[2])]) / 2
    height[id] = r[3]
  end
  walk(n + m)
  local ax = target("dendrogram", opts)
  local c = opts.color or "C1"
  for i, r in ipairs(rows) do
    local a, b = math.tointeger(r[1]), math.tointeger(r[2])
    ax:line({ pos[a], pos[a], pos[b], pos[b] }, { height[a], r[3], r[3], height[b] },
      { color = c, width = 1.2 })
    height[n + i] = r[3]
  end
  local names = opts.labels and common.labels("dendrogram", 2, "labels", opts.labels)
  local ticks, tl = {}, {}
  if n <= 60 then
    for k, id in ipairs(order) do ticks[k], tl[k] = k, names and tostring(names[id]) or tostring(id) end
  end
  ax:set{ xticks = ticks, xticklabels = tl, xlim = { 0.5, n + 0.5 }, grid = false }
  return finish(ax, opts, { title = "dendrogram", ylabel = "height" }), order
end

-- ------------------------------------------------------------- embedding

--- embedding(Y | est, labels [, {X, names}]) -> fig: 2-D coordinates
-- coloured by label (Y an n x 2 matrix; est: its embedding field, else
-- est:fit_transform(opts.X)).
function ml.embedding(Y, labels, opts)
  opts = options("embedding", 3, opts, { X = true, c = true })
  if is_estimator(Y) then
    local est = Y
    if luma.ismatrix(est.embedding) then
      Y = est.embedding
    elseif opts.X ~= nil then
      Y = est:fit_transform(as_matrix("embedding", 3, "X", opts.X))
    else
      fail(2, "bad argument #1 to 'embedding' (%s is not fitted; give {X = data} or the "
        .. "coordinates)", tostring(est):match("^[%w_.]+"))
    end
  end
  Y = as_matrix("embedding", 1, "Y", Y)
  if Y:cols() < 2 then
    fail(2, "bad argument #1 to 'embedding' (needs 2 columns, got %d)", Y:cols())
  end
  local ax = target("embedding", opts)
  if labels ~= nil then
    ax:scatter(Y:col(1), Y:col(2), { labels = labels, size = 5 })
  else
    ax:scatter(Y:col(1), Y:col(2), { size = 5, c = opts.c })
  end
  return finish(ax, opts, { title = "embedding", xlabel = "dimension 1",
    ylabel = "dimension 2" })
end

-- ------------------------------------------------------- histogram + KDE

--- kde(values [, bandwidth]) -> function(x) -> density, bandwidth: a
-- Gaussian kernel density estimate; the default bandwidth is Scott's
-- rule h = sigma n^(-1/5) (sigma with ddof 1, as scipy's gaussian_kde).
function ml.kde(values, h)
  local v = vector("kde", 1, "values", values)
  v = common.keep_finite("kde", { v })[1]
  local n = #v
  if n < 2 then fail(2, "bad argument #1 to 'kde' (needs at least 2 finite values)") end
  if h == nil then
    local mean = 0
    for _, x in ipairs(v) do mean = mean + x end
    mean = mean / n
    local ss = 0
    for _, x in ipairs(v) do ss = ss + (x - mean) ^ 2 end
    h = math.sqrt(ss / (n - 1)) * n ^ (-1 / 5)
    if h == 0 then h = 1 end
  end
  h = common.number("kde", 2, "bandwidth", h)
  if h <= 0 then fail(2, "bad argument #2 to 'kde' (bandwidth must be positive)") end
  local c = 1 / (n * h * math.sqrt(2 * math.pi))
  return function(x)
    local s = 0
    for i = 1, n do
      local z = (x - v[i]) / h
      s = s + math.exp(-0.5 * z * z)
    end
    return s * c
  end, h
end

--- hist_kde(values [, {bins = 30, bandwidth, label, color}]) -> fig
function ml.hist_kde(values, opts)
  opts = options("hist_kde", 2, opts, { bins = true, bandwidth = true, label = true,
    color = true, xlabel = true })
  local v = vector("hist_kde", 1, "values", values)
  common.nonempty("hist_kde", 1, "values", v)
  local ax = target("hist_kde", opts)
  ax:hist(v, { bins = opts.bins or 30, density = true, color = opts.color or "C1", alpha = 0.5,
    label = opts.label })
  local f, h = ml.kde(v, opts.bandwidth)
  local lo, hi = common.minmax(common.keep_finite("hist_kde", { v })[1])
  local xs, ys = {}, {}
  for i = 0, 199 do
    local x = lo - 3 * h + (hi - lo + 6 * h) * i / 199
    xs[#xs + 1], ys[#ys + 1] = x, f(x)
  end
  ax:line(xs, ys, { color = opts.color or "C1", label = string.format("KDE (h = %.3g)", h) })
  return finish(ax, opts, { xlabel = opts.xlabel or "value", ylabel = "density" })
end

-- ------------------------------------------------------------ MCMC traces

--- traces(samples [, {names, bins}]) -> fig: per parameter (column of
-- the n x d samples), the chain against the iteration and its histogram
-- with a KDE.
function ml.traces(samples, opts)
  opts = common.check_opts("traces", 2, opts, { names = true, bins = true, width = true })
  if type(samples) == "table" and not luma.ismatrix(samples) and luma.ismatrix(samples.samples) then
    samples = samples.samples
  end
  local S = as_matrix("traces", 1, "samples", samples)
  local n, d = S:shape()
  if n < 2 then fail(2, "bad argument #1 to 'traces' (needs at least 2 samples)") end
  if d > 16 then fail(2, "bad argument #1 to 'traces' (at most 16 parameters, got %d)", d) end
  local names = opts.names and common.labels("traces", 2, "names", opts.names) or {}
  local fig = figure.new{ rows = d, cols = 2, width = opts.width or 820, height = 170 * d + 20 }
  for j = 1, d do
    local col = S:col(j)
    local name = names[j] and tostring(names[j]) or ("theta" .. j)
    local left = fig:axes(j, 1)
    left:line(col, { color = color.palette(j), width = 0.8 })
    left:set{ ylabel = name, xlabel = j == d and "iteration" or nil }
    ml.hist_kde(col, { ax = fig:axes(j, 2), bins = opts.bins or 30, color = color.palette(j),
      xlabel = name })
  end
  return fig
end

return ml
