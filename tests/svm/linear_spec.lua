-- luma.svm.LinearSVC and LinearSVR against scikit-learn 1.2.1's LinearSVC /
-- LinearSVR (Debian's python3-sklearn, LIBLINEAR inside) and LIBLINEAR's
-- own train (liblinear-tools 2.3.0).
--
-- Reference values: printed with "%.17g" by /usr/bin/python3 from
--   X, y = sklearn.datasets.load_iris(return_X_y=True)
--   LinearSVC(loss, penalty, dual, tol=1e-10, max_iter=1000000).fit(X, y) for
--     (squared_hinge, l2, True), (hinge, l2, True), (squared_hinge, l1, False)
--   LinearSVC(tol=1e-10, max_iter=1000000, C=0.5, class_weight={1: 3}) on
--     rows 51..150
--   Xd, yd = load_diabetes(return_X_y=True)[:100]; LinearSVR(C=10, epsilon=2,
--     loss, tol=1e-10, max_iter=1000000) for both losses
-- At this tolerance the optimum is reached and the random coordinate order
-- no longer matters; coefficients agree to 1e-6.
-- LIBLINEAR: liblinear-train -s 1 -B 1 -e 1e-10 -c 1 on rows 51..150 (label
-- +1 for versicolor, "%.17g") stops at its 1000 passes with w =
-- 0.85047938133889656 0.98664591623401998 -1.381114302267638
-- -1.8653713036617954, bias weight 1.7094650628600618 (its signs are ours
-- negated: +1 is the first class there).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local svm = luma.svm

local X, y = luma.datasets.load("iris")
local Xd, yd = luma.datasets.load("diabetes")
Xd, yd = Xd:sub(1, 100, nil, nil), yd:sub(1, 100, nil, nil)

local linearsvc_l2_squared_hinge = { coef = { { 0.18424468597456989, 0.45122252338398805, -0.80793722657523515, -0.45072813408024232 }, { 0.055246247782073689, -0.90089460450511505, 0.40923384586972067, -0.96062710379665905 }, { -0.85059120136641886, -0.98655487989117696, 1.3810373307372421, 1.8651201785325227 } }, intercept = { { 0.10955235132461645 }, { 1.6873716412771738 }, { -1.710792661205873 } } }
local linearsvc_l2_hinge = { coef = { { 0.30945587886661791, 0.42971160983589501, -1.0455034037588964, -0.61782507856197455 }, { 0.61004113357721013, -1.6978884448285005, 0.45753085042791414, -1.6229561775290748 }, { -1.1180124224526704, -1.2670807453885393, 1.7142857141171892, 2.4347826089962985 } }, intercept = { { 0.16361379093282005 }, { 1.1585915704741026 }, { -1.7279503094363173 } } }
local linearsvc_l1_squared_hinge = { coef = { { 0.082860727606915333, 0.6405255052254647, -0.89431754607562541, 0 }, { 0, -0.93904373583963463, 0.41219169367027486, -0.92579162435643592 }, { -0.73753215823256524, -0.93453714191165682, 1.3861970374731061, 2.0866320133098823 } }, intercept = { { 0 }, { 2.0726768709574457 }, { -2.9556068285121211 } } }
local linearsvc_binary = { coef = { { -0.79358370380985055, -0.95057204479357282, 1.2408451748203173, 1.7660812861959276 } }, intercept = { { -1.562124108363212 } } }
local linearsvr_epsilon_insensitive = { coef = { { 4.0758142608670695, -1.8087807946396324, 11.920954492005302, 9.0688278557888466, 2.4241803577943379, 1.1090151438011666, -11.904890604938283, 10.634756084900038, 17.941650349454559, 0.71282706926712658 } }, intercept = 111.52330789710017 }
local linearsvr_squared_epsilon_insensitive = { coef = { { 37.123098165635142, -271.26014465319446, 386.76072394559219, 158.80935501460493, -32.105773125874045, -204.8926753682926, -156.18987226033775, 161.58081503799951, 523.0160822767084, -2.0879070850837862 } }, intercept = 145.19394653568963 }

local tight = { tol = 1e-10, max_iter = 1000000 }
local function with(extra)
  local p = {}
  for k, v in pairs(tight) do p[k] = v end
  for k, v in pairs(extra) do p[k] = v end
  return p
end

describe("LinearSVC", function()
  it("matches scikit-learn's LIBLINEAR solvers, one-vs-rest", function()
    local a = svm.LinearSVC(with{}):fit(X, y)
    assert.matrix_near(linearsvc_l2_squared_hinge.coef, a.coef, 1e-6)
    assert.matrix_near(linearsvc_l2_squared_hinge.intercept, a.intercept, 1e-6)
    local b = svm.LinearSVC(with{ loss = "hinge" }):fit(X, y)
    assert.matrix_near(linearsvc_l2_hinge.coef, b.coef, 1e-6)
    assert.matrix_near(linearsvc_l2_hinge.intercept, b.intercept, 1e-6)
    local c = svm.LinearSVC(with{ penalty = "l1", dual = false }):fit(X, y)
    assert.matrix_near(linearsvc_l1_squared_hinge.coef, c.coef, 1e-6)
    assert.matrix_near(linearsvc_l1_squared_hinge.intercept, c.intercept, 1e-6)
    -- one-vs-rest: the class of the largest decision value
    assert.matrix_near(a.classes:take(a:decision_function(X):argmax(2)), a:predict(X), 0)
  end)

  it("weights classes on two classes and agrees with liblinear-train", function()
    local Xb, yb = X:sub(51, 150, nil, nil), y:sub(51, 150, nil, nil)
    local m = svm.LinearSVC(with{ C = 0.5, class_weight = { [1] = 3 } }):fit(Xb, yb)
    assert.matrix_near(linearsvc_binary.coef, m.coef, 1e-6)
    assert.matrix_near(linearsvc_binary.intercept, m.intercept, 1e-6)
    local plain = svm.LinearSVC(with{}):fit(Xb, yb)
    assert.matrix_near({ { -0.85047938133889656, -0.98664591623401998, 1.381114302267638,
      1.8653713036617954 } }, plain.coef, 1e-3)
    assert.near(-1.7094650628600618, plain.intercept:get(1, 1), 2e-3)
  end)

  it("is reproducible from its seed and warns at max_iter", function()
    local a, b
    require("support").capture_warnings(function() -- 1000 passes are not enough on raw iris
      a = svm.LinearSVC{ seed = 7 }:fit(X, y)
      b = svm.LinearSVC{ seed = 7 }:fit(X, y)
    end)
    assert.matrix_near(a.coef, b.coef, 0)
    local warnings = require("support").capture_warnings(function()
      svm.LinearSVC{ max_iter = 2 }:fit(X, y)
    end)
    assert.truthy(warnings[1]:find("LinearSVC: coordinate descent stopped after max_iter = 2", 1, true))
  end)
end)

describe("LinearSVR", function()
  it("matches scikit-learn for both losses", function()
    local a = svm.LinearSVR(with{ C = 10, epsilon = 2 }):fit(Xd, yd)
    assert.matrix_near(linearsvr_epsilon_insensitive.coef, a.coef, 1e-6)
    assert.near(linearsvr_epsilon_insensitive.intercept, a.intercept:get(1, 1), 1e-4)
    local b = svm.LinearSVR(with{ C = 10, epsilon = 2, loss = "squared_epsilon_insensitive" }):fit(Xd, yd)
    assert.matrix_near(linearsvr_squared_epsilon_insensitive.coef, b.coef, 1e-6)
    assert.near(linearsvr_squared_epsilon_insensitive.intercept, b.intercept:get(1, 1), 1e-4)
    assert.matrix_near(Xd * a.coef:t() + a.intercept:get(1, 1), a:predict(Xd), 1e-12)
  end)
end)
