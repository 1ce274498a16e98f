/*
 * fuzz_npy.c - the NumPy .npy reader (luma.io.read_npy on a file holding
 * the input).
 * SPDX-License-Identifier: MIT
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lua_State *L = fuzz_state(0);
  const char *path = fuzz_scratch_path(".npy");
  fuzz_write_file(path, data, size);
  fuzz_push_function(L, "io", "read_npy");
  lua_pushstring(L, path);
  fuzz_call(L, 1, "luma.io.read_npy");
  unlink(path);
  fuzz_check_alive(L);
  luma_close(L);
  return 0;
}
