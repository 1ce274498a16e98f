/*
 * cli.h - what the `luma` command's two halves (main.c, repl.c) share.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_CLI_H
#define LUMA_CLI_H

#include <lua.h>

/* Calls the function below narg arguments with a traceback handler and
 * with Ctrl-C turned into an "interrupted!" error for the duration. */
int luma_cli_docall(lua_State *L, int narg, int nres);

/* Prints the error message on top of the stack to stderr and pops it. */
void luma_cli_report(lua_State *L, int status);

/* Reads and runs chunks until end of input.  interactive: a terminal with
 * prompts, line editing, history and completion; otherwise lines come from
 * stdin with no prompts and no escape codes.  Returns an exit status. */
int luma_repl_run(lua_State *L, int interactive);

#endif
