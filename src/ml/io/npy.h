/*
 * npy.h - NumPy's .npy format (versions 1.0, 2.0 and 3.0), no Lua.
 *
 * The header is untrusted: parsing accepts exactly the dictionary NumPy
 * writes ({'descr': ..., 'fortran_order': ..., 'shape': (...), }) with
 * bounded lengths, and reports anything else as malformed.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NPY_H
#define LUMA_ML_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "core/matrix.h"

typedef struct luma_NpyInfo {
  char kind;          /* 'f' float, 'i' signed, 'u' unsigned, 'b' bool */
  int size;           /* bytes per element: 1, 2, 4 or 8 */
  int big_endian;
  int fortran_order;
  int ndim;           /* 0, 1 or 2 */
  int64_t shape[2];
  size_t data_offset; /* where the elements start */
} luma_NpyInfo;

/* Parses the preamble and header of bytes[0..len); returns NULL on
 * success or a message saying what is wrong. */
const char *luma_npy_parse(const unsigned char *bytes, size_t len, luma_NpyInfo *info);

/* Converts the elements (count = rows * cols of out, in the file's order)
 * into out, which has the matrix's shape. */
void luma_npy_convert(const luma_NpyInfo *info, const unsigned char *data, luma_Mat *out);

/* Whether the elements can serve in place as a matrix's doubles (a mapped
 * file): float64 in this machine's byte order ('<f8' on x86-64 and
 * arm64), starting at an offset that is a multiple of 8 so that every
 * element is aligned.  Returns NULL, or writes why not into buf (naming
 * the dtype, e.g. "'<f4' (float32)") and returns buf. */
const char *luma_npy_mappable(const luma_NpyInfo *info, char *buf, size_t size);

/* Writes the version 1.0 preamble and header of a rows x cols '<f8'
 * C-order array into buf (at least 128 bytes); returns its length, a
 * multiple of 64. */
size_t luma_npy_header(int64_t rows, int64_t cols, char *buf, size_t size);

#endif
