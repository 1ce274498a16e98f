/*
 * luma.h - the C embedding API of Luma.
 *
 * A host program creates a Lua 5.4 state with Luma's libraries in it, hands
 * it matrices, runs scripts and reads results back.  Every exported symbol
 * starts with `luma_` (plus `luaopen_luma`, the entry point stock Lua uses
 * for `require "luma"`).  docs/EMBEDDING.md walks through a complete host.
 *
 * Error convention: functions meant to be called by a host outside any
 * protected call never raise Lua errors; they return a status (LUA_OK or a
 * LUA_ERR* code, or NULL) and leave an error message on the stack where
 * documented.  Nothing here prints, exits or aborts.
 *
 * Threads: a state must be used by one thread at a time.  There is no C
 * global state, so independent states may run in different threads.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_H
#define LUMA_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>
#include <lauxlib.h>

#define LUMA_VERSION "0.2.0"
#define LUMA_VERSION_NUM 100 /* major * 10000 + minor * 100 + patch */

#if defined(__GNUC__)
#define LUMA_API __attribute__((visibility("default")))
#else
#define LUMA_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- states */

/* Receives warnings issued through lua_warning (for example a model fitted
 * on rank-deficient data).  `msg` is one complete warning, NUL-terminated. */
typedef void (*luma_WarnFunction)(void *ud, const char *msg);

/* Receives what a script prints to standard output (print, io.write and
 * io.stdout:write): `len` bytes at `text`, not NUL-terminated, in the
 * order written; print's line ends with "\n" like the original. */
typedef void (*luma_PrintFunction)(void *ud, const char *text, size_t len);

typedef struct luma_Options {
  /* sizeof(luma_Options) as the host was compiled: set it, so that later
   * versions, which add members at the end under the same soname, know
   * which members the host filled in.  0 stands for this version's
   * struct (every member below), so a host that zeroes the struct and
   * never sets size keeps working.  luma_newstate returns NULL for a size
   * it does not know (larger than its own struct: a host built against a
   * newer luma.h; or smaller than this version's). */
  size_t size;
  /* Nonzero: no io library; os limited to clock, time, date and difftime;
   * no dofile/loadfile; load() accepts text chunks only; require finds only
   * Luma's own modules (no C loaders, no loadlib, no file search); debug
   * limited to traceback; Luma functions that touch files refuse to run. */
  int sandbox;
  /* Upper bound on the bytes the state may hold, enforced by its allocator;
   * 0 means no limit.  Going over raises a catchable Lua memory error; the
   * state stays usable once the memory is released. */
  size_t memory_limit;
  /* Upper bound on VM instructions per luma_run_* call, enforced by a count
   * hook (checked every 1000 instructions); 0 means no limit.  Time spent
   * inside one native kernel (a large matrix product) is not interrupted. */
  uint64_t instruction_limit;
  /* Where warnings go; NULL writes them to stderr prefixed "luma warning: ".
   * Warnings can also be switched off from Lua with warn("@off"). */
  luma_WarnFunction warn;
  void *warn_ud;
  /* Threads for native loops (pairwise distances, large element-wise
   * operations, ...), the calling thread included; 0 means the
   * LUMA_NUM_THREADS environment variable if set, else the number of
   * cores.  Never more than the cores.  Scripts change it with
   * luma.config{threads = n}, which also sets OpenBLAS's thread count (a
   * per-process setting); native loops pin OpenBLAS to one thread while
   * their own threads run. */
  int threads;
  /* Wall-clock seconds per luma_run_* / luma_pcall call; 0 means no limit.
   * Checked with the instruction count (every 1000 VM instructions), between
   * the chunks of threaded native loops and while waiting for worker
   * processes; going over raises "time limit exceeded (S s)", which, like
   * the instruction limit, pcall cannot swallow.  One uninterruptible
   * native call (a large matrix product) still runs to its end. */
  double time_limit;
  /* Where standard output goes; NULL: the process's stdout.  Set, print,
   * io.write and io.stdout:write call it instead of writing. */
  luma_PrintFunction print;
  void *print_ud;
} luma_Options;

/* The version of the library actually loaded ("0.2.0"), which may differ
 * from the LUMA_VERSION a host was compiled with when it links libluma.so. */
LUMA_API const char *luma_version(void);

/* Creates a state with the Lua standard libraries (restricted if
 * opts->sandbox) and Luma opened as the global `luma` and as
 * package.loaded.luma.  opts may be NULL for defaults (no sandbox, no
 * limits).  Returns NULL if memory runs out (or the memory limit is too
 * small to hold an empty state, or opts->size is not one it knows).  Close
 * it with luma_close. */
LUMA_API lua_State *luma_newstate(const luma_Options *opts);
LUMA_API void luma_close(lua_State *L);

/* Opens Luma in an existing state (one the host made itself): sets the
 * global `luma` and package.loaded.luma.  Returns LUA_OK, or an error status
 * with the message pushed on the stack. */
LUMA_API int luma_openlibs(lua_State *L);

/* The `require "luma"` entry point: pushes the luma module table. */
LUMA_API int luaopen_luma(lua_State *L);

/* Memory currently held by a state made with luma_newstate, in bytes
 * (0 for other states). */
LUMA_API size_t luma_memory_used(lua_State *L);

/* ------------------------------------------------------------- running */

/* Load and run a chunk of source text (or a file) in protected mode.  On
 * success returns LUA_OK and leaves `nresults` results on the stack
 * (LUA_MULTRET for all).  On failure returns the error status (LUA_ERRSYNTAX,
 * LUA_ERRRUN, LUA_ERRMEM, LUA_ERRERR, or LUA_ERRFILE for an unreadable file)
 * and pushes one string: the message followed by a stack traceback.  In a
 * sandboxed state only text chunks are accepted.  The instruction counter
 * restarts at each call. */
LUMA_API int luma_run_string(lua_State *L, const char *code, const char *chunkname,
                             int nresults);
LUMA_API int luma_run_file(lua_State *L, const char *path, int nresults);

/* Calls the function below `nargs` arguments on the stack like lua_pcall,
 * with a traceback added to any error message and the instruction counter
 * restarted. */
LUMA_API int luma_pcall(lua_State *L, int nargs, int nresults);

/* Asks the running script of a state made by luma_newstate to stop: it
 * fails with "interrupted!" at its next VM instruction, or within about
 * one chunk of work (milliseconds) when it is inside a threaded native
 * loop.  Safe to call from a signal handler or from another thread.  A
 * request made while nothing runs is forgotten by the next luma_run_* or
 * luma_pcall. */
LUMA_API void luma_interrupt(lua_State *L);

/* Seals the state's shared tables: records every table reachable from the
 * globals (the standard libraries, `luma` and the modules loaded so far,
 * package.loaded), the string metatable and Luma's type metatables (with
 * their method tables), and from then on puts each of them back as
 * recorded before every luma_run_* and luma_pcall: keys a run added are
 * removed, changed ones restored, metatables reset; modules and Luma
 * types first loaded by a run are forgotten and load afresh in the next.
 * So a script that rewrites string.upper, a matrix method or a global
 * changes nothing for the next run.  Call it after the host's own setup
 * (require the modules scripts will use first: each run would load the
 * others again).  Costs about 0.1 us per recorded entry per run.  Tables a
 * run creates, objects the host keeps, the default generator's stream and
 * luma.config settings are not shared tables and carry over.  Returns
 * LUA_OK, or an error status with the message pushed. */
LUMA_API int luma_seal(lua_State *L);

/* --------------------------------------------------------------- matrices */

/* A read-write description of a matrix's elements: element (i, j), 0-based,
 * is data[i * row_stride + j * col_stride].  Strides are in elements. */
typedef struct luma_MatrixRef {
  double *data;
  int64_t rows, cols;
  int64_t row_stride, col_stride;
} luma_MatrixRef;

/* Status codes of the matrix functions (besides LUA_OK). */
#define LUMA_EARG (-1)   /* invalid argument: NULL pointer, negative size */
#define LUMA_ETYPE (-2)  /* the value at the index is not a matrix */

/* Pushes a new rows x cols matrix whose elements are copied from `src`
 * (row-major, contiguous, rows*cols doubles).  Returns LUA_OK; LUMA_EARG if
 * src is NULL while rows*cols > 0 or a size is negative; LUA_ERRMEM if
 * memory (or the state's memory limit) runs out.  Nothing is pushed on
 * failure. */
LUMA_API int luma_push_matrix(lua_State *L, int64_t rows, int64_t cols, const double *src);

/* Called once when a wrapped matrix is collected (or the state closed). */
typedef void (*luma_ReleaseFunction)(void *ctx, double *data);

/* Pushes a matrix that uses the host's buffer without copying.  Ownership
 * rule: the buffer stays the host's; Luma reads and writes it in place and
 * never frees it.  It must stay valid until `release` is called, which
 * happens exactly once, when the matrix and every view of it are garbage
 * (at the latest in luma_close).  `release` may be NULL if the buffer
 * outlives the state.  Strides are in elements and may be any values that
 * keep every element inside the buffer.  Returns LUA_OK, LUMA_EARG (NULL
 * data with elements, negative sizes) or LUA_ERRMEM; on failure nothing is
 * pushed and `release` is not called. */
LUMA_API int luma_wrap_matrix(lua_State *L, double *data, int64_t rows, int64_t cols,
                              int64_t row_stride, int64_t col_stride,
                              luma_ReleaseFunction release, void *ctx);

/* Describes the matrix at stack index `idx`.  Returns LUA_OK or LUMA_ETYPE
 * (out untouched).  The pointer stays valid while the matrix value is
 * reachable from Lua (on the stack, in a variable, in a table): the
 * collector never moves objects, so keep the value referenced for as long
 * as the pointer is used. */
LUMA_API int luma_get_matrix(lua_State *L, int idx, luma_MatrixRef *out);

/* For C functions running inside Lua: like luma_get_matrix, but raises
 * "bad argument #arg to 'fname' (matrix expected, got T)". */
LUMA_API luma_MatrixRef luma_check_matrix(lua_State *L, int arg);

/* ------------------------------------------------------------ estimators */

/* One hyperparameter of a native estimator: the same schema Lua
 * estimators declare with luma.estimator.class (docs/ESTIMATORS.md).
 *   type     "number", "integer", "boolean", "string", "seed", "matrix",
 *            "estimator", "function", "table", "any", or alternatives
 *            joined by '|' ("number|string")
 *   value    the default as a Lua literal ("1.0", "true", "\"auto\"");
 *            NULL for no default (nil)
 *   range    NULL, or an interval in the usual notation: "[0, inf)",
 *            "(0, 1]", "[1, 100]"
 *   values   NULL, or the allowed values joined by '|' ("l1|l2"), for
 *            string parameters
 *   doc      one line for help() */
typedef struct luma_ParamSpec {
  const char *name;
  const char *type;
  const char *value;
  const char *range;
  const char *values;
  const char *doc;
} luma_ParamSpec;

/* A native estimator class.  kind is "regressor", "classifier",
 * "transformer", "clusterer", "density", "outlier" or "meta".  params ends
 * with an entry whose name is NULL.  methods (ending with {NULL, NULL})
 * are Lua C functions called with the estimator as argument 1: "fit" is
 * required; "fit_predict" and "fit_transform" get fit's checks and
 * bookkeeping; "predict", "predict_proba", "decision_function",
 * "score_samples", "transform", "inverse_transform" and "score" get the
 * contract's checks (fitted, X's columns), any other name is added as it
 * is (docs/ESTIMATORS.md).  Parameters are in the
 * estimator's field `params`; fitted state goes in other fields. */
typedef struct luma_EstimatorSpec {
  const char *name;
  const char *kind;
  const char *doc;
  const luma_ParamSpec *params;
  const luaL_Reg *methods;
} luma_EstimatorSpec;

/* For C functions running inside Lua (it may raise): builds the class
 * through luma.estimator.class and pushes it; calling the class with a
 * parameter table makes an estimator that works everywhere a Lua one does
 * (cross-validation, searches, pipelines, help). */
LUMA_API void luma_define_estimator(lua_State *L, const luma_EstimatorSpec *spec);

/* ------------------------------------------------------------------ misc */

/* Lua-style message for a LUMA_E* or LUA_* status code. */
LUMA_API const char *luma_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* LUMA_H */
