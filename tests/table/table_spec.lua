-- luma.Table: construction, column and row selection, storage sharing,
-- describe (reference values from pandas 1.5.3, Debian's python3-pandas,
-- as noted at each), printing, and bad input.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local Table = luma.Table
local M = luma.matrix
local NAN = 0 / 0

local function people()
  return Table({ age = { 31, 45, NAN, 22 }, city = { "Paris", "Lyon", false, "Paris" },
    income = M{ 3.5, 4.25, 2, 1 } }, { columns = { "city", "age", "income" } })
end

describe("luma.Table construction #smoke", function()
  it("builds numeric and categorical columns in the given order", function()
    local T = people()
    assert.same({ "city", "age", "income" }, T:names())
    assert.equal(4, T:nrows())
    assert.equal(4, #T)
    assert.equal(3, T:ncols())
    assert.same({ city = "category", age = "numeric", income = "numeric" }, T:dtypes())
    assert.matrix_near({{31}, {45}, {NAN}, {22}}, T.age, 0)
    assert.matrix_near(T.age, T["age"], 0)
    assert.matrix_near(T.age, T:column("age"), 0)
    assert.same({ "Lyon", "Paris" }, T.city.categories) -- sorted, not first-seen
    assert.matrix_near({{2}, {1}, {NAN}, {2}}, T.city.codes, 0)
    assert.same({ "Paris", "Lyon", nil, "Paris" }, T.city:totable())
    assert.equal("Lyon", T.city:get(2))
    assert.is_nil(T.city:get(3))
    assert.is_true(T:has_column("age"))
    assert.is_false(T:has_column("zip"))
  end)

  it("orders columns by name without an explicit order", function()
    assert.same({ "a", "b", "c" }, Table{ c = { 1 }, a = { 2 }, b = { "x" } }:names())
  end)

  it("makes category columns of numbers with dtypes", function()
    local T = Table({ zip = { 75001, 69002, 75001 } }, { dtypes = { zip = "category" } })
    assert.same({ "69002", "75001" }, T.zip.categories)
    assert.same({ "75001", "69002", "75001" }, T.zip:totable())
    local U = Table({ v = { 0.1, 2.5 } }, { dtypes = { v = "category" } })
    assert.same({ "0.1", "2.5" }, U.v.categories)
  end)

  it("shares a matrix's storage with from_matrix", function()
    local X = M{{1, 2}, {3, 4}, {5, 6}}
    local T = Table.from_matrix(X, { "a", "b" })
    assert.is_true(rawequal(X, T:to_matrix())) -- the same matrix object
    T.b:set(1, 1, 20)
    assert.equal(20, X:get(1, 2))
    assert.same({ "x1", "x2" }, Table.from_matrix(X):names())
  end)

  it("keeps the constructor's numeric columns in one block: to_matrix does not copy", function()
    local T = people()
    local X = T:to_matrix{ "age", "income" }
    assert.is_true(rawequal(X, T:to_matrix{ "age", "income" }))
    X:set(1, 2, 99)
    assert.equal(99, T.income:get(1, 1))
    -- a non-consecutive or reordered selection is a copy
    local Y = T:to_matrix{ "income", "age" }
    Y:set(1, 1, -1)
    assert.equal(99, T.income:get(1, 1))
  end)
end)

describe("luma.Table selection", function()
  it("selects, drops, renames and adds columns, sharing storage", function()
    local T = people()
    assert.same({ "income", "city" }, T:select{ "income", "city" }:names())
    assert.same({ "city", "income" }, T:drop("age"):names())
    local R = T:rename{ age = "years" }
    assert.same({ "city", "years", "income" }, R:names())
    R.years:set(1, 1, 32)
    assert.equal(32, T.age:get(1, 1))
    local A = T:add_column("score", { 1, 2, 3, 4 })
    assert.same({ "city", "age", "income", "score" }, A:names())
    assert.same({ "city", "age", "income" }, T:names()) -- unchanged
    T.flag = { "y", "n", "y", "y" } -- in place
    assert.same({ "city", "age", "income", "flag" }, T:names())
    T.age = { 1, 2, 3, 4 } -- replaces
    assert.matrix_near({{1}, {2}, {3}, {4}}, T.age, 0)
    local H = Table.hcat{ T:select("city"), Table{ z = { 0, 0, 0, 0 } } }
    assert.same({ "city", "z" }, H:names())
  end)

  it("selects rows by range, index list, mask and boolean list", function()
    local T = people()
    local S = T:slice(2, 3)
    assert.matrix_near({{45}, {NAN}}, S.age, 0)
    assert.same({ "Lyon", nil }, S.city:totable())
    S.age:set(1, 1, 46) -- a range is a view
    assert.equal(46, T.age:get(2, 1))
    assert.same({ "Paris", "Lyon" }, T:head(2).city:totable())
    assert.same({ nil, "Paris" }, T:tail(2).city:totable())
    assert.equal(0, T:head(0):nrows())
    local K = T:take{ 4, 1, 4 }
    assert.matrix_near({{22}, {31}, {22}}, K.age, 0)
    assert.same({ "Paris", "Paris", "Paris" }, K.city:totable())
    assert.matrix_near({{3.5}, {4.25}}, T:filter(T.income:gt(2)).income, 0)
    assert.matrix_near({{31}, {22}}, T:filter{ true, false, false, true }.age, 0)
    assert.equal(0, T:take{}:nrows())
  end)

  it("converts and recodes categorical columns", function()
    local c = Table.Categorical{ "b", "a", false, "c" }
    assert.same({ "a", "b", "c" }, c.categories)
    assert.matrix_near({{1}, {1}, {1}}, c:counts(), 0)
    local r, unknown = c:recode{ "c", "b" }
    assert.same({ "c", "b" }, r.categories)
    assert.matrix_near({{2}, {NAN}, {NAN}, {1}}, r.codes, 0)
    assert.same({ 2 }, unknown) -- row 2 holds "a", not among the categories
    local f = Table.Categorical.from_codes(M{ 2, 1, NAN }, { "x", "y" })
    assert.same({ "y", "x", nil }, f:totable())
  end)
end)

describe("luma.Table describe and printing", function()
  it("describes like pandas", function()
    -- /usr/bin/python3, pandas 1.5.3: pd.DataFrame({"age": [31, 45, None, 22], "income":
    --   [3.5, 4.25, 2, 1]}).describe() printed with 17 digits -> age: count 3, mean
    --   32.666666666666664, std 11.590225767142474, min 22, 25% 26.5, 50% 31, 75% 38, max 45;
    --   income: count 4, mean 2.6875, std 1.4630874888399532, min 1, 25% 1.75, 50% 2.75,
    --   75% 3.6875, max 4.25; city has 2 categories
    local D = people():describe()
    assert.same({ "statistic", "city", "age", "income" }, D:names())
    assert.same({ "count", "mean", "std", "min", "25%", "50%", "75%", "max", "categories" },
      D.statistic:totable())
    assert.matrix_near({{3}, {32.666666666666664}, {11.590225767142474}, {22}, {26.5}, {31},
      {38}, {45}, {NAN}}, D.age, 1e-12)
    assert.matrix_near({{4}, {2.6875}, {1.4630874888399532}, {1}, {1.75}, {2.75}, {3.6875},
      {4.25}, {NAN}}, D.income, 1e-12)
    assert.matrix_near({{3}, {NAN}, {NAN}, {NAN}, {NAN}, {NAN}, {NAN}, {NAN}, {2}}, D.city, 0)
  end)

  it("prints an aligned table", function()
    local T = Table({ x = { 1, 2.5, NAN }, name = { "a", "bb", false } }, { columns = { "x", "name" } })
    assert.equal(table.concat({
      "     x  name",
      "1    1     a",
      "2  2.5    bb",
      "3  nan  <NA>",
      "[3 rows x 2 columns]" }, "\n"), tostring(T))
    local long = tostring(Table{ v = luma.arange(30) })
    assert.truthy(long:find("\n  8    8\n...  ...\n 23   23\n", 1, true))
    assert.matches("%[30 rows x 1 columns%]$", long)
  end)
end)

describe("luma.Table bad input", function()
  it("rejects ragged columns, mixed lists and bad names", function()
    assert.has_error(function() Table{ a = { 1, 2 }, b = { 1 } } end,
      "luma.Table: column 'b' has 1 rows but column 'a' has 2")
    assert.has_error(function() Table{ a = { 1, "x" } } end,
      "luma.Table: column 'a' row 2 holds 'x', not a number (declare the column with "
      .. "dtypes = {a = \"category\"} to keep it as text)")
    assert.has_error(function() Table{ a = M{{1, 2}} } end,
      "luma.Table: column 'a' must be an n x 1 matrix, got 1 x 2")
    assert.has_error(function() Table({ a = { 1 } }, { columns = { "a", "b" } }) end,
      "luma.Table: unknown column 'b' in option 'columns'")
    assert.has_error(function() Table({ a = { 1 }, b = { 2 } }, { columns = { "a" } }) end,
      "luma.Table: column 'b' is missing from option 'columns'")
    assert.has_error(function() Table({ a = { 1 } }, { dtypes = { z = "category" } }) end,
      "luma.Table: unknown column 'z' in option 'dtypes'")
    assert.has_error(function() Table({ a = { 1 } }, { order = { "a" } }) end,
      "luma.Table: unknown option 'order' (valid: columns dtypes)")
    assert.has_error(function() Table.from_matrix(M{{1, 2}}, { "a", "a" }) end,
      "luma.Table.from_matrix: duplicate column name 'a'")
  end)

  it("names unknown columns wherever a name is accepted", function()
    local T = people()
    assert.has_error(function() T:column("zip") end,
      "luma.Table.column: unknown column 'zip' (columns: city, age, income)")
    assert.has_error(function() T:select{ "age", "zip" } end,
      "luma.Table.select: unknown column 'zip' in the selection")
    assert.has_error(function() T:drop("zip") end,
      "luma.Table.drop: unknown column 'zip' in the names to drop")
    assert.has_error(function() T:rename{ zip = "z" } end,
      "luma.Table.rename: unknown column 'zip' (columns: city, age, income)")
    assert.has_error(function() T:to_matrix{ "zip" } end,
      "luma.Table.to_matrix: unknown column 'zip' in the columns")
    assert.has_error(function() T:rename{ age = "city" } end,
      "luma.Table.rename: two columns would be named 'city'")
    assert.has_error(function() Table.hcat{ T, T } end,
      "luma.Table.hcat: duplicate column name 'city' (rename one first)")
    assert.has_error(function() T:add_column("age", { 1, 2, 3, 4 }) end,
      "luma.Table.add_column: the table already has a column 'age' (drop it first, or "
      .. "assign t[\"age\"] = values)")
  end)

  it("refuses a categorical column where numbers are needed, suggesting OneHotEncoder", function()
    assert.has_error(function() people():to_matrix() end,
      "luma.Table.to_matrix: column 'city' is categorical; encode it first (e.g. with "
      .. "luma.preprocessing.OneHotEncoder or OrdinalEncoder) or leave it out of the columns")
  end)

  it("checks row selections", function()
    local T = people()
    assert.has_error(function() T:take{ 5 } end, "luma.Table.take: row index 5.0 out of range [1, 4]")
    assert.has_error(function() T:filter{ true } end,
      "luma.Table.filter: the mask must have one entry per row (4), got 1")
    assert.has_error(function() T:slice(3, 9) end, "luma.Table.slice: rows 3..9 are not within 1..4")
    assert.has_error(function() T:add_column("z", { 1 }) end,
      "luma.Table.add_column: column 'z' has 1 rows, the table 4")
  end)
end)

describe("luma.Table persistence", function()
  it("loads a saved Table in a fresh program that never touched luma.Table", function()
    local path = os.tmpname()
    luma.save(people(), path)
    local out, err, code = support.luma_run({ "-e",
      "local t = luma.load('" .. path .. "'); print(t:nrows(), t:names()[1], t.city:get(2))" })
    os.remove(path)
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal("4\tcity\tLyon\n", out)
  end)
end)
