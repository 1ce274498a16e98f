--- luma.naive_bayes: naive Bayes classifiers (notes 002 §1.2 C8–C9,
-- notes 001 §E case I, notes 000's classifier table).
--
-- The likelihood factorises over the features, p(x | y) = prod_j
-- p_j(x_j | y) -- the notes print prod_{i=1}^d p_j(x_i | y), erratum X5
-- of notes 002: the index is j throughout.  The notes leave the
-- per-feature family open ("not specified"); like scikit-learn, each
-- family is its own class: GaussianNB (real features), MultinomialNB
-- (counts, the notes' spam filter on word counts) and BernoulliNB
-- (presence/absence).  Scores are joint log-likelihoods; probabilities
-- come from the log-sum-exp normalisation, so no product underflows.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")
local classstats = require("luma.generative.native")
local G = require("luma.generative.common")

local fail = G.fail

local naive_bayes = {}

local LOG_2PI = math.log(2 * math.pi)

-- The notes' spam example (notes 002 §1.2 C9) in miniature: word counts
-- of a four-word vocabulary ("free", "money", "meeting", "report") for
-- six e-mails, spam = +1 and ham = -1.
local function spam_data()
  local X = luma.matrix{
    { 3, 2, 0, 0 }, { 2, 3, 0, 1 }, { 4, 1, 1, 0 },
    { 0, 0, 2, 3 }, { 1, 0, 3, 2 }, { 0, 1, 2, 2 } }
  local y = luma.matrix{ 1, 1, 1, -1, -1, -1 }
  return X, y
end
naive_bayes.spam_data = spam_data

-- log p(class): given priors, the class frequencies or uniform.
local function class_log_prior(name, p, counts)
  local k = counts:rows()
  if p.class_prior ~= nil then
    return G.priors(name, "class_prior", p.class_prior, k):log()
  elseif p.fit_prior then
    return (counts / counts:sum()):log()
  end
  return luma.full(k, 1, -math.log(k))
end

-- Common predict methods from a jll(self, X, method) function.
local function predict_methods(jll, spec)
  spec.predict = function(self, X)
    return G.decide(jll(self, X, "predict"), self.classes)
  end
  spec.predict_log_proba = function(self, X)
    return G.log_proba(jll(self, X, "predict_log_proba"))
  end
  spec.predict_proba = function(self, X)
    return G.log_proba(jll(self, X, "predict_proba")):exp()
  end
  return spec
end

-- ----------------------------------------------------------- GaussianNB

local GNB_NAME = "GaussianNB"

-- Sets theta, var, class_count, class_prior from per-class statistics.
local function gnb_finish(self, counts)
  local p = self.params
  self.class_count = counts
  if p.priors ~= nil then
    self.class_prior = G.priors(GNB_NAME, "priors", p.priors, counts:rows())
  else
    self.class_prior = counts / counts:sum()
  end
end

-- epsilon = var_smoothing * the largest variance of a feature over all
-- of X (scikit-learn's rule), from the class statistics by the law of
-- total variance: Var = sum_k (n_k/n) (var_k + (mu_k - mu)^2).
local function largest_variance(counts, means, vars)
  local n = counts:sum()
  local centers = means - (counts:t() * means) / n
  return ((counts:t() * (vars + centers:mul(centers))) / n):max()
end

local function gnb_jll(self, X, method)
  G.check_finite(GNB_NAME, method, X)
  -- -1/2 sum_j (x_j - theta_kj)^2 / var_kj as three products (BLAS):
  -- x^2 . (1/var) - 2 x . (theta/var) + sum theta^2/var
  local precision = self.var:pow(-1)
  local weighted = self.theta:mul(precision)
  local const = weighted:mul(self.theta):sum(2) + self.var:log():sum(2) + self.var:cols() * LOG_2PI
  local quad = X:mul(X) * precision:t() - X * (weighted * 2):t() + const:t()
  return quad * -0.5 + self.class_prior:log():t()
end

naive_bayes.GaussianNB = estimator.class(predict_methods(gnb_jll, {
  name = "luma.naive_bayes.GaussianNB",
  method_docs = {
    partial_fit = { signature = "est:partial_fit(X, y [, classes = nil]) -> est",
      doc = "Updates counts, means and variances exactly with one more batch; the first call "
        .. "(or the first after fit) needs classes, every label that will ever appear "
        .. "(Chan, Golub and LeVeque's pairwise update)." },
  },
  kind = "classifier",
  doc = "Gaussian naive Bayes: per class and feature a normal distribution with the class "
    .. "mean and the biased (1/n_k) variance plus var_smoothing times the largest feature "
    .. "variance (scikit-learn's rule, which keeps constant features usable). partial_fit(X, "
    .. "y, classes) updates the fit with a batch (Chan et al.'s pooled variance). Fitted: "
    .. "classes, class_count, class_prior, theta (k x d means), var (k x d), epsilon.",
  params = {
    { name = "priors", type = "matrix|table",
      doc = "class priors in the order of the sorted classes (default: class frequencies)" },
    { name = "var_smoothing", type = "number", default = 1e-9, min = 0,
      doc = "fraction of the largest feature variance added to every variance" },
  },
  example = function()
    local X, y = require("luma.generative.discriminant").example_data()
    return naive_bayes.GaussianNB{}, X, y
  end,
  fit = function(self, X, y)
    local codes, classes = G.encode(GNB_NAME, y)
    local counts, means, vars = G.moments(GNB_NAME, X, codes, classes:rows(), true)
    self.classes = classes
    self.epsilon = self.params.var_smoothing * largest_variance(counts, means, vars)
    self.theta, self.var = means, vars + self.epsilon
    gnb_finish(self, counts)
  end,
  -- est:partial_fit(X, y [, classes]) -> est: the first call (or the
  -- first after fit) needs classes, every label that will ever appear;
  -- later batches update counts, means and variances exactly.
  partial_fit = function(self, X, y, classes)
    if not luma.ismatrix(X) or not luma.ismatrix(y) then
      fail("bad argument #1 to 'partial_fit' (%s: X and y must be luma.Matrix values)", GNB_NAME)
    end
    if X:rows() ~= y:rows() then
      fail("bad argument #2 to 'partial_fit' (X has %d rows but y has %d)", X:rows(), y:rows())
    end
    local first = not self:is_fitted()
    if first then
      if not luma.ismatrix(classes) then
        fail("bad argument #3 to 'partial_fit' (%s: the first call needs classes, a matrix "
          .. "of every label)", GNB_NAME)
      end
      self.classes = classes:flatten():unique()
      local k, d = self.classes:rows(), X:cols()
      self.theta, self.var, self.class_count = luma.zeros(k, d), luma.zeros(k, d), luma.zeros(k, 1)
    elseif X:cols() ~= self.n_features_in then
      fail("bad argument #1 to 'partial_fit' (X has %d columns but %s was fitted on %d)",
        X:cols(), GNB_NAME, self.n_features_in)
    end
    local k = self.classes:rows()
    local codes = G.codes(GNB_NAME, "partial_fit", y:col(1), self.classes)
    local counts, means, vars = G.moments(GNB_NAME, X, codes, k, true)
    if first then
      self.epsilon = self.params.var_smoothing * X:var(1):max()
    end
    -- pooled update (scikit-learn's _update_mean_variance), all classes at once
    local present = counts:gt(0)
    means = luma.matrix.where(present, means, 0)
    vars = luma.matrix.where(present, vars, 0)
    local n_past = self.class_count
    local n_total = n_past + counts
    local safe_total = luma.matrix.where(n_total:gt(0), n_total, 1)
    local old_var = self.var - self.epsilon
    local delta = self.theta - means
    local ssd = old_var:mul(n_past) + vars:mul(counts) + delta:mul(delta):mul(n_past:mul(counts):div(safe_total))
    self.theta = (self.theta:mul(n_past) + means:mul(counts)):div(safe_total)
    self.var = ssd:div(safe_total) + self.epsilon
    gnb_finish(self, n_total)
    rawset(self, "n_features_in", X:cols())
    rawset(self, "__fitted", true)
    return self
  end,
}))

-- -------------------------------------------- Multinomial and Bernoulli

-- scikit-learn 1.2 raises alpha below 1e-10 to 1e-10 (force_alpha =
-- false) so no log probability is -inf; so do we.
local ALPHA_FLOOR = 1e-10

local discrete_params = {
  { name = "alpha", type = "number", default = 1, min = 0,
    doc = "additive (Laplace/Lidstone) smoothing; values below 1e-10 count as 1e-10" },
  { name = "fit_prior", type = "boolean", default = true,
    doc = "learn class priors from the class frequencies (false: uniform)" },
  { name = "class_prior", type = "matrix|table",
    doc = "class priors in the order of the sorted classes (overrides fit_prior)" },
}

local function discrete_fit(self, name, X, y)
  G.check_finite(name, "fit", X)
  local codes, classes = G.encode(name, y)
  local counts, feature_count = G.class_sums(X, codes, classes:rows())
  self.classes, self.class_count, self.feature_count = classes, counts, feature_count
  self.class_log_prior = class_log_prior(name, self.params, counts)
  return math.max(self.params.alpha, ALPHA_FLOOR)
end

local MNB_NAME = "MultinomialNB"

local function check_counts(X, method)
  if luma.sparse.issparse(X) then
    if X:min() < 0 then
      local I, J, V = X:coo()
      local k = math.tointeger(luma.matrix.find(V:lt(0)):get(1, 1))
      fail("bad argument #1 to '%s' (%s: counts must be non-negative, X[%d][%d] = %s)", method,
        MNB_NAME, math.tointeger(I:get(k, 1)), math.tointeger(J:get(k, 1)),
        G.number_text(V:get(k, 1)))
    end
    return
  end
  if X:lt(0):any() then
    local i, j = X:argmin()
    fail("bad argument #1 to '%s' (%s: counts must be non-negative, X[%d][%d] = %s)", method,
      MNB_NAME, i, j, G.number_text(X:get(i, j)))
  end
end

local function mnb_jll(self, X, method)
  G.check_finite(MNB_NAME, method, X)
  check_counts(X, method)
  return X * self.feature_log_prob:t() + self.class_log_prior:t()
end

naive_bayes.MultinomialNB = estimator.class(predict_methods(mnb_jll, {
  name = "luma.naive_bayes.MultinomialNB",
  kind = "classifier",
  doc = "Multinomial naive Bayes for counts (Manning, Raghavan and Schutze, "
    .. "Introduction to Information Retrieval, sec. 13.2): log p(x | k) = sum_j x_j log theta_kj + const with theta_kj = (N_kj + alpha) "
    .. "/ (N_k + alpha d), N_kj the total count of feature j in class k. Fitted: classes, "
    .. "class_count, feature_count, class_log_prior, feature_log_prob.",
  params = discrete_params,
  sparse = true,
  example = function()
    local X, y = spam_data()
    return naive_bayes.MultinomialNB{}, X, y
  end,
  fit = function(self, X, y)
    check_counts(X, "fit")
    local alpha = discrete_fit(self, MNB_NAME, X, y)
    local smoothed = self.feature_count + alpha
    self.feature_log_prob = smoothed:log() - smoothed:sum(2):log()
  end,
}))

local BNB_NAME = "BernoulliNB"

local function binarized(self, X)
  local threshold = self.params.binarize
  if threshold == false then return X end
  if threshold == true then fail("%s: binarize must be a number or false, got true", BNB_NAME) end
  if luma.sparse.issparse(X) then
    if threshold < 0 then
      fail("%s: binarize must be >= 0 for a sparse X (its zeros would become 1), got %s",
        BNB_NAME, G.number_text(threshold))
    end
    return X:binarize(threshold)
  end
  return X:gt(threshold)
end

local function bnb_jll(self, X, method)
  G.check_finite(BNB_NAME, method, X)
  X = binarized(self, X)
  local log_p, log_q = self.feature_log_prob, self.neg_log_prob
  -- sum_j x_j log p_kj + (1 - x_j) log(1 - p_kj)
  return X * (log_p - log_q):t() + (log_q:sum(2) + self.class_log_prior):t()
end

local bernoulli_params = { table.unpack(discrete_params) }
bernoulli_params[#bernoulli_params + 1] = { name = "binarize", type = "number|boolean",
  default = 0, doc = "features above this become 1, the rest 0 (false: X is used as it is, "
    .. "scikit-learn's binarize = None)" }

naive_bayes.BernoulliNB = estimator.class(predict_methods(bnb_jll, {
  name = "luma.naive_bayes.BernoulliNB",
  kind = "classifier",
  doc = "Bernoulli naive Bayes for binary features (word present or absent): p_kj = (N_kj + "
    .. "alpha) / (N_k + 2 alpha), and absent features count through log(1 - p_kj). Fitted: "
    .. "classes, class_count, feature_count, class_log_prior, feature_log_prob.",
  params = bernoulli_params,
  sparse = true,
  example = function()
    local X, y = spam_data()
    return naive_bayes.BernoulliNB{}, X, y
  end,
  fit = function(self, X, y)
    G.check_finite(BNB_NAME, "fit", X)
    local alpha = discrete_fit(self, BNB_NAME, binarized(self, X), y)
    local p = (self.feature_count + alpha):div(self.class_count + 2 * alpha)
    self.feature_log_prob = p:log()
    self.neg_log_prob = (-p):log1p()
  end,
}))

local CNB_NAME = "ComplementNB"

local complement_params = { table.unpack(discrete_params) }
complement_params[#complement_params + 1] = { name = "norm", type = "boolean", default = false,
  doc = "normalise the weights of each class (Rennie et al.'s second normalisation)" }

local function cnb_jll(self, X, method)
  G.check_finite(CNB_NAME, method, X)
  check_counts(X, method)
  return X * self.feature_log_prob:t()
end

naive_bayes.ComplementNB = estimator.class(predict_methods(cnb_jll, {
  name = "luma.naive_bayes.ComplementNB",
  kind = "classifier",
  doc = "Complement naive Bayes for counts (Rennie, Shih, Teevan and Karger, \"Tackling the "
    .. "poor assumptions of naive Bayes text classifiers\", ICML 2003), as scikit-learn's: "
    .. "each class is weighed by the counts of all the other classes, theta_kj = (sum_{c != "
    .. "k} N_cj + alpha) / sum_j (...), and scores are -sum_j x_j log theta_kj (norm: divided "
    .. "by each class's sum of the logs). Suits imbalanced text classes. Fitted: classes, "
    .. "class_count, feature_count, feature_all, class_log_prior, feature_log_prob.",
  params = complement_params,
  sparse = true,
  example = function()
    local X, y = spam_data()
    return naive_bayes.ComplementNB{}, X, y
  end,
  fit = function(self, X, y)
    check_counts(X, "fit")
    local alpha = discrete_fit(self, CNB_NAME, X, y)
    self.feature_all = self.feature_count:sum(1)
    local comp = (self.feature_count * -1 + self.feature_all) + alpha
    local logged = comp:log() - comp:sum(2):log()
    if self.params.norm then
      self.feature_log_prob = logged:div(logged:sum(2))
    else
      self.feature_log_prob = logged * -1
    end
  end,
}))

luma.doc.set(naive_bayes, { name = "luma.naive_bayes",
  doc = "Naive Bayes classifiers: GaussianNB, MultinomialNB, BernoulliNB, ComplementNB; see "
    .. "docs/CLASSIFIERS.md." })

luma.doc.set(spam_data, { name = "luma.naive_bayes.spam_data",
  signature = "spam_data() -> X, y",
  doc = "A miniature spam filter: word counts of a four-word vocabulary (free, money, "
    .. "meeting, report) in six e-mails, spam = +1 and ham = -1." })

return naive_bayes
