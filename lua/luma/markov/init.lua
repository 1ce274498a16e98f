--- luma.markov (to be filled).
local luma = require("luma")

local markov = {}

luma.doc.set(markov, { name = "luma.markov", doc = "To be filled." })

return markov
