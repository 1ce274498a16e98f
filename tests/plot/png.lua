--- PNG pixels for the plot tests (require("plot.png")): reads 8-bit RGB or
-- RGBA PNG files (what luma.plot, rsvg-convert and Chromium write) through a few
-- lines of Python's standard library (zlib, struct), the one inflate at
-- hand on a Debian machine; the tests that use it are pending without
-- python3.
-- SPDX-License-Identifier: MIT
local support = require("support")

local png = {}

local DECODER = [[
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w, h, ctype = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), 'only 8-bit RGB(A)'
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
print(w, h)
colors, inked, dark = set(), 0, 0
for line in rows:
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        colors.add(px)
        if px != (255, 255, 255): inked += 1
        if max(px) < 100: dark += 1
print(len(colors), inked, dark)
for arg in sys.argv[2:]:
    x, y = map(int, arg.split(','))
    print(*rows[y][x * bpp:x * bpp + 3])
]]

--- available() -> true when python3 can decode.
function png.available()
  return os.execute("command -v python3 >/dev/null 2>&1") == true
end

--- read(path, points) -> info {width, height, colors (distinct count),
-- inked (non-white pixels), dark (pixels whose channels are all below
-- 100), pixels = {{r, g, b} per point}}; points are {x, y} pixel
-- positions (0-based, rounded down).
function png.read(path, points)
  local script = support.write_temp(DECODER, ".py")
  local args = { "python3", support.quote(script), support.quote(path) }
  for _, p in ipairs(points or {}) do
    args[#args + 1] = string.format("%d,%d", math.floor(p[1]), math.floor(p[2]))
  end
  local out, err, code = support.run(table.concat(args, " "))
  os.remove(script)
  assert(code == 0, "decoding " .. path .. ": " .. err)
  local lines = {}
  for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
  local w, h = lines[1]:match("(%d+) (%d+)")
  local colors, inked, dark = lines[2]:match("(%d+) (%d+) (%d+)")
  local info = { width = tonumber(w), height = tonumber(h), colors = tonumber(colors),
    inked = tonumber(inked), dark = tonumber(dark), pixels = {} }
  for i = 3, #lines do
    local r, g, b = lines[i]:match("(%d+) (%d+) (%d+)")
    info.pixels[#info.pixels + 1] = { tonumber(r), tonumber(g), tonumber(b) }
  end
  return info
end

return png
