/*
 * npy.c - reading and writing NumPy .npy files (see npy.h).
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "io/npy.h"

static const unsigned char MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Skips spaces in header text. */
static const char *skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* Expects the literal `lit` at p; returns the position after it or NULL. */
static const char *expect(const char *p, const char *end, const char *lit) {
  size_t n = strlen(lit);
  p = skip_space(p, end);
  return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0 ? p + n : NULL;
}

/* A non-negative integer with at most 18 digits. */
static const char *parse_int(const char *p, const char *end, int64_t *v) {
  p = skip_space(p, end);
  int digits = 0;
  *v = 0;
  while (p < end && *p >= '0' && *p <= '9' && digits < 18) {
    *v = *v * 10 + (*p - '0');
    p++;
    digits++;
  }
  if (digits == 0 || (p < end && *p >= '0' && *p <= '9')) return NULL;
  if (p < end && *p == 'L') p++; /* Python 2 longs */
  return p;
}

static const char *parse_descr(const char *p, const char *end, luma_NpyInfo *info) {
  p = skip_space(p, end);
  if (p >= end || (*p != '\'' && *p != '"')) return NULL;
  char q = *p++;
  const char *start = p;
  while (p < end && *p != q) p++;
  if (p >= end || p - start != 3) return NULL; /* "<f8" and the like, nothing longer */
  char order = start[0], kind = start[1], size = start[2];
  if (order != '<' && order != '>' && order != '|' && order != '=') return NULL;
  if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') return NULL;
  if (size != '1' && size != '2' && size != '4' && size != '8') return NULL;
  info->kind = kind;
  info->size = size - '0';
  if (kind == 'f' && info->size < 4) return NULL; /* float16 is not supported */
  if (kind == 'b' && info->size != 1) return NULL;
  info->big_endian = order == '>';
  return p + 1;
}

static const char *parse_shape(const char *p, const char *end, luma_NpyInfo *info) {
  if ((p = expect(p, end, "(")) == NULL) return NULL;
  info->ndim = 0;
  /* audit-loops: the header names at most two dimensions, a third ends the parse */
  for (;;) {
    const char *close = expect(p, end, ")");
    if (close) return close;
    if (info->ndim == 2) return NULL; /* more than two dimensions */
    if ((p = parse_int(p, end, &info->shape[info->ndim])) == NULL) return NULL;
    info->ndim++;
    const char *comma = expect(p, end, ",");
    if (comma) p = comma;
    else if (!expect(p, end, ")")) return NULL;
  }
}

const char *luma_npy_parse(const unsigned char *bytes, size_t len, luma_NpyInfo *info) {
  if (len < 10 || memcmp(bytes, MAGIC, sizeof MAGIC) != 0) return "not a .npy file (wrong magic)";
  int major = bytes[6];
  size_t header_len, start;
  if (major == 1) {
    header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) return "truncated header";
    header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 |
                 (size_t)bytes[11] << 24;
    start = 12;
  } else {
    return "unsupported .npy format version";
  }
  if (header_len > 1 << 20 || header_len > len - start) return "truncated header";
  const char *p = (const char *)bytes + start, *end = p + header_len;
  int have_descr = 0, have_order = 0, have_shape = 0;
  if ((p = expect(p, end, "{")) == NULL) return "malformed header";
  for (int field = 0; field < 3; field++) {
    const char *q;
    if ((q = expect(p, end, "'descr'")) != NULL && !have_descr) {
      if ((q = expect(q, end, ":")) == NULL || (q = parse_descr(q, end, info)) == NULL)
        return "unsupported dtype (float64, float32, integers and bool are read)";
      have_descr = 1;
    } else if ((q = expect(p, end, "'fortran_order'")) != NULL && !have_order) {
      if ((q = expect(q, end, ":")) == NULL) return "malformed header";
      const char *t = expect(q, end, "True"), *f = expect(q, end, "False");
      if (!t && !f) return "malformed header";
      info->fortran_order = t != NULL;
      q = t ? t : f;
      have_order = 1;
    } else if ((q = expect(p, end, "'shape'")) != NULL && !have_shape) {
      if ((q = expect(q, end, ":")) == NULL || (q = parse_shape(q, end, info)) == NULL)
        return "unsupported shape (at most two dimensions)";
      have_shape = 1;
    } else {
      return "malformed header";
    }
    p = q;
    const char *comma = expect(p, end, ",");
    if (comma) p = comma;
  }
  if (!expect(p, end, "}")) return "malformed header";
  int64_t rows = info->ndim >= 1 ? info->shape[0] : 1;
  int64_t cols = info->ndim == 2 ? info->shape[1] : 1;
  int64_t n = luma_mat_checked_size(rows, cols);
  if (n < 0) return "shape too large";
  info->data_offset = start + header_len;
  if ((uint64_t)n > (uint64_t)(len - info->data_offset) / (uint64_t)info->size)
    return "truncated data (the file is shorter than its shape says)";
  return NULL;
}

/* Element k of the data as a double. */
static double element(const luma_NpyInfo *info, const unsigned char *data, int64_t k) {
  const unsigned char *e = data + k * info->size;
  uint64_t bits = 0;
  for (int b = 0; b < info->size; b++) {
    int from = info->big_endian ? info->size - 1 - b : b;
    bits |= (uint64_t)e[from] << (8 * b);
  }
  switch (info->kind) {
  case 'f':
    if (info->size == 8) {
      double d;
      memcpy(&d, &bits, sizeof d);
      return d;
    } else {
      float f;
      uint32_t b32 = (uint32_t)bits;
      memcpy(&f, &b32, sizeof f);
      return (double)f;
    }
  case 'i': { /* sign-extend */
    int shift = 64 - 8 * info->size;
    return (double)((int64_t)(bits << shift) >> shift);
  }
  case 'b': return bits != 0;
  default: return (double)bits; /* 'u' */
  }
}

void luma_npy_convert(const luma_NpyInfo *info, const unsigned char *data, luma_Mat *out) {
  int64_t k = 0;
  if (info->fortran_order) {
    for (int64_t j = 0; j < out->cols; j++)
      for (int64_t i = 0; i < out->rows; i++) LUMA_AT(out, i, j) = element(info, data, k++);
  } else {
    for (int64_t i = 0; i < out->rows; i++)
      for (int64_t j = 0; j < out->cols; j++) LUMA_AT(out, i, j) = element(info, data, k++);
  }
}

const char *luma_npy_mappable(const luma_NpyInfo *info, char *buf, size_t size) {
  int native_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
  if (info->kind != 'f' || info->size != 8 || info->big_endian != native_big) {
    const char *family = info->kind == 'f' ? "float" : info->kind == 'i' ? "int" : "uint";
    char name[16];
    if (info->kind == 'b') snprintf(name, sizeof name, "bool");
    else snprintf(name, sizeof name, "%s%d", family, 8 * info->size);
    char order = info->size == 1 ? '|' : info->big_endian ? '>' : '<';
    const char *swapped = info->size > 1 && info->big_endian ? ", big-endian" : "";
    snprintf(buf, size, "dtype '%c%c%d' (%s%s) cannot be mapped as float64 elements", order,
             info->kind, info->size, name, swapped);
    return buf;
  }
  if (info->data_offset % 8 != 0) {
    snprintf(buf, size, "the data starts at byte %zu, not a multiple of 8, so it cannot be mapped "
             "as float64 elements", info->data_offset);
    return buf;
  }
  return NULL;
}

size_t luma_npy_header(int64_t rows, int64_t cols, char *buf, size_t size) {
  char dict[96];
  int n = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%lld, %lld), }",
                   (long long)rows, (long long)cols);
  size_t total = 10 + (size_t)n + 1; /* preamble, dictionary, newline */
  total = (total + 63) / 64 * 64;
  if (total > size) return 0;
  memcpy(buf, MAGIC, sizeof MAGIC);
  buf[6] = 1;
  buf[7] = 0;
  size_t header_len = total - 10;
  buf[8] = (char)(header_len & 0xff);
  buf[9] = (char)(header_len >> 8);
  memcpy(buf + 10, dict, (size_t)n);
  memset(buf + 10 + n, ' ', total - 10 - (size_t)n - 1);
  buf[total - 1] = '\n';
  return total;
}
