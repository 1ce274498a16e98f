-- The corpora of the luma.text specs, read as their reference scripts
-- read them (tests/text/reference/*.py).
-- SPDX-License-Identifier: MIT
local corpora = {}

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function split(s, sep)
  local out, at = {}, 1
  while true do
    local i, j = s:find(sep, at, true)
    if not i then out[#out + 1] = s:sub(at) break end
    out[#out + 1] = s:sub(at, i - 1)
    at = j + 1
  end
  return out
end

function corpora.multilingual()
  return split(assert(slurp("tests/text/fixtures/multilingual.txt")), "\30\n")
end

-- The paragraphs of /usr/share/doc/dpkg/spec/*.txt in sorted file order,
-- split at blank lines as the reference script splits them (re.split on
-- \n\s*\n, keeping paragraphs with a non-space character).
function corpora.dpkg()
  local names = {}
  local p = io.popen("ls /usr/share/doc/dpkg/spec/*.txt 2>/dev/null")
  for line in p:lines() do names[#names + 1] = line end
  p:close()
  table.sort(names)
  if #names == 0 then return nil end
  local docs = {}
  for _, path in ipairs(names) do
    local s = slurp(path)
    local at = 1
    while at <= #s + 1 do
      -- a newline, then whitespace holding another newline
      local i, j = s:find("\n[ \t\r\f\v]*\n[%s]*", at)
      local para = s:sub(at, (i or #s + 1) - 1)
      if i then
        -- re.split is greedy: \s* swallows the whitespace up to the last
        -- newline of the run; whatever follows that newline starts the next
        local run = s:sub(i, j)
        local last = run:match(".*()\n")
        j = i + last - 1
      end
      if para:find("%S") then docs[#docs + 1] = para end
      if not i then break end
      at = j + 1
    end
  end
  return docs
end

return corpora
