/*
 * csv.c - the CSV tokenizer (see csv.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"
#include "core/numtext.h"

void luma_csv_init(luma_CsvReader *r, const char *data, size_t len, char delimiter, char comment) {
  r->p = data;
  r->end = data + len;
  r->delimiter = delimiter;
  r->comment = comment;
  r->line = 1;
  r->at_record_start = 1;
  if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) r->p += 3; /* UTF-8 byte order mark */
}

static void skip_blank_lines(luma_CsvReader *r);

char luma_csv_guess_delimiter(const char *data, size_t len, char delimiter, char comment) {
  static const char candidates[] = {',', ';', '\t', '|'};
  int64_t count[4] = {0, 0, 0, 0}, own = 0;
  luma_CsvReader r;
  luma_csv_init(&r, data, len, delimiter, comment);
  skip_blank_lines(&r);
  int quoted = 0;
  for (const char *p = r.p; p < r.end && (quoted || *p != '\n'); p++) {
    if (*p == '"') quoted = !quoted;
    if (quoted) continue;
    if (*p == delimiter) own++;
    for (int k = 0; k < 4; k++) count[k] += *p == candidates[k];
  }
  int best = -1;
  for (int k = 0; k < 4; k++)
    if (candidates[k] != delimiter && count[k] > own && (best < 0 || count[k] > count[best]))
      best = k;
  return best < 0 ? 0 : candidates[best];
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
    /* audit-loops: one quoted field's bytes, which the caller charges as it parses */
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

/* The Eisel-Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per
 * Second", Software: Practice and Experience 51(8), 2021, sec. 5-6) for
 * decimal exponents q in [-27, 55], where its 128-bit products are exact
 * enough that it never needs a fallback: POW5[q + 27] is 5^q scaled to
 * [2^127, 2^128), truncated for q >= 0 (exact there, 5^55 < 2^128) and
 * floor(2^b / 5^-q) + 1 for q < 0 (generated with Python integers). */
#define POW5_MIN (-27)
#define POW5_MAX 55
static const uint64_t POW5[POW5_MAX - POW5_MIN + 1][2] = {
    {0x9e74d1b791e07e48u, 0x775ea264cf55347eu}, /* 5^-27 */
    {0xc612062576589ddau, 0x95364afe032a819eu}, /* 5^-26 */
    {0xf79687aed3eec551u, 0x3a83ddbd83f52205u}, /* 5^-25 */
    {0x9abe14cd44753b52u, 0xc4926a9672793543u}, /* 5^-24 */
    {0xc16d9a0095928a27u, 0x75b7053c0f178294u}, /* 5^-23 */
    {0xf1c90080baf72cb1u, 0x5324c68b12dd6339u}, /* 5^-22 */
    {0x971da05074da7beeu, 0xd3f6fc16ebca5e04u}, /* 5^-21 */
    {0xbce5086492111aeau, 0x88f4bb1ca6bcf585u}, /* 5^-20 */
    {0xec1e4a7db69561a5u, 0x2b31e9e3d06c32e6u}, /* 5^-19 */
    {0x9392ee8e921d5d07u, 0x3aff322e62439fd0u}, /* 5^-18 */
    {0xb877aa3236a4b449u, 0x09befeb9fad487c3u}, /* 5^-17 */
    {0xe69594bec44de15bu, 0x4c2ebe687989a9b4u}, /* 5^-16 */
    {0x901d7cf73ab0acd9u, 0x0f9d37014bf60a11u}, /* 5^-15 */
    {0xb424dc35095cd80fu, 0x538484c19ef38c95u}, /* 5^-14 */
    {0xe12e13424bb40e13u, 0x2865a5f206b06fbau}, /* 5^-13 */
    {0x8cbccc096f5088cbu, 0xf93f87b7442e45d4u}, /* 5^-12 */
    {0xafebff0bcb24aafeu, 0xf78f69a51539d749u}, /* 5^-11 */
    {0xdbe6fecebdedd5beu, 0xb573440e5a884d1cu}, /* 5^-10 */
    {0x89705f4136b4a597u, 0x31680a88f8953031u}, /* 5^-9 */
    {0xabcc77118461cefcu, 0xfdc20d2b36ba7c3eu}, /* 5^-8 */
    {0xd6bf94d5e57a42bcu, 0x3d32907604691b4du}, /* 5^-7 */
    {0x8637bd05af6c69b5u, 0xa63f9a49c2c1b110u}, /* 5^-6 */
    {0xa7c5ac471b478423u, 0x0fcf80dc33721d54u}, /* 5^-5 */
    {0xd1b71758e219652bu, 0xd3c36113404ea4a9u}, /* 5^-4 */
    {0x83126e978d4fdf3bu, 0x645a1cac083126eau}, /* 5^-3 */
    {0xa3d70a3d70a3d70au, 0x3d70a3d70a3d70a4u}, /* 5^-2 */
    {0xccccccccccccccccu, 0xcccccccccccccccdu}, /* 5^-1 */
    {0x8000000000000000u, 0x0000000000000000u}, /* 5^0 */
    {0xa000000000000000u, 0x0000000000000000u}, /* 5^1 */
    {0xc800000000000000u, 0x0000000000000000u}, /* 5^2 */
    {0xfa00000000000000u, 0x0000000000000000u}, /* 5^3 */
    {0x9c40000000000000u, 0x0000000000000000u}, /* 5^4 */
    {0xc350000000000000u, 0x0000000000000000u}, /* 5^5 */
    {0xf424000000000000u, 0x0000000000000000u}, /* 5^6 */
    {0x9896800000000000u, 0x0000000000000000u}, /* 5^7 */
    {0xbebc200000000000u, 0x0000000000000000u}, /* 5^8 */
    {0xee6b280000000000u, 0x0000000000000000u}, /* 5^9 */
    {0x9502f90000000000u, 0x0000000000000000u}, /* 5^10 */
    {0xba43b74000000000u, 0x0000000000000000u}, /* 5^11 */
    {0xe8d4a51000000000u, 0x0000000000000000u}, /* 5^12 */
    {0x9184e72a00000000u, 0x0000000000000000u}, /* 5^13 */
    {0xb5e620f480000000u, 0x0000000000000000u}, /* 5^14 */
    {0xe35fa931a0000000u, 0x0000000000000000u}, /* 5^15 */
    {0x8e1bc9bf04000000u, 0x0000000000000000u}, /* 5^16 */
    {0xb1a2bc2ec5000000u, 0x0000000000000000u}, /* 5^17 */
    {0xde0b6b3a76400000u, 0x0000000000000000u}, /* 5^18 */
    {0x8ac7230489e80000u, 0x0000000000000000u}, /* 5^19 */
    {0xad78ebc5ac620000u, 0x0000000000000000u}, /* 5^20 */
    {0xd8d726b7177a8000u, 0x0000000000000000u}, /* 5^21 */
    {0x878678326eac9000u, 0x0000000000000000u}, /* 5^22 */
    {0xa968163f0a57b400u, 0x0000000000000000u}, /* 5^23 */
    {0xd3c21bcecceda100u, 0x0000000000000000u}, /* 5^24 */
    {0x84595161401484a0u, 0x0000000000000000u}, /* 5^25 */
    {0xa56fa5b99019a5c8u, 0x0000000000000000u}, /* 5^26 */
    {0xcecb8f27f4200f3au, 0x0000000000000000u}, /* 5^27 */
    {0x813f3978f8940984u, 0x4000000000000000u}, /* 5^28 */
    {0xa18f07d736b90be5u, 0x5000000000000000u}, /* 5^29 */
    {0xc9f2c9cd04674edeu, 0xa400000000000000u}, /* 5^30 */
    {0xfc6f7c4045812296u, 0x4d00000000000000u}, /* 5^31 */
    {0x9dc5ada82b70b59du, 0xf020000000000000u}, /* 5^32 */
    {0xc5371912364ce305u, 0x6c28000000000000u}, /* 5^33 */
    {0xf684df56c3e01bc6u, 0xc732000000000000u}, /* 5^34 */
    {0x9a130b963a6c115cu, 0x3c7f400000000000u}, /* 5^35 */
    {0xc097ce7bc90715b3u, 0x4b9f100000000000u}, /* 5^36 */
    {0xf0bdc21abb48db20u, 0x1e86d40000000000u}, /* 5^37 */
    {0x96769950b50d88f4u, 0x1314448000000000u}, /* 5^38 */
    {0xbc143fa4e250eb31u, 0x17d955a000000000u}, /* 5^39 */
    {0xeb194f8e1ae525fdu, 0x5dcfab0800000000u}, /* 5^40 */
    {0x92efd1b8d0cf37beu, 0x5aa1cae500000000u}, /* 5^41 */
    {0xb7abc627050305adu, 0xf14a3d9e40000000u}, /* 5^42 */
    {0xe596b7b0c643c719u, 0x6d9ccd05d0000000u}, /* 5^43 */
    {0x8f7e32ce7bea5c6fu, 0xe4820023a2000000u}, /* 5^44 */
    {0xb35dbf821ae4f38bu, 0xdda2802c8a800000u}, /* 5^45 */
    {0xe0352f62a19e306eu, 0xd50b2037ad200000u}, /* 5^46 */
    {0x8c213d9da502de45u, 0x4526f422cc340000u}, /* 5^47 */
    {0xaf298d050e4395d6u, 0x9670b12b7f410000u}, /* 5^48 */
    {0xdaf3f04651d47b4cu, 0x3c0cdd765f114000u}, /* 5^49 */
    {0x88d8762bf324cd0fu, 0xa5880a69fb6ac800u}, /* 5^50 */
    {0xab0e93b6efee0053u, 0x8eea0d047a457a00u}, /* 5^51 */
    {0xd5d238a4abe98068u, 0x72a4904598d6d880u}, /* 5^52 */
    {0x85a36366eb71f041u, 0x47a6da2b7f864750u}, /* 5^53 */
    {0xa70c3c40a64e6c51u, 0x999090b65f67d924u}, /* 5^54 */
    {0xd0cf4b50cfe20765u, 0xfff4b4e3f741cf6du}, /* 5^55 */
};

__extension__ typedef unsigned __int128 u128;

/* w * 10^q correctly rounded, w > 0 and q in [POW5_MIN, POW5_MAX]. */
static double eisel_lemire(uint64_t w, int q) {
  int lz = __builtin_clzll(w);
  w <<= lz;
  const uint64_t *p5 = POW5[q - POW5_MIN];
  u128 first = (u128)w * p5[0];
  uint64_t hi = (uint64_t)(first >> 64), lo = (uint64_t)first;
  if ((hi & 0x1FF) == 0x1FF) { /* the low word may carry into the 55 bits kept */
    uint64_t second_hi = (uint64_t)(((u128)w * p5[1]) >> 64);
    lo += second_hi;
    if (second_hi > lo) hi++;
  }
  int upperbit = (int)(hi >> 63);
  uint64_t mantissa = hi >> (upperbit + 9);
  /* floor(q * log2(10)) + 63 (217706 / 2^16 approximates log2(10)); the
   * division floors for negative q as the arithmetic shift would. */
  int64_t scaled = (int64_t)q * 217706;
  int64_t power = (scaled >= 0 ? scaled / 65536 : -((-scaled + 65535) / 65536)) + 63;
  int64_t power2 = power + upperbit - lz + 1023;
  /* an exact tie between two doubles rounds to even */
  if (lo <= 1 && q >= -4 && q <= 23 && (mantissa & 3) == 1 &&
      (mantissa << (upperbit + 9)) == hi)
    mantissa &= ~(uint64_t)1;
  mantissa += mantissa & 1;
  mantissa >>= 1;
  if (mantissa >= ((uint64_t)2 << 52)) {
    mantissa = (uint64_t)1 << 52;
    power2++;
  }
  mantissa &= ~((uint64_t)1 << 52);
  uint64_t bits = mantissa | ((uint64_t)power2 << 52);
  double out;
  memcpy(&out, &bits, sizeof out);
  return out;
}

/* The number strtod finds in text[0..len) (a terminator follows the
 * field): the slow path for what the fast one does not take. */
static int slow_number(const char *text, size_t len, double *out) {
  /* strtod stops at the delimiter, quote or line end after the field (the
   * caller guarantees a terminator after the data); hexadecimal floats
   * ("0x1p3") are not what a CSV writer means. */
  char *end;
  double v = luma_strtod_c(text, &end);
  if (end != text + len || memchr(text, 'x', len) || memchr(text, 'X', len)) return 0;
  *out = v;
  return 1;
}

int luma_csv_number(const char *text, size_t len, double *out) {
  while (len > 0 && (*text == ' ' || *text == '\t')) text++, len--;
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
  if (len == 0) return 0;
  /* Fast path: [+-]digits[.digits][(e|E)[+-]digits] with at most 19
   * significant digits and a decimal exponent Eisel-Lemire covers. */
  const char *p = text, *end = text + len;
  int negative = *p == '-';
  if (*p == '-' || *p == '+') p++;
  uint64_t w = 0;
  int digits = 0, seen = 0;
  int64_t q = 0;
  while (p < end && *p == '0') p++, seen = 1;
  while (p < end && (unsigned)(*p - '0') < 10) {
    if (digits < 19) w = w * 10 + (uint64_t)(*p - '0');
    else q++;
    digits++;
    p++, seen = 1;
  }
  if (p < end && *p == '.') {
    p++;
    if (digits == 0)
      while (p < end && *p == '0') p++, q--, seen = 1;
    while (p < end && (unsigned)(*p - '0') < 10) {
      if (digits < 19) {
        w = w * 10 + (uint64_t)(*p - '0');
        q--;
      }
      digits++;
      p++, seen = 1;
    }
  }
  if (!seen) return slow_number(text, len, out); /* inf, nan or not a number */
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    int eneg = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+')) p++;
    if (p == end) return 0;
    int64_t e = 0;
    while (p < end && (unsigned)(*p - '0') < 10) {
      if (e < 100000) e = e * 10 + (*p - '0');
      p++;
    }
    q += eneg ? -e : e;
  }
  if (p != end) return slow_number(text, len, out);
  if (digits > 19) return slow_number(text, len, out); /* digits beyond w's precision */
  if (w == 0) {
    *out = negative ? -0.0 : 0.0;
    return 1;
  }
  if (q < POW5_MIN || q > POW5_MAX) return slow_number(text, len, out);
  double v = eisel_lemire(w, (int)q);
  *out = negative ? -v : v;
  return 1;
}

/* Orders distinct strings byte-wise (a shorter prefix first). */
static int compare_texts(const void *a, const void *b) {
  const luma_CsvText *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->text, y->text, n);
  if (c != 0) return c;
  return (x->len > y->len) - (x->len < y->len);
}

static uint64_t hash_text(const char *s, size_t len) {
  uint64_t h = 1469598103934665603u; /* FNV-1a 64 */
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

int64_t luma_csv_categorize(luma_Threads *t, const luma_CsvText *fields, int64_t n, int64_t *slots,
                            int64_t nslots, luma_CsvText *distinct, double *codes) {
  luma_WorkBatch work = {t, (uint64_t)nslots};
  for (int64_t s = 0; s < nslots; s++) slots[s] = -1;
  int64_t k = 0;
  uint64_t mask = (uint64_t)nslots - 1;
  for (int64_t i = 0; i < n; i++) { /* provisional codes in order of appearance */
    const luma_CsvText *f = &fields[i];
    if (luma_work_add(&work, 16 + (f->text ? 2 * (uint64_t)f->len : 0))) return -1;
    if (f->text == NULL) {
      codes[i] = NAN;
      continue;
    }
    uint64_t h = hash_text(f->text, f->len) & mask;
    /* audit-loops: a linear probe of a table at most half full: O(1) expected steps */
    for (;; h = (h + 1) & mask) {
      int64_t c = slots[h];
      if (c < 0) {
        slots[h] = k;
        distinct[k] = *f;
        distinct[k].code = k;
        codes[i] = (double)k++;
        break;
      }
      if (distinct[c].len == f->len && memcmp(distinct[c].text, f->text, f->len) == 0) {
        codes[i] = (double)c;
        break;
      }
    }
  }
  /* the sort cannot stop once started: its estimate is charged first */
  uint64_t depth = 1;
  while (depth < 64 && ((uint64_t)1 << depth) < (uint64_t)k) depth++;
  if (luma_work_charge(t, work.pending + (uint64_t)k * depth * 8 + 2 * (uint64_t)n) !=
      LUMA_LOOP_DONE)
    return -1;
  qsort(distinct, (size_t)k, sizeof *distinct, compare_texts);
  /* slots[provisional] = final 1-based code */
  for (int64_t c = 0; c < k; c++) slots[distinct[c].code] = c + 1;
  for (int64_t i = 0; i < n; i++)
    if (codes[i] == codes[i]) codes[i] = (double)slots[(int64_t)codes[i]];
  return k;
}
