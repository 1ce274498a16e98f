/*
 * lib.c - the `luma` module table: version, configuration, clock, the doc
 * registry, native submodules, and the Lua-side modules loaded on first use.
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "core/blas.h"
#include "core/parallel.h"

double luma_monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------- embedded Lua modules */

static int load_embedded(lua_State *L) {
  const luma_EmbeddedModule *m = lua_touserdata(L, lua_upvalueindex(1));
  if (luaL_loadbufferx(L, (const char *)m->code, m->size, m->chunkname, "t") != LUA_OK)
    return lua_error(L);
  lua_pushstring(L, m->name);
  lua_call(L, 1, 1);
  return 1;
}

/* Native modules.  A name without a dot is public: a field of the luma
 * table opened on first use (luma.linalg).  A dotted name is the native
 * half of a family's Lua package (luma.linear.native), reached only
 * through require. */
typedef struct NativeModule {
  const char *name; /* the module name without "luma." */
  lua_CFunction open;
} NativeModule;

static const NativeModule native_modules[] = {
    {"random", luma_open_random},
    {"linalg", luma_open_linalg},
    {"serial", luma_open_serial},
    {"pool", luma_open_pool},
    {"mpi", luma_open_mpi},
    {"io", luma_open_io},
    {"special", luma_open_special},
    {"pairwise", luma_open_pairwise},
    {"sparse", luma_open_sparse},
    {"util.native", luma_open_util_native},
    {"linear.native", luma_open_linear_native},
    {"optim.native", luma_open_optim_native},
    {"generative.native", luma_open_generative_native},
    {"svm.native", luma_open_svm_native},
    {"gaussian_process.native", luma_open_gaussian_process_native},
    {"neighbors.native", luma_open_neighbors_native},
    {"plot.native", luma_open_plot_native},
    {"tree.native", luma_open_tree_native},
    {"ensemble.native", luma_open_ensemble_native},
    {"mixture.native", luma_open_mixture_native},
    {"decomposition.native", luma_open_decomposition_native},
    {"manifold.native", luma_open_manifold_native},
    {"cluster.native", luma_open_cluster_native},
    {"markov.native", luma_open_markov_native},
    {"pgm.grid_native", luma_open_pgm_grid_native},
    {"hmm.native", luma_open_hmm_native},
    {"pgm.native", luma_open_pgm_native},
    {"lds.native", luma_open_lds_native},
    {"tsa.native", luma_open_tsa_native},
    {"nn.native", luma_open_nn_native},
    {"recommend.native", luma_open_recommend_native},
    {"text.native", luma_open_text_native},
    {NULL, NULL}};

/* Public names of modules that live inside a family package: luma.dist
 * is the module luma.stats.dist.  require accepts both names. */
typedef struct ModuleAlias {
  const char *name;   /* the public name without "luma." */
  const char *target; /* the full module name */
} ModuleAlias;

static const ModuleAlias module_aliases[] = {
    {"dist", "luma.stats.dist"},
    {"bayes", "luma.stats.bayes"},
    {"info", "luma.stats.info"},
    {"montecarlo", "luma.stats.montecarlo"},
    {"theory", "luma.stats.theory"},
    {"discriminant", "luma.generative.discriminant"},
    {"naive_bayes", "luma.generative.naive_bayes"},
    {NULL, NULL}};

static int is_public(const char *name) { return strchr(name, '.') == NULL; }

/* package.preload entry of a native module: require("luma.NAME") */
static int load_native(lua_State *L) {
  const NativeModule *m = lua_touserdata(L, lua_upvalueindex(1));
  return m->open(L);
}

/* Opens the module with the full name `name` and pushes its value: through
 * require when the state has it (so package.loaded holds one copy), else
 * (a host without the package library) by calling the loader directly. */
static void open_module(lua_State *L, const char *name) {
  if (lua_getglobal(L, "require") == LUA_TFUNCTION) {
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    return;
  }
  lua_pop(L, 1);
  const char *short_name = name + sizeof "luma." - 1;
  for (const ModuleAlias *a = module_aliases; a->name; a++)
    if (strcmp(a->name, short_name) == 0) {
      open_module(L, a->target);
      return;
    }
  for (const NativeModule *m = native_modules; m->name; m++)
    if (strcmp(m->name, short_name) == 0) {
      luaL_requiref(L, name, m->open, 0);
      return;
    }
  for (const luma_EmbeddedModule *m = luma_embedded_modules; m->name; m++)
    if (strcmp(m->name, name) == 0) {
      lua_pushlightuserdata(L, (void *)m);
      lua_pushcclosure(L, load_embedded, 1);
      lua_call(L, 0, 1);
      return;
    }
  luaL_error(L, "module '%s' not found", name);
}

/* package.preload entry of an alias: the module it names. */
static int load_alias(lua_State *L) {
  const ModuleAlias *a = lua_touserdata(L, lua_upvalueindex(1));
  open_module(L, a->target);
  return 1;
}

void luma_preload_modules(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  for (const NativeModule *m = native_modules; m->name; m++) {
    lua_pushfstring(L, "luma.%s", m->name);
    lua_pushlightuserdata(L, (void *)m);
    lua_pushcclosure(L, load_native, 1);
    lua_rawset(L, -3);
  }
  for (const luma_EmbeddedModule *m = luma_embedded_modules; m->name; m++) {
    lua_pushlightuserdata(L, (void *)m);
    lua_pushcclosure(L, load_embedded, 1);
    lua_setfield(L, -2, m->name);
  }
  for (const ModuleAlias *a = module_aliases; a->name; a++) {
    lua_pushfstring(L, "luma.%s", a->name);
    lua_pushlightuserdata(L, (void *)a);
    lua_pushcclosure(L, load_alias, 1);
    lua_rawset(L, -3);
  }
  lua_pop(L, 1);
}

/* Whether `luma.key` names a public module: a native or embedded module
 * without a dot after "luma.", or an alias. */
static int is_public_module(const char *key) {
  if (!is_public(key)) return 0;
  for (const NativeModule *m = native_modules; m->name; m++)
    if (strcmp(m->name, key) == 0) return 1;
  for (const ModuleAlias *a = module_aliases; a->name; a++)
    if (strcmp(a->name, key) == 0) return 1;
  for (const luma_EmbeddedModule *m = luma_embedded_modules; m->name; m++)
    if (strcmp(m->name + sizeof "luma." - 1, key) == 0) return 1;
  return 0;
}

/* __index of the luma table: `luma.foo` loads the submodule luma.foo
 * the first time it is used, so startup loads none of them. */
static int lazy_submodule(lua_State *L) {
  const char *key = lua_tostring(L, 2);
  if (key == NULL || lua_type(L, 2) != LUA_TSTRING || !is_public_module(key)) return 0;
  lua_pushfstring(L, "luma.%s", key);
  open_module(L, lua_tostring(L, -1));
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, 1);
  return 1;
}

/* ------------------------------------------------------------- functions */

static int luma_config(lua_State *L) {
  luma_check_options(L, 1, "threads");
  if (lua_istable(L, 1) && lua_getfield(L, 1, "threads") != LUA_TNIL) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
      return luma_arg_error(L, 1, "threads must be an integer >= 1, got %s",
                            luaL_tolstring(L, -1, NULL));
    lua_Integer n = lua_tointeger(L, -1);
    luma_threads_configure(L, n > INT_MAX ? INT_MAX : (int)n);
  }
  lua_settop(L, 0);
  lua_createtable(L, 0, 10);
  lua_pushinteger(L, luma_threads_count(L));
  lua_setfield(L, -2, "threads");
  lua_pushinteger(L, luma_threads_cores());
  lua_setfield(L, -2, "cores");
  lua_pushliteral(L, LUMA_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushliteral(L, LUA_RELEASE);
  lua_setfield(L, -2, "lua");
  /* BLAS and LAPACK are whatever libblas.so.3 and liblapack.so.3 are on
   * this machine (Debian's alternatives): OpenBLAS is recognized by its
   * extensions, another library is named by its file. */
  const char *blas_config = luma_blas_build_config();
  const char *lapack_file = luma_lapack_file();
  if (blas_config != NULL) lua_pushliteral(L, "OpenBLAS");
  else lua_pushstring(L, luma_blas_file() != NULL ? luma_blas_file() : "BLAS");
  lua_setfield(L, -2, "blas");
  if (lapack_file != NULL && strstr(lapack_file, "openblas") != NULL)
    lua_pushliteral(L, "OpenBLAS (bundled LAPACK)");
  else lua_pushstring(L, lapack_file != NULL ? lapack_file : "LAPACK");
  lua_setfield(L, -2, "lapack");
  lua_pushstring(L, blas_config);
  lua_setfield(L, -2, "blas_config");
  lua_pushinteger(L, luma_blas_get_threads());
  lua_setfield(L, -2, "blas_threads");
  lua_pushstring(L, luma_blas_core());
  lua_setfield(L, -2, "blas_core");
  const char *better = luma_blas_better_core();
  if (better != NULL) {
    lua_pushstring(L, better);
    lua_setfield(L, -2, "blas_core_better");
  }
  lua_pushliteral(L, "C compiler " __VERSION__);
  lua_setfield(L, -2, "compiler");
#if defined(__OPTIMIZE__)
  lua_pushboolean(L, 1);
#else
  lua_pushboolean(L, 0);
#endif
  lua_setfield(L, -2, "optimized");
#if defined(__SANITIZE_ADDRESS__)
  lua_pushboolean(L, 1);
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  lua_pushboolean(L, 1);
#else
  lua_pushboolean(L, 0);
#endif
#else
  lua_pushboolean(L, 0);
#endif
  lua_setfield(L, -2, "sanitized");
  lua_pushboolean(L, luma_is_sandboxed(L));
  lua_setfield(L, -2, "sandboxed");
  return 1;
}

static int luma_now(lua_State *L) {
  lua_pushnumber(L, luma_monotonic_seconds());
  return 1;
}

static int luma_help(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "luma.repl");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "help_text");
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

/* luma.save / luma.load: forwarded to the Lua module luma.persist.  Its
 * functions raise their errors for their caller, which is this C function:
 * a message without a location gets the location of luma.save's caller,
 * as an error raised there would (a Lua runtime error keeps its own). */
static int forward_to_persist(lua_State *L, const char *fname) {
  int n = lua_gettop(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "luma.persist");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, fname);
  lua_insert(L, 1);
  lua_pop(L, 1);
  int status = lua_pcall(L, n, LUA_MULTRET, 0);
  if (status == LUA_OK) return lua_gettop(L);
  if (status == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING) {
    const char *msg = lua_tostring(L, -1);
    const char *colon = strchr(msg, ':');
    /* "chunk:line: ..." is located; anything else is not */
    int located = colon != NULL && colon[1] >= '0' && colon[1] <= '9';
    if (!located) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
  }
  return lua_error(L);
}

static int luma_save(lua_State *L) { return forward_to_persist(L, "save"); }
static int luma_load(lua_State *L) { return forward_to_persist(L, "load"); }

static const luma_Func luma_funcs[] = {
    {"config", luma_config, "config([settings = nil]) -> table",
     "Returns a table describing this state and build: threads (native loop threads of this "
     "state), cores, version, lua, blas (\"OpenBLAS\", or the file of another BLAS: "
     "libblas.so.3 is chosen by the system's alternatives), lapack, blas_config and "
     "blas_core (OpenBLAS's build and kernels; nil with another BLAS), blas_threads (1 with "
     "another BLAS), blas_core_better (set when OpenBLAS did not recognize this CPU: the "
     "OPENBLAS_CORETYPE of faster kernels it runs), compiler, "
     "optimized, sanitized, sandboxed. settings (optional): {threads = n} sets this state's "
     "thread count for native loops, an integer >= 1 (default: LUMA_NUM_THREADS, else the "
     "number of cores), capped at the cores; OpenBLAS's thread count follows it (per "
     "process). Results are identical for every thread count."},
    {"now", luma_now, "now() -> number",
     "Returns a monotonic clock reading in seconds (for timing; not wall-clock time)."},
    {"save", luma_save, "save(obj, path) -> nothing",
     "Saves a matrix, estimator, pipeline, search result, generator or a table of those "
     "to path, atomically (docs/FORMAT.md)."},
    {"load", luma_load, "load(path) -> value",
     "Loads what luma.save wrote; corrupted or hostile files are errors, and no code in "
     "them ever runs."},
    {"help", luma_help, "help(x) -> string",
     "Returns the help text of x (a function, module, object or qualified name) as a string."},
    {NULL, NULL, NULL, NULL}};

/* Names of luma.matrix that are also reachable directly from luma. */
static const char *const matrix_shortcuts[] = {
    "matrix", "ismatrix", "zeros", "ones", "eye", "full", "diag", "linspace", "arange",
    "rand", "randn", "hstack", "vstack", NULL};

int luaopen_luma(lua_State *L) {
  luma_preload_modules(L);
  lua_newtable(L);
  int luma = lua_gettop(L);
  luma_register_funcs(L, luma, "luma", luma_funcs);
  luma_open_doc(L, luma);
  lua_pushliteral(L, LUMA_VERSION);
  lua_setfield(L, luma, "VERSION");

  luma_open_matrix(L);
  for (const char *const *name = matrix_shortcuts; *name; name++) {
    if (strcmp(*name, "matrix") == 0)
      lua_pushvalue(L, -1);
    else
      lua_getfield(L, -1, *name);
    lua_setfield(L, luma, *name);
  }
  lua_pop(L, 1);

  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, lazy_submodule);
  lua_setfield(L, -2, "__index");
  lua_newtable(L); /* __lazy: the names __index can load, for completion */
  lua_Integer n = 0;
  for (const NativeModule *m = native_modules; m->name; m++) {
    if (!is_public(m->name)) continue; /* a family's native half: require only */
    lua_pushstring(L, m->name);
    lua_rawseti(L, -2, ++n);
  }
  for (const luma_EmbeddedModule *m = luma_embedded_modules; m->name; m++) {
    /* package parts and data files: require only */
    if (!is_public(m->name + sizeof "luma." - 1)) continue;
    lua_pushstring(L, m->name + sizeof "luma." - 1);
    lua_rawseti(L, -2, ++n);
  }
  for (const ModuleAlias *a = module_aliases; a->name; a++) {
    lua_pushstring(L, a->name);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "__lazy");
  lua_setmetatable(L, luma);
  luma_doc_set(L, luma, "luma",
               NULL,
               "Luma: machine learning in Lua. Submodules: luma.matrix (dense matrices), "
               "luma.linalg (LAPACK), luma.sparse (CSR sparse matrices), luma.random (generators), luma.pairwise (distance and "
               "kernel matrices), luma.kernels (kernel objects and their algebra), "
               "luma.estimator, luma.model_selection, luma.pipeline, luma.doc (documentation "
               "registry), luma.repl (REPL helpers). "
               "Try help(luma.matrix).");
  return 1;
}

static int open_into_globals(lua_State *L) {
  luaL_requiref(L, "luma", luaopen_luma, 1);
  return 0;
}

int luma_openlibs(lua_State *L) {
  lua_pushcfunction(L, open_into_globals);
  return lua_pcall(L, 0, 0, 0);
}
