-- The text classifier of docs/TEXT.md (scripts/examples/text_licenses.lua)
-- runs under the luma binary and prints what the docs say: scikit-learn
-- 1.2.1 with the same split and steps (TfidfVectorizer(stop_words="english",
-- ngram_range=(1, 2), min_df=2, sublinear_tf=True), LogisticRegression(C=10))
-- has the same 397 / 132 paragraphs, 3347 terms and test accuracy 0.879.
-- SPDX-License-Identifier: MIT
local support = require("support")

describe("the text classification example", function()
  it("classifies licence paragraphs as docs/TEXT.md shows", function()
    local f = io.open("/usr/share/common-licenses/GPL-3")
    if not f then
      pending("no /usr/share/common-licenses (Debian's base-files)")
      return
    end
    f:close()
    local out, err, code = support.luma_run({ "scripts/examples/text_licenses.lua" })
    assert.equal("", err)
    assert.equal(0, code)
    assert.truthy(out:find("397 training and 132 test paragraphs, 3347 terms", 1, true), out)
    assert.truthy(out:find("test accuracy 0.879", 1, true), out)
  end)
end)
