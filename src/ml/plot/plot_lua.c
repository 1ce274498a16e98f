/*
 * plot_lua.c - Lua binding of luma.plot's native half (luma.plot.native):
 * whether standard output is a terminal and how large it is, which
 * fig:show() needs to choose between braille and an SVG file and to size
 * the drawing.  Both are plain queries: allowed in sandboxed states.
 */
#include "plot/term.h"
#include "core/matrix_lua.h"

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

int luma_open_plot_native(lua_State *L) {
  static const luma_Func funcs[] = {
      {"isatty", p_isatty, "isatty([stream = \"stdout\"])",
       "True when the stream (\"stdout\" or \"stderr\") is a terminal."},
      {"terminal_size", p_size, "terminal_size([stream = \"stdout\"])",
       "The terminal's width and height in characters, or nothing when the stream is not a "
       "terminal or reports no size."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.plot.native", funcs);
  luma_doc_set(L, -1, "luma.plot.native", NULL,
               "Terminal queries behind luma.plot's braille renderer.");
  return 1;
}
