/*
 * raster.h - luma.plot's anti-aliased rasterizer: an RGB canvas on which
 * the PNG writer draws the same figure model the SVG writer does (no Lua
 * here; the binding is plot_lua.c).
 *
 * Coordinates are the figure's pixels (origin top left, y down), scaled
 * by the canvas' `scale` (fig:save(path, {scale = 2})).  Every shape is
 * first rendered into a coverage buffer (one float per pixel of the
 * shape's bounding box, clipped), then blended once into the canvas with
 * its colour and alpha (source-over, in sRGB values as SVG renderers and
 * Agg do), so a translucent stroke is uniform where its pieces overlap:
 *   - fills: exact area coverage of the polygon edges accumulated per
 *     cell and summed along each row (the signed-area method of
 *     R. Levien's font-rs, as FreeType's and Agg's cell rasterizers);
 *     the absolute winding clamped to 1, i.e. the nonzero rule;
 *   - strokes: each segment is a capsule (or a box with butt or square
 *     caps) whose coverage at a pixel centre at distance d from the
 *     centre line is clamp(w/2 + 1/2 - d, 0, 1); pieces are united by
 *     taking the maximum, so joins are round and exact;
 *   - markers: one coverage sprite per quarter-pixel offset (16 per
 *     marker shape and size), stamped at each point snapped to a quarter
 *     pixel (at most 1/8 px away), as Agg caches marker scanlines.
 * Text is in font.h, the PNG encoder in png.h.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_PLOT_RASTER_H
#define LUMA_PLOT_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/parallel.h"

typedef struct luma_Rgb {
  unsigned char r, g, b;
} luma_Rgb;

/* The allocator every buffer of the rasterizer comes from, with lua_Alloc's
 * contract ((ud, ptr, old size, new size); new size 0 frees; NULL when
 * refused): the binding passes the state's, so its memory limit covers
 * coverage buffers and marker sprites as it covers the pixels. */
typedef void *(*luma_CanvasAllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct luma_Canvas {
  int w, h;              /* pixels */
  double scale;          /* canvas pixels per figure pixel */
  unsigned char *rgb;    /* w * h * 3, row-major, owned by the caller */
  int cx0, cy0, cx1, cy1; /* clip rectangle [cx0, cx1) x [cy0, cy1), in pixels */
  float *scratch;        /* coverage buffer, grown on demand (free with luma_canvas_release) */
  size_t scratch_len;
  luma_CanvasAllocFn alloc;
  void *alloc_ud;
} luma_Canvas;

/* Line ends and joins of a stroke. */
enum { LUMA_CAP_BUTT = 0, LUMA_CAP_ROUND = 1, LUMA_CAP_SQUARE = 2 };

#define LUMA_MAX_DASH 8

typedef struct luma_Stroke {
  double width;          /* figure pixels */
  int cap;               /* at the ends of each path */
  int join;              /* at interior vertices: LUMA_CAP_ROUND (round join) or
                          * LUMA_CAP_SQUARE (square corners, for rectangles) */
  int closed;            /* join the last point to the first */
  const double *dash;    /* on/off lengths in figure pixels, or NULL */
  int ndash;             /* at most LUMA_MAX_DASH are used */
} luma_Stroke;

/* Paths: npaths subpaths, subpath k has counts[k] points, their x, y
 * pairs one after the other in xy. */
typedef struct luma_Paths {
  const double *xy;
  const int64_t *counts;
  int64_t npaths;
} luma_Paths;

/* Marker shapes, relative to the marker's centre in figure pixels. */
typedef struct luma_MarkerShape {
  double disc;           /* > 0: a disc of this diameter */
  const double *poly;    /* else a filled polygon (npoly points), */
  int npoly;
  const double *segs;    /* or stroked segments (x1 y1 x2 y2 each, butt caps) */
  int nsegs;
  double seg_width;      /* their width */
  double edge_width;     /* > 0: the outline of the disc or polygon is stroked */
} luma_MarkerShape;

/* One axis' transform from data to figure pixels:
 * p = p0 + (f(v) - lo) * k, f = log10 when log, else the identity. */
typedef struct luma_AxisMap {
  int log;
  double lo, k, p0;
} luma_AxisMap;

/* Points to mark: data x and y (mapped through mx, my), and optionally a
 * colour index per point into a palette. */
typedef struct luma_Points {
  const double *x, *y;
  int64_t n;
  luma_AxisMap mx, my;
  const unsigned char *shade; /* NULL: every marker has the fill colour */
  const luma_Rgb *palette;    /* 256 entries when shade is given */
} luma_Points;

/* Sets up a w x h canvas over rgb (w * h * 3 bytes), filled with bg,
 * unclipped; its buffers will come from alloc. */
void luma_canvas_init(luma_Canvas *c, unsigned char *rgb, int w, int h, double scale,
                      luma_Rgb bg, luma_CanvasAllocFn alloc, void *alloc_ud);

/* Frees the coverage buffer (the pixels are the caller's). */
void luma_canvas_release(luma_Canvas *c);

/* Clips every later drawing to the rectangle (figure pixels, rounded to
 * whole canvas pixels); luma_canvas_unclip restores the whole canvas. */
void luma_canvas_clip(luma_Canvas *c, double x, double y, double w, double h);
void luma_canvas_unclip(luma_Canvas *c);

/* The drawing calls return 0, -1 when memory runs out (or the allocator
 * refuses), or 1 when the meter t stopped the work (luma_work_status(t)
 * says why).  Their work is charged to t as it is done, in batches: it
 * depends on the shapes (dash lengths, marker sizes, vertex counts), not
 * only on the canvas. */

/* Fills the subpaths (each closed implicitly) by the nonzero rule. */
int luma_canvas_fill(luma_Canvas *c, const luma_Paths *p, luma_Rgb col, double alpha,
                     luma_Threads *t);

/* Strokes the subpaths; a one-point subpath with round caps is a dot. */
int luma_canvas_stroke(luma_Canvas *c, const luma_Paths *p, const luma_Stroke *s, luma_Rgb col,
                       double alpha, luma_Threads *t);

/* Fills an axis-aligned rectangle: anti-aliased edges, or with crisp set
 * its edges rounded to whole pixels (SVG's shape-rendering="crispEdges",
 * so adjacent image cells leave no seams). */
void luma_canvas_rect(luma_Canvas *c, double x, double y, double w, double h, luma_Rgb col,
                      double alpha, int crisp);

/* Stamps a marker of `shape` at every point: the fill (or the stroked
 * segments) in the point's colour, then the outline in `edge`.  The
 * sprite of a quarter-pixel offset is rendered the first time a point
 * needs it. */
int luma_canvas_markers(luma_Canvas *c, const luma_MarkerShape *shape, const luma_Points *pts,
                        luma_Rgb fill, luma_Rgb edge, double alpha, luma_Threads *t);

/* Blends an 8-bit coverage mask (w x h, rows `pitch` bytes apart) whose
 * top left pixel lands at canvas pixel (x0, y0), clipped (for text). */
void luma_canvas_blend_mask(luma_Canvas *c, const unsigned char *mask, int pitch, int x0, int y0,
                            int w, int h, luma_Rgb col, double alpha);

/* Parses "#rrggbb"; 0 on success, -1 otherwise. */
int luma_rgb_parse(const char *s, luma_Rgb *out);

#endif
