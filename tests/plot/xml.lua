--- A small strict XML parser for the plot tests (require("plot.xml")):
-- enough of XML 1.0 to check that luma.plot's SVG is well formed (one
-- root, matched tags, quoted and unique attributes, only the five
-- predefined entities and numeric references, no stray '<' or '&') and to
-- walk it.  parse(text) -> root element or nil, message; an element is
-- {name =, attrs = {}, children = {elements}, text = concatenated text}.
-- SPDX-License-Identifier: MIT
local xml = {}

local ENTITIES = { amp = "&", lt = "<", gt = ">", quot = '"', apos = "'" }

local function unescape(s, where)
  if s:find("<", 1, true) then error("'<' in " .. where, 0) end
  return (s:gsub("&([^;]*);?", function(name)
    if ENTITIES[name] then return ENTITIES[name] end
    local hex = name:match("^#x(%x+)$")
    local dec = name:match("^#(%d+)$")
    if hex then return utf8.char(tonumber(hex, 16)) end
    if dec then return utf8.char(tonumber(dec)) end
    error("bad entity &" .. name .. " in " .. where, 0)
  end))
end

local function parse(text)
  local pos = 1
  local n = #text
  -- prolog: an optional declaration, comments and white space
  local decl = text:match("^<%?xml.-%?>()", pos)
  if decl then pos = decl end
  local root
  local stack = {}
  while pos <= n do
    local lt = text:find("<", pos, true)
    local chunk = text:sub(pos, (lt or n + 1) - 1)
    if #stack == 0 then
      if chunk:match("%S") then error("text outside the root element", 0) end
    else
      local top = stack[#stack]
      top.text = top.text .. unescape(chunk, "text of <" .. top.name .. ">")
    end
    if not lt then break end
    pos = lt
    if text:sub(pos, pos + 3) == "<!--" then
      local close = text:find("-->", pos + 4, true)
      if not close then error("unclosed comment", 0) end
      pos = close + 3
    elseif text:sub(pos, pos + 1) == "</" then
      local name, after = text:match("^</([%w_:%-%.]+)%s*>()", pos)
      if not name then error("bad end tag at byte " .. pos, 0) end
      local top = table.remove(stack)
      if not top or top.name ~= name then
        error(string.format("</%s> closes <%s>", name, top and top.name or "nothing"), 0)
      end
      pos = after
    else
      local name, after = text:match("^<([%a_:][%w_:%-%.]*)()", pos)
      if not name then error("bad start tag at byte " .. pos, 0) end
      if #stack == 0 and root then error("a second root element <" .. name .. ">", 0) end
      pos = after
      local el = { name = name, attrs = {}, children = {}, text = "" }
      while true do
        local ws, p2 = text:match("^(%s*)()", pos)
        pos = p2
        if text:sub(pos, pos + 1) == "/>" then
          pos = pos + 2
          el.empty = true
          break
        elseif text:sub(pos, pos) == ">" then
          pos = pos + 1
          break
        end
        if ws == "" then error("attributes of <" .. name .. "> need white space between them", 0) end
        local key, q, p3 = text:match("^([%a_:][%w_:%-%.]*)%s*=%s*([\"'])()", pos)
        if not key then error("bad attribute in <" .. name .. "> at byte " .. pos, 0) end
        local close = text:find(q, p3, true)
        if not close then error("unterminated attribute value in <" .. name .. ">", 0) end
        if el.attrs[key] ~= nil then error("duplicate attribute " .. key .. " in <" .. name .. ">", 0) end
        el.attrs[key] = unescape(text:sub(p3, close - 1), "attribute " .. key)
        pos = close + 1
      end
      if #stack > 0 then
        local parent = stack[#stack]
        parent.children[#parent.children + 1] = el
      else
        root = el
      end
      if not el.empty then stack[#stack + 1] = el end
    end
  end
  if #stack > 0 then error("unclosed <" .. stack[#stack].name .. ">", 0) end
  if not root then error("no root element", 0) end
  return root
end

function xml.parse(text)
  local ok, res = pcall(parse, text)
  if ok then return res end
  return nil, res
end

--- find_all(el, pred) -> every descendant element (depth first, document
-- order) for which pred(element) is true.
function xml.find_all(el, pred, out)
  out = out or {}
  for _, c in ipairs(el.children) do
    if pred(c) then out[#out + 1] = c end
    xml.find_all(c, pred, out)
  end
  return out
end

--- has_class(el, class) -> true when class is one of el's classes.
function xml.has_class(el, class)
  for c in (el.attrs.class or ""):gmatch("%S+") do
    if c == class then return true end
  end
  return false
end

--- by_class(el, class) -> the descendants with that class.
function xml.by_class(el, class)
  return xml.find_all(el, function(e) return xml.has_class(e, class) end)
end

--- by_name(el, name) -> the descendants with that tag name.
function xml.by_name(el, name)
  return xml.find_all(el, function(e) return e.name == name end)
end

return xml
