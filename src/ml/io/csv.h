/*
 * csv.h - a CSV tokenizer over a memory buffer (no Lua).
 *
 * RFC 4180 fields: a delimiter separates fields, LF or CRLF ends a record,
 * a field starting with a double quote runs to the matching quote with ""
 * standing for one quote (delimiters and newlines inside are data).  Lines
 * starting with the comment character are skipped, and so are empty
 * lines.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CSV_H
#define LUMA_ML_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "core/parallel.h"

typedef struct luma_CsvReader {
  const char *p, *end;
  char delimiter, comment; /* comment 0: none */
  int64_t line;            /* 1-based line of the current position */
  int at_record_start;
} luma_CsvReader;

typedef struct luma_CsvField {
  const char *text; /* the raw field (still with "" pairs when quoted) */
  size_t len;
  int quoted;
  int last;          /* the last field of its record */
  int64_t line;      /* where the field starts */
} luma_CsvField;

enum { LUMA_CSV_FIELD = 1, LUMA_CSV_END = 0, LUMA_CSV_UNTERMINATED = -1 };

void luma_csv_init(luma_CsvReader *r, const char *data, size_t len, char delimiter, char comment);

/* The next field: LUMA_CSV_FIELD, LUMA_CSV_END at the end of the data, or
 * LUMA_CSV_UNTERMINATED for a quote that never closes (f->line says where
 * it opened). */
int luma_csv_next(luma_CsvReader *r, luma_CsvField *f);

/* The delimiter the first record of data (after blank and comment lines)
 * most likely uses, when it is not `delimiter`: the candidate among
 * , ; tab | that occurs there most often outside quotes, if it occurs more
 * often than `delimiter` does; else 0.  For messages ("line 2 has more
 * fields than the header"), never to change how a file is read. */
char luma_csv_guess_delimiter(const char *data, size_t len, char delimiter, char comment);

/* Copies a field's content into out (at least f->len bytes), turning ""
 * into " for quoted fields; returns the length. */
size_t luma_csv_unquote(const luma_CsvField *f, char *out);

/* A piece of text (text NULL: a missing value); code is scratch for
 * luma_csv_categorize. */
typedef struct luma_CsvText {
  const char *text;
  size_t len;
  int64_t code;
} luma_CsvText;

/* Codes n fields as categories: the distinct non-missing texts sorted
 * byte-wise get codes 1..k (written to codes as doubles, NaN for a
 * missing field) and are stored in distinct[0..k) in that order.  slots
 * is workspace of nslots entries, a power of two above n.  Returns k, or
 * -1 when the meter t (may be NULL), charged as the fields are hashed and
 * before the sort, stopped. */
int64_t luma_csv_categorize(luma_Threads *t, const luma_CsvText *fields, int64_t n, int64_t *slots,
                            int64_t nslots, luma_CsvText *distinct, double *codes);

/* Parses the whole of text[0..len) as a number (leading and trailing
 * blanks allowed, "nan" and "inf" accepted); 0 if it is not one.
 * Correctly rounded: decimal forms with at most 19 significant digits
 * and exponents within [-27, 55] take the Eisel-Lemire fast path, the
 * rest strtod.  The
 * byte after the field must be a non-digit (a delimiter, newline, quote
 * or terminating NUL): parsing runs on the buffer in place. */
int luma_csv_number(const char *text, size_t len, double *out);

#endif
