--- luma.metrics: regression, classification and clustering metrics, and
-- the scorer registry searches use.
--
-- Targets and predictions are n x 1 matrices; class labels may also be
-- Lua lists of numbers, strings or booleans, categorical columns of a
-- luma.Table or one-column Tables (luma.util.labels), compared by value,
-- so a classifier's predictions score against the column they came from
-- whatever its kind.  Probabilities are n x 1 (binary: the positive
-- class) or n x k (columns in the order of the sorted labels, as
-- est.classes).  Definitions follow scikit-learn's, and so do
-- zero-division conventions (0, with a warning).  Every scorer
-- is greater-is-better: losses are negated ("neg_...").
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local native = require("luma.util.native") -- numbers with "." whatever the locale
local label_util = require("luma.util.labels")
local multilabel = require("luma.multilabel.metrics")

local metrics = {}

local fail = args.fail

-- Whether y is a label matrix (n x L of 0/1 with several rows and
-- columns, or sparse), which the classification metrics score as
-- scikit-learn scores a multilabel-indicator target.  (A 1 x n row stays
-- a row of n labels, as before.)
local function is_label_matrix(y)
  if luma.sparse.issparse(y) then return true end
  return luma.ismatrix(y) and y:rows() > 1 and y:cols() > 1
end

local function column(fname, what, v)
  if not luma.ismatrix(v) then fail(3, "luma.metrics.%s: %s must be a luma.Matrix, got %s", fname, what, type(v)) end
  if v:rows() == 0 then fail(3, "luma.metrics.%s: %s is empty", fname, what) end
  return v
end

local function pair(fname, y, p)
  y, p = column(fname, "y_true", y), column(fname, "y_pred", p)
  if y:rows() ~= p:rows() then
    fail(3, "luma.metrics.%s: y_true has %d rows but y_pred has %d", fname, y:rows(), p:rows())
  end
  return y:flatten(), p:cols() == 1 and p:flatten() or p
end

-- Weighted mean of a column (weights: nil or an n x 1 matrix).
local function wmean(v, w)
  if not w then return v:mean() end
  return v:mul(w):sum() / w:sum()
end

local function weights(fname, opts, n)
  local w = opts and opts.sample_weight
  if w == nil then return nil end
  if not luma.ismatrix(w) or w:rows() * w:cols() ~= n then
    fail(3, "luma.metrics.%s: sample_weight must have %d entries", fname, n)
  end
  return w:flatten()
end

-- ------------------------------------------------------------ regression

function metrics.mean_squared_error(y, p, opts)
  y, p = pair("mean_squared_error", y, p)
  return wmean((y - p):pow(2), weights("mean_squared_error", opts, y:rows()))
end

function metrics.root_mean_squared_error(y, p, opts)
  return math.sqrt(metrics.mean_squared_error(y, p, opts))
end

function metrics.mean_absolute_error(y, p, opts)
  y, p = pair("mean_absolute_error", y, p)
  return wmean((y - p):abs(), weights("mean_absolute_error", opts, y:rows()))
end

function metrics.median_absolute_error(y, p)
  y, p = pair("median_absolute_error", y, p)
  return luma.stats.median((y - p):abs()):get(1, 1)
end

function metrics.max_error(y, p)
  y, p = pair("max_error", y, p)
  return (y - p):abs():max()
end

--- r2_score: 1 - SS_res / SS_tot (1 for a perfect fit of constant y, 0
-- for an imperfect one, as scikit-learn).
function metrics.r2_score(y, p, opts)
  y, p = pair("r2_score", y, p)
  local w = weights("r2_score", opts, y:rows())
  local ym = wmean(y, w)
  local res = w and (y - p):pow(2):mul(w):sum() or (y - p):pow(2):sum()
  local tot = w and (y - ym):pow(2):mul(w):sum() or (y - ym):pow(2):sum()
  if tot == 0 then return res == 0 and 1 or 0 end
  return 1 - res / tot
end

function metrics.explained_variance_score(y, p)
  y, p = pair("explained_variance_score", y, p)
  local vy = y:var()
  if vy == 0 then return (y - p):var() == 0 and 1 or 0 end
  return 1 - (y - p):var() / vy
end

--- mean_gaussian_nll(y, mean, var): the average negative log-likelihood
-- of y under N(mean, var) (var a number or a column of variances).
function metrics.mean_gaussian_nll(y, mean, var)
  y, mean = pair("mean_gaussian_nll", y, mean)
  args.arg(type(var) == "number" or luma.ismatrix(var), 3, "mean_gaussian_nll",
    "number or luma.Matrix", var, 2)
  local v = type(var) == "number" and luma.full(y:rows(), 1, var) or var:flatten()
  if v:le(0):any() then fail(2, "luma.metrics.mean_gaussian_nll: variances must be > 0") end
  return ((y - mean):pow(2):div(v) + v:log() + math.log(2 * math.pi)):mean() * 0.5
end

-- -------------------------------------------------------- classification

-- Labels of any kind (luma.util.labels) read for fname; `what` names them.
local function read_labels(fname, what, v)
  local lv = label_util.read(v, { prefix = "luma.metrics." .. fname, what = what }, 3)
  if lv.n == 0 then fail(3, "luma.metrics.%s: %s is empty", fname, what) end
  return lv
end

-- Labels as numbers for the metrics that only group equal labels
-- (clusterings): a matrix as it is, strings and booleans as codes.
local function numeric_labels(fname, what, v)
  if luma.ismatrix(v) then return v end
  return label_util.numeric(v, { prefix = "luma.metrics." .. fname, what = what }, 3)
end

-- y_true and y_pred as columns that compare by value: numbers as they are,
-- strings and booleans coded into the sorted union of both (values, a
-- list; nil for numbers).
local function label_pair(fname, y, p)
  if luma.ismatrix(y) and luma.ismatrix(p) then
    local a, b = pair(fname, y, p)
    return a, b, nil
  end
  local a, b = read_labels(fname, "y_true", y), read_labels(fname, "y_pred", p)
  if a.n ~= b.n then
    fail(3, "luma.metrics.%s: y_true has %d rows but y_pred has %d", fname, a.n, b.n)
  end
  return label_util.encode_pair(a, b, { prefix = "luma.metrics." .. fname }, 3)
end

-- Sorted distinct labels of one or two columns (a k x 1 matrix).
local function labels_of(y, p)
  if p then return luma.vstack{ y, p }:unique() end
  return y:unique()
end

local index_of = label_util.index_of

-- The labels option of a pair coded by label_pair (values: its labels):
-- the labels named as they are, as a column of their codes, one in
-- neither column given a code no row holds (nil stays nil).
local function coded_labels(fname, values, v)
  if v == nil then return nil end
  if type(v) ~= "table" or getmetatable(v) ~= nil or #v == 0 then
    fail(3, "luma.metrics.%s: labels must be a non-empty list of labels", fname)
  end
  local idx, codes = index_of(values), {}
  for i, label in ipairs(v) do codes[i] = idx[label] or -i end
  return luma.matrix(codes)
end

-- The labels of a confusion matrix as a message lists them.
local function listed(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = label_util.shown(v) end
  return table.concat(out, ", ")
end

-- The labels option: a list of numbers or a matrix, as a k x 1 column
-- (nil stays nil).
local function labels_option(fname, v)
  if v == nil then return nil end
  if luma.ismatrix(v) and v:rows() * v:cols() > 0 then return v:flatten() end
  local ok, m = pcall(luma.matrix, v)
  if type(v) ~= "table" or #v == 0 or not ok then
    fail(3, "luma.metrics.%s: labels must be a non-empty list of numbers or a matrix", fname)
  end
  return m:flatten()
end

-- A label as a report shows it: integer-valued labels as integers (0,
-- not 0.0), others as Lua prints them.
local function label_text(v)
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return string.format("%d", v) end
  return native.tostring(v)
end

-- The (weighted) counts of each pair (y = labels[i], p = labels[j]);
-- samples with a label outside labels are left out.
local function confusion(y, p, labels, w)
  local idx, k = index_of(labels), labels:rows()
  local C = luma.zeros(k, k)
  for i = 1, y:rows() do
    local a, b = idx[y:get(i, 1)], idx[p:get(i, 1)]
    if a and b then C:set(a, b, C:get(a, b) + (w and w:get(i, 1) or 1)) end
  end
  return C
end

-- C divided by its sums along dim (1: columns, 2: rows; nil: all), a sum
-- of 0 leaving its zeros (scikit-learn's nan_to_num).
local function normalized(C, dim)
  local sums = dim and C:sum(dim) or C:sum()
  if not dim then return sums == 0 and C or C / sums end
  return C:div(sums + sums:eq(0))
end

--- confusion_matrix(y, p [, {labels, normalize, sample_weight}]) -> C
-- (k x k; rows true, columns predicted), labels (k x 1, or a list for
-- labels that are not numbers).
function metrics.confusion_matrix(y, p, opts)
  opts = opts or {}
  local values
  y, p, values = label_pair("confusion_matrix", y, p)
  local w = weights("confusion_matrix", opts, y:rows())
  local labels = values and coded_labels("confusion_matrix", values, opts.labels)
    or labels_option("confusion_matrix", opts.labels)
  if labels then
    local idx, found = index_of(labels), false
    for i = 1, y:rows() do
      if idx[y:get(i, 1)] then found = true break end
    end
    if not found then fail(2, "luma.metrics.confusion_matrix: none of the labels is in y_true") end
  else
    labels = labels_of(y, p)
  end
  local C = confusion(y, p, labels, w)
  local norm = opts.normalize
  if norm == "true" then C = normalized(C, 2)
  elseif norm == "pred" then C = normalized(C, 1)
  elseif norm == "all" then C = normalized(C)
  elseif norm ~= nil then
    fail(2, "luma.metrics.confusion_matrix: normalize must be \"true\", \"pred\", \"all\" or "
      .. "nil, got %s", type(norm) == "string" and string.format("%q", norm) or tostring(norm))
  end
  if values then
    -- the labels as given, or the codes' labels
    if opts.labels then return C, { table.unpack(opts.labels) } end
    local shown = {}
    for i = 1, labels:rows() do shown[i] = values[math.tointeger(labels:get(i, 1))] end
    return C, shown
  end
  return C, labels
end

-- The normalize option of accuracy_score and zero_one_loss.
local function normalize_flag(fname, opts)
  local v = opts.normalize
  if v ~= nil and type(v) ~= "boolean" then
    fail(3, "luma.metrics.%s: normalize must be a boolean, got %s", fname, args.type_of(v))
  end
  return v ~= false
end

function metrics.accuracy_score(y, p, opts)
  if is_label_matrix(y) then return multilabel.subset_accuracy(y, p, opts) end
  opts = opts or {}
  y, p = label_pair("accuracy_score", y, p)
  local w = weights("accuracy_score", opts, y:rows())
  local correct = y:eq(p)
  if normalize_flag("accuracy_score", opts) then return wmean(correct, w) end
  return w and correct:mul(w):sum() or correct:sum()
end

function metrics.zero_one_loss(y, p, opts)
  if is_label_matrix(y) then
    local accuracy = multilabel.subset_accuracy(y, p, opts)
    if opts and opts.normalize == false then return y:rows() - accuracy end
    return 1 - accuracy
  end
  opts = opts or {}
  y, p = label_pair("zero_one_loss", y, p)
  local w = weights("zero_one_loss", opts, y:rows())
  local wrong = y:ne(p)
  if normalize_flag("zero_one_loss", opts) then return wmean(wrong, w) end
  return w and wrong:mul(w):sum() or wrong:sum()
end

function metrics.balanced_accuracy_score(y, p, opts)
  opts = opts or {}
  y, p = label_pair("balanced_accuracy_score", y, p)
  local C = confusion(y, p, labels_of(y, p), weights("balanced_accuracy_score", opts, y:rows()))
  local recall, k = 0, 0
  for i = 1, C:rows() do
    local support = C:row(i):sum()
    if support > 0 then -- a label only predicted has no recall (scikit-learn drops it)
      recall = recall + C:get(i, i) / support
      k = k + 1
    end
  end
  local score = recall / k
  if opts.adjusted then score = (score - 1 / k) / (1 - 1 / k) end
  return score
end

local function safe_div(a, b, what)
  if b == 0 then
    warn("luma.metrics: " .. what .. " is ill-defined (no samples); set to 0")
    return 0
  end
  return a / b
end

local AVERAGES = { binary = true, micro = true, macro = true, weighted = true, none = true }

-- The F-beta score of a precision and a recall (0 where both are 0).
local function fbeta(prec, rec, beta)
  local b2 = beta * beta
  if prec + rec == 0 then return 0 end
  return (1 + b2) * prec * rec / (b2 * prec + rec)
end

--- precision_recall_fscore(y, p [, {average = "binary" | "micro" |
-- "macro" | "weighted" | "none", pos_label = 1, beta = 1, labels,
-- sample_weight}]) -> precision, recall, fscore, support (numbers, or
-- k x 1 columns with average = "none").  As scikit-learn's
-- precision_recall_fscore_support: each label's true positives, false
-- positives and false negatives count every sample (also those whose
-- other label is not among labels), and micro averages sum them over
-- labels; labels is ignored with average = "binary".
function metrics.precision_recall_fscore(y, p, opts)
  if is_label_matrix(y) then
    local average = opts and opts.average
    if average == nil or average == "binary" then
      fail(2, "luma.metrics: y_true is a label matrix; average must be micro, macro, weighted, "
        .. "samples or none")
    end
    return multilabel.precision_recall_fscore(y, p, opts)
  end
  opts = opts or {}
  local values
  y, p, values = label_pair("precision_recall_fscore", y, p)
  local w = weights("precision_recall_fscore", opts, y:rows())
  local average = opts.average or "binary"
  if not AVERAGES[average] then
    fail(2, "luma.metrics: average must be binary, micro, macro, weighted or none, got %s",
      tostring(average))
  end
  local beta = opts.beta or 1
  if type(beta) ~= "number" or not (beta >= 0) or beta == math.huge then
    fail(2, "luma.metrics: beta must be a finite number >= 0, got %s", tostring(beta))
  end
  local present = labels_of(y, p)
  local labels
  if average == "binary" then
    local pos = opts.pos_label
    if values then
      -- labels that are not numbers: pos_label named as it is, by default
      -- the larger label ("yes" of "no"/"yes", true of false/true), as the
      -- binary curves take it
      if pos == nil then pos = values[#values] end
      local code = index_of(values)[pos]
      if not code and present:rows() == 2 then
        fail(2, "luma.metrics: pos_label %s is not a label (labels: %s); set pos_label to the "
          .. "positive one", label_util.shown(pos), listed(values))
      end
      pos = code or -1
    elseif pos == nil then
      pos = 1
    end
    if present:rows() > 2 then
      fail(2, "luma.metrics: average = \"binary\" needs two labels, got %d; choose micro, "
        .. "macro or weighted", present:rows())
    end
    -- (a label that never occurs is allowed when there is only one other)
    if not index_of(present)[pos] and present:rows() == 2 then
      fail(2, "luma.metrics: pos_label %s is not a label", tostring(pos))
    end
    labels = luma.matrix{ pos }
  else
    labels = values and coded_labels("precision_recall_fscore", values, opts.labels)
      or labels_option("precision_recall_fscore", opts.labels) or present
  end
  local idx, k = index_of(labels), labels:rows()
  local tp, predicted, actual = {}, {}, {}
  for i = 1, k do tp[i], predicted[i], actual[i] = 0, 0, 0 end
  for i = 1, y:rows() do
    local a, b = idx[y:get(i, 1)], idx[p:get(i, 1)]
    local wi = w and w:get(i, 1) or 1
    if a then actual[a] = actual[a] + wi end
    if b then predicted[b] = predicted[b] + wi end
    if a and a == b then tp[a] = tp[a] + wi end
  end
  if average == "micro" then
    local TP, PP, AP = 0, 0, 0
    for i = 1, k do TP, PP, AP = TP + tp[i], PP + predicted[i], AP + actual[i] end
    local prec, rec = safe_div(TP, PP, "precision"), safe_div(TP, AP, "recall")
    return prec, rec, fbeta(prec, rec, beta), AP
  end
  local P, R, F = luma.zeros(k, 1), luma.zeros(k, 1), luma.zeros(k, 1)
  for i = 1, k do
    local prec = safe_div(tp[i], predicted[i], "precision")
    local rec = safe_div(tp[i], actual[i], "recall")
    P:set(i, 1, prec)
    R:set(i, 1, rec)
    F:set(i, 1, fbeta(prec, rec, beta))
  end
  local S = luma.matrix(actual)
  if average == "binary" then return P:get(1, 1), R:get(1, 1), F:get(1, 1), S:get(1, 1) end
  if average == "none" then return P, R, F, S end
  if average == "macro" then return P:mean(), R:mean(), F:mean(), S:sum() end
  local total = S:sum()
  if total == 0 then
    warn("luma.metrics: weighted averages are ill-defined (no true samples); set to 0")
    return 0, 0, 0, 0
  end
  local share = S / total
  return (P:t() * share):get(1, 1), (R:t() * share):get(1, 1), (F:t() * share):get(1, 1), total
end

function metrics.precision_score(y, p, opts) return (metrics.precision_recall_fscore(y, p, opts)) end
function metrics.recall_score(y, p, opts) return select(2, metrics.precision_recall_fscore(y, p, opts)) end
function metrics.f1_score(y, p, opts) return select(3, metrics.precision_recall_fscore(y, p, opts)) end
function metrics.fbeta_score(y, p, beta, opts)
  args.arg(type(beta) == "number", 3, "fbeta_score", "number", beta, 2)
  local o = {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.beta = beta
  return select(3, metrics.precision_recall_fscore(y, p, o))
end

-- A report's support: a count as an integer, a sum of weights as a
-- number.
local function support_text(s)
  if s == math.floor(s) and math.abs(s) < 2 ^ 53 then return string.format("%d", s) end
  return string.format("%g", s)
end

--- classification_report(y, p [, {labels, target_names, digits = 2,
-- sample_weight, output_dict = false}]) -> scikit-learn's report: a
-- string laid out as its, or with output_dict a table of the same
-- numbers.
function metrics.classification_report(y, p, opts)
  opts = opts or {}
  local values
  y, p, values = label_pair("classification_report", y, p)
  local digits = opts.digits or 2
  if math.type(digits) ~= "integer" or digits < 0 or digits > 17 then
    fail(2, "luma.metrics.classification_report: digits must be an integer in [0, 17], got %s",
      tostring(digits))
  end
  local present = labels_of(y, p)
  local given = values and coded_labels("classification_report", values, opts.labels)
    or labels_option("classification_report", opts.labels)
  local labels = given or present
  local names = opts.target_names
  if names ~= nil then
    if type(names) ~= "table" then
      fail(2, "luma.metrics.classification_report: target_names must be a list of strings")
    end
    if #names ~= labels:rows() then
      fail(2, "luma.metrics.classification_report: %d labels but %d target_names", labels:rows(),
        #names)
    end
  else
    names = {}
    for i = 1, labels:rows() do
      if values then
        names[i] = tostring(given and opts.labels[i] or values[math.tointeger(labels:get(i, 1))])
      else
        names[i] = label_text(labels:get(i, 1))
      end
    end
  end
  local base = { labels = labels, sample_weight = opts.sample_weight }
  local function scores(average)
    local o = { average = average }
    for k, v in pairs(base) do o[k] = v end
    return metrics.precision_recall_fscore(y, p, o)
  end
  local P, R, F, S = scores("none")
  local n = S:sum()
  -- micro averages are the accuracy when every label present is reported
  local micro_is_accuracy = true
  if given then
    local idx = index_of(given)
    for i = 1, present:rows() do
      if not idx[present:get(i, 1)] then micro_is_accuracy = false end
    end
    micro_is_accuracy = micro_is_accuracy and given:rows() == present:rows()
  end
  local rows = {}
  for i = 1, labels:rows() do
    rows[i] = { tostring(names[i]), P:get(i, 1), R:get(i, 1), F:get(i, 1), S:get(i, 1) }
  end
  local averages = {}
  for _, avg in ipairs({ "micro", "macro", "weighted" }) do
    local a, b, c = scores(avg)
    local heading = avg == "micro" and micro_is_accuracy and "accuracy" or avg .. " avg"
    averages[#averages + 1] = { heading, a, b, c, n }
  end
  if opts.output_dict then
    local out = {}
    for _, r in ipairs(rows) do
      out[r[1]] = { precision = r[2], recall = r[3], ["f1-score"] = r[4], support = r[5] }
    end
    for _, r in ipairs(averages) do
      if r[1] == "accuracy" then out.accuracy = r[4]
      else out[r[1]] = { precision = r[2], recall = r[3], ["f1-score"] = r[4], support = r[5] } end
    end
    return out
  end
  -- scikit-learn's layout: names right-aligned to the longest (at least
  -- "weighted avg"), a space, then columns nine wide with a space before
  local width = #"weighted avg"
  for _, name in ipairs(rows) do width = math.max(width, #name[1]) end
  width = math.max(width, digits)
  local name = "%" .. width .. "s "
  local num = " %9." .. digits .. "f"
  local function line(r)
    return string.format(name .. num .. num .. num .. " %9s", r[1], r[2], r[3], r[4],
      support_text(r[5]))
  end
  local out = { string.format(name .. " %9s %9s %9s %9s", "", "precision", "recall",
    "f1-score", "support"), "" }
  for _, r in ipairs(rows) do out[#out + 1] = line(r) end
  out[#out + 1] = ""
  for _, r in ipairs(averages) do
    if r[1] == "accuracy" then
      out[#out + 1] = string.format(name .. " %9s %9s" .. num .. " %9s", r[1], "", "", r[4],
        support_text(r[5]))
    else
      out[#out + 1] = line(r)
    end
  end
  return table.concat(out, "\n") .. "\n"
end

--- matthews_corrcoef(y, p [, {sample_weight}]): the multiclass Matthews
-- correlation.
function metrics.matthews_corrcoef(y, p, opts)
  y, p = label_pair("matthews_corrcoef", y, p)
  local C = confusion(y, p, labels_of(y, p), weights("matthews_corrcoef", opts, y:rows()))
  local t, pr = C:sum(2), C:sum(1):t()
  local n, c = C:sum(), C:trace()
  local cov_ytyp = c * n - (t:t() * pr):get(1, 1)
  local cov_ypyp = n * n - pr:pow(2):sum()
  local cov_ytyt = n * n - t:pow(2):sum()
  if cov_ypyp * cov_ytyt == 0 then return 0 end
  return cov_ytyp / math.sqrt(cov_ytyt * cov_ypyp)
end

--- cohen_kappa_score(y1, y2 [, {labels, sample_weight}]): agreement
-- beyond chance.
function metrics.cohen_kappa_score(y1, y2, opts)
  opts = opts or {}
  local values
  y1, y2, values = label_pair("cohen_kappa_score", y1, y2)
  local labels = values and coded_labels("cohen_kappa_score", values, opts.labels)
    or labels_option("cohen_kappa_score", opts.labels) or labels_of(y1, y2)
  local C = confusion(y1, y2, labels, weights("cohen_kappa_score", opts, y1:rows()))
  local n = C:sum()
  local po = C:trace() / n
  local pe = (C:sum(2):t() * C:sum(1):t()):get(1, 1) / (n * n)
  if pe == 1 then return 1 end
  return (po - pe) / (1 - pe)
end

-- The positive-class probability column and the 0/1 truth for binary
-- scores.
local function binary_scores(fname, y, s, pos)
  local values
  if luma.ismatrix(y) then
    y, s = pair(fname, y, s)
  else
    -- y_true's labels of any kind; pos_label names one as it is
    local lv = read_labels(fname, "y_true", y)
    s = column(fname, "y_pred", s)
    if s:rows() ~= lv.n then
      fail(3, "luma.metrics.%s: y_true has %d rows but y_pred has %d", fname, lv.n, s:rows())
    end
    if s:cols() == 1 then s = s:flatten() end
    if lv.column then y = lv.column:flatten() else y, values = label_util.encode(lv) end
  end
  if s:cols() ~= 1 then fail(3, "luma.metrics.%s: scores must be one column for binary targets", fname) end
  local present = y:unique()
  if present:rows() > 2 then
    fail(3, "luma.metrics.%s: y_true has %d labels; use multi_class = \"ovr\"", fname,
      present:rows())
  end
  if values and pos ~= nil then
    local code = index_of(values)[pos]
    if not code then
      fail(3, "luma.metrics.%s: pos_label %s is not a label of y_true (%s)", fname,
        label_util.shown(pos), listed(values))
    end
    pos = code
  end
  if pos == nil then pos = present:get(present:rows(), 1) end
  return y:eq(pos), s
end

--- roc_curve(y, scores [, {pos_label}]) -> fpr, tpr, thresholds (every
-- distinct threshold, scikit-learn's drop_intermediate = false, with the
-- leading point (0, 0) at threshold +inf).
function metrics.roc_curve(y, s, opts)
  local truth, score = binary_scores("roc_curve", y, s, opts and opts.pos_label)
  local order = score:argsort(1, true)
  local ts, ss = truth:take(order), score:take(order)
  local P, N = ts:sum(), ts:rows() - ts:sum()
  if P == 0 or N == 0 then fail(2, "luma.metrics.roc_curve: needs both classes in y_true") end
  local fpr, tpr, thr = { 0 }, { 0 }, { math.huge }
  local tp, fp = 0, 0
  for i = 1, ss:rows() do
    tp = tp + ts:get(i, 1)
    fp = fp + 1 - ts:get(i, 1)
    if i == ss:rows() or ss:get(i + 1, 1) ~= ss:get(i, 1) then
      fpr[#fpr + 1], tpr[#tpr + 1], thr[#thr + 1] = fp / N, tp / P, ss:get(i, 1)
    end
  end
  return luma.matrix(fpr), luma.matrix(tpr), luma.matrix(thr)
end

-- Trapezoidal area under a curve given as two columns.
local function trapezoid(x, y)
  local area = 0
  for i = 2, x:rows() do area = area + (x:get(i, 1) - x:get(i - 1, 1)) * (y:get(i, 1) + y:get(i - 1, 1)) / 2 end
  return area
end

--- roc_auc_score(y, scores [, {multi_class = "ovr", average = "macro" |
-- "weighted"}]) -> the area under the ROC curve; n x k scores with
-- multi_class = "ovr" average one-vs-rest AUCs.
function metrics.roc_auc_score(y, s, opts)
  opts = opts or {}
  if luma.ismatrix(s) and s:cols() > 1 then
    local yy = numeric_labels("roc_auc_score", "y_true", y)
    yy = column("roc_auc_score", "y_true", yy):flatten()
    local present = yy:unique()
    if present:rows() ~= s:cols() then
      fail(2, "luma.metrics.roc_auc_score: %d score columns for %d labels", s:cols(),
        present:rows())
    end
    local total, wsum = 0, 0
    for k = 1, present:rows() do
      local fpr, tpr = metrics.roc_curve(yy:eq(present:get(k, 1)), s:col(k), { pos_label = 1 })
      local w = opts.average == "weighted" and yy:eq(present:get(k, 1)):sum() or 1
      total, wsum = total + w * trapezoid(fpr, tpr), wsum + w
    end
    return total / wsum
  end
  local fpr, tpr = metrics.roc_curve(y, s, { pos_label = opts.pos_label })
  return trapezoid(fpr, tpr)
end

--- precision_recall_curve(y, scores) -> precision, recall, thresholds
-- (scikit-learn's order: recall decreasing, ending at precision 1, recall 0).
function metrics.precision_recall_curve(y, s, opts)
  local truth, score = binary_scores("precision_recall_curve", y, s, opts and opts.pos_label)
  local order = score:argsort(1, true)
  local ts, ss = truth:take(order), score:take(order)
  local P = ts:sum()
  if P == 0 then fail(2, "luma.metrics.precision_recall_curve: no positive sample in y_true") end
  local prec, rec, thr = {}, {}, {}
  local tp, fp = 0, 0
  for i = 1, ss:rows() do
    tp = tp + ts:get(i, 1)
    fp = fp + 1 - ts:get(i, 1)
    if i == ss:rows() or ss:get(i + 1, 1) ~= ss:get(i, 1) then
      prec[#prec + 1], rec[#rec + 1], thr[#thr + 1] = tp / (tp + fp), tp / P, ss:get(i, 1)
      if tp == P then break end -- scikit-learn stops at full recall
    end
  end
  local n = #prec
  local P_, R_, T_ = {}, {}, {}
  for i = n, 1, -1 do P_[#P_ + 1], R_[#R_ + 1], T_[#T_ + 1] = prec[i], rec[i], thr[i] end
  P_[#P_ + 1], R_[#R_ + 1] = 1, 0
  return luma.matrix(P_), luma.matrix(R_), luma.matrix(T_)
end

--- average_precision_score(y, scores): sum (R_n - R_{n-1}) P_n, the
-- step-wise area without interpolation.
function metrics.average_precision_score(y, s, opts)
  local P, R = metrics.precision_recall_curve(y, s, opts)
  local ap = 0
  for i = 1, P:rows() - 1 do ap = ap + (R:get(i, 1) - R:get(i + 1, 1)) * P:get(i, 1) end
  return ap
end

-- Probabilities as n x k columns in sorted-label order, and y_true's
-- labels (any kind).
local function proba_matrix(fname, y, prob)
  local lv = read_labels(fname, "y_true", y)
  column(fname, "y_prob", prob)
  if prob:rows() ~= lv.n then
    fail(3, "luma.metrics.%s: y_true has %d rows but y_prob has %d", fname, lv.n, prob:rows())
  end
  if prob:lt(0):any() or prob:gt(1):any() then fail(3, "luma.metrics.%s: probabilities must be in [0, 1]", fname) end
  if prob:cols() == 1 then prob = luma.hstack{ prob * -1 + 1, prob } end
  return lv, prob
end

--- log_loss(y, prob [, {eps = 1e-15, labels}]): mean -log of the
-- probability of the true label (clipped to [eps, 1 - eps]).
function metrics.log_loss(y, prob, opts)
  local lv, P = proba_matrix("log_loss", y, prob)
  local given = opts and opts.labels
  local list = given or label_util.distinct(lv)
  if given and lv.column and not luma.ismatrix(given) then list = luma.matrix(given) end
  local k = luma.ismatrix(list) and list:rows() or #list
  if k ~= P:cols() then
    fail(2, "luma.metrics.log_loss: %d probability columns for %d labels", P:cols(), k)
  end
  local eps = (opts and opts.eps) or 1e-15
  local idx = index_of(list)
  local P2 = P:clamp(eps, 1 - eps)
  P2 = P2:div(P2:sum(2))
  local total = 0
  for i = 1, lv.n do
    local label = label_util.value(lv, i)
    local j = idx[label]
    if not j then
      fail(2, "luma.metrics.log_loss: label %s has no probability column",
        label_util.shown(label))
    end
    total = total - math.log(P2:get(i, j))
  end
  return total / lv.n
end

--- brier_score_loss(y, prob [, {pos_label}]): mean (prob - [y = pos])^2.
function metrics.brier_score_loss(y, prob, opts)
  local truth, s = binary_scores("brier_score_loss", y, prob, opts and opts.pos_label)
  return (s - truth):pow(2):mean()
end

--- hinge_loss(y, decision): mean max(0, 1 - y' d) with y' = +-1 (the
-- larger label +1).
function metrics.hinge_loss(y, d)
  local truth, s = binary_scores("hinge_loss", y, d)
  return ((truth * 2 - 1):mul(s) * -1 + 1):maximum(0):mean()
end

--- precision_at_k(y, scores, k): the fraction of relevant items among the
-- k highest scores (notes 001 §K).
function metrics.precision_at_k(y, s, k)
  if is_label_matrix(y) then return multilabel.precision_at_k(y, s, k) end
  local truth, score = binary_scores("precision_at_k", y, s)
  if math.type(k) ~= "integer" or k < 1 or k > truth:rows() then
    fail(2, "luma.metrics.precision_at_k: k must be an integer in [1, %d]", truth:rows())
  end
  return truth:take(score:argsort(1, true):sub(1, k)):mean()
end

-- Multi-label and ranking metrics (luma.multilabel.metrics).
for _, name in ipairs({ "hamming_loss", "label_ranking_average_precision_score",
                        "coverage_error", "label_ranking_loss", "recall_at_k",
                        "average_precision_at_k", "ndcg_at_k", "hit_rate_at_k" }) do
  metrics[name] = multilabel[name]
end

-- ------------------------------------------------------------- clustering

-- Contingency table of two labelings, rows a's labels, columns b's.
local function table_of(a, b)
  a = numeric_labels("clustering", "labels_true", a)
  b = numeric_labels("clustering", "labels_pred", b)
  a, b = pair("clustering", a, b)
  local la, lb = a:unique(), b:unique()
  local ia, ib = index_of(la), index_of(lb)
  local T = luma.zeros(la:rows(), lb:rows())
  for i = 1, a:rows() do
    local r, c = ia[a:get(i, 1)], ib[b:get(i, 1)]
    T:set(r, c, T:get(r, c) + 1)
  end
  return T
end

local function comb2(m) return m:mul(m - 1) / 2 end

--- adjusted_rand_score(labels_true, labels_pred)
function metrics.adjusted_rand_score(a, b)
  local T = table_of(a, b)
  local n = T:sum()
  local sum_ij = comb2(T):sum()
  local sa, sb = comb2(T:sum(2)):sum(), comb2(T:sum(1)):sum()
  local expected = sa * sb / (n * (n - 1) / 2)
  local max = (sa + sb) / 2
  if max == expected then return 1 end
  return (sum_ij - expected) / (max - expected)
end

local function entropy_of_counts(c)
  local p = c:select(c:gt(0)) / c:sum()
  return -(p:mul(p:log())):sum()
end

local function mutual_info(T)
  local n = T:sum()
  local P = T / n
  local pa, pb = P:sum(2), P:sum(1)
  local mi = 0
  for i = 1, T:rows() do
    for j = 1, T:cols() do
      local pij = P:get(i, j)
      if pij > 0 then mi = mi + pij * math.log(pij / (pa:get(i, 1) * pb:get(1, j))) end
    end
  end
  return mi
end

--- normalized_mutual_info_score(a, b): I / mean(H(a), H(b)) (the
-- arithmetic mean, scikit-learn's default).
function metrics.normalized_mutual_info_score(a, b)
  local T = table_of(a, b)
  local ha, hb = entropy_of_counts(T:sum(2)), entropy_of_counts(T:sum(1):t())
  if ha == 0 and hb == 0 then return 1 end
  local denom = (ha + hb) / 2
  return denom == 0 and 0 or math.max(mutual_info(T), 0) / denom
end

--- homogeneity_completeness_v_measure(a, b [, beta = 1]) -> h, c, v.
function metrics.homogeneity_completeness_v_measure(a, b, beta)
  if beta ~= nil and (type(beta) ~= "number" or not (beta >= 0)) then
    fail(2, "bad argument #3 to 'homogeneity_completeness_v_measure' (beta must be a number >= 0, got %s)",
      tostring(beta))
  end
  local T = table_of(a, b)
  local ha, hb = entropy_of_counts(T:sum(2)), entropy_of_counts(T:sum(1):t())
  local mi = mutual_info(T)
  local h = ha == 0 and 1 or mi / ha
  local c = hb == 0 and 1 or mi / hb
  beta = beta or 1
  local v = (h + c == 0) and 0 or (1 + beta) * h * c / (beta * h + c)
  return h, c, v
end

--- silhouette_score(X, labels): the mean silhouette (a sample alone in
-- its cluster scores 0).
function metrics.silhouette_score(X, labels)
  column("silhouette_score", "X", X)
  labels = column("silhouette_score", "labels",
    numeric_labels("silhouette_score", "labels", labels)):flatten()
  if labels:rows() ~= X:rows() then fail(2, "luma.metrics.silhouette_score: X has %d rows but labels has %d", X:rows(), labels:rows()) end
  local ls = labels:unique()
  if ls:rows() < 2 or ls:rows() >= X:rows() then
    fail(2, "luma.metrics.silhouette_score: needs 2 <= clusters < samples, got %d", ls:rows())
  end
  local D = luma.pairwise.distances(X)
  local n, total = X:rows(), 0
  local members = {}
  for k = 1, ls:rows() do members[k] = luma.matrix.find(labels:eq(ls:get(k, 1))) end
  local idx = index_of(ls)
  for i = 1, n do
    local own = idx[labels:get(i, 1)]
    local a, b = 0, math.huge
    for k = 1, ls:rows() do
      local d = D:row(i):t():take(members[k])
      if k == own then
        a = members[k]:rows() > 1 and d:sum() / (members[k]:rows() - 1) or 0
      else
        b = math.min(b, d:mean())
      end
    end
    if members[own]:rows() > 1 then total = total + (b - a) / math.max(a, b) end
  end
  return total / n
end

--- davies_bouldin_score(X, labels): mean over clusters of the worst
-- (s_i + s_j) / d(c_i, c_j); lower is better.
function metrics.davies_bouldin_score(X, labels)
  column("davies_bouldin_score", "X", X)
  labels = column("davies_bouldin_score", "labels",
    numeric_labels("davies_bouldin_score", "labels", labels)):flatten()
  if labels:rows() ~= X:rows() then
    fail(2, "luma.metrics.davies_bouldin_score: X has %d rows but labels has %d", X:rows(),
      labels:rows())
  end
  local ls = labels:unique()
  local k = ls:rows()
  if k < 2 then fail(2, "luma.metrics.davies_bouldin_score: needs at least 2 clusters") end
  local centers, spread = luma.zeros(k, X:cols()), {}
  for c = 1, k do
    local rows = X:select(labels:eq(ls:get(c, 1)), 1)
    centers:row(c):assign(rows:mean(1))
    spread[c] = (rows - centers:row(c)):pow(2):sum(2):sqrt():mean()
  end
  local Dc = luma.pairwise.distances(centers)
  local total = 0
  for i = 1, k do
    local worst = 0
    for j = 1, k do
      if i ~= j and Dc:get(i, j) > 0 then worst = math.max(worst, (spread[i] + spread[j]) / Dc:get(i, j)) end
    end
    total = total + worst
  end
  return total / k
end

-- Graph cuts of a labelling (von Luxburg, A tutorial on spectral
-- clustering, 2007, sec. 5; Shi and Malik 2000): W(A_i, ~A_i), |A_i| and
-- vol(A_i) = sum of the degrees d_j = sum_l w_jl over A_i, per cluster.
local function cut_terms(fname, W, labels)
  column(fname, "W", W)
  if W:rows() ~= W:cols() then fail(3, "luma.metrics.%s: W must be square, got %d x %d", fname, W:rows(), W:cols()) end
  labels = column(fname, "labels", numeric_labels(fname, "labels", labels)):flatten()
  if labels:rows() ~= W:rows() then fail(3, "luma.metrics.%s: W has %d rows but labels has %d", fname, W:rows(), labels:rows()) end
  local ls = labels:unique()
  local H = labels:eq(ls:t()) -- n x k indicators
  local M = H:t() * W * H
  local vol = M:sum(2)
  return vol - M:diag(), H:sum(1):t(), vol
end

--- graph_cut(W, labels): the weight of the edges between clusters,
-- (1/2) sum_i W(A_i, ~A_i).
function metrics.graph_cut(W, labels)
  local out = cut_terms("graph_cut", W, labels)
  return out:sum() / 2
end

--- ratio_cut(W, labels): sum_i W(A_i, ~A_i) / |A_i|.
function metrics.ratio_cut(W, labels)
  local out, size = cut_terms("ratio_cut", W, labels)
  return out:div(size):sum()
end

--- normalized_cut(W, labels): sum_i W(A_i, ~A_i) / vol(A_i).
function metrics.normalized_cut(W, labels)
  local out, _, vol = cut_terms("normalized_cut", W, labels)
  if vol:le(0):any() then fail(2, "luma.metrics.normalized_cut: a cluster has volume 0 (no edges)") end
  return out:div(vol):sum()
end

-- --------------------------------------------------------- model criteria

local function number_args(fname, ...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    args.arg(type(v) == "number", i, fname, "number", v, 3)
  end
end

function metrics.aic(log_likelihood, k)
  number_args("aic", log_likelihood, k)
  return 2 * k - 2 * log_likelihood
end
function metrics.bic(log_likelihood, k, n)
  number_args("bic", log_likelihood, k, n)
  return k * math.log(n) - 2 * log_likelihood
end

-- ----------------------------------------------------------------- scorers

local Scorer = { __name = "luma.metrics.Scorer" }
Scorer.__index = Scorer
local is_scorer = args.is_named(Scorer.__name)
Scorer.__call = function(self, est, X, y)
  if not is_scorer(self) then args.bad_self("__call", Scorer.__name, self, 2) end
  args.arg(type(est) == "table" and type(est.predict) == "function", 1, "scorer",
    "estimator", est, 2)
  local out
  if self.needs == "proba" then
    if type(est.predict_proba) ~= "function" then
      fail(2, "luma.metrics: scorer '%s' needs predict_proba, which %s does not have", self.name, tostring(est))
    end
    out = est:predict_proba(X)
  elseif self.needs == "decision" then
    if type(est.decision_function) == "function" then out = est:decision_function(X)
    elseif type(est.predict_proba) == "function" then
      out = est:predict_proba(X)
      if out:cols() == 2 then out = out:col(2) end
    else
      fail(2, "luma.metrics: scorer '%s' needs decision_function or predict_proba, which %s has neither of", self.name, tostring(est))
    end
  else
    out = est:predict(X)
  end
  local v = self.metric(y, out, self.options)
  return self.greater_is_better and v or -v
end
Scorer.__tostring = function(self)
  if not is_scorer(self) then args.bad_self("__tostring", Scorer.__name, self, 2) end
  return "scorer(" .. self.name .. ")"
end

--- make_scorer(metric, {greater_is_better = true, needs = "predict" |
-- "proba" | "decision", name, options}) -> a callable scorer(est, X, y).
function metrics.make_scorer(metric, opts)
  if type(metric) ~= "function" then fail(2, "luma.metrics.make_scorer: metric must be a function") end
  opts = args.options("make_scorer", 2, opts, nil,
    { greater_is_better = true, needs = true, name = true, options = true }, 2)
  local needs = opts.needs or "predict"
  if needs ~= "predict" and needs ~= "proba" and needs ~= "decision" then
    fail(2, "luma.metrics.make_scorer: needs must be predict, proba or decision")
  end
  return setmetatable({ metric = metric, greater_is_better = opts.greater_is_better ~= false,
    needs = needs, name = opts.name or "custom", options = opts.options }, Scorer)
end

local registry = {}
local function register(name, metric, greater, needs, options)
  registry[name] = metrics.make_scorer(metric, { greater_is_better = greater, needs = needs,
    name = name, options = options })
end
register("r2", metrics.r2_score, true)
register("explained_variance", metrics.explained_variance_score, true)
register("max_error", metrics.max_error, false)
register("neg_mean_squared_error", metrics.mean_squared_error, false)
register("neg_root_mean_squared_error", metrics.root_mean_squared_error, false)
register("neg_mean_absolute_error", metrics.mean_absolute_error, false)
register("neg_median_absolute_error", metrics.median_absolute_error, false)
register("accuracy", metrics.accuracy_score, true)
register("balanced_accuracy", metrics.balanced_accuracy_score, true)
for _, m in ipairs({ "precision", "recall", "f1" }) do
  register(m, metrics[m .. "_score"], true)
  for _, avg in ipairs({ "macro", "micro", "weighted" }) do
    register(m .. "_" .. avg, metrics[m .. "_score"], true, nil, { average = avg })
  end
end
register("roc_auc", metrics.roc_auc_score, true, "decision")
register("roc_auc_ovr", function(y, s) return metrics.roc_auc_score(y, s, { multi_class = "ovr" }) end, true, "proba")
register("neg_log_loss", metrics.log_loss, false, "proba")
register("neg_brier_score", function(y, p) return metrics.brier_score_loss(y, p:cols() == 2 and p:col(2) or p) end, false, "proba")
register("matthews_corrcoef", metrics.matthews_corrcoef, true)
register("adjusted_rand_score", metrics.adjusted_rand_score, true)
register("normalized_mutual_info_score", metrics.normalized_mutual_info_score, true)

--- get_scorer(name) -> the registered scorer.
function metrics.get_scorer(name)
  local s = registry[name]
  if not s then
    fail(2, "luma.metrics: unknown scorer '%s' (known: %s)", tostring(name), table.concat(metrics.scorer_names(), ", "))
  end
  return s
end

function metrics.scorer_names()
  local names = {}
  for k in pairs(registry) do names[#names + 1] = k end
  table.sort(names)
  return names
end

-- ------------------------------------------------------------ help records

local SAMPLE_WEIGHT = { { name = "sample_weight", doc = "per-sample weights, n x 1 (default: "
  .. "all equal)" } }
local AVERAGING = {
  { name = "average", default = "binary", doc = "\"binary\" (pos_label's scores), \"micro\", "
    .. "\"macro\", \"weighted\" (by support), \"samples\" (label matrices: per row) or "
    .. "\"none\" (one per label)" },
  { name = "pos_label", default = 1, doc = "the positive label for average = \"binary\" (for "
    .. "labels that are not numbers: the larger one, e.g. \"yes\" of \"no\"/\"yes\")" },
  { name = "labels", doc = "the labels to score, in order (default: those in y_true and "
    .. "y_pred, sorted); ignored with average = \"binary\"" },
  SAMPLE_WEIGHT[1],
}
local NORMALIZE = { name = "normalize", default = true, doc = "false: the (weighted) count "
  .. "instead of the fraction" }
local POS_LABEL = { { name = "pos_label", doc = "the label of the positive class (default: the "
  .. "larger label of y_true)" } }

luma.doc.set_members(metrics, "luma.metrics", {
  mean_squared_error = { signature = "mean_squared_error(y_true, y_pred [, opts])",
    doc = "The mean of the squared errors. Returns a number.", params = SAMPLE_WEIGHT },
  root_mean_squared_error = { signature = "root_mean_squared_error(y_true, y_pred [, opts])",
    doc = "The square root of mean_squared_error. Returns a number.", params = SAMPLE_WEIGHT },
  mean_absolute_error = { signature = "mean_absolute_error(y_true, y_pred [, opts])",
    doc = "The mean of the absolute errors. Returns a number.", params = SAMPLE_WEIGHT },
  median_absolute_error = { signature = "median_absolute_error(y_true, y_pred)",
    doc = "The median of the absolute errors (robust to outliers). Returns a number." },
  max_error = { signature = "max_error(y_true, y_pred)",
    doc = "The largest absolute error. Returns a number." },
  r2_score = { signature = "r2_score(y_true, y_pred [, opts])",
    doc = "The coefficient of determination 1 - SS_res / SS_tot (for constant y_true: 1 for "
      .. "a perfect fit, else 0, as scikit-learn). Returns a number, 1 at best.",
    params = SAMPLE_WEIGHT },
  explained_variance_score = { signature = "explained_variance_score(y_true, y_pred)",
    doc = "1 - Var(y_true - y_pred) / Var(y_true): R^2 without penalizing a constant offset. "
      .. "Returns a number, 1 at best." },
  mean_gaussian_nll = { signature = "mean_gaussian_nll(y_true, mean, var)",
    doc = "The average negative log-likelihood of y_true under N(mean, var), var a number or "
      .. "a column of variances (probabilistic regressors). Returns a number, lower is "
      .. "better." },
  confusion_matrix = { signature = "confusion_matrix(y_true, y_pred [, opts])",
    doc = "Counts (or weights) of each (true, predicted) label pair; samples with a label "
      .. "outside opts.labels are left out. Labels are matrices or lists of numbers, strings "
      .. "or booleans, categorical columns or one-column Tables, compared by value. Returns C "
      .. "(k x k, rows true labels, columns predicted) and the labels (k x 1 for numbers, a "
      .. "list otherwise).",
    params = { { name = "labels", doc = "the labels, in order (default: all, sorted); at least "
        .. "one must be in y_true" },
      { name = "normalize", doc = "\"true\" (each row sums to 1), \"pred\" (each column) or "
        .. "\"all\"; a row or column of zeros stays zero" },
      SAMPLE_WEIGHT[1] } },
  accuracy_score = { signature = "accuracy_score(y_true, y_pred [, opts])",
    doc = "The fraction of correct predictions; for n x L label matrices (dense or sparse) "
      .. "the subset accuracy, rows whose labels are all right. Returns a number in [0, 1] "
      .. "(the count with normalize = false).",
    params = { NORMALIZE, SAMPLE_WEIGHT[1] } },
  zero_one_loss = { signature = "zero_one_loss(y_true, y_pred [, opts])",
    doc = "The fraction of wrong predictions, 1 - accuracy. Returns a number in [0, 1] (the "
      .. "count with normalize = false).",
    params = { NORMALIZE, SAMPLE_WEIGHT[1] } },
  balanced_accuracy_score = { signature = "balanced_accuracy_score(y_true, y_pred [, opts])",
    doc = "The mean of the per-class recalls (robust to class imbalance); a label only "
      .. "predicted has no recall and is left out. Returns a number in [0, 1].",
    params = { SAMPLE_WEIGHT[1], { name = "adjusted", default = false,
      doc = "rescale so that chance scores 0: (score - 1/k) / (1 - 1/k)" } } },
  precision_recall_fscore = { signature = "precision_recall_fscore(y_true, y_pred [, opts])",
    doc = "Precision TP / (TP + FP), recall TP / (TP + FN), the F-beta score and the "
      .. "support; an undefined ratio is 0 with a warning. For n x L label matrices (dense "
      .. "or sparse) the counts are per label, and average may also be \"samples\" (per-row "
      .. "scores averaged; support nil). Returns precision, recall, fscore, support (numbers, "
      .. "or k x 1 columns with average = \"none\").",
    params = { AVERAGING[1], AVERAGING[2], AVERAGING[3], AVERAGING[4],
      { name = "beta", default = 1, doc = "weight of recall in the F score" } } },
  precision_score = { signature = "precision_score(y_true, y_pred [, opts])",
    doc = "TP / (TP + FP), averaged as opts.average says. Returns a number (a k x 1 column "
      .. "with average = \"none\").", params = AVERAGING },
  recall_score = { signature = "recall_score(y_true, y_pred [, opts])",
    doc = "TP / (TP + FN), averaged as opts.average says. Returns a number (a k x 1 column "
      .. "with average = \"none\").", params = AVERAGING },
  f1_score = { signature = "f1_score(y_true, y_pred [, opts])",
    doc = "The harmonic mean of precision and recall. Returns a number (a k x 1 column with "
      .. "average = \"none\").", params = AVERAGING },
  fbeta_score = { signature = "fbeta_score(y_true, y_pred, beta [, opts])",
    doc = "(1 + beta^2) P R / (beta^2 P + R): recall weighted beta times as much as "
      .. "precision. Returns a number (a k x 1 column with average = \"none\").",
    params = AVERAGING },
  classification_report = { signature = "classification_report(y_true, y_pred [, opts])",
    doc = "Per-label precision, recall, F1 and support with the accuracy (the micro average "
      .. "when opts.labels leaves labels out) and the macro and weighted averages, laid out "
      .. "like scikit-learn's (integer-valued labels print as integers). Returns the report "
      .. "as a string, or with output_dict a table: label name -> {precision, recall, "
      .. "[\"f1-score\"], support}, accuracy -> number, [\"macro avg\"], [\"weighted avg\"].",
    params = { { name = "labels", doc = "the labels to report, in order (default: those in "
        .. "y_true and y_pred, sorted)" },
      { name = "target_names", doc = "a name for each label, in the order of labels" },
      { name = "digits", default = 2, doc = "decimals of the scores" },
      SAMPLE_WEIGHT[1],
      { name = "output_dict", default = false, doc = "return a table instead of text" } } },
  matthews_corrcoef = { signature = "matthews_corrcoef(y_true, y_pred [, opts])",
    doc = "The (multiclass) Matthews correlation coefficient from the confusion matrix. "
      .. "Returns a number in [-1, 1].", params = SAMPLE_WEIGHT },
  cohen_kappa_score = { signature = "cohen_kappa_score(y1, y2 [, opts])",
    doc = "Cohen's kappa: the agreement of two labelings beyond chance. Returns a number, "
      .. "1 for perfect agreement.",
    params = { { name = "labels", doc = "the labels to count (default: all, sorted)" },
      SAMPLE_WEIGHT[1] } },
  roc_curve = { signature = "roc_curve(y_true, scores [, opts])",
    doc = "The ROC curve of binary scores at every distinct threshold. Returns fpr, tpr and "
      .. "thresholds, three columns.", params = POS_LABEL },
  roc_auc_score = { signature = "roc_auc_score(y_true, scores [, opts])",
    doc = "The area under the ROC curve; n x k scores average one-vs-rest AUCs. Returns a "
      .. "number in [0, 1].",
    params = { { name = "multi_class", default = "ovr", doc = "one-vs-rest for n x k scores" },
      { name = "average", default = "macro", doc = "\"macro\" or \"weighted\" (by "
        .. "support) over the one-vs-rest AUCs" }, POS_LABEL[1] } },
  precision_recall_curve = { signature = "precision_recall_curve(y_true, scores [, opts])",
    doc = "Precision and recall of binary scores at every distinct threshold. Returns "
      .. "precision, recall and thresholds, three columns.", params = POS_LABEL },
  average_precision_score = { signature = "average_precision_score(y_true, scores [, opts])",
    doc = "The step-wise area under the precision-recall curve, sum (R_n - R_{n-1}) P_n, "
      .. "without interpolation. Returns a number in [0, 1].", params = POS_LABEL },
  log_loss = { signature = "log_loss(y_true, prob [, opts])",
    doc = "The mean negative log-probability of the true labels (probabilities clipped to "
      .. "[eps, 1 - eps]). Returns a number, lower is better.",
    params = { { name = "eps", default = 1e-15, doc = "clipping of the probabilities" },
      { name = "labels", doc = "the labels of prob's columns (default: those in y_true)" } } },
  brier_score_loss = { signature = "brier_score_loss(y_true, prob [, opts])",
    doc = "The mean of (prob - [y = pos_label])^2 for binary probabilities. Returns a number "
      .. "in [0, 1], lower is better.", params = POS_LABEL },
  hinge_loss = { signature = "hinge_loss(y_true, decision)",
    doc = "The mean of max(0, 1 - y' d) with y' = +-1. Returns a number, lower is better." },
  precision_at_k = { signature = "precision_at_k(y_true, scores, k)",
    doc = "The fraction of relevant items (y_true = 1) among the k highest scores (Manning, "
      .. "Raghavan and Schutze, Introduction to Information Retrieval, sec. 8.4). y_true and "
      .. "scores as n x L matrices (rows users or samples, columns items or labels): the mean "
      .. "over the rows that have a relevant item. Returns a number in [0, 1]." },
  recall_at_k = { signature = "recall_at_k(Y_true, scores, k)",
    doc = "The share of each row's relevant columns (Y_true > 0) found among its k "
      .. "best-scored columns (the smaller column first on ties), averaged over the rows that "
      .. "have a relevant column (n x L matrices). Returns a number in [0, 1]." },
  average_precision_at_k = { signature = "average_precision_at_k(Y_true, scores, k)",
    doc = "MAP@k: each row's sum over its k best-scored columns of precision@i at the "
      .. "relevant ones, divided by min(k, its relevant count), averaged over the rows that "
      .. "have a relevant column. Returns a number in [0, 1]." },
  ndcg_at_k = { signature = "ndcg_at_k(Y_true, scores, k)",
    doc = "Normalized discounted cumulative gain at k (Jarvelin and Kekalainen, ACM TOIS 20, "
      .. "2002): sum over the k best-scored columns of Y_true / log2(position + 1), divided "
      .. "by the same sum in the ideal order; gains may be graded (Y_true >= 0). Averaged "
      .. "over the rows with a relevant column. Returns a number in [0, 1]." },
  hit_rate_at_k = { signature = "hit_rate_at_k(Y_true, scores, k)",
    doc = "The share of rows (among those with a relevant column) whose k best-scored "
      .. "columns hold a relevant one. Returns a number in [0, 1]." },
  hamming_loss = { signature = "hamming_loss(Y_true, Y_pred [, opts])",
    doc = "The fraction of label entries predicted wrongly, for n x L label matrices (dense "
      .. "or sparse). Returns a number in [0, 1].", params = SAMPLE_WEIGHT },
  label_ranking_average_precision_score = {
    signature = "label_ranking_average_precision_score(Y_true, scores [, opts])",
    doc = "For each row, the mean over its labels j of (labels scored at least as high as j) "
      .. "/ (all labels scored at least as high as j); a row with no label or every label "
      .. "scores 1 (scikit-learn's convention). Averaged over rows. Returns a number in "
      .. "(0, 1].", params = SAMPLE_WEIGHT },
  coverage_error = { signature = "coverage_error(Y_true, scores [, opts])",
    doc = "How many of the best-scored labels of each row one must take to cover all its "
      .. "labels (ties take the whole tied group; a row without labels counts 0), averaged. "
      .. "Returns a number in [0, L].", params = SAMPLE_WEIGHT },
  label_ranking_loss = { signature = "label_ranking_loss(Y_true, scores [, opts])",
    doc = "The fraction of (label, non-label) pairs of each row ordered wrongly (the "
      .. "non-label scored at least as high), averaged over rows; rows with no label or "
      .. "every label count 0. Returns a number in [0, 1].", params = SAMPLE_WEIGHT },
  adjusted_rand_score = { signature = "adjusted_rand_score(labels_true, labels_pred)",
    doc = "The Rand index of two clusterings adjusted for chance (Hubert and Arabie, 1985). "
      .. "Returns a number, 1 for identical clusterings and about 0 for random ones." },
  normalized_mutual_info_score = { signature = "normalized_mutual_info_score(a, b)",
    doc = "Mutual information of two labelings over the arithmetic mean of their "
      .. "entropies (scikit-learn's default). Returns a number in [0, 1]." },
  homogeneity_completeness_v_measure = {
    signature = "homogeneity_completeness_v_measure(labels_true, labels_pred [, beta = 1])",
    doc = "Homogeneity (each cluster holds one class), completeness (each class in one "
      .. "cluster) and their weighted harmonic mean (Rosenberg and Hirschberg, 2007). "
      .. "Returns h, c, v: three numbers in [0, 1]." },
  silhouette_score = { signature = "silhouette_score(X, labels)",
    doc = "The mean silhouette (b - a) / max(a, b) over the rows of X with Euclidean "
      .. "distances (Rousseeuw, 1987); a sample alone in its cluster scores 0. Returns a "
      .. "number in [-1, 1]." },
  davies_bouldin_score = { signature = "davies_bouldin_score(X, labels)",
    doc = "The mean over clusters of the worst ratio of within-cluster scatter to centroid "
      .. "separation (Davies and Bouldin, 1979). Returns a number >= 0, lower is better." },
  graph_cut = { signature = "graph_cut(W, labels)",
    doc = "The total weight of the edges between different clusters of the graph W (n x n "
      .. "symmetric), (1/2) sum_i W(A_i, ~A_i) (von Luxburg 2007, sec. 5). Returns a number." },
  ratio_cut = { signature = "ratio_cut(W, labels)",
    doc = "RatioCut = sum_i W(A_i, ~A_i) / |A_i| (Hagen and Kahng 1992; von Luxburg 2007, "
      .. "sec. 5), what unnormalized spectral clustering relaxes. Returns a number." },
  normalized_cut = { signature = "normalized_cut(W, labels)",
    doc = "Ncut = sum_i W(A_i, ~A_i) / vol(A_i), vol(A) the sum of the degrees in A (Shi and "
      .. "Malik 2000), what normalized spectral clustering relaxes. Returns a number." },
  aic = { signature = "aic(log_likelihood, k)",
    doc = "Akaike's information criterion 2 k - 2 log L for k parameters. Returns a number, "
      .. "lower is better." },
  bic = { signature = "bic(log_likelihood, k, n)",
    doc = "The Bayesian information criterion k log n - 2 log L for k parameters and n "
      .. "samples (Schwarz, 1978). Returns a number, lower is better." },
  make_scorer = { signature = "make_scorer(metric [, opts])",
    doc = "Wraps metric(y_true, output [, options]) as a scorer(est, X, y) that searches "
      .. "and cross-validation accept. Returns the scorer (greater is better: losses are "
      .. "negated).",
    params = { { name = "greater_is_better", default = true, doc = "false for losses" },
      { name = "needs", default = "predict", doc = "what the metric takes: \"predict\", "
        .. "\"proba\" or \"decision\"" },
      { name = "name", default = "custom", doc = "shown when the scorer prints" },
      { name = "options", doc = "a table passed to metric as its third argument" } } },
  get_scorer = { signature = "get_scorer(name)",
    doc = "Looks a registered scorer up by name (\"r2\", \"accuracy\", "
      .. "\"neg_mean_squared_error\", ...; see scorer_names). Returns the scorer." },
  scorer_names = { signature = "scorer_names()",
    doc = "The names get_scorer knows. Returns a sorted table of strings." },
})

-- The metrics share checking helpers and call one another, so an error's
-- depth varies: each public metric raises its errors again at its
-- caller's line, under its own name ("luma.metrics.f1_score: y_true must
-- be ...", not confusion_matrix's), after a check of its options table.
args.guard_functions(metrics, "luma.metrics",
  { make_scorer = true, get_scorer = true, scorer_names = true })

luma.doc.set(metrics, { name = "luma.metrics",
  doc = "Regression, classification and clustering metrics, AIC/BIC, and the scorer registry "
    .. "(get_scorer, scorer_names, make_scorer); every scorer is greater-is-better." })

return metrics
