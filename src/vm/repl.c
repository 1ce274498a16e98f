/*
 * repl.c - the read-eval-print loop of the `luma` command.
 *
 * On a terminal: libedit line editing, a history file (~/.luma_history, or
 * $LUMA_HISTORY), Tab completion through luma.repl.complete, Ctrl-C
 * clearing the line at the prompt and interrupting a running computation.
 * Otherwise lines come from stdin without prompts or escape codes.  Either
 * way: a line that is an expression prints its value (through
 * luma.repl.show), an incomplete chunk asks for more lines, errors print
 * with a traceback and the loop goes on.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include <editline/readline.h>
#include <lauxlib.h>

#include "cli.h"
#include "luma.h"

#define PROMPT "> "
#define PROMPT_MORE ">> "
#define HISTORY_LINES 1000

/* --------------------------------------------------------------- input */

/* State of the loop that the libedit callbacks (which take no user data)
 * need; the REPL runs once per process, on the main thread. */
static lua_State *repl_state = NULL;
static int repl_interactive = 0;

static volatile sig_atomic_t prompt_interrupted = 0;

/* Ctrl-C at the prompt only raises a flag: the read loop below sees select
 * interrupted and starts a fresh line.  (Jumping out of libedit from the
 * handler leaves it unable to read again on some terminals.) */
static void on_prompt_sigint(int sig) {
  (void)sig;
  prompt_interrupted = 1;
}

static char *entered_line;
static int line_done;

static void on_line(char *line) {
  entered_line = line;
  line_done = 1;
}

/* Set by read_line when Ctrl-C abandoned a continuation line: the chunk
 * being entered must be discarded too. */
static int chunk_interrupted;

/* Returns a malloc'ed line without its newline, or NULL at end of input
 * (or, with chunk_interrupted set, after Ctrl-C at the continuation
 * prompt).  On a terminal, libedit's callback interface reads one
 * character at a time, so a signal can never strand it in the middle of a
 * read. */
static char *read_line(const char *prompt) {
  chunk_interrupted = 0;
  if (repl_interactive) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prompt_sigint; /* no SA_RESTART: select returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    prompt_interrupted = 0;
    line_done = 0;
    entered_line = NULL;
    rl_callback_handler_install(prompt, on_line);
    while (!line_done) {
      fd_set in;
      FD_ZERO(&in);
      FD_SET(STDIN_FILENO, &in);
      int ready = select(STDIN_FILENO + 1, &in, NULL, NULL, NULL);
      if (prompt_interrupted) { /* abandon the line, as shells do */
        prompt_interrupted = 0;
        rl_callback_handler_remove();
        fputs("^C\n", stdout);
        fflush(stdout);
        if (strcmp(prompt, PROMPT) != 0) { /* and the unfinished chunk */
          chunk_interrupted = 1;
          break;
        }
        rl_callback_handler_install(PROMPT, on_line);
        continue;
      }
      if (ready < 0) {
        if (errno == EINTR) continue;
        break; /* the terminal is gone: treat as end of input */
      }
      rl_callback_read_char();
    }
    rl_callback_handler_remove();
    sigaction(SIGINT, &old, NULL);
    return entered_line;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    free(line);
    return NULL;
  }
  if (n > 0 && line[n - 1] == '\n') line[n - 1] = '\0';
  return line;
}

/* ---------------------------------------------------------- completion */

static char **completion_list = NULL;
static size_t completion_next = 0;

static char *completion_generator(const char *text, int state) {
  (void)text;
  if (state == 0) completion_next = 0;
  if (completion_list == NULL || completion_list[completion_next] == NULL) return NULL;
  return strdup(completion_list[completion_next++]);
}

static void free_completions(void) {
  if (completion_list == NULL) return;
  for (size_t i = 0; completion_list[i]; i++) free(completion_list[i]);
  free(completion_list);
  completion_list = NULL;
}

/* Asks luma.repl.complete(text) for candidates. */
static int fetch_completions(lua_State *L) {
  const char *text = lua_touserdata(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "luma.repl");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "complete");
  lua_pushstring(L, text);
  lua_call(L, 1, 1);
  size_t n = (size_t)lua_rawlen(L, -1);
  char **list = calloc(n + 1, sizeof *list);
  if (list == NULL) return 0;
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    const char *s = lua_tostring(L, -1);
    list[i] = strdup(s ? s : "");
    lua_pop(L, 1);
  }
  completion_list = list;
  return 0;
}

static char **complete(const char *text, int start, int end) {
  (void)start;
  (void)end;
  rl_attempted_completion_over = 1; /* never fall back to file names */
  free_completions();
  int top = lua_gettop(repl_state);
  lua_pushcfunction(repl_state, fetch_completions);
  lua_pushlightuserdata(repl_state, (void *)text);
  lua_pcall(repl_state, 1, 0, 0); /* a failing completer completes nothing */
  lua_settop(repl_state, top);
  return rl_completion_matches(text, completion_generator);
}

/* ------------------------------------------------------------- chunks */

/* Nonzero when a syntax error only says the input ended too early. */
static int is_incomplete(lua_State *L, int status) {
  if (status != LUA_ERRSYNTAX) return 0;
  size_t len;
  const char *msg = lua_tolstring(L, -1, &len);
  static const char eof_mark[] = "<eof>";
  size_t mark = sizeof eof_mark - 1;
  return len >= mark && strcmp(msg + len - mark, eof_mark) == 0;
}

static void add_history_entry(const char *chunk) {
  if (repl_interactive && chunk[0] != '\0') add_history(chunk);
}

/* Reads one complete chunk and leaves its compiled function on the stack.
 * Returns LUA_OK, a load error (message on the stack), or -1 at end of
 * input.  A line that is an expression is compiled as "return <line>". */
static int read_chunk(lua_State *L) {
  char *line = read_line(PROMPT);
  if (line == NULL) return -1;
  /* "=expr" is "return expr", as in stock lua */
  const char *ret = lua_pushfstring(L, "return %s;", line[0] == '=' ? line + 1 : line);
  if (luaL_loadbuffer(L, ret, strlen(ret), "=stdin") == LUA_OK) {
    lua_remove(L, -2);
    add_history_entry(line);
    free(line);
    return LUA_OK;
  }
  lua_pop(L, 2);
  lua_pushstring(L, line); /* the chunk so far, grown line by line */
  free(line);
  for (;;) {
    size_t len;
    const char *code = lua_tolstring(L, -1, &len);
    int status = luaL_loadbuffer(L, code, len, "=stdin");
    if (!is_incomplete(L, status)) {
      add_history_entry(code);
      lua_remove(L, -2);
      return status;
    }
    lua_pop(L, 1);
    char *more = read_line(PROMPT_MORE);
    if (more == NULL && chunk_interrupted) { /* Ctrl-C: start over */
      lua_pop(L, 1);
      return read_chunk(L);
    }
    if (more == NULL) { /* input ended inside a chunk: report it */
      status = luaL_loadbuffer(L, code, len, "=stdin");
      lua_remove(L, -2);
      return status;
    }
    lua_pushfstring(L, "%s\n%s", code, more);
    lua_remove(L, -2);
    free(more);
  }
}

/* Prints one value through luma.repl.show, prefixed by label (or not). */
static void print_value(lua_State *L, int idx, const char *label) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "luma.repl");
  int status = lua_pcall(L, 1, 1, 0);
  if (status == LUA_OK) {
    lua_getfield(L, -1, "show");
    lua_remove(L, -2);
    lua_pushvalue(L, idx);
    status = luma_cli_docall(L, 1, 1);
  }
  if (status == LUA_OK) {
    const char *text = lua_tostring(L, -1);
    fprintf(stdout, "%s%s\n", label, text ? text : "");
    fflush(stdout);
    lua_pop(L, 1);
  } else {
    luma_cli_report(L, status);
  }
}

/* Prints the values left by a call (everything above base): one alone, or
 * several one per line with their position ("[2] ..."); the first is kept
 * in the global _ for the next line, as IPython keeps its last result. */
static void print_results(lua_State *L, int base) {
  int n = lua_gettop(L) - base;
  if (n == 0) return;
  lua_pushvalue(L, base + 1);
  lua_setglobal(L, "_");
  for (int i = 1; i <= n; i++) {
    char label[32] = "";
    if (n > 1) snprintf(label, sizeof label, "[%d] ", i);
    print_value(L, base + i, label);
  }
  lua_settop(L, base);
}

/* ---------------------------------------------------------------- loop */

static char *history_path(void) {
  const char *env = getenv("LUMA_HISTORY");
  if (env) return env[0] ? strdup(env) : NULL;
  const char *home = getenv("HOME");
  if (home == NULL || home[0] == '\0') return NULL;
  size_t len = strlen(home) + sizeof "/.luma_history";
  char *path = malloc(len);
  if (path) snprintf(path, len, "%s/.luma_history", home);
  return path;
}

int luma_repl_run(lua_State *L, int interactive) {
  repl_state = L;
  repl_interactive = interactive;
  char *history = NULL;
  if (interactive) {
    /* The terminal's character set (UTF-8 input such as 'héllo α'):
     * libedit drops bytes it cannot decode in the "C" locale.  Only
     * LC_CTYPE: number formatting stays as Lua expects. */
    setlocale(LC_CTYPE, "");
    rl_readline_name = "luma";
    rl_catch_signals = 0; /* SIGINT is ours (on_prompt_sigint) */
    rl_attempted_completion_function = complete;
    rl_completion_append_character = '\0';
    rl_basic_word_break_characters = " \t\n\"\\'><=;+-*/%^~#&|{}()[],";
    history = history_path();
    using_history();
    stifle_history(HISTORY_LINES);
    if (history) read_history(history);
    printf("Luma %s (%s)  help() for help, Ctrl-D to exit\n", LUMA_VERSION, LUA_RELEASE);
    fflush(stdout);
  }
  int base = lua_gettop(L);
  int status;
  while ((status = read_chunk(L)) != -1) {
    if (status == LUA_OK) status = luma_cli_docall(L, 0, LUA_MULTRET);
    if (status == LUA_OK)
      print_results(L, base);
    else
      luma_cli_report(L, status);
    lua_settop(L, base);
  }
  if (interactive) {
    fputs("\n", stdout);
    fflush(stdout);
    if (history) write_history(history);
  }
  free(history);
  free_completions();
  repl_state = NULL;
  return 0;
}
