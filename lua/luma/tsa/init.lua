--- luma.tsa (to be filled).
local luma = require("luma")

local tsa = {}

luma.doc.set(tsa, { name = "luma.tsa", doc = "To be filled." })

return tsa
