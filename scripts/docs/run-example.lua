--- Runs one example script for the gallery with its figures redirected:
--   luma scripts/docs/run-example.lua FIGDIR SCRIPT [ARGS...]
-- Every fig:save(path) of the script writes FIGDIR/<file name of path>
-- instead, wherever the script meant to write it (its OUTDIR argument, a
-- default such as build/plots), so the gallery finds each example's
-- figures in a folder of their own.  SCRIPT runs with arg and ... set to
-- ARGS, as `luma SCRIPT ARGS...` would run it.
-- SPDX-License-Identifier: MIT
local figdir, script = arg[1], arg[2]
if not figdir or not script then
  io.stderr:write("usage: luma scripts/docs/run-example.lua FIGDIR SCRIPT [ARGS...]\n")
  os.exit(2)
end
local luma = require("luma")

local Figure = getmetatable(luma.plot.figure())
local save = Figure.save
function Figure.save(fig, path, opts)
  if type(path) == "string" then
    save(fig, figdir .. "/" .. path:match("([^/]*)$"), opts)
    return path
  end
  return save(fig, path, opts) -- its own bad-argument error
end

local args = { [0] = script }
for i = 3, #arg do args[#args + 1] = arg[i] end
arg = args
local chunk = assert(loadfile(script))
chunk(table.unpack(args))
