--- luma.parallel.common: what the backends that cross a process boundary
-- (fork, mpi) share: a task's outcome as bytes, and bytes back into a
-- result.  Not a public API.
-- SPDX-License-Identifier: MIT
local persist = require("luma.persist")
local args = require("luma.util.args")

local common = {}

--- outcome(run, i) -> true, bytes (the result of run(i) encoded by
-- luma.persist) or false, message (the task's error, or why its result
-- cannot travel, naming the value luma.save refused).  An interrupt or a
-- limit is no task's error: it is raised again, and ends the whole map.
function common.outcome(run, i)
  local ok, value = pcall(run, i)
  if not ok then
    if args.is_stop(value) then error(value, 0) end
    return false, tostring(value)
  end
  local encoded, bytes = pcall(persist.encode, value)
  if not encoded then
    return false, string.format("the result of task %d cannot be sent between processes (%s)", i,
      tostring(bytes))
  end
  return true, bytes
end

--- decode(bytes) -> the result a task's outcome carried.
function common.decode(bytes)
  return persist.decode(bytes, "a task's result")
end

return common
