/*
 * term.h - what luma.plot needs to know about the terminal it draws on:
 * whether a file descriptor is one, and its size in characters.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_PLOT_TERM_H
#define LUMA_PLOT_TERM_H

/* 1 if fd refers to a terminal, else 0. */
int luma_term_isatty(int fd);

/* The size of the terminal on fd in columns and rows; 0 on success, -1
 * when fd is not a terminal or reports no size (cols and rows untouched). */
int luma_term_size(int fd, int *cols, int *rows);

#endif
