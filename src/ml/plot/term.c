/*
 * term.c - terminal queries for luma.plot's braille renderer (isatty and
 * the TIOCGWINSZ window size), kept out of the binding so it stays free of
 * Lua like every kernel.
 * SPDX-License-Identifier: MIT
 */
#include "plot/term.h"

#include <sys/ioctl.h>
#include <unistd.h>

int luma_term_isatty(int fd) { return isatty(fd) == 1; }

int luma_term_size(int fd, int *cols, int *rows) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return -1;
  *cols = ws.ws_col;
  *rows = ws.ws_row;
  return 0;
}
