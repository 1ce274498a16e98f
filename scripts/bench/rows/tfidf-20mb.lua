-- TfidfVectorizer fit_transform on 20 MiB of text (the uncompressed files
-- of /usr/share/doc, tiled; scripts/bench/kernels/tfidf.py) vs
-- scikit-learn's, default options (issue 33 target: luma/peer <= 0.5).
-- SPDX-License-Identifier: MIT
local env = ...

local dir = env.build .. "/bench-data"
return {
  about = "TfidfVectorizer fit_transform, 20 MiB of /usr/share/doc text",
  kind = "internal",
  unit = "ms",
  runs = 3,
  luma = { argv = { env.luma, env.dir .. "/kernels/tfidf.lua", dir, env.python } },
  peer = {
    name = "sklearn",
    argv = { env.python, env.dir .. "/kernels/tfidf.py", "run", dir },
    check = { env.python, "-c", "import sklearn" },
  },
  target = { max_ratio = 0.5 },
}
