--- luma.plot.contour: contour lines and filled bands of a function given
-- on a rectangular grid, by marching triangles.
--
-- Each grid cell is split into two triangles along its rising diagonal and
-- the function is taken as linear on each triangle, so a level crosses a
-- triangle in at most one straight segment and a band (the values between
-- two levels) is the triangle clipped twice (Sutherland and Hodgman's
-- polygon clipping against the half-planes v >= lo and v <= hi).  Unlike
-- marching squares this needs no saddle disambiguation, and lines and
-- bands come from the same piecewise-linear surface, so they always
-- agree.  Cells whose four corners lie in one band are emitted as
-- rectangles, merged along each row, which keeps the output small for
-- smooth functions and constant regions (class maps).  Triangles with a
-- NaN corner are left out (masked), as matplotlib does.
-- SPDX-License-Identifier: MIT
local contour = {}

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

-- The two triangles of cell (i, j) as lists of {x, y, value}.
local function triangles(x, y, Z, i, j)
  local a = { x[j], y[i], Z[i][j] }
  local b = { x[j + 1], y[i], Z[i][j + 1] }
  local c = { x[j + 1], y[i + 1], Z[i + 1][j + 1] }
  local d = { x[j], y[i + 1], Z[i + 1][j] }
  return { a, b, c }, { a, c, d }
end

--- lines(x, y, Z, level) -> list of segments {x1, y1, x2, y2}.
function contour.lines(x, y, Z, level)
  local segs = {}
  local function tri(p)
    local pts = {}
    for k = 1, 3 do
      local u, v = p[k], p[k % 3 + 1]
      if (u[3] >= level) ~= (v[3] >= level) then
        local t = (level - u[3]) / (v[3] - u[3])
        pts[#pts + 1] = u[1] + t * (v[1] - u[1])
        pts[#pts + 1] = u[2] + t * (v[2] - u[2])
      end
    end
    if #pts == 4 then segs[#segs + 1] = pts end
  end
  for i = 1, #y - 1 do
    for j = 1, #x - 1 do
      local z1, z2, z3, z4 = Z[i][j], Z[i][j + 1], Z[i + 1][j + 1], Z[i + 1][j]
      if finite(z1) and finite(z2) and finite(z3) and finite(z4) then
        local t1, t2 = triangles(x, y, Z, i, j)
        tri(t1)
        tri(t2)
      end
    end
  end
  return segs
end

-- poly clipped to the values on one side of c (above: v >= c).
local function clip(poly, c, above)
  local out = {}
  local n = #poly
  for k = 1, n do
    local p, q = poly[k], poly[k % n + 1]
    local pin = above and p[3] >= c or (not above and p[3] <= c)
    local qin = above and q[3] >= c or (not above and q[3] <= c)
    if pin then out[#out + 1] = p end
    if pin ~= qin then
      local t = (c - p[3]) / (q[3] - p[3])
      out[#out + 1] = { p[1] + t * (q[1] - p[1]), p[2] + t * (q[2] - p[2]), c }
    end
  end
  return out
end

-- The band of v among levels (1 for [levels[1], levels[2]], ...), or nil
-- outside [levels[1], levels[#levels]].
local function band_of(levels, v)
  if v < levels[1] or v > levels[#levels] then return nil end
  local lo, hi = 1, #levels - 1
  while lo < hi do
    local mid = (lo + hi + 1) // 2
    if v >= levels[mid] then lo = mid else hi = mid - 1 end
  end
  return lo
end

--- bands(x, y, Z, levels) -> list (one per band b, the values between
-- levels[b] and levels[b + 1]) of {rects = {{x0, y0, x1, y1}, ...},
-- polys = {{x1, y1, x2, y2, ...}, ...}}.
function contour.bands(x, y, Z, levels)
  local out = {}
  for b = 1, #levels - 1 do out[b] = { rects = {}, polys = {} } end
  local function add_poly(b, tri)
    local p = clip(clip(tri, levels[b], true), levels[b + 1], false)
    if #p >= 3 then
      local flat = {}
      for _, q in ipairs(p) do
        flat[#flat + 1] = q[1]
        flat[#flat + 1] = q[2]
      end
      local polys = out[b].polys
      polys[#polys + 1] = flat
    end
  end
  for i = 1, #y - 1 do
    local run_band, run_start = nil, nil
    local function flush(j)
      if run_band then
        local rects = out[run_band].rects
        rects[#rects + 1] = { x[run_start], y[i], x[j], y[i + 1] }
        run_band = nil
      end
    end
    for j = 1, #x - 1 do
      local z1, z2, z3, z4 = Z[i][j], Z[i][j + 1], Z[i + 1][j + 1], Z[i + 1][j]
      if finite(z1) and finite(z2) and finite(z3) and finite(z4) then
        local lo = math.min(z1, z2, z3, z4)
        local hi = math.max(z1, z2, z3, z4)
        local blo, bhi = band_of(levels, lo), band_of(levels, hi)
        if blo and blo == bhi then
          if run_band ~= blo then
            flush(j)
            run_band, run_start = blo, j
          end
        else
          flush(j)
          local first = blo or 1
          local last = bhi or #levels - 1
          local t1, t2 = triangles(x, y, Z, i, j)
          for b = first, last do
            add_poly(b, t1)
            add_poly(b, t2)
          end
        end
      else
        flush(j)
      end
    end
    flush(#x)
  end
  return out
end

return contour
