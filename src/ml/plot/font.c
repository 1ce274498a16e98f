/*
 * font.c - text on a luma.plot canvas through FreeType (see font.h).
 *
 * Glyphs are rendered anti-aliased (256 grey levels) at the pen's
 * sub-pixel position and blended like any shape.  Pen advances are the
 * unhinted ones (linearHoriAdvance) with the font's kerning, so a string
 * is as wide at every position and rotation; upright text is hinted
 * lightly (vertically only, FreeType's "light" target), which keeps
 * small labels crisp as matplotlib's are.
 * SPDX-License-Identifier: MIT
 */
#include "plot/font.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Where Debian (fonts-dejavu-core) and other systems keep DejaVu Sans. */
static const char *const REGULAR[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    NULL};

static const char *first_readable(const char *const *paths) {
  for (int i = 0; paths[i] != NULL; i++)
    if (access(paths[i], R_OK) == 0) return paths[i];
  return NULL;
}

const char *luma_font_path(void) { return first_readable(REGULAR); }

#ifdef LUMA_HAVE_PNG
#include <ft2build.h>
#include FT_FREETYPE_H

static const char *const BOLD[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
    "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
    NULL};

struct luma_Font {
  FT_Library lib;
  FT_Face face[2]; /* regular, bold (may be the regular one again) */
};

luma_Font *luma_font_open(char *err, size_t errlen) {
  const char *regular = first_readable(REGULAR), *bold = first_readable(BOLD);
  if (regular == NULL) {
    snprintf(err, errlen, "no DejaVu Sans font found (Debian package fonts-dejavu-core; "
                          "looked in %s and others)", REGULAR[0]);
    return NULL;
  }
  luma_Font *f = calloc(1, sizeof *f);
  if (f == NULL) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (FT_Init_FreeType(&f->lib) != 0) {
    free(f);
    snprintf(err, errlen, "FreeType failed to start");
    return NULL;
  }
  if (FT_New_Face(f->lib, regular, 0, &f->face[0]) != 0) {
    snprintf(err, errlen, "FreeType cannot read %s", regular);
    luma_font_close(f);
    return NULL;
  }
  if (bold == NULL || FT_New_Face(f->lib, bold, 0, &f->face[1]) != 0) f->face[1] = NULL;
  return f;
}

void luma_font_close(luma_Font *f) {
  if (f == NULL) return;
  for (int i = 0; i < 2; i++)
    if (f->face[i] != NULL) FT_Done_Face(f->face[i]);
  FT_Done_FreeType(f->lib);
  free(f);
}

/* The next code point of UTF-8 text (U+FFFD for a malformed byte). */
static unsigned long next_utf8(const unsigned char *s, size_t len, size_t *i) {
  const unsigned c = s[(*i)++];
  if (c < 0x80) return c;
  const int extra = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 0;
  if (extra == 0 || *i + (size_t)extra > len) return 0xfffd;
  unsigned long cp = c & (0x3fu >> extra);
  for (int k = 0; k < extra; k++) {
    const unsigned b = s[*i + (size_t)k];
    if ((b & 0xc0) != 0x80) return 0xfffd;
    cp = (cp << 6) | (b & 0x3f);
  }
  *i += (size_t)extra;
  return cp;
}

/* The advance width of the text in canvas pixels (face already sized). */
static double text_width(FT_Face face, const unsigned char *s, size_t len) {
  double w = 0;
  FT_UInt prev = 0;
  for (size_t i = 0; i < len;) {
    const FT_UInt gi = FT_Get_Char_Index(face, next_utf8(s, len, &i));
    if (prev && gi && FT_HAS_KERNING(face)) {
      FT_Vector k;
      if (FT_Get_Kerning(face, prev, gi, FT_KERNING_UNFITTED, &k) == 0) w += k.x / 64.0;
    }
    if (FT_Load_Glyph(face, gi, FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP) == 0)
      w += face->glyph->linearHoriAdvance / 65536.0;
    prev = gi;
  }
  return w;
}

int luma_font_draw(luma_Font *f, luma_Canvas *c, const char *str, size_t len, double x, double y,
                   double size, int bold, double anchor, double shift, double rotation,
                   luma_Rgb col, double alpha) {
  FT_Face face = f->face[bold && f->face[1] != NULL ? 1 : 0];
  const double s = c->scale;
  if (FT_Set_Char_Size(face, 0, (FT_F26Dot6)(size * s * 64 + 0.5), 72, 72) != 0) return -1;
  const unsigned char *u = (const unsigned char *)str;
  const double th = rotation * M_PI / 180, ct = cos(th), st = sin(th);
  /* along the baseline (ux, uy) and down from it (dx, dy), y down */
  const double ux = ct, uy = -st, dx = st, dy = ct;
  const double w = text_width(face, u, len);
  double penx = x * s - anchor * w * ux + shift * s * dx;
  double peny = y * s - anchor * w * uy + shift * s * dy;
  const int upright = rotation == 0;
  FT_Matrix m = {(FT_Fixed)(ct * 65536), (FT_Fixed)(-st * 65536), (FT_Fixed)(st * 65536),
                 (FT_Fixed)(ct * 65536)};
  const FT_Int32 flags = FT_LOAD_RENDER | (upright ? FT_LOAD_TARGET_LIGHT : FT_LOAD_NO_HINTING);
  FT_UInt prev = 0;
  for (size_t i = 0; i < len;) {
    const FT_UInt gi = FT_Get_Char_Index(face, next_utf8(u, len, &i));
    if (prev && gi && FT_HAS_KERNING(face)) {
      FT_Vector k;
      if (FT_Get_Kerning(face, prev, gi, FT_KERNING_UNFITTED, &k) == 0) {
        penx += k.x / 64.0 * ux;
        peny += k.x / 64.0 * uy;
      }
    }
    prev = gi;
    const double fx = floor(penx), fy = floor(peny);
    /* the pen's fraction of a pixel, in FreeType's y-up 26.6 units */
    FT_Vector delta = {(FT_Pos)((penx - fx) * 64), (FT_Pos)(-(peny - fy) * 64)};
    FT_Set_Transform(face, &m, &delta);
    if (FT_Load_Glyph(face, gi, flags) != 0) continue;
    const FT_GlyphSlot g = face->glyph;
    const FT_Bitmap *b = &g->bitmap;
    if (b->pixel_mode == FT_PIXEL_MODE_GRAY && b->buffer != NULL)
      luma_canvas_blend_mask(c, b->buffer, b->pitch, (int)fx + g->bitmap_left,
                             (int)fy - g->bitmap_top, (int)b->width, (int)b->rows, col, alpha);
    const double adv = g->linearHoriAdvance / 65536.0;
    penx += adv * ux;
    peny += adv * uy;
  }
  FT_Set_Transform(face, NULL, NULL);
  return 0;
}

#else

luma_Font *luma_font_open(char *err, size_t errlen) {
  snprintf(err, errlen, "text in PNG is not built in (FreeType was not found)");
  return NULL;
}

void luma_font_close(luma_Font *f) { (void)f; }

int luma_font_draw(luma_Font *f, luma_Canvas *c, const char *s, size_t len, double x, double y,
                   double size, int bold, double anchor, double shift, double rotation,
                   luma_Rgb col, double alpha) {
  (void)f, (void)c, (void)s, (void)len, (void)x, (void)y, (void)size, (void)bold, (void)anchor;
  (void)shift, (void)rotation, (void)col, (void)alpha;
  return -1;
}

#endif
