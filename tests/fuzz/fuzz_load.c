/*
 * fuzz_load.c - luma.load on model files.
 *
 * Input: one mode byte, then the file.  A file ends with an FNV-1a
 * checksum that random mutations would almost never match, so when bit 0
 * of the mode byte is set (every seed sets it) the target recomputes the
 * checksum first and the mutated bytes reach the decoder and the object
 * layer (luma.persist: estimators, pipelines, generators, results).  With
 * the bit clear the file is loaded as it is, which fuzzes the checks in
 * front of the decoder.
 * SPDX-License-Identifier: MIT
 */
#include "fuzz_common.h"

static void fix_checksum(uint8_t *p, size_t n) {
  if (n < 8 + 12) return;
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n - 8; i++) {
    h ^= p[i];
    h *= 0x100000001b3u;
  }
  for (int i = 0; i < 8; i++) p[n - 8 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

/* A host-defined estimator class, so that model files naming it reach
 * the estimator layer of luma.load (params, fitted state, clone). */
static const char *const DEFINE_CLASS =
    "luma.estimator.class{ name = 'fuzz.Mean', kind = 'regressor', doc = 'mean of y',\n"
    "  params = { { name = 'shrink', type = 'number', default = 1, min = 0, max = 1, doc = 's' },\n"
    "             { name = 'inner', type = 'estimator', default = nil, doc = 'e' },\n"
    "             { name = 'mode', type = 'string', default = 'a', values = {'a', 'b'}, doc = 'm' } },\n"
    "  fit = function(self, X, y) self.value = y:mean() * self.params.shrink end,\n"
    "  predict = function(self, X) return luma.full(X:rows(), 1, self.value) end }";

static lua_State *load_state(void) {
  lua_State *L = fuzz_state(0);
  if (luma_run_string(L, DEFINE_CLASS, "=fuzz_load", 0) != LUA_OK)
    fuzz_fail("defining fuzz.Mean", lua_tostring(L, -1));
  return L;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  lua_State *L = load_state();
  size_t n = size - 1;
  uint8_t *file = malloc(n ? n : 1);
  memcpy(file, data + 1, n);
  if (data[0] & 1) fix_checksum(file, n);
  const char *path = fuzz_scratch_path(".luma");
  fuzz_write_file(path, file, n);
  fuzz_push_function(L, NULL, "load");
  lua_pushstring(L, path);
  fuzz_call(L, 1, "luma.load");
  /* The same bytes through the in-memory decoder. */
  fuzz_push_function(L, "persist", "decode");
  lua_pushlstring(L, (const char *)file, n);
  fuzz_call(L, 1, "luma.persist.decode");
  free(file);
  unlink(path);
  fuzz_check_alive(L);
  luma_close(L);
  return 0;
}
