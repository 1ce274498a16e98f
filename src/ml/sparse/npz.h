/*
 * npz.h - the pieces of SciPy's .npz sparse format (no Lua): a zip
 * archive (stored or deflated members) of NumPy .npy arrays, as
 * scipy.sparse.save_npz writes it through numpy.savez(_compressed).
 *
 * Reading parses the central directory (zip64 sizes and offsets
 * included), inflates a member into a caller buffer of the size the
 * directory gives and checks its CRC-32; an .npy header is parsed for
 * its dtype, order and shape.  Writing produces .npy members exactly as
 * numpy.save (format 1.0, header padded to 64 bytes) inside a zip
 * numpy's own reader and Python's zipfile accept.  Deflate needs zlib
 * (LUMA_HAVE_ZLIB); without it, stored members still work.  (io/npy.c
 * reads .npy files as numeric matrices; an .npz also holds a bytes
 * scalar, format.npy, and integer index arrays read as they are, hence
 * this small parser of its own.)
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NPZ_H
#define LUMA_ML_NPZ_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 (the zip polynomial) of p[0..n-1], continuing crc (0 to start). */
uint32_t luma_crc32(uint32_t crc, const unsigned char *p, size_t n);

typedef struct luma_ZipMember {
  uint64_t offset;       /* of the member's data in the archive */
  uint64_t size;         /* uncompressed */
  uint64_t packed;       /* compressed */
  uint32_t crc;
  int method;            /* 0 stored, 8 deflated */
} luma_ZipMember;

/* Finds the member called name; returns NULL on success, or a message
 * saying what is wrong ("no member indices.npy", "not a zip archive
 * (no end record)", ...). */
const char *luma_zip_find(const unsigned char *zip, size_t len, const char *name,
                           luma_ZipMember *m);

/* Copies or inflates member m into out (m->size bytes) and checks its
 * CRC; NULL or a message. */
const char *luma_zip_extract(const unsigned char *zip, size_t len, const luma_ZipMember *m,
                              unsigned char *out);

/* An .npy array's description. */
typedef struct luma_NpzNpy {
  char kind;         /* 'f' float, 'i' signed, 'u' unsigned, 'b' bool, 'S' bytes, other */
  int size;          /* bytes per element */
  int big_endian;    /* '>' in the descr (with size > 1) */
  int fortran;
  int ndim;          /* 0, 1 or 2 here (more is a fault) */
  uint64_t shape[2];
  uint64_t count;    /* elements */
  size_t data;       /* offset of the elements */
  char descr[16];    /* as written, for messages */
} luma_NpzNpy;

/* Parses the header of an .npy of n bytes; NULL or a message. Checks the
 * element bytes fit in n. */
const char *luma_npz_parse_npy(const unsigned char *p, size_t n, luma_NpzNpy *npy);

/* Element k of an .npy of a numeric kind as a double, and as an integer
 * (for 'i', 'u', 'b'). */
double luma_npz_float(const luma_NpzNpy *npy, const unsigned char *p, uint64_t k);
int64_t luma_npz_int(const luma_NpzNpy *npy, const unsigned char *p, uint64_t k);

/* Writes numpy.save's header for a little-endian array of the given
 * descr ("<f8", "<i4", "|S3") and shape (ndim 0 or 1) into out (room for
 * 128 bytes); returns its length, a multiple of 64. */
size_t luma_npz_npy_header(char *out, const char *descr, int ndim, uint64_t len);

/* Zip writer over a caller buffer.  Members are added whole; the
 * compressed form needs an upper bound luma_zip_bound. */
typedef struct luma_ZipWriter {
  unsigned char *buf;
  size_t cap, len;
  int count;
  struct {
    char name[16];
    uint64_t offset, size, packed;
    uint32_t crc;
    int method;
  } members[8];
} luma_ZipWriter;

/* Bytes a member of size n (name of name_len) may take in the archive,
 * and the directory and end record for `count` members. */
size_t luma_zip_bound(size_t n, size_t name_len, int compress);
size_t luma_zip_tail_bound(int count);

/* Appends a member (deflated if `compress`); NULL or a message. */
const char *luma_zip_add(luma_ZipWriter *w, const char *name, const unsigned char *data,
                          size_t n, int compress);
/* Appends the central directory and the end record. */
void luma_zip_finish(luma_ZipWriter *w);

#endif
