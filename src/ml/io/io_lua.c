/*
 * io_lua.c - luma.io: CSV and NumPy .npy files to and from matrices.
 *
 * Files are read whole into Lua-owned memory first, so a parse error
 * raised halfway leaks nothing.  read_csv makes one pass over the records
 * (see csv_read) and builds a luma.Table through luma.Table._from_parts;
 * the rules of docs/TABLE.md decide each column's type, never a guess.
 *
 * Memory-mapped .npy matrices (read_npy {mmap = true}, open_npy) are
 * wrapped buffers (luma_wrap_matrix): the matrix header's guard userdata
 * owns the mapping and unmaps it when the matrix and all its views are
 * garbage, or when the state closes.
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/csv.h"
#include "core/numtext.h"
#include "core/matrix_lua.h"
#include "budget.h"
#include "io/filemap.h"
#include "io/npy.h"

/* Reads the file at path into a new userdata (pushed). */
static const char *read_whole_file(lua_State *L, const char *fname, const char *path,
                                   size_t *len) {
  struct stat st;
  if (stat(path, &st) != 0)
    luaL_error(L, "%s: cannot open %s (%s)", fname, path, strerror(errno));
  if (!S_ISREG(st.st_mode)) luaL_error(L, "%s: %s is not a regular file", fname, path);
  *len = (size_t)st.st_size;
  char *bytes = lua_newuserdatauv(L, *len + 1, 0);
  bytes[*len] = '\0'; /* a terminator: number parsing may read one byte past a field */
  FILE *f = fopen(path, "rb");
  if (f == NULL) luaL_error(L, "%s: cannot open %s (%s)", fname, path, strerror(errno));
  size_t got = fread(bytes, 1, *len, f);
  fclose(f);
  if (got != *len) luaL_error(L, "%s: cannot read %s", fname, path);
  return bytes;
}

/* Writes len bytes to path, replacing it by a rename (a matrix mapped
 * from the old file keeps its pages); raises on failure. */
static void write_whole_file(lua_State *L, const char *fname, const char *path, const char *bytes,
                             size_t len) {
  int err = luma_file_replace(path, bytes, len, 0);
  if (err != 0) luaL_error(L, "%s: cannot write %s (%s)", fname, path, strerror(err));
}

/* A one-character string option. */
static char opt_char(lua_State *L, int arg, const char *key, char dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  char c = dflt;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (lua_type(L, -1) != LUA_TSTRING || len != 1 || *s == '"' || *s == '\n' || *s == '\r')
      luma_arg_error(L, arg, "option '%s' must be one character (not a quote or newline)", key);
    c = *s;
  }
  lua_pop(L, 1);
  return c;
}

/* ------------------------------------------------------------ read_csv */

typedef struct NaList {
  const char *text[32];
  size_t len[32];
  int n;
} NaList;

static const char *const DEFAULT_NA[] = {"", "NA", "NaN", "nan", "N/A", "null", "NULL", NULL};

static int is_na(const NaList *na, const char *text, size_t len) {
  for (int k = 0; k < na->n; k++)
    if (na->len[k] == len && memcmp(na->text[k], text, len) == 0) return 1;
  return 0;
}

/* The na_values option (strings kept alive by the options table). */
static void read_na_list(lua_State *L, int opt, NaList *na) {
  na->n = 0;
  if (!lua_isnoneornil(L, opt) && lua_getfield(L, opt, "na_values") != LUA_TNIL) {
    if (!lua_istable(L, -1)) luma_arg_error(L, opt, "option 'na_values' must be a list of strings");
    int n = (int)lua_rawlen(L, -1);
    if (n > 32) luma_arg_error(L, opt, "option 'na_values' has more than 32 entries");
    for (int k = 1; k <= n; k++) {
      if (lua_rawgeti(L, -1, k) != LUA_TSTRING)
        luma_arg_error(L, opt, "option 'na_values': entry %d is not a string", k);
      na->text[na->n] = lua_tolstring(L, -1, &na->len[na->n]);
      na->n++;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return;
  }
  if (!lua_isnoneornil(L, opt)) lua_pop(L, 1);
  for (const char *const *s = DEFAULT_NA; *s; s++) {
    na->text[na->n] = *s;
    na->len[na->n] = strlen(*s);
    na->n++;
  }
}

/* Pushes a field's text as a Lua string (unquoted). */
static void push_field(lua_State *L, const luma_CsvField *f, char *scratch) {
  if (!f->quoted) {
    lua_pushlstring(L, f->text, f->len);
    return;
  }
  lua_pushlstring(L, scratch, luma_csv_unquote(f, scratch));
}

/* Declared column types (the dtypes option); AUTO: decided by the data. */
enum { KIND_AUTO, KIND_NUMERIC, KIND_CATEGORY };

/* What pass over the data learns about one selected column. */
typedef struct CsvColumn {
  int declared;
  int64_t numbers, texts;   /* non-missing fields of each kind */
  int64_t text_row, text_line; /* where the first text is */
  luma_CsvText first_text;
  luma_CsvText *strings;    /* per row, while the column may be categorical */
} CsvColumn;

typedef struct CsvRead {
  lua_State *L;
  const char *path;
  int on_bad_nan;
  int names_idx, anchors_idx, warnings_idx;
  int64_t n_up; /* rows allocated */
} CsvRead;

static void csv_unterminated(lua_State *L, const char *path, const luma_CsvField *f) {
  luaL_error(L, "luma.io.read_csv: %s: the quoted field starting on line %I never ends", path,
             (lua_Integer)f->line);
}

static const char *column_name(CsvRead *rd, int64_t source) {
  lua_rawgeti(rd->L, rd->names_idx, source + 1);
  const char *name = lua_tostring(rd->L, -1);
  lua_pop(rd->L, 1); /* the names table keeps it */
  return name;
}

/* A field that is not a number in a numeric column: an error, or with
 * on_bad = "nan" a warning (collected) and NaN. */
static void bad_field(CsvRead *rd, int64_t source, int64_t row, int64_t line,
                      const luma_CsvText *t) {
  lua_State *L = rd->L;
  const char *name = column_name(rd, source);
  if (!rd->on_bad_nan) {
    /* pushed one statement at a time: the order in which a call's
     * arguments are evaluated is unspecified (gcc and clang differ) */
    const char *where = line > 0 ? lua_pushfstring(L, " (line %I)", (lua_Integer)line) : "";
    const char *field = lua_pushlstring(L, t->text, t->len > 60 ? 60 : t->len);
    luaL_error(L, "luma.io.read_csv: %s: column '%s' row %I%s: '%s' is not a number (declare "
               "dtypes = {[\"%s\"] = \"category\"} to read the column as text, or pass on_bad "
               "= \"nan\")", rd->path, name, (lua_Integer)row, where, field, name);
  }
  lua_pushlstring(L, t->text, t->len > 60 ? 60 : t->len);
  lua_pushfstring(L, "luma.io.read_csv: %s: column '%s' row %I: '%s' is not a number; read as "
                  "NaN", rd->path, name, (lua_Integer)row, lua_tostring(L, -1));
  lua_rawseti(L, rd->warnings_idx, (lua_Integer)lua_rawlen(L, rd->warnings_idx) + 1);
  lua_pop(L, 1);
}

/* A text field in an undeclared column: kept while the column holds no
 * number (it may be categorical), else a bad field. */
static void text_field(CsvRead *rd, CsvColumn *c, int64_t source, int64_t k, int64_t row,
                       int64_t line, const luma_CsvText *t) {
  if (c->declared == KIND_NUMERIC || c->numbers > 0) {
    bad_field(rd, source, row + 1, line, t);
    return;
  }
  if (c->strings == NULL) {
    size_t bytes = (size_t)rd->n_up * sizeof *c->strings;
    c->strings = lua_newuserdatauv(rd->L, bytes ? bytes : 1, 0);
    memset(c->strings, 0, bytes);
    lua_rawseti(rd->L, rd->anchors_idx, k + 1);
  }
  if (c->texts++ == 0) {
    c->first_text = *t;
    c->text_row = row + 1;
    c->text_line = line;
  }
  c->strings[row] = *t;
}

/* A number in an undeclared column that held texts: they were bad. */
static void number_after_texts(CsvRead *rd, CsvColumn *c, int64_t source, int64_t nrows) {
  if (!rd->on_bad_nan) bad_field(rd, source, c->text_row, c->text_line, &c->first_text);
  for (int64_t i = 0; i < nrows; i++)
    if (c->strings[i].text) bad_field(rd, source, i + 1, 0, &c->strings[i]);
  c->strings = NULL;
  c->texts = 0;
}

/* The 0-based source column of a `columns` or `dtypes` entry at the top
 * of the stack (a name or, for columns, a 1-based index), or -1.  The
 * names table maps each name to its position too (names[name] = c): one
 * hashed lookup, not a scan of the header. */
static int64_t find_column(lua_State *L, int names_idx, int64_t ncols, int allow_index) {
  if (allow_index && lua_isinteger(L, -1)) {
    lua_Integer c = lua_tointeger(L, -1);
    return c >= 1 && c <= ncols ? c - 1 : -1;
  }
  if (lua_type(L, -1) != LUA_TSTRING) return -1;
  lua_pushvalue(L, -1);
  lua_Integer c = lua_rawget(L, names_idx) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
  lua_pop(L, 1);
  return c >= 1 && c <= ncols ? c - 1 : -1;
}

/* Columns (of the header, or of names made up) handled between two charges
 * of the state's budget, and the units each costs: a string, a table slot,
 * a hashed lookup. */
#define CSV_COLUMN_BATCH 1024
#define CSV_COLUMN_UNITS 32

/* Bytes of the text parsed between two charges, and the units each costs
 * (the tokenizer's scan, the number's digits, the staging store). */
#define CSV_BYTE_BATCH 65536
#define CSV_BYTE_UNITS 4

/* An upper bound of the records in text[0..len): its lines holding
 * anything but a carriage return, less comment lines.  Every record
 * starts on a line of its own that the tokenizer does not skip as blank
 * or a comment; a quoted field spanning lines only makes the bound
 * looser.  (Counting every line break instead sized the staging matrix by
 * the blank lines: a file of 30 million newlines asked for 30 million
 * rows.)  Charged as it goes. */
static int64_t count_record_lines(lua_State *L, const char *p, const char *end, char comment) {
  int64_t lines = 0;
  const char *charged = p;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    size_t n = (size_t)(stop - p);
    /* "\r\n" ends a line as "\n" does; a lone "\r" (at the very end of the
     * text) is a field for the parser, so it counts here too */
    if (nl && n > 0 && p[n - 1] == '\r') n--;
    if (n > 0 && !(comment && *p == comment)) lines++;
    p = nl ? nl + 1 : end;
    if (p - charged >= CSV_BYTE_BATCH) {
      luma_charge(L, (uint64_t)(p - charged));
      charged = p;
    }
  }
  return lines;
}

/* Pushes {name = labels} and the matrix of read_csv{as = "matrix"}: numeric
 * columns as numbers, categorical ones as codes. */
static void push_coded_matrix(lua_State *L, int64_t nrows, int64_t nsel, const int *is_cat,
                              const luma_Mat *block, int cats_idx, int sel_names_idx) {
  luma_Mat *X = luma_matrix_new(L, nrows, nsel);
  lua_newtable(L); /* categories */
  int64_t jn = 0, jc = 0;
  for (int64_t k = 0; k < nsel; k++) {
    if (!is_cat[k]) {
      for (int64_t i = 0; i < nrows; i++) LUMA_AT(X, i, k) = LUMA_AT(block, i, jn);
      jn++;
      continue;
    }
    lua_rawgeti(L, cats_idx, ++jc);
    lua_getfield(L, -1, "codes");
    luma_Mat *codes = luma_matrix_check(L, -1);
    for (int64_t i = 0; i < nrows; i++) LUMA_AT(X, i, k) = LUMA_AT(codes, i, 0);
    lua_rawgeti(L, sel_names_idx, k + 1);
    lua_getfield(L, -3, "categories");
    lua_rawset(L, -5);
    lua_pop(L, 2);
  }
}

/* The hint a record-width error (or a file read as one column) ends with
 * when the first record looks separated by another delimiter, or "":
 * "; the header looks ';'-separated: pass {delimiter = \";\"}". */
static const char *delimiter_hint(const char *data, size_t len, char delimiter, char comment,
                                  int header) {
  switch (luma_csv_guess_delimiter(data, len, delimiter, comment)) {
  case ',': return header ? "; the header looks ','-separated: pass {delimiter = \",\"}"
                          : "; the first row looks ','-separated: pass {delimiter = \",\"}";
  case ';': return header ? "; the header looks ';'-separated: pass {delimiter = \";\"}"
                          : "; the first row looks ';'-separated: pass {delimiter = \";\"}";
  case '\t': return header ? "; the header looks tab-separated: pass {delimiter = \"\\t\"}"
                           : "; the first row looks tab-separated: pass {delimiter = \"\\t\"}";
  case '|': return header ? "; the header looks '|'-separated: pass {delimiter = \"|\"}"
                          : "; the first row looks '|'-separated: pass {delimiter = \"|\"}";
  default: return "";
  }
}

/* read_csv and parse_csv: the CSV text is argument 1 of parse_csv, or the
 * contents of the file named by argument 1 of read_csv.  One pass over the
 * records checks their widths and parses every selected field as a number
 * into a staging matrix (row-major, one row per record); a text field is
 * remembered (pointer and length) while its column has no number. */
static int csv_read(lua_State *L, int from_file) {
  const char *path = from_file ? luaL_checkstring(L, 1) : "the text";
  if (!from_file) luaL_checktype(L, 1, LUA_TSTRING);
  luma_check_options(L, 2, "header|delimiter|columns|na_values|skip_rows|comment|dtypes|on_bad|as");
  int header = luma_opt_boolean(L, 2, "header", 1);
  char delimiter = opt_char(L, 2, "delimiter", ',');
  char comment = opt_char(L, 2, "comment", 0);
  lua_Integer skip = luma_opt_integer(L, 2, "skip_rows", 0);
  if (skip < 0) return luma_arg_error(L, 2, "option 'skip_rows' must be >= 0");
  int on_bad_nan = luma_opt_choice(L, 2, "on_bad", "error|nan", 0);
  int as_matrix = luma_opt_choice(L, 2, "as", "table|matrix", 0);
  NaList na;
  read_na_list(L, 2, &na);
  lua_settop(L, 2);
  size_t len;
  const char *bytes; /* 3: the text (NUL-terminated either way) */
  if (from_file) {
    bytes = read_whole_file(L, "luma.io.read_csv", path, &len);
  } else {
    lua_pushvalue(L, 1);
    bytes = lua_tolstring(L, 3, &len);
  }
  /* the parse is charged as it goes (CSV_BYTE_BATCH bytes at a time), so
   * the time limit and luma_interrupt reach it too */
  char *scratch = lua_newuserdatauv(L, len + 1, 0); /* 4: unquoted texts */
  size_t scratch_used = 0;
  const char *start = bytes, *end = bytes + len;
  for (lua_Integer k = 0; k < skip && start < end; k++) {
    const char *nl = memchr(start, '\n', (size_t)(end - start));
    start = nl ? nl + 1 : end;
  }

  /* The header (or the first record's width) */
  luma_CsvReader r;
  luma_CsvField f;
  luma_csv_init(&r, start, (size_t)(end - start), delimiter, comment);
  lua_newtable(L); /* 5: column names, and names[name] = its position */
  int64_t ncols = 0;
  int status = LUMA_CSV_END;
  if (header) {
    while ((status = luma_csv_next(&r, &f)) == LUMA_CSV_FIELD) {
      push_field(L, &f, scratch);
      if (lua_rawlen(L, -1) == 0)
        return luaL_error(L, "luma.io.read_csv: %s: column %I has an empty name in the header",
                          path, (lua_Integer)ncols + 1);
      lua_rawseti(L, 5, ++ncols);
      if (ncols % CSV_COLUMN_BATCH == 0) luma_charge(L, CSV_COLUMN_BATCH * CSV_COLUMN_UNITS);
      if (f.last) break;
    }
    if (status == LUMA_CSV_UNTERMINATED) csv_unterminated(L, path, &f);
  } else {
    luma_CsvReader probe = r;
    while ((status = luma_csv_next(&probe, &f)) == LUMA_CSV_FIELD) {
      ncols++;
      if (ncols % CSV_COLUMN_BATCH == 0) luma_charge(L, CSV_COLUMN_BATCH * CSV_COLUMN_UNITS);
      if (f.last) break;
    }
    if (status == LUMA_CSV_UNTERMINATED) csv_unterminated(L, path, &f);
    for (int64_t c = 1; c <= ncols; c++) {
      if (c % CSV_COLUMN_BATCH == 0) luma_charge(L, CSV_COLUMN_BATCH * CSV_COLUMN_UNITS);
      lua_pushfstring(L, "%I", (lua_Integer)c);
      lua_rawseti(L, 5, c);
    }
  }
  /* Each name's position, which also finds a duplicate in one hashed
   * lookup per column (the first repeated name, and where it was first) */
  for (int64_t c = 1; c <= ncols; c++) {
    if (c % CSV_COLUMN_BATCH == 0) luma_charge(L, CSV_COLUMN_BATCH * CSV_COLUMN_UNITS);
    lua_rawgeti(L, 5, c);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, 5) != LUA_TNIL)
      return luaL_error(L, "luma.io.read_csv: %s: duplicate column name '%s' (columns %I and %I)",
                        path, lua_tostring(L, -2), lua_tointeger(L, -1), (lua_Integer)c);
    lua_pop(L, 1);
    lua_pushinteger(L, c);
    lua_rawset(L, 5);
  }
  if (ncols == 0) return luaL_error(L, "luma.io.read_csv: %s is empty", path);

  /* The selected columns (default: all), as 0-based source indices. */
  if (lua_isnil(L, 2)) lua_pushnil(L);
  else lua_getfield(L, 2, "columns"); /* 6 */
  int64_t nsel = ncols;
  if (!lua_isnil(L, 6)) {
    if (!lua_istable(L, 6)) return luma_arg_error(L, 2, "option 'columns' must be a list");
    nsel = (int64_t)lua_rawlen(L, 6);
  }
  int64_t *source = lua_newuserdatauv(L, (size_t)(nsel ? nsel : 1) * sizeof *source, 0); /* 7 */
  int64_t *target = lua_newuserdatauv(L, (size_t)ncols * sizeof *target, 0);              /* 8 */
  for (int64_t c = 0; c < ncols; c++) target[c] = -1;
  for (int64_t k = 0; k < nsel; k++) {
    if (k % CSV_COLUMN_BATCH == CSV_COLUMN_BATCH - 1)
      luma_charge(L, CSV_COLUMN_BATCH * CSV_COLUMN_UNITS);
    if (lua_isnil(L, 6)) {
      source[k] = k;
    } else {
      lua_rawgeti(L, 6, k + 1);
      int64_t found = find_column(L, 5, ncols, 1);
      if (found < 0)
        return luma_arg_error(L, 2, "option 'columns': %s is not a column of %s",
                              luaL_tolstring(L, -1, NULL), path);
      if (target[found] >= 0)
        return luma_arg_error(L, 2, "option 'columns': %s is listed twice",
                              luaL_tolstring(L, -1, NULL));
      source[k] = found;
      lua_pop(L, 1);
    }
    target[source[k]] = k;
  }
  CsvColumn *cols = lua_newuserdatauv(L, (size_t)(nsel ? nsel : 1) * sizeof *cols, 0); /* 9 */
  memset(cols, 0, (size_t)(nsel ? nsel : 1) * sizeof *cols);
  if (!lua_isnil(L, 2) && lua_getfield(L, 2, "dtypes") != LUA_TNIL) { /* 10 */
    if (!lua_istable(L, 10)) return luma_arg_error(L, 2, "option 'dtypes' must be a table");
    lua_pushnil(L);
    while (lua_next(L, 10)) {
      lua_pushvalue(L, -2);
      int64_t c = find_column(L, 5, ncols, 0);
      if (c < 0 || target[c] < 0)
        return luma_arg_error(L, 2, "option 'dtypes': %s is not a column %s",
                              luaL_tolstring(L, -1, NULL), c < 0 ? "of the file" : "being read");
      lua_pop(L, 1);
      const char *d = lua_tostring(L, -1);
      if (lua_type(L, -1) != LUA_TSTRING || (strcmp(d, "category") && strcmp(d, "numeric")))
        return luma_arg_error(L, 2, "option 'dtypes': the type of %s must be \"numeric\" or "
                              "\"category\"", lua_tostring(L, -2));
      cols[target[c]].declared = strcmp(d, "category") == 0 ? KIND_CATEGORY : KIND_NUMERIC;
      lua_pop(L, 1);
    }
  }
  lua_settop(L, 9);
  lua_newtable(L); /* 10: anchors of the strings arrays */
  lua_newtable(L); /* 11: warnings */
  /* A file whose every line holds one field reads without an error: one
   * column named after the whole header.  Said when another delimiter is
   * likely (never guessed: read_csv reads what it is told). */
  if (ncols == 1) {
    const char *hint = delimiter_hint(start, (size_t)(end - start), delimiter, comment, header);
    if (*hint) {
      lua_pushfstring(L, "luma.io.read_csv: %s: read as a single column%s", path, hint);
      lua_rawseti(L, 11, 1);
    }
  }

  int64_t n_up = count_record_lines(L, r.p, end, comment);
  if (n_up < 1) n_up = 1;
  luma_Mat *S = luma_matrix_new(L, n_up, nsel); /* 12: staging */
  CsvRead rd = {L, path, on_bad_nan, 5, 10, 11, n_up};

  int64_t row = 0, field = 0, record_line = 0;
  const char *charged = r.p;
  while ((status = luma_csv_next(&r, &f)) == LUMA_CSV_FIELD) {
    if (r.p - charged >= CSV_BYTE_BATCH) {
      luma_charge(L, CSV_BYTE_UNITS * (uint64_t)(r.p - charged));
      charged = r.p;
    }
    if (field == 0) {
      record_line = f.line;
      /* (the records were counted above; never store past that count) */
      if (row >= n_up)
        return luaL_error(L, "luma.io.read_csv: %s: line %I: more records than lines counted",
                          path, (lua_Integer)record_line);
    }
    if (field >= ncols)
      return luaL_error(L, "luma.io.read_csv: %s: line %I has more than the %I fields of the "
                        "%s%s", path, (lua_Integer)record_line, (lua_Integer)ncols,
                        header ? "header" : "first row",
                        delimiter_hint(start, (size_t)(end - start), delimiter, comment, header));
    int64_t k = target[field];
    if (k >= 0) {
      CsvColumn *c = &cols[k];
      double v = NAN;
      luma_CsvText t = {f.text, f.len, 0};
      if (f.quoted && memchr(f.text, '"', f.len)) { /* "" pairs: unquote into scratch */
        t.text = scratch + scratch_used;
        t.len = luma_csv_unquote(&f, scratch + scratch_used);
        scratch[scratch_used + t.len] = '\0';
        scratch_used += t.len + 1;
      }
      if (c->declared == KIND_CATEGORY) {
        if (f.quoted || !is_na(&na, t.text, t.len)) text_field(&rd, c, field, k, row, f.line, &t);
      } else if (!f.quoted || c->declared == KIND_NUMERIC) {
        if (is_na(&na, t.text, t.len)) {
        } else if (luma_csv_number(t.text, t.len, &v)) {
          if (c->texts > 0) number_after_texts(&rd, c, field, row);
          c->numbers++;
        } else {
          text_field(&rd, c, field, k, row, f.line, &t);
        }
      } else {
        text_field(&rd, c, field, k, row, f.line, &t); /* quoted: text */
      }
      S->data[row * nsel + k] = v;
    }
    field++;
    if (f.last) {
      if (field != ncols)
        return luaL_error(L, "luma.io.read_csv: %s: line %I has %I fields but the %s has %I%s",
                          path, (lua_Integer)record_line, (lua_Integer)field,
                          header ? "header" : "first row", (lua_Integer)ncols,
                          delimiter_hint(start, (size_t)(end - start), delimiter, comment,
                                         header));
      row++;
      field = 0;
    }
  }
  if (status == LUMA_CSV_UNTERMINATED) csv_unterminated(L, path, &f);
  luma_charge(L, CSV_BYTE_UNITS * (uint64_t)(r.p - charged));
  int64_t nrows = row;
  /* sorting out the columns below: a pass over the staging matrix, the
   * categorical columns' hashing, sorting and codes */
  luma_charge(L, 2 * (uint64_t)(nrows * nsel));

  /* Column kinds, the numeric block and the categorical columns */
  int *is_cat = lua_newuserdatauv(L, (size_t)(nsel ? nsel : 1) * sizeof *is_cat, 0); /* 13 */
  int64_t p = 0;
  for (int64_t k = 0; k < nsel; k++) {
    is_cat[k] = cols[k].declared == KIND_CATEGORY ||
                (cols[k].declared == KIND_AUTO && cols[k].texts > 0);
    if (!is_cat[k]) p++;
  }
  if (p == nsel && nrows == n_up) {
    lua_pushvalue(L, 12); /* 14: the staging matrix is the block */
  } else if (4 * p * nrows >= 3 * nsel * n_up) { /* compact in place, a view */
    for (int64_t i = 0; i < nrows; i++) {
      int64_t j = 0;
      for (int64_t k = 0; k < nsel; k++)
        if (!is_cat[k]) S->data[i * p + j++] = S->data[i * nsel + k];
    }
    luma_matrix_push_view(L, 12, luma_mat_dense(S->data, nrows, p));
  } else {
    luma_Mat *B = luma_matrix_new(L, nrows, p);
    for (int64_t i = 0; i < nrows; i++) {
      int64_t j = 0;
      for (int64_t k = 0; k < nsel; k++)
        if (!is_cat[k]) LUMA_AT(B, i, j++) = S->data[i * nsel + k];
    }
  }
  luma_Mat *block = luma_matrix_check(L, 14);
  lua_newtable(L); /* 15: categorical columns {codes = , categories = } */
  if (p < nsel) {
    int64_t nslots = 2;
    while (nslots < 2 * nrows) nslots *= 2;
    int64_t *slots = lua_newuserdatauv(L, (size_t)nslots * sizeof *slots, 0); /* 16 */
    luma_CsvText *distinct =
        lua_newuserdatauv(L, (size_t)(nrows ? nrows : 1) * sizeof *distinct, 0); /* 17 */
    lua_Integer jc = 0;
    for (int64_t k = 0; k < nsel; k++) {
      if (!is_cat[k]) continue;
      lua_createtable(L, 0, 2);
      luma_Mat *codes = luma_matrix_new(L, nrows, 1);
      int64_t kc = 0;
      if (cols[k].strings) {
        luma_Threads *t = luma_threads_of(L);
        kc = luma_csv_categorize(t, cols[k].strings, nrows, slots, nslots, distinct, codes->data);
        luma_threads_finish(L, t, LUMA_LOOP_DONE); /* raises when the meter stopped */
      } else
        luma_mat_fill(codes, NAN);
      lua_setfield(L, -2, "codes");
      lua_createtable(L, (int)kc, 0);
      for (int64_t c = 0; c < kc; c++) {
        lua_pushlstring(L, distinct[c].text, distinct[c].len);
        lua_rawseti(L, -2, c + 1);
      }
      lua_setfield(L, -2, "categories");
      lua_rawseti(L, 15, ++jc);
    }
    lua_settop(L, 15);
  }
  /* warnings, through the global warn so hosts and tests can catch them */
  for (lua_Integer w = 1, nw = (lua_Integer)lua_rawlen(L, 11); w <= nw; w++) {
    if (lua_getglobal(L, "warn") == LUA_TFUNCTION) {
      lua_rawgeti(L, 11, w);
      lua_call(L, 1, 0);
    } else {
      lua_pop(L, 1);
      lua_rawgeti(L, 11, w);
      lua_warning(L, lua_tostring(L, -1), 0);
      lua_pop(L, 1);
    }
  }
  lua_createtable(L, (int)nsel, 0); /* 16: selected names; 17: kinds */
  lua_createtable(L, (int)nsel, 0);
  for (int64_t k = 0; k < nsel; k++) {
    lua_rawgeti(L, 5, source[k] + 1);
    lua_rawseti(L, 16, k + 1);
    lua_pushstring(L, is_cat[k] ? "category" : "numeric");
    lua_rawseti(L, 17, k + 1);
  }
  if (as_matrix) {
    push_coded_matrix(L, nrows, nsel, is_cat, block, 15, 16); /* 18, 19 */
    lua_createtable(L, 0, 3);                                 /* 20: info */
    lua_pushvalue(L, 19);
    lua_setfield(L, 20, "categories");
    lua_pushvalue(L, 16);
    lua_setfield(L, 20, "columns");
    lua_pushinteger(L, nrows);
    lua_setfield(L, 20, "rows");
    lua_pushvalue(L, 18);
    lua_pushvalue(L, 20);
    return 2;
  }
  if (lua_getglobal(L, "require") != LUA_TFUNCTION)
    return luaL_error(L, "luma.io.read_csv: building a Table needs require (the package "
                      "library); pass {as = \"matrix\"} for a matrix");
  lua_pushliteral(L, "luma.Table");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "_from_parts");
  lua_pushvalue(L, 16);
  lua_pushvalue(L, 17);
  lua_pushvalue(L, 14);
  lua_pushvalue(L, 15);
  lua_pushinteger(L, nrows);
  lua_call(L, 5, 1);
  return 1;
}

static int io_read_csv(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.read_csv");
  return csv_read(L, 1);
}

static int io_parse_csv(lua_State *L) { return csv_read(L, 0); }


/* ----------------------------------------------------------- write_csv */

/* Pushes the string s as CSV text: quoted, with quotes doubled, when it
 * holds the delimiter, a quote or a line break (RFC 4180), and, with
 * `as_text`, also when read_csv would not read it back as this text: an
 * empty string, a default NA value or a number. */
static void push_csv_string(lua_State *L, const char *s, size_t n, char delimiter, int as_text) {
  static const NaList default_na = {{"", "NA", "NaN", "nan", "N/A", "null", "NULL"},
                                    {0, 2, 3, 3, 3, 4, 4}, 7};
  double v;
  int quote = memchr(s, delimiter, n) || memchr(s, '"', n) || memchr(s, '\n', n) ||
              memchr(s, '\r', n) ||
              (as_text && (is_na(&default_na, s, n) || luma_csv_number(s, n, &v)));
  if (!quote) {
    lua_pushlstring(L, s, n);
    return;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '"');
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '"') luaL_addchar(&b, '"');
    luaL_addchar(&b, s[i]);
  }
  luaL_addchar(&b, '"');
  luaL_pushresult(&b);
}

/* A column to write: numeric (values, column col) or categorical (codes
 * and the CSV texts of its categories). */
typedef struct OutColumn {
  const luma_Mat *values;
  int64_t col;
  const char **text;
  size_t *len;
  int64_t ncat;
} OutColumn;

/* The writers take the value first and the path last, as luma.save(obj,
 * path) does.  The old order, path first, still works: the arguments are
 * rotated into place, with one deprecation warning per function and
 * state.  `nvalues` is how many value arguments precede the path. */
static void path_last(lua_State *L, const char *fname, int nvalues) {
  if (lua_type(L, 1) != LUA_TSTRING || lua_type(L, nvalues + 1) == LUA_TSTRING) return;
  lua_rotate(L, 1, -1); /* (path, v1.., opts) -> (v1.., opts, path) */
  int top = lua_gettop(L);
  lua_insert(L, nvalues + 1 <= top ? nvalues + 1 : top); /* the path after the values */
  luaL_getsubtable(L, LUA_REGISTRYINDEX, "luma.io.deprecated_order");
  if (lua_getfield(L, -1, fname) == LUA_TNIL) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -3, fname);
    char msg[160];
    snprintf(msg, sizeof msg, "%s(path, ...) is deprecated: the path comes last, as in "
             "luma.save(obj, path)", fname);
    lua_warning(L, msg, 0);
  }
  lua_pop(L, 2);
}

/* write_csv(X, path [, opts]): X a matrix or a Table. */
static int io_write_csv(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.write_csv");
  path_last(L, "luma.io.write_csv", 1);
  const char *path = luaL_checkstring(L, 2);
  luma_check_options(L, 3, "header|delimiter|precision");
  char delimiter = opt_char(L, 3, "delimiter", ',');
  int precision = (int)luma_opt_integer(L, 3, "precision", 17);
  if (precision < 1 || precision > 17)
    return luma_arg_error(L, 3, "option 'precision' must be in [1, 17], got %d", precision);
  lua_settop(L, 3);
  /* 4: names, 5: kinds (nil for a matrix), 6: block, 7: categoricals */
  int64_t nrows, ncols;
  if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING &&
      strcmp(lua_tostring(L, -1), "luma.Table") == 0) {
    lua_pop(L, 1);
    lua_getfield(L, 1, "_parts");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 4);
    ncols = (int64_t)lua_rawlen(L, 4);
    nrows = luma_matrix_check(L, 6)->rows; /* the numeric block, n x 0 if none */
  } else {
    lua_settop(L, 3);
    luma_Mat *X = luma_matrix_check(L, 1);
    nrows = X->rows;
    ncols = X->cols;
    lua_createtable(L, (int)ncols, 0);
    for (int64_t j = 0; j < ncols; j++) {
      lua_pushfstring(L, "x%I", (lua_Integer)j + 1);
      lua_rawseti(L, 4, j + 1);
    }
    lua_pushnil(L);
    lua_pushvalue(L, 1);
    lua_newtable(L);
  }
  if (ncols == 0) return luma_arg_error(L, 1, "nothing to write: no columns");
  int header = 1;
  if (!lua_isnil(L, 3) && lua_getfield(L, 3, "header") != LUA_TNIL) { /* 8 */
    if (lua_isboolean(L, 8)) {
      header = lua_toboolean(L, 8);
    } else if (!lua_istable(L, 8) || (int64_t)lua_rawlen(L, 8) != ncols) {
      return luma_arg_error(L, 3, "option 'header' must be a boolean or list %I column names",
                            (lua_Integer)ncols);
    } else {
      lua_copy(L, 8, 4);
    }
  }
  lua_settop(L, 7);
  OutColumn *cols = lua_newuserdatauv(L, (size_t)ncols * sizeof *cols, 0); /* 8 */
  memset(cols, 0, (size_t)ncols * sizeof *cols);
  lua_newtable(L);                                                         /* 9: anchors */
  luma_Mat *block = luma_matrix_check(L, 6);
  int64_t jn = 0, jc = 0;
  for (int64_t j = 0; j < ncols; j++) {
    OutColumn *c = &cols[j];
    int cat = 0;
    if (!lua_isnil(L, 5)) {
      lua_rawgeti(L, 5, j + 1);
      cat = strcmp(lua_tostring(L, -1), "category") == 0;
      lua_pop(L, 1);
    }
    if (!cat) {
      c->values = block;
      c->col = jn++;
      continue;
    }
    lua_rawgeti(L, 7, ++jc);
    lua_getfield(L, -1, "codes");
    c->values = luma_matrix_check(L, -1);
    c->col = 0;
    lua_rawseti(L, 9, (lua_Integer)lua_rawlen(L, 9) + 1);
    lua_getfield(L, -1, "categories");
    c->ncat = (int64_t)lua_rawlen(L, -1);
    c->text = lua_newuserdatauv(L, (size_t)(c->ncat + 1) * sizeof *c->text, 0);
    lua_rawseti(L, 9, (lua_Integer)lua_rawlen(L, 9) + 1);
    c->len = lua_newuserdatauv(L, (size_t)(c->ncat + 1) * sizeof *c->len, 0);
    lua_rawseti(L, 9, (lua_Integer)lua_rawlen(L, 9) + 1);
    for (int64_t k = 0; k < c->ncat; k++) {
      lua_rawgeti(L, -1, k + 1);
      size_t n;
      const char *s = lua_tolstring(L, -1, &n);
      push_csv_string(L, s, n, delimiter, 1);
      c->text[k] = lua_tolstring(L, -1, &c->len[k]);
      lua_rawseti(L, 9, (lua_Integer)lua_rawlen(L, 9) + 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 2);
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (header) {
    for (int64_t j = 0; j < ncols; j++) {
      if (j > 0) luaL_addchar(&b, delimiter);
      lua_rawgeti(L, 4, j + 1);
      size_t n;
      const char *s = luaL_tolstring(L, -1, &n);
      push_csv_string(L, s, n, delimiter, 0);
      lua_remove(L, -2);
      lua_remove(L, -2);
      luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
  }
  char num[40];
  for (int64_t i = 0; i < nrows; i++) {
    for (int64_t j = 0; j < ncols; j++) {
      if (j > 0) luaL_addchar(&b, delimiter);
      const OutColumn *c = &cols[j];
      double v = LUMA_AT(c->values, i, c->col);
      if (c->text) { /* categorical: the code's text; missing: nothing, or NA when the
                        * line would be blank (blank lines are skipped) */
        if (v == v) luaL_addlstring(&b, c->text[(int64_t)v - 1], c->len[(int64_t)v - 1]);
        else if (ncols == 1) luaL_addstring(&b, "NA");
        continue;
      }
      int n = isnan(v)   ? snprintf(num, sizeof num, "nan")
              : isinf(v) ? snprintf(num, sizeof num, v > 0 ? "inf" : "-inf")
                         : luma_snprintf_c(num, sizeof num, "%.*g", precision, v);
      luaL_addlstring(&b, num, (size_t)n);
    }
    luaL_addchar(&b, '\n');
  }
  luaL_pushresult(&b);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  write_whole_file(L, "luma.io.write_csv", path, text, len);
  return 0;
}

/* ---------------------------------------------------------------- npy */

/* The release callback of a mapped matrix's guard. */
static void release_mapping(void *ctx, double *data) {
  (void)data;
  luma_filemap_close(ctx);
  free(ctx);
}

/* The collector sees only the small headers of a mapped matrix, not the
 * mapping.  Charging the mapping's size as collector debt makes it work as
 * much as an allocation of that size would, so a loop that maps files
 * finishes cycles, and unmaps the unreachable mappings, at the pace it
 * would for owned matrices.  A collector the host stopped stays stopped. */
static void charge_collector(lua_State *L, size_t bytes) {
  size_t kb = bytes / 1024;
  if (kb == 0 || !lua_gc(L, LUA_GCISRUNNING)) return;
  lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
}

/* Pushes a rows x cols matrix over the mapping's elements at offset, row
 * by row or, for a Fortran-order file, column by column (strides 1 and
 * rows: the transpose of a C-order cols x rows array).  Takes the mapping:
 * it is closed on failure too. */
static void push_mapped(lua_State *L, const char *fname, luma_FileMap *map, size_t offset,
                        int64_t rows, int64_t cols, int fortran) {
  luma_FileMap *owned = malloc(sizeof *owned);
  if (owned == NULL) {
    luma_filemap_close(map);
    luaL_error(L, "%s: not enough memory", fname);
  }
  *owned = *map;
  double *data = (double *)(void *)(map->addr + offset);
  luma_Mat m = luma_mat_dense(data, rows, cols);
  if (fortran) {
    m.rs = 1;
    m.cs = rows;
  }
  if (luma_wrap_matrix(L, data, rows, cols, m.rs, m.cs, release_mapping, owned) != LUA_OK) {
    release_mapping(owned, data); /* a failed wrap never calls it */
    luaL_error(L, "%s: not enough memory", fname);
  }
  charge_collector(L, map->len);
}

/* Raises the error of a failed luma_filemap_open or _create. */
static void filemap_error(lua_State *L, const char *fname, const char *what, const char *path,
                          int err) {
  if (err == LUMA_FILEMAP_NOT_REGULAR) luaL_error(L, "%s: %s is not a regular file", fname, path);
  luaL_error(L, "%s: cannot %s %s (%s)", fname, what, path, strerror(err));
}

/* Pushes the matrix over a mapped .npy file after checking its header
 * (against the file's size, so no element lies past its end: reading one
 * would be a SIGBUS) and that its elements are usable in place; rows and
 * cols, unless negative, are the shape the caller expects.  Takes the
 * mapping. */
static void push_mapped_npy(lua_State *L, const char *fname, const char *path, luma_FileMap *map,
                            int64_t rows, int64_t cols) {
  luma_NpyInfo info;
  char why[160];
  const char *bad = luma_npy_parse(map->addr, map->len, &info);
  const char *hint = "";
  if (bad == NULL && (bad = luma_npy_mappable(&info, why, sizeof why)) != NULL)
    hint = "; luma.io.read_npy with mmap = false reads it (a converted copy)";
  int64_t r = info.ndim >= 1 ? info.shape[0] : 1, c = info.ndim == 2 ? info.shape[1] : 1;
  if (bad == NULL && rows >= 0 && (r != rows || c != cols)) {
    snprintf(why, sizeof why, "holds a %lld x %lld array, not %lld x %lld", (long long)r,
             (long long)c, (long long)rows, (long long)cols);
    bad = why;
  }
  if (bad != NULL) {
    luma_filemap_close(map);
    luaL_error(L, "%s: %s: %s%s", fname, path, bad, hint);
  }
  push_mapped(L, fname, map, info.data_offset, r, c, info.fortran_order);
}

static int io_read_npy(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.read_npy");
  const char *path = luaL_checkstring(L, 1);
  luma_check_options(L, 2, "mmap");
  if (luma_opt_boolean(L, 2, "mmap", 0)) {
    luma_FileMap map;
    int err = luma_filemap_open(path, 0, &map);
    if (err != 0) filemap_error(L, "luma.io.read_npy", "open", path, err);
    push_mapped_npy(L, "luma.io.read_npy", path, &map, -1, -1);
    return 1;
  }
  size_t len;
  const unsigned char *bytes =
      (const unsigned char *)read_whole_file(L, "luma.io.read_npy", path, &len);
  luma_NpyInfo info;
  const char *why = luma_npy_parse(bytes, len, &info);
  if (why) return luaL_error(L, "luma.io.read_npy: %s: %s", path, why);
  int64_t rows = info.ndim >= 1 ? info.shape[0] : 1;
  int64_t cols = info.ndim == 2 ? info.shape[1] : 1;
  luma_Mat *m = luma_matrix_new(L, rows, cols);
  luma_npy_convert(&info, bytes + info.data_offset, m);
  return 1;
}

enum { MODE_READ_WRITE, MODE_READ, MODE_CREATE }; /* "r+", "r", "w+" */

/* open_npy(path [, rows, cols] [, {mode = "r+"}]); the options may also
 * come second, without a shape. */
static int io_open_npy(lua_State *L) {
  const char *fname = "luma.io.open_npy";
  luma_check_unsandboxed(L, fname);
  const char *path = luaL_checkstring(L, 1);
  int opt = lua_istable(L, 2) ? 2 : 4;
  luma_check_options(L, opt, "mode");
  int mode = luma_opt_choice(L, opt, "mode", "r+|r|w+", MODE_READ_WRITE);
  int64_t rows = -1, cols = -1;
  if (opt == 4 && !(lua_isnoneornil(L, 2) && lua_isnoneornil(L, 3))) {
    rows = luma_check_int_range(L, 2, "rows", 0, LUMA_MAX_ELEMENTS);
    cols = luma_check_int_range(L, 3, "cols", 0, LUMA_MAX_ELEMENTS);
    if (luma_mat_checked_size(rows, cols) < 0)
      return luma_arg_error(L, 3, "a %I x %I array has more than 2^40 elements",
                            (lua_Integer)rows, (lua_Integer)cols);
  }
  luma_FileMap map;
  if (mode != MODE_CREATE) {
    int err = luma_filemap_open(path, mode == MODE_READ_WRITE, &map);
    if (err != 0) filemap_error(L, fname, "open", path, err);
    push_mapped_npy(L, fname, path, &map, rows, cols);
    return 1;
  }
  if (rows < 0) return luma_arg_error(L, 2, "mode \"w+\" needs rows and cols");
  char header[128];
  size_t hlen = luma_npy_header(rows, cols, header, sizeof header);
  int err = luma_filemap_create(path, header, hlen, (size_t)(rows * cols) * sizeof(double), &map);
  if (err != 0) filemap_error(L, fname, "create", path, err);
  push_mapped(L, fname, &map, hlen, rows, cols, 0);
  return 1;
}

static int io_write_npy(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.write_npy");
  path_last(L, "luma.io.write_npy", 1);
  luma_Mat *X = luma_matrix_check(L, 1);
  const char *path = luaL_checkstring(L, 2);
  char header[128];
  size_t hlen = luma_npy_header(X->rows, X->cols, header, sizeof header);
  size_t total = hlen + (size_t)(X->rows * X->cols) * 8;
  unsigned char *out = lua_newuserdatauv(L, total, 0);
  memcpy(out, header, hlen);
  unsigned char *p = out + hlen;
  for (int64_t i = 0; i < X->rows; i++)
    for (int64_t j = 0; j < X->cols; j++) {
      uint64_t bits;
      double v = LUMA_AT(X, i, j);
      memcpy(&bits, &v, sizeof bits);
      for (int b = 0; b < 8; b++) *p++ = (unsigned char)(bits >> (8 * b)); /* '<f8' */
    }
  write_whole_file(L, "luma.io.write_npy", path, (const char *)out, total);
  return 0;
}

/* ------------------------------------------------------------- libsvm */

/* One "index:value" pair or the label; returns the position after it. */
static const char *skip_blanks(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* read_libsvm(path [, {n_features}]) -> X (dense), y: the svmlight text
 * format "label index:value ..." with 1-based increasing indices; "#"
 * starts a comment, "qid:" pairs are skipped. */
static int io_read_libsvm(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.read_libsvm");
  const char *path = luaL_checkstring(L, 1);
  luma_check_options(L, 2, "n_features");
  lua_Integer want = luma_opt_integer(L, 2, "n_features", 0);
  if (want < 0) return luma_arg_error(L, 2, "option 'n_features' must be >= 0");
  lua_settop(L, 2);
  size_t len;
  const char *bytes = read_whole_file(L, "luma.io.read_libsvm", path, &len); /* 3 */
  /* Pass 1: rows and the largest index, every token checked. */
  int64_t rows = 0, max_index = 0;
  for (int pass = 1; pass <= 2; pass++) {
    luma_Mat *X = NULL, *y = NULL;
    if (pass == 2) {
      int64_t cols = want > 0 ? want : max_index;
      if (want > 0 && max_index > want)
        return luaL_error(L, "luma.io.read_libsvm: %s uses feature %I but n_features is %I", path,
                          (lua_Integer)max_index, want);
      X = luma_matrix_new(L, rows, cols); /* 4 */
      luma_mat_fill(X, 0.0);
      y = luma_matrix_new(L, rows, 1); /* 5 */
    }
    int64_t row = 0, line = 0;
    for (const char *p = bytes; p < bytes + len;) {
      const char *eol = memchr(p, '\n', (size_t)(bytes + len - p));
      if (eol == NULL) eol = bytes + len;
      line++;
      const char *q = skip_blanks(p);
      if (q < eol && *q != '#' && *q != '\r') {
        char *end;
        /* strtod skips leading white space, newlines included: a number
         * found past eol belongs to the next line, not this one. */
        double label = luma_strtod_c(q, &end);
        if (end == q || end > eol)
          return luaL_error(L, "luma.io.read_libsvm: %s: line %I has no label", path,
                            (lua_Integer)line);
        if (y) LUMA_AT(y, row, 0) = label;
        int64_t last = 0;
        for (q = skip_blanks(end); q < eol && *q != '#' && *q != '\r'; q = skip_blanks(q)) {
          if (strncmp(q, "qid:", 4) == 0) {
            while (q < eol && *q != ' ' && *q != '\t') q++;
            continue;
          }
          long long index = strtoll(q, &end, 10);
          if (end == q || end > eol || *end != ':' || index <= last || index > LUMA_MAX_ELEMENTS)
            return luaL_error(L, "luma.io.read_libsvm: %s: line %I: expected index:value with "
                              "increasing indices from 1", path, (lua_Integer)line);
          const char *v = end + 1;
          double value = luma_strtod_c(v, &end);
          if (end == v || end > eol) return luaL_error(L, "luma.io.read_libsvm: %s: line %I: bad value after "
                                          "index %I", path, (lua_Integer)line, (lua_Integer)index);
          last = index;
          if (index > max_index) max_index = index;
          if (X) LUMA_AT(X, row, index - 1) = value;
          q = end;
        }
        row++;
      }
      p = eol + 1;
    }
    rows = row;
  }
  return 2;
}

/* write_libsvm(X, y, path): zeros are left out, as the format intends. */
static int io_write_libsvm(lua_State *L) {
  luma_check_unsandboxed(L, "luma.io.write_libsvm");
  path_last(L, "luma.io.write_libsvm", 2);
  luma_Mat *X = luma_matrix_check(L, 1), *y = luma_matrix_check(L, 2);
  const char *path = luaL_checkstring(L, 3);
  if (y->rows != X->rows || y->cols != 1)
    return luma_arg_error(L, 2, "y must be a %I x 1 column, got %I x %I", (lua_Integer)X->rows,
                          (lua_Integer)y->rows, (lua_Integer)y->cols);
  lua_settop(L, 3);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  char num[64];
  for (int64_t i = 0; i < X->rows; i++) {
    luaL_addlstring(&b, num, (size_t)luma_snprintf_c(num, sizeof num, "%.17g", LUMA_AT(y, i, 0)));
    for (int64_t j = 0; j < X->cols; j++) {
      double v = LUMA_AT(X, i, j);
      if (v != 0)
        luaL_addlstring(&b, num, (size_t)luma_snprintf_c(num, sizeof num, " %lld:%.17g",
                                                  (long long)(j + 1), v));
    }
    luaL_addchar(&b, '\n');
  }
  luaL_pushresult(&b);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  write_whole_file(L, "luma.io.write_libsvm", path, text, len);
  return 0;
}

int luma_open_io(lua_State *L) {
  static const luma_Func funcs[] = {
      {"read_csv", io_read_csv,
       "read_csv(path [, {header = true, delimiter = \",\", columns = all, na_values = "
       "common, skip_rows = 0, comment = none, dtypes = {}, on_bad = \"error\", as = "
       "\"table\"}]) -> Table | matrix, info",
       "Reads a CSV file into a luma.Table (docs/TABLE.md). Quoted fields (RFC 4180), CRLF, a "
       "UTF-8 BOM; unquoted fields in na_values (default \"\", NA, NaN, nan, N/A, null, NULL) "
       "are missing. A column is numeric when every non-missing field is an unquoted number; "
       "categorical when every one is text (quoted fields are text), categories sorted. A "
       "column mixing both is an error naming the column, row and field, unless dtypes = "
       "{name = \"category\" | \"numeric\"} declares it or on_bad = \"nan\" reads bad fields "
       "as NaN with a warning each. A header-only file gives a 0-row table. A row of the "
       "wrong width is an error naming its line (and the delimiter the first line seems to "
       "use, if another: ; tab | ,). columns selects "
       "by name or 1-based index. as = \"matrix\" returns a matrix (categories as codes "
       "1..k) and info = {columns, categories = {[name] = labels}, rows}."},
      {"parse_csv", io_parse_csv,
       "parse_csv(text [, {header = true, delimiter = \",\", columns = all, na_values = "
       "common, skip_rows = 0, comment = none, dtypes = {}, on_bad = \"error\", as = "
       "\"table\"}]) -> Table | matrix, info",
       "Like read_csv, from a string (available in sandboxed states)."},
      {"write_csv", io_write_csv,
       "write_csv(X, path [, {header = true, delimiter = \",\", precision = 17}]) -> nothing",
       "Writes X, a matrix or a luma.Table, as CSV with a header line (the Table's names, "
       "x1..xk for a matrix, or the list given; false for none) and %.17g numbers, nan and "
       "inf spelled out, so read_csv reads back exactly what was written. Text that would "
       "read back as something else (empty, an NA value, a number, delimiters, quotes, line "
       "breaks) is quoted; a missing category is an empty field. The path comes last, as in "
       "luma.save(obj, path); the old order write_csv(path, X) still works, with a "
       "deprecation warning."},
      {"read_libsvm", io_read_libsvm,
       "read_libsvm(path [, {n_features = largest index}]) -> X, y",
       "Reads the libsvm/svmlight text format (label index:value ...) into a dense X and a "
       "column y; n_features fixes the width (default: the largest index)."},
      {"write_libsvm", io_write_libsvm, "write_libsvm(X, y, path) -> nothing",
       "Writes X and y in the libsvm/svmlight format (zeros omitted, %.17g values). The "
       "path comes last; write_libsvm(path, X, y) still works, with a deprecation warning."},
      {"read_npy", io_read_npy, "read_npy(path [, {mmap = false}]) -> matrix",
       "Reads a NumPy .npy file (float64, float32, integers or bool; up to 2-D; C or Fortran "
       "order; either byte order) into a matrix; a 1-D array becomes a column. With mmap = "
       "true the matrix is the file itself, memory-mapped copy-on-write instead of read: "
       "pages are loaded as they are used (data larger than memory works), writes through "
       "the matrix stay private and never change the file; the file must hold little-endian "
       "float64 ('<f8'), and a Fortran-order file gives a column-major strided matrix."},
      {"open_npy", io_open_npy,
       "open_npy(path [, rows = nil, cols = nil] [, {mode = \"r+\"}]) -> matrix",
       "Returns a matrix memory-mapped onto a float64 .npy file. mode \"w+\" creates (or "
       "truncates) path as a rows x cols '<f8' C-order array of zeros, its space reserved on "
       "disk; \"r+\" (the default) maps an existing '<f8' file for reading and writing; "
       "\"r\" maps it copy-on-write like read_npy{mmap = true}. With \"w+\" and \"r+\" "
       "writes through the matrix or its views go to the file (other readers see them at "
       "once). rows and cols are required for \"w+\" and, if given with \"r\" or "
       "\"r+\", must match the file's shape; the options may also be the second argument. "
       "The mapping is unmapped when the matrix and its views are garbage."},
      {"write_npy", io_write_npy, "write_npy(X, path) -> nothing",
       "Writes X as a 2-D float64 .npy file (format 1.0, C order) that numpy.load reads. The "
       "path comes last; write_npy(path, X) still works, with a deprecation warning."},
      {NULL, NULL, NULL, NULL}};
  lua_newtable(L);
  luma_register_funcs(L, -1, "luma.io", funcs);
  luma_doc_set(L, -1, "luma.io", NULL,
               "Reading and writing tables and matrices: CSV (to and from luma.Table) and NumPy "
               ".npy files, the latter also "
               "memory-mapped (read_npy{mmap = true}, open_npy) for data larger than memory "
               "(files are not available in sandboxed states; parse_csv works on strings).");
  return 1;
}
