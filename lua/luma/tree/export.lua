--- luma.tree.export: a fitted tree as text (export_text) or as a Graphviz
-- DOT graph (export_graphviz), in scikit-learn's formats except that
-- feature and node numbers are 1-based, as everywhere in Luma.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local numfmt = require("luma.util.native").format -- "." whatever the locale

local export = {}

local fail = args.fail

-- The fitted tree of an estimator (anything with a .tree table).
local function tree_of(est, fname)
  if type(est) ~= "table" or type(rawget(est, "tree")) ~= "table" then
    fail(3, "bad argument #1 to '%s' (a fitted tree estimator expected)", fname)
  end
  return est.tree, est
end

local function check_opts(fname, opts, valid)
  opts = opts or {}
  if type(opts) ~= "table" then
    fail(3, "bad argument #2 to '%s' (options table expected, got %s)", fname, type(opts))
  end
  for k in pairs(opts) do
    if not valid[k] then
      local names = {}
      for v in pairs(valid) do names[#names + 1] = v end
      table.sort(names)
      fail(3, "bad argument #2 to '%s' (unknown option '%s' (valid: %s))", fname, tostring(k),
        table.concat(names, ", "))
    end
  end
  return opts
end

-- A label or value as Python prints it: 3 rather than 3.0 for labels.
local function label_text(v)
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return string.format("%d", v) end
  return numfmt("%.17g", v)
end

-- Python's str(round(x, p)): the shortest text of the rounded number,
-- with ".0" on integral values.
local function py_round(x, p)
  local scale = 10 ^ p
  local r = x >= 0 and math.floor(x * scale + 0.5) / scale or -math.floor(-x * scale + 0.5) / scale
  if r == 0 then r = 0 end -- no "-0.0"
  for k = 1, 17 do
    local s = numfmt("%." .. k .. "g", r)
    if tonumber(s) == r then
      if not s:find("[%.e]") then s = s .. ".0" end
      return s
    end
  end
  return numfmt("%.17g", r)
end

local function feature_names(opts, d, default)
  local names = opts.feature_names
  if names == nil then
    names = {}
    for j = 1, d do names[j] = default(j) end
  elseif type(names) ~= "table" or #names ~= d then
    fail(4, "feature_names must be a list of %d names", d)
  end
  return names
end

local function node(tree, i)
  return tree.children_left:get(i, 1), tree.children_right:get(i, 1), tree.feature:get(i, 1),
    tree.threshold:get(i, 1)
end

-- Levels of the subtree at node i (a leaf counts 1).
local function subtree_depth(tree, i)
  local left, right = node(tree, i)
  if left < 0 then return 1 end
  return 1 + math.max(subtree_depth(tree, left), subtree_depth(tree, right))
end

--- export.export_text(est [, opts]) -> string.
function export.export_text(est, opts)
  local tree = tree_of(est, "export_text")
  opts = check_opts("export_text", opts, { feature_names = true, max_depth = true,
    spacing = true, decimals = true, show_weights = true })
  local names = feature_names(opts, tree.n_features, function(j) return "feature_" .. j end)
  local spacing, decimals = opts.spacing or 3, opts.decimals or 2
  local max_depth = opts.max_depth or 10
  local classes = rawget(est, "classes")
  local lines = {}
  local fmt = "%." .. decimals .. "f"
  local function leaf_text(i)
    local v = tree.value:row(i)
    if tree.n_classes then
      local text = "class: " .. label_text(classes:get(v:argmax(2):get(1, 1), 1))
      if opts.show_weights then
        local w = {}
        for k = 1, v:cols() do w[k] = numfmt(fmt, v:get(1, k)) end
        text = "weights: [" .. table.concat(w, ", ") .. "] " .. text
      end
      return text
    end
    local w = {}
    for k = 1, v:cols() do w[k] = numfmt(fmt, v:get(1, k)) end
    return "value: [" .. table.concat(w, ", ") .. "]"
  end
  local function walk(i, depth)
    local indent = ("|" .. (" "):rep(spacing)):rep(depth) .. "|" .. ("-"):rep(spacing) .. " "
    local left, right, f, t = node(tree, i)
    local below = depth > max_depth and subtree_depth(tree, i)
    if left < 0 or below == 1 then
      lines[#lines + 1] = indent .. leaf_text(i)
    elseif below then
      lines[#lines + 1] = indent .. "truncated branch of depth " .. below
    else
      local name = names[f]
      lines[#lines + 1] = indent .. name .. " <= " .. numfmt(fmt, t)
      walk(left, depth + 1)
      lines[#lines + 1] = indent .. name .. " >  " .. numfmt(fmt, t)
      walk(right, depth + 1)
    end
  end
  walk(1, 0)
  return table.concat(lines, "\n") .. "\n"
end

--- export.export_graphviz(est [, opts]) -> string (DOT).
function export.export_graphviz(est, opts)
  local tree = tree_of(est, "export_graphviz")
  opts = check_opts("export_graphviz", opts, { feature_names = true, class_names = true,
    precision = true, impurity = true })
  local names = feature_names(opts, tree.n_features, function(j) return "x[" .. j .. "]" end)
  local precision = opts.precision or 3
  local criterion = est.params and est.params.criterion or "impurity"
  if criterion == "log_loss" then criterion = "entropy" end
  local class_names = opts.class_names
  local classes = rawget(est, "classes")
  local out = { "digraph Tree {", 'node [shape=box, fontname="helvetica"] ;',
                'edge [fontname="helvetica"] ;' }
  local function value_text(i)
    local v = tree.value:row(i)
    local parts, integral = {}, true
    for k = 1, v:cols() do
      if v:get(1, k) ~= math.floor(v:get(1, k)) then integral = false end
    end
    for k = 1, v:cols() do
      parts[k] = integral and label_text(v:get(1, k)) or py_round(v:get(1, k), precision)
    end
    if v:cols() == 1 and not tree.n_classes then return parts[1] end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  for i = 1, tree.node_count do
    local left, _, f, t = node(tree, i)
    local label = {}
    if left >= 0 then label[#label + 1] = names[f] .. " <= " .. py_round(t, precision) end
    if opts.impurity ~= false then
      label[#label + 1] = criterion .. " = " .. py_round(tree.impurity:get(i, 1), precision)
    end
    label[#label + 1] = "samples = " .. label_text(tree.n_node_samples:get(i, 1))
    label[#label + 1] = "value = " .. value_text(i)
    if tree.n_classes and (class_names or opts.class_names == true) then
      local c = tree.value:row(i):argmax(2):get(1, 1)
      local cname = type(class_names) == "table" and tostring(class_names[c])
        or label_text(classes:get(c, 1))
      label[#label + 1] = "class = " .. cname
    end
    out[#out + 1] = string.format('%d [label="%s"] ;', i, table.concat(label, "\\n"))
  end
  -- edges in node order; the root's two get scikit-learn's True/False labels
  local parent = {}
  for i = 1, tree.node_count do
    local left, right = node(tree, i)
    if left >= 0 then
      parent[left] = { i, true }
      parent[right] = { i, false }
    end
  end
  local lines = {}
  for i = 1, tree.node_count do
    lines[#lines + 1] = out[3 + i]
    local p = parent[i]
    if p then
      if p[1] == 1 then
        lines[#lines + 1] = string.format('%d -> %d [labeldistance=2.5, labelangle=%d, '
          .. 'headlabel="%s"] ;', p[1], i, p[2] and 45 or -45, p[2] and "True" or "False")
      else
        lines[#lines + 1] = string.format("%d -> %d ;", p[1], i)
      end
    end
  end
  return table.concat({ out[1], out[2], out[3] }, "\n") .. "\n" .. table.concat(lines, "\n")
    .. "\n}"
end

luma.doc.set_members(export, "luma.tree", {
  export_text = { signature = "export_text(est [, opts]) -> string",
    params = {
      { name = "feature_names", type = "table", doc = "one name per feature (default feature_j, 1-based)" },
      { name = "max_depth", type = "integer", default = 10, doc = "deeper branches are shown as truncated" },
      { name = "spacing", type = "integer", default = 3, doc = "indentation width" },
      { name = "decimals", type = "integer", default = 2, doc = "decimals of thresholds and values" },
      { name = "show_weights", type = "boolean", default = false, doc = "print the class weights of leaves" },
    },
    doc = "The rules of a fitted tree as indented text, one line per test and leaf, in "
      .. "scikit-learn's format (with 1-based feature numbers). Returns a string." },
  export_graphviz = { signature = "export_graphviz(est [, opts]) -> string",
    params = {
      { name = "feature_names", type = "table", doc = "one name per feature (default x[j], 1-based)" },
      { name = "class_names", type = "table|boolean", doc = "names of the classes in order, or true for the labels" },
      { name = "precision", type = "integer", default = 3, doc = "digits of thresholds and impurities" },
      { name = "impurity", type = "boolean", default = true, doc = "show each node's impurity" },
    },
    doc = "A fitted tree as a Graphviz DOT graph (render with dot -Tsvg), in scikit-learn's "
      .. "format: node ids are the 1-based ids of est.tree; the root's edges are labelled "
      .. "True (x <= t) and False. Returns a string." },
})

return export
