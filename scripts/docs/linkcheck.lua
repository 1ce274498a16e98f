--- Checks every internal link of a generated site: each href and src of
-- each .html file under a folder must name a file of the folder, and a
-- fragment an id of that page.  External links (http:, mailto:, ...) are
-- not followed (the site is built and read offline).
--   luma scripts/docs/linkcheck.lua OUTDIR     (exit 1 on a broken link)
-- or, as a module: require(...).check(outdir) -> pages, links, {bad...}
-- SPDX-License-Identifier: MIT
local M = {}

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function files_under(dir)
  local list = {}
  local p = assert(io.popen("cd " .. shell_quote(dir) .. " && find . -type f | sort"))
  for line in p:lines() do list[#list + 1] = line:gsub("^%./", "") end
  p:close()
  return list
end

-- The path "a/b/../c" as "a/c"; nil when it climbs out of the folder.
local function normalize(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      if #parts == 0 then return nil end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

local function unescape(s)
  return (s:gsub("&amp;", "&"):gsub("&quot;", '"'):gsub("&lt;", "<"):gsub("&gt;", ">"))
end

function M.check(outdir)
  local files, exists = files_under(outdir), {}
  for _, f in ipairs(files) do exists[f] = true end
  local pages = {}
  for _, f in ipairs(files) do
    if f:match("%.html$") then
      local h = assert(io.open(outdir .. "/" .. f, "rb"))
      local text = h:read("a")
      h:close()
      local ids, links = {}, {}
      for id in text:gmatch('%sid="([^"]*)"') do ids[unescape(id)] = true end
      for attr, link in text:gmatch('%s(%a+)="([^"]*)"') do
        if attr == "href" or attr == "src" then links[#links + 1] = unescape(link) end
      end
      pages[f] = { ids = ids, links = links }
    end
  end
  local bad, n_pages, n_links = {}, 0, 0
  for name, page in pairs(pages) do
    n_pages = n_pages + 1
    local dir = name:match("^(.*)/[^/]*$")
    for _, link in ipairs(page.links) do
      n_links = n_links + 1
      if not link:match("^%a[%w+.-]*:") then
        local target, frag = link:match("^([^#]*)#?(.*)$")
        target = target:gsub("%?.*$", "")
        local path = target == "" and name or normalize(dir and dir .. "/" .. target or target)
        if not path or not exists[path] then
          bad[#bad + 1] = string.format("%s -> %s (no such file)", name, link)
        elseif frag ~= "" and pages[path] and not pages[path].ids[frag] then
          bad[#bad + 1] = string.format("%s -> %s (no such anchor)", name, link)
        end
      end
    end
  end
  table.sort(bad)
  return n_pages, n_links, bad
end

if arg and arg[0] and arg[0]:match("linkcheck%.lua$") then -- run as a script
  local outdir = arg and arg[1]
  if not outdir then
    io.stderr:write("usage: luma scripts/docs/linkcheck.lua OUTDIR\n")
    os.exit(2)
  end
  local pages, links, bad = M.check(outdir)
  print(string.format("pages %d links %d broken %d", pages, links, #bad))
  for _, b in ipairs(bad) do print("BROKEN " .. b) end
  os.exit(#bad == 0 and 0 or 1)
end

return M
