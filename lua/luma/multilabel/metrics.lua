--- luma.multilabel.metrics: scores of label matrices and of rankings.
--
-- Rows are samples (users), columns labels (items).  Y holds the true
-- labels (0/1; the @k ranking metrics also take graded relevance > 1 for
-- NDCG), P predicted 0/1 labels, S scores (greater = ranked first).  The
-- definitions are scikit-learn 1.2's (hamming_loss, subset accuracy,
-- precision/recall/F with average = "samples", label ranking average
-- precision, coverage error, label ranking loss; Tsoumakas, Katakis &
-- Vlahavas, "Mining multi-label data", 2010) and the usual top-k ranking
-- metrics of recommender systems (precision@k, recall@k, MAP@k, NDCG@k of
-- Järvelin & Kekäläinen 2002, hit rate).  Notes 001 §K prefer precision
-- because recall needs every positive; both are here.  luma.metrics
-- exports every function; this module is where they live.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local neighbors_native = require("luma.neighbors.native") -- per-row top-k selection

local M = {}

local fail = args.fail

-- A label matrix (dense, or luma.sparse converted) as a dense matrix.
local function dense(fname, what, v, level)
  if luma.sparse.issparse(v) then return v:todense() end
  if not luma.ismatrix(v) then
    fail(level + 1, "luma.metrics.%s: %s must be a luma.Matrix or a sparse matrix, got %s",
      fname, what, args.type_of(v))
  end
  return v
end

-- Y (0/1) and a second matrix of the same shape; level as fail's.
local function label_pair(fname, Y, P, what, level)
  Y, P = dense(fname, "y_true", Y, level + 1), dense(fname, what, P, level + 1)
  local r, c = Y:shape()
  if r == 0 or c == 0 then fail(level + 1, "luma.metrics.%s: y_true is empty", fname) end
  if P:rows() ~= r or P:cols() ~= c then
    fail(level + 1, "luma.metrics.%s: y_true is %d x %d but %s is %d x %d", fname, r, c, what,
      P:rows(), P:cols())
  end
  return Y, P
end

local function check_binary(fname, what, Y, level)
  if not (Y:eq(0) + Y:eq(1)):all() then
    fail(level + 1, "luma.metrics.%s: %s must hold 0 or 1 only (a label indicator matrix)",
      fname, what)
  end
end

-- Per-row weights (nil: equal), as an n x 1 column.
local function row_weights(fname, opts, n, level)
  local w = opts and opts.sample_weight
  if w == nil then return nil end
  if not luma.ismatrix(w) or w:rows() * w:cols() ~= n then
    fail(level + 1, "luma.metrics.%s: sample_weight must have %d entries", fname, n)
  end
  return w:reshape(n, 1)
end

local function wmean(v, w)
  if not w then return v:mean() end
  return v:mul(w):sum() / w:sum()
end

--- hamming_loss(Y, P [, {sample_weight}]): the fraction of label entries
-- predicted wrongly.
function M.hamming_loss(Y, P, opts)
  Y, P = label_pair("hamming_loss", Y, P, "y_pred", 2)
  local w = row_weights("hamming_loss", opts, Y:rows(), 2)
  return wmean(Y:ne(P):mean(2), w)
end

--- subset_accuracy(Y, P [, {sample_weight, normalize = true}]): the
-- fraction of rows predicted exactly (accuracy_score of label matrices).
function M.subset_accuracy(Y, P, opts)
  Y, P = label_pair("accuracy_score", Y, P, "y_pred", 2)
  local w = row_weights("accuracy_score", opts, Y:rows(), 2)
  local exact = Y:ne(P):sum(2):eq(0)
  if opts and opts.normalize == false then return w and exact:mul(w):sum() or exact:sum() end
  return wmean(exact, w)
end

-- a / b where b > 0, else 0 and a warning naming what is ill-defined
-- (scikit-learn's zero_division = "warn"), elementwise over columns.
local function ratio(a, b, what)
  local out = luma.zeros(a:shape())
  local ill = false
  for i = 1, a:rows() do
    local d = b:get(i, 1)
    if d > 0 then out:set(i, 1, a:get(i, 1) / d) else ill = true end
  end
  if ill then warn("luma.metrics: " .. what .. " is ill-defined for some labels or rows; set to 0") end
  return out
end

local function fbeta(p, r, beta)
  local b2, out = beta * beta, luma.zeros(p:shape())
  for i = 1, p:rows() do
    local pi, ri = p:get(i, 1), r:get(i, 1)
    if pi + ri > 0 then out:set(i, 1, (1 + b2) * pi * ri / (b2 * pi + ri)) end
  end
  return out
end

local ML_AVERAGES = { micro = true, macro = true, weighted = true, samples = true, none = true }

--- precision_recall_fscore(Y, P [, {average = "micro" | "macro" |
-- "weighted" | "samples" | "none", beta = 1, sample_weight}]): the
-- multi-label form of luma.metrics.precision_recall_fscore.  Returns
-- precision, recall, fscore and support (numbers, or L x 1 columns with
-- average = "none"; support is nil for "samples", as scikit-learn's).
function M.precision_recall_fscore(Y, P, opts)
  opts = opts or {}
  local fname = "precision_recall_fscore"
  Y, P = label_pair(fname, Y, P, "y_pred", 2)
  check_binary(fname, "y_true", Y, 2)
  check_binary(fname, "y_pred", P, 2)
  local average = opts.average or "micro"
  if not ML_AVERAGES[average] then
    fail(2, "luma.metrics.%s: average must be micro, macro, weighted, samples or none for "
      .. "label matrices, got %s", fname, tostring(average))
  end
  local beta = opts.beta or 1
  if type(beta) ~= "number" or not (beta >= 0) or beta == math.huge then
    fail(2, "luma.metrics.%s: beta must be a finite number >= 0, got %s", fname, tostring(beta))
  end
  local w = row_weights(fname, opts, Y:rows(), 2)
  local both = Y:mul(P)
  if average == "samples" then
    local p = ratio(both:sum(2), P:sum(2), "precision")
    local r = ratio(both:sum(2), Y:sum(2), "recall")
    return wmean(p, w), wmean(r, w), wmean(fbeta(p, r, beta), w), nil
  end
  -- per-label counts, weighted by row
  local Yw, Pw, Bw = Y, P, both
  if w then Yw, Pw, Bw = Y:mul(w), P:mul(w), both:mul(w) end
  local tp, predicted, support = Bw:sum(1):t(), Pw:sum(1):t(), Yw:sum(1):t()
  if average == "micro" then
    tp, predicted, support = luma.matrix{ { tp:sum() } }, luma.matrix{ { predicted:sum() } },
      luma.matrix{ { support:sum() } }
  end
  local p = ratio(tp, predicted, "precision")
  local r = ratio(tp, support, "recall")
  local f = fbeta(p, r, beta)
  if average == "none" then return p, r, f, support end
  if average == "micro" then return p:get(1, 1), r:get(1, 1), f:get(1, 1), support:get(1, 1) end
  if average == "weighted" then
    local total = support:sum()
    if total == 0 then
      warn("luma.metrics: weighted averages are ill-defined with no true labels; set to 0")
      return 0, 0, 0, 0
    end
    return p:mul(support):sum() / total, r:mul(support):sum() / total,
      f:mul(support):sum() / total, total
  end
  return p:mean(), r:mean(), f:mean(), support:sum()
end

-- The rows of Y with at least one label, and whether every row has.
local function rows_with_labels(Y)
  return Y:gt(0):sum(2):gt(0)
end

--- label_ranking_average_precision_score(Y, S [, {sample_weight}]): for
-- each row, the mean over its labels j of (labels ranked at or above j) /
-- (all labels ranked at or above j); rows with no label or every label
-- score 1 (scikit-learn's convention).
function M.label_ranking_average_precision_score(Y, S, opts)
  local fname = "label_ranking_average_precision_score"
  Y, S = label_pair(fname, Y, S, "y_score", 2)
  check_binary(fname, "y_true", Y, 2)
  local w = row_weights(fname, opts, Y:rows(), 2)
  local n, L = Y:shape()
  local out = luma.zeros(n, 1)
  for i = 1, n do
    local count = Y:row(i):sum()
    if count == 0 or count == L then
      out:set(i, 1, 1)
    else
      local s, y = S:row(i), Y:row(i)
      local total = 0
      for j = 1, L do
        if y:get(1, j) == 1 then
          local at_or_above = s:ge(s:get(1, j))
          total = total + at_or_above:mul(y):sum() / at_or_above:sum()
        end
      end
      out:set(i, 1, total / count)
    end
  end
  return wmean(out, w)
end

--- coverage_error(Y, S [, {sample_weight}]): how far down each row's
-- ranking one must go to cover all its labels (ties count the whole tied
-- group), averaged; a row with no label counts 0.
function M.coverage_error(Y, S, opts)
  local fname = "coverage_error"
  Y, S = label_pair(fname, Y, S, "y_score", 2)
  check_binary(fname, "y_true", Y, 2)
  local w = row_weights(fname, opts, Y:rows(), 2)
  local n = Y:rows()
  local out = luma.zeros(n, 1)
  for i = 1, n do
    local y = Y:row(i)
    if y:sum() > 0 then
      local s = S:row(i)
      local lowest = s:select(y:t():gt(0), 2):min()
      out:set(i, 1, s:ge(lowest):sum())
    end
  end
  return wmean(out, w)
end

--- label_ranking_loss(Y, S [, {sample_weight}]): the fraction of (label,
-- non-label) pairs of each row that are ordered wrongly (the non-label
-- scored at least as high), averaged; rows with no label or every label
-- score 0.
function M.label_ranking_loss(Y, S, opts)
  local fname = "label_ranking_loss"
  Y, S = label_pair(fname, Y, S, "y_score", 2)
  check_binary(fname, "y_true", Y, 2)
  local w = row_weights(fname, opts, Y:rows(), 2)
  local n, L = Y:shape()
  local out = luma.zeros(n, 1)
  for i = 1, n do
    local y = Y:row(i)
    local count = y:sum()
    if count > 0 and count < L then
      local s = S:row(i)
      local negatives = -y + 1
      local wrong = 0
      for j = 1, L do
        if y:get(1, j) == 1 then wrong = wrong + s:ge(s:get(1, j)):mul(negatives):sum() end
      end
      out:set(i, 1, wrong / (count * (L - count)))
    end
  end
  return wmean(out, w)
end

-- ------------------------------------------------------------ top-k ranking

-- Each row's k best-scored columns (1-based, n x k), the smaller column
-- first on ties; Y and S checked, k in [1, L].
local function top_k(fname, Y, S, k, level)
  Y, S = label_pair(fname, Y, S, "scores", level + 1)
  if Y:lt(0):any() then fail(level + 1, "luma.metrics.%s: y_true must be >= 0", fname) end
  local L = Y:cols()
  if math.type(k) ~= "integer" or k < 1 or k > L then
    fail(level + 1, "luma.metrics.%s: k must be an integer in [1, %d], got %s", fname, L,
      tostring(k))
  end
  if S:isnan():any() then fail(level + 1, "luma.metrics.%s: scores contain NaN", fname) end
  local _, idx = neighbors_native.select_rows(S * -1, k)
  return Y, idx
end

-- The mean of per-row values f(relevance of the top k (a list), the
-- row's relevance (1 x L)) over the rows holding at least one relevant
-- column; rows without any are left out (their recall, precision and
-- gains are undefined), and an error when no row has one.
local function over_users(fname, Y, S, k, per_row)
  local idx
  Y, idx = top_k(fname, Y, S, k, 3)
  local total, users = 0, 0
  local has = rows_with_labels(Y)
  for i = 1, Y:rows() do
    if has:get(i, 1) == 1 then
      local rel = {}
      for j = 1, k do rel[j] = Y:get(i, idx:get(i, j)) end
      total = total + per_row(rel, Y:row(i))
      users = users + 1
    end
  end
  if users == 0 then
    fail(3, "luma.metrics.%s: no row of y_true has a relevant item", fname)
  end
  return total / users
end

local function hits(rel)
  local h = 0
  for _, r in ipairs(rel) do if r > 0 then h = h + 1 end end
  return h
end

--- precision_at_k(Y, S, k): the mean over rows (with a relevant item) of
-- the share of the k best-scored columns that are relevant.
function M.precision_at_k(Y, S, k)
  return over_users("precision_at_k", Y, S, k, function(rel) return hits(rel) / k end)
end

--- recall_at_k(Y, S, k): the mean over rows of the share of the row's
-- relevant columns found among its k best-scored.
function M.recall_at_k(Y, S, k)
  return over_users("recall_at_k", Y, S, k, function(rel, y)
    return hits(rel) / y:gt(0):sum()
  end)
end

--- hit_rate_at_k(Y, S, k): the share of rows with a relevant column among
-- their k best-scored.
function M.hit_rate_at_k(Y, S, k)
  return over_users("hit_rate_at_k", Y, S, k, function(rel)
    return hits(rel) > 0 and 1 or 0
  end)
end

--- average_precision_at_k(Y, S, k): MAP@k, the mean over rows of
-- sum_{i <= k} precision@i * rel_i / min(k, relevant count).
function M.average_precision_at_k(Y, S, k)
  return over_users("average_precision_at_k", Y, S, k, function(rel, y)
    local found, sum = 0, 0
    for i, r in ipairs(rel) do
      if r > 0 then
        found = found + 1
        sum = sum + found / i
      end
    end
    return sum / math.min(k, y:gt(0):sum())
  end)
end

--- ndcg_at_k(Y, S, k): the mean over rows of DCG@k / ideal DCG@k with
-- gains Y (0/1 or graded) and discount 1 / log2(position + 1).
function M.ndcg_at_k(Y, S, k)
  return over_users("ndcg_at_k", Y, S, k, function(rel, y)
    local dcg = 0
    for i, r in ipairs(rel) do dcg = dcg + r / math.log(i + 1, 2) end
    local ideal = y:sort(2, true)
    local best = 0
    for i = 1, k do best = best + ideal:get(1, i) / math.log(i + 1, 2) end
    return dcg / best
  end)
end

return M
