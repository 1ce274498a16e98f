/*
 * fuzz_libsvm.c - the libsvm/svmlight reader (luma.io.read_libsvm on a
 * file holding the input).  Input: one options byte (bit 0 set: pass
 * n_features = the byte >> 1), then the file.
 * SPDX-License-Identifier: MIT
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  lua_State *L = fuzz_state(0);
  const char *path = fuzz_scratch_path(".svm");
  fuzz_write_file(path, data + 1, size - 1);
  fuzz_push_function(L, "io", "read_libsvm");
  lua_pushstring(L, path);
  int nargs = 1;
  if (data[0] & 1) {
    lua_createtable(L, 0, 1);
    lua_pushinteger(L, data[0] >> 1);
    lua_setfield(L, -2, "n_features");
    nargs = 2;
  }
  fuzz_call(L, nargs, "luma.io.read_libsvm");
  unlink(path);
  fuzz_check_alive(L);
  luma_close(L);
  return 0;
}
