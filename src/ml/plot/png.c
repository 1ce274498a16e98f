/*
 * png.c - the PNG encoder of luma.plot's raster renderer (see png.h).
 * The format: W3C, "Portable Network Graphics (PNG) Specification",
 * 2nd ed., 2003 (chunks, section 5; filters, section 9).
 * SPDX-License-Identifier: MIT
 */
#include "plot/png.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LUMA_HAVE_PNG
#include <zlib.h>

static void put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static int chunk(FILE *f, const char *type, const unsigned char *data, size_t n) {
  unsigned char head[8], tail[4];
  put32(head, (uint32_t)n);
  memcpy(head + 4, type, 4);
  uLong crc = crc32(0L, head + 4, 4);
  if (n > 0) crc = crc32(crc, data, (uInt)n);
  put32(tail, (uint32_t)crc);
  return fwrite(head, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
                 fwrite(tail, 1, 4, f) == 4
             ? 0
             : -1;
}

static inline int paeth(int a, int b, int c) {
  const int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Filters one row (n bytes, bpp 3; prev is the row above, zeros for the
 * first) into out[k] (1 + n bytes each, k = filter type) and returns the
 * type whose bytes, read as signed, have the smallest absolute sum. */
static int filter_row(const unsigned char *row, const unsigned char *prev, size_t n,
                      unsigned char *out) {
  unsigned char *o[5];
  for (int k = 0; k < 5; k++) {
    o[k] = out + k * (n + 1);
    o[k][0] = (unsigned char)k;
    o[k]++;
  }
  unsigned long sums[5] = {0, 0, 0, 0, 0};
  /* the first pixel has no left neighbour (a = c = 0) */
  for (size_t i = 0; i < n; i++) {
    const int x = row[i], b = prev[i];
    const int a = i >= 3 ? row[i - 3] : 0, c = i >= 3 ? prev[i - 3] : 0;
    const unsigned char v1 = (unsigned char)(x - a), v2 = (unsigned char)(x - b);
    const unsigned char v3 = (unsigned char)(x - ((a + b) >> 1));
    const unsigned char v4 = (unsigned char)(x - paeth(a, b, c));
    o[0][i] = (unsigned char)x;
    o[1][i] = v1;
    o[2][i] = v2;
    o[3][i] = v3;
    o[4][i] = v4;
    sums[0] += (unsigned)abs((signed char)x);
    sums[1] += (unsigned)abs((signed char)v1);
    sums[2] += (unsigned)abs((signed char)v2);
    sums[3] += (unsigned)abs((signed char)v3);
    sums[4] += (unsigned)abs((signed char)v4);
  }
  int best = 0;
  for (int k = 1; k < 5; k++)
    if (sums[k] < sums[best]) best = k;
  return best;
}

int luma_png_write(const char *path, const unsigned char *rgb, int w, int h, luma_Threads *t,
                   char *err, size_t errlen) {
  const size_t n = (size_t)w * 3;
  unsigned char *work = malloc(5 * (n + 1) + n);
  const size_t outcap = 1 << 16;
  unsigned char *outbuf = malloc(outcap);
  FILE *f = NULL;
  z_stream z;
  memset(&z, 0, sizeof z);
  int zinit = 0, rc = -1;
  if (work == NULL || outbuf == NULL) {
    snprintf(err, errlen, "out of memory");
    goto done;
  }
  f = fopen(path, "wb");
  if (f == NULL) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    goto done;
  }
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char ihdr[13];
  put32(ihdr, (uint32_t)w);
  put32(ihdr + 4, (uint32_t)h);
  ihdr[8] = 8;  /* bit depth */
  ihdr[9] = 2;  /* RGB */
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  if (fwrite(sig, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) != 0) goto io_error;
  /* level 6 with libpng's window and memory (the default strategy: as
   * fast as Z_FILTERED here, and smaller files) */
  if (deflateInit2(&z, 6, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    snprintf(err, errlen, "zlib failed to start");
    goto done;
  }
  zinit = 1;
  unsigned char *zero = work + 5 * (n + 1);
  memset(zero, 0, n);
  luma_WorkBatch wb = {t, 0};
  for (int y = 0; y <= h; y++) {
    const int last = y == h;
    if (!last) {
      if (luma_work_add(&wb, 8 * n)) {
        rc = 1;
        snprintf(err, errlen, "stopped");
        goto done;
      }
      const unsigned char *row = rgb + (size_t)y * n;
      const int k = filter_row(row, y > 0 ? row - n : zero, n, work);
      z.next_in = work + k * (n + 1);
      z.avail_in = (uInt)(n + 1);
    } else {
      z.next_in = NULL;
      z.avail_in = 0;
    }
    int zr;
    /* audit-loops: drains zlib's output for the row just charged */
    do {
      z.next_out = outbuf;
      z.avail_out = (uInt)outcap;
      zr = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
      if (zr == Z_STREAM_ERROR) {
        snprintf(err, errlen, "zlib failed");
        goto done;
      }
      const size_t got = outcap - z.avail_out;
      if (got > 0 && chunk(f, "IDAT", outbuf, got) != 0) goto io_error;
    } while (z.avail_out == 0 || (last && zr != Z_STREAM_END));
  }
  luma_work_flush(&wb);
  if (chunk(f, "IEND", NULL, 0) != 0) goto io_error;
  const int closed = fclose(f);
  f = NULL;
  if (closed != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    remove(path);
    goto done;
  }
  rc = 0;
  goto done;
io_error:
  snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
done:
  if (zinit) deflateEnd(&z);
  if (f != NULL) {
    fclose(f);
    remove(path);
  }
  free(work);
  free(outbuf);
  return rc;
}

#else

int luma_png_write(const char *path, const unsigned char *rgb, int w, int h, luma_Threads *t,
                   char *err, size_t errlen) {
  (void)path, (void)rgb, (void)w, (void)h, (void)t;
  snprintf(err, errlen, "PNG output is not built in (zlib was not found)");
  return -1;
}

#endif
