-- luma.decomposition.TruncatedSVD (lua/luma/decomposition/svd.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr: tsvd: TruncatedSVD(n_components=3,
-- random_state=0).fit(raw wine data) (randomized, exact here: 3 + 10
-- oversamples reach the 13 columns): components_, singular_values_,
-- explained_variance_, explained_variance_ratio_.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with = support.errors_with

local rows = support.rows

local REF = require("decomposition.sklearn_reference")

local raw = luma.datasets.load("wine")
local X = (raw - raw:mean(1)):div(raw:std(1))
local TSVD = luma.decomposition.TruncatedSVD

describe("luma.decomposition.TruncatedSVD", function()
  it("matches scikit-learn on the raw wine data (no centring)", function()
    for _, algorithm in ipairs{ "randomized", "full" } do
      local t = TSVD{ n_components = 3, algorithm = algorithm, seed = 0 }:fit(raw)
      assert.matrix_near(rows(REF.tsvd.components, 13), t.components, 1e-9)
      assert.matrix_near(rows(REF.tsvd.sv, 1), t.singular_values, 1e-10)
      assert.matrix_near(rows(REF.tsvd.ev, 1), t.explained_variance, 1e-9)
      assert.matrix_near(rows(REF.tsvd.ratio, 1), t.explained_variance_ratio, 1e-9)
    end
  end)

  it("gives the Eckart-Young error and LSA topics on a document-term matrix (notes 001 §I)", function()
    -- six documents over eight terms: the first three about pets, the
    -- last three about finance
    local docs = luma.matrix{
      { 2, 1, 1, 0, 0, 0, 0, 1 }, { 1, 2, 0, 1, 0, 0, 0, 0 }, { 1, 1, 2, 1, 0, 0, 1, 0 },
      { 0, 0, 0, 0, 2, 1, 1, 0 }, { 0, 0, 1, 0, 1, 2, 1, 1 }, { 0, 0, 0, 0, 1, 1, 2, 0 } }
    local t = TSVD{ n_components = 2, algorithm = "full" }
    local Z = t:fit_transform(docs)
    local s = luma.linalg.svd(docs, { mode = "values" })
    local rebuilt = t:inverse_transform(Z)
    assert.near(s:sub(3, 6, 1, 1):pow(2):sum(), (docs - rebuilt):pow(2):sum(), 1e-10)
    -- on the second topic axis the two groups fall on opposite sides
    local axis = Z:col(2)
    assert.is_true(axis:sub(1, 3, 1, 1):max() < 0 and axis:sub(4, 6, 1, 1):min() > 0
      or axis:sub(1, 3, 1, 1):min() > 0 and axis:sub(4, 6, 1, 1):max() < 0)
  end)

  it("refuses n_components above min(N, D) and NaN", function()
    errors_with("n_components = 14 is more than min%(n_samples, n_features%) = min%(178, 13%) = 13",
      function() TSVD{ n_components = 14 }:fit(raw) end)
    local bad = raw:copy()
    bad:set(5, 5, 0 / 0)
    errors_with("TruncatedSVD: X has a non%-finite element", function() TSVD{}:fit(bad) end)
    local t = TSVD{ n_components = 2, seed = 0 }:fit(raw)
    errors_with("X has 3 columns but luma.decomposition.TruncatedSVD was fitted on 2",
      function() t:inverse_transform(luma.zeros(1, 3)) end)
  end)
end)
