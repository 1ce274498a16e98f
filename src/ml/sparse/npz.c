/*
 * npz.c - zip archives of .npy arrays (npz.h), for SciPy's sparse .npz.
 * The zip layout follows PKWARE's APPNOTE (local headers, central
 * directory, end record, zip64 extensions); the .npy layout follows
 * NumPy's format description (NEP 1).  No Lua.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "sparse/npz.h"

#ifdef LUMA_HAVE_ZLIB
#include <zlib.h>
#endif

/* ------------------------------------------------------------ CRC-32 */

uint32_t luma_crc32(uint32_t crc, const unsigned char *p, size_t n) {
  /* the reflected polynomial 0xEDB88320, a byte at a time through a
   * table built on the spot (256 steps: nothing next to the members) */
  uint32_t table[256];
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t c = b;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[b] = c;
  }
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

/* ------------------------------------------------------- little endian */

static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static void wr16(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static void wr32(unsigned char *p, uint32_t v) {
  wr16(p, v & 0xffff);
  wr16(p + 2, v >> 16);
}

/* ------------------------------------------------------------- reading */

#define EOCD_SIG 0x06054b50u
#define EOCD64_SIG 0x06064b50u
#define LOCATOR_SIG 0x07064b50u
#define CENTRAL_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u

const char *luma_zip_find(const unsigned char *zip, size_t len, const char *name,
                           luma_ZipMember *m) {
  /* the end record is in the last 22 + 65535 bytes (its comment) */
  if (len < 22) return "not a zip archive (too short)";
  size_t eocd = len - 22, stop = len > 22 + 65535 ? len - 22 - 65535 : 0;
  while (rd32(zip + eocd) != EOCD_SIG) {
    if (eocd == stop) return "not a zip archive (no end record; truncated?)";
    eocd--;
  }
  uint64_t entries = rd16(zip + eocd + 10), dir_size = rd32(zip + eocd + 12),
           dir_off = rd32(zip + eocd + 16);
  if (entries == 0xffff || dir_size == 0xffffffffu || dir_off == 0xffffffffu) {
    if (eocd < 20 || rd32(zip + eocd - 20) != LOCATOR_SIG) return "a zip64 archive without its locator";
    uint64_t e64 = rd64(zip + eocd - 20 + 8);
    if (e64 > len - 56 || rd32(zip + e64) != EOCD64_SIG) return "a zip64 end record out of place";
    entries = rd64(zip + e64 + 32);
    dir_size = rd64(zip + e64 + 40);
    dir_off = rd64(zip + e64 + 48);
  }
  if (dir_off > len || dir_size > len - dir_off) return "a central directory outside the file (truncated?)";
  if (dir_off + dir_size > eocd) return "a central directory that overlaps its end record (damaged)";
  size_t p = (size_t)dir_off, end = (size_t)(dir_off + dir_size), want = strlen(name);
  for (uint64_t e = 0; e < entries; e++) {
    if (end - p < 46 || rd32(zip + p) != CENTRAL_SIG) return "a damaged central directory";
    size_t nlen = rd16(zip + p + 28), xlen = rd16(zip + p + 30), clen = rd16(zip + p + 32);
    if (end - p - 46 < nlen + xlen + clen) return "a damaged central directory";
    if (nlen == want && memcmp(zip + p + 46, name, want) == 0) {
      uint32_t flags = rd16(zip + p + 8);
      if (flags & 1) return "an encrypted member";
      m->method = (int)rd16(zip + p + 10);
      m->crc = rd32(zip + p + 16);
      m->packed = rd32(zip + p + 20);
      m->size = rd32(zip + p + 24);
      uint64_t local = rd32(zip + p + 42);
      /* zip64 extra field: the values that overflowed, in this order */
      const unsigned char *x = zip + p + 46 + nlen, *xend = x + xlen;
      while (xend - x >= 4) {
        uint32_t id = rd16(x), sz = rd16(x + 2);
        if ((size_t)(xend - x - 4) < sz) break;
        if (id == 1) {
          const unsigned char *v = x + 4, *vend = v + sz;
          if (m->size == 0xffffffffu && vend - v >= 8) m->size = rd64(v), v += 8;
          if (m->packed == 0xffffffffu && vend - v >= 8) m->packed = rd64(v), v += 8;
          if (local == 0xffffffffu && vend - v >= 8) local = rd64(v);
        }
        x += 4 + sz;
      }
      if (m->method != 0 && m->method != 8)
        return "a member compressed by a method other than stored or deflate";
      if (local > len || len - local < 30 || rd32(zip + local) != LOCAL_SIG)
        return "a member whose local header is missing (truncated?)";
      uint64_t data = local + 30 + rd16(zip + local + 26) + rd16(zip + local + 28);
      if (data > len || m->packed > len - data) return "a member that runs past the end (truncated?)";
      m->offset = data;
      return NULL;
    }
    p += 46 + nlen + xlen + clen;
  }
  return "missing member";
}

const char *luma_zip_extract(const unsigned char *zip, size_t len, const luma_ZipMember *m,
                              unsigned char *out) {
  (void)len;
  if (m->method == 0) {
    if (m->packed != m->size) return "a stored member whose sizes differ";
    memcpy(out, zip + m->offset, (size_t)m->size);
  } else {
#ifdef LUMA_HAVE_ZLIB
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) return "zlib failed to start";
    const unsigned char *in = zip + m->offset;
    uint64_t in_left = m->packed, out_left = m->size;
    unsigned char *o = out;
    int zr = Z_OK;
    /* zlib counts in uInt: feed and drain at most 1 GiB at a time */
    while (zr == Z_OK) {
      uInt ni = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
      uInt no = out_left > (1u << 30) ? (1u << 30) : (uInt)out_left;
      z.next_in = (Bytef *)(uintptr_t)in;
      z.avail_in = ni;
      z.next_out = o;
      z.avail_out = no;
      zr = inflate(&z, Z_NO_FLUSH);
      in += ni - z.avail_in;
      in_left -= ni - z.avail_in;
      o += no - z.avail_out;
      out_left -= no - z.avail_out;
      if (zr == Z_OK && ni == z.avail_in && no == z.avail_out) break; /* no progress */
      if (zr == Z_BUF_ERROR) break;
    }
    inflateEnd(&z);
    if (zr != Z_STREAM_END || out_left != 0) return "a deflated member that does not inflate (corrupt)";
#else
    (void)out;
    return "a deflated member, and this Luma was built without zlib (save with compressed=False)";
#endif
  }
  if (luma_crc32(0, out, (size_t)m->size) != m->crc) return "a member whose CRC-32 does not match (corrupt)";
  return NULL;
}

/* ---------------------------------------------------------------- .npy */

/* The value after 'key': in the header dict, or NULL. */
static const char *dict_value(const char *h, size_t n, const char *key) {
  size_t k = strlen(key);
  for (size_t i = 0; i + k + 2 < n; i++) {
    if ((h[i] == '\'' || h[i] == '"') && memcmp(h + i + 1, key, k) == 0 && h[i + 1 + k] == h[i]) {
      size_t j = i + k + 2;
      while (j < n && (h[j] == ' ' || h[j] == ':')) j++;
      return j < n ? h + j : NULL;
    }
  }
  return NULL;
}

const char *luma_npz_parse_npy(const unsigned char *p, size_t n, luma_NpzNpy *npy) {
  memset(npy, 0, sizeof *npy);
  if (n < 10 || memcmp(p, "\x93NUMPY", 6) != 0) return "not an .npy array (no magic)";
  size_t hlen, start;
  if (p[6] == 1) {
    hlen = rd16(p + 8);
    start = 10;
  } else if (p[6] == 2 || p[6] == 3) {
    if (n < 12) return "a truncated .npy header";
    hlen = rd32(p + 8);
    start = 12;
  } else {
    return "an .npy of an unknown format version";
  }
  if (hlen > n - start) return "a truncated .npy header";
  const char *h = (const char *)p + start;
  const char *d = dict_value(h, hlen, "descr");
  if (d == NULL || (*d != '\'' && *d != '"')) return "an .npy header without a descr (a structured dtype?)";
  size_t dl = 0;
  /* audit-loops: at most 15 bytes of the header (the caller charged the member) */
  while (d + 1 + dl < h + hlen && d[1 + dl] != *d && dl < sizeof npy->descr - 1) dl++;
  memcpy(npy->descr, d + 1, dl);
  npy->descr[dl] = '\0';
  if (dl < 3) return "an .npy with an unreadable descr";
  char order = npy->descr[0];
  npy->kind = npy->descr[1];
  int size = 0;
  for (size_t i = 2; i < dl; i++) { /* audit-loops: at most 15 bytes */
    if (npy->descr[i] < '0' || npy->descr[i] > '9' || size > 100000) return "an .npy with an unreadable descr";
    size = size * 10 + (npy->descr[i] - '0');
  }
  npy->size = size;
  npy->big_endian = order == '>' && size > 1;
  const char *f = dict_value(h, hlen, "fortran_order");
  if (f == NULL) return "an .npy header without fortran_order";
  npy->fortran = strncmp(f, "True", 4) == 0;
  const char *s = dict_value(h, hlen, "shape");
  if (s == NULL || *s != '(') return "an .npy header without a shape";
  s++;
  npy->count = 1;
  /* audit-loops: one pass over the header's bytes (at most three dimensions) */
  for (;;) {
    while (s < h + hlen && (*s == ' ' || *s == ',')) s++; /* audit-loops: header bytes */
    if (s >= h + hlen) return "an .npy header with an unreadable shape";
    if (*s == ')') break;
    uint64_t v = 0;
    if (*s < '0' || *s > '9') return "an .npy header with an unreadable shape";
    while (s < h + hlen && *s >= '0' && *s <= '9') { /* audit-loops: header bytes */
      if (v > ((uint64_t)1 << 50)) return "an .npy of impossible size";
      v = v * 10 + (uint64_t)(*s++ - '0');
    }
    if (s < h + hlen && *s == 'L') s++; /* Python 2 longs */
    if (npy->ndim == 2) return "an .npy of more than two dimensions";
    npy->shape[npy->ndim++] = v;
    if (v != 0 && npy->count > ((uint64_t)1 << 50) / v) return "an .npy of impossible size";
    npy->count *= v;
  }
  npy->data = start + hlen;
  if (size == 0 || npy->count > (n - npy->data) / (uint64_t)size)
    return "an .npy whose elements run past its end (truncated?)";
  return NULL;
}

double luma_npz_float(const luma_NpzNpy *npy, const unsigned char *p, uint64_t k) {
  const unsigned char *e = p + npy->data + k * (uint64_t)npy->size;
  if (npy->kind == 'f') {
    if (npy->size == 8) {
      uint64_t bits = rd64(e);
      double v;
      memcpy(&v, &bits, 8);
      return v;
    }
    uint32_t bits = rd32(e);
    float v;
    memcpy(&v, &bits, 4);
    return v;
  }
  if (npy->kind == 'u' || npy->kind == 'b') return (double)(uint64_t)luma_npz_int(npy, p, k);
  return (double)luma_npz_int(npy, p, k);
}

int64_t luma_npz_int(const luma_NpzNpy *npy, const unsigned char *p, uint64_t k) {
  const unsigned char *e = p + npy->data + k * (uint64_t)npy->size;
  int sgn = npy->kind == 'i';
  switch (npy->size) {
  case 1: return sgn ? (int64_t)(int8_t)e[0] : (int64_t)e[0];
  case 2: return sgn ? (int64_t)(int16_t)rd16(e) : (int64_t)rd16(e);
  case 4: return sgn ? (int64_t)(int32_t)rd32(e) : (int64_t)rd32(e);
  default: return (int64_t)rd64(e);
  }
}

size_t luma_npz_npy_header(char *out, const char *descr, int ndim, uint64_t len) {
  char dict[96];
  int n;
  if (ndim == 0)
    n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (), }", descr);
  else
    n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }",
                 descr, (unsigned long long)len);
  /* magic (6) + version (2) + length (2) + dict + spaces + '\n', to 64 */
  size_t total = ((size_t)10 + (size_t)n + 1 + 63) / 64 * 64;
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  wr16((unsigned char *)out + 8, (uint32_t)(total - 10));
  memcpy(out + 10, dict, (size_t)n);
  memset(out + 10 + n, ' ', total - 10 - (size_t)n - 1);
  out[total - 1] = '\n';
  return total;
}

/* ------------------------------------------------------------- writing */

size_t luma_zip_bound(size_t n, size_t name_len, int compress) {
  size_t body = n;
#ifdef LUMA_HAVE_ZLIB
  if (compress) body = (size_t)compressBound((uLong)n) + 64;
#else
  (void)compress;
#endif
  return 30 + name_len + body;
}

size_t luma_zip_tail_bound(int count) { return (size_t)count * (46 + 16) + 22; }

/* DOS date of 1980-01-01 00:00: the archive does not depend on the clock. */
#define DOS_DATE 0x21

const char *luma_zip_add(luma_ZipWriter *w, const char *name, const unsigned char *data,
                          size_t n, int compress) {
  size_t nlen = strlen(name);
  if (w->count == 8 || nlen >= sizeof w->members[0].name) return "too many members";
  if (n >= 0xffffffffu || w->len >= 0xffffffffu)
    return "an .npz larger than 4 GiB (not written: zip64 output is not supported)";
  unsigned char *h = w->buf + w->len;
  size_t body = w->len + 30 + nlen;
  uint64_t packed = n;
  if (compress) {
#ifdef LUMA_HAVE_ZLIB
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      return "zlib failed to start";
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)n;
    z.next_out = w->buf + body;
    z.avail_out = w->cap - body > 0xffffffffu ? 0xffffffffu : (uInt)(w->cap - body);
    int zr = deflate(&z, Z_FINISH);
    packed = z.total_out;
    deflateEnd(&z);
    if (zr != Z_STREAM_END) return "zlib failed";
#else
    return "compressed .npz needs zlib, and this Luma was built without it (use compressed = false)";
#endif
  } else {
    memcpy(w->buf + body, data, n);
  }
  uint32_t crc = luma_crc32(0, data, n);
  wr32(h, LOCAL_SIG);
  wr16(h + 4, 20);                 /* version needed: 2.0 */
  wr16(h + 6, 0);                  /* flags */
  wr16(h + 8, compress ? 8 : 0);    /* method */
  wr16(h + 10, 0);                 /* time */
  wr16(h + 12, DOS_DATE);
  wr32(h + 14, crc);
  wr32(h + 18, (uint32_t)packed);
  wr32(h + 22, (uint32_t)n);
  wr16(h + 26, (uint32_t)nlen);
  wr16(h + 28, 0);
  memcpy(h + 30, name, nlen);
  memcpy(w->members[w->count].name, name, nlen + 1);
  w->members[w->count].offset = w->len;
  w->members[w->count].size = n;
  w->members[w->count].packed = packed;
  w->members[w->count].crc = crc;
  w->members[w->count].method = compress ? 8 : 0;
  w->count++;
  w->len = body + packed;
  return NULL;
}

void luma_zip_finish(luma_ZipWriter *w) {
  size_t dir = w->len;
  for (int i = 0; i < w->count; i++) {
    unsigned char *c = w->buf + w->len;
    size_t nlen = strlen(w->members[i].name);
    wr32(c, CENTRAL_SIG);
    wr16(c + 4, 20);               /* made by: 2.0, MS-DOS attributes */
    wr16(c + 6, 20);
    wr16(c + 8, 0);
    wr16(c + 10, (uint32_t)w->members[i].method);
    wr16(c + 12, 0);
    wr16(c + 14, DOS_DATE);
    wr32(c + 16, w->members[i].crc);
    wr32(c + 20, (uint32_t)w->members[i].packed);
    wr32(c + 24, (uint32_t)w->members[i].size);
    wr16(c + 28, (uint32_t)nlen);
    wr16(c + 30, 0);
    wr16(c + 32, 0);
    wr16(c + 34, 0);
    wr16(c + 36, 0);
    wr32(c + 38, 0);
    wr32(c + 42, (uint32_t)w->members[i].offset);
    memcpy(c + 46, w->members[i].name, nlen);
    w->len += 46 + nlen;
  }
  unsigned char *e = w->buf + w->len;
  wr32(e, EOCD_SIG);
  wr16(e + 4, 0);
  wr16(e + 6, 0);
  wr16(e + 8, (uint32_t)w->count);
  wr16(e + 10, (uint32_t)w->count);
  wr32(e + 12, (uint32_t)(w->len - dir));
  wr32(e + 16, (uint32_t)dir);
  wr16(e + 20, 0);
  w->len += 22;
}
