/*
 * text.c - decoding, lowercasing, analyzers and counting of luma.text
 * (text.h).  The rules are scikit-learn 1.2's (sklearn/feature_extraction/
 * text.py) on Python's str semantics, rewritten here:
 *   word     tokens are maximal runs of 2+ word characters (the default
 *            token_pattern (?u)\b\w\w+\b), stop words dropped, then
 *            n-grams of consecutive tokens joined by one space;
 *   char     runs of 2+ whitespace characters become one space, then
 *            n-grams of consecutive code points;
 *   char_wb  the same text split at whitespace, each word padded with a
 *            space on both sides, n-grams inside the padded words (a word
 *            shorter than n counted once).
 * SPDX-License-Identifier: MIT
 */
#include "text/text.h"

#include <stdlib.h>
#include <string.h>

#include "text/unicode.h"

/* ---------------------------------------------------------- memory */

static int grow(luma_TextCounter *c, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 64;
  while (n < need) n *= 2;
  void *q = c->alloc(c->ud, *p, *p ? *cap * elem : 0, n * elem);
  if (q == NULL) return 1;
  *p = q;
  *cap = n;
  return 0;
}

static void release(luma_TextCounter *c, void *p, size_t bytes) {
  if (p) c->alloc(c->ud, p, bytes, 0);
}

void luma_text_init(luma_TextCounter *c, luma_TextAlloc alloc, void *ud) {
  memset(c, 0, sizeof *c);
  c->alloc = alloc;
  c->ud = ud;
  c->min_n = c->max_n = 1;
  c->lowercase = 1;
  c->n_features = 1 << 20;
}

static void set_free(luma_TextCounter *c, luma_TextSet *s) {
  release(c, s->arena, s->arena_cap);
  release(c, s->off, (size_t)s->cap * sizeof *s->off);
  release(c, s->len, (size_t)s->cap * sizeof *s->len);
  release(c, s->hash, (size_t)s->cap * sizeof *s->hash);
  if (s->mask) release(c, s->slots, (size_t)(s->mask + 1) * sizeof *s->slots);
  memset(s, 0, sizeof *s);
}

void luma_text_free(luma_TextCounter *c) {
  set_free(c, &c->vocab);
  set_free(c, &c->stop);
  release(c, c->indptr, (size_t)c->rows_cap * sizeof *c->indptr);
  release(c, c->indices, (size_t)c->nnz_cap * sizeof *c->indices);
  release(c, c->data, (size_t)c->nnz_cap * sizeof *c->data);
  release(c, c->mark, (size_t)c->mark_cap * sizeof *c->mark);
  release(c, c->slot, (size_t)c->mark_cap * sizeof *c->slot);
  release(c, c->cp, c->cp_cap * sizeof *c->cp);
  release(c, c->low, c->low_cap * sizeof *c->low);
  release(c, c->buf, c->buf_cap);
  release(c, c->pos, c->pos_cap * sizeof *c->pos);
  c->indptr = c->indices = c->mark = c->slot = c->pos = NULL;
  c->data = NULL;
  c->cp = c->low = NULL;
  c->buf = NULL;
  c->rows_cap = c->nnz_cap = c->mark_cap = 0;
  c->cp_cap = c->low_cap = c->buf_cap = c->pos_cap = 0;
}

/* ---------------------------------------------------------- hash set */

/* A 64-bit hash of a byte string, 8 bytes per step: each word is mixed in
 * by a multiply and a rotation, the length folded in, and a final
 * avalanche (the low bits pick the slot). */
static uint64_t hash_bytes(const char *s, size_t n) {
  const uint64_t m = 0x9e3779b97f4a7c15u;
  uint64_t h = 0x243f6a8885a308d3u ^ (uint64_t)n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { /* audit-loops: a scan of the key, whose bytes the caller charges */
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ (w * m)) * m;
    h = (h << 29) | (h >> 35);
  }
  uint64_t w = 0;
  memcpy(&w, s + i, n - i);
  h = (h ^ (w * m)) * m;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  return h;
}

static int64_t lookup(const luma_TextSet *s, const char *str, size_t len, uint64_t h,
                      uint64_t *slot) {
  uint64_t k = h & s->mask;
  /* audit-loops: a hash probe (O(1) expected steps at load <= 1/2); the caller charges the item */
  for (;;) {
    const int64_t e = s->slots[k];
    if (e == 0) {
      *slot = k;
      return -1;
    }
    const int64_t id = e - 1;
    if (s->hash[id] == h && s->len[id] == len && memcmp(s->arena + s->off[id], str, len) == 0)
      return id;
    k = (k + 1) & s->mask;
  }
}

int64_t luma_text_set_find(const luma_TextSet *s, const char *str, size_t len) {
  if (s->count == 0) return -1;
  uint64_t slot;
  return lookup(s, str, len, hash_bytes(str, len), &slot);
}

static int rehash(luma_TextCounter *c, luma_TextSet *s, uint64_t nslots) {
  int64_t *slots = c->alloc(c->ud, NULL, 0, nslots * sizeof *slots);
  if (slots == NULL) return 1;
  memset(slots, 0, nslots * sizeof *slots);
  /* audit-loops: a doubling rehash, amortized O(1) per insert, which the caller charges */
  for (int64_t id = 0; id < s->count; id++) {
    uint64_t k = s->hash[id] & (nslots - 1);
    /* audit-loops: a hash probe (O(1) expected steps) */
    while (slots[k]) k = (k + 1) & (nslots - 1);
    slots[k] = id + 1;
  }
  if (s->mask) release(c, s->slots, (size_t)(s->mask + 1) * sizeof *s->slots);
  s->slots = slots;
  s->mask = nslots - 1;
  return 0;
}

int64_t luma_text_set_add(luma_TextCounter *c, luma_TextSet *s, const char *str, size_t len,
                          int *added) {
  *added = 0;
  if (len > UINT32_MAX) return -1;
  if (s->mask == 0 && rehash(c, s, 1024)) return -1;
  const uint64_t h = hash_bytes(str, len);
  uint64_t slot;
  int64_t id = lookup(s, str, len, h, &slot);
  if (id >= 0) return id;
  if ((uint64_t)(s->count + 1) * 2 > s->mask + 1) { /* load at most 1/2 */
    if (rehash(c, s, (s->mask + 1) * 2)) return -1;
    lookup(s, str, len, h, &slot);
  }
  if (s->count == s->cap) {
    size_t cap = (size_t)s->cap, cap2 = cap, cap3 = cap;
    if (grow(c, (void **)&s->off, &cap, cap + 1, sizeof *s->off)) return -1;
    if (grow(c, (void **)&s->len, &cap2, cap2 + 1, sizeof *s->len)) return -1;
    if (grow(c, (void **)&s->hash, &cap3, cap3 + 1, sizeof *s->hash)) return -1;
    s->cap = (int64_t)cap; /* the three grow alike */
  }
  if (grow(c, (void **)&s->arena, &s->arena_cap, s->arena_len + len + 1, 1)) return -1;
  memcpy(s->arena + s->arena_len, str, len);
  id = s->count++;
  s->off[id] = (int64_t)s->arena_len;
  s->len[id] = (uint32_t)len;
  s->hash[id] = h;
  s->arena_len += len;
  s->slots[slot] = id + 1;
  *added = 1;
  return id;
}

/* ------------------------------------------------------ character classes */

static int in_ranges(const luma_TextRange *r, int n, uint32_t ch) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    if (ch < r[mid].lo) hi = mid - 1;
    else if (ch > r[mid].hi) lo = mid + 1;
    else return 1;
  }
  return 0;
}

/* \w and lowercase on ASCII bytes (tables: the tokenizer's inner loop). */
static const unsigned char ASCII_WORD[128] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['_'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
    ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1};

static int is_word(uint32_t ch) {
  if (ch < 128) return ASCII_WORD[ch];
  return in_ranges(luma_text_word, luma_text_word_count, ch);
}

static int is_space(uint32_t ch) {
  if (ch < 128) return ch == ' ' || (ch >= 9 && ch <= 13) || (ch >= 28 && ch <= 31);
  return in_ranges(luma_text_space, luma_text_space_count, ch);
}

static uint32_t lower_of(uint32_t ch) {
  if (ch < 128) return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
  int lo = 0, hi = luma_text_lower_count - 1;
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    if (ch < luma_text_lower[mid].from) hi = mid - 1;
    else if (ch > luma_text_lower[mid].from) lo = mid + 1;
    else return luma_text_lower[mid].to;
  }
  return ch;
}

/* str.lower()'s Final_Sigma: a capital sigma preceded by a cased letter
 * and not followed by one (case-ignorable characters skipped both ways). */
static int final_sigma(const uint32_t *s, size_t n, size_t i) {
  size_t j = i;
  while (j > 0 && in_ranges(luma_text_ignorable, luma_text_ignorable_count, s[j - 1])) j--;
  if (j == 0 || !in_ranges(luma_text_cased, luma_text_cased_count, s[j - 1])) return 0;
  j = i + 1;
  while (j < n && in_ranges(luma_text_ignorable, luma_text_ignorable_count, s[j])) j++;
  return j == n || !in_ranges(luma_text_cased, luma_text_cased_count, s[j]);
}

/* ---------------------------------------------------------- decoding */

/* Decodes doc into c->cp (count in *n) under c->decode. */
static luma_TextStatus decode(luma_TextCounter *c, const unsigned char *s, size_t len,
                              size_t *n) {
  if (grow(c, (void **)&c->cp, &c->cp_cap, len + 1, sizeof *c->cp)) return LUMA_TEXT_NOMEM;
  uint32_t *out = c->cp;
  size_t k = 0, i = 0;
  while (i < len) {
    const unsigned b = s[i];
    if (b < 0x80) {
      out[k++] = b;
      i++;
      continue;
    }
    int need;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t ch;
    if (b >= 0xC2 && b <= 0xDF) need = 1, ch = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF) {
      need = 2, ch = b & 0x0F;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      need = 3, ch = b & 0x07;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      need = -1, ch = 0;
    }
    size_t got = 0; /* continuation bytes that fit */
    const char *reason = "invalid start byte";
    if (need > 0) {
      reason = NULL;
      for (int m = 1; m <= need; m++) {
        if (i + (size_t)m >= len) {
          reason = "unexpected end of data";
          break;
        }
        const unsigned cb = s[i + (size_t)m];
        if (cb < (m == 1 ? lo : 0x80) || cb > (m == 1 ? hi : 0xBF)) {
          reason = "invalid continuation byte";
          break;
        }
        ch = (ch << 6) | (cb & 0x3F);
        got++;
      }
    }
    if (reason == NULL) {
      out[k++] = ch;
      i += (size_t)need + 1;
      continue;
    }
    /* the maximal subpart: the lead byte and the continuations that fit */
    if (c->decode == LUMA_TEXT_STRICT) {
      c->bad_start = (int64_t)i;
      c->bad_end = (int64_t)(i + got);
      c->bad_reason = reason;
      return LUMA_TEXT_BAD_UTF8;
    }
    if (c->decode == LUMA_TEXT_REPLACE) out[k++] = 0xFFFD;
    i += got + 1;
  }
  *n = k;
  return LUMA_TEXT_OK;
}

/* Decodes and lowercases into c->low (count in *n). */
static luma_TextStatus prepare(luma_TextCounter *c, const char *doc, size_t len, size_t *n) {
  size_t m;
  luma_TextStatus st = decode(c, (const unsigned char *)doc, len, &m);
  if (st) return st;
  if (grow(c, (void **)&c->low, &c->low_cap, 2 * m + 1, sizeof *c->low)) return LUMA_TEXT_NOMEM;
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    const uint32_t ch = c->cp[i];
    if (!c->lowercase) c->low[k++] = ch;
    else if (ch == 0x130) { /* the one lowercase of two characters: i + combining dot */
      c->low[k++] = 'i';
      c->low[k++] = 0x307;
    } else if (ch == 0x3A3) c->low[k++] = final_sigma(c->cp, m, i) ? 0x3C2 : 0x3C3;
    else c->low[k++] = lower_of(ch);
  }
  *n = k;
  return LUMA_TEXT_OK;
}

static size_t put_utf8(char *o, uint32_t ch) {
  if (ch < 0x80) {
    o[0] = (char)ch;
    return 1;
  }
  if (ch < 0x800) {
    o[0] = (char)(0xC0 | (ch >> 6));
    o[1] = (char)(0x80 | (ch & 0x3F));
    return 2;
  }
  if (ch < 0x10000) {
    o[0] = (char)(0xE0 | (ch >> 12));
    o[1] = (char)(0x80 | ((ch >> 6) & 0x3F));
    o[2] = (char)(0x80 | (ch & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (ch >> 18));
  o[1] = (char)(0x80 | ((ch >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((ch >> 6) & 0x3F));
  o[3] = (char)(0x80 | (ch & 0x3F));
  return 4;
}

luma_TextStatus luma_text_preprocess(luma_TextCounter *c, const char *doc, size_t len,
                                     size_t *out_len) {
  size_t n;
  luma_TextStatus st = prepare(c, doc, len, &n);
  if (st) return st;
  if (grow(c, (void **)&c->buf, &c->buf_cap, 4 * n + 1, 1)) return LUMA_TEXT_NOMEM;
  size_t b = 0;
  for (size_t i = 0; i < n; i++) b += put_utf8(c->buf + b, c->low[i]);
  *out_len = b;
  return LUMA_TEXT_OK;
}

/* ---------------------------------------------------------- MurmurHash3 */

static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

int32_t luma_text_murmur3(const void *key, size_t len, uint32_t seed) {
  const unsigned char *p = key;
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h = seed;
  const size_t blocks = len / 4;
  /* audit-loops: a scan of the key, whose bytes the caller charges */
  for (size_t i = 0; i < blocks; i++) {
    uint32_t k = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
                 (uint32_t)p[4 * i + 3] << 24;
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const unsigned char *tail = p + 4 * blocks;
  uint32_t k = 0;
  switch (len & 3) {
    case 3: k ^= (uint32_t)tail[2] << 16; /* fall through */
    case 2: k ^= (uint32_t)tail[1] << 8;  /* fall through */
    case 1:
      k ^= tail[0];
      k *= c1;
      k = rotl32(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= (uint32_t)len;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return (int32_t)h;
}

/* ---------------------------------------------------------- counting */

/* One feature (bytes f[0..n-1]) of the current document. */
static luma_TextStatus feature(luma_TextCounter *c, const char *f, size_t n) {
  int64_t col;
  double v = 1;
  if (c->sink) return c->sink(c->sink_ctx, f, n);
  if (c->hashing) {
    const int32_t h = luma_text_murmur3(f, n, 0);
    /* scikit-learn's _hashing_fast: |h| mod n, with INT32_MIN (whose
     * absolute value does not fit) mapped as it maps it */
    if (h == INT32_MIN) col = (INT32_MAX - (c->n_features - 1)) % c->n_features;
    else col = (int64_t)(h < 0 ? -(int64_t)h : h) % c->n_features;
    if (c->alternate_sign && h < 0) v = -1;
    /* luma_text_count made room for every feature of the document */
    c->indices[c->nnz] = col;
    c->data[c->nnz++] = v;
    return LUMA_TEXT_OK;
  }
  if (c->fixed) {
    col = luma_text_set_find(&c->vocab, f, n);
    if (col < 0) return LUMA_TEXT_OK;
  } else {
    int added;
    col = luma_text_set_add(c, &c->vocab, f, n, &added);
    if (col < 0) return LUMA_TEXT_NOMEM;
    if (added && col >= c->mark_cap) {
      size_t cap = (size_t)c->mark_cap, cap2 = cap;
      if (grow(c, (void **)&c->mark, &cap, (size_t)col + 1, sizeof *c->mark)) return LUMA_TEXT_NOMEM;
      if (grow(c, (void **)&c->slot, &cap2, (size_t)col + 1, sizeof *c->slot)) return LUMA_TEXT_NOMEM;
      for (size_t k = (size_t)c->mark_cap; k < cap; k++) c->mark[k] = -1;
      c->mark_cap = (int64_t)cap;
    }
  }
  if (c->mark[col] == c->rows) {
    c->data[c->slot[col]] += 1;
    return LUMA_TEXT_OK;
  }
  if ((size_t)c->nnz >= (size_t)c->nnz_cap) {
    size_t cap = (size_t)c->nnz_cap, cap2 = cap;
    if (grow(c, (void **)&c->indices, &cap, (size_t)c->nnz + 1, sizeof *c->indices) ||
        grow(c, (void **)&c->data, &cap2, (size_t)c->nnz + 1, sizeof *c->data))
      return LUMA_TEXT_NOMEM;
    c->nnz_cap = (int64_t)cap;
  }
  c->mark[col] = c->rows;
  c->slot[col] = c->nnz;
  c->indices[c->nnz] = col;
  c->data[c->nnz++] = 1;
  return LUMA_TEXT_OK;
}

/* UTF-8 of low[0..n-1] into buf, with pos[i] the offset of code point i
 * (pos[n] the end). */
static luma_TextStatus encode_positions(luma_TextCounter *c, const uint32_t *low, size_t n) {
  if (grow(c, (void **)&c->buf, &c->buf_cap, 4 * n + 1, 1) ||
      grow(c, (void **)&c->pos, &c->pos_cap, n + 1, sizeof *c->pos))
    return LUMA_TEXT_NOMEM;
  size_t b = 0;
  for (size_t i = 0; i < n; i++) {
    c->pos[i] = (int64_t)b;
    b += put_utf8(c->buf + b, low[i]);
  }
  c->pos[n] = (int64_t)b;
  return LUMA_TEXT_OK;
}

/* The word n-grams of the ntok tokens in c->buf (token t is bytes
 * pos[2t] .. pos[2t+1]-1, tokens joined by single spaces, so an n-gram is
 * one slice). */
static luma_TextStatus word_ngrams(luma_TextCounter *c, size_t ntok) {
  for (int g = c->min_n; g <= c->max_n && (size_t)g <= ntok; g++)
    for (size_t t = 0; t + (size_t)g <= ntok; t++) {
      const int64_t from = c->pos[2 * t], to = c->pos[2 * (t + (size_t)g - 1) + 1];
      luma_TextStatus st = feature(c, c->buf + from, (size_t)(to - from));
      if (st) return st;
    }
  return LUMA_TEXT_OK;
}

/* Token t ends at byte b of c->buf: kept (and a space appended) unless a
 * stop word, in which case b goes back to its start.  Returns the new b. */
static size_t keep_token(luma_TextCounter *c, size_t start, size_t b, size_t *ntok) {
  if (c->stop.count && luma_text_set_find(&c->stop, c->buf + start, b - start) >= 0) return start;
  c->pos[2 * *ntok] = (int64_t)start;
  c->pos[2 * *ntok + 1] = (int64_t)b;
  (*ntok)++;
  c->buf[b++] = ' ';
  return b;
}

static luma_TextStatus words(luma_TextCounter *c, size_t n) {
  if (grow(c, (void **)&c->buf, &c->buf_cap, 4 * n + 1, 1) ||
      grow(c, (void **)&c->pos, &c->pos_cap, n + 2, sizeof *c->pos))
    return LUMA_TEXT_NOMEM;
  const uint32_t *s = c->low;
  size_t b = 0, ntok = 0, i = 0;
  while (i < n) {
    if (!is_word(s[i])) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < n && is_word(s[j])) j++;
    if (j - i >= 2) {
      const size_t start = b;
      for (size_t k = i; k < j; k++) b += put_utf8(c->buf + b, s[k]);
      b = keep_token(c, start, b, &ntok);
    }
    i = j;
  }
  return word_ngrams(c, ntok);
}

/* The word analyzer on a document of ASCII bytes, straight from the bytes
 * (the same tokens: on ASCII, \w is [0-9A-Za-z_] and lowercasing maps
 * A-Z alone). */
static luma_TextStatus ascii_words(luma_TextCounter *c, const unsigned char *s, size_t n) {
  if (grow(c, (void **)&c->buf, &c->buf_cap, n + 2, 1) ||
      grow(c, (void **)&c->pos, &c->pos_cap, n + 2, sizeof *c->pos))
    return LUMA_TEXT_NOMEM;
  const unsigned char flip = c->lowercase ? 32 : 0; /* 'A' | 32 == 'a' */
  size_t b = 0, ntok = 0, i = 0;
  while (i < n) {
    if (!ASCII_WORD[s[i]]) {
      i++;
      continue;
    }
    const size_t start = b;
    size_t j = i;
    for (; j < n && ASCII_WORD[s[j]]; j++)
      c->buf[b++] = (char)(s[j] >= 'A' && s[j] <= 'Z' ? s[j] | flip : s[j]);
    if (j - i >= 2) b = keep_token(c, start, b, &ntok);
    else b = start;
    i = j;
  }
  return word_ngrams(c, ntok);
}

static int is_ascii(const unsigned char *s, size_t n) {
  uint64_t any = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { /* 8 bytes at a time: any high bit set */
    uint64_t w;
    memcpy(&w, s + i, 8);
    any |= w;
  }
  for (; i < n; i++) any |= s[i];
  return (any & 0x8080808080808080u) == 0;
}

/* Runs of two or more whitespace characters become one space (the
 * pattern \s\s+), in place in c->low; returns the new length. */
static size_t squeeze_spaces(luma_TextCounter *c, size_t n) {
  uint32_t *s = c->low;
  size_t k = 0, i = 0;
  while (i < n) {
    if (is_space(s[i]) && i + 1 < n && is_space(s[i + 1])) {
      while (i < n && is_space(s[i])) i++;
      s[k++] = ' ';
    } else {
      s[k++] = s[i++];
    }
  }
  return k;
}

static luma_TextStatus chars(luma_TextCounter *c, size_t n) {
  n = squeeze_spaces(c, n);
  luma_TextStatus st = encode_positions(c, c->low, n);
  if (st) return st;
  for (int g = c->min_n; g <= c->max_n && (size_t)g <= n; g++)
    for (size_t i = 0; i + (size_t)g <= n; i++) {
      st = feature(c, c->buf + c->pos[i], (size_t)(c->pos[i + (size_t)g] - c->pos[i]));
      if (st) return st;
    }
  return LUMA_TEXT_OK;
}

static luma_TextStatus chars_wb(luma_TextCounter *c, size_t n) {
  n = squeeze_spaces(c, n);
  /* the padded words, " word ", one after another in cp (as code points) */
  if (grow(c, (void **)&c->cp, &c->cp_cap, 3 * n + 2, sizeof *c->cp)) return LUMA_TEXT_NOMEM;
  const uint32_t *s = c->low;
  size_t i = 0;
  while (i < n) {
    if (is_space(s[i])) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < n && !is_space(s[j])) j++;
    const size_t w = j - i + 2;
    c->cp[0] = ' ';
    memcpy(c->cp + 1, s + i, (j - i) * sizeof *s);
    c->cp[w - 1] = ' ';
    luma_TextStatus st = encode_positions(c, c->cp, w);
    if (st) return st;
    for (int g = c->min_n; g <= c->max_n; g++) {
      size_t off = 0;
      const size_t end = (size_t)g < w ? (size_t)g : w;
      st = feature(c, c->buf, (size_t)c->pos[end]);
      if (st) return st;
      while (off + (size_t)g < w) {
        off++;
        const size_t e = off + (size_t)g < w ? off + (size_t)g : w;
        st = feature(c, c->buf + c->pos[off], (size_t)(c->pos[e] - c->pos[off]));
        if (st) return st;
      }
      if (off == 0) break; /* the whole word: longer n-grams are the same */
    }
    i = j;
  }
  return LUMA_TEXT_OK;
}

static int cmp_entry(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The hashed row just appended: sorted by column, duplicates summed (a sum
 * of zero stays stored, as scipy's sum_duplicates keeps it). */
static luma_TextStatus finish_hashed_row(luma_TextCounter *c, int64_t start) {
  const int64_t m = c->nnz - start;
  if (m < 2) return LUMA_TEXT_OK;
  /* sort (column, value) pairs through one interleaved scratch array */
  size_t need = 2 * (size_t)m;
  if (grow(c, (void **)&c->pos, &c->pos_cap, need, sizeof *c->pos)) return LUMA_TEXT_NOMEM;
  for (int64_t k = 0; k < m; k++) {
    c->pos[2 * k] = c->indices[start + k];
    c->pos[2 * k + 1] = c->data[start + k] > 0 ? 1 : -1;
  }
  qsort(c->pos, (size_t)m, 2 * sizeof *c->pos, cmp_entry);
  int64_t w = start;
  for (int64_t k = 0; k < m; k++) {
    if (w > start && c->indices[w - 1] == c->pos[2 * k]) {
      c->data[w - 1] += (double)c->pos[2 * k + 1];
    } else {
      c->indices[w] = c->pos[2 * k];
      c->data[w++] = (double)c->pos[2 * k + 1];
    }
  }
  c->nnz = w;
  return LUMA_TEXT_OK;
}

/* Makes room for a new row of at most `most` features (hashed rows append
 * one entry per feature). */
static luma_TextStatus begin_row(luma_TextCounter *c, size_t most) {
  if (c->rows == 0) {
    size_t cap = 0;
    if (grow(c, (void **)&c->indptr, &cap, 64, sizeof *c->indptr)) return LUMA_TEXT_NOMEM;
    c->rows_cap = (int64_t)cap;
    c->indptr[0] = 0;
  }
  if (c->hashing && c->data == NULL) {
    /* hashed rows grow indices and data together */
    size_t cap = 0, cap2 = 0;
    if (grow(c, (void **)&c->indices, &cap, 1024, sizeof *c->indices) ||
        grow(c, (void **)&c->data, &cap2, 1024, sizeof *c->data))
      return LUMA_TEXT_NOMEM;
    c->nnz_cap = (int64_t)cap;
  }
  if (c->hashing && !c->sink) {
    size_t cap = (size_t)c->nnz_cap, cap2 = cap;
    if (grow(c, (void **)&c->indices, &cap, (size_t)c->nnz + most, sizeof *c->indices) ||
        grow(c, (void **)&c->data, &cap2, (size_t)c->nnz + most, sizeof *c->data))
      return LUMA_TEXT_NOMEM;
    c->nnz_cap = (int64_t)cap;
  }
  return LUMA_TEXT_OK;
}

/* Closes the row whose entries start at `start`. */
static luma_TextStatus end_row(luma_TextCounter *c, int64_t start) {
  luma_TextStatus st;
  if (c->sink) return LUMA_TEXT_OK;
  if (c->hashing && (st = finish_hashed_row(c, start))) return st;
  if (c->rows + 2 > c->rows_cap) {
    size_t cap = (size_t)c->rows_cap;
    if (grow(c, (void **)&c->indptr, &cap, (size_t)c->rows + 2, sizeof *c->indptr))
      return LUMA_TEXT_NOMEM;
    c->rows_cap = (int64_t)cap;
  }
  c->indptr[++c->rows] = c->nnz;
  return LUMA_TEXT_OK;
}

luma_TextStatus luma_text_count(luma_TextCounter *c, luma_Threads *t, const char *doc,
                                size_t len) {
  /* each byte is decoded and lowercased, then read by about one n-gram of
   * each length g, which costs g (hashing, comparing) plus a lookup */
  uint64_t per_byte = 4;
  for (int g = c->min_n; g <= c->max_n; g++) per_byte += (uint64_t)g + 4;
  if (luma_work_charge(t, per_byte * (uint64_t)len + 16)) return LUMA_TEXT_STOPPED;
  const int ascii = c->analyzer == LUMA_TEXT_WORD && is_ascii((const unsigned char *)doc, len);
  size_t n = len;
  luma_TextStatus st = ascii ? LUMA_TEXT_OK : prepare(c, doc, len, &n);
  if (st) return st;
  /* each feature appends at most one entry: a hashed row makes room for
   * every feature the text can give first */
  if ((st = begin_row(c, (size_t)(c->max_n - c->min_n + 1) * (3 * n + 2)))) return st;
  const int64_t start = c->nnz;
  if (ascii) st = ascii_words(c, (const unsigned char *)doc, len);
  else if (c->analyzer == LUMA_TEXT_WORD) st = words(c, n);
  else if (c->analyzer == LUMA_TEXT_CHAR) st = chars(c, n);
  else st = chars_wb(c, n);
  if (st) return st;
  return end_row(c, start);
}

luma_TextStatus luma_text_count_given(luma_TextCounter *c, luma_Threads *t,
                                      luma_TextNextFeature next, void *ctx, int64_t count,
                                      uint64_t bytes) {
  /* a lookup or a hash per feature, which reads its bytes */
  if (luma_work_charge(t, 8 * (uint64_t)count + 2 * bytes + 16)) return LUMA_TEXT_STOPPED;
  luma_TextStatus st = begin_row(c, (size_t)count);
  if (st) return st;
  const int64_t start = c->nnz;
  for (int64_t k = 0; k < count; k++) {
    size_t n;
    const char *f = next(ctx, k, &n);
    if ((st = feature(c, f, n))) return st;
  }
  return end_row(c, start);
}

double luma_text_min_sum(const int64_t *ai, const double *av, int64_t an, const int64_t *bi,
                         const double *bv, int64_t bn) {
  double s = 0;
  int64_t p = 0, q = 0;
  while (p < an && q < bn) {
    if (ai[p] < bi[q]) p++;
    else if (ai[p] > bi[q]) q++;
    else {
      s += av[p] < bv[q] ? av[p] : bv[q];
      p++;
      q++;
    }
  }
  return s;
}
