/*
 * factor.c - discrete factor products, marginals and reductions (see
 * factor.h for the layout and the odometer).
 * SPDX-License-Identifier: MIT
 */
#include "pgm/factor.h"

#include <math.h>

/* The stride of variable v in f, or 0 if f does not have it. */
static int64_t stride_of(const luma_PgmFactor *f, int64_t v) {
  int64_t s = 1;
  for (int j = f->nv - 1; j >= 0; j--) {
    if (f->vars[j] == v) return s;
    s *= f->card[j];
  }
  return 0;
}

static double apply(luma_PgmOp op, double x, double y) {
  switch (op) {
  case LUMA_PGM_MUL: return x * y;
  case LUMA_PGM_DIV: return y == 0 ? 0 : x / y;
  case LUMA_PGM_ADD: return x + y;
  default: return y == -INFINITY ? -INFINITY : x - y;
  }
}

luma_LoopStatus luma_pgm_combine(luma_Threads *t, const luma_PgmFactor *a,
                                 const luma_PgmFactor *b, luma_PgmFactor *out, luma_PgmOp op) {
  const int nv = out->nv;
  int64_t sa[LUMA_PGM_MAX_VARS], sb[LUMA_PGM_MAX_VARS], at[LUMA_PGM_MAX_VARS];
  for (int j = 0; j < nv; j++) {
    sa[j] = stride_of(a, out->vars[j]);
    sb[j] = stride_of(b, out->vars[j]);
    at[j] = 0;
  }
  luma_WorkBatch w = {t, 0};
  int64_t ia = 0, ib = 0;
  for (int64_t i = 0; i < out->size; i++) {
    if ((i & 1023) == 0 && luma_work_add(&w, 1024 * (uint64_t)(nv + 1))) return luma_work_status(t);
    out->val[i] = apply(op, a->val[ia], b->val[ib]);
    for (int j = nv - 1; j >= 0; j--) {
      ia += sa[j];
      ib += sb[j];
      if (++at[j] < out->card[j]) break;
      ia -= sa[j] * out->card[j];
      ib -= sb[j] * out->card[j];
      at[j] = 0;
    }
  }
  luma_work_flush(&w);
  return luma_work_status(t);
}

luma_LoopStatus luma_pgm_marginal(luma_Threads *t, const luma_PgmFactor *a, luma_PgmFactor *out,
                                  luma_PgmMode mode, double *scratch) {
  const int nv = a->nv;
  int64_t so[LUMA_PGM_MAX_VARS], at[LUMA_PGM_MAX_VARS];
  for (int j = 0; j < nv; j++) {
    so[j] = stride_of(out, a->vars[j]);
    at[j] = 0;
  }
  double *best = mode == LUMA_PGM_LOGSUM ? scratch : out->val;
  const double start = mode == LUMA_PGM_SUM ? 0 : -INFINITY;
  for (int64_t i = 0; i < out->size; i++) best[i] = start;
  /* Log-sum-exp takes two passes: the maxima, then sum exp(x - max). */
  const int passes = mode == LUMA_PGM_LOGSUM ? 2 : 1;
  luma_WorkBatch w = {t, 0};
  for (int pass = 0; pass < passes; pass++) {
    if (pass == 1)
      for (int64_t i = 0; i < out->size; i++) out->val[i] = 0;
    int64_t io = 0;
    for (int64_t i = 0; i < a->size; i++) {
      if ((i & 1023) == 0 && luma_work_add(&w, 1024 * (uint64_t)(nv + 1)))
        return luma_work_status(t);
      const double x = a->val[i];
      if (mode == LUMA_PGM_SUM) out->val[io] += x;
      else if (pass == 0) {
        if (x > best[io]) best[io] = x;
      } else if (best[io] > -INFINITY) {
        out->val[io] += exp(x - best[io]);
      }
      for (int j = nv - 1; j >= 0; j--) {
        io += so[j];
        if (++at[j] < a->card[j]) break;
        io -= so[j] * a->card[j];
        at[j] = 0;
      }
    }
  }
  if (mode == LUMA_PGM_LOGSUM)
    for (int64_t i = 0; i < out->size; i++)
      out->val[i] = best[i] > -INFINITY ? best[i] + log(out->val[i]) : -INFINITY;
  luma_work_flush(&w);
  return luma_work_status(t);
}

luma_LoopStatus luma_pgm_reduce(luma_Threads *t, const luma_PgmFactor *a, const int *fixed,
                                const int64_t *state, luma_PgmFactor *out) {
  int64_t stride[LUMA_PGM_MAX_VARS], at[LUMA_PGM_MAX_VARS], card[LUMA_PGM_MAX_VARS];
  int64_t base = 0, s = 1;
  int n = 0;
  for (int j = a->nv - 1; j >= 0; j--) {
    if (fixed[j]) base += state[j] * s;
    s *= a->card[j];
  }
  s = 1;
  int64_t all[LUMA_PGM_MAX_VARS];
  for (int j = a->nv - 1; j >= 0; j--) {
    all[j] = s;
    s *= a->card[j];
  }
  for (int j = 0; j < a->nv; j++)
    if (!fixed[j]) {
      stride[n] = all[j];
      card[n] = a->card[j];
      at[n] = 0;
      n++;
    }
  luma_WorkBatch w = {t, 0};
  int64_t ia = base;
  for (int64_t i = 0; i < out->size; i++) {
    if ((i & 1023) == 0 && luma_work_add(&w, 1024 * (uint64_t)(n + 1))) return luma_work_status(t);
    out->val[i] = a->val[ia];
    for (int j = n - 1; j >= 0; j--) {
      ia += stride[j];
      if (++at[j] < card[j]) break;
      ia -= stride[j] * card[j];
      at[j] = 0;
    }
  }
  luma_work_flush(&w);
  return luma_work_status(t);
}
