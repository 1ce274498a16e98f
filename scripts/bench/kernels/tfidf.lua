-- The Luma side of the tfidf-20mb row:
--   luma tfidf.lua DATA_DIR PYTHON
-- Reads the documents tfidf.py writes (running it once to make them: 20
-- MiB of /usr/share/doc, documents separated by "\30\n") and times
-- luma.text.TfidfVectorizer{}:fit_transform.  Prints "time <seconds>";
-- the shape and the stored entries go to stderr.
-- SPDX-License-Identifier: MIT
local dir, python = arg[1], arg[2]
local path = dir .. "/tfidf-20mb.txt"
local f = io.open(path, "rb")
if not f then
  local here = arg[0]:match("^(.*)/[^/]*$") or "."
  assert(os.execute(string.format("%s %s/tfidf.py data %s", python, here, dir)))
  f = assert(io.open(path, "rb"))
end
local s = f:read("a")
f:close()
local docs, at = {}, 1
while true do
  local i = s:find("\30\n", at, true)
  if not i then docs[#docs + 1] = s:sub(at) break end
  docs[#docs + 1] = s:sub(at, i - 1)
  at = i + 2
end
s = nil
local t0 = luma.now()
local X = luma.text.TfidfVectorizer{}:fit_transform(docs)
local elapsed = luma.now() - t0
io.stderr:write(string.format("%d x %d, %d stored\n", X:rows(), X:cols(), X:nnz()))
print("time " .. elapsed)
