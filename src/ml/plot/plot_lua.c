/*
 * plot_lua.c - Lua binding of luma.plot's native half (luma.plot.native):
 * whether standard output is a terminal and how large it is, which
 * fig:show() needs to choose between braille and an SVG file and to size
 * the drawing (plain queries: allowed in sandboxed states); and the
 * raster canvas the PNG writer (lua/luma/plot/raster.lua) draws figures
 * on, with FreeType text and a zlib PNG encoder (raster.h, font.h,
 * png.h): drawing is allowed anywhere, writing the file is not in a
 * sandboxed state.
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "budget.h"
#include "core/matrix_lua.h"
#include "plot/font.h"
#include "plot/png.h"
#include "plot/raster.h"
#include "plot/term.h"

/* The file descriptor of a stream name: "stdout" (default) or "stderr". */
static int check_stream(lua_State *L, int arg) {
  static const char *const names[] = {"stdout", "stderr", NULL};
  return luaL_checkoption(L, arg, "stdout", names) == 0 ? 1 : 2;
}

static int p_isatty(lua_State *L) {
  lua_pushboolean(L, luma_term_isatty(check_stream(L, 1)));
  return 1;
}

static int p_size(lua_State *L) {
  int cols = 0, rows = 0;
  if (luma_term_size(check_stream(L, 1), &cols, &rows) != 0) return 0;
  lua_pushinteger(L, cols);
  lua_pushinteger(L, rows);
  return 2;
}

/* ------------------------------------------------------------ canvas */

/* The userdata: the canvas, its font (opened on the first text), then
 * the pixels. */
typedef struct Canvas {
  luma_Canvas c;
  luma_Font *font;
} Canvas;

#define CANVAS_HEAD ((sizeof(Canvas) + 15) / 16 * 16)

/* Coordinates beyond this many pixels are clamped (far outside any
 * canvas; keeps the arithmetic of the rasterizer finite). */
#define FAR 1e12

static const luma_Type canvas_type; /* defined after its methods */

static Canvas *check_canvas(lua_State *L) { return luma_type_check(L, 1, &canvas_type); }

static int canvas_gc(lua_State *L) {
  Canvas *cv = luma_type_test(L, 1, &canvas_type);
  if (cv != NULL) {
    luma_canvas_release(&cv->c);
    luma_font_close(cv->font);
    cv->font = NULL;
  }
  return 0;
}

static luma_Rgb check_rgb(lua_State *L, int arg, const char *what) {
  luma_Rgb c;
  if (luma_rgb_parse(lua_tostring(L, arg), &c) != 0)
    luma_arg_error(L, arg, "%s must be a colour '#rrggbb'", what);
  return c;
}

/* A colour option of the table at arg, "#rrggbb". */
static luma_Rgb opt_rgb(lua_State *L, int arg, const char *key, luma_Rgb dflt) {
  if (lua_type(L, arg) != LUA_TTABLE) return dflt;
  lua_getfield(L, arg, key);
  luma_Rgb c = dflt;
  if (!lua_isnil(L, -1) && luma_rgb_parse(lua_tostring(L, -1), &c) != 0)
    luma_arg_error(L, arg, "%s must be a colour '#rrggbb'", key);
  lua_pop(L, 1);
  return c;
}

static double alpha_of(lua_State *L, int arg, double a) {
  if (!(a >= 0 && a <= 1)) luma_arg_error(L, arg, "alpha must be in [0, 1]");
  return a;
}

/* The numbers of the list at idx, pushed as a scratch userdata (count is
 * the list's length; clamp bounds each value to +-FAR). */
static double *read_numbers(lua_State *L, int arg, int idx, const char *what, int64_t *count,
                            int clamp) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE) luma_arg_error(L, arg, "%s must be a list of numbers", what);
  const int64_t n = (int64_t)lua_rawlen(L, idx);
  double *v = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(double), 0);
  for (int64_t i = 0; i < n; i++) {
    lua_rawgeti(L, idx, (lua_Integer)i + 1);
    int ok;
    double x = lua_tonumberx(L, -1, &ok);
    lua_pop(L, 1);
    if (!ok || x != x) luma_arg_error(L, arg, "%s[%I] must be a number", what, (lua_Integer)i + 1);
    if (clamp) x = x < -FAR ? -FAR : x > FAR ? FAR : x;
    v[i] = x;
  }
  *count = n;
  return v;
}

/* Paths at arg: a list of flat coordinate lists {x1, y1, x2, y2, ...}. */
static void read_paths(lua_State *L, int arg, luma_Paths *p) {
  if (lua_type(L, arg) != LUA_TTABLE)
    luma_arg_error(L, arg, "paths must be a list of coordinate lists {x1, y1, x2, y2, ...}");
  const int64_t np = (int64_t)lua_rawlen(L, arg);
  int64_t total = 0;
  for (int64_t k = 1; k <= np; k++) {
    if (lua_rawgeti(L, arg, (lua_Integer)k) != LUA_TTABLE)
      luma_arg_error(L, arg, "paths[%I] must be a list of coordinates", (lua_Integer)k);
    const int64_t n = (int64_t)lua_rawlen(L, -1);
    if (n % 2 != 0) luma_arg_error(L, arg, "paths[%I] has an odd number of coordinates", (lua_Integer)k);
    total += n;
    lua_pop(L, 1);
  }
  int64_t *counts = lua_newuserdatauv(L, (size_t)(np > 0 ? np : 1) * sizeof(int64_t), 0);
  double *xy = lua_newuserdatauv(L, (size_t)(total > 0 ? total : 1) * sizeof(double), 0);
  int64_t at = 0;
  for (int64_t k = 1; k <= np; k++) {
    lua_rawgeti(L, arg, (lua_Integer)k);
    const int64_t n = (int64_t)lua_rawlen(L, -1);
    for (int64_t i = 1; i <= n; i++) {
      lua_rawgeti(L, -1, (lua_Integer)i);
      int ok;
      const double x = lua_tonumberx(L, -1, &ok);
      if (!ok || !isfinite(x))
        luma_arg_error(L, arg, "paths[%I][%I] must be a finite number", (lua_Integer)k, (lua_Integer)i);
      xy[at++] = x < -FAR ? -FAR : x > FAR ? FAR : x;
      lua_pop(L, 1);
    }
    counts[k - 1] = n / 2;
    lua_pop(L, 1);
  }
  p->xy = xy;
  p->counts = counts;
  p->npaths = np;
}

/* Raises the error of a drawing call that stopped (rc 1; the meter's
 * error) or failed (rc -1: the state's allocator refused a buffer). */
static void drawn(lua_State *L, luma_Threads *t, int rc) {
  luma_meter_done(L, t);
  if (rc < 0) luaL_error(L, "luma.plot.Canvas: not enough memory");
}

/* canvas(width, height [, {scale = 1, background = "#ffffff"}]) */
static int p_canvas(lua_State *L) {
  const lua_Integer w = luma_check_int_range(L, 1, "width", 1, 100000);
  const lua_Integer h = luma_check_int_range(L, 2, "height", 1, 100000);
  luma_check_options(L, 3, "scale|background");
  const double scale = luma_opt_number(L, 3, "scale", 1);
  const luma_Rgb bg = opt_rgb(L, 3, "background", (luma_Rgb){255, 255, 255});
  const double pw = ceil(w * scale - 1e-9), ph = ceil(h * scale - 1e-9);
  if (!(scale > 0) || pw < 1 || ph < 1 || pw * ph > 1 << 26)
    luma_arg_error(L, 3, "scale %f makes a %f x %f canvas (at most 2^26 pixels)", scale, pw, ph);
  luma_charge(L, (uint64_t)(pw * ph));
  Canvas *cv = lua_newuserdatauv(L, CANVAS_HEAD + (size_t)(pw * ph) * 3, 0);
  cv->font = NULL;
  void *ud;
  lua_Alloc alloc = lua_getallocf(L, &ud); /* buffers within the state's memory limit */
  luma_canvas_init(&cv->c, (unsigned char *)cv + CANVAS_HEAD, (int)pw, (int)ph, scale, bg, alloc,
                   ud);
  luma_type_register(L, &canvas_type);
  lua_pop(L, 1);
  luma_type_setmetatable(L, &canvas_type);
  return 1;
}

/* canvas:clip([x, y, w, h]) */
static int c_clip(lua_State *L) {
  Canvas *cv = check_canvas(L);
  if (lua_isnoneornil(L, 2)) {
    luma_canvas_unclip(&cv->c);
    return 0;
  }
  luma_canvas_clip(&cv->c, luma_check_finite(L, 2, "x"), luma_check_finite(L, 3, "y"),
                   luma_check_finite(L, 4, "w"), luma_check_finite(L, 5, "h"));
  return 0;
}

/* canvas:fill(paths, color [, alpha = 1]) */
static int c_fill(lua_State *L) {
  Canvas *cv = check_canvas(L);
  const luma_Rgb col = check_rgb(L, 3, "color");
  const double alpha = alpha_of(L, 4, luaL_optnumber(L, 4, 1));
  luma_Paths p;
  read_paths(L, 2, &p);
  /* the work depends on the paths, not the canvas: always metered */
  luma_Threads *t = luma_threads_of(L);
  drawn(L, t, luma_canvas_fill(&cv->c, &p, col, alpha, t));
  return 0;
}

/* canvas:stroke(paths, color [, {width = 1, alpha = 1, cap = "butt",
 * join = "round", closed = false, dash}]) */
static int c_stroke(lua_State *L) {
  Canvas *cv = check_canvas(L);
  const luma_Rgb col = check_rgb(L, 3, "color");
  luma_check_options(L, 4, "width|alpha|cap|join|closed|dash");
  luma_Stroke st = {luma_opt_number(L, 4, "width", 1),
                    luma_opt_choice(L, 4, "cap", "butt|round|square", LUMA_CAP_BUTT),
                    luma_opt_choice(L, 4, "join", "butt|round|square", LUMA_CAP_ROUND),
                    luma_opt_boolean(L, 4, "closed", 0), NULL, 0};
  const double alpha = alpha_of(L, 4, luma_opt_number(L, 4, "alpha", 1));
  if (st.join == LUMA_CAP_BUTT) luma_arg_error(L, 4, "join must be 'round' or 'square'");
  if (lua_type(L, 4) == LUA_TTABLE && lua_getfield(L, 4, "dash") != LUA_TNIL) {
    int64_t n;
    st.dash = read_numbers(L, 4, -1, "dash", &n, 0);
    for (int64_t i = 0; i < n; i++)
      if (!(st.dash[i] >= 0 && st.dash[i] < FAR)) luma_arg_error(L, 4, "dash lengths must be >= 0");
    st.ndash = (int)(n < LUMA_MAX_DASH ? n : LUMA_MAX_DASH);
  }
  luma_Paths p;
  read_paths(L, 2, &p);
  /* the work depends on the paths and the dashes (their length over the
   * period), not the canvas: always metered */
  luma_Threads *t = luma_threads_of(L);
  drawn(L, t, luma_canvas_stroke(&cv->c, &p, &st, col, alpha, t));
  return 0;
}

/* canvas:rect(x, y, w, h, color [, {alpha = 1, crisp = false}]) */
static int c_rect(lua_State *L) {
  Canvas *cv = check_canvas(L);
  double v[4];
  static const char *const names[] = {"x", "y", "w", "h"};
  for (int i = 0; i < 4; i++) {
    v[i] = luma_check_finite(L, i + 2, names[i]);
    v[i] = v[i] < -FAR ? -FAR : v[i] > FAR ? FAR : v[i];
  }
  const luma_Rgb col = check_rgb(L, 6, "color");
  luma_check_options(L, 7, "alpha|crisp");
  const double alpha = alpha_of(L, 7, luma_opt_number(L, 7, "alpha", 1));
  luma_charge(L, (uint64_t)(fmin(fabs(v[2]), cv->c.w) * fmin(fabs(v[3]), cv->c.h)) + 1);
  luma_canvas_rect(&cv->c, v[0], v[1], v[2], v[3], col, alpha, luma_opt_boolean(L, 7, "crisp", 0));
  return 0;
}

/* An axis map {log = false, lo, k, p0} at arg. */
static luma_AxisMap check_map(lua_State *L, int arg) {
  luaL_checktype(L, arg, LUA_TTABLE);
  luma_AxisMap m;
  lua_getfield(L, arg, "log");
  m.log = lua_toboolean(L, -1);
  lua_pop(L, 1);
  double *f[3] = {&m.lo, &m.k, &m.p0};
  static const char *const keys[] = {"lo", "k", "p0"};
  for (int i = 0; i < 3; i++) {
    lua_getfield(L, arg, keys[i]);
    int ok;
    *f[i] = lua_tonumberx(L, -1, &ok);
    if (!ok || !isfinite(*f[i])) luma_arg_error(L, arg, "the axis map needs a finite %s", keys[i]);
    lua_pop(L, 1);
  }
  return m;
}

/* canvas:markers(x, y, xmap, ymap, {disc | poly | segs, seg_width = 1.5,
 * edge_width = 0, color, edgecolor, alpha = 1, shade, palette}) */
static int c_markers(lua_State *L) {
  Canvas *cv = check_canvas(L);
  luma_Points pts;
  memset(&pts, 0, sizeof pts);
  int64_t ny;
  pts.x = read_numbers(L, 2, 2, "x", &pts.n, 0);
  pts.y = read_numbers(L, 3, 3, "y", &ny, 0);
  if (ny != pts.n) luma_arg_error(L, 3, "y has %I values but x has %I", (lua_Integer)ny, (lua_Integer)pts.n);
  pts.mx = check_map(L, 4);
  pts.my = check_map(L, 5);
  const int o = 6;
  luma_check_options(L, o, "disc|poly|segs|seg_width|edge_width|color|edgecolor|alpha|shade|palette");
  luma_MarkerShape m;
  memset(&m, 0, sizeof m);
  m.disc = luma_opt_number(L, o, "disc", 0);
  m.seg_width = luma_opt_number(L, o, "seg_width", 1.5);
  m.edge_width = luma_opt_number(L, o, "edge_width", 0);
  const double alpha = alpha_of(L, o, luma_opt_number(L, o, "alpha", 1));
  const luma_Rgb fill = opt_rgb(L, o, "color", (luma_Rgb){0, 0, 0});
  const luma_Rgb edge = opt_rgb(L, o, "edgecolor", (luma_Rgb){0, 0, 0});
  luaL_checktype(L, o, LUA_TTABLE);
  int64_t n;
  if (lua_getfield(L, o, "poly") != LUA_TNIL) {
    m.poly = read_numbers(L, o, -1, "poly", &n, 0);
    if (n < 6 || n % 2 != 0) luma_arg_error(L, o, "poly must hold at least 3 points x, y");
    m.npoly = (int)(n / 2);
  }
  if (lua_getfield(L, o, "segs") != LUA_TNIL) {
    m.segs = read_numbers(L, o, -1, "segs", &n, 0);
    if (n < 4 || n % 4 != 0) luma_arg_error(L, o, "segs must hold segments x1, y1, x2, y2");
    m.nsegs = (int)(n / 4);
  }
  if ((m.disc > 0) + (m.npoly > 0) + (m.nsegs > 0) != 1)
    luma_arg_error(L, o, "give exactly one marker shape: disc, poly or segs");
  double reach = m.disc + m.seg_width + m.edge_width;
  for (int i = 0; i < 2 * m.npoly; i++) reach = fmax(reach, fabs(m.poly[i]) * 2);
  for (int i = 0; i < 4 * m.nsegs; i++) reach = fmax(reach, fabs(m.segs[i]) * 2);
  if (!(reach * cv->c.scale <= 2000)) luma_arg_error(L, o, "markers must be smaller than 2000 px");
  if (lua_getfield(L, o, "shade") != LUA_TNIL) {
    int64_t ns;
    const double *sh = read_numbers(L, o, -1, "shade", &ns, 0);
    if (ns != pts.n) luma_arg_error(L, o, "shade needs one colour index per point");
    unsigned char *shade = lua_newuserdatauv(L, (size_t)(ns > 0 ? ns : 1), 0);
    for (int64_t i = 0; i < ns; i++) {
      if (!(sh[i] >= 0 && sh[i] <= 255)) luma_arg_error(L, o, "shade values must be in 0..255");
      shade[i] = (unsigned char)sh[i];
    }
    luma_Rgb *pal = lua_newuserdatauv(L, 256 * sizeof(luma_Rgb), 0);
    if (lua_getfield(L, o, "palette") != LUA_TTABLE) luma_arg_error(L, o, "shade needs a palette");
    for (int k = 0; k < 256; k++) {
      lua_rawgeti(L, -1, k + 1);
      pal[k] = fill;
      if (!lua_isnil(L, -1) && luma_rgb_parse(lua_tostring(L, -1), &pal[k]) != 0)
        luma_arg_error(L, o, "palette[%d] must be a colour '#rrggbb'", k + 1);
      lua_pop(L, 1);
    }
    pts.shade = shade;
    pts.palette = pal;
  }
  /* the sprites' work depends on the marker's size and vertices: always
   * metered */
  luma_Threads *t = luma_threads_of(L);
  drawn(L, t, luma_canvas_markers(&cv->c, &m, &pts, fill, edge, alpha, t));
  return 0;
}

/* canvas:text(x, y, s [, {size = 11, color = "#000000", anchor = 0,
 * shift = 0, rotation = 0, bold = false, alpha = 1}]) */
static int c_text(lua_State *L) {
  Canvas *cv = check_canvas(L);
  const double x = luma_check_finite(L, 2, "x"), y = luma_check_finite(L, 3, "y");
  size_t len;
  const char *s = luaL_checklstring(L, 4, &len);
  luma_check_options(L, 5, "size|color|anchor|shift|rotation|bold|alpha");
  const double size = luma_opt_number(L, 5, "size", 11);
  const double anchor = luma_opt_number(L, 5, "anchor", 0);
  double shift = 0, rotation = 0;
  if (lua_type(L, 5) == LUA_TTABLE) {
    lua_getfield(L, 5, "shift");
    shift = luaL_optnumber(L, -1, 0);
    lua_getfield(L, 5, "rotation");
    rotation = luaL_optnumber(L, -1, 0);
    lua_pop(L, 2);
  }
  if (!isfinite(shift) || !isfinite(rotation)) luma_arg_error(L, 5, "shift and rotation must be finite");
  if (!(size * cv->c.scale <= 2000)) luma_arg_error(L, 5, "size must be at most 2000 px");
  if (anchor > 1) luma_arg_error(L, 5, "anchor must be in [0, 1]");
  const luma_Rgb col = opt_rgb(L, 5, "color", (luma_Rgb){0, 0, 0});
  const double alpha = alpha_of(L, 5, luma_opt_number(L, 5, "alpha", 1));
  const int bold = luma_opt_boolean(L, 5, "bold", 0);
  if (cv->font == NULL) {
    char err[256];
    cv->font = luma_font_open(err, sizeof err);
    if (cv->font == NULL) luaL_error(L, "luma.plot: %s", err);
  }
  luma_charge(L, (uint64_t)(len * size * size * cv->c.scale * cv->c.scale) + 1);
  if (size > 0 && len > 0 &&
      luma_font_draw(cv->font, &cv->c, s, len, x, y, size, bold, anchor, shift, rotation, col,
                     alpha) != 0)
    luaL_error(L, "luma.plot: FreeType failed to draw '%s'", s);
  return 0;
}

/* canvas:write_png(path) -> true, or nil and a message */
static int c_write_png(lua_State *L) {
  Canvas *cv = check_canvas(L);
  const char *path = luaL_checkstring(L, 2);
  luma_check_unsandboxed(L, "luma.plot.Canvas.write_png");
  char err[512];
  luma_Threads *t = luma_meter(L, (uint64_t)cv->c.w * (uint64_t)cv->c.h * 12);
  const int rc = luma_png_write(path, cv->c.rgb, cv->c.w, cv->c.h, t, err, sizeof err);
  luma_meter_done(L, t);
  if (rc != 0) {
    luaL_pushfail(L);
    lua_pushstring(L, err);
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* support() -> true, or false and why PNG cannot be drawn in-process */
static int p_support(lua_State *L) {
#ifdef LUMA_HAVE_PNG
  if (luma_font_path() != NULL) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_pushstring(L, "no DejaVu Sans font found (Debian package fonts-dejavu-core)");
#else
  lua_pushboolean(L, 0);
  lua_pushstring(L, "Luma was built without FreeType and zlib (Debian packages libfreetype-dev "
                    "and zlib1g-dev)");
#endif
  return 2;
}

static const luma_Func canvas_methods[] = {
    {"clip", c_clip, "canvas:clip([x, y, w, h])",
     "Clips later drawing to the rectangle (figure pixels); without arguments, to the whole "
     "canvas."},
    {"fill", c_fill, "canvas:fill(paths, color [, alpha = 1])",
     "Fills the paths (a list of flat lists {x1, y1, x2, y2, ...}, each closed) by the nonzero "
     "rule, anti-aliased by exact area coverage."},
    {"stroke", c_stroke,
     "canvas:stroke(paths, color [, {width = 1, alpha = 1, cap = \"butt\", join = \"round\", "
     "closed = false, dash}])",
     "Strokes the paths with the width (pixels), end caps (butt, round or square), joins "
     "(round, or square for right-angled corners) and dash lengths (on, off, ...)."},
    {"rect", c_rect, "canvas:rect(x, y, w, h, color [, {alpha = 1, crisp = false}])",
     "Fills an axis-aligned rectangle, anti-aliased or (crisp) with its edges on whole pixels."},
    {"markers", c_markers,
     "canvas:markers(x, y, xmap, ymap, {disc | poly | segs, seg_width = 1.5, edge_width = 0, "
     "color, edgecolor, alpha = 1, shade, palette})",
     "Stamps a marker at each data point (x[i], y[i]) mapped to pixels by xmap and ymap "
     "({log, lo, k, p0}: p0 + (f(v) - lo) k, f = log10 when log): a disc of the diameter, a "
     "filled polygon or stroked segments relative to the centre, outlined in edgecolor when "
     "edge_width > 0, coloured palette[shade[i] + 1] when shade is given."},
    {"text", c_text,
     "canvas:text(x, y, s [, {size = 11, color = \"#000000\", anchor = 0, shift = 0, "
     "rotation = 0, bold = false, alpha = 1}])",
     "Draws the text in DejaVu Sans through FreeType: baseline from (x, y) moved back by "
     "anchor times its width and down by shift, rotated counterclockwise about (x, y)."},
    {"write_png", c_write_png, "canvas:write_png(path)",
     "Writes the pixels as an 8-bit RGB PNG (rows filtered by the minimum-sum heuristic, "
     "deflated at zlib level 6); true, or nil and a message. Not available in sandboxed "
     "states."},
    {NULL, NULL, NULL, NULL}};

static const luaL_Reg canvas_meta[] = {{"__gc", canvas_gc}, {NULL, NULL}};

static const luma_Type canvas_type = {
    "luma.plot.Canvas", canvas_methods, canvas_meta,
    "An RGB raster the PNG writer draws a figure on (made by luma.plot.native.canvas): "
    "anti-aliased fills, strokes, marker sprites and FreeType text in figure pixels, "
    "written out by write_png.",
    NULL};

int luma_open_plot_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"isatty", p_isatty, "isatty([stream = \"stdout\"])",
       "True when the stream (\"stdout\" or \"stderr\") is a terminal."},
      {"terminal_size", p_size, "terminal_size([stream = \"stdout\"])",
       "The terminal's width and height in characters, or nothing when the stream is not a "
       "terminal or reports no size."},
      {"canvas", p_canvas, "canvas(width, height [, {scale = 1, background = \"#ffffff\"}])",
       "A white (or background) RGB canvas of width x height figure pixels times scale, for "
       "the PNG writer."},
      {"support", p_support, "support()",
       "True when PNG can be drawn in-process (built with FreeType and zlib, DejaVu Sans "
       "found); else false and why."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.plot.native", funcs);
  luma_doc_set(L, -1, "luma.plot.native", NULL,
               "Terminal queries behind luma.plot's braille renderer, and the raster canvas "
               "behind its PNG files.");
  return 1;
}
