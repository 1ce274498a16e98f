-- Memory of an idle REPL, ready to work: what an interactive session
-- costs before any data is loaded.  The Python peer imports the libraries
-- a Python user would need for the same work.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "resident memory of an idle REPL at its prompt",
  kind = "rss",
  unit = "MB",
  runs = 5,
  luma = {
    argv = { env.luma },
    prompt = "> ",
    env = { LUMA_HISTORY = "" }, -- never touch the user's history file
  },
  peer = {
    name = "python3 -i + numpy, sklearn",
    argv = { env.python, "-i", "-c", "import numpy, sklearn" },
    prompt = ">>> ",
    check = { env.python, "-c", "import numpy, sklearn" },
  },
  target = { max = 15 },
}
