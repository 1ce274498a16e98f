/*
 * core.h - shared infrastructure of Luma's Lua bindings (internal).
 *
 * Every binding file (src/ml/NAME_lua.c) registers its userdata types, its
 * functions and their documentation through these helpers, so that type
 * checks, argument errors and help() read the same everywhere.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_CORE_H
#define LUMA_CORE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "luma.h"

/* ------------------------------------------------------------ state info */

/* Per-state bookkeeping for states made by luma_newstate; it is the
 * allocator's user data, so it is found from any lua_State of the state. */
struct luma_Watchdog;

typedef struct luma_StateInfo {
  size_t used;               /* bytes currently allocated */
  size_t limit;              /* 0: unlimited */
  uint64_t instruction_limit;
  uint64_t instructions;     /* VM instructions and charged units since the last luma_run_* call */
  int sandbox;
  luma_WarnFunction warn;
  void *warn_ud;
  int warn_on;               /* toggled by warn("@on") / warn("@off") */
  int warn_continued;        /* inside a multi-part warning */
  char warn_buf[512];
  size_t warn_len;
  int threads;               /* luma_Options.threads (0: LUMA_NUM_THREADS or cores) */
  double time_limit;         /* seconds per run; 0: none */
  double deadline;           /* luma_monotonic_seconds() when this run's time is up */
  luma_PrintFunction print;  /* where standard output goes (NULL: stdout) */
  void *print_ud;
  atomic_int interrupted;    /* set by luma_interrupt; native loops poll it */
  int stopped;               /* why this run ended (state.c), 0 while it goes on */
  char stop_detail[256];     /* what the instruction-limit error adds, or "" */
  struct luma_Watchdog *watchdog; /* wakes at the deadline (watchdog.c); NULL: none yet */
  lua_State *main_thread;
  int in_run;                /* between luma_state_restart_budget and luma_state_end_run */
  int sealed;                /* shared tables are put back before each run (sandbox.c) */
  /* The metatable of each userdata type registered in this state
   * (registry.c): its address, for luma_type_test's check without a
   * registry lookup, and a registry reference, for pushing it by array
   * index.  Open addressing on the luma_Type's address; never removed
   * (the registry keeps each metatable for the state's life). */
  struct luma_TypeSlot {
    const struct luma_Type *type; /* NULL: free */
    const void *metatable;
    int ref;
  } types[32];
} luma_StateInfo;

/* A thread that calls nudge(arg, target) once at the deadline it is
 * armed with (watchdog.c); NULL if no thread could be made. */
typedef struct luma_Watchdog luma_Watchdog;
luma_Watchdog *luma_watchdog_new(void (*nudge)(void *arg, void *target), void *arg);
void luma_watchdog_target(luma_Watchdog *w, void *target);
void luma_watchdog_arm(luma_Watchdog *w, double deadline);
void luma_watchdog_disarm(luma_Watchdog *w);
void luma_watchdog_free(luma_Watchdog *w);

/* Pushes msg (if not NULL) and the traceback from `level`, exactly as
 * luaL_traceback(L, L, msg, level) would, but with library function
 * names from a cache (traceback.c). */
void luma_traceback(lua_State *L, const char *msg, int level);

/* The OpenBLAS kernels in use (NULL with another BLAS), and the
 * OPENBLAS_CORETYPE of better ones this CPU runs, or NULL (blascore.c). */
const char *luma_blas_core(void);
const char *luma_blas_better_core(void);

/* The info of a state made by luma_newstate, or NULL. */
luma_StateInfo *luma_state_info(lua_State *L);

/* Nonzero when the state is sandboxed (file access must be refused). */
int luma_is_sandboxed(lua_State *L);

/* Called before each luma_run_* / luma_pcall: a fresh instruction budget. */
void luma_state_restart_budget(lua_State *L);

/* After a run (luma_pcall): nonzero when it stopped (a limit, the clock
 * or an interrupt); luma_state_push_stop then pushes the stop's message. */
int luma_state_end_run(lua_State *L);
void luma_state_push_stop(lua_State *L);

/* Raises the instruction-limit error; from then on every instruction
 * fails too, so pcall cannot swallow it (also for native work over the
 * budget). */
int luma_state_limit_error(lua_State *L);
/* Routes print, io.write and io.stdout:write to the state's print
 * callback (capture.c). */
void luma_capture_stdout(lua_State *L);
/* Raises the time-limit error, like luma_state_limit_error. */
int luma_state_time_error(lua_State *L);
/* For a forked worker: no wall-clock limit of its own (the parent, which
 * has it, kills the workers when the time is up). */
void luma_state_drop_time_limit(lua_State *L);
/* When this run's time is up (luma_monotonic_seconds()), or 0: no limit. */
double luma_state_deadline(lua_State *L);
/* Raises "interrupted!" if luma_interrupt was called since the run began
 * (or the run's stop error if it already stopped): for C code that waits
 * without running Lua.  Like the limits, an interrupt ends the run. */
void luma_state_check_interrupt(lua_State *L);
/* Raises "interrupted!" and ends the run (every later instruction fails). */
int luma_state_interrupt_error(lua_State *L);
/* Nonzero once the run has stopped (a limit, the clock or an interrupt)
 * or an interrupt is pending. */
int luma_state_stopped(lua_State *L);
/* Why the run stopped: LUMA_STOP_NONE while it goes on (or in a state
 * Luma did not make), LUMA_STOP_INTERRUPT also while an interrupt is
 * pending.  A forked worker tells its parent with it (pool.c). */
enum { LUMA_STOP_NONE, LUMA_STOP_INSTRUCTIONS, LUMA_STOP_TIME, LUMA_STOP_INTERRUPT };
int luma_state_stop_reason(lua_State *L);
/* Raises "instruction limit exceeded (N instructions): detail" and ends
 * the run, as luma_state_limit_error: for a limit met somewhere the
 * message must name (a forked worker's budget, pool.c). */
int luma_state_limit_error_detail(lua_State *L, const char *detail);
/* The thread that runs from now on (the sandbox's coroutine.resume and
 * wrap, around the resume), which the deadline's watchdog nudges. */
void luma_state_running(lua_State *L, lua_State *running);
/* Gives a coroutine the state's count hook, so the limits and
 * luma_interrupt reach it even in a state without limits. */
void luma_state_hook_thread(lua_State *co);
/* The sandbox's guards (sandbox.c): xpcall whose handler is skipped once
 * the run stopped, and coroutines that answer the hook; in sandboxed
 * states also setmetatable without __gc. */
void luma_sandbox_guard(lua_State *L, int sandbox);
/* Puts the tables recorded by luma_seal back as they were (sandbox.c);
 * called before each run of a sealed state.  LUA_OK, or an error status
 * (memory) with the message pushed. */
int luma_sandbox_restore(lua_State *L);
/* Raises "'fname' is not available in a sandboxed state" when sandboxed. */
void luma_check_unsandboxed(lua_State *L, const char *fname);
/* In a sandboxed state: replaces string.find/match/gmatch/gsub/rep,
 * table.insert/remove/move/concat/sort, load and collectgarbage (already
 * opened) with versions that charge their work to the state's budget
 * (safelib.c). */
void luma_safelib_open(lua_State *L);

/* ------------------------------------------------------ native threads */

/* The state's thread pool for native loops (src/ml/core/parallel.h),
 * created on first use with the state's thread count, its interrupt flag
 * and what is left of its instruction budget (threads.c). */
struct luma_Threads;
struct luma_Threads *luma_threads_of(lua_State *L);
/* After a loop: charges its work to the instruction budget and raises
 * "interrupted!" or the instruction-limit error if it stopped early. */
void luma_threads_finish(lua_State *L, struct luma_Threads *t, int status);
/* Sets the state's thread count, at most the cores (and OpenBLAS's, which
 * is per process). */
void luma_threads_configure(lua_State *L, int count);
/* The state's thread count. */
int luma_threads_count(lua_State *L);

/* --------------------------------------------------------- type registry */

/* A native userdata type.  One static instance per type; its address is the
 * registry key of the metatable (a fast identity check: no string hashing). */
typedef struct luma_Func luma_Func;
typedef struct luma_Type {
  const char *name;              /* "luma.Matrix": __name, error messages */
  const luma_Func *methods;      /* the __index table, documented as name.method */
  const luaL_Reg *metamethods;   /* __gc, __tostring, __add, ... */
  const char *doc;               /* help() text of the type itself */
  /* Optional __index for keys that are not method names (A[i]): called as
   * a closure whose upvalue 1 is the methods table, also kept as the
   * metatable's __methods for help() and completion, and upvalue 2 the
   * metatable itself (for type checks and new objects without a registry
   * lookup). */
  lua_CFunction index;
} luma_Type;

/* Creates the type's metatable once per state (later calls are no-ops) and
 * leaves it on the stack. */
void luma_type_register(lua_State *L, const luma_Type *type);

/* Sets the metatable of the userdata on top of the stack. */
void luma_type_setmetatable(lua_State *L, const luma_Type *type);

/* The userdata at idx if it has the type's metatable, else NULL. */
void *luma_type_test(lua_State *L, int idx, const luma_Type *type);

/* Like luma_type_test, but raises
 * "bad argument #idx to 'f' (luma.Matrix expected, got number)". */
void *luma_type_check(lua_State *L, int idx, const luma_Type *type);

/* ------------------------------------------------------------ arguments */

/* Raises "bad argument #arg to 'f' (<formatted>)"; fmt is a literal
 * lua_pushfstring format (%s %d %I %f %p %c %U %%). */
int luma_arg_error(lua_State *L, int arg, const char *fmt, ...);

/* Integer argument in [lo, hi], with a message naming the range. */
lua_Integer luma_check_int_range(lua_State *L, int arg, const char *what, lua_Integer lo,
                                 lua_Integer hi);

/* Finite number argument ("NaN" and infinities rejected with a message). */
lua_Number luma_check_finite(lua_State *L, int arg, const char *what);

/* -------------------------------------------------------- documentation */

/* One documented function: registered together with its docs. */
struct luma_Func {
  const char *name;
  lua_CFunction func;
  const char *signature;  /* "zeros(rows, cols)" */
  const char *doc;        /* one paragraph; first sentence is the summary */
};

/* Sets each function into the table at tidx and records its docs under the
 * qualified name prefix.name ("luma.matrix.zeros"). */
void luma_register_funcs(lua_State *L, int tidx, const char *prefix, const luma_Func *funcs);

/* Option tables (the last argument of many functions, {name = value}).
 * luma_check_options: arg may be none or nil; any key not in `valid` (a
 * '|'-separated list) is an argument error that lists the valid ones.
 * The getters return dflt when the table or the key is absent and raise
 * an argument error naming the option when the value has the wrong type:
 * numbers must be finite and >= 0; a choice must be one of `choices`
 * ('|'-separated) and is returned as its 0-based position. */
void luma_check_options(lua_State *L, int arg, const char *valid);
int luma_opt_boolean(lua_State *L, int arg, const char *key, int dflt);
double luma_opt_number(lua_State *L, int arg, const char *key, double dflt);
lua_Integer luma_opt_integer(lua_State *L, int arg, const char *key, lua_Integer dflt);
int luma_opt_choice(lua_State *L, int arg, const char *key, const char *choices, int dflt);

/* Records documentation for the value at idx (a function or a table). */
void luma_doc_set(lua_State *L, int idx, const char *qualname, const char *signature,
                  const char *doc);

/* Opens the doc registry functions into the luma table at tidx
 * (luma.doc(x) returns the record of x). */
void luma_open_doc(lua_State *L, int tidx);

/* -------------------------------------------------------------- modules */

/* Native submodules: each pushes its table (like a luaopen_ function). */
int luma_open_matrix(lua_State *L);
int luma_open_random(lua_State *L);
int luma_open_linalg(lua_State *L);
int luma_open_serial(lua_State *L);
int luma_open_pool(lua_State *L);
int luma_open_mpi(lua_State *L);
int luma_open_io(lua_State *L);
int luma_open_special(lua_State *L);
int luma_open_pairwise(lua_State *L);
int luma_open_util_native(lua_State *L);
int luma_open_linear_native(lua_State *L);
int luma_open_optim_native(lua_State *L);
int luma_open_nn_native(lua_State *L);
int luma_open_recommend_native(lua_State *L);
int luma_open_generative_native(lua_State *L);
int luma_open_svm_native(lua_State *L);
int luma_open_gaussian_process_native(lua_State *L);
int luma_open_neighbors_native(lua_State *L);
int luma_open_plot_native(lua_State *L);
int luma_open_tree_native(lua_State *L);
int luma_open_ensemble_native(lua_State *L);
int luma_open_mixture_native(lua_State *L);
int luma_open_decomposition_native(lua_State *L);
int luma_open_manifold_native(lua_State *L);
int luma_open_cluster_native(lua_State *L);
int luma_open_markov_native(lua_State *L);
int luma_open_pgm_grid_native(lua_State *L);
int luma_open_hmm_native(lua_State *L);
int luma_open_pgm_native(lua_State *L);
int luma_open_lds_native(lua_State *L);
int luma_open_tsa_native(lua_State *L);
int luma_open_sparse(lua_State *L);
int luma_open_text_native(lua_State *L);

/* The Lua modules compiled into the library (lua/luma/NAME.lua), generated by
 * scripts/gen-embedded.lua; the array ends with a NULL name. */
typedef struct luma_EmbeddedModule {
  const char *name;       /* "luma.repl" */
  const char *chunkname;  /* "@lua/luma/repl.lua" */
  const unsigned char *code;
  size_t size;
} luma_EmbeddedModule;
extern const luma_EmbeddedModule luma_embedded_modules[];

/* Registers the native submodules and the embedded Lua modules
 * (lua/luma/NAME.lua) in package.preload. */
void luma_preload_modules(lua_State *L);

/* Monotonic clock in seconds (for timings in scripts and benchmarks). */
double luma_monotonic_seconds(void);

#endif /* LUMA_CORE_H */
