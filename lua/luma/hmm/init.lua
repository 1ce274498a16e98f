--- luma.hmm (to be filled).
local luma = require("luma")

local hmm = {}

luma.doc.set(hmm, { name = "luma.hmm", doc = "To be filled." })

return hmm
