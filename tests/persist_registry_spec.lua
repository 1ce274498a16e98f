-- Every estimator class Luma defines (luma.*) survives luma.save/load:
-- fitted on its class's own small example, saved, loaded, and giving
-- identical outputs.  A class without an example fails here, so new
-- estimators cannot skip persistence.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local estimator = require("luma.estimator")

-- The base estimator meta classes wrap: a ridge-like model that also
-- transforms (so pipelines, unions and column transformers can use it).
local Base = estimator.class{
  name = "registry_test.Base", kind = "regressor", doc = "base",
  params = { { name = "alpha", type = "number", default = 1, min = 0, doc = "penalty" } },
  fit = function(self, X, y)
    self.coef = luma.linalg.solve(X:t() * X + luma.eye(X:cols()) * self.params.alpha, X:t() * y)
  end,
  predict = function(self, X) return X * self.coef end,
  transform = function(self, X) return X * self.coef end,
}

describe("the estimator registry", function()
  it("saves and reloads every luma class with identical outputs", function()
    for _, name in ipairs(getmetatable(luma).__lazy) do -- load every module
      pcall(require, "luma." .. name)
    end
    local checked = 0
    for name, class in pairs(estimator.classes) do
      if name:match("^luma%.") then
        assert.is_function(class.example, name .. " has no example for this test")
        local est, X, y = class.example(Base{})
        est:fit(X, y)
        local back = luma.persist.decode(luma.persist.encode(est))
        assert.equal(class, back.__class)
        for _, method in ipairs({ "predict", "transform", "predict_proba", "decision_function" }) do
          if class.methods[method] then
            local ok, a = pcall(est[method], est, X)
            if ok then assert.matrix_near(a, back[method](back, X), 0) end
          end
        end
        checked = checked + 1
      end
    end
    assert.is_true(checked >= 5, "only " .. checked .. " classes found")
  end)
end)
