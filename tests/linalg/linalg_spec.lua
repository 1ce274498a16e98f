-- luma.linalg: every decomposition checked by reconstruction and by its
-- defining identities, plus small cases whose answers are worked out by
-- hand in the comments; inputs come contiguous, as transposed views and
-- as blocks inside larger matrices.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local la = luma.linalg
local M = luma.matrix

-- The same matrix three ways: contiguous, transposed storage, and a block
-- of a larger matrix (strides that LAPACK cannot take directly).
local function layouts(rows)
  local m = M(rows)
  local r, c = m:shape()
  local big = luma.full(r + 2, c + 3, 99)
  local block = big:sub(2, r + 1, 3, c + 2)
  block:assign(m)
  return { contiguous = m, transposed = m:t():copy():t(), block = block }
end

local function eye(n) return luma.eye(n) end

-- S is symmetric positive definite: leading minors 4, 11 and 43.
local S = {{4, 1, 2}, {1, 3, 0}, {2, 0, 5}}
-- G is general with det G = 2(0 - 0) - 1(0 - 2) + 1(0 - 3) = -1.
local G = {{2, 1, 1}, {1, 3, 2}, {1, 0, 0}}

describe("linalg solvers #smoke", function()
  for name, A in pairs(layouts(G)) do
    it("solves general systems with " .. name .. " input", function()
      local x = M{1, 2, 3}
      assert.matrix_near(x, la.solve(A, A * x), 1e-12)
      local X = M{{1, -1}, {2, 0}, {3, 5}}
      assert.matrix_near(X, la.solve(A, A * X), 1e-12)
      assert.matrix_near(X, la.solve(A, (A * X):t():copy():t()), 1e-12)
    end)

    it("inverts " .. name .. " input and takes its determinant", function()
      assert.matrix_near(eye(3), la.inv(A) * A, 1e-12)
      assert.is_true(math.abs(la.det(A) - (-1)) < 1e-12)
      local sign, logabs = la.slogdet(A)
      assert.equal(-1, sign)
      assert.is_true(math.abs(logabs) < 1e-12)
    end)
  end

  it("solves symmetric positive definite systems through Cholesky", function()
    local A = M(S)
    local x = M{1, -2, 0.5}
    assert.matrix_near(x, la.solve(A, A * x, {assume = "spd"}), 1e-12)
    assert.has_error(function() la.solve(M{{1, 2}, {2, 1}}, M{1, 1}, {assume = "spd"}) end,
      "luma.linalg.solve: matrix is not positive definite")
  end)

  it("knows a 2 x 2 inverse", function()
    -- inv {{4, 7}, {2, 6}} = {{6, -7}, {-2, 4}} / (24 - 14)
    assert.matrix_near({{0.6, -0.7}, {-0.2, 0.4}}, la.inv(M{{4, 7}, {2, 6}}), 1e-15)
  end)

  it("multiplies determinants", function()
    local A, B = M(G), M(S)
    assert.is_true(math.abs(la.det(A * B) - la.det(A) * la.det(B)) < 1e-10)
    assert.is_true(math.abs(la.det(M(S)) - 43) < 1e-12)
    assert.equal(1, la.det(luma.zeros(0, 0)))
  end)

  it("keeps log-determinants finite where det overflows", function()
    local D = luma.diag{1e200, 1e200, -1e200}
    local sign, logabs = la.slogdet(D)
    assert.equal(-1, sign)
    assert.is_true(math.abs(logabs - 3 * math.log(1e200)) < 1e-10)
    assert.equal(-math.huge, la.det(D))
    sign, logabs = la.slogdet(M{{1, 2}, {2, 4}})
    assert.equal(0, sign)
    assert.equal(-math.huge, logabs)
    assert.equal(0, la.det(M{{1, 2}, {2, 4}}))
  end)

  it("solves triangular systems by substitution", function()
    -- {{2, 0}, {3, 1}} x = {4, 7}: x1 = 2, x2 = 7 - 3 * 2 = 1
    local L = M{{2, 0}, {3, 1}}
    assert.matrix_near({{2}, {1}}, la.solve_triangular(L, M{4, 7}))
    -- L^T x = {4, 7}: x2 = 7, 2 x1 + 3 * 7 = 4 so x1 = -8.5
    assert.matrix_near({{-8.5}, {7}}, la.solve_triangular(L, M{4, 7}, {trans = true}))
    assert.matrix_near({{-8.5}, {7}}, la.solve_triangular(L:t(), M{4, 7}, {lower = false}))
    -- unit diagonal ignores the stored diagonal: x1 = 4, x2 = 7 - 12 = -5
    assert.matrix_near({{4}, {-5}}, la.solve_triangular(L, M{4, 7}, {unit_diagonal = true}))
    local big = luma.full(4, 4, 7)
    big:sub(1, 2, 1, 2):assign(L)
    assert.matrix_near({{2}, {1}}, la.solve_triangular(big:sub(1, 2, 1, 2), M{4, 7}))
    assert.has_error(function() la.solve_triangular(M{{0, 0}, {1, 1}}, M{1, 1}) end,
      "luma.linalg.solve_triangular: matrix is singular")
  end)

  it("fits least squares with minimum norm", function()
    -- Line through (1, 1), (2, 2), (3, 2): normal equations {{3, 6}, {6, 14}} x = {5, 11}
    -- give x = {2/3, 1/2}.
    local x, rank, s = la.lstsq(M{{1, 1}, {1, 2}, {1, 3}}, M{1, 2, 2})
    assert.matrix_near({{2 / 3}, {0.5}}, x, 1e-12)
    assert.equal(2, rank)
    assert.equal(2, s:rows())
    -- x1 + x2 = 2 has the minimum-norm solution {1, 1}.
    x, rank = la.lstsq(M{{1, 1}}, M{2})
    assert.matrix_near({{1}, {1}}, x, 1e-12)
    assert.equal(1, rank)
    -- A rank-deficient square system: {{1, 2}, {2, 4}} x = {5, 10} has minimum-norm
    -- solution (1, 2) / 5 * 5 = {1, 2}.
    x, rank = la.lstsq(M{{1, 2}, {2, 4}}, M{5, 10})
    assert.matrix_near({{1}, {2}}, x, 1e-12)
    assert.equal(1, rank)
  end)
end)

describe("linalg decompositions #smoke", function()
  for name, A in pairs(layouts(S)) do
    it("factors " .. name .. " input by Cholesky", function()
      local L = la.cholesky(A)
      assert.matrix_near(A, L * L:t(), 1e-12)
      assert.equal(0, L:get(1, 2) + L:get(1, 3) + L:get(2, 3))
      local U = la.cholesky(A, {upper = true})
      assert.matrix_near(L:t(), U, 0)
    end)

    it("diagonalizes " .. name .. " symmetric input", function()
      local w, V = la.eigh(A)
      assert.matrix_near(A * V, V * luma.diag(w), 1e-12)
      assert.matrix_near(eye(3), V:t() * V, 1e-12)
      assert.is_true(w:get(1, 1) <= w:get(2, 1) and w:get(2, 1) <= w:get(3, 1))
      local wd = la.eigh(A, {order = "descending", vectors = false})
      assert.matrix_near(w:take{3, 2, 1}, wd, 1e-12)
      -- trace and determinant are the sum and product of the eigenvalues
      assert.is_true(math.abs(w:sum() - 12) < 1e-12 and math.abs(w:prod() - 43) < 1e-10)
    end)
  end

  it("knows small Cholesky factors and eigenpairs", function()
    assert.matrix_near({{2, 0}, {1, 2}}, la.cholesky(M{{4, 2}, {2, 5}}))
    local w, V = la.eigh(M{{2, 1}, {1, 2}})
    assert.matrix_near({{1}, {3}}, w, 1e-15)
    local r = 1 / math.sqrt(2)
    assert.matrix_near({{r, r}, {r, r}}, V:abs(), 1e-15)
    assert.is_true(V:get(1, 1) * V:get(2, 1) < 0) -- eigenvalue 1: (1, -1) / sqrt 2
  end)

  for name, A in pairs(layouts({{1, 2}, {3, 4}, {5, 6}})) do
    it("factors " .. name .. " tall input by LU, QR and SVD", function()
      local P, L, U = la.lu(A)
      assert.matrix_near(A, P * L * U, 1e-12)
      assert.same({3, 2}, {L:shape()})
      assert.equal(1, L:get(1, 1))
      assert.equal(0, U:get(2, 1))
      -- partial pivoting puts 5, the largest first-column entry, first: L = {{1, 0},
      -- {0.2, 1}, {0.6, 0.5}}, U = {{5, 6}, {0, 0.8}}
      assert.matrix_near({{5, 6}, {0, 0.8}}, U, 1e-12)

      local Q, R = la.qr(A)
      assert.matrix_near(A, Q * R, 1e-12)
      assert.matrix_near(eye(2), Q:t() * Q, 1e-12)
      assert.equal(0, R:get(2, 1))
      local Qc, Rc = la.qr(A, {mode = "complete"})
      assert.same({3, 3}, {Qc:shape()})
      assert.same({3, 2}, {Rc:shape()})
      assert.matrix_near(A, Qc * Rc, 1e-12)
      assert.matrix_near(eye(3), Qc:t() * Qc, 1e-12)
      assert.matrix_near(R, la.qr(A, {mode = "r"}), 0)

      local Us, s, Vt = la.svd(A)
      assert.matrix_near(A, Us * luma.diag(s) * Vt, 1e-12)
      assert.matrix_near(eye(2), Us:t() * Us, 1e-12)
      assert.matrix_near(eye(2), Vt * Vt:t(), 1e-12)
      local Uf, sf, Vtf = la.svd(A, {mode = "full"})
      assert.same({3, 3}, {Uf:shape()})
      assert.matrix_near(eye(3), Uf:t() * Uf, 1e-12)
      assert.matrix_near(s, sf, 1e-12)
      assert.matrix_near(A, Uf:sub(nil, nil, 1, 2) * luma.diag(sf) * Vtf, 1e-12)
      assert.matrix_near(s, la.svd(A, {mode = "values"}), 1e-12)
      -- the singular values squared are the eigenvalues of A^T A = {{35, 44}, {44, 56}}
      local e = la.eigh(M{{35, 44}, {44, 56}}, {order = "descending", vectors = false})
      assert.matrix_near(e, s:pow(2), 1e-12)
    end)
  end

  it("factors wide matrices", function()
    local A = M{{1, 2, 3}, {4, 5, 6}}
    local P, L, U = la.lu(A)
    assert.matrix_near(A, P * L * U, 1e-12)
    assert.same({2, 3}, {U:shape()})
    local Q, R = la.qr(A)
    assert.matrix_near(A, Q * R, 1e-12)
    assert.same({2, 2}, {Q:shape()})
    local U2, s, Vt = la.svd(A)
    assert.matrix_near(A, U2 * luma.diag(s) * Vt, 1e-12)
  end)

  it("knows singular values of a diagonal matrix", function()
    assert.matrix_near({{4}, {3}}, la.svd(M{{3, 0}, {0, -4}}, {mode = "values"}), 1e-15)
  end)

  it("solves the generalized symmetric problem", function()
    -- diag(4, 3) v = lambda diag(2, 1) v: lambda = 2 and 3
    local w = la.eigh_generalized(luma.diag{4, 3}, luma.diag{2, 1}, {vectors = false})
    assert.matrix_near({{2}, {3}}, w, 1e-14)
    for name, A in pairs(layouts(G)) do
      local Asym = (A + A:t()) / 2
      local B = M(S)
      local wg, V = la.eigh_generalized(Asym, B)
      assert.matrix_near(Asym * V, B * V * luma.diag(wg), 1e-12) -- A V = B V diag(w)
      assert.matrix_near(eye(3), V:t() * B * V, 1e-12, name)       -- B-orthonormal
    end
    assert.has_error(function() la.eigh_generalized(M(S), M{{1, 2}, {2, 1}}) end)
    assert.has_error(function() la.eigh_generalized(M(S), M{{1, 0, 0}, {0, -1, 0}, {0, 0, 1}}) end,
      "luma.linalg.eigh_generalized: B is not positive definite")
  end)

  it("finds complex eigenvalues of general matrices", function()
    -- rotation by 90 degrees: eigenvalues +i and -i
    local wr, wi, Vr, Vi = la.eig(M{{0, -1}, {1, 0}})
    assert.matrix_near({{0}, {0}}, wr, 1e-15)
    assert.matrix_near({{1}, {-1}}, wi, 1e-15)
    for name, A in pairs(layouts({{1, 2, 0}, {-2, 1, 0}, {0, 0, 3}})) do
      wr, wi, Vr, Vi = la.eig(A)
      -- A (Vr + i Vi) = (Vr + i Vi)(Wr + i Wi), split into real and imaginary parts
      local Wr, Wi = luma.diag(wr), luma.diag(wi)
      assert.matrix_near(Vr * Wr - Vi * Wi, A * Vr, 1e-12, name)
      assert.matrix_near(Vr * Wi + Vi * Wr, A * Vi, 1e-12, name)
      -- eigenvalues 1 +- 2i and 3: the trace is 5
      assert.is_true(math.abs(wr:sum() - 5) < 1e-12)
      assert.is_true(math.abs(wi:abs():sum() - 4) < 1e-12)
    end
    local wr2, wi2 = la.eig(luma.diag{2, 3}, {vectors = false})
    assert.matrix_near({{2}, {3}}, wr2:sort())
    assert.matrix_near({{0}, {0}}, wi2)
  end)
end)

describe("linalg derived quantities #smoke", function()
  local D = M{{1, 2}, {2, 4}} -- rank 1: 5 u u^T with u = (1, 2) / sqrt 5

  it("pseudo-inverts, meeting the Moore-Penrose conditions", function()
    assert.matrix_near(D / 25, la.pinv(D), 1e-14) -- pinv = u u^T / 5 = D / 25
    for name, A in pairs(layouts({{1, 2}, {3, 4}, {5, 6}})) do
      local P = la.pinv(A)
      assert.matrix_near(A, A * P * A, 1e-12, name)
      assert.matrix_near(P, P * A * P, 1e-12, name)
      assert.matrix_near((A * P):t(), A * P, 1e-12, name)
      assert.matrix_near((P * A):t(), P * A, 1e-12, name)
    end
  end)

  it("measures rank, norms and conditioning", function()
    assert.equal(1, la.rank(D))
    assert.equal(3, la.rank(eye(3)))
    assert.equal(0, la.rank(luma.zeros(2, 3)))
    assert.equal(2, la.rank(luma.diag{1, 1e-3}))
    assert.equal(1, la.rank(luma.diag{1, 1e-3}, {tol = 1e-2}))
    local A = M{{1, 2}, {3, 4}}
    assert.is_true(math.abs(la.norm(A, "fro") - math.sqrt(30)) < 1e-14)
    assert.equal(6, la.norm(A, 1))         -- column sums 4 and 6
    assert.equal(7, la.norm(A, math.huge)) -- row sums 3 and 7
    assert.equal(7, la.norm(A, "inf"))
    local s = la.svd(A, {mode = "values"})
    assert.is_true(math.abs(la.norm(A) - s:get(1, 1)) < 1e-14)
    assert.is_true(math.abs(la.norm(A, "nuc") - s:sum()) < 1e-14)
    assert.is_true(math.abs(la.cond(luma.diag{1, 10}) - 10) < 1e-14)
    assert.is_true(math.abs(la.cond(luma.diag{1, 10}, 1) - 10) < 1e-14)
    assert.is_true(la.cond(D) > 1e15) -- s_min is rounding noise, as in NumPy
    assert.equal(math.huge, la.cond(luma.zeros(2, 2), 1))
    -- numpy.linalg.cond (NumPy 1.24, Debian /usr/bin/python3) of
    -- A = [[4, 1, 2], [0.5, 3, 1], [2, -1, 5]] for p = None, 1, inf, "fro",
    -- "nuc", of [[1, 2], [3, 4], [5, 7]] (p = None) and of the 5 x 5
    -- Hilbert matrix 1 / (i + j - 1) (p = None and 1)
    local A = M{{4, 1, 2}, {0.5, 3, 1}, {2, -1, 5}}
    local function rel(expected, got) return math.abs(got - expected) <= 1e-13 * expected end
    assert.is_true(rel(3.059659155864061, la.cond(A)))
    assert.is_true(rel(3.059659155864061, la.cond(A, 2)))
    assert.is_true(rel(4.594059405940595, la.cond(A, 1)))
    assert.is_true(rel(4.435643564356436, la.cond(A, math.huge)))
    assert.is_true(rel(4.435643564356436, la.cond(A, "inf")))
    assert.is_true(rel(4.399079650828779, la.cond(A, "fro")))
    assert.is_true(rel(11.047164627675778, la.cond(A, "nuc")))
    assert.is_true(rel(27.759144994596202, la.cond(M{{1, 2}, {3, 4}, {5, 7}})))
    local H = luma.zeros(5, 5)
    for i = 1, 5 do for j = 1, 5 do H:set(i, j, 1 / (i + j - 1)) end end
    assert.is_true(math.abs(la.cond(H) - 476607.2502419338) < 1e-9 * 476607.25)
    assert.is_true(math.abs(la.cond(H, 1) - 943656.0000017195) < 1e-9 * 943656)
    -- the definitions themselves: s_max / s_min and norm(A, p) norm(inv(A), p)
    local sv = la.svd(A, { mode = "values" })
    assert.is_true(rel(sv:max() / sv:min(), la.cond(A)))
    assert.is_true(rel(la.norm(A, "fro") * la.norm(la.inv(A), "fro"), la.cond(A, "fro")))
  end)

  it("spans null spaces and ranges", function()
    local N = la.null_space(D)
    assert.same({2, 1}, {N:shape()})
    assert.matrix_near({{0}, {0}}, D * N, 1e-14)
    assert.is_true(math.abs(N:norm() - 1) < 1e-14)
    local O = la.orth(D)
    assert.same({2, 1}, {O:shape()})
    assert.is_true(math.abs(math.abs(O:get(2, 1) / O:get(1, 1)) - 2) < 1e-12)
    assert.equal(0, la.null_space(eye(2)):cols())
  end)

  it("raises matrices to integer powers", function()
    -- Fibonacci: {{1, 1}, {1, 0}}^10 = {{F11, F10}, {F10, F9}}
    assert.matrix_near({{89, 55}, {55, 34}}, la.matrix_power(M{{1, 1}, {1, 0}}, 10))
    assert.matrix_near(eye(2), la.matrix_power(M{{1, 1}, {1, 0}}, 0))
    assert.matrix_near(la.inv(M(G)) * la.inv(M(G)), la.matrix_power(M(G), -2), 1e-12)
  end)

  it("orthonormalizes with Gram-Schmidt, dropping dependent columns", function()
    -- columns (1,0,0), (2,0,0) (dependent) and (0,1,0)
    local Q, R = la.gram_schmidt(M{{1, 2, 0}, {0, 0, 1}, {0, 0, 0}})
    assert.matrix_near({{1, 0}, {0, 1}, {0, 0}}, Q)
    assert.matrix_near({{1, 2, 0}, {0, 0, 1}}, R)
    for name, A in pairs(layouts(G)) do
      local Q3, R3 = la.gram_schmidt(A)
      assert.matrix_near(eye(3), Q3:t() * Q3, 1e-12, name)
      assert.matrix_near(A, Q3 * R3, 1e-12, name)
    end
  end)

  it("finds dominant eigenpairs by power iteration with peeling", function()
    local A = M(S)
    local w = la.eigh(A, {order = "descending", vectors = false})
    local values, vectors = la.power_iteration(A, {k = 3, rng = luma.random.Generator(1)})
    assert.matrix_near(w, values, 1e-9)
    assert.matrix_near(A * vectors, vectors * luma.diag(values), 1e-6)
    -- a negative dominant eigenvalue keeps its sign (the Rayleigh quotient)
    local v1 = la.power_iteration(luma.diag{-5, 1})
    assert.is_true(math.abs(v1:get(1, 1) + 5) < 1e-9)
    assert.has_error(function() la.power_iteration(luma.diag{1, -1}, {max_iter = 50}) end,
      "luma.linalg.power_iteration: did not converge in 50 iterations (two eigenvalues of "
      .. "nearly equal magnitude?); raise max_iter or use eigh")
  end)
end)

describe("linalg errors", function()
  it("names bad shapes, singular and indefinite matrices", function()
    assert.has_error(function() la.solve(M{{1, 2, 3}, {4, 5, 6}}, M{1, 2}) end,
      "bad argument #1 to 'solve' (expected a square matrix, got 2 x 3)")
    assert.has_error(function() la.solve(M(G), M{1, 2}) end,
      "bad argument #2 to 'solve' (A is 3 x 3 but b has 2 rows (expected 3))")
    assert.error_matches(function() la.solve(M{{1, 2}, {2, 4}}, M{1, 1}) end,
      "^luma.linalg.solve: matrix is singular %(reciprocal condition number 0")
    -- rounding leaves a pivot of about 1e-16 here: singular to working precision
    assert.error_matches(function() la.solve(M{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, M{1, 1, 1}) end,
      "^luma.linalg.solve: matrix is singular")
    assert.error_matches(function() la.inv(M{{1, 2}, {2, 4}}) end,
      "^luma.linalg.inv: matrix is singular")
    assert.has_error(function() la.cholesky(M{{1, 2}, {2, 1}}) end,
      "luma.linalg.cholesky: matrix is not positive definite")
    assert.has_error(function() la.cholesky(M{{1, 2}, {0, 1}}) end,
      "bad argument #1 to 'cholesky' (matrix is not symmetric (max |A - A^T| = 2.0); "
      .. "symmetrize it with (A + A:t()) / 2 or use eig)")
    assert.error_matches(function() la.eigh(M{{0 / 0, 1}, {1, 0}}) end,
      "bad argument #1 to 'eigh' %(matrix has a non%-finite element %(%-?nan at %[1%]%[1%]%)%)")
    assert.error_matches(function() la.svd(M{{1, math.huge}}) end, "non%-finite element")
    assert.has_error(function() la.solve(M(G), M{1, 2, 3}, {assume = "sym"}) end,
      "bad argument #3 to 'solve' (option 'assume' must be one of general|spd)")
    assert.has_error(function() la.qr(M(G), {mod = "r"}) end,
      "bad argument #2 to 'qr' (unknown option 'mod' (valid: mode))")
    assert.has_error(function() la.cholesky(M(S), {upper = 1}) end,
      "bad argument #2 to 'cholesky' (option 'upper' must be a boolean, got number)")
    assert.has_error(function() la.pinv(M(S), {rtol = -1}) end,
      "bad argument #2 to 'pinv' (option 'rtol' must be a finite number >= 0)")
    assert.has_error(function() la.power_iteration(M(S), {k = 4}) end,
      "bad argument #2 to 'power_iteration' (option 'k' must be in [1, 3], got 4)")
    assert.has_error(function() la.eigh_generalized(M(S), eye(2)) end,
      "bad argument #2 to 'eigh_generalized' (A is 3 x 3 but B is 2 x 2)")
    assert.has_error(function() la.norm(M(S), 3) end,
      "bad argument #2 to 'norm' (matrix norm p must be 1, 2, math.huge, \"inf\", \"fro\" or \"nuc\")")
    assert.has_error(function() la.cond(M{{1, 2, 3}}, 1) end,
      "bad argument #1 to 'cond' (cond with p other than 2 needs a square matrix, got 1 x 3)")
    assert.has_error(function() la.det("x") end,
      "bad argument #1 to 'det' (luma.Matrix expected, got string)")
  end)

  it("handles empty matrices", function()
    assert.equal(0, la.inv(luma.zeros(0, 0)):rows())
    assert.equal(0, la.solve(luma.zeros(0, 0), luma.zeros(0, 2)):rows())
    assert.equal(0, la.eigh(luma.zeros(0, 0)):rows())
    local U, s, Vt = la.svd(luma.zeros(0, 3), {mode = "full"})
    assert.equal(0, s:rows())
    assert.matrix_near(eye(3), Vt)
    assert.equal(0, U:rows())
  end)

  it("reports an allocation too large to satisfy as a memory error", function()
    -- 1e12 elements are within the size limit (2^40) but 8 TB cannot be had
    assert.error_matches(function() la.inv(luma.zeros(1e6, 1e6)) end, "not enough memory")
  end)
end)
