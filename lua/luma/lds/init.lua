--- luma.lds: linear dynamical systems (docs/LDS.md).
--
-- One part per concern, merged here into the table users get as luma.lds:
--   kalman  KalmanFilter (filter, RTS smoother, EM, sampling) and unflatten
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")

local lds = {}

for name, member in pairs(require("luma.lds.kalman")) do lds[name] = member end
-- (unflatten's checks raise for its caller at any depth)
args.relay_functions(lds)

luma.doc.set(lds, { name = "luma.lds",
  doc = "Linear dynamical systems (linear-Gaussian state-space models): KalmanFilter with the "
    .. "Kalman filter, the Rauch-Tung-Striebel smoother, the innovations likelihood, sampling "
    .. "and EM for the parameters; unflatten for the covariance sequences." })

return lds
