--- luma.lds (to be filled).
local luma = require("luma")

local lds = {}

luma.doc.set(lds, { name = "luma.lds", doc = "To be filled." })

return lds
