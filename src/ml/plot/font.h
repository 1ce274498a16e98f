/*
 * font.h - text on a luma.plot canvas through FreeType, in DejaVu Sans
 * (matplotlib's default font, the first one the SVG asks for).  Built
 * when the Makefile finds FreeType (LUMA_HAVE_PNG); otherwise
 * luma_font_open fails and says so.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_PLOT_FONT_H
#define LUMA_PLOT_FONT_H

#include <stddef.h>

#include "plot/raster.h"

typedef struct luma_Font luma_Font;

/* The path of DejaVu Sans (regular) on this machine, or NULL. */
const char *luma_font_path(void);

/* Opens DejaVu Sans and DejaVu Sans Bold (the regular face when there is
 * no bold one); NULL with a message in err when FreeType is not built in,
 * no font file is found or it cannot be read. */
luma_Font *luma_font_open(char *err, size_t errlen);
void luma_font_close(luma_Font *f);

/* Draws UTF-8 text of `size` figure pixels: its baseline starts at (x, y)
 * moved by `anchor` times the text's advance width backwards (0 start,
 * 0.5 middle, 1 end) and `shift` pixels down, the whole rotated about
 * (x, y) by `rotation` degrees counterclockwise (SVG's
 * rotate(-rotation x y)).  Returns 0, or -1 when FreeType fails. */
int luma_font_draw(luma_Font *f, luma_Canvas *c, const char *s, size_t len, double x, double y,
                   double size, int bold, double anchor, double shift, double rotation,
                   luma_Rgb col, double alpha);

#endif
