-- MultivariateNormal logpdf of 10^5 points in 10 dimensions; best of 5.
-- SPDX-License-Identifier: MIT
local d = 10
local i = luma.arange(d)
local S = (i - i:t()):abs():mul(-0.3):exp() + luma.eye(d) -- an SPD covariance
local mvn = luma.dist.MultivariateNormal{ mean = luma.zeros(d, 1), cov = S }
local X = luma.random.Generator(1):normal(100000, d)
local best = math.huge
for _ = 1, 5 do
  local t0 = luma.now()
  local lp = mvn:logpdf(X)
  best = math.min(best, luma.now() - t0)
  assert(lp:rows() == 100000)
end
print("time " .. best)
