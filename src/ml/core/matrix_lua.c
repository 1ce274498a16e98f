/*
 * matrix_lua.c - Lua binding of the matrix kernel (luma.matrix) and the
 * matrix part of the C embedding API.
 *
 * Memory: an owned matrix keeps its elements inside its own full userdata
 * (header, padding, then the doubles), so the collector sees its true size
 * and a loop of temporaries never needs collectgarbage().  A view is a bare
 * header whose user value 1 is the userdata that owns the storage; a wrapped
 * host buffer is a header whose user value 1 is a small guard userdata that
 * runs the host's release callback from its __gc.  The matrix type itself
 * has no __gc: an object with a finalizer survives one extra collection
 * cycle, which for large temporaries would double the heap.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "core/numtext.h"

enum { MAT_OWNED, MAT_VIEW, MAT_EXTERNAL };

typedef struct MatrixUD {
  luma_Mat m;
  int kind;
  int row_handle;   /* made by A[i]: indexing it with j reaches element (i, j) */
  uint64_t version; /* of a storage owner: Luma's in-place writes so far */
} MatrixUD;

/* Keeps a wrapped host buffer's release callback; finalized when the last
 * matrix or view using the buffer is garbage. */
typedef struct HostBuffer {
  luma_ReleaseFunction release;
  void *ctx;
  double *data;
} HostBuffer;

/* Elements start 16-byte aligned after the header. */
#define STORAGE_OFFSET ((sizeof(MatrixUD) + 15) & ~(size_t)15)

static const luma_Type matrix_type; /* defined at the end, with its methods */

/* ------------------------------------------------------------ creation */

/* The name of the C function running (for errors raised on its behalf). */
static const char *running_function(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) return ar.name;
  return "?";
}

luma_Mat *luma_matrix_new(lua_State *L, int64_t rows, int64_t cols) {
  int64_t n = luma_mat_checked_size(rows, cols);
  if (n < 0)
    luaL_error(L, "'%s' cannot create a %I x %I luma.Matrix (sizes must be >= 0, each at "
               "most 2^31 - 1, and the product at most 2^40)", running_function(L), (lua_Integer)rows,
               (lua_Integer)cols);
  MatrixUD *ud = lua_newuserdatauv(L, STORAGE_OFFSET + (size_t)n * sizeof(double), 1);
  ud->m = luma_mat_dense((double *)((char *)ud + STORAGE_OFFSET), rows, cols);
  ud->kind = MAT_OWNED;
  ud->row_handle = 0;
  ud->version = 0;
  luma_type_setmetatable(L, &matrix_type);
  return &ud->m;
}

/* Pushes a view of base (the matrix at base_idx, absolute); its
 * metatable is at mt_idx, or found by luma_type_setmetatable when mt_idx
 * is 0. */
static MatrixUD *push_view(lua_State *L, int base_idx, const MatrixUD *base, luma_Mat view,
                           int mt_idx) {
  MatrixUD *ud = lua_newuserdatauv(L, sizeof(MatrixUD), 1);
  ud->m = view;
  ud->kind = MAT_VIEW;
  ud->row_handle = 0;
  ud->version = 0;
  if (mt_idx != 0) {
    lua_pushvalue(L, mt_idx);
    lua_setmetatable(L, -2);
  } else {
    luma_type_setmetatable(L, &matrix_type);
  }
  /* Keep the storage owner itself alive, not a chain of views. */
  if (base->kind == MAT_VIEW)
    lua_getiuservalue(L, base_idx, 1);
  else
    lua_pushvalue(L, base_idx);
  lua_setiuservalue(L, -2, 1);
  return ud;
}

luma_Mat *luma_matrix_push_view(lua_State *L, int base_idx, luma_Mat view) {
  base_idx = lua_absindex(L, base_idx);
  return &push_view(L, base_idx, lua_touserdata(L, base_idx), view, 0)->m;
}

luma_Mat *luma_matrix_check(lua_State *L, int arg) {
  return &((MatrixUD *)luma_type_check(L, arg, &matrix_type))->m;
}

/* The userdata owning the storage of the matrix at idx: itself, or a
 * view's base (kept alive by the view's user value). */
static MatrixUD *owner_of(lua_State *L, int idx) {
  MatrixUD *ud = lua_touserdata(L, idx);
  if (ud->kind != MAT_VIEW) return ud;
  lua_getiuservalue(L, idx, 1);
  MatrixUD *base = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return base;
}

void luma_matrix_touch(lua_State *L, int idx) {
  owner_of(L, lua_absindex(L, idx))->version++;
}

/* luma_matrix_touch for the matrix ud at idx, checked already: an owner
 * needs no further Lua call. */
static void touch(lua_State *L, int idx, MatrixUD *ud) {
  if (ud->kind == MAT_VIEW)
    luma_matrix_touch(L, idx);
  else
    ud->version++;
}

/* A:version() -> integer: see luma_open_matrix's help. */
static int m_version(lua_State *L) {
  luma_matrix_check(L, 1);
  lua_pushinteger(L, (lua_Integer)owner_of(L, 1)->version);
  return 1;
}

void luma_matrix_check_finite(lua_State *L, int arg, const luma_Mat *m, const char *what,
                              int data) {
  for (int64_t i = 0; m->cols > 0 && i < m->rows; i++)
    for (int64_t j = 0; j < m->cols; j++) {
      double v = LUMA_AT(m, i, j);
      if (isfinite(v)) continue;
      /* nan whatever sign the C library would print */
      const char *text = v != v ? "nan" : (v > 0 ? "inf" : "-inf");
      luma_arg_error(L, arg, "%s has a non-finite element, %s at row %I, column %I%s", what, text,
                     (lua_Integer)(i + 1), (lua_Integer)(j + 1),
                     data && v != v ? "; impute missing values first, e.g. with "
                              "luma.preprocessing.SimpleImputer"
                            : "");
    }
}

luma_Mat *luma_matrix_test(lua_State *L, int idx) {
  MatrixUD *ud = luma_type_test(L, idx, &matrix_type);
  return ud ? &ud->m : NULL;
}

void luma_matrix_add_metamethods(lua_State *L, const luaL_Reg *metamethods) {
  luma_type_register(L, &matrix_type);
  luaL_setfuncs(L, metamethods, 0);
  lua_pop(L, 1);
}

void luma_matrix_add_methods(lua_State *L, const luma_Func *methods) {
  luma_type_register(L, &matrix_type);
  lua_getfield(L, -1, "__methods");
  luma_register_funcs(L, -1, matrix_type.name, methods);
  lua_pop(L, 2);
}

static int64_t check_size(lua_State *L, int arg, const char *what) {
  return luma_check_int_range(L, arg, what, 0, LUMA_MAX_DIM);
}

/* Reads a number from a table being converted; names the offending spot. */
static double table_number(lua_State *L, int arg, lua_Integer i, lua_Integer j) {
  int isnum = 0;
  double v = lua_tonumberx(L, -1, &isnum);
  if (!isnum || lua_type(L, -1) == LUA_TSTRING) {
    if (j > 0)
      luma_arg_error(L, arg, "element [%I][%I] is a %s, expected a number", i, j,
                     luaL_typename(L, -1));
    luma_arg_error(L, arg, "element [%I] is a %s, expected a number", i, luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}

/* matrix{{1,2},{3,4}} | matrix{1,2,3} (a column) | matrix(flat, rows, cols) */
static int m_new(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  luma_charge(L, 2 * (uint64_t)n); /* the rows or numbers read (nested rows: charged below) */
  if (!lua_isnoneornil(L, 2)) {
    int64_t rows = check_size(L, 2, "rows"), cols = check_size(L, 3, "cols");
    if (luma_mat_checked_size(rows, cols) != n)
      return luma_arg_error(L, 1, "table has %I numbers but the shape %I x %I needs %I", n,
                            (lua_Integer)rows, (lua_Integer)cols, (lua_Integer)(rows * cols));
    luma_Mat *m = luma_matrix_new(L, rows, cols);
    for (lua_Integer k = 1; k <= n; k++) {
      lua_rawgeti(L, 1, k);
      m->data[k - 1] = table_number(L, 1, k, 0);
    }
    return 1;
  }
  if (n > 0 && lua_rawgeti(L, 1, 1) == LUA_TTABLE) { /* nested rows */
    lua_Integer cols = (lua_Integer)lua_rawlen(L, -1);
    lua_pop(L, 1);
    luma_Mat *m = luma_matrix_new(L, n, cols);
    for (lua_Integer i = 1; i <= n; i++) {
      if (lua_rawgeti(L, 1, i) != LUA_TTABLE)
        return luma_arg_error(L, 1, "row %I is a %s, expected a table", i,
                              luaL_typename(L, -1));
      lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
      luma_charge(L, 2 * (uint64_t)len);
      if (len != cols)
        return luma_arg_error(L, 1, "ragged rows: row 1 has %I elements but row %I has %I",
                              cols, i, len);
      for (lua_Integer j = 1; j <= cols; j++) {
        lua_rawgeti(L, -1, j);
        LUMA_AT(m, i - 1, j - 1) = table_number(L, 1, i, j);
      }
      lua_pop(L, 1);
    }
    return 1;
  }
  if (n > 0) lua_pop(L, 1);
  luma_Mat *m = luma_matrix_new(L, n, 1); /* a flat table is a column vector */
  for (lua_Integer k = 1; k <= n; k++) {
    lua_rawgeti(L, 1, k);
    m->data[k - 1] = table_number(L, 1, k, 0);
  }
  return 1;
}

/* matrix is also callable as luma.matrix{...}: __call drops the module arg */
static int m_call(lua_State *L) {
  lua_remove(L, 1);
  return m_new(L);
}

static int m_full_shape(lua_State *L, double value) {
  int64_t rows = check_size(L, 1, "rows");
  int64_t cols = lua_isnoneornil(L, 2) ? 1 : check_size(L, 2, "cols");
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  luma_charge(L, (uint64_t)(rows * cols));
  luma_mat_fill(m, value);
  return 1;
}

static int m_zeros(lua_State *L) { return m_full_shape(L, 0.0); }
static int m_ones(lua_State *L) { return m_full_shape(L, 1.0); }

static int m_full(lua_State *L) {
  double value = luaL_checknumber(L, 3);
  lua_settop(L, 2);
  return m_full_shape(L, value);
}

static int m_eye(lua_State *L) {
  int64_t rows = check_size(L, 1, "rows");
  int64_t cols = lua_isnoneornil(L, 2) ? rows : check_size(L, 2, "cols");
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  luma_charge(L, (uint64_t)(rows * cols));
  luma_mat_set_identity(m);
  return 1;
}

static int m_ismatrix(lua_State *L) {
  lua_pushboolean(L, luma_type_test(L, 1, &matrix_type) != NULL);
  return 1;
}

/* ------------------------------------------------------ shape and access */

static int m_shape(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  lua_pushinteger(L, m->rows);
  lua_pushinteger(L, m->cols);
  return 2;
}

static int m_rows(lua_State *L) {
  lua_pushinteger(L, luma_matrix_check(L, 1)->rows);
  return 1;
}

static int m_cols(lua_State *L) {
  lua_pushinteger(L, luma_matrix_check(L, 1)->cols);
  return 1;
}

/* get and set are the scalar path of script loops: each Lua API call
 * counts, so the matrix is checked once and its version bumped directly
 * unless it is a view. */
static int m_get(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t i = luma_check_index(L, 2, "row", m->rows), j = luma_check_index(L, 3, "column", m->cols);
  lua_pushnumber(L, LUMA_AT(m, i, j));
  return 1;
}

static int m_set(lua_State *L) {
  MatrixUD *ud = luma_type_check(L, 1, &matrix_type);
  luma_Mat *m = &ud->m;
  int64_t i = luma_check_index(L, 2, "row", m->rows), j = luma_check_index(L, 3, "column", m->cols);
  LUMA_AT(m, i, j) = luaL_checknumber(L, 4);
  touch(L, 1, ud);
  lua_pushvalue(L, 1);
  return 1;
}

/* A new Lua table, and a number stored in one, cost about as much as
 * this many element operations (measured: ~90 ns a number with the
 * collector's share). */
#define TABLE_UNITS 32
#define ENTRY_UNITS 8

static int m_totable(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  /* rows <= 2^31 - 1 fit an int; a huge empty matrix is refused by the
   * memory limit at once (the array part is allocated here), and the rows
   * are charged as they are made */
  lua_createtable(L, (int)m->rows, 0);
  int64_t row_units = TABLE_UNITS + ENTRY_UNITS * m->cols;
  int64_t rows_per_charge = LUMA_WORK_CHUNK / row_units + 1;
  for (int64_t i = 0; i < m->rows; i++) {
    if (i % rows_per_charge == 0)
      luma_charge(L, (uint64_t)((m->rows - i < rows_per_charge ? m->rows - i : rows_per_charge) *
                                row_units));
    lua_createtable(L, (int)m->cols, 0);
    for (int64_t j = 0; j < m->cols; j++) {
      lua_pushnumber(L, LUMA_AT(m, i, j));
      lua_rawseti(L, -2, j + 1);
    }
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int m_copy(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Mat *c = luma_matrix_new(L, m->rows, m->cols);
  luma_charge(L, (uint64_t)(m->rows * m->cols));
  luma_mat_copy(c, m);
  return 1;
}

static int m_fill(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  double v = luaL_checknumber(L, 2);
  luma_charge(L, (uint64_t)(m->rows * m->cols));
  luma_mat_fill(m, v);
  luma_matrix_touch(L, 1);
  lua_settop(L, 1);
  return 1;
}

static int m_is_contiguous(lua_State *L) {
  lua_pushboolean(L, luma_mat_is_contiguous(luma_matrix_check(L, 1)));
  return 1;
}

static int m_t(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_matrix_push_view(L, 1, luma_mat_transpose(m));
  return 1;
}

static int m_row(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t i = luma_check_index(L, 2, "row", m->rows);
  luma_matrix_push_view(L, 1, luma_mat_block(m, i, 0, 1, m->cols));
  return 1;
}

static int m_col(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t j = luma_check_index(L, 2, "column", m->cols);
  luma_matrix_push_view(L, 1, luma_mat_block(m, 0, j, m->rows, 1));
  return 1;
}

/* sub(r1, r2, c1, c2): the block of rows r1..r2 and columns c1..c2,
 * inclusive and 1-based; omitted bounds mean the whole range. */
static int m_sub(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int64_t r1 = lua_isnoneornil(L, 2) ? 0 : luma_check_index(L, 2, "first row", m->rows);
  int64_t r2 = lua_isnoneornil(L, 3) ? m->rows - 1 : luma_check_index(L, 3, "last row", m->rows);
  int64_t c1 = lua_isnoneornil(L, 4) ? 0 : luma_check_index(L, 4, "first column", m->cols);
  int64_t c2 = lua_isnoneornil(L, 5) ? m->cols - 1 : luma_check_index(L, 5, "last column", m->cols);
  if (r2 < r1) return luma_arg_error(L, 3, "last row %I is before first row %I", r2 + 1, r1 + 1);
  if (c2 < c1)
    return luma_arg_error(L, 5, "last column %I is before first column %I", c2 + 1, c1 + 1);
  luma_matrix_push_view(L, 1, luma_mat_block(m, r1, c1, r2 - r1 + 1, c2 - c1 + 1));
  return 1;
}

/* --------------------------------------------- helpers for the bindings */

int luma_matrix_operand_test(lua_State *L, int arg, luma_Operand *op) {
  luma_Mat *m = luma_matrix_test(L, arg);
  if (m) {
    op->m = *m;
    return 1;
  }
  int isnum = 0;
  op->scalar = lua_tonumberx(L, arg, &isnum);
  if (!isnum || lua_type(L, arg) == LUA_TSTRING) return 0;
  op->m.data = &op->scalar;
  op->m.rows = op->m.cols = 1;
  op->m.rs = op->m.cs = 0;
  return 1;
}

void luma_matrix_operand(lua_State *L, int arg, luma_Operand *op) {
  if (!luma_matrix_operand_test(L, arg, op)) luaL_typeerror(L, arg, "luma.Matrix or number");
}

void luma_matrix_check_no_overlap(lua_State *L, int out_arg, const luma_Mat *out,
                                  const luma_Mat *in) {
  if (!luma_mat_overlaps(out, in)) return;
  if (out->data == in->data && out->rs == in->rs && out->cs == in->cs && out->rows == in->rows &&
      out->cols == in->cols)
    return;
  luma_arg_error(L, out_arg, "out overlaps an input with a different layout (use a copy)");
}

luma_Mat *luma_matrix_result(lua_State *L, int out_arg, int64_t rows, int64_t cols) {
  if (lua_isnoneornil(L, out_arg)) return luma_matrix_new(L, rows, cols);
  MatrixUD *ud = luma_type_check(L, out_arg, &matrix_type);
  luma_Mat *out = &ud->m;
  if (out->rows != rows || out->cols != cols)
    luma_arg_error(L, out_arg, "out is %I x %I but the result is %I x %I",
                   (lua_Integer)out->rows, (lua_Integer)out->cols, (lua_Integer)rows,
                   (lua_Integer)cols);
  touch(L, out_arg, ud);
  lua_pushvalue(L, out_arg);
  return out;
}

/* ------------------------------------------------------ A[i][j] sugar */

/* __index: method names go to the methods table (upvalue 1); A[i] is row i
 * as a view marked as a row handle, and a row handle's [j] is element j,
 * so A[i][j] reads element (i, j) at the price of one small view per
 * access (get/set cost none).  A method call runs through here first, so
 * the name's path comes first and does the least; the matrix is checked
 * against upvalue 2, the metatable (anyone may call this function with
 * anything: getmetatable(A).__index(io.stdout, 1)). */
static int m_index(lua_State *L) {
  if (lua_type(L, 2) != LUA_TNUMBER) {
    if (lua_gettop(L) != 2) lua_settop(L, 2); /* a direct call with more arguments */
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
  }
  MatrixUD *ud = lua_touserdata(L, 1);
  int same = ud != NULL && lua_getmetatable(L, 1) && lua_rawequal(L, -1, lua_upvalueindex(2));
  if (!same) return luaL_typeerror(L, 1, matrix_type.name);
  lua_pop(L, 1);
  luma_Mat *m = &ud->m;
  if (ud->row_handle) {
    lua_pushnumber(L, LUMA_AT(m, 0, luma_check_index(L, 2, "column", m->cols)));
    return 1;
  }
  int64_t i = luma_check_index(L, 2, "row", m->rows);
  push_view(L, 1, ud, luma_mat_block(m, i, 0, 1, m->cols), lua_upvalueindex(2))->row_handle = 1;
  return 1;
}

/* __newindex: A[i][j] = v sets an element; A[i] = v fills row i with a
 * number or copies a vector with one entry per column into it. */
static int m_newindex(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  if (lua_type(L, 2) != LUA_TNUMBER)
    return luaL_error(L, "cannot set field '%s' of a luma.Matrix (matrices have no fields)",
                      luaL_tolstring(L, 2, NULL));
  luma_matrix_touch(L, 1);
  if (((MatrixUD *)lua_touserdata(L, 1))->row_handle) {
    LUMA_AT(m, 0, luma_check_index(L, 2, "column", m->cols)) = luaL_checknumber(L, 3);
    return 0;
  }
  luma_Mat row = luma_mat_block(m, luma_check_index(L, 2, "row", m->rows), 0, 1, m->cols);
  luma_Mat *v = luma_matrix_test(L, 3);
  if (v == NULL) {
    luma_mat_fill(&row, luaL_checknumber(L, 3));
    return 0;
  }
  if ((v->rows != 1 && v->cols != 1) || v->rows * v->cols != m->cols)
    return luma_arg_error(L, 3, "cannot store a %I x %I matrix in a row of %I elements",
                          (lua_Integer)v->rows, (lua_Integer)v->cols, (lua_Integer)m->cols);
  luma_Mat as_row = v->rows == 1 ? *v : luma_mat_transpose(v);
  if (luma_mat_overlaps(&row, &as_row)) {
    luma_Mat *c = luma_matrix_new(L, 1, m->cols);
    luma_mat_copy(c, &as_row);
    as_row = *c;
  }
  luma_mat_copy(&row, &as_row);
  return 0;
}

/* ---------------------------------------------------------------- printing */

typedef struct PrintOptions {
  int precision; /* digits after the point */
  int64_t threshold; /* more elements than this: elide */
  int64_t edgeitems; /* rows/cols kept at each end when eliding */
} PrintOptions;

static const char PRINT_OPTIONS_KEY = 'p';

static PrintOptions *print_options(lua_State *L) {
  PrintOptions *po;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &PRINT_OPTIONS_KEY) == LUA_TUSERDATA) {
    po = lua_touserdata(L, -1);
  } else {
    lua_pop(L, 1);
    po = lua_newuserdatauv(L, sizeof *po, 0);
    po->precision = 4;
    po->threshold = 1000;
    po->edgeitems = 3;
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &PRINT_OPTIONS_KEY);
  }
  lua_pop(L, 1); /* the registry keeps it alive */
  return po;
}

static int m_set_printoptions(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  PrintOptions *po = print_options(L);
  PrintOptions next = *po;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
    lua_Integer v = 0;
    int isint = 0;
    v = lua_tointegerx(L, -1, &isint);
    if (strcmp(key, "precision") == 0 && isint && v >= 0 && v <= 17) next.precision = (int)v;
    else if (strcmp(key, "threshold") == 0 && isint && v >= 1) next.threshold = v;
    else if (strcmp(key, "edgeitems") == 0 && isint && v >= 1) next.edgeitems = v;
    else if (strcmp(key, "precision") != 0 && strcmp(key, "threshold") != 0 &&
             strcmp(key, "edgeitems") != 0)
      return luma_arg_error(L, 1, "unknown option '%s' (valid: edgeitems, precision, threshold)",
                            luaL_tolstring(L, -2, NULL));
    else
      return luma_arg_error(L, 1, "bad option '%s' (valid: precision 0..17, threshold >= 1, "
                            "edgeitems >= 1, all integers)", lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  *po = next;
  return 0;
}

enum { FMT_INT, FMT_FIXED, FMT_SCI };

static int format_value(char *buf, size_t size, double v, int mode, int precision) {
  if (isnan(v)) return snprintf(buf, size, "nan");
  if (isinf(v)) return snprintf(buf, size, v > 0 ? "inf" : "-inf");
  if (mode == FMT_INT) return luma_snprintf_c(buf, size, "%.0f", v == 0 ? 0.0 : v);
  if (mode == FMT_SCI) return luma_snprintf_c(buf, size, "%.*e", precision, v);
  return luma_snprintf_c(buf, size, "%.*f", precision, v);
}

/* Which rows (or columns) are printed: all, or edgeitems at each end. */
static int64_t shown_index(int64_t k, int64_t n, int64_t edge, int elide) {
  return (!elide || k < edge) ? k : n - 2 * edge + k;
}

/* Element (a, b) of the printed grid. */
static double shown_value(const luma_Mat *m, const PrintOptions *po, int64_t a, int64_t b,
                          int elide_rows, int elide_cols) {
  return LUMA_AT(m, shown_index(a, m->rows, po->edgeitems, elide_rows),
                 shown_index(b, m->cols, po->edgeitems, elide_cols));
}

static int m_tostring(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  int is_view = ((MatrixUD *)lua_touserdata(L, 1))->kind == MAT_VIEW;
  if (m->rows == 0 || m->cols == 0) { /* before any loop over 2^31 - 1 rows of nothing */
    lua_pushfstring(L, "matrix %I x %I%s\n[]", (lua_Integer)m->rows, (lua_Integer)m->cols,
                    is_view ? " (view)" : "");
    return 1;
  }
  PrintOptions po = *print_options(L);
  int elide = m->rows * m->cols > po.threshold;
  int elide_rows = elide && m->rows > 2 * po.edgeitems;
  int elide_cols = elide && m->cols > 2 * po.edgeitems;
  int64_t nr = elide_rows ? 2 * po.edgeitems : m->rows;
  int64_t nc = elide_cols ? 2 * po.edgeitems : m->cols;
  luma_charge(L, (uint64_t)(4 * nr * nc)); /* four passes over the shown elements */

  /* One format for all shown elements, as NumPy does: integers when every
   * finite value is integral, scientific when magnitudes are extreme. */
  int all_int = 1;
  double maxabs = 0, minabs = INFINITY;
  for (int64_t a = 0; a < nr; a++)
    for (int64_t b = 0; b < nc; b++) {
      double v = shown_value(m, &po, a, b, elide_rows, elide_cols);
      if (!isfinite(v)) continue;
      double av = fabs(v);
      if (av != floor(av) || av >= 1e16) all_int = 0;
      if (av > maxabs) maxabs = av;
      if (av > 0 && av < minabs) minabs = av;
    }
  int mode = all_int ? FMT_INT
             : (maxabs >= 1e8 || minabs < pow(10.0, -po.precision)) ? FMT_SCI
                                                                     : FMT_FIXED;
  /* Fixed notation: drop the trailing zeros every element has. */
  int precision = po.precision;
  char buf[64];
  if (mode == FMT_FIXED) {
    int trim = precision;
    for (int64_t a = 0; a < nr && trim > 0; a++)
      for (int64_t b = 0; b < nc && trim > 0; b++) {
        double v = shown_value(m, &po, a, b, elide_rows, elide_cols);
        if (!isfinite(v)) continue;
        int len = format_value(buf, sizeof buf, v, mode, precision), zeros = 0;
        while (zeros < precision && buf[len - 1 - zeros] == '0') zeros++;
        if (zeros < trim) trim = zeros;
      }
    precision -= trim;
    if (precision == 0) precision = 1;
  }
  int width = 1;
  for (int64_t a = 0; a < nr; a++)
    for (int64_t b = 0; b < nc; b++) {
      double v = shown_value(m, &po, a, b, elide_rows, elide_cols);
      int len = format_value(buf, sizeof buf, v, mode, precision);
      if (len > width) width = len;
    }

  luaL_Buffer out;
  luaL_buffinit(L, &out);
  lua_pushfstring(L, "matrix %I x %I%s\n", (lua_Integer)m->rows, (lua_Integer)m->cols,
                  is_view ? " (view)" : "");
  luaL_addvalue(&out);
  for (int64_t a = 0; a < nr; a++) {
    if (elide_rows && a == po.edgeitems) luaL_addstring(&out, " ...\n");
    luaL_addstring(&out, a == 0 ? "[[" : " [");
    for (int64_t b = 0; b < nc; b++) {
      if (elide_cols && b == po.edgeitems) luaL_addstring(&out, "  ...");
      double v = shown_value(m, &po, a, b, elide_rows, elide_cols);
      int len = format_value(buf, sizeof buf, v, mode, precision);
      if (b > 0 || (elide_cols && b == po.edgeitems)) luaL_addstring(&out, "  ");
      for (int pad = len; pad < width; pad++) luaL_addchar(&out, ' ');
      luaL_addlstring(&out, buf, (size_t)len);
    }
    luaL_addstring(&out, a == nr - 1 ? "]]" : "]\n");
  }
  luaL_pushresult(&out);
  return 1;
}

static int host_buffer_gc(lua_State *L) {
  HostBuffer *hb = lua_touserdata(L, 1);
  if (hb->release) {
    luma_ReleaseFunction release = hb->release;
    hb->release = NULL; /* exactly once, even if resurrected */
    release(hb->ctx, hb->data);
  }
  return 0;
}

static const luaL_Reg host_buffer_metamethods[] = {{"__gc", host_buffer_gc}, {NULL, NULL}};
static const luma_Type host_buffer_type = {"luma.HostBuffer", NULL, host_buffer_metamethods,
                                           NULL, NULL};

static int m_len(lua_State *L) {
  lua_pushinteger(L, luma_matrix_check(L, 1)->rows);
  return 1;
}

/* ------------------------------------------------------------ embedding */

typedef struct PushArgs {
  int64_t rows, cols;
  const double *src;
  double *wrap_data;
  int64_t rs, cs;
  luma_ReleaseFunction release;
  void *ctx;
} PushArgs;

static int push_copy_protected(lua_State *L) {
  const PushArgs *a = lua_touserdata(L, 1);
  luma_Mat *m = luma_matrix_new(L, a->rows, a->cols);
  if (m->rows * m->cols > 0) memcpy(m->data, a->src, (size_t)(m->rows * m->cols) * sizeof(double));
  return 1;
}

static int push_wrap_protected(lua_State *L) {
  const PushArgs *a = lua_touserdata(L, 1);
  MatrixUD *ud = lua_newuserdatauv(L, sizeof(MatrixUD), 1);
  ud->m.data = a->wrap_data;
  ud->m.rows = a->rows;
  ud->m.cols = a->cols;
  ud->m.rs = a->rs;
  ud->m.cs = a->cs;
  ud->kind = MAT_EXTERNAL;
  ud->row_handle = 0;
  ud->version = 0;
  luma_type_setmetatable(L, &matrix_type);
  if (a->release) {
    HostBuffer *hb = lua_newuserdatauv(L, sizeof *hb, 0);
    hb->release = a->release;
    hb->ctx = a->ctx;
    hb->data = a->wrap_data;
    /* Armed last: nothing below can fail, so a failed wrap never calls
     * release (the documented rule). */
    luma_type_setmetatable(L, &host_buffer_type);
    lua_setiuservalue(L, -2, 1);
  }
  return 1;
}

/* Runs a pushing function in protected mode; the matrix stays on the stack
 * on success, nothing does on failure. */
static int run_push(lua_State *L, lua_CFunction f, PushArgs *a) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lua_pushcfunction(L, f);
  lua_pushlightuserdata(L, a);
  int status = lua_pcall(L, 1, 1, 0);
  if (status != LUA_OK) lua_pop(L, 1);
  return status;
}

int luma_push_matrix(lua_State *L, int64_t rows, int64_t cols, const double *src) {
  int64_t n = luma_mat_checked_size(rows, cols);
  if (n < 0 || (n > 0 && src == NULL)) return LUMA_EARG;
  PushArgs a = {rows, cols, src, NULL, 0, 0, NULL, NULL};
  return run_push(L, push_copy_protected, &a);
}

int luma_wrap_matrix(lua_State *L, double *data, int64_t rows, int64_t cols, int64_t row_stride,
                     int64_t col_stride, luma_ReleaseFunction release, void *ctx) {
  int64_t n = luma_mat_checked_size(rows, cols);
  if (n < 0 || (n > 0 && data == NULL)) return LUMA_EARG;
  PushArgs a = {rows, cols, NULL, data, row_stride, col_stride, release, ctx};
  return run_push(L, push_wrap_protected, &a);
}

int luma_get_matrix(lua_State *L, int idx, luma_MatrixRef *out) {
  MatrixUD *ud = luma_type_test(L, idx, &matrix_type);
  if (ud == NULL || out == NULL) return ud == NULL ? LUMA_ETYPE : LUMA_EARG;
  out->data = ud->m.data;
  out->rows = ud->m.rows;
  out->cols = ud->m.cols;
  out->row_stride = ud->m.rs;
  out->col_stride = ud->m.cs;
  return LUA_OK;
}

luma_MatrixRef luma_check_matrix(lua_State *L, int arg) {
  luma_Mat *m = luma_matrix_check(L, arg);
  luma_MatrixRef r = {m->data, m->rows, m->cols, m->rs, m->cs};
  return r;
}

/* ---------------------------------------------------------- registration */

static const luaL_Reg matrix_metamethods[] = {
    {"__tostring", m_tostring}, {"__len", m_len}, {"__newindex", m_newindex}, {NULL, NULL}};

static const luma_Func matrix_methods[] = {
    {"shape", m_shape, "A:shape() -> rows, cols", "Returns the number of rows and of columns."},
    {"rows", m_rows, "A:rows() -> integer", "Returns the number of rows (also #A)."},
    {"cols", m_cols, "A:cols() -> integer", "Returns the number of columns."},
    {"get", m_get, "A:get(i, j) -> number", "Returns element (i, j), 1-based."},
    {"set", m_set, "A:set(i, j, v) -> A", "Sets element (i, j), 1-based, to v; returns A."},
    {"totable", m_totable, "A:totable() -> table",
     "Returns the elements as a table of row tables."},
    {"copy", m_copy, "A:copy() -> matrix", "Returns a new contiguous matrix with A's elements."},
    {"fill", m_fill, "A:fill(v) -> A", "Sets every element to v, in place; returns A."},
    {"version", m_version, "A:version() -> integer",
     "How many times Luma has written into A's storage in place (set, fill, assign, A[i][j] = "
     "v, an out argument, an optimizer step; views share their base's count). luma.autograd "
     "compares it to refuse a backward through values changed after they were used."},
    {"is_contiguous", m_is_contiguous, "A:is_contiguous() -> boolean",
     "True when A's elements are row-major and contiguous in memory."},
    {"t", m_t, "A:t() -> matrix view",
     "Returns the transpose as a view sharing A's storage (no copy)."},
    {"row", m_row, "A:row(i) -> matrix view", "Returns row i as a 1 x cols view (no copy)."},
    {"col", m_col, "A:col(j) -> matrix view", "Returns column j as a rows x 1 view (no copy)."},
    {"sub", m_sub, "A:sub(r1, r2, c1, c2) -> matrix view",
     "Returns rows r1..r2 and columns c1..c2 (inclusive, 1-based; nil means the whole range) "
     "as a view sharing A's storage."},
    {NULL, NULL, NULL, NULL}};

static const luma_Type matrix_type = {
    "luma.Matrix", matrix_methods, matrix_metamethods,
    "Dense float64 matrix, row-major with strides, 1-based. Views (t, row, col, sub, slice, "
    "diag, reshape) share storage with their base and keep it alive. A[i] is row i (a view) "
    "and A[i][j] element (i, j), read or written; each A[i] makes a small view, so loops "
    "should prefer get/set or whole-matrix operations.",
    m_index};

int luma_open_matrix(lua_State *L) {
  static const luma_Func funcs[] = {
      {"new", m_new, "matrix(t) | matrix(flat, rows, cols) -> matrix",
       "Creates a matrix from a table of row tables ({{1,2},{3,4}}), from a flat table "
       "(a column vector), or from a flat row-major table with the given shape. Also "
       "callable as luma.matrix{...}."},
      {"zeros", m_zeros, "zeros(rows [, cols = 1]) -> matrix",
       "A rows x cols matrix of zeros (cols 1 if omitted)."},
      {"ones", m_ones, "ones(rows [, cols = 1]) -> matrix",
       "A rows x cols matrix of ones (cols 1 if omitted)."},
      {"full", m_full, "full(rows, cols, value) -> matrix",
       "A rows x cols matrix filled with value."},
      {"eye", m_eye, "eye(n [, m = n]) -> matrix",
       "The n x m identity matrix (square if m is omitted)."},
      {"ismatrix", m_ismatrix, "ismatrix(x) -> boolean",
       "True if x is a luma matrix (or a view of one)."},
      {"set_printoptions", m_set_printoptions,
       "set_printoptions{precision = 4, threshold = 1000, edgeitems = 3} -> nothing",
       "Sets how matrices print: digits after the point (default 4), the element count above "
       "which printing elides (1000), and the rows/columns kept at each end (3)."},
      {NULL, NULL, NULL, NULL}};
  luma_type_register(L, &matrix_type);
  lua_pop(L, 1);

  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.matrix", funcs);
  luma_open_matrix_ops(L, -1);
  luma_open_reduce(L, -1);
  luma_open_shape(L, -1);
  luma_open_random_matrix(L, -1);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, m_call);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  luma_doc_set(L, -1, "luma.matrix", "matrix(t)",
               "Dense float64 matrices: constructors (matrix, zeros, ones, full, eye), "
               "ismatrix and set_printoptions. Methods are listed by help(\"luma.Matrix\") or help(A) for a matrix A.");
  return 1;
}
