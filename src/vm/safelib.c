/*
 * safelib.c - the standard functions that loop in C for as long as a
 * script asks, rewritten for sandboxed states so that their work is
 * charged to the state's budget (luma_safelib_open, called by the sandbox
 * in state.c).
 *
 * Stock Lua's pattern matcher backtracks, its plain find compares at
 * every position, table.move/insert/remove/concat/sort loop over whatever
 * range the arguments or a __len metamethod give, and string.rep("", n)
 * loops n times: all in C, where the instruction hook never runs, so one
 * call could hold the host for hours.  load with a C function as reader
 * and collectgarbage are charged too (see charged_load).  These keep the stock semantics and
 * error messages (Lua 5.4.4, which tests/vm/safelib_spec.lua compares
 * them with) and call luma_charge every CHARGE_BATCH units or so, so the
 * instruction limit, the time limit and luma_interrupt stop them within
 * milliseconds.  docs/RELIABILITY.md lists what was replaced and why,
 * and the standard functions examined and found bounded.
 *
 * Units (docs/EMBEDDING.md, "Cost model"): one per matcher step (a
 * pattern item entered, or a subject byte tested against an item), one
 * per BYTES_PER_UNIT bytes scanned or copied in bulk (memchr, memcmp,
 * memcpy), and for the table functions ACCESS_UNITS per element read or
 * written, one per comparison (CALL_UNITS through a function) and
 * CONVERT_UNITS per number table.concat turns into text: measured, each
 * unit costs from 1 to about 30 ns, C metamethods included.
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "budget.h"
#include "core.h"

enum {
  CHARGE_BATCH = LUMA_CHARGE_CLOCK_UNITS, /* units between two charges (a clock read) */
  BYTES_PER_UNIT = 32,                    /* bulk byte operations: bytes per unit */
  SCAN_CHUNK = 1 << 16,                   /* bytes one memchr or memcpy covers at most */
  MAX_CAPTURES = 32,                      /* as stock Lua's LUA_MAXCAPTURES */
  MAX_DEPTH = 200,                        /* nested matcher calls, as stock's MAXCCALLS */
  SMALL_PATTERN = 32,                     /* patterns compiled on the C stack (bytes) */
  SORT_SMALL = 12,                        /* ranges insertion-sorted (elements) */
  /* The table functions' units: an element read or written through
   * lua_geti/lua_seti (a C metamethod costs about a C call), a call of a
   * comparison function, a number that table.concat converts. */
  ACCESS_UNITS = 2,
  CALL_UNITS = 4,
  CONVERT_UNITS = 16
};

/* ---------------------------------------------------------------- meter */

/* Units of work done but not yet charged to the state. */
typedef struct Meter {
  lua_State *L;
  uint64_t pending;
} Meter;

static void meter_flush(Meter *mt) {
  uint64_t units = mt->pending;
  mt->pending = 0;
  if (units != 0) luma_charge(mt->L, units);
}

static inline void meter_add(Meter *mt, uint64_t units) {
  mt->pending += units;
  if (mt->pending >= CHARGE_BATCH) meter_flush(mt);
}

static inline void meter_bytes(Meter *mt, size_t bytes) {
  meter_add(mt, bytes / BYTES_PER_UNIT + 1);
}

/* memchr over [s, end) in chunks, charged as it goes; end when absent. */
static const char *scan_byte(Meter *mt, const char *s, const char *end, int c) {
  while (s < end) {
    size_t span = (size_t)(end - s) < SCAN_CHUNK ? (size_t)(end - s) : SCAN_CHUNK;
    const char *hit = memchr(s, c, span);
    meter_bytes(mt, hit ? (size_t)(hit - s) : span);
    if (hit) return hit;
    s += span;
  }
  return end;
}

/* Whether the n bytes at a and b are equal: memcmp a block at a time, so
 * a mismatch early in a long needle costs one block. */
static int same_bytes(Meter *mt, const char *a, const char *b, size_t n) {
  for (size_t off = 0; off < n; off += 64) {
    size_t len = n - off < 64 ? n - off : 64;
    meter_bytes(mt, len);
    if (memcmp(a + off, b + off, len) != 0) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------- patterns */

/* What one item of a compiled pattern matches.  The first four match one
 * byte each and may carry a quantifier. */
enum {
  OP_CHAR,      /* the byte c */
  OP_ANY,       /* '.' */
  OP_CLASS,     /* %a, %D, ...: c the class letter in lower case, d 1 if complemented */
  OP_SET,       /* [...]: text is the '[', text + len the ']' */
  OP_RUN,       /* len >= 2 literal bytes at text, no quantifier */
  OP_OPEN,      /* '(' */
  OP_POSITION,  /* '()' */
  OP_CLOSE,     /* ')' */
  OP_BALANCE,   /* %bxy: c = x, d = y */
  OP_FRONTIER,  /* %f[...]: the set as for OP_SET */
  OP_BACKREF,   /* %0 .. %9: c the digit */
  OP_AT_END,    /* '$' as the last byte of the pattern */
  OP_DONE,      /* end of the pattern: a match */
  OP_MALFORMED  /* the pattern is malformed here (c: which error), raised on arrival */
};

/* Quantifiers of the single-byte items. */
enum { REP_ONE, REP_OPT, REP_STAR, REP_PLUS, REP_LAZY };

/* Ways a pattern can be malformed, each with stock Lua's message. */
enum { BAD_PERCENT, BAD_BRACKET, BAD_BALANCE, BAD_FRONTIER };

typedef struct Item {
  unsigned char op, rep, c, d;
  size_t len;
  const char *text;
} Item;

/* Stock Lua reports a malformed pattern only when the matcher gets to the
 * bad spot (string.find("b", "a%") is nil, string.find("a", "a%") an
 * error), so the compiler stops there with an OP_MALFORMED item that
 * raises when reached. */
static int raise_malformed(lua_State *L, int why) {
  switch (why) {
  case BAD_PERCENT: return luaL_error(L, "malformed pattern (ends with '%%')");
  case BAD_BRACKET: return luaL_error(L, "malformed pattern (missing ']')");
  case BAD_BALANCE: return luaL_error(L, "malformed pattern (missing arguments to '%%b')");
  default: return luaL_error(L, "missing '[' after '%%f' in pattern");
  }
}

/* The ']' closing the set that opens at p ('['), or NULL.  The first byte
 * of a set (after an optional '^') never closes it, so "[]]" and "[^]]"
 * are sets of ']'; '%' escapes the byte after it. */
static const char *set_close(const char *p, const char *end) {
  const char *q = p + 1;
  if (q < end && *q == '^') q++;
  for (;;) {
    if (q >= end) return NULL;
    if (*q++ == '%' && q < end) q++;
    if (q < end && *q == ']') return q;
  }
}

/* The class letters (%a ...); any other escaped byte stands for itself. */
static int class_letter(int c) { return c != 0 && strchr("acdglpsuwxz", c) != NULL; }

static int class_has(int letter, int ch) {
  switch (letter) {
  case 'a': return isalpha(ch) != 0;
  case 'c': return iscntrl(ch) != 0;
  case 'd': return isdigit(ch) != 0;
  case 'g': return isgraph(ch) != 0;
  case 'l': return islower(ch) != 0;
  case 'p': return ispunct(ch) != 0;
  case 's': return isspace(ch) != 0;
  case 'u': return isupper(ch) != 0;
  case 'w': return isalnum(ch) != 0;
  case 'x': return isxdigit(ch) != 0;
  default: return ch == 0; /* 'z', kept by Lua 5.4 for compatibility */
  }
}


/* Whether byte ch matches the escape %c (c as written): a class, its
 * complement when the letter is upper case, or the byte c itself. */
static int escape_has(int c, int ch) {
  int letter = tolower(c);
  if (!class_letter(letter)) return c == ch;
  return class_has(letter, ch) != (isupper(c) != 0);
}

/* Whether byte ch is in the set from set ('[') to close (']'): its
 * members, tried in order, are escapes, ranges x-y and single bytes. */
static int set_has(const char *set, const char *close, int ch) {
  const char *q = set + 1;
  int member = 1; /* what finding ch among the members means */
  if (*q == '^') {
    member = 0;
    q++;
  }
  for (; q < close; q++) {
    if (*q == '%') {
      q++;
      if (escape_has((unsigned char)*q, ch)) return member;
    } else if (q[1] == '-' && q + 2 < close) {
      if ((unsigned char)q[0] <= ch && ch <= (unsigned char)q[2]) return member;
      q += 2;
    } else if ((unsigned char)*q == ch) {
      return member;
    }
  }
  return !member;
}

static inline int single(const Item *it, int ch) {
  switch (it->op) {
  case OP_CHAR: return it->c == ch;
  case OP_ANY: return 1;
  case OP_CLASS: return class_has(it->c, ch) != it->d;
  default: return set_has(it->text, it->text + it->len, ch);
  }
}

static void set_malformed(Item *it, int why) {
  it->op = OP_MALFORMED;
  it->c = (unsigned char)why;
}

/* Compiles the pattern p .. end into items (at most one per pattern byte,
 * plus OP_DONE).  Runs of plain bytes become one OP_RUN. */
static void compile(const char *p, const char *end, Item *items) {
  Item *it = items;
  for (;;) {
    it->rep = REP_ONE;
    it->c = it->d = 0;
    it->len = 0;
    it->text = NULL;
    if (p >= end) {
      it->op = OP_DONE;
      return;
    }
    int simple = 0; /* a single-byte item follows */
    switch (*p) {
    case '(':
      if (p + 1 < end && p[1] == ')') {
        it->op = OP_POSITION;
        p += 2;
      } else {
        it->op = OP_OPEN;
        p++;
      }
      break;
    case ')':
      it->op = OP_CLOSE;
      p++;
      break;
    case '$':
      if (p + 1 == end) {
        it->op = OP_AT_END;
        p++;
      } else {
        simple = 1;
      }
      break;
    case '%':
      if (p + 1 < end && p[1] == 'b') {
        if (end - p < 4) {
          set_malformed(it, BAD_BALANCE);
          return;
        }
        it->op = OP_BALANCE;
        it->c = (unsigned char)p[2];
        it->d = (unsigned char)p[3];
        p += 4;
      } else if (p + 1 < end && p[1] == 'f') {
        p += 2;
        if (p == end || *p != '[') {
          set_malformed(it, BAD_FRONTIER);
          return;
        }
        const char *close = set_close(p, end);
        if (close == NULL) {
          set_malformed(it, BAD_BRACKET);
          return;
        }
        it->op = OP_FRONTIER;
        it->text = p;
        it->len = (size_t)(close - p);
        p = close + 1;
      } else if (p + 1 < end && p[1] >= '0' && p[1] <= '9') {
        it->op = OP_BACKREF;
        it->c = (unsigned char)p[1];
        p += 2;
      } else {
        simple = 1;
      }
      break;
    default: simple = 1;
    }
    if (!simple) {
      it++;
      continue;
    }
    const char *next = p + 1;
    if (*p == '%') {
      if (p + 1 == end) {
        set_malformed(it, BAD_PERCENT);
        return;
      }
      int c = (unsigned char)p[1], letter = tolower(c);
      if (class_letter(letter)) {
        it->op = OP_CLASS;
        it->c = (unsigned char)letter;
        it->d = isupper(c) != 0;
      } else {
        it->op = OP_CHAR;
        it->c = (unsigned char)c;
      }
      next = p + 2;
    } else if (*p == '[') {
      const char *close = set_close(p, end);
      if (close == NULL) {
        set_malformed(it, BAD_BRACKET);
        return;
      }
      it->op = OP_SET;
      it->text = p;
      it->len = (size_t)(close - p);
      next = close + 1;
    } else if (*p == '.') {
      it->op = OP_ANY;
    } else {
      it->op = OP_CHAR;
      it->c = (unsigned char)*p;
      it->text = p; /* a plain byte: may join a run */
      it->len = 1;
    }
    if (next < end && (*next == '?' || *next == '*' || *next == '+' || *next == '-')) {
      it->rep = *next == '?' ? REP_OPT : *next == '*' ? REP_STAR : *next == '+' ? REP_PLUS : REP_LAZY;
      next++;
    } else if (it->op == OP_CHAR && it->text != NULL && it > items) {
      Item *prev = it - 1;
      if ((prev->op == OP_RUN || (prev->op == OP_CHAR && prev->rep == REP_ONE)) &&
          prev->text != NULL && prev->text + prev->len == p) {
        prev->op = OP_RUN;
        prev->len++;
        it--;
      }
    }
    p = next;
    it++;
  }
}

/* A compiled pattern: on the C stack when short, else in a userdata left
 * on the Lua stack (freed by the collector, also after an error). */
static const Item *compile_pattern(lua_State *L, const char *p, size_t lp, Item *small) {
  Item *items = small;
  if (lp >= SMALL_PATTERN) items = lua_newuserdatauv(L, (lp + 1) * sizeof(Item), 0);
  compile(p, p + lp, items);
  return items;
}

/* -------------------------------------------------------------- matcher */

enum { CAP_UNFINISHED = -1, CAP_POSITION = -2 };

typedef struct Matcher {
  lua_State *L;
  const char *src, *end; /* the subject */
  int level;             /* captures started */
  int depth;             /* nested match calls left */
  Meter meter;
  struct {
    const char *init;
    ptrdiff_t len; /* or CAP_UNFINISHED, CAP_POSITION */
  } cap[MAX_CAPTURES];
} Matcher;

static void matcher_init(Matcher *m, lua_State *L, const char *s, size_t ls) {
  m->L = L;
  m->src = s;
  m->end = s + ls;
  m->meter.L = L;
  m->meter.pending = 0;
}

static void matcher_reset(Matcher *m) {
  m->level = 0;
  m->depth = MAX_DEPTH;
}

static const char *match(Matcher *m, const char *s, const Item *it);

/* The byte a match of the item must start with, or -1. */
static int lead_byte(const Item *it) {
  if (it->op == OP_RUN) return (unsigned char)it->text[0];
  if (it->op == OP_CHAR && (it->rep == REP_ONE || it->rep == REP_PLUS)) return it->c;
  return -1;
}

/* How many bytes from s the single-byte item matches in a row. */
static size_t run_length(Matcher *m, const char *s, const Item *it) {
  if (it->op == OP_ANY) return (size_t)(m->end - s);
  const char *q = s;
  while (q < m->end) {
    const char *from = q;
    const char *stop = (size_t)(m->end - q) > SCAN_CHUNK ? q + SCAN_CHUNK : m->end;
    if (it->op == OP_CHAR) {
      while (q < stop && (unsigned char)*q == it->c) q++;
    } else {
      while (q < stop && single(it, (unsigned char)*q)) q++;
    }
    meter_add(&m->meter, (uint64_t)(q - from));
    if (q < stop) break;
  }
  return (size_t)(q - s);
}

/* it* and it+ from s: the longest run first, then shorter ones.  Where the
 * rest of the pattern must start with a byte that is not there, trying it
 * would fail at once, so it is not tried (unless that one call would
 * raise "pattern too complex"). */
static const char *expand_greedy(Matcher *m, const char *s, const Item *it) {
  size_t count = run_length(m, s, it);
  const Item *next = it + 1;
  int lead = m->depth > 0 ? lead_byte(next) : -1;
  for (;; count--) {
    const char *at = s + count;
    if (lead < 0 || (at < m->end && (unsigned char)*at == lead)) {
      const char *r = match(m, at, next);
      if (r != NULL) return r;
    } else {
      meter_add(&m->meter, 1);
    }
    if (count == 0) return NULL;
  }
}

/* it- from s (which it matches): the rest of the pattern first, then one
 * more byte.  As above, hopeless attempts are skipped; after '.', a
 * memchr finds the next place the rest can start. */
static const char *expand_lazy(Matcher *m, const char *s, const Item *it) {
  const Item *next = it + 1;
  int lead = m->depth > 0 ? lead_byte(next) : -1;
  for (;;) {
    if (lead >= 0 && it->op == OP_ANY) {
      s = scan_byte(&m->meter, s, m->end, lead);
      if (s == m->end) return NULL;
    }
    if (lead < 0 || (s < m->end && (unsigned char)*s == lead)) {
      const char *r = match(m, s, next);
      if (r != NULL) return r;
    } else {
      meter_add(&m->meter, 1);
    }
    if (s < m->end && single(it, (unsigned char)*s))
      s++;
    else
      return NULL;
  }
}

static const char *start_capture(Matcher *m, const char *s, const Item *it) {
  if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
  m->cap[m->level].init = s;
  m->cap[m->level].len = it->op == OP_POSITION ? CAP_POSITION : CAP_UNFINISHED;
  m->level++;
  const char *r = match(m, s, it + 1);
  if (r == NULL) m->level--;
  return r;
}

/* ')' closes the innermost capture still open. */
static const char *end_capture(Matcher *m, const char *s, const Item *it) {
  int l = m->level - 1;
  while (l >= 0 && m->cap[l].len != CAP_UNFINISHED) l--;
  if (l < 0) luaL_error(m->L, "invalid pattern capture");
  m->cap[l].len = s - m->cap[l].init;
  const char *r = match(m, s, it + 1);
  if (r == NULL) m->cap[l].len = CAP_UNFINISHED;
  return r;
}

/* %bxy: from an x at s to the y that balances it. */
static const char *balance(Matcher *m, const char *s, const Item *it) {
  if (s >= m->end || (unsigned char)*s != it->c) return NULL;
  size_t open = 1;
  for (const char *q = s + 1; q < m->end; q++) {
    meter_add(&m->meter, 1);
    if ((unsigned char)*q == it->d) {
      if (--open == 0) return q + 1;
    } else if ((unsigned char)*q == it->c) {
      open++;
    }
  }
  return NULL;
}

/* %f[set]: the byte before s (NUL at the start) is not in the set and the
 * byte at s (NUL at the end) is. */
static int frontier(const Matcher *m, const char *s, const Item *it) {
  const char *close = it->text + it->len;
  int before = s == m->src ? 0 : (unsigned char)s[-1];
  int here = s < m->end ? (unsigned char)*s : 0;
  return !set_has(it->text, close, before) && set_has(it->text, close, here);
}

/* %1 .. %9: the text of a closed capture again.  A position capture never
 * matches (stock Lua compares its length, -2, as a huge size). */
static const char *backref(Matcher *m, const char *s, int digit) {
  int l = digit - '1';
  if (l < 0 || l >= m->level || m->cap[l].len == CAP_UNFINISHED)
    luaL_error(m->L, "invalid capture index %%%d", l + 1);
  ptrdiff_t len = m->cap[l].len;
  if (len == CAP_POSITION || (size_t)(m->end - s) < (size_t)len) return NULL;
  if (!same_bytes(&m->meter, m->cap[l].init, s, (size_t)len)) return NULL;
  return s + len;
}

/* Matches the items from it against the subject at s: the end of the
 * match, or NULL.  Recurses where stock Lua does (captures, quantifiers),
 * so "pattern too complex" comes at the same depth. */
static const char *match(Matcher *m, const char *s, const Item *it) {
  if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
  for (;; it++) {
    meter_add(&m->meter, 1);
    switch (it->op) {
    case OP_DONE: goto out;
    case OP_RUN:
      if ((size_t)(m->end - s) < it->len || !same_bytes(&m->meter, s, it->text, it->len)) {
        s = NULL;
        goto out;
      }
      s += it->len;
      continue;
    case OP_OPEN:
    case OP_POSITION: s = start_capture(m, s, it); goto out;
    case OP_CLOSE: s = end_capture(m, s, it); goto out;
    case OP_AT_END:
      if (s != m->end) s = NULL;
      goto out;
    case OP_BALANCE:
      s = balance(m, s, it);
      if (s == NULL) goto out;
      continue;
    case OP_FRONTIER:
      if (!frontier(m, s, it)) {
        s = NULL;
        goto out;
      }
      continue;
    case OP_BACKREF:
      s = backref(m, s, it->c);
      if (s == NULL) goto out;
      continue;
    case OP_MALFORMED:
      raise_malformed(m->L, it->c);
      s = NULL;
      goto out;
    default: break;
    }
    int ok = s < m->end && single(it, (unsigned char)*s);
    switch (it->rep) {
    case REP_ONE:
      if (!ok) {
        s = NULL;
        goto out;
      }
      s++;
      continue;
    case REP_OPT:
      if (ok) {
        const char *r = match(m, s + 1, it + 1);
        if (r != NULL) {
          s = r;
          goto out;
        }
      }
      continue;
    case REP_STAR:
      if (!ok) continue;
      s = expand_greedy(m, s, it);
      goto out;
    case REP_PLUS:
      s = ok ? expand_greedy(m, s + 1, it) : NULL;
      goto out;
    default: /* REP_LAZY */
      if (!ok) continue;
      s = expand_lazy(m, s, it);
      goto out;
    }
  }
out:
  m->depth++;
  return s;
}

/* Where a match can start, from s: when the first item must match a byte,
 * the positions before the next byte it accepts would fail at once. */
static const char *next_start(Matcher *m, const char *s, const Item *first) {
  int lead = lead_byte(first);
  if (lead >= 0) return scan_byte(&m->meter, s, m->end, lead);
  if ((first->op == OP_CLASS || first->op == OP_SET) &&
      (first->rep == REP_ONE || first->rep == REP_PLUS)) {
    while (s < m->end && !single(first, (unsigned char)*s)) {
      meter_add(&m->meter, 1);
      s++;
    }
  }
  return s;
}

/* Capture i of the match s .. e (the whole match when the pattern has no
 * captures): its length, with *at its start; or CAP_POSITION, having
 * pushed the position. */
static ptrdiff_t get_capture(Matcher *m, int i, const char *s, const char *e, const char **at) {
  if (i >= m->level) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *at = s;
    return e - s;
  }
  ptrdiff_t len = m->cap[i].len;
  *at = m->cap[i].init;
  if (len == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
  if (len == CAP_POSITION) lua_pushinteger(m->L, (m->cap[i].init - m->src) + 1);
  return len;
}

static void push_capture(Matcher *m, int i, const char *s, const char *e) {
  const char *at;
  ptrdiff_t len = get_capture(m, i, s, e, &at);
  if (len != CAP_POSITION) {
    meter_bytes(&m->meter, (size_t)len);
    lua_pushlstring(m->L, at, (size_t)len);
  }
}

/* Pushes the captures (or, with s given and none in the pattern, the
 * whole match); returns how many. */
static int push_captures(Matcher *m, const char *s, const char *e) {
  int n = (m->level == 0 && s != NULL) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

/* ------------------------------------------------ find, match, gmatch, gsub */

/* A start position argument (1-based, negative from the end) as a 1-based
 * offset clipped below at 1. */
static size_t start_index(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0 || pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

/* Whether find must use the matcher: the pattern has a magic byte. */
static int has_specials(Meter *mt, const char *p, size_t lp) {
  meter_bytes(mt, lp);
  for (size_t i = 0; i < lp; i++) {
    switch (p[i]) {
    case '^': case '$': case '*': case '+': case '?':
    case '.': case '(': case '[': case '%': case '-': return 1;
    default: break;
    }
  }
  return 0;
}

/* The first occurrence of the k bytes at needle in the n bytes at s, or
 * NULL: memchr for the first byte, then a block-wise compare. */
static const char *find_plain(Meter *mt, const char *s, size_t n, const char *needle, size_t k) {
  if (k == 0) return s;
  if (k > n) return NULL;
  const char *last = s + (n - k); /* where it can start at the latest */
  while (s <= last) {
    s = scan_byte(mt, s, last + 1, (unsigned char)needle[0]);
    if (s > last) return NULL;
    if (same_bytes(mt, s + 1, needle + 1, k - 1)) return s;
    s++;
  }
  return NULL;
}

static int find_aux(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  Matcher m;
  matcher_init(&m, L, s, ls);
  if (find && (lua_toboolean(L, 4) || !has_specials(&m.meter, p, lp))) {
    const char *at = find_plain(&m.meter, s + init, ls - init, p, lp);
    meter_flush(&m.meter);
    if (at == NULL) {
      luaL_pushfail(L);
      return 1;
    }
    lua_pushinteger(L, (at - s) + 1);
    lua_pushinteger(L, (lua_Integer)((size_t)(at - s) + lp));
    return 2;
  }
  int anchor = lp > 0 && *p == '^';
  if (anchor) {
    p++;
    lp--;
  }
  Item small[SMALL_PATTERN];
  const Item *items = compile_pattern(L, p, lp, small);
  const char *from = s + init;
  do {
    if (!anchor) from = next_start(&m, from, items);
    matcher_reset(&m);
    const char *e = match(&m, from, items);
    if (e != NULL) {
      meter_flush(&m.meter);
      if (!find) return push_captures(&m, from, e);
      lua_pushinteger(L, (from - s) + 1);
      lua_pushinteger(L, e - s);
      return push_captures(&m, NULL, NULL) + 2;
    }
  } while (from++ < m.end && !anchor);
  meter_flush(&m.meter);
  luaL_pushfail(L);
  return 1;
}

static int safe_find(lua_State *L) { return find_aux(L, 1); }

static int safe_match(lua_State *L) { return find_aux(L, 0); }

/* The state of a gmatch iterator (upvalue 3; the subject and the pattern,
 * which the items point into, are upvalues 1 and 2). */
typedef struct GMatch {
  size_t pos;  /* where the next search starts */
  size_t last; /* where the last match ended, or NO_MATCH */
  Item items[];
} GMatch;

#define NO_MATCH SIZE_MAX

static int gmatch_step(lua_State *L) {
  size_t ls;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  GMatch *gm = lua_touserdata(L, lua_upvalueindex(3));
  Matcher m;
  matcher_init(&m, L, s, ls);
  for (const char *from = s + gm->pos; from <= m.end; from++) {
    from = next_start(&m, from, gm->items);
    matcher_reset(&m);
    const char *e = match(&m, from, gm->items);
    if (e != NULL && (size_t)(e - s) != gm->last) {
      gm->pos = gm->last = (size_t)(e - s);
      meter_flush(&m.meter);
      return push_captures(&m, from, e);
    }
  }
  gm->pos = ls + 1;
  meter_flush(&m.meter);
  return 0;
}

static int safe_gmatch(lua_State *L) {
  size_t ls, lp;
  luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
  lua_settop(L, 2);
  GMatch *gm = lua_newuserdatauv(L, sizeof *gm + (lp + 1) * sizeof(Item), 0);
  gm->pos = init > ls ? ls + 1 : init;
  gm->last = NO_MATCH;
  compile(p, p + lp, gm->items);
  lua_pushcclosure(L, gmatch_step, 3);
  return 1;
}

/* gsub's replacement string for the match s .. e: '%0' .. '%9' are
 * captures, '%%' is '%'. */
static void add_template(Matcher *m, luaL_Buffer *b, const char *s, const char *e) {
  size_t l;
  const char *t = lua_tolstring(m->L, 3, &l);
  const char *end = t + l;
  meter_bytes(&m->meter, l);
  const char *pct;
  while ((pct = memchr(t, '%', (size_t)(end - t))) != NULL) {
    luaL_addlstring(b, t, (size_t)(pct - t));
    int c = (unsigned char)pct[1]; /* the string's NUL after a final '%' */
    if (c == '%') {
      luaL_addchar(b, '%');
    } else if (c == '0') {
      meter_bytes(&m->meter, (size_t)(e - s));
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (isdigit(c)) {
      const char *at;
      ptrdiff_t len = get_capture(m, c - '1', s, e, &at);
      if (len == CAP_POSITION) {
        luaL_addvalue(b);
      } else {
        meter_bytes(&m->meter, (size_t)len);
        luaL_addlstring(b, at, (size_t)len);
      }
    } else {
      luaL_error(m->L, "invalid use of '%%' in replacement string");
    }
    t = pct + 2;
  }
  luaL_addlstring(b, t, (size_t)(end - t));
}

/* Appends the replacement of the match s .. e: from the template, the
 * table (indexed by the first capture) or the function (called with the
 * captures); false or nil keeps the match. */
static void add_replacement(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int type) {
  lua_State *L = m->L;
  if (type == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = push_captures(m, s, e);
    lua_call(L, n, 1);
  } else if (type == LUA_TTABLE) {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    add_template(m, b, s, e);
    return;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  } else {
    luaL_addvalue(b);
  }
}

static int safe_gsub(lua_State *L) {
  size_t ls, lp;
  const char *src = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  int type = lua_type(L, 3);
  lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  luaL_argexpected(L,
                   type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION ||
                       type == LUA_TTABLE,
                   3, "string/function/table");
  int anchor = lp > 0 && *p == '^';
  if (anchor) {
    p++;
    lp--;
  }
  Item small[SMALL_PATTERN];
  const Item *items = compile_pattern(L, p, lp, small);
  Matcher m;
  matcher_init(&m, L, src, ls);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const char *s = src, *last = NULL;
  lua_Integer n = 0;
  while (n < max_n) {
    if (!anchor) {
      const char *q = next_start(&m, s, items);
      meter_bytes(&m.meter, (size_t)(q - s));
      luaL_addlstring(&b, s, (size_t)(q - s));
      s = q;
    }
    matcher_reset(&m);
    const char *e = match(&m, s, items);
    if (e != NULL && e != last) {
      n++;
      add_replacement(&m, &b, s, e, type);
      s = last = e;
    } else if (s < m.end) {
      luaL_addchar(&b, *s++);
    } else {
      break;
    }
    if (anchor) break;
  }
  meter_bytes(&m.meter, (size_t)(m.end - s));
  luaL_addlstring(&b, s, (size_t)(m.end - s));
  meter_flush(&m.meter);
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return 2;
}

/* The largest result of string.rep, as stock Lua (a size that fits an int). */
#define REP_MAX ((size_t)INT_MAX)

/* Copies by doubling what is already written, a chunk at a time.  n
 * copies of the empty string are the empty string at once (stock Lua
 * loops n times). */
static int safe_rep(lua_State *L) {
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || l + lsep == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  if (l + lsep < l || l + lsep > REP_MAX / (size_t)n)
    return luaL_error(L, "resulting string too large");
  size_t unit = l + lsep, total = (size_t)n * unit - lsep;
  luaL_Buffer b;
  char *out = luaL_buffinitsize(L, &b, total);
  Meter mt = {L, 0};
  memcpy(out, s, l);
  size_t done = l;
  if (n > 1) {
    memcpy(out + l, sep, lsep);
    done = unit;
  }
  /* done is a whole number of units until the last copy, and the text
   * repeats every unit bytes, so its start can be copied after it */
  while (done < total) {
    size_t step = done; /* whole units, at most a chunk (or one unit) */
    if (step > SCAN_CHUNK) step = unit > SCAN_CHUNK ? unit : SCAN_CHUNK / unit * unit;
    if (step > total - done) step = total - done;
    meter_bytes(&mt, step);
    memcpy(out + done, out, step);
    done += step;
  }
  meter_flush(&mt);
  luaL_pushresultsize(&b, total);
  return 1;
}

/* ------------------------------------------------------------ table */

/* What a table function does with its argument: read, write, take #. */
enum { TAB_R = 1, TAB_W = 2, TAB_L = 4 };

static int has_field(lua_State *L, const char *key) {
  lua_pushstring(L, key);
  int present = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 1);
  return present;
}

/* A table, or a value whose metatable has the metamethods the function
 * needs; else "table expected". */
static void check_table(lua_State *L, int arg, int what) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  if (lua_getmetatable(L, arg)) {
    int ok = (!(what & TAB_R) || has_field(L, "__index")) &&
             (!(what & TAB_W) || has_field(L, "__newindex")) &&
             (!(what & TAB_L) || has_field(L, "__len"));
    lua_pop(L, 1);
    if (ok) return;
  }
  luaL_checktype(L, arg, LUA_TTABLE);
}

static lua_Integer table_length(lua_State *L, int arg, int what) {
  check_table(L, arg, what | TAB_L);
  return luaL_len(L, arg);
}

/* t[to] = t[from] through the metamethods, charged (a read and a write). */
static void move_one(Meter *mt, int from_table, lua_Integer from, int to_table, lua_Integer to) {
  meter_add(mt, 2 * ACCESS_UNITS);
  lua_geti(mt->L, from_table, from);
  lua_seti(mt->L, to_table, to);
}

static int safe_insert(lua_State *L) {
  lua_Integer first_empty = (lua_Integer)((lua_Unsigned)table_length(L, 1, TAB_R | TAB_W) + 1u);
  lua_Integer pos;
  Meter mt = {L, 0};
  switch (lua_gettop(L)) {
  case 2: pos = first_empty; break;
  case 3:
    pos = luaL_checkinteger(L, 2);
    luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)first_empty, 2,
                  "position out of bounds");
    for (lua_Integer i = first_empty; i > pos; i--) move_one(&mt, 1, i - 1, 1, i);
    break;
  default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  meter_flush(&mt);
  lua_seti(L, 1, pos);
  return 0;
}

static int safe_remove(lua_State *L) {
  lua_Integer size = table_length(L, 1, TAB_R | TAB_W);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  Meter mt = {L, 0};
  /* Lua 5.4.4 names argument 1 in this message */
  if (pos != size)
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  lua_geti(L, 1, pos);
  for (; pos < size; pos++) move_one(&mt, 1, pos + 1, 1, pos);
  meter_flush(&mt);
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

static int safe_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int dest = lua_isnoneornil(L, 5) ? 1 : 5;
  check_table(L, 1, TAB_R);
  check_table(L, dest, TAB_W);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    lua_Integer n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    Meter mt = {L, 0};
    /* overlapping ranges in one table are copied from the far end */
    if (t > e || t <= f || (dest != 1 && !lua_compare(L, 1, dest, LUA_OPEQ))) {
      for (lua_Integer i = 0; i < n; i++) move_one(&mt, 1, f + i, dest, t + i);
    } else {
      for (lua_Integer i = n - 1; i >= 0; i--) move_one(&mt, 1, f + i, dest, t + i);
    }
    meter_flush(&mt);
  }
  lua_pushvalue(L, dest);
  return 1;
}

static void add_element(Meter *mt, luaL_Buffer *b, lua_Integer i) {
  lua_State *L = mt->L;
  lua_geti(L, 1, i);
  meter_add(mt, ACCESS_UNITS + (lua_type(L, -1) == LUA_TNUMBER ? CONVERT_UNITS : 0));
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
               (LUAI_UACINT)i);
  size_t len;
  lua_tolstring(L, -1, &len);
  meter_bytes(mt, len);
  luaL_addvalue(b);
}

static int safe_concat(lua_State *L) {
  lua_Integer last = table_length(L, 1, TAB_R);
  size_t lsep;
  const char *sep = luaL_optlstring(L, 2, "", &lsep);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  Meter mt = {L, 0};
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (; i < last; i++) {
    add_element(&mt, &b, i);
    luaL_addlstring(&b, sep, lsep);
  }
  if (i == last) add_element(&mt, &b, i);
  meter_flush(&mt);
  luaL_pushresult(&b);
  return 1;
}

/* ------------------------------------------------------------- sort */

/* table.sort: introsort (quicksort on the median of three, heapsort when
 * the partitions keep coming out lopsided, insertion sort for short
 * ranges), reading and writing the table through lua_geti/lua_seti as
 * stock Lua does: O(n log n) whatever the input. */
typedef struct Sorter {
  lua_State *L;
  int has_cmp; /* a comparison function at index 2 */
  Meter meter;
} Sorter;

/* Whether the value at stack index a (absolute) sorts before the one at b. */
static int sort_less(Sorter *st, int a, int b) {
  lua_State *L = st->L;
  meter_add(&st->meter, st->has_cmp ? CALL_UNITS : 1);
  if (!st->has_cmp) return lua_compare(L, a, b, LUA_OPLT);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a);
  lua_pushvalue(L, b);
  lua_call(L, 2, 1);
  int less = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return less;
}

static void sort_get(Sorter *st, lua_Integer i) {
  meter_add(&st->meter, ACCESS_UNITS);
  lua_geti(st->L, 1, i);
}

/* a[i] = the value on top of the stack (popped) */
static void sort_set(Sorter *st, lua_Integer i) {
  meter_add(&st->meter, ACCESS_UNITS);
  lua_seti(st->L, 1, i);
}

static int bad_order(lua_State *L) { return luaL_error(L, "invalid order function for sorting"); }

static void swap_slots(lua_State *L, int a, int b) {
  lua_pushvalue(L, a);
  lua_copy(L, b, a);
  lua_replace(L, b);
}

static void insertion_sort(Sorter *st, lua_Integer lo, lua_Integer hi) {
  lua_State *L = st->L;
  for (lua_Integer i = lo + 1; i <= hi; i++) {
    sort_get(st, i);
    int x = lua_gettop(L);
    lua_Integer j = i;
    while (j > lo) {
      sort_get(st, j - 1);
      if (!sort_less(st, x, x + 1)) {
        lua_pop(L, 1);
        break;
      }
      sort_set(st, j);
      j--;
    }
    if (j != i)
      sort_set(st, j);
    else
      lua_pop(L, 1);
  }
}

/* Partitions a[lo .. hi] (at least 4 elements) around the median of
 * a[lo], a[mid] and a[hi]; returns where the pivot ends.  a[lo] and the
 * pivot at a[hi - 1] stop the scans for any consistent order; an order
 * that lets a scan run past them is invalid. */
static lua_Integer partition(Sorter *st, lua_Integer lo, lua_Integer hi) {
  lua_State *L = st->L;
  lua_Integer mid = lo + (hi - lo) / 2;
  sort_get(st, lo);
  sort_get(st, mid);
  sort_get(st, hi);
  int a = lua_gettop(L) - 2;
  if (sort_less(st, a + 1, a)) swap_slots(L, a, a + 1);
  if (sort_less(st, a + 2, a + 1)) {
    swap_slots(L, a + 1, a + 2);
    if (sort_less(st, a + 1, a)) swap_slots(L, a, a + 1);
  }
  sort_set(st, hi); /* the largest */
  lua_pushvalue(L, a);
  sort_set(st, lo); /* the smallest */
  lua_remove(L, a); /* the pivot is left, at index a */
  int pivot = a;
  sort_get(st, hi - 1);
  sort_set(st, mid);
  lua_pushvalue(L, pivot);
  sort_set(st, hi - 1);
  lua_Integer i = lo, j = hi - 1;
  for (;;) {
    for (;;) { /* a[i] < pivot: leave it */
      sort_get(st, ++i);
      if (!sort_less(st, pivot + 1, pivot)) break;
      if (i >= hi - 1) bad_order(L);
      lua_pop(L, 1);
    }
    for (;;) { /* pivot < a[j]: leave it */
      sort_get(st, --j);
      if (!sort_less(st, pivot, pivot + 2)) break;
      if (j <= lo) bad_order(L);
      lua_pop(L, 1);
    }
    if (j <= i) {
      lua_pop(L, 2);
      break;
    }
    sort_set(st, i); /* a[i] = old a[j] */
    sort_set(st, j); /* a[j] = old a[i] */
  }
  sort_get(st, i);
  sort_set(st, hi - 1);
  sort_set(st, i); /* the pivot */
  return i;
}

/* Moves a[lo + root] down the max-heap of the n elements from lo. */
static void sift_down(Sorter *st, lua_Integer lo, lua_Integer root, lua_Integer n) {
  lua_State *L = st->L;
  sort_get(st, lo + root);
  int x = lua_gettop(L);
  for (;;) {
    lua_Integer child = 2 * root + 1;
    if (child >= n) break;
    sort_get(st, lo + child);
    if (child + 1 < n) {
      sort_get(st, lo + child + 1);
      if (sort_less(st, x + 1, x + 2)) {
        child++;
        lua_remove(L, x + 1);
      } else {
        lua_pop(L, 1);
      }
    }
    if (!sort_less(st, x, x + 1)) {
      lua_pop(L, 1);
      break;
    }
    sort_set(st, lo + root);
    root = child;
  }
  sort_set(st, lo + root);
}

static void heap_sort(Sorter *st, lua_Integer lo, lua_Integer hi) {
  lua_Integer n = hi - lo + 1;
  for (lua_Integer r = n / 2; r-- > 0;) sift_down(st, lo, r, n);
  for (lua_Integer last = n - 1; last > 0; last--) {
    sort_get(st, lo);
    sort_get(st, lo + last);
    sort_set(st, lo);
    sort_set(st, lo + last);
    sift_down(st, lo, 0, last);
  }
}

/* Sorts a[lo .. hi]; after `splits` lopsided partitions, by heapsort. */
static void sort_range(Sorter *st, lua_Integer lo, lua_Integer hi, int splits) {
  while (hi - lo >= SORT_SMALL) {
    if (splits-- == 0) {
      heap_sort(st, lo, hi);
      return;
    }
    lua_Integer p = partition(st, lo, hi);
    /* the smaller side first, by recursion: the C stack stays O(log n) */
    if (p - lo < hi - p) {
      sort_range(st, lo, p - 1, splits);
      lo = p + 1;
    } else {
      sort_range(st, p + 1, hi, splits);
      hi = p - 1;
    }
  }
  insertion_sort(st, lo, hi);
}

static int safe_sort(lua_State *L) {
  lua_Integer n = table_length(L, 1, TAB_R | TAB_W);
  if (n > 1) {
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    Sorter st = {L, !lua_isnil(L, 2), {L, 0}};
    int splits = 0;
    for (lua_Integer k = n; k > 1; k >>= 1) splits += 2;
    sort_range(&st, 1, n, splits);
    meter_flush(&st.meter);
  }
  return 0;
}

/* ----------------------------------------------------- load, collectgarbage */

/* Units a call of load's reader costs besides its bytes: about a Lua call. */
enum { READER_CALL_UNITS = 16 };

/* load's reader, around the script's one (upvalue 1), charged per call
 * with upvalue 2 keeping the units not yet charged.  A C function as
 * reader runs no VM instruction: load(os.time) read digits until the
 * memory ran out, and load(collectgarbage) ran a full collection per
 * byte of the chunk. */
static int charged_reader(lua_State *L) {
  uint64_t *pending = lua_touserdata(L, lua_upvalueindex(2));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 1);
  *pending += READER_CALL_UNITS + lua_rawlen(L, -1) / BYTES_PER_UNIT;
  if (*pending >= CHARGE_BATCH) {
    uint64_t units = *pending;
    *pending = 0;
    luma_charge(L, units);
  }
  return 1;
}

/* load (upvalue 1: the sandbox's) with a function chunk wrapped in
 * charged_reader. */
static int charged_load(lua_State *L) {
  if (lua_type(L, 1) == LUA_TFUNCTION) {
    lua_pushvalue(L, 1);
    *(uint64_t *)lua_newuserdatauv(L, sizeof(uint64_t), 0) = 0;
    lua_pushcclosure(L, charged_reader, 2);
    lua_replace(L, 1);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* Nanoseconds of a timed call per unit: near the cost of a unit
 * elsewhere, within the c of docs/RELIABILITY.md. */
enum { NS_PER_UNIT = 32 };

/* Calls the stock C function directly (its argument errors name the
 * function as before) and charges the time it took. */
static int call_charged_by_time(lua_State *L, lua_CFunction stock) {
  double start = luma_monotonic_seconds();
  int n = stock(L);
  double units = (luma_monotonic_seconds() - start) * 1e9 / NS_PER_UNIT;
  luma_charge(L, units > 0 ? (uint64_t)units : 0);
  return n;
}

/* collectgarbage (upvalue 1: stock Lua's), charged by the time it took:
 * a full collection walks the whole heap, so a loop of them ran for a
 * minute between two checks of the clock. */
static int charged_collectgarbage(lua_State *L) {
  return call_charged_by_time(L, lua_tocfunction(L, lua_upvalueindex(1)));
}

/* Strings at least this long make a scanning call's time worth a clock
 * read on either side. */
enum { LONG_STRING = 1 << 12 };

static int has_long_string(lua_State *L) {
  for (int i = lua_gettop(L); i >= 1; i--)
    if (lua_type(L, i) == LUA_TSTRING && lua_rawlen(L, i) >= LONG_STRING) return 1;
  return 0;
}

/* A stock function that scans a string without building anything
 * (upvalue 1: utf8.len, utf8.offset, tonumber, the string metatable's
 * arithmetic, which converts its operands): charged by the time it took,
 * as collectgarbage, when an argument is a long string.  Functions that
 * build a result, such as string.upper, are charged through the
 * allocator instead (state.c, refuse_big_string).  A loop of utf8.len on a
 * 128 MB string ran 66 s under a 2 s time limit. */
static int charged_scan(lua_State *L) {
  lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(1));
  return has_long_string(L) ? call_charged_by_time(L, stock) : stock(L);
}

/* Wraps the C function at field `name` of the table on top in charged_scan. */
static void wrap_field(lua_State *L, const char *name) {
  if (lua_getfield(L, -1, name) == LUA_TFUNCTION && lua_tocfunction(L, -1) != NULL) {
    lua_pushcclosure(L, charged_scan, 1);
    lua_setfield(L, -2, name);
  } else {
    lua_pop(L, 1);
  }
}

/* Replaces the global C function `name` with f, given the old one as
 * upvalue. */
static void wrap_global(lua_State *L, const char *name, lua_CFunction f) {
  lua_getglobal(L, name);
  if (lua_tocfunction(L, -1) == NULL) {
    lua_pop(L, 1);
    return;
  }
  lua_pushcclosure(L, f, 1);
  lua_setglobal(L, name);
}

/* ----------------------------------------------------------------- open */

void luma_safelib_open(lua_State *L) {
  static const luaL_Reg string_funcs[] = {{"find", safe_find},   {"match", safe_match},
                                          {"gmatch", safe_gmatch}, {"gsub", safe_gsub},
                                          {"rep", safe_rep},     {NULL, NULL}};
  static const luaL_Reg table_funcs[] = {{"insert", safe_insert}, {"remove", safe_remove},
                                         {"move", safe_move},     {"concat", safe_concat},
                                         {"sort", safe_sort},     {NULL, NULL}};
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  /* the string metatable's __index is this same table: methods too */
  if (lua_getfield(L, -1, LUA_STRLIBNAME) == LUA_TTABLE) luaL_setfuncs(L, string_funcs, 0);
  lua_pop(L, 1);
  if (lua_getfield(L, -1, LUA_TABLIBNAME) == LUA_TTABLE) luaL_setfuncs(L, table_funcs, 0);
  lua_pop(L, 2);
  wrap_global(L, "load", charged_load);
  wrap_global(L, "collectgarbage", charged_collectgarbage);
  wrap_global(L, "tonumber", charged_scan);
  if (lua_getglobal(L, LUA_UTF8LIBNAME) == LUA_TTABLE) {
    wrap_field(L, "len");
    wrap_field(L, "offset");
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    static const char *const arithmetic[] = {"__add", "__sub", "__mul", "__mod", "__pow",
                                             "__div", "__idiv", "__unm"};
    for (size_t i = 0; i < sizeof arithmetic / sizeof *arithmetic; i++)
      wrap_field(L, arithmetic[i]);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}
