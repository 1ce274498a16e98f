/*
 * embed_host.c - an example host program embedding Luma.
 *
 * It opens a sandboxed state with memory and instruction limits, hands it a
 * data matrix from a C array, runs a user script that computes column means
 * with it, reads the result back; then shows the failure paths (memory
 * limit, instruction limit, a forbidden os.execute) and keeps running after
 * each.  `make test` runs it and compares its output with
 * tests/c/embed_host.expected.
 *
 * Build against an installed Luma:  cc embed_host.c $(pkg-config --cflags --libs luma)
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "luma.h"

/* The user's script: a function of the data matrix X returning a matrix. */
static const char *const user_script =
    "local X = ...\n"
    "local rows, cols = X:shape()\n"
    "local means = luma.zeros(1, cols)\n"
    "for j = 1, cols do\n"
    "  local s = 0\n"
    "  for i = 1, rows do s = s + X:get(i, j) end\n"
    "  means:set(1, j, s / rows)\n"
    "end\n"
    "return means\n";

/* Runs `code` with the data matrix as its argument and reports the result. */
static void run_user_code(lua_State *L, const char *title, const char *code,
                          const double *data, int rows, int cols) {
  printf("-- %s\n", title);
  int status = luaL_loadbufferx(L, code, strlen(code), "=user", "t");
  if (status == LUA_OK) {
    status = luma_push_matrix(L, rows, cols, data);
    if (status != LUA_OK) {
      lua_pop(L, 1);
      printf("cannot pass the data: %s\n", luma_status_string(status));
      return;
    }
    status = luma_pcall(L, 1, 1);
  }
  if (status != LUA_OK) {
    /* The first line of the message says what went wrong; the traceback
     * below it is for the script's author. */
    const char *msg = lua_tostring(L, -1);
    printf("script failed (%s): %.*s\n", luma_status_string(status),
           (int)strcspn(msg ? msg : "", "\n"), msg ? msg : "");
    lua_pop(L, 1);
    return;
  }
  luma_MatrixRef result;
  if (luma_get_matrix(L, -1, &result) != LUA_OK) {
    printf("script returned a %s, not a matrix\n", luaL_typename(L, -1));
  } else {
    printf("result %lld x %lld:", (long long)result.rows, (long long)result.cols);
    for (int64_t j = 0; j < result.cols; j++)
      printf(" %g", result.data[j * result.col_stride]);
    printf("\n");
  }
  lua_pop(L, 1);
}

int main(void) {
  /* Four samples of three features, row-major. */
  static const double data[4 * 3] = {1, 10, 100, 2, 20, 200, 3, 30, 300, 4, 40, 400};

  luma_Options opts = {0};
  opts.size = sizeof opts;             /* the options this host was built with */
  opts.sandbox = 1;
  opts.memory_limit = 16u << 20;       /* 16 MiB */
  opts.instruction_limit = 10000000;   /* per run */
  lua_State *L = luma_newstate(&opts);
  if (L == NULL) {
    fprintf(stderr, "cannot create a Luma state\n");
    return 1;
  }

  run_user_code(L, "column means", user_script, data, 4, 3);
  run_user_code(L, "over the memory limit", "return luma.zeros(4000, 4000)", data, 4, 3);
  run_user_code(L, "over the instruction limit", "while true do end", data, 4, 3);
  run_user_code(L, "a forbidden call", "os.execute('echo hacked')", data, 4, 3);
  run_user_code(L, "the same state still works", user_script, data, 4, 3);

  luma_close(L);
  printf("host finished normally\n");
  return 0;
}
