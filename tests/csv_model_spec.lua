-- The scenario of issue 15: a pipeline (OneHotEncoder + a linear model)
-- trained on one CSV file, saved, reloaded, and asked to predict for the
-- rows of another file in another order, which lacks one of the cities.
-- The categories travel with the model, so each row gets the prediction
-- it had in the first file.  The data are exact: price = 100 + 20 area +
-- {Lyon 0, Nice 50, Paris 200}[city] + 3 z.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local pp, pl = luma.preprocessing, luma.pipeline

local EFFECT = { Lyon = 0, Nice = 50, Paris = 200 }
local city = { "Paris", "Lyon", "Nice", "Paris", "Lyon", "Nice", "Lyon", "Paris" }
local x = { 1, 2, 3, 4, 5, 6, 7, 8 }
local z = { 0.5, -1, 2, 0, 1.5, -0.5, 3, 1 }
local yv = {}
for i = 1, #city do yv[i] = 100 + 20 * x[i] + EFFECT[city[i]] + 3 * z[i] end

describe("the issue's scenario: a model saved after training on one CSV file", function()
  local function write(path, rows)
    local f = assert(io.open(path, "w"))
    f:write("city,area,z,price\n")
    for _, i in ipairs(rows) do
      f:write(string.format("%s,%.17g,%.17g,%.17g\n", city[i], x[i], z[i], yv[i]))
    end
    f:close()
  end

  it("predicts the same values for the same rows of another file in another order", function()
    local train, other, model_path = os.tmpname(), os.tmpname(), os.tmpname()
    write(train, { 1, 2, 3, 4, 5, 6, 7, 8 })
    -- another file: rows reordered, the first a Nice, and no Lyon at all
    -- (read_csv used to number categories by first appearance in each
    -- file; a file's own category list still lacks Lyon)
    local order = { 3, 8, 6, 1, 4 }
    write(other, order)
    local T1 = luma.io.read_csv(train)
    local model = pl.make_pipeline(pl.ColumnTransformer{ transformers = {
      { "city", pp.OneHotEncoder{ handle_unknown = "ignore" }, { "city" } },
      { "num", "passthrough", { "area", "z" } } } }, luma.linear.Ridge{ alpha = 1e-3 })
    model:fit(T1:drop{ "price" }, T1:select{ "price" })
    local expected = model:predict(T1)
    luma.save(model, model_path)
    local back = luma.load(model_path)
    local p = back:predict(luma.io.read_csv(other))
    for r, i in ipairs(order) do assert.near(expected:get(i, 1), p:get(r, 1), 1e-9) end
    -- and the model is close to the exact relation (a small ridge penalty)
    for r, i in ipairs(order) do assert.near(yv[i], p:get(r, 1), 0.05) end
    for _, path in ipairs{ train, other, model_path } do os.remove(path) end
  end)
end)

-- Issue 29's acceptance example: the worked example of docs/PREPROCESSING.md
-- ("Worked example: from a CSV file to predictions") runs as written.  Its
-- named blocks are the two CSV files, the script and its output: the files
-- and the script are written to a scratch directory, the script runs under
-- the luma binary there, and what it prints must be the output block.
describe("the worked example of docs/PREPROCESSING.md", function()
  local support = require("support")

  -- The fenced blocks with a name after the language ("```csv
  -- customers.csv"), by name.
  local function named_blocks(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    local blocks, name, lines = {}, nil, nil
    for line in text:gmatch("([^\n]*)\n") do
      local fence_name = line:match("^```%w+ ([%w_%.]+)%s*$")
      if not name and fence_name then
        name, lines = fence_name, {}
      elseif name and line:match("^```%s*$") then
        blocks[name] = table.concat(lines, "\n") .. "\n"
        name = nil
      elseif name then
        lines[#lines + 1] = line
      end
    end
    return blocks
  end

  it("imputes, encodes, saves, reloads and predicts as the page says", function()
    local blocks = named_blocks("docs/PREPROCESSING.md")
    for _, name in ipairs{ "customers.csv", "new_customers.csv", "churn.lua", "output" } do
      assert.truthy(blocks[name], "the page has no block named " .. name)
    end
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. support.quote(dir)))
    for _, name in ipairs{ "customers.csv", "new_customers.csv", "churn.lua" } do
      local f = assert(io.open(dir .. "/" .. name, "wb"))
      f:write(blocks[name])
      f:close()
    end
    local luma_bin = os.getenv("PWD") .. "/" .. support.luma
    local out, err, code = support.run("cd " .. support.quote(dir) .. " && "
      .. support.quote(luma_bin) .. " churn.lua")
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal(blocks.output, out)
    -- the model was saved with its categories and statistics, and a new
    -- process read it back
    local saved = luma.load(dir .. "/churn.luma")
    assert.same({ "no", "yes" }, saved.classes)
    local imputer = saved.named_steps.columntransformer.params.transformers[1][2]
      .named_steps.simpleimputer
    assert.same({ "unknown", "unknown" }, imputer.statistics)
    os.execute("rm -r " .. support.quote(dir))
  end)
end)
