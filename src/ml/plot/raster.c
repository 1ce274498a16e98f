/*
 * raster.c - luma.plot's anti-aliased rasterizer (see raster.h).
 * SPDX-License-Identifier: MIT
 */
#include "plot/raster.h"

#include <math.h>
#include <string.h>

/* A coverage buffer over the pixels [x0, x0 + w) x [y0, y0 + h) of the
 * canvas; rows are stride = w + 2 floats apart (fills accumulate one and
 * two cells past a row's last pixel).  Shapes are drawn into it in local
 * coordinates (canvas pixel minus x0, y0). */
typedef struct Area {
  int x0, y0, w, h, stride;
  float *a;
} Area;

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

void luma_canvas_init(luma_Canvas *c, unsigned char *rgb, int w, int h, double scale,
                      luma_Rgb bg, luma_CanvasAllocFn alloc, void *alloc_ud) {
  c->w = w;
  c->h = h;
  c->scale = scale;
  c->rgb = rgb;
  c->scratch = NULL;
  c->scratch_len = 0;
  c->alloc = alloc;
  c->alloc_ud = alloc_ud;
  for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
    rgb[3 * i] = bg.r;
    rgb[3 * i + 1] = bg.g;
    rgb[3 * i + 2] = bg.b;
  }
  luma_canvas_unclip(c);
}

/* Buffers of the canvas' allocator: bytes new, grown (old bytes kept) or
 * freed (bytes 0). */
static void *canvas_realloc(luma_Canvas *c, void *p, size_t old, size_t bytes) {
  return c->alloc(c->alloc_ud, p, p ? old : 0, bytes);
}

void luma_canvas_release(luma_Canvas *c) {
  if (c->scratch) canvas_realloc(c, c->scratch, c->scratch_len * sizeof(float), 0);
  c->scratch = NULL;
  c->scratch_len = 0;
}

void luma_canvas_unclip(luma_Canvas *c) {
  c->cx0 = 0;
  c->cy0 = 0;
  c->cx1 = c->w;
  c->cy1 = c->h;
}

void luma_canvas_clip(luma_Canvas *c, double x, double y, double w, double h) {
  const double s = c->scale;
  c->cx0 = (int)clampd(floor(x * s + 0.5), 0, c->w);
  c->cy0 = (int)clampd(floor(y * s + 0.5), 0, c->h);
  c->cx1 = (int)clampd(floor((x + w) * s + 0.5), c->cx0, c->w);
  c->cy1 = (int)clampd(floor((y + h) * s + 0.5), c->cy0, c->h);
}

int luma_rgb_parse(const char *s, luma_Rgb *out) {
  if (s == NULL || s[0] != '#' || strlen(s) != 7) return -1;
  unsigned v[6];
  for (int i = 0; i < 6; i++) {
    const char ch = s[i + 1];
    if (ch >= '0' && ch <= '9') v[i] = (unsigned)(ch - '0');
    else if (ch >= 'a' && ch <= 'f') v[i] = (unsigned)(ch - 'a' + 10);
    else if (ch >= 'A' && ch <= 'F') v[i] = (unsigned)(ch - 'A' + 10);
    else return -1;
  }
  out->r = (unsigned char)(v[0] * 16 + v[1]);
  out->g = (unsigned char)(v[2] * 16 + v[3]);
  out->b = (unsigned char)(v[4] * 16 + v[5]);
  return 0;
}

/* One pixel blended with weight k in 0..256 (256: the source colour). */
static inline void blend_px(unsigned char *p, luma_Rgb col, unsigned k) {
  p[0] = (unsigned char)((col.r * k + p[0] * (256 - k) + 128) >> 8);
  p[1] = (unsigned char)((col.g * k + p[1] * (256 - k) + 128) >> 8);
  p[2] = (unsigned char)((col.b * k + p[2] * (256 - k) + 128) >> 8);
}

/* An area over the canvas box [bx0, bx1] x [by0, by1] (canvas pixels)
 * within the clip rectangle, zeroed; 0 when it is empty, -1 when memory
 * runs out, else 1. */
static int area_open(luma_Canvas *c, Area *A, double bx0, double by0, double bx1, double by1) {
  const int x0 = (int)clampd(floor(bx0), c->cx0, c->cx1);
  const int y0 = (int)clampd(floor(by0), c->cy0, c->cy1);
  const int x1 = (int)clampd(ceil(bx1), c->cx0, c->cx1);
  const int y1 = (int)clampd(ceil(by1), c->cy0, c->cy1);
  if (x1 <= x0 || y1 <= y0) return 0;
  A->x0 = x0;
  A->y0 = y0;
  A->w = x1 - x0;
  A->h = y1 - y0;
  A->stride = A->w + 2;
  const size_t need = (size_t)A->stride * (size_t)A->h + 2;
  if (need > c->scratch_len) {
    float *p = canvas_realloc(c, c->scratch, c->scratch_len * sizeof(float), need * sizeof(float));
    if (p == NULL) return -1;
    c->scratch = p;
    c->scratch_len = need;
  }
  A->a = c->scratch;
  memset(A->a, 0, need * sizeof(float));
  return 1;
}

/* Blends the area's coverage (in [0, 1]) times alpha into the canvas. */
static void area_blend(luma_Canvas *c, const Area *A, luma_Rgb col, double alpha) {
  const float scale = (float)(alpha * 256.0);
  for (int y = 0; y < A->h; y++) {
    const float *a = A->a + (size_t)y * A->stride;
    unsigned char *p = c->rgb + ((size_t)(A->y0 + y) * c->w + A->x0) * 3;
    for (int x = 0; x < A->w; x++, p += 3) {
      const unsigned k = (unsigned)(a[x] * scale + 0.5f);
      if (k > 0) blend_px(p, col, k > 256 ? 256 : k);
    }
  }
}

/* ------------------------------------------------------------- fills */

/* Accumulates the signed area of the edge (x0, y0)-(x1, y1), local
 * coordinates with 0 <= x <= w, into the cells it crosses (font-rs'
 * accumulation rasterizer); rows outside the area are skipped. */
static void acc_line(Area *A, double x0, double y0, double x1, double y1) {
  if (y0 == y1) return;
  double dir = 1;
  if (y0 > y1) {
    double t = x0; x0 = x1; x1 = t;
    t = y0; y0 = y1; y1 = t;
    dir = -1;
  }
  if (y1 <= 0 || y0 >= A->h) return;
  const double dxdy = (x1 - x0) / (y1 - y0);
  double x = x0;
  if (y0 < 0) {
    x -= y0 * dxdy;
    y0 = 0;
  }
  const int ye = y1 < A->h ? (int)ceil(y1) : A->h;
  for (int y = (int)y0; y < ye; y++) {
    float *row = A->a + (size_t)y * A->stride;
    const double dy = fmin(y + 1.0, y1) - fmax((double)y, y0);
    const double xnext = x + dxdy * dy;
    const double d = dy * dir;
    const double xa = fmin(x, xnext), xb = fmax(x, xnext);
    const double xaf = floor(xa);
    const int xai = (int)xaf;
    const double xbc = ceil(xb);
    const int xbi = (int)xbc;
    if (xbi <= xai + 1) {
      const double xmf = 0.5 * (x + xnext) - xaf;
      row[xai] += (float)(d - d * xmf);
      row[xai + 1] += (float)(d * xmf);
    } else {
      const double s = 1.0 / (xb - xa);
      const double x0f = xa - xaf;
      const double a0 = 0.5 * s * (1 - x0f) * (1 - x0f);
      const double x1f = xb - xbc + 1;
      const double am = 0.5 * s * x1f * x1f;
      row[xai] += (float)(d * a0);
      if (xbi == xai + 2) {
        row[xai + 1] += (float)(d * (1 - a0 - am));
      } else {
        const double a1 = s * (1.5 - x0f);
        row[xai + 1] += (float)(d * (a1 - a0));
        for (int xi = xai + 2; xi < xbi - 1; xi++) row[xi] += (float)(d * s);
        const double a2 = a1 + (xbi - xai - 3) * s;
        row[xbi - 1] += (float)(d * (1 - a2 - am));
      }
      row[xbi] += (float)(d * am);
    }
    x = xnext;
  }
}

/* An edge in local coordinates: the part within the area's rows kept
 * (rows above and below get nothing from it), cut where it leaves
 * [0, w] in x and the pieces outside moved onto the border: coverage
 * inside is unchanged (what lies left of the area still counts for every
 * pixel to its right, what lies right of it counts for none). */
static void acc_edge(Area *A, double x0, double y0, double x1, double y1) {
  if (y0 == y1) return;
  const double w = A->w, ta0 = -y0 / (y1 - y0), tb0 = (A->h - y0) / (y1 - y0);
  const double tlo = fmax(0, fmin(ta0, tb0)), thi = fmin(1, fmax(ta0, tb0));
  if (!(tlo < thi)) return;
  double ts[4];
  int n = 0;
  ts[n++] = tlo;
  const double tx0 = -x0 / (x1 - x0), txw = (w - x0) / (x1 - x0);
  if ((x0 < 0) != (x1 < 0) && tx0 > tlo && tx0 < thi) ts[n++] = tx0;
  if ((x0 > w) != (x1 > w) && txw > tlo && txw < thi) ts[n++] = txw;
  if (n == 3 && ts[1] > ts[2]) {
    const double t = ts[1]; ts[1] = ts[2]; ts[2] = t;
  }
  ts[n++] = thi;
  for (int k = 0; k + 1 < n; k++) {
    const double ta = ts[k], tb = ts[k + 1];
    acc_line(A, clampd(x0 + (x1 - x0) * ta, 0, w), clampd(y0 + (y1 - y0) * ta, 0, A->h),
             clampd(x0 + (x1 - x0) * tb, 0, w), clampd(y0 + (y1 - y0) * tb, 0, A->h));
  }
}

/* Turns accumulated areas into coverage: running sums along each row,
 * |winding| clamped to 1. */
static void acc_finish(Area *A) {
  for (int y = 0; y < A->h; y++) {
    float *row = A->a + (size_t)y * A->stride;
    float acc = 0;
    for (int x = 0; x < A->w; x++) {
      acc += row[x];
      const float v = fabsf(acc);
      row[x] = v > 1 ? 1 : v;
    }
  }
}

int luma_canvas_fill(luma_Canvas *c, const luma_Paths *p, luma_Rgb col, double alpha,
                     luma_Threads *t) {
  const double s = c->scale;
  double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
  int64_t total = 0;
  for (int64_t k = 0; k < p->npaths; k++) total += p->counts[k];
  for (int64_t i = 0; i < total; i++) {
    const double x = p->xy[2 * i] * s, y = p->xy[2 * i + 1] * s;
    bx0 = fmin(bx0, x); bx1 = fmax(bx1, x);
    by0 = fmin(by0, y); by1 = fmax(by1, y);
  }
  if (total < 3) return 0;
  Area A;
  const int r = area_open(c, &A, bx0, by0, bx1, by1);
  if (r <= 0) return r;
  luma_WorkBatch wb = {t, 0};
  const double *xy = p->xy;
  for (int64_t k = 0; k < p->npaths; k++) {
    const int64_t n = p->counts[k];
    for (int64_t i = 0; i < n; i++) {
      const int64_t j = i + 1 < n ? i + 1 : 0;
      const double ya = xy[2 * i + 1] * s - A.y0, yb = xy[2 * j + 1] * s - A.y0;
      if (luma_work_add(&wb, 4 + (uint64_t)fabs(yb - ya))) return 1;
      acc_edge(&A, xy[2 * i] * s - A.x0, ya, xy[2 * j] * s - A.x0, yb);
    }
    xy += 2 * n;
  }
  if (luma_work_add(&wb, 2 * (uint64_t)A.w * (uint64_t)A.h)) return 1;
  luma_work_flush(&wb);
  acc_finish(&A);
  area_blend(c, &A, col, alpha);
  return 0;
}

/* ----------------------------------------------------------- strokes */

/* Unites (maximum) into the area the coverage of the segment a-b with
 * half width r (local coordinates) and the given end caps: a pixel whose
 * centre is at distance d from the segment's centre line gets
 * clamp(r + 1/2 - d, 0, 1); round ends measure d from the end point,
 * butt ends fade over the half pixel around the end, square ends are
 * butt ends r further out.  A zero-length segment with a round end is a
 * disc.  Returns the pixels visited (the work done). */
static uint64_t cov_segment(Area *A, double ax, double ay, double bx, double by, double r,
                            int cap0, int cap1) {
  const double dx = bx - ax, dy = by - ay, L = hypot(dx, dy);
  double ux = 1, uy = 0;
  if (L > 1e-12) {
    ux = dx / L;
    uy = dy / L;
  } else if (cap0 != LUMA_CAP_ROUND && cap1 != LUMA_CAP_ROUND) {
    return 0;
  }
  const double e0 = cap0 == LUMA_CAP_SQUARE ? r : 0, e1 = cap1 == LUMA_CAP_SQUARE ? r : 0;
  const double R = r + 1 + fmax(e0, e1);
  const int ylo = (int)clampd(floor(fmin(ay, by) - R), 0, A->h);
  const int yhi = (int)clampd(ceil(fmax(ay, by) + R), 0, A->h);
  const double xmin_all = fmin(ax, bx) - R, xmax_all = fmax(ax, bx) + R;
  uint64_t visited = 0;
  for (int y = ylo; y < yhi; y++) {
    const double yc = y + 0.5;
    double xlo = xmin_all, xhi = xmax_all;
    if (fabs(uy) > 1e-9 && L > 1e-12) {
      /* the part of the (extended) centre line within R of this row */
      double t1 = (yc - R - ay) / uy, t2 = (yc + R - ay) / uy;
      if (t1 > t2) {
        const double tt = t1; t1 = t2; t2 = tt;
      }
      t1 = fmax(t1, -e0);
      t2 = fmin(t2, L + e1);
      if (t1 > t2) continue;
      const double xa = ax + t1 * ux, xb = ax + t2 * ux;
      xlo = fmax(xlo, fmin(xa, xb) - R);
      xhi = fmin(xhi, fmax(xa, xb) + R);
    }
    const int x0 = (int)clampd(floor(xlo), 0, A->w), x1 = (int)clampd(ceil(xhi), 0, A->w);
    float *row = A->a + (size_t)y * A->stride;
    visited += (uint64_t)(x1 > x0 ? x1 - x0 : 0);
    for (int x = x0; x < x1; x++) {
      const double px = x + 0.5 - ax, py = yc - ay;
      const double t = px * ux + py * uy;
      const double d = fabs(px * uy - py * ux);
      double cov;
      if (t < 0 && cap0 == LUMA_CAP_ROUND) {
        cov = r + 0.5 - hypot(t, d);
      } else if (t > L && cap1 == LUMA_CAP_ROUND) {
        cov = r + 0.5 - hypot(t - L, d);
      } else {
        cov = clampd(r + 0.5 - d, 0, 1);
        if (cap0 != LUMA_CAP_ROUND) cov *= clampd(t + e0 + 0.5, 0, 1);
        if (cap1 != LUMA_CAP_ROUND) cov *= clampd(L + e1 - t + 0.5, 0, 1);
      }
      if (cov > row[x]) row[x] = cov > 1 ? 1 : (float)cov;
    }
  }
  return visited;
}

/* Moves the dash state (entry k, length left in it) on by distance d. */
static void dash_advance(const double *dash, int ndash, double period, int *k, double *left,
                         double d) {
  if (d <= 0) return;
  if (d > *left) {
    d -= *left;
    *k = (*k + 1) % ndash;
    *left = dash[*k];
    d = fmod(d, period);
    while (d > *left) {
      d -= *left;
      *k = (*k + 1) % ndash;
      *left = dash[*k];
    }
  }
  *left -= d;
}

/* The parameter range [t0, t1] of the segment a-b inside the box
 * [lo, hi]^2 (Liang-Barsky); 0 when it misses the box. */
static int clip_segment(double ax, double ay, double bx, double by, double xlo, double ylo,
                        double xhi, double yhi, double *t0, double *t1) {
  const double p[4] = {-(bx - ax), bx - ax, -(by - ay), by - ay};
  const double q[4] = {ax - xlo, xhi - ax, ay - ylo, yhi - ay};
  *t0 = 0;
  *t1 = 1;
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0) {
      if (q[i] < 0) return 0;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0) *t0 = fmax(*t0, r);
    else *t1 = fmin(*t1, r);
  }
  return *t0 <= *t1;
}

/* Strokes one subpath (n points in canvas pixels, minus the area's
 * origin) into the area, dashed when s->ndash > 0 (dash lengths already
 * scaled).  Returns nonzero when the meter stops the work. */
static int stroke_path(Area *A, const double *pts, int64_t n, double r, int cap, int join,
                       int closed, const double *dash, int ndash, double period,
                       luma_WorkBatch *wb) {
  if (n == 1) {
    if (cap == LUMA_CAP_ROUND) cov_segment(A, pts[0], pts[1], pts[0], pts[1], r, cap, cap);
    return 0;
  }
  const int64_t nseg = closed ? n : n - 1;
  /* dash state: entry k, length left in it, on or off */
  int k = 0;
  double left = ndash > 0 ? dash[0] : INFINITY;
  for (int64_t i = 0; i < nseg; i++) {
    const int64_t j = i + 1 < n ? i + 1 : 0;
    const double ax = pts[2 * i], ay = pts[2 * i + 1], bx = pts[2 * j], by = pts[2 * j + 1];
    const double L = hypot(bx - ax, by - ay);
    const int first = i == 0 && !closed, last = i == nseg - 1 && !closed;
    if (ndash == 0) {
      const uint64_t v = cov_segment(A, ax, ay, bx, by, r, first ? cap : join, last ? cap : join);
      if (luma_work_add(wb, v + 4)) return 1;
      continue;
    }
    if (L == 0) continue;
    /* only the part near the area is dashed; the rest moves the phase */
    double ta, tb;
    const double m = r + 2;
    if (!clip_segment(ax, ay, bx, by, -m, -m, A->w + m, A->h + m, &ta, &tb)) ta = tb = 1;
    dash_advance(dash, ndash, period, &k, &left, ta * L);
    double pos = ta * L;
    const double end = tb * L;
    while (pos < end) {
      /* the dashes' count is the length over the period, whatever the
       * canvas: every one is charged, on or off */
      if (luma_work_add(wb, 4)) return 1;
      double step = fmin(left, end - pos);
      /* a dash shorter than pos's precision would not advance it (a loop
       * without end, even without limits): the rest of the segment is one
       * piece */
      if (!(pos + step > pos)) step = end - pos;
      if (k % 2 == 0 && step > 0) {
        const double t0 = pos / L, t1 = (pos + step) / L;
        /* a vertex inside a dash is a join; the dash's own ends are capped */
        const int c0 = pos == 0 && i > 0 && left < dash[k] - 1e-12 ? join : cap;
        const int c1 = pos + step >= L - 1e-12 && left - step > 1e-12 && i < nseg - 1 ? join : cap;
        const uint64_t v = cov_segment(A, ax + (bx - ax) * t0, ay + (by - ay) * t0,
                                       ax + (bx - ax) * t1, ay + (by - ay) * t1, r, c0, c1);
        if (luma_work_add(wb, v + 4)) return 1;
      }
      pos += step;
      left -= step;
      if (left <= 1e-12) {
        k = (k + 1) % ndash;
        left = dash[k];
      }
    }
    dash_advance(dash, ndash, period, &k, &left, L - end);
  }
  return 0;
}

int luma_canvas_stroke(luma_Canvas *c, const luma_Paths *p, const luma_Stroke *st, luma_Rgb col,
                       double alpha, luma_Threads *t) {
  const double s = c->scale;
  const double r = st->width * s / 2;
  int64_t total = 0;
  for (int64_t k = 0; k < p->npaths; k++) total += p->counts[k];
  if (total == 0 || !(r > 0)) return 0;
  double bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
  for (int64_t i = 0; i < total; i++) {
    const double x = p->xy[2 * i] * s, y = p->xy[2 * i + 1] * s;
    bx0 = fmin(bx0, x); bx1 = fmax(bx1, x);
    by0 = fmin(by0, y); by1 = fmax(by1, y);
  }
  const double R = 2 * r + 1;
  Area A;
  int rc = area_open(c, &A, bx0 - R, by0 - R, bx1 + R, by1 + R);
  if (rc <= 0) return rc;
  /* the dash lengths scaled (at most LUMA_MAX_DASH; an odd list repeats
   * twice, as SVG's) */
  double dash[2 * LUMA_MAX_DASH];
  int ndash = st->ndash < LUMA_MAX_DASH ? st->ndash : LUMA_MAX_DASH;
  double period = 0;
  for (int i = 0; i < ndash; i++) {
    dash[i] = dash[ndash + i] = fmax(st->dash[i] * s, 0);
    period += dash[i];
  }
  if (ndash % 2 == 1) {
    ndash *= 2;
    period *= 2;
  }
  if (!(period > 0)) ndash = 0;
  luma_WorkBatch wb = {t, 0};
  const double *xy = p->xy;
  double *pts = NULL;
  int64_t cap = 0;
  rc = 0;
  for (int64_t k = 0; k < p->npaths && rc == 0; k++) {
    const int64_t n = p->counts[k];
    if (n > cap) {
      double *q = canvas_realloc(c, pts, (size_t)cap * 2 * sizeof(double), (size_t)n * 2 * sizeof(double));
      if (q == NULL) {
        rc = -1;
        break;
      }
      pts = q;
      cap = n;
    }
    for (int64_t i = 0; i < n; i++) {
      pts[2 * i] = xy[2 * i] * s - A.x0;
      pts[2 * i + 1] = xy[2 * i + 1] * s - A.y0;
    }
    if (n > 0 && stroke_path(&A, pts, n, r, st->cap, st->join, st->closed && n > 2, dash, ndash,
                             period, &wb))
      rc = 1;
    xy += 2 * n;
  }
  if (pts) canvas_realloc(c, pts, (size_t)cap * 2 * sizeof(double), 0);
  if (rc != 0) return rc;
  luma_work_flush(&wb);
  area_blend(c, &A, col, alpha);
  return 0;
}

/* ------------------------------------------------------------- rects */

void luma_canvas_rect(luma_Canvas *c, double x, double y, double w, double h, luma_Rgb col,
                      double alpha, int crisp) {
  const double s = c->scale;
  double x0 = x * s, y0 = y * s, x1 = (x + w) * s, y1 = (y + h) * s;
  if (x0 > x1) { const double t = x0; x0 = x1; x1 = t; }
  if (y0 > y1) { const double t = y0; y0 = y1; y1 = t; }
  if (crisp) {
    x0 = floor(x0 + 0.5); x1 = floor(x1 + 0.5);
    y0 = floor(y0 + 0.5); y1 = floor(y1 + 0.5);
  }
  const int ix0 = (int)clampd(floor(x0), c->cx0, c->cx1), ix1 = (int)clampd(ceil(x1), c->cx0, c->cx1);
  const int iy0 = (int)clampd(floor(y0), c->cy0, c->cy1), iy1 = (int)clampd(ceil(y1), c->cy0, c->cy1);
  for (int py = iy0; py < iy1; py++) {
    const double fy = fmin(py + 1.0, y1) - fmax((double)py, y0);
    unsigned char *p = c->rgb + ((size_t)py * c->w + ix0) * 3;
    for (int px = ix0; px < ix1; px++, p += 3) {
      const double fx = fmin(px + 1.0, x1) - fmax((double)px, x0);
      const double a = clampd(fx, 0, 1) * clampd(fy, 0, 1) * alpha;
      const unsigned k = (unsigned)(a * 256 + 0.5);
      if (k > 0) blend_px(p, col, k > 256 ? 256 : k);
    }
  }
}

/* ----------------------------------------------------------- markers */

/* The sprites of one marker: per quarter-pixel offset q = qy * 4 + qx, a
 * size x size mask of fill weights and one of edge weights (0..256,
 * coverage times alpha), rendered the first time a point needs them. */
typedef struct Sprites {
  const luma_MarkerShape *m;
  double s, alpha;
  int size, half, edged;
  size_t cells;
  uint16_t *fill[16], *edge[16]; /* NULL until rendered; edge unused without an outline */
  Area A;                        /* the coverage buffer they are rendered in */
} Sprites;

/* Renders one mask for the marker centred at (cx, cy) of a size x size
 * area: the fill (edge = 0) or the outline (edge = 1).  Each piece is
 * charged (a polygon may have any number of vertices); nonzero when the
 * meter stopped. */
static int sprite_render(Area *A, const luma_MarkerShape *m, double s, double cx, double cy,
                         int edge, luma_WorkBatch *wb) {
  if (luma_work_add(wb, (uint64_t)A->stride * (uint64_t)A->h)) return 1;
  memset(A->a, 0, (size_t)A->stride * A->h * sizeof(float) + 2 * sizeof(float));
  if (!edge) {
    if (m->disc > 0) {
      const uint64_t v = cov_segment(A, cx, cy, cx, cy, m->disc * s / 2, LUMA_CAP_ROUND, LUMA_CAP_ROUND);
      return luma_work_add(wb, v);
    } else if (m->npoly > 0) {
      for (int i = 0; i < m->npoly; i++) {
        const int j = (i + 1) % m->npoly;
        const double ya = cy + m->poly[2 * i + 1] * s, yb = cy + m->poly[2 * j + 1] * s;
        if (luma_work_add(wb, 4 + (uint64_t)fmin(fabs(yb - ya), A->h))) return 1;
        acc_edge(A, cx + m->poly[2 * i] * s, ya, cx + m->poly[2 * j] * s, yb);
      }
      acc_finish(A);
    } else {
      for (int i = 0; i < m->nsegs; i++) {
        const double *g = m->segs + 4 * i;
        const uint64_t v = cov_segment(A, cx + g[0] * s, cy + g[1] * s, cx + g[2] * s,
                                       cy + g[3] * s, m->seg_width * s / 2, LUMA_CAP_BUTT,
                                       LUMA_CAP_BUTT);
        if (luma_work_add(wb, v + 4)) return 1;
      }
    }
    return 0;
  }
  /* the outline: the polygon's, or a 64-gon close to the circle */
  const double r = m->edge_width * s / 2;
  const int n = m->disc > 0 ? 64 : m->npoly;
  for (int i = 0; i < n; i++) {
    double xa, ya, xb, yb;
    if (m->disc > 0) {
      const double rad = m->disc * s / 2, a0 = 2 * M_PI * i / n, a1 = 2 * M_PI * (i + 1) / n;
      xa = rad * cos(a0); ya = rad * sin(a0);
      xb = rad * cos(a1); yb = rad * sin(a1);
    } else {
      const int j = (i + 1) % n;
      xa = m->poly[2 * i] * s; ya = m->poly[2 * i + 1] * s;
      xb = m->poly[2 * j] * s; yb = m->poly[2 * j + 1] * s;
    }
    const uint64_t v = cov_segment(A, cx + xa, cy + ya, cx + xb, cy + yb, r, LUMA_CAP_ROUND, LUMA_CAP_ROUND);
    if (luma_work_add(wb, v + 4)) return 1;
  }
  return 0;
}

/* Sizes the sprites of marker m and allocates their render buffer; 0, or
 * -1 when memory runs out. */
static int sprites_open(luma_Canvas *c, Sprites *sp, const luma_MarkerShape *m, double alpha) {
  memset(sp, 0, sizeof *sp);
  sp->m = m;
  sp->s = c->scale;
  sp->alpha = alpha;
  double reach = 0;
  if (m->disc > 0) reach = m->disc / 2;
  for (int i = 0; i < m->npoly; i++) reach = fmax(reach, hypot(m->poly[2 * i], m->poly[2 * i + 1]));
  for (int i = 0; i < 2 * m->nsegs; i++)
    reach = fmax(reach, hypot(m->segs[2 * i], m->segs[2 * i + 1]) + m->seg_width / 2);
  sp->edged = m->edge_width > 0 && m->nsegs == 0;
  if (sp->edged) reach += m->edge_width / 2;
  reach *= sp->s;
  sp->half = (int)ceil(reach + 0.5);
  sp->size = 2 * sp->half + 1;
  sp->cells = (size_t)sp->size * sp->size;
  sp->A = (Area){0, 0, sp->size, sp->size, sp->size + 2, NULL};
  sp->A.a = canvas_realloc(c, NULL, 0, ((size_t)sp->A.stride * sp->A.h + 2) * sizeof(float));
  return sp->A.a ? 0 : -1;
}

static void sprites_close(luma_Canvas *c, Sprites *sp) {
  const size_t mask = sp->cells * sizeof(uint16_t);
  for (int q = 0; q < 16; q++) {
    if (sp->fill[q]) canvas_realloc(c, sp->fill[q], mask, 0);
    if (sp->edge[q]) canvas_realloc(c, sp->edge[q], mask, 0);
  }
  if (sp->A.a) canvas_realloc(c, sp->A.a, ((size_t)sp->A.stride * sp->A.h + 2) * sizeof(float), 0);
}

/* Makes sure the sprites of offset q exist: 0, -1 when memory runs out,
 * 1 when the meter stopped. */
static int sprite_need(luma_Canvas *c, Sprites *sp, int q, luma_WorkBatch *wb) {
  if (sp->fill[q]) return 0;
  const double cx = sp->half + (q % 4) / 4.0, cy = sp->half + (q / 4) / 4.0;
  for (int e = 0; e <= sp->edged; e++) {
    uint16_t *out = canvas_realloc(c, NULL, 0, sp->cells * sizeof(uint16_t));
    if (out == NULL) return -1;
    if (e) sp->edge[q] = out;
    else sp->fill[q] = out;
    if (sprite_render(&sp->A, sp->m, sp->s, cx, cy, e, wb)) return 1;
    if (luma_work_add(wb, sp->cells)) return 1;
    for (int y = 0; y < sp->size; y++)
      for (int x = 0; x < sp->size; x++)
        out[y * sp->size + x] =
            (uint16_t)(clampd(sp->A.a[y * sp->A.stride + x], 0, 1) * sp->alpha * 256 + 0.5);
  }
  return 0;
}

/* floor(v / 4) for any integer v. */
static inline int64_t floor4(int64_t v) { return v >= 0 ? v / 4 : -((-v + 3) / 4); }

static inline double map(const luma_AxisMap *m, double v) {
  return m->p0 + ((m->log ? log10(v) : v) - m->lo) * m->k;
}

/* Stamps one mask with its top left at canvas pixel (ox, oy), clipped. */
static void stamp(luma_Canvas *c, const uint16_t *mask, int size, int64_t ox, int64_t oy,
                  luma_Rgb col) {
  const int64_t xa = ox < c->cx0 ? c->cx0 - ox : 0, ya = oy < c->cy0 ? c->cy0 - oy : 0;
  const int64_t xb = ox + size > c->cx1 ? c->cx1 - ox : size;
  const int64_t yb = oy + size > c->cy1 ? c->cy1 - oy : size;
  for (int64_t y = ya; y < yb; y++) {
    const uint16_t *m = mask + y * size;
    unsigned char *p = c->rgb + ((size_t)(oy + y) * c->w + (size_t)(ox + xa)) * 3;
    for (int64_t x = xa; x < xb; x++, p += 3)
      if (m[x]) blend_px(p, col, m[x]);
  }
}

int luma_canvas_markers(luma_Canvas *c, const luma_MarkerShape *shape, const luma_Points *pts,
                        luma_Rgb fill, luma_Rgb edge, double alpha, luma_Threads *t) {
  Sprites sp;
  if (sprites_open(c, &sp, shape, alpha) != 0) {
    sprites_close(c, &sp);
    return -1;
  }
  const size_t cells = sp.cells;
  const double s4 = 4 * c->scale;
  /* quarter pixels beyond which a marker cannot touch the clip box */
  const double lim_x0 = 4.0 * (c->cx0 - sp.size), lim_x1 = 4.0 * (c->cx1 + sp.size);
  const double lim_y0 = 4.0 * (c->cy0 - sp.size), lim_y1 = 4.0 * (c->cy1 + sp.size);
  luma_WorkBatch wb = {t, 0};
  int rc = 0;
  for (int64_t i = 0; i < pts->n; i++) {
    if (luma_work_add(&wb, 2 + cells)) {
      rc = 1;
      break;
    }
    const double qx = floor(map(&pts->mx, pts->x[i]) * s4 + 0.5);
    const double qy = floor(map(&pts->my, pts->y[i]) * s4 + 0.5);
    if (!(qx > lim_x0 && qx < lim_x1 && qy > lim_y0 && qy < lim_y1)) continue;
    const int64_t ix = (int64_t)qx, iy = (int64_t)qy;
    const int q = (int)((iy - 4 * floor4(iy)) * 4 + (ix - 4 * floor4(ix)));
    const int64_t ox = floor4(ix) - sp.half, oy = floor4(iy) - sp.half;
    const luma_Rgb col = pts->shade ? pts->palette[pts->shade[i]] : fill;
    rc = sprite_need(c, &sp, q, &wb);
    if (rc != 0) break;
    stamp(c, sp.fill[q], sp.size, ox, oy, col);
    if (sp.edged) stamp(c, sp.edge[q], sp.size, ox, oy, edge);
  }
  if (rc == 0) luma_work_flush(&wb);
  sprites_close(c, &sp);
  return rc;
}

void luma_canvas_blend_mask(luma_Canvas *c, const unsigned char *mask, int pitch, int x0, int y0,
                            int w, int h, luma_Rgb col, double alpha) {
  const unsigned a = (unsigned)(alpha * 256 + 0.5);
  for (int y = 0; y < h; y++) {
    const int py = y0 + y;
    if (py < c->cy0 || py >= c->cy1) continue;
    for (int x = 0; x < w; x++) {
      const int px = x0 + x;
      if (px < c->cx0 || px >= c->cx1) continue;
      const unsigned m = mask[(size_t)y * pitch + x];
      if (m) blend_px(c->rgb + ((size_t)py * c->w + px) * 3, col, (m * a + 127) / 255);
    }
  }
}
