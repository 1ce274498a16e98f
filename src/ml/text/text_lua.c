/*
 * text_lua.c - luma.text.native, the native half of luma.text
 * (lua/luma/text): counting documents into sparse matrices, tf-idf
 * weights, the bag-of-words kernel and MurmurHash3.  The Lua classes check
 * the parameters; these functions check what they read themselves (a list
 * of strings, option types), and report faults in the data (invalid UTF-8,
 * an empty vocabulary) as nil plus a message, which the Lua side raises at
 * its caller's line.
 *
 * The counter's growing buffers come from the state's allocator (so its
 * memory limit applies) and are owned by a userdata whose __gc frees them:
 * an error anywhere leaks nothing.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/matrix_lua.h"
#include "sparse/sparse_lua.h"
#include "text/lda.h"
#include "text/text.h"
#include "text/unicode.h"
#include "budget.h"

static const char COUNTER_MT[] = "luma.text.Counter";

static int counter_gc(lua_State *L) {
  luma_TextCounter *c = luaL_checkudata(L, 1, COUNTER_MT);
  if (c->alloc) luma_text_free(c);
  return 0;
}

/* A new counter on the stack, with the options of the table at opts. */
static luma_TextCounter *new_counter(lua_State *L, int opts) {
  luma_TextCounter *c = lua_newuserdatauv(L, sizeof *c, 0);
  memset(c, 0, sizeof *c);
  if (luaL_newmetatable(L, COUNTER_MT)) {
    lua_pushcfunction(L, counter_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  luma_text_init(c, f, ud);
  c->analyzer = luma_opt_choice(L, opts, "analyzer", "word|char|char_wb", LUMA_TEXT_WORD);
  c->lowercase = luma_opt_boolean(L, opts, "lowercase", 1);
  c->decode = luma_opt_choice(L, opts, "decode_error", "strict|replace|ignore", LUMA_TEXT_STRICT);
  const lua_Integer lo = luma_opt_integer(L, opts, "min_n", 1);
  const lua_Integer hi = luma_opt_integer(L, opts, "max_n", 1);
  if (lo < 1 || hi < lo || hi > 1000)
    luma_arg_error(L, opts, "ngram_range must be {min_n, max_n} with 1 <= min_n <= max_n <= 1000");
  c->min_n = (int)lo;
  c->max_n = (int)hi;
  return c;
}

static void raise_status(lua_State *L, luma_Threads *t, luma_TextStatus st) {
  if (st == LUMA_TEXT_NOMEM) luaL_error(L, "not enough memory");
  if (st == LUMA_TEXT_STOPPED) luma_meter_done(L, t);
}

/* The strings of the list at idx into set s (nil: nothing). */
static void add_strings(lua_State *L, luma_TextCounter *c, luma_TextSet *s, int idx,
                        const char *what) {
  if (lua_isnoneornil(L, idx)) return;
  luaL_checktype(L, idx, LUA_TTABLE);
  const lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  for (lua_Integer k = 1; k <= n; k++) {
    lua_rawgeti(L, idx, k);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "%s[%d] is a %s, not a string", what, (int)k, luaL_typename(L, -1));
    size_t len;
    const char *str = lua_tolstring(L, -1, &len);
    int added;
    if (luma_text_set_add(c, s, str, len, &added) < 0) luaL_error(L, "not enough memory");
    lua_pop(L, 1);
  }
}

/* Field `key` of the options table at opts onto the stack; returns its index. */
static int opt_field(lua_State *L, int opts, const char *key) {
  if (lua_istable(L, opts)) lua_getfield(L, opts, key);
  else lua_pushnil(L);
  return lua_gettop(L);
}

/* Feature k of the list on top of the stack (which keeps the string). */
static const char *next_given(void *ctx, int64_t k, size_t *len) {
  lua_State *L = ctx;
  lua_rawgeti(L, -1, (lua_Integer)k + 1);
  const char *f = lua_tolstring(L, -1, len);
  lua_pop(L, 1);
  return f;
}

/* Counts the features a script's analyzer made for document k (the list
 * on top of the stack); -1 with nil and a message pushed if one is not a
 * string. */
static int read_given(lua_State *L, luma_TextCounter *c, luma_Threads *t, lua_Integer k) {
  const lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
  uint64_t bytes = 0;
  for (lua_Integer f = 1; f <= n; f++) {
    lua_rawgeti(L, -1, f);
    if (lua_type(L, -1) != LUA_TSTRING) {
      lua_pushnil(L);
      lua_pushfstring(L, "the analyzer gave document %d a %s as feature %d (strings expected)",
                      (int)k, luaL_typename(L, -2), (int)f);
      return -1;
    }
    bytes += lua_rawlen(L, -1);
    lua_pop(L, 1);
  }
  luma_TextStatus st = luma_text_count_given(c, t, next_given, L, n, bytes);
  if (st) raise_status(L, t, st);
  return 0;
}

/* Reads the documents (a list of strings at 1; with given, lists of the
 * features a script's analyzer made) into c; returns the count, or -1
 * with nil and a message pushed (invalid UTF-8, a feature not a string). */
static lua_Integer read_documents(lua_State *L, luma_TextCounter *c, luma_Threads *t, int given) {
  const lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  for (lua_Integer k = 1; k <= n; k++) {
    lua_rawgeti(L, 1, k);
    if (given && lua_type(L, -1) == LUA_TTABLE) {
      if (read_given(L, c, t, k) < 0) return -1;
      lua_pop(L, 1);
      continue;
    }
    if (lua_type(L, -1) != LUA_TSTRING) { /* numbers too: lua_tolstring would convert them */
      lua_pushnil(L);
      lua_pushfstring(L, "document %d is a %s, not a string", (int)k,
                      luaL_typename(L, -2));
      return -1;
    }
    size_t len;
    const char *doc = lua_tolstring(L, -1, &len);
    luma_TextStatus st = luma_text_count(c, t, doc, len);
    if (st == LUMA_TEXT_BAD_UTF8) {
      lua_pushnil(L);
      const unsigned char *b = (const unsigned char *)doc;
      if (c->bad_end == c->bad_start)
        lua_pushfstring(L, "document %d is not valid UTF-8: byte 0x%s at position %d: %s "
                        "(decode_error = \"replace\" or \"ignore\" accepts it)",
                        (int)k, (const char[]){"0123456789abcdef"[b[c->bad_start] >> 4],
                        "0123456789abcdef"[b[c->bad_start] & 15], 0},
                        (int)(c->bad_start + 1), c->bad_reason);
      else
        lua_pushfstring(L, "document %d is not valid UTF-8: bytes at positions %d-%d: %s "
                        "(decode_error = \"replace\" or \"ignore\" accepts it)",
                        (int)k, (int)(c->bad_start + 1), (int)(c->bad_end + 1), c->bad_reason);
      return -1;
    }
    if (st) raise_status(L, t, st);
    lua_pop(L, 1);
  }
  return n;
}

/* Total bytes of the documents at 1 (for the work estimate; a list of
 * features counts as the list's length). */
static uint64_t total_bytes(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  uint64_t bytes = 0;
  const lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  for (lua_Integer k = 1; k <= n; k++) {
    lua_rawgeti(L, 1, k);
    if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TTABLE) bytes += lua_rawlen(L, -1);
    lua_pop(L, 1);
  }
  return bytes;
}

/* Pushes the canonical CSR (rows x cols) of the counter's rows with column
 * col_of[id] (or the id itself when col_of is NULL), dropping ids mapped
 * to -1: the remapped rows, then two counting-sort transposes (which sort
 * each row). */
static void push_matrix(lua_State *L, luma_TextCounter *c, luma_Threads *t, const int64_t *col_of,
                        int64_t cols) {
  int64_t nnz = 0;
  for (int64_t k = 0; k < c->nnz; k++)
    if (col_of == NULL || col_of[c->indices[k]] >= 0) nnz++;
  luma_Sparse m = {c->rows, cols, nnz, NULL, NULL, NULL};
  m.indptr = lua_newuserdatauv(L, ((size_t)c->rows + 1) * sizeof(int64_t), 0);
  m.indices = lua_newuserdatauv(L, (size_t)(nnz ? nnz : 1) * sizeof(int64_t), 0);
  m.data = lua_newuserdatauv(L, (size_t)(nnz ? nnz : 1) * sizeof(double), 0);
  int64_t w = 0;
  m.indptr[0] = 0;
  for (int64_t i = 0; i < c->rows; i++) {
    for (int64_t k = c->indptr[i]; k < c->indptr[i + 1]; k++) {
      const int64_t j = col_of ? col_of[c->indices[k]] : c->indices[k];
      if (j < 0) continue;
      m.indices[w] = j;
      m.data[w++] = c->data[k];
    }
    m.indptr[i + 1] = w;
  }
  luma_Sparse tr = {cols, c->rows, nnz, NULL, NULL, NULL};
  tr.indptr = lua_newuserdatauv(L, ((size_t)cols + 1) * sizeof(int64_t), 0);
  tr.indices = lua_newuserdatauv(L, (size_t)(nnz ? nnz : 1) * sizeof(int64_t), 0);
  tr.data = lua_newuserdatauv(L, (size_t)(nnz ? nnz : 1) * sizeof(double), 0);
  luma_sp_transpose(t, &m, &tr);
  luma_Sparse *out = luma_sparse_new(L, c->rows, cols, nnz);
  luma_sp_transpose(t, &tr, out);
  lua_replace(L, -7); /* drop the six scratch arrays, keep the result */
  lua_pop(L, 5);
}

/* Orders ids by their terms' bytes (Python's order of str: code points). */
static int cmp_terms(const void *ctx, int64_t x, int64_t y) {
  const luma_TextSet *s = ctx;
  const uint32_t lx = s->len[x], ly = s->len[y];
  const int r = memcmp(s->arena + s->off[x], s->arena + s->off[y], lx < ly ? lx : ly);
  return r ? r : (lx > ly) - (lx < ly);
}

/* Among the kept, the order of max_features: term frequency down, then
 * column up (ctx: the term frequencies by rank). */
static int cmp_tf(const void *ctx, int64_t x, int64_t y) {
  const double *tf = ctx;
  if (tf[x] != tf[y]) return tf[x] > tf[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* Sorts a[0..n-1] by cmp(ctx, ., .): a bottom-up merge sort through tmp
 * (n entries), stable, with its context passed along (qsort has no
 * context argument, and a static one would be shared by states running
 * on other threads). */
static void sort_ids(int64_t *a, int64_t n, int64_t *tmp,
                     int (*cmp)(const void *, int64_t, int64_t), const void *ctx) {
  int64_t *src = a, *dst = tmp;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = lo + width < n ? lo + width : n;
      const int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = cmp(ctx, src[j], src[i]) < 0 ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    int64_t *swap = src;
    src = dst;
    dst = swap;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

static void push_term(lua_State *L, const luma_TextSet *s, int64_t id) {
  lua_pushlstring(L, s->arena + s->off[id], s->len[id]);
}

/* count(docs, opts) -> X, terms, pruned | nil, message
 * opts: analyzer, lowercase, decode_error, min_n, max_n, stop_words,
 * vocabulary (a list: fixed columns), binary, min_count, max_count,
 * max_features. */
static int t_count(lua_State *L) {
  lua_settop(L, 2);
  luaL_checktype(L, 2, LUA_TTABLE);
  const uint64_t bytes = total_bytes(L);
  luma_TextCounter *c = new_counter(L, 2); /* 3 */
  add_strings(L, c, &c->stop, opt_field(L, 2, "stop_words"), "stop_words"); /* 4 */
  const int vocab = opt_field(L, 2, "vocabulary"); /* 5 */
  c->fixed = !lua_isnil(L, vocab);
  add_strings(L, c, &c->vocab, vocab, "vocabulary");
  if (c->fixed) {
    c->mark_cap = c->vocab.count;
    c->mark = c->alloc(c->ud, NULL, 0, (size_t)(c->mark_cap ? c->mark_cap : 1) * sizeof(int64_t));
    c->slot = c->alloc(c->ud, NULL, 0, (size_t)(c->mark_cap ? c->mark_cap : 1) * sizeof(int64_t));
    if (!c->mark || !c->slot) return luaL_error(L, "not enough memory");
    for (int64_t k = 0; k < c->mark_cap; k++) c->mark[k] = -1;
  }
  const int binary = luma_opt_boolean(L, 2, "binary", 0);
  luma_Threads *t = luma_meter(L, 8 * bytes + 1024);
  if (read_documents(L, c, t, luma_opt_boolean(L, 2, "given", 0)) < 0) {
    luma_meter_done(L, t);
    return 2;
  }
  if (c->rows == 0) { /* no documents: an empty indptr */
    c->indptr = c->alloc(c->ud, NULL, 0, sizeof(int64_t));
    if (!c->indptr) return luaL_error(L, "not enough memory");
    c->rows_cap = 1;
    c->indptr[0] = 0;
  }
  if (binary)
    for (int64_t k = 0; k < c->nnz; k++) c->data[k] = 1;
  const int64_t V = c->vocab.count;
  if (c->fixed) {
    push_matrix(L, c, t, NULL, V);
    luma_meter_done(L, t);
    return 1;
  }
  if (V == 0) {
    luma_meter_done(L, t);
    lua_pushnil(L);
    lua_pushliteral(L, "empty vocabulary; perhaps the documents only contain stop words");
    return 2;
  }
  const double min_count = luma_opt_number(L, 2, "min_count", 0);
  lua_getfield(L, 2, "max_count");
  const double max_count = lua_isnil(L, -1) ? INFINITY : lua_tonumber(L, -1);
  lua_pop(L, 1);
  const lua_Integer max_features = luma_opt_integer(L, 2, "max_features", -1);
  if (max_count < min_count) {
    luma_meter_done(L, t);
    lua_pushnil(L);
    lua_pushliteral(L, "max_df corresponds to < documents than min_df");
    return 2;
  }
  /* order[r] = the id of the r-th term in sorted order; df and tf by id */
  int64_t *order = lua_newuserdatauv(L, (size_t)V * sizeof(int64_t), 0);
  int64_t *col_of = lua_newuserdatauv(L, (size_t)V * sizeof(int64_t), 0);
  double *df = lua_newuserdatauv(L, (size_t)V * sizeof(double), 0);
  double *tf = lua_newuserdatauv(L, (size_t)V * sizeof(double), 0);
  const int scratch_top = lua_gettop(L);
  for (int64_t id = 0; id < V; id++) order[id] = id, df[id] = tf[id] = 0;
  for (int64_t k = 0; k < c->nnz; k++) {
    df[c->indices[k]] += 1;
    tf[c->indices[k]] += c->data[k];
  }
  /* a merge sort of V terms: about V log2 V comparisons */
  luma_charge(L, (uint64_t)V * (uint64_t)(8 + 2 * (64 - __builtin_clzll((uint64_t)V | 1))));
  int64_t *tmp_sort = lua_newuserdatauv(L, (size_t)V * sizeof(int64_t), 0);
  sort_ids(order, V, tmp_sort, cmp_terms, &c->vocab);
  lua_pop(L, 1);
  /* kept: df in [min_count, max_count]; rank r -> kept flag in col_of
   * (indexed by rank for now) */
  int64_t kept = 0;
  for (int64_t r = 0; r < V; r++) {
    const double d = df[order[r]];
    col_of[r] = d >= min_count && d <= max_count;
    kept += col_of[r];
  }
  if (max_features >= 0 && kept > max_features) {
    /* ranks of the kept, by term frequency (ties: the earlier term) */
    int64_t *cand = lua_newuserdatauv(L, (size_t)(kept ? kept : 1) * sizeof(int64_t), 0);
    double *tf_rank = lua_newuserdatauv(L, (size_t)V * sizeof(double), 0);
    int64_t m = 0;
    for (int64_t r = 0; r < V; r++) {
      tf_rank[r] = tf[order[r]];
      if (col_of[r]) cand[m++] = r;
    }
    int64_t *cand_tmp = lua_newuserdatauv(L, (size_t)(m ? m : 1) * sizeof(int64_t), 0);
    luma_charge(L, (uint64_t)m * (uint64_t)(8 + 2 * (64 - __builtin_clzll((uint64_t)m | 1))));
    sort_ids(cand, m, cand_tmp, cmp_tf, tf_rank);
    for (int64_t r = 0; r < V; r++) col_of[r] = 0;
    for (int64_t k = 0; k < max_features; k++) col_of[cand[k]] = 1;
    kept = max_features;
    lua_pop(L, 3);
  }
  if (kept == 0) {
    luma_meter_done(L, t);
    lua_pushnil(L);
    lua_pushliteral(L, "After pruning, no terms remain. Try a lower min_df or a higher max_df.");
    return 2;
  }
  /* the terms kept and pruned (sorted), then col_of by id */
  lua_createtable(L, (int)kept, 0);
  const int terms = lua_gettop(L);
  lua_createtable(L, (int)(V - kept), 0);
  const int pruned = lua_gettop(L);
  int64_t nk = 0, np = 0;
  for (int64_t r = 0; r < V; r++) {
    push_term(L, &c->vocab, order[r]);
    if (col_of[r]) lua_rawseti(L, terms, ++nk);
    else lua_rawseti(L, pruned, ++np);
  }
  int64_t *tmp = (int64_t *)df; /* df is no longer needed: ranks -> columns */
  nk = 0;
  for (int64_t r = 0; r < V; r++) tmp[r] = col_of[r] ? nk++ : -1;
  for (int64_t r = 0; r < V; r++) col_of[order[r]] = tmp[r];
  push_matrix(L, c, t, col_of, kept);
  luma_meter_done(L, t);
  lua_rotate(L, scratch_top + 1, 1); /* X, terms, pruned */
  return 3;
}

/* hash(docs, opts) -> X | nil, message (opts as count's, plus n_features
 * and alternate_sign) */
static int t_hash(lua_State *L) {
  lua_settop(L, 2);
  luaL_checktype(L, 2, LUA_TTABLE);
  const uint64_t bytes = total_bytes(L);
  luma_TextCounter *c = new_counter(L, 2);
  add_strings(L, c, &c->stop, opt_field(L, 2, "stop_words"), "stop_words");
  c->hashing = 1;
  const lua_Integer nf = luma_opt_integer(L, 2, "n_features", 1 << 20);
  if (nf < 1 || nf > INT32_MAX) luma_arg_error(L, 2, "n_features must be in [1, 2^31 - 1]");
  c->n_features = nf;
  c->alternate_sign = luma_opt_boolean(L, 2, "alternate_sign", 1);
  luma_Threads *t = luma_meter(L, 8 * bytes + 1024);
  if (read_documents(L, c, t, luma_opt_boolean(L, 2, "given", 0)) < 0) {
    luma_meter_done(L, t);
    return 2;
  }
  if (c->rows == 0) {
    c->indptr = c->alloc(c->ud, NULL, 0, sizeof(int64_t));
    if (!c->indptr) return luaL_error(L, "not enough memory");
    c->rows_cap = 1;
    c->indptr[0] = 0;
  }
  /* rows are sorted already: copy */
  luma_Sparse *out = luma_sparse_new(L, c->rows, c->n_features, c->nnz);
  memcpy(out->indptr, c->indptr, ((size_t)c->rows + 1) * sizeof(int64_t));
  if (c->nnz) {
    memcpy(out->indices, c->indices, (size_t)c->nnz * sizeof(int64_t));
    memcpy(out->data, c->data, (size_t)c->nnz * sizeof(double));
  }
  luma_meter_done(L, t);
  return 1;
}

static luma_TextStatus push_feature(void *ctx, const char *f, size_t n) {
  lua_State *L = ctx;
  lua_pushlstring(L, f, n);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  return LUMA_TEXT_OK;
}

/* analyze(doc, opts) -> list of features | nil, message */
static int t_analyze(lua_State *L) {
  lua_settop(L, 2);
  size_t len;
  const char *doc = luaL_checklstring(L, 1, &len);
  luma_TextCounter *c = new_counter(L, 2); /* 3 */
  add_strings(L, c, &c->stop, opt_field(L, 2, "stop_words"), "stop_words");
  lua_settop(L, 3);
  lua_newtable(L); /* 4: the list the sink appends to (stays on top) */
  c->sink = push_feature;
  c->sink_ctx = L;
  luma_charge(L, 8 * (uint64_t)len);
  luma_TextStatus st = luma_text_count(c, NULL, doc, len);
  if (st == LUMA_TEXT_BAD_UTF8) {
    lua_pushnil(L);
    lua_pushfstring(L, "the document is not valid UTF-8 at byte %d: %s", (int)(c->bad_start + 1),
                    c->bad_reason);
    return 2;
  }
  if (st) raise_status(L, NULL, st);
  return 1;
}

/* preprocess(doc, opts) -> the decoded, lowercased text | nil, message */
static int t_preprocess(lua_State *L) {
  lua_settop(L, 2);
  size_t len, out;
  const char *doc = luaL_checklstring(L, 1, &len);
  luma_TextCounter *c = new_counter(L, 2);
  luma_charge(L, 4 * (uint64_t)len);
  luma_TextStatus st = luma_text_preprocess(c, doc, len, &out);
  if (st == LUMA_TEXT_BAD_UTF8) {
    lua_pushnil(L);
    lua_pushfstring(L, "the document is not valid UTF-8 at byte %d: %s", (int)(c->bad_start + 1),
                    c->bad_reason);
    return 2;
  }
  if (st) raise_status(L, NULL, st);
  lua_pushlstring(L, c->buf, out);
  return 1;
}

static luma_Sparse *check_sparse(lua_State *L, int arg) {
  luma_Sparse *s = luma_sparse_test(L, arg);
  if (s == NULL)
    luma_arg_error(L, arg, "luma.SparseMatrix expected, got %s", luaL_typename(L, arg));
  return s;
}

/* weights(X, opts) -> a new X: binary (values 1), sublinear (1 + log x),
 * idf (a matrix of cols values: column j times idf[j]), norm ("l1", "l2"
 * or absent: rows scaled to unit norm, zero rows left), in that order, as
 * scikit-learn's TfidfTransformer.transform and HashingVectorizer. */
static int t_weights(lua_State *L) {
  lua_settop(L, 2);
  luma_Sparse *a = check_sparse(L, 1);
  luma_check_options(L, 2, "binary|sublinear|idf|norm");
  const int binary = luma_opt_boolean(L, 2, "binary", 0);
  const int sublinear = luma_opt_boolean(L, 2, "sublinear", 0);
  const int norm = luma_opt_choice(L, 2, "norm", "none|l1|l2", 0);
  luma_Mat *idf = NULL;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "idf");
    if (!lua_isnil(L, -1)) {
      idf = luma_matrix_check(L, -1);
      if (!luma_mat_is_vector(idf) || idf->rows * idf->cols != a->cols)
        luma_arg_error(L, 2, "idf has %I values (a vector expected) but X has %I columns",
                       (lua_Integer)(idf->rows * idf->cols), (lua_Integer)a->cols);
    }
  }
  luma_charge(L, 4 * (uint64_t)a->nnz + (uint64_t)a->rows);
  luma_Sparse *out = luma_sparse_new(L, a->rows, a->cols, a->nnz);
  memcpy(out->indptr, a->indptr, ((size_t)a->rows + 1) * sizeof(int64_t));
  if (a->nnz) memcpy(out->indices, a->indices, (size_t)a->nnz * sizeof(int64_t));
  for (int64_t k = 0; k < a->nnz; k++) {
    double v = binary ? 1 : a->data[k];
    if (sublinear) v = log(v) + 1;
    if (idf) {
      const int64_t j = a->indices[k];
      v *= luma_vec_at(idf, j);
    }
    out->data[k] = v;
  }
  if (norm)
    for (int64_t i = 0; i < a->rows; i++) {
      double s = 0;
      for (int64_t k = out->indptr[i]; k < out->indptr[i + 1]; k++)
        s += norm == 1 ? fabs(out->data[k]) : out->data[k] * out->data[k];
      if (s == 0) continue;
      if (norm == 2) s = sqrt(s);
      for (int64_t k = out->indptr[i]; k < out->indptr[i + 1]; k++) out->data[k] /= s;
    }
  return 1;
}

/* df(X) -> 1 x cols: the stored entries of each column (documents that
 * hold the term) */
static int t_df(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luma_Mat *out = luma_matrix_new(L, 1, a->cols);
  for (int64_t j = 0; j < a->cols; j++) LUMA_AT(out, 0, j) = 0;
  luma_charge(L, (uint64_t)a->nnz + (uint64_t)a->cols);
  for (int64_t k = 0; k < a->nnz; k++) LUMA_AT(out, 0, a->indices[k]) += 1;
  return 1;
}

/* row_terms(X, terms) -> for each row, the list of terms[j] (1-based) of
 * its non-zero entries, in column order (inverse_transform) */
static int t_row_terms(lua_State *L) {
  luma_Sparse *a = check_sparse(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  luma_charge(L, (uint64_t)a->nnz + (uint64_t)a->rows);
  lua_createtable(L, (int)a->rows, 0);
  for (int64_t i = 0; i < a->rows; i++) {
    lua_newtable(L);
    lua_Integer m = 0;
    for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
      if (a->data[k] == 0) continue;
      lua_rawgeti(L, 2, a->indices[k] + 1);
      lua_rawseti(L, -2, ++m);
    }
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

typedef struct KernelJob {
  const luma_Sparse *x, *y;
  const double *sx, *sy; /* row sums, or NULL: not normalized */
  luma_Mat *out;
} KernelJob;

static void kernel_rows(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const KernelJob *job = ctx;
  const luma_Sparse *x = job->x, *y = job->y;
  for (int64_t i = begin; i < end; i++)
    for (int64_t j = 0; j < y->rows; j++) {
      const int64_t a0 = x->indptr[i], b0 = y->indptr[j];
      double v = luma_text_min_sum(x->indices + a0, x->data + a0, x->indptr[i + 1] - a0,
                                   y->indices + b0, y->data + b0, y->indptr[j + 1] - b0);
      if (job->sx) {
        const double d = sqrt(job->sx[i] * job->sy[j]);
        v = d > 0 ? v / d : 0;
      }
      LUMA_AT(job->out, i, j) = v;
    }
}

/* The row sums of a (pushed as scratch), or NULL with *bad the first row
 * holding a negative or non-finite count. */
static double *row_sums(lua_State *L, const luma_Sparse *a, int64_t *bad) {
  double *s = lua_newuserdatauv(L, (size_t)(a->rows ? a->rows : 1) * sizeof(double), 0);
  luma_charge(L, (uint64_t)a->nnz + (uint64_t)a->rows);
  for (int64_t i = 0; i < a->rows; i++) {
    s[i] = 0;
    for (int64_t k = a->indptr[i]; k < a->indptr[i + 1]; k++) {
      if (!(a->data[k] >= 0) || isinf(a->data[k])) {
        *bad = i;
        return NULL;
      }
      s[i] += a->data[k];
    }
  }
  return s;
}

/* intersection(X, Y, normalized) -> the dense X.rows x Y.rows matrix of
 * sum_k min(x_k, y_k), divided by sqrt(sum x * sum y) when normalized (0
 * for an empty row) | nil, message (a negative or non-finite count) */
static int t_intersection(lua_State *L) {
  luma_Sparse *x = check_sparse(L, 1);
  luma_Sparse *y = check_sparse(L, 2);
  const int normalized = lua_toboolean(L, 3);
  if (x->cols != y->cols)
    luma_arg_error(L, 2, "Y has %I columns but X has %I", (lua_Integer)y->cols,
                   (lua_Integer)x->cols);
  int64_t bad = 0;
  double *sx = row_sums(L, x, &bad);
  double *sy = sx ? row_sums(L, y, &bad) : NULL;
  if (!sx || !sy) {
    lua_pushnil(L);
    lua_pushfstring(L, "bad argument #%d to 'bow_kernel' (counts must be finite and >= 0, row %I "
                    "has one that is not)", sx ? 2 : 1, (lua_Integer)(bad + 1));
    return 2;
  }
  luma_Mat *out = luma_matrix_new(L, x->rows, y->rows);
  KernelJob job = {x, y, normalized ? sx : NULL, normalized ? sy : NULL, out};
  const uint64_t per_row = (uint64_t)y->rows + (uint64_t)y->nnz +
                           (uint64_t)(x->rows ? x->nnz / x->rows : 0) * (uint64_t)y->rows;
  luma_Threads *t = luma_threads_of(L);
  luma_Loop loop = {x->rows, 1, per_row + 1, 0, kernel_rows, &job};
  int st = luma_parallel_for(t, &loop);
  luma_threads_finish(L, t, st);
  return 1;
}

/* murmurhash3_32(s [, seed = 0]) -> the signed 32-bit MurmurHash3_x86_32 */
static int t_murmur(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  const lua_Integer seed = luaL_optinteger(L, 2, 0);
  if (seed < 0 || seed > (lua_Integer)UINT32_MAX)
    luma_arg_error(L, 2, "seed must be in [0, 2^32 - 1], got %I", seed);
  luma_charge(L, (uint64_t)len / 4 + 1);
  lua_pushinteger(L, luma_text_murmur3(s, len, (uint32_t)seed));
  return 1;
}

/* ------------------------------------------------------------- LDA */

/* bad_counts(X) -> the first row (1-based) holding a negative or
 * non-finite value, or nil */
static int t_bad_counts(lua_State *L) {
  luma_Sparse *x = check_sparse(L, 1);
  int64_t bad = -1;
  if (row_sums(L, x, &bad) != NULL) lua_pushnil(L);
  else lua_pushinteger(L, bad + 1);
  return 1;
}

/* lda_estep(X, ew, prior, max_iter, tol, doc_topic, sstats?) -> sstats |
 * nothing: the E-step (lda.h), doc_topic (n x k) updated in place; with
 * sstats true, the k x V expected counts (not yet times ew). */
static int t_lda_estep(lua_State *L) {
  luma_Sparse *x = check_sparse(L, 1);
  luma_Mat *ew = luma_matrix_check(L, 2);
  const double prior = luaL_checknumber(L, 3);
  const lua_Integer max_iter = luaL_checkinteger(L, 4);
  const double tol = luaL_checknumber(L, 5);
  luma_Mat *dt = luma_matrix_check(L, 6);
  const int want = lua_toboolean(L, 7);
  if (ew->cols != x->cols || dt->rows != x->rows || dt->cols != ew->rows || max_iter < 0 ||
      max_iter > INT32_MAX)
    luma_arg_error(L, 1, "inconsistent LDA shapes");
  luma_Mat *ss = NULL;
  if (want) {
    ss = luma_matrix_new(L, ew->rows, ew->cols);
    for (int64_t i = 0; i < ss->rows; i++)
      for (int64_t j = 0; j < ss->cols; j++) LUMA_AT(ss, i, j) = 0;
  }
  const int64_t blocks = luma_lda_blocks(x, ew->rows, want);
  const size_t per = luma_lda_scratch_block(x, ew->rows);
  const size_t extra = want ? (size_t)(blocks - 1) * (size_t)(ew->rows * ew->cols) : 0;
  double *scratch = lua_newuserdatauv(L, ((size_t)blocks * per + extra) * sizeof(double), 0);
  luma_Threads *t = luma_threads_of(L);
  luma_lda_estep(t, x, ew, prior, (int)max_iter, tol, dt, ss, blocks, scratch);
  luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises if the meter stopped */
  lua_pop(L, 1);
  return want ? 1 : 0;
}

/* lda_expect(M) -> psi(M) - psi(row sums) */
static int t_lda_expect(lua_State *L) {
  luma_Mat *m = luma_matrix_check(L, 1);
  luma_Mat *out = luma_matrix_new(L, m->rows, m->cols);
  /* (an empty matrix may have 2^31 - 1 rows of no columns: nothing to
   * loop over) */
  if (m->rows * m->cols == 0) return 1;
  luma_Threads *t = luma_meter(L, 8 * (uint64_t)(m->rows * m->cols) + 1);
  luma_lda_dirichlet_expectation(t, m, out);
  luma_meter_done(L, t);
  return 1;
}

/* lda_doc_bound(X, edt, ec) -> sum_d sum_w x_dw logsumexp_k(edt[d][k] + ec[k][w]) */
static int t_lda_doc_bound(lua_State *L) {
  luma_Sparse *x = check_sparse(L, 1);
  luma_Mat *edt = luma_matrix_check(L, 2);
  luma_Mat *ec = luma_matrix_check(L, 3);
  if (ec->cols != x->cols || edt->rows != x->rows || edt->cols != ec->rows)
    luma_arg_error(L, 1, "inconsistent LDA shapes");
  luma_Threads *t = luma_meter(L, 4 * (uint64_t)(x->nnz * ec->rows) + 1);
  const double v = luma_lda_doc_bound(t, x, edt, ec);
  luma_meter_done(L, t);
  lua_pushnumber(L, v);
  return 1;
}

static const luma_Func funcs[] = {
    {"count", t_count, "count(docs, opts)", "Counts the analyzed features of documents."},
    {"hash", t_hash, "hash(docs, opts)", "Counts hashed features of documents."},
    {"analyze", t_analyze, "analyze(doc, opts)", "The features of one document, in order."},
    {"preprocess", t_preprocess, "preprocess(doc, opts)", "A document decoded and lowercased."},
    {"weights", t_weights, "weights(X, opts)", "Binary, sublinear, idf and row norms."},
    {"df", t_df, "df(X)", "Stored entries per column."},
    {"row_terms", t_row_terms, "row_terms(X, terms)", "Terms of each row's non-zeros."},
    {"intersection", t_intersection, "intersection(X, Y, normalized)",
     "The bag-of-words intersection kernel."},
    {"lda_estep", t_lda_estep, "lda_estep(X, ew, prior, max_iter, tol, doc_topic, sstats)",
     "The LDA E-step."},
    {"bad_counts", t_bad_counts, "bad_counts(X)", "The first row with a bad count."},
    {"lda_expect", t_lda_expect, "lda_expect(M)", "Dirichlet expectations of rows."},
    {"lda_doc_bound", t_lda_doc_bound, "lda_doc_bound(X, edt, ec)", "The documents' bound term."},
    {"murmurhash3_32", t_murmur, "murmurhash3_32(s [, seed])", "MurmurHash3_x86_32, signed."},
    {NULL, NULL, NULL, NULL}};

int luma_open_text_native(lua_State *L) {
  lua_newtable(L);
  luma_register_funcs(L, lua_gettop(L), "luma.text.native", funcs);
  lua_pushstring(L, luma_text_unicode_version);
  lua_setfield(L, -2, "unicode_version");
  return 1;
}
