/*
 * fuzz_csv.c - the CSV reader (luma.io.parse_csv, the same code as
 * read_csv after the file is read).
 *
 * Input: one options byte, then the text.  The byte picks header on/off,
 * the delimiter (, ; tab |), a comment character and skip_rows, so every
 * option path of the reader is reached.
 * SPDX-License-Identifier: MIT
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  lua_State *L = fuzz_state(0);
  static const char delimiters[4] = {',', ';', '\t', '|'};
  uint8_t o = data[0];
  fuzz_push_function(L, "io", "parse_csv");
  lua_pushlstring(L, (const char *)data + 1, size - 1);
  lua_createtable(L, 0, 5);
  lua_pushboolean(L, !(o & 1));
  lua_setfield(L, -2, "header");
  lua_pushlstring(L, &delimiters[(o >> 1) & 3], 1);
  lua_setfield(L, -2, "delimiter");
  if (o & 8) {
    lua_pushliteral(L, "#");
    lua_setfield(L, -2, "comment");
  }
  lua_pushinteger(L, (o >> 4) & 3);
  lua_setfield(L, -2, "skip_rows");
  if (o & 64) { /* select the second and first column */
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, 2);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, 1);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "columns");
  }
  if (o & 128) {
    lua_createtable(L, 1, 0);
    lua_pushliteral(L, "?");
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, "na_values");
  }
  fuzz_call(L, 2, "luma.io.parse_csv");
  fuzz_check_alive(L);
  luma_close(L);
  return 0;
}
