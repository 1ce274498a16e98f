/*
 * png.h - PNG files from a luma.plot canvas: 8-bit RGB, each row filtered
 * with the filter whose output has the smallest sum of absolute values
 * (the heuristic of the PNG specification, section 12.8, and libpng),
 * deflated by zlib at level 6 (matplotlib's).  Built when the Makefile
 * finds zlib (LUMA_HAVE_PNG); otherwise writing fails and says so.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_PLOT_PNG_H
#define LUMA_PLOT_PNG_H

#include <stddef.h>

#include "core/parallel.h"

/* Writes the w x h RGB pixels (rows of 3 w bytes) to path.  Returns 0;
 * -1 with a message in err when the file cannot be written or zlib
 * fails; 1 when the meter t stopped the work (the file is removed). */
int luma_png_write(const char *path, const unsigned char *rgb, int w, int h, luma_Threads *t,
                   char *err, size_t errlen);

#endif
