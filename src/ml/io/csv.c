/*
 * csv.c - the CSV tokenizer (see csv.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"

void luma_csv_init(luma_CsvReader *r, const char *data, size_t len, char delimiter, char comment) {
  r->p = data;
  r->end = data + len;
  r->delimiter = delimiter;
  r->comment = comment;
  r->line = 1;
  r->at_record_start = 1;
  if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) r->p += 3; /* UTF-8 byte order mark */
}

/* Skips empty lines and comment lines at the start of a record. */
static void skip_blank_lines(luma_CsvReader *r) {
  while (r->p < r->end) {
    if (*r->p == '\n') {
      r->p++;
      r->line++;
    } else if (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n') {
      r->p += 2;
      r->line++;
    } else if (r->comment && *r->p == r->comment) {
      while (r->p < r->end && *r->p != '\n') r->p++;
    } else {
      return;
    }
  }
}

int luma_csv_next(luma_CsvReader *r, luma_CsvField *f) {
  if (r->at_record_start) skip_blank_lines(r);
  if (r->p >= r->end && r->at_record_start) return LUMA_CSV_END;
  r->at_record_start = 0;
  f->line = r->line;
  f->quoted = 0;
  const char *p = r->p;
  if (p < r->end && *p == '"') {
    f->quoted = 1;
    f->text = ++p;
    for (;;) {
      if (p >= r->end) return LUMA_CSV_UNTERMINATED;
      if (*p == '"') {
        if (p + 1 < r->end && p[1] == '"') {
          p += 2;
          continue;
        }
        break;
      }
      if (*p == '\n') r->line++;
      p++;
    }
    f->len = (size_t)(p - f->text);
    p++; /* the closing quote; anything up to the delimiter is ignored */
    while (p < r->end && *p != r->delimiter && *p != '\n' &&
           !(*p == '\r' && p + 1 < r->end && p[1] == '\n'))
      p++;
  } else {
    f->text = p;
    while (p < r->end && *p != r->delimiter && *p != '\n' && !(*p == '\r' && p + 1 < r->end &&
                                                               p[1] == '\n'))
      p++;
    f->len = (size_t)(p - f->text);
  }
  f->last = 1;
  if (p < r->end && *p == r->delimiter) {
    f->last = 0;
    p++;
  } else if (p < r->end) { /* end of the record */
    p += *p == '\r' ? 2 : 1;
    r->line++;
  }
  if (f->last) r->at_record_start = 1;
  r->p = p;
  return LUMA_CSV_FIELD;
}

size_t luma_csv_unquote(const luma_CsvField *f, char *out) {
  if (!f->quoted) {
    memcpy(out, f->text, f->len);
    return f->len;
  }
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++) {
    out[n++] = f->text[i];
    if (f->text[i] == '"') i++; /* "" stands for one quote */
  }
  return n;
}

int luma_csv_number(const char *text, size_t len, double *out) {
  while (len > 0 && (*text == ' ' || *text == '\t')) text++, len--;
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
  if (len == 0) return 0;
  /* strtod stops at the delimiter, quote or line end after the field (the
   * caller guarantees a terminator after the data); hexadecimal floats
   * ("0x1p3") are not what a CSV writer means. */
  char *end;
  *out = strtod(text, &end);
  return end == text + len && !memchr(text, 'x', len) && !memchr(text, 'X', len);
}
