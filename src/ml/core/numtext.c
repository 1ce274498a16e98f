/*
 * numtext.c - locale-independent number text (numtext.h).
 *
 * One approach for all of Luma: the C library's conversions, run with the
 * calling thread switched to a "C" locale object by uselocale (POSIX
 * 2008) and switched back at once.  It keeps printf's and strtod's exact
 * digits (no hand-written conversion to get wrong) and costs a thread-local
 * pointer swap; strtod_l and snprintf_l would do the same but are not POSIX.
 * SPDX-License-Identifier: MIT
 */
#include "core/numtext.h"

#include <langinfo.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t c_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

/* glibc hands back its static C locale object for "C": nothing to free. */
static void make_c_locale(void) {
  c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t luma_c_locale(void) {
  pthread_once(&c_once, make_c_locale);
  return c_locale;
}

locale_t luma_locale_enter(void) {
  locale_t c = luma_c_locale();
  return c ? uselocale(c) : (locale_t)0;
}

void luma_locale_leave(locale_t saved) {
  if (saved) uselocale(saved);
}

int luma_numeric_is_c(void) {
  const char *point = nl_langinfo(RADIXCHAR);
  return point[0] == '.' && point[1] == '\0';
}

int luma_snprintf_c(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  locale_t saved = luma_locale_enter();
  int n = vsnprintf(buf, size, fmt, ap);
  luma_locale_leave(saved);
  va_end(ap);
  return n;
}

double luma_strtod_c(const char *text, char **end) {
  locale_t saved = luma_locale_enter();
  double v = strtod(text, end);
  luma_locale_leave(saved);
  return v;
}
