-- What the built libraries link and load (issue 34 item 4): libluma.so
-- and the C module link Lua, BLAS/LAPACK through Debian's alternatives,
-- libm, zlib and FreeType only, with no RUNPATH; Open MPI is loaded only
-- when a script uses MPI; results are the same with the reference BLAS.
-- SPDX-License-Identifier: MIT
local support = require("support")

local build = support.build
local sanitized = os.getenv("LUMA_SANITIZED") == "1"

-- The libraries a file names itself (DT_NEEDED), as a sorted list.
local function needed(file)
  local out, err, code = support.run("readelf -d " .. support.quote(file))
  assert(code == 0, err)
  local libs = {}
  for lib in out:gmatch("%(NEEDED%)%s+Shared library: %[([^%]]+)%]") do libs[#libs + 1] = lib end
  table.sort(libs)
  return libs, out
end

-- The allowed direct dependencies (the sanitizers' runtimes besides).
local ALLOWED = {
  ["liblua5.4.so.0"] = true, ["libblas.so.3"] = true, ["liblapack.so.3"] = true,
  ["libfreetype.so.6"] = true, ["libz.so.1"] = true, ["libmvec.so.1"] = true,
  ["libm.so.6"] = true, ["libc.so.6"] = true, ["libpthread.so.0"] = true, ["libdl.so.2"] = true,
  ["libedit.so.2"] = true, -- the luma command's line editor (not the libraries)
}

local REFERENCE_BLAS = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"
local REFERENCE_LAPACK = "/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3"

describe("linkage", function()
  for _, name in ipairs{ "libluma.so", "luma.so", "luma" } do
    it(name .. " links only Lua, BLAS, LAPACK, libm, zlib and FreeType, without a RUNPATH", function()
      local libs, dynamic = needed(build .. "/" .. name)
      for _, lib in ipairs(libs) do
        -- (the sanitizers' runtimes, and the unwinder they need)
        if not (sanitized and (lib:match("^libclang_rt") or lib:match("^libgcc_s")
            or lib:match("^libasan") or lib:match("^libubsan"))) then
          assert(ALLOWED[lib] and (lib ~= "libedit.so.2" or name == "luma"),
            name .. " links " .. lib)
        end
      end
      assert.truthy(table.concat(libs, " "):find("libblas.so.3", 1, true))
      assert.truthy(table.concat(libs, " "):find("liblapack.so.3", 1, true))
      assert.falsy(dynamic:find("RUNPATH", 1, true) or dynamic:find("RPATH", 1, true))
    end)
  end

  it("libluma.so loads no MPI, hwloc, libevent or PMIx library", function()
    local out, err, code = support.run("ldd " .. support.quote(build .. "/libluma.so"))
    assert.equal(0, code, err)
    for _, bad in ipairs{ "mpi", "open%-pal", "open%-rte", "hwloc", "event", "pmix", "openblas%-pthread/libopenblas" } do
      assert.is_nil(out:match("lib[%w_%-]*" .. bad .. "[^\n]*"), out)
    end
  end)
end)

describe("Open MPI on demand", function()
  -- whether libmpi is mapped into the process after `code`
  local function mpi_mapped(code, env)
    local out, err, status = support.luma_run({ "-e", code .. [[
      for line in io.lines("/proc/self/maps") do
        if line:find("libmpi.so", 1, true) then io.write("mapped") return end
      end
      io.write("not mapped")]] }, nil, env)
    assert.equal(0, status, err)
    return out
  end

  it("is not loaded by luma.nn (which requires luma.mpi) nor by rank() outside a launcher", function()
    assert.equal("not mapped", mpi_mapped("require('luma.nn'); assert(luma.mpi.rank() == 0)"))
  end)

  it("is loaded when a script asks whether it is available", function()
    local _, _, code = support.luma_run({ "-e", "os.exit(luma.mpi.available and 0 or 1)" })
    if code ~= 0 then return pending("Open MPI is not installed or not in this build") end
    assert.equal("mapped", mpi_mapped("assert(luma.mpi.available)"))
  end)

  it("is a clear error when its library cannot be loaded", function()
    local env = { LUMA_MPI_LIBRARY = "/nonexistent/libmpi.so.40" }
    local out, err, code = support.luma_run({ "-e", [[
      io.write(tostring(luma.mpi.available), "\n", tostring(luma.mpi.why), "\n")
      local ok, e = pcall(luma.parallel.map, function(t) return t end, { 1 }, { backend = "mpi" })
      io.write(tostring(ok), "\n", e, "\n")
      local ok2, e2 = pcall(luma.mpi.run, function() return true, "" end, 1, "")
      io.write(tostring(ok2), "\n", e2)]] }, nil, env)
    assert.equal(0, code, err)
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal("false", lines[1])
    assert.equal("false", lines[3])
    assert.equal("false", lines[5])
    if lines[2] == "nil" then return pending("this build has no Open MPI") end
    local why = "luma.parallel: the mpi backend needs Open MPI: Open MPI's library cannot be "
      .. "loaded (/nonexistent/libmpi.so.40: cannot open shared object file: No such file or "
      .. "directory); install Open MPI (Debian: apt install libopenmpi3) or run without MPI"
    assert.equal(why, lines[2])
    assert.equal(why, lines[4])
    assert.equal("(command line):4: luma.mpi: Open MPI's library cannot be loaded (/nonexistent/"
      .. "libmpi.so.40: cannot open shared object file: No such file or directory); install "
      .. "Open MPI (Debian: apt install libopenmpi3) or run without MPI", lines[6])
  end)
end)

describe("the reference BLAS and LAPACK", function()
  -- Exact answers: A x = b has x = (2, 1, 13) / 9; A's eigenvalues are
  -- 3 - sqrt(3), 3, 3 + sqrt(3); the singular values of [1 2; 3 4; 5 6]
  -- are the square roots of the eigenvalues of its Gram matrix
  -- [35 44; 44 56], (91 +- sqrt(8185)) / 2; det A = 18; and Ridge(alpha =
  -- 1) on diabetes scores R^2 0.4512306277 (scikit-learn 1.2.1 prints the
  -- same: Ridge(alpha=1).fit(X, y).score(X, y)).
  local script = [[
    local A = luma.matrix{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}
    local function flat(m)
      local t = {}
      for i = 1, m:rows() do for j = 1, m:cols() do t[#t + 1] = m:get(i, j) end end
      return t
    end
    local x = flat(luma.linalg.solve(A, luma.matrix{{1}, {2}, {3}}))
    local w = flat((luma.linalg.eigh(A)))
    local _, s = luma.linalg.svd(luma.matrix{{1, 2}, {3, 4}, {5, 6}})
    s = flat(s)
    local AA = flat(A * A)
    local X, y = luma.datasets.load("diabetes")
    local r2 = luma.linear.Ridge{alpha = 1}:fit(X, y):score(X, y)
    local c = luma.config()
    local out = { c.blas, c.lapack, c.blas_threads, tostring(c.blas_core) }
    for _, v in ipairs{ x[1], x[2], x[3], w[1], w[2], w[3], s[1], s[2], AA[1], AA[2], AA[5],
                        luma.linalg.det(A), r2 } do
      out[#out + 1] = string.format("%.17g", v)
    end
    io.write(table.concat(out, "\n"))
  ]]

  local function run(env)
    local out, err, code = support.luma_run({ "-e", script }, nil, env)
    assert.equal(0, code, err)
    local t = {}
    for line in out:gmatch("[^\n]+") do t[#t + 1] = line end
    return t
  end

  local function check(t)
    local expected = { 2 / 9, 1 / 9, 13 / 9, 3 - math.sqrt(3), 3, 3 + math.sqrt(3),
      math.sqrt((91 + math.sqrt(8185)) / 2), math.sqrt((91 - math.sqrt(8185)) / 2), 17, 7, 11, 18 }
    for k, e in ipairs(expected) do
      assert.near(e, tonumber(t[4 + k]), 1e-12 * math.max(1, math.abs(e)))
    end
    assert.near(0.4512306277, tonumber(t[17]), 1e-10)
  end

  it("give the same results as the default BLAS (OpenBLAS), selected by the loader's path", function()
    local f = io.open(REFERENCE_BLAS, "rb")
    local g = io.open(REFERENCE_LAPACK, "rb")
    if f then f:close() end
    if g then g:close() end
    if not (f and g) then return pending("libblas3 and liblapack3 are not installed") end
    if sanitized then return pending("the sanitizers' runtime is preloaded ahead of the path") end
    -- the loader's path selects them, as update-alternatives would for
    -- the machine (which needs root and changes it for everyone)
    local reference = run{ LD_LIBRARY_PATH = REFERENCE_BLAS:match("^(.*)/") .. ":"
      .. REFERENCE_LAPACK:match("^(.*)/") }
    assert.equal(REFERENCE_BLAS, reference[1]:sub(1, #REFERENCE_BLAS)) -- libblas.so.3.11.0
    assert.truthy(reference[2]:find("/lapack/liblapack.so.3", 1, true))
    assert.equal("1", reference[3]) -- no OpenBLAS threads to count
    assert.equal("nil", reference[4])
    check(reference)
    local default = run()
    check(default)
    for k = 5, #default do
      assert.near(tonumber(default[k]), tonumber(reference[k]),
        1e-12 * math.max(1, math.abs(tonumber(default[k]))))
    end
  end)
end)
