/*
 * numtext.h - numbers as text, the same in every locale.
 *
 * printf's %g/%f/%e and strtod follow the calling thread's LC_NUMERIC: a
 * host that called setlocale(LC_ALL, "de_DE.UTF-8") would get "0,5" in
 * the CSV, SVG and libsvm files Luma writes, and Luma would stop reading
 * "0.5".  Every number Luma writes or reads as text goes through these,
 * which run the C library's own conversion under the "C" locale (POSIX
 * uselocale: per thread, so neither the host's other threads nor its
 * global locale are touched).  Digits are exactly printf's and strtod's.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NUMTEXT_H
#define LUMA_ML_NUMTEXT_H

#include <locale.h>
#include <stddef.h>

/* The "C" locale object, made once per process; (locale_t)0 if the C
 * library could not make it (then the calling thread's locale is used). */
locale_t luma_c_locale(void);

/* snprintf with '.' as the decimal point whatever the thread's locale. */
int luma_snprintf_c(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* strtod reading '.' as the decimal point (and never the locale's own). */
double luma_strtod_c(const char *text, char **end);

/* Whether the calling thread's locale writes numbers as the C locale does
 * (its decimal point is "."): the fast path that needs no switch. */
int luma_numeric_is_c(void);

/* Switches the calling thread to the "C" locale and returns the locale to
 * give back to luma_locale_leave.  Between the two nothing may unwind
 * (no Lua error): the host's thread would keep the C locale. */
locale_t luma_locale_enter(void);
void luma_locale_leave(locale_t saved);

#endif
