/*
 * text.h - the native half of luma.text: UTF-8 decoding, Unicode
 * lowercasing, scikit-learn's three analyzers (word, char, char_wb) and the
 * counting of their features into a sparse matrix of documents x terms
 * (no Lua).
 *
 * A counter reads documents one at a time.  Each is decoded (invalid UTF-8
 * refused, replaced by U+FFFD per maximal invalid subpart, or dropped, as
 * Python's 'strict', 'replace' and 'ignore'), lowercased as Python's
 * str.lower() (full Unicode, Final_Sigma included), cut into features by
 * the analyzer and counted.  Features are either terms of a vocabulary (a
 * hash table of byte strings that grows, or stays fixed and skips unknown
 * terms) or columns by MurmurHash3 (HashingVectorizer).  Counts go into a
 * CSR matrix that grows row by row; its columns are term ids in order of
 * first appearance (the caller sorts and prunes them).
 *
 * Memory comes from an allocator with lua_Alloc's signature (the binding
 * passes the state's, so the memory limit applies); luma_text_free
 * releases everything.  Work is charged to a meter (core/parallel.h).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TEXT_H
#define LUMA_ML_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/parallel.h"

typedef void *(*luma_TextAlloc)(void *ud, void *ptr, size_t osize, size_t nsize);

enum { LUMA_TEXT_WORD, LUMA_TEXT_CHAR, LUMA_TEXT_CHAR_WB };
enum { LUMA_TEXT_STRICT, LUMA_TEXT_REPLACE, LUMA_TEXT_IGNORE };

typedef enum luma_TextStatus {
  LUMA_TEXT_OK = 0,
  LUMA_TEXT_NOMEM,    /* the allocator refused */
  LUMA_TEXT_BAD_UTF8, /* strict decoding met invalid UTF-8 (see bad_*) */
  LUMA_TEXT_STOPPED   /* the meter stopped */
} luma_TextStatus;

/* A set of byte strings numbered 0, 1, ... in order of insertion. */
typedef struct luma_TextSet {
  char *arena;
  size_t arena_len, arena_cap;
  int64_t *off;   /* per id: where its bytes start in arena */
  uint32_t *len;  /* per id: its length */
  uint64_t *hash; /* per id */
  int64_t count, cap;
  int64_t *slots; /* open addressing: id + 1, 0 for empty */
  uint64_t mask;  /* slots - 1 (a power of two minus one), 0 before the first insert */
} luma_TextSet;

typedef struct luma_TextCounter {
  luma_TextAlloc alloc;
  void *ud;
  /* options */
  int analyzer, lowercase, decode, min_n, max_n;
  int fixed;               /* vocab does not grow: unknown features are skipped */
  int hashing;             /* columns by MurmurHash3 instead of vocab */
  int64_t n_features;      /* hashing: columns */
  int alternate_sign;      /* hashing: sign from the hash */
  /* when set, features go here (in the analyzer's order) instead of being
   * counted: build_analyzer's list */
  luma_TextStatus (*sink)(void *ctx, const char *f, size_t n);
  void *sink_ctx;
  luma_TextSet vocab, stop;
  /* the counts, documents x ids */
  int64_t rows, rows_cap, nnz, nnz_cap;
  int64_t *indptr, *indices;
  double *data;
  /* per id: the last document that used it and its entry there */
  int64_t *mark, *slot;
  int64_t mark_cap;
  /* scratch of one document */
  uint32_t *cp, *low;     /* decoded code points, lowercased */
  size_t cp_cap, low_cap;
  char *buf;              /* UTF-8 of the analyzed text (tokens joined by spaces) */
  size_t buf_cap;
  int64_t *pos;           /* byte offsets in buf: of code points, or token bounds */
  size_t pos_cap;
  /* where strict decoding failed (0-based bytes [bad_start, bad_end]) */
  int64_t bad_start, bad_end;
  const char *bad_reason;
} luma_TextCounter;

/* Sets up an empty counter; options are set in the fields afterwards. */
void luma_text_init(luma_TextCounter *c, luma_TextAlloc alloc, void *ud);
void luma_text_free(luma_TextCounter *c);

/* Adds a string to a set: its id, the id it already had (*added = 0), or
 * -1 if out of memory. */
int64_t luma_text_set_add(luma_TextCounter *c, luma_TextSet *s, const char *str, size_t len,
                          int *added);
/* The id of a string, or -1. */
int64_t luma_text_set_find(const luma_TextSet *s, const char *str, size_t len);

/* Analyzes one document and appends its row of counts. */
luma_TextStatus luma_text_count(luma_TextCounter *c, luma_Threads *t, const char *doc,
                                size_t len);

/* Appends the row of a document whose features were made elsewhere (a
 * script's own analyzer): next(ctx, k, &len) gives feature k of count,
 * whose bytes total `bytes`; they are counted or hashed as the
 * analyzers' features are. */
typedef const char *(*luma_TextNextFeature)(void *ctx, int64_t k, size_t *len);
luma_TextStatus luma_text_count_given(luma_TextCounter *c, luma_Threads *t,
                                      luma_TextNextFeature next, void *ctx, int64_t count,
                                      uint64_t bytes);

/* The decoded, lowercased (if asked) text of one document as UTF-8 in
 * c->buf, its length in *out_len: what the analyzers see (for tests and
 * build_preprocessor). */
luma_TextStatus luma_text_preprocess(luma_TextCounter *c, const char *doc, size_t len,
                                     size_t *out_len);

/* MurmurHash3_x86_32 (Appleby's public-domain algorithm), as scikit-learn's
 * murmurhash3_32 with positive = False reads it: a signed 32-bit value. */
int32_t luma_text_murmur3(const void *key, size_t len, uint32_t seed);

/* The sum over shared terms of min(a_k, b_k) for two canonical sparse
 * rows (sorted indices). */
double luma_text_min_sum(const int64_t *ai, const double *av, int64_t an, const int64_t *bi,
                         const double *bv, int64_t bn);

#endif
