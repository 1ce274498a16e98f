--- luma.util.runtime: what a fitted estimator keeps beside itself and never
-- saves (its optimizer, the modules rebuilt from its saved weights), in a
-- table per estimator that is collected with the estimator.  Not a public
-- API.
-- SPDX-License-Identifier: MIT
local M = {}

--- store() -> of, set: a new weak-keyed store.  of(self) returns self's
-- table, made empty on first use; set(self, t) replaces it (a new fit).
function M.store()
  local tables = setmetatable({}, { __mode = "k" })
  local function of(self)
    local r = tables[self]
    if r == nil then
      r = {}
      tables[self] = r
    end
    return r
  end
  local function set(self, t) tables[self] = t end
  return of, set
end

return M
