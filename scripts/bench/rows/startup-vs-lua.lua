-- Start-up cost of the luma binary against the stock interpreter it is
-- built on: the difference is what Luma's own initialisation adds.
-- SPDX-License-Identifier: MIT
local env = ...

return {
  about = "process start-up and exit with an empty chunk",
  kind = "wall",
  unit = "ms",
  runs = 15,
  luma = { argv = { env.luma, "-e", "" } },
  peer = { name = "lua5.4", argv = { "lua5.4", "-e", "" } },
  target = { max = 10 },
}
