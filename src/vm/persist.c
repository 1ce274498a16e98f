/*
 * persist.c - the binary value format of luma.save / luma.load and of
 * values crossing process boundaries (docs/FORMAT.md).
 *
 * This layer encodes plain values only: nil, booleans, integers, floats,
 * strings, tables of those (no cycles), matrices and sparse matrices.  lua/luma/persist.lua
 * maps objects (estimators, pipelines, search results, generators) to
 * plain tables tagged with a registered type name and back, so decoding
 * never runs code named by the file.
 *
 * Decoding treats the bytes as hostile: every declared length is checked
 * against the bytes that remain before anything is allocated, nesting is
 * bounded, and the checksum is verified before any value is built.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "core.h"
#include "core/matrix_lua.h"
#include "io/filemap.h"
#include "sparse/sparse_lua.h"

#define MAGIC "LUMA\x89VAL"
#define MAGIC_LEN 8
/* 2 added T_STRINGS, 3 T_SPARSE, 4 T_SPARSE_CSC.  A file says the lowest
 * version that reads it: 3 only when it holds a sparse matrix (4 a CSC
 * one), so files without one still load in a Luma that reads up to 2.
 * Older files still load. */
#define FORMAT_VERSION 4
#define HEADER_LEN (MAGIC_LEN + 4)
#define TRAILER_LEN 8
#define MAX_DEPTH 100

enum { T_NIL, T_FALSE, T_TRUE, T_INTEGER, T_FLOAT, T_STRING, T_TABLE, T_MATRIX, T_STRINGS, T_SPARSE,
       T_SPARSE_CSC };

/* ------------------------------------------------------------ checksum */

/* FNV-1a, 64 bits: detects truncation and bit rot (not tampering). */
static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3u;
  }
  return h;
}

/* ------------------------------------------------------------ encoding */

/* The output: bytes in a userdata kept at a fixed stack slot and replaced
 * by a larger one as it grows (a luaL_Buffer cannot be used here: the
 * encoder pushes keys and values between additions). */
typedef struct Out {
  lua_State *L;
  int slot;
  char *p;
  size_t len, cap;
  int version; /* the lowest format version that reads what was written */
} Out;

static void out_add(Out *o, const void *bytes, size_t n) {
  if (o->cap - o->len < n) {
    size_t cap = o->cap * 2 > o->len + n ? o->cap * 2 : o->len + n;
    char *bigger = lua_newuserdatauv(o->L, cap, 0);
    memcpy(bigger, o->p, o->len);
    lua_replace(o->L, o->slot);
    o->p = bigger;
    o->cap = cap;
  }
  memcpy(o->p + o->len, bytes, n);
  o->len += n;
}

static void out_byte(Out *o, int byte) {
  char c = (char)byte;
  out_add(o, &c, 1);
}

static void put_u64(Out *o, uint64_t v) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(v >> (8 * i));
  out_add(o, bytes, 8);
}

static void put_f64(Out *o, double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  put_u64(o, bits);
}

/* Whether the table at idx holds strings at 1..n (and, the caller knows,
 * nothing else). */
static int is_string_list(lua_State *L, int idx, uint64_t n) {
  for (uint64_t k = 1; k <= n; k++) {
    int t = lua_rawgeti(L, idx, (lua_Integer)k);
    lua_pop(L, 1);
    if (t != LUA_TSTRING) return 0;
  }
  return 1;
}

/* Encodes the value at idx; `seen` (a table at seen_idx) holds the tables
 * on the current path, to refuse cycles. */
static void encode(lua_State *L, Out *b, int idx, int seen_idx, int depth) {
  if (depth > MAX_DEPTH) luaL_error(L, "luma.save: nesting deeper than %d", MAX_DEPTH);
  idx = lua_absindex(L, idx);
  luma_Mat *m;
  switch (lua_type(L, idx)) {
  case LUA_TNIL: out_byte(b, T_NIL); return;
  case LUA_TBOOLEAN: out_byte(b, lua_toboolean(L, idx) ? T_TRUE : T_FALSE); return;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      out_byte(b, T_INTEGER);
      put_u64(b, (uint64_t)lua_tointeger(L, idx));
    } else {
      out_byte(b, T_FLOAT);
      put_f64(b, lua_tonumber(L, idx));
    }
    return;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    out_byte(b, T_STRING);
    put_u64(b, len);
    out_add(b, s, len);
    return;
  }
  case LUA_TUSERDATA:
    if ((m = luma_matrix_test(L, idx)) != NULL) { /* a view saves only its own elements */
      out_byte(b, T_MATRIX);
      put_u64(b, (uint64_t)m->rows);
      put_u64(b, (uint64_t)m->cols);
      if (m->rows == 0 || m->cols == 0) return; /* not a walk over 2^31 - 1 empty rows */
      luma_charge(L, 4 * (uint64_t)(m->rows * m->cols)); /* issue 24: native work is budgeted */
      for (int64_t i = 0; i < m->rows; i++)
        for (int64_t j = 0; j < m->cols; j++) put_f64(b, LUMA_AT(m, i, j));
      return;
    }
    luma_Sparse *sp;
    int csc = 0;
    if ((sp = luma_sparse_test(L, idx)) != NULL || (csc = 1, sp = luma_sparse_csc_test(L, idx)) != NULL) {
      /* a CSC matrix's arrays are its transpose's CSR: shape first, as
       * the matrix has it, then the arrays as stored */
      out_byte(b, csc ? T_SPARSE_CSC : T_SPARSE);
      if (b->version < (csc ? 4 : 3)) b->version = csc ? 4 : 3;
      put_u64(b, (uint64_t)(csc ? sp->cols : sp->rows));
      put_u64(b, (uint64_t)(csc ? sp->rows : sp->cols));
      put_u64(b, (uint64_t)sp->nnz);
      luma_charge(L, 4 * (uint64_t)(sp->rows + 1 + 2 * sp->nnz));
      for (int64_t i = 0; i <= sp->rows; i++) put_u64(b, (uint64_t)sp->indptr[i]);
      for (int64_t k = 0; k < sp->nnz; k++) put_u64(b, (uint64_t)sp->indices[k]);
      for (int64_t k = 0; k < sp->nnz; k++) put_f64(b, sp->data[k]);
      return;
    }
    break;
  case LUA_TTABLE: {
    if (lua_getmetatable(L, idx)) {
      lua_pop(L, 1);
      luaL_error(L, "luma.save: a table with a metatable (%s) has no registered saver",
                 luaL_typename(L, idx));
    }
    lua_pushvalue(L, idx);
    if (lua_rawget(L, seen_idx) != LUA_TNIL)
      luaL_error(L, "luma.save: the value contains a cycle (a table inside itself)");
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, seen_idx);
    uint64_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      count++;
      lua_pop(L, 1);
    }
    if (count > 0 && count == (uint64_t)lua_rawlen(L, idx) && is_string_list(L, idx, count)) {
      out_byte(b, T_STRINGS); /* a list of strings (category lists, names): compact */
      put_u64(b, count);
      for (uint64_t k = 1; k <= count; k++) {
        size_t len;
        lua_rawgeti(L, idx, (lua_Integer)k);
        const char *s = lua_tolstring(L, -1, &len);
        put_u64(b, len);
        out_add(b, s, len);
        lua_pop(L, 1);
      }
      lua_pushvalue(L, idx);
      lua_pushnil(L);
      lua_rawset(L, seen_idx);
      return;
    }
    out_byte(b, T_TABLE);
    put_u64(b, count);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      int kt = lua_type(L, -2);
      if (kt != LUA_TSTRING && kt != LUA_TNUMBER && kt != LUA_TBOOLEAN)
        luaL_error(L, "luma.save: a table key is a %s (keys must be strings, numbers or "
                   "booleans)", lua_typename(L, kt));
      encode(L, b, -2, seen_idx, depth + 1);
      encode(L, b, -1, seen_idx, depth + 1);
      lua_pop(L, 1);
    }
    lua_pushvalue(L, idx);
    lua_pushnil(L);
    lua_rawset(L, seen_idx);
    return;
  }
  default: break;
  }
  luaL_error(L, "luma.save: cannot save a %s", luaL_typename(L, idx));
}

/* serial.encode(value) -> string: header, value, checksum. */
static int p_encode(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  lua_newtable(L); /* 2: tables on the current path */
  Out out = {L, 3, NULL, 0, 256, 2};
  out.p = lua_newuserdatauv(L, out.cap, 0); /* 3 */
  static const char version[4] = {0, 0, 0, 0};
  out_add(&out, MAGIC, MAGIC_LEN);
  out_add(&out, version, 4);
  encode(L, &out, 1, 2, 0);
  out.p[MAGIC_LEN] = (char)out.version; /* known only now (before the checksum) */
  put_u64(&out, fnv1a((const unsigned char *)out.p, out.len));
  lua_pushlstring(L, out.p, out.len);
  return 1;
}

/* ------------------------------------------------------------ decoding */

typedef struct Reader {
  const unsigned char *p, *end;
  uint32_t version; /* the file's format version */
  const char *what; /* for messages: the file name or "string" */
} Reader;

static int corrupt(lua_State *L, const Reader *r, const char *why) {
  return luaL_error(L, "luma.load: %s is corrupted (%s)", r->what, why);
}

static uint64_t get_u64(lua_State *L, Reader *r) {
  if (r->end - r->p < 8) corrupt(L, r, "truncated");
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | r->p[i];
  r->p += 8;
  return v;
}

static double get_f64(lua_State *L, Reader *r) {
  uint64_t bits = get_u64(L, r);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* A count that must fit the remaining bytes at `unit` bytes each. */
static uint64_t get_count(lua_State *L, Reader *r, uint64_t unit, const char *what) {
  uint64_t n = get_u64(L, r);
  uint64_t left = (uint64_t)(r->end - r->p);
  if (unit > 0 && n > left / unit) corrupt(L, r, what);
  return n;
}

static void decode(lua_State *L, Reader *r, int depth) {
  if (depth > MAX_DEPTH) corrupt(L, r, "nested too deeply");
  if (r->p >= r->end) corrupt(L, r, "truncated");
  luaL_checkstack(L, 4, "luma.load");
  int tag = *r->p++;
  switch (tag) {
  case T_NIL: lua_pushnil(L); return;
  case T_FALSE: lua_pushboolean(L, 0); return;
  case T_TRUE: lua_pushboolean(L, 1); return;
  case T_INTEGER: lua_pushinteger(L, (lua_Integer)get_u64(L, r)); return;
  case T_FLOAT: lua_pushnumber(L, get_f64(L, r)); return;
  case T_STRING: {
    uint64_t len = get_count(L, r, 1, "a string longer than the file");
    lua_pushlstring(L, (const char *)r->p, (size_t)len);
    r->p += len;
    return;
  }
  case T_TABLE: {
    /* each pair takes at least two tag bytes */
    uint64_t n = get_count(L, r, 2, "a table larger than the file");
    lua_createtable(L, 0, n < 1024 ? (int)n : 1024);
    for (uint64_t k = 0; k < n; k++) {
      decode(L, r, depth + 1);
      if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TNUMBER &&
                               lua_tonumber(L, -1) != lua_tonumber(L, -1)))
        corrupt(L, r, "a nil or NaN table key");
      decode(L, r, depth + 1);
      lua_rawset(L, -3);
    }
    return;
  }
  case T_MATRIX: {
    uint64_t rows = get_u64(L, r), cols = get_u64(L, r);
    if (rows > (uint64_t)LUMA_MAX_ELEMENTS || cols > (uint64_t)LUMA_MAX_ELEMENTS ||
        luma_mat_checked_size((int64_t)rows, (int64_t)cols) < 0)
      corrupt(L, r, "a matrix of impossible size");
    uint64_t n = rows * cols;
    if (n > (uint64_t)(r->end - r->p) / 8) corrupt(L, r, "a matrix larger than the file");
    luma_Mat *m = luma_matrix_new(L, (int64_t)rows, (int64_t)cols);
    luma_charge(L, 2 * n);
    for (uint64_t k = 0; k < n; k++) m->data[k] = get_f64(L, r);
    return;
  }
  case T_STRINGS: {
    if (r->version < 2) corrupt(L, r, "unknown value tag");
    uint64_t n = get_count(L, r, 8, "a string list larger than the file");
    lua_createtable(L, n < 1024 ? (int)n : 1024, 0);
    for (uint64_t k = 1; k <= n; k++) {
      uint64_t len = get_count(L, r, 1, "a string longer than the file");
      lua_pushlstring(L, (const char *)r->p, (size_t)len);
      r->p += len;
      lua_rawseti(L, -2, (lua_Integer)k);
    }
    return;
  }
  case T_SPARSE:
  case T_SPARSE_CSC: {
    int csc = tag == T_SPARSE_CSC;
    if (r->version < (csc ? 4u : 3u)) corrupt(L, r, "unknown value tag");
    uint64_t rows = get_u64(L, r), cols = get_u64(L, r), nnz = get_u64(L, r);
    if (rows > (uint64_t)LUMA_MAX_DIM || cols > (uint64_t)LUMA_MAX_DIM ||
        nnz > (uint64_t)LUMA_MAX_ELEMENTS || (double)nnz > (double)rows * (double)cols)
      corrupt(L, r, "a sparse matrix of impossible size");
    if (rows + 1 + 2 * nnz > (uint64_t)(r->end - r->p) / 8)
      corrupt(L, r, "a sparse matrix larger than the file");
    luma_Sparse *s = csc ? luma_sparse_csc_new(L, (int64_t)rows, (int64_t)cols, (int64_t)nnz)
                         : luma_sparse_new(L, (int64_t)rows, (int64_t)cols, (int64_t)nnz);
    if (csc) { /* from here on, the stored arrays' dimensions */
      uint64_t swap = rows;
      rows = cols;
      cols = swap;
    }
    const char *line = csc ? "column" : "row", *other = csc ? "row" : "column";
    luma_charge(L, 2 * (rows + 1 + 2 * nnz));
    for (uint64_t i = 0; i <= rows; i++) s->indptr[i] = (int64_t)get_u64(L, r);
    for (uint64_t k = 0; k < nnz; k++) s->indices[k] = (int64_t)get_u64(L, r);
    for (uint64_t k = 0; k < nnz; k++) s->data[k] = get_f64(L, r);
    int64_t where;
    luma_Threads *t = luma_meter(L, rows + 1 + nnz);
    luma_SpFault fault = luma_sp_validate(t, s, &where);
    luma_meter_done(L, t);
    switch (fault) {
    case LUMA_SP_OK: return;
    case LUMA_SP_BAD_START: corrupt(L, r, "a sparse matrix whose indptr does not start at 0");
      return;
    case LUMA_SP_NOT_MONOTONE:
      luaL_error(L, "luma.load: %s is corrupted (a sparse matrix whose indptr decreases at %s %I)",
                 r->what, line, (lua_Integer)(where + 1));
      return;
    case LUMA_SP_BAD_END:
      corrupt(L, r, "a sparse matrix whose indptr does not end at its entry count");
      return;
    case LUMA_SP_OUT_OF_RANGE:
      luaL_error(L, "luma.load: %s is corrupted (a sparse matrix whose entry %I has %s "
                 "index %I, outside [0, %I))", r->what, (lua_Integer)(where + 1), other,
                 (lua_Integer)s->indices[where], (lua_Integer)cols);
      return;
    case LUMA_SP_UNSORTED:
      luaL_error(L, "luma.load: %s is corrupted (a sparse matrix whose %ss are not sorted "
                 "and distinct within a %s, at entry %I)", r->what, other, line,
                 (lua_Integer)(where + 1));
      return;
    }
    return;
  }
  default: corrupt(L, r, "unknown value tag");
  }
}

/* Checks magic, version and checksum; leaves r on the value. */
static void open_reader(lua_State *L, Reader *r, const char *s, size_t len, const char *what) {
  r->p = (const unsigned char *)s;
  r->end = r->p + len;
  r->what = what;
  if (len < MAGIC_LEN || memcmp(s, MAGIC, MAGIC_LEN) != 0)
    luaL_error(L, "luma.load: %s is not a Luma file (wrong magic)", what);
  if (len < HEADER_LEN + TRAILER_LEN + 1) corrupt(L, r, "truncated");
  uint32_t version = (uint32_t)r->p[8] | (uint32_t)r->p[9] << 8 | (uint32_t)r->p[10] << 16 |
                     (uint32_t)r->p[11] << 24;
  if (version > FORMAT_VERSION)
    luaL_error(L, "luma.load: %s has format version %d; this Luma (%s) reads up to %d", what,
               (int)version, LUMA_VERSION, FORMAT_VERSION);
  if (version == 0) corrupt(L, r, "format version 0");
  r->version = version;
  Reader tail = {r->end - TRAILER_LEN, r->end, version, what};
  uint64_t stored = get_u64(L, &tail);
  if (stored != fnv1a(r->p, len - TRAILER_LEN)) corrupt(L, r, "checksum mismatch");
  r->p += HEADER_LEN;
  r->end -= TRAILER_LEN;
}

static int decode_all(lua_State *L, const char *s, size_t len, const char *what) {
  Reader r;
  open_reader(L, &r, s, len, what);
  decode(L, &r, 0);
  if (r.p != r.end) corrupt(L, &r, "trailing bytes after the value");
  return 1;
}

/* persist.decode(string [, what]) -> value */
static int p_decode(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  return decode_all(L, s, len, luaL_optstring(L, 2, "the string"));
}

/* ------------------------------------------------------------- files */

/* persist.write(path, bytes): atomically, through a new file beside path
 * flushed to disk and renamed over it (io/filemap.h). */
static int p_write(lua_State *L) {
  luma_check_unsandboxed(L, "luma.save");
  const char *path = luaL_checkstring(L, 1);
  size_t len;
  const char *bytes = luaL_checklstring(L, 2, &len);
  int err = luma_file_replace(path, bytes, len, 1);
  if (err != 0) return luaL_error(L, "luma.save: cannot write %s (%s)", path, strerror(err));
  return 0;
}

/* serial.read(path) -> value.  The file's bytes go into a userdata sized
 * before the file is opened, so no error can leave the FILE open. */
static int p_read(lua_State *L) {
  luma_check_unsandboxed(L, "luma.load");
  const char *path = luaL_checkstring(L, 1);
  struct stat st;
  if (stat(path, &st) != 0)
    return luaL_error(L, "luma.load: cannot open %s (%s)", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) return luaL_error(L, "luma.load: %s is not a regular file", path);
  size_t size = (size_t)st.st_size;
  char *bytes = lua_newuserdatauv(L, size ? size : 1, 0);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return luaL_error(L, "luma.load: cannot open %s (%s)", path, strerror(errno));
  size_t got = fread(bytes, 1, size, f);
  fclose(f);
  if (got != size) return luaL_error(L, "luma.load: cannot read %s (it changed size)", path);
  return decode_all(L, bytes, size, path);
}

int luma_open_serial(lua_State *L) {
  static const luma_Func funcs[] = {
      {"encode", p_encode, "encode(value) -> string",
       "The value (nil, booleans, numbers, strings, matrices, sparse matrices and tables of "
       "them, no cycles) "
       "in Luma's binary format, as a string."},
      {"decode", p_decode, "decode(bytes [, what = \"the string\"]) -> value",
       "The value encoded in bytes; corrupted input is an error naming what."},
      {"write", p_write, "write(path, bytes) -> nothing",
       "Writes bytes to path atomically (temporary file, fsync, rename)."},
      {"read", p_read, "read(path) -> value", "Decodes the value stored in the file at path."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.serial", funcs);
  luma_doc_set(L, -1, "luma.serial", NULL,
               "The binary value format behind luma.save and luma.load (docs/FORMAT.md); "
               "luma.persist maps objects to and from it.");
  return 1;
}
