/*
 * rnn.c - the fused step of the recurrent cells (rnn.h).
 *
 * Row by row: a row is one sample, its H columns of each gate read once,
 * its state written once.  The derivatives are those of the equations in
 * rnn.h: s' = s (1 - s), tanh' = 1 - tanh^2, relu'(0) = 0 (PyTorch's).
 * SPDX-License-Identifier: MIT
 */
#include "nn/rnn.h"

#include <math.h>

#include "core/vecmath.h"

int luma_rnn_gates(luma_RnnKind kind) {
  switch (kind) {
  case LUMA_RNN_GRU: return 3;
  case LUMA_RNN_LSTM: return 4;
  default: return 1;
  }
}

/* Units are done in chunks of CHUNK a row: each chunk's gate
 * pre-activations are gathered into contiguous buffers on the stack, so
 * the sigmoids and tanhs run through libmvec's vector exp and tanh
 * (vecmath.h: within 4 ulp) rather than one libm call an element, which
 * took most of a step's time. */
#define CHUNK 64

/* a[k] = s(a[k]) = 1 / (1 + exp(-a[k])) for k < w. */
static void sigmoid_chunk(double *a, int64_t w) {
  for (int64_t k = 0; k < w; k++) a[k] = -a[k];
  luma_vec_apply(LUMA_VEC_EXP, a, a, w);
  for (int64_t k = 0; k < w; k++) a[k] = 1 / (1 + a[k]);
}

static void tanh_chunk(double *a, int64_t w) { luma_vec_apply(LUMA_VEC_TANH, a, a, w); }

/* buf[k] = gi[i, g H + j0 + k] + gh[i, g H + j0 + k] for k < w. */
static void gather(double *buf, const luma_Mat *gi, const luma_Mat *gh, int64_t i, int64_t col,
                   int64_t w) {
  for (int64_t k = 0; k < w; k++) buf[k] = LUMA_AT(gi, i, col + k) + LUMA_AT(gh, i, col + k);
}

/* Whether row i is active (no mask: all are). */
static int active(const luma_Mat *mask, int64_t i) { return !mask || LUMA_AT(mask, i, 0) != 0; }

static void forward_chunk(luma_RnnKind kind, const luma_Mat *gi, const luma_Mat *gh,
                          const luma_Mat *h, const luma_Mat *c, int on, luma_Mat *out,
                          luma_Mat *acts, int64_t i, int64_t j0, int64_t w) {
  const int64_t H = h->cols;
  double a[4][CHUNK], t[CHUNK];
  switch (kind) {
  case LUMA_RNN_TANH:
  case LUMA_RNN_RELU:
    gather(a[0], gi, gh, i, j0, w);
    if (kind == LUMA_RNN_TANH) tanh_chunk(a[0], w);
    else
      for (int64_t k = 0; k < w; k++) a[0][k] = a[0][k] > 0 ? a[0][k] : 0;
    for (int64_t k = 0; k < w; k++) LUMA_AT(out, i, j0 + k) = on ? a[0][k] : LUMA_AT(h, i, j0 + k);
    break;
  case LUMA_RNN_GRU:
    gather(a[0], gi, gh, i, j0, w);
    gather(a[1], gi, gh, i, H + j0, w);
    sigmoid_chunk(a[0], w);
    sigmoid_chunk(a[1], w);
    for (int64_t k = 0; k < w; k++)
      a[2][k] = LUMA_AT(gi, i, 2 * H + j0 + k) + a[0][k] * LUMA_AT(gh, i, 2 * H + j0 + k);
    tanh_chunk(a[2], w);
    for (int64_t k = 0; k < w; k++) {
      const int64_t j = j0 + k;
      double r = a[0][k], z = a[1][k], nn = a[2][k], hp = LUMA_AT(h, i, j);
      LUMA_AT(acts, i, j) = r;
      LUMA_AT(acts, i, H + j) = z;
      LUMA_AT(acts, i, 2 * H + j) = nn;
      LUMA_AT(out, i, j) = on ? (1 - z) * nn + z * hp : hp;
    }
    break;
  case LUMA_RNN_LSTM:
    for (int g = 0; g < 4; g++) gather(a[g], gi, gh, i, g * H + j0, w);
    sigmoid_chunk(a[0], w);
    sigmoid_chunk(a[1], w);
    tanh_chunk(a[2], w);
    sigmoid_chunk(a[3], w);
    for (int64_t k = 0; k < w; k++) t[k] = a[1][k] * LUMA_AT(c, i, j0 + k) + a[0][k] * a[2][k];
    for (int g = 0; g < 4; g++)
      for (int64_t k = 0; k < w; k++) LUMA_AT(acts, i, g * H + j0 + k) = a[g][k];
    for (int64_t k = 0; k < w; k++) LUMA_AT(out, i, H + j0 + k) = on ? t[k] : LUMA_AT(c, i, j0 + k);
    tanh_chunk(t, w);
    for (int64_t k = 0; k < w; k++)
      LUMA_AT(out, i, j0 + k) = on ? a[3][k] * t[k] : LUMA_AT(h, i, j0 + k);
    break;
  }
}

void luma_rnn_forward(luma_RnnKind kind, const luma_Mat *gi, const luma_Mat *gh,
                      const luma_Mat *h, const luma_Mat *c, const luma_Mat *mask,
                      luma_Mat *out, luma_Mat *acts) {
  const int64_t n = h->rows, H = h->cols;
  for (int64_t i = 0; i < n; i++) {
    const int on = active(mask, i);
    for (int64_t j0 = 0; j0 < H; j0 += CHUNK)
      forward_chunk(kind, gi, gh, h, c, on, out, acts, i, j0, H - j0 < CHUNK ? H - j0 : CHUNK);
  }
}

void luma_rnn_backward(luma_RnnKind kind, const luma_Mat *gout, const luma_Mat *gi,
                       const luma_Mat *gh, const luma_Mat *h, const luma_Mat *c,
                       const luma_Mat *mask, const luma_Mat *out, const luma_Mat *acts,
                       luma_Mat *dgi, luma_Mat *dgh, luma_Mat *dh, luma_Mat *dc) {
  const int64_t n = h->rows, H = h->cols;
  const int G = luma_rnn_gates(kind);
  for (int64_t i = 0; i < n; i++) {
    if (!active(mask, i)) { /* the state passed through: so does its gradient */
      for (int64_t j = 0; j < H; j++) {
        LUMA_AT(dh, i, j) = LUMA_AT(gout, i, j);
        if (dc) LUMA_AT(dc, i, j) = LUMA_AT(gout, i, H + j);
      }
      for (int64_t j = 0; j < G * H; j++) {
        LUMA_AT(dgi, i, j) = 0;
        if (dgh) LUMA_AT(dgh, i, j) = 0;
      }
      continue;
    }
    for (int64_t j0 = 0; j0 < H; j0 += CHUNK) {
      const int64_t w = H - j0 < CHUNK ? H - j0 : CHUNK;
      double tcs[CHUNK]; /* the LSTM's tanh(c') */
      if (kind == LUMA_RNN_LSTM) {
        for (int64_t k = 0; k < w; k++) tcs[k] = LUMA_AT(out, i, H + j0 + k);
        tanh_chunk(tcs, w);
      }
      for (int64_t j = j0; j < j0 + w; j++) {
        const double g = LUMA_AT(gout, i, j);
        switch (kind) {
        case LUMA_RNN_TANH:
        case LUMA_RNN_RELU: {
          /* relu'(a) from the pre-activation a (0 at a = 0, PyTorch's) */
          double y = LUMA_AT(out, i, j), a = LUMA_AT(gi, i, j) + LUMA_AT(gh, i, j);
          LUMA_AT(dgi, i, j) = kind == LUMA_RNN_TANH ? g * (1 - y * y) : (a > 0 ? g : 0);
          if (dh) LUMA_AT(dh, i, j) = 0;
          break;
        }
        case LUMA_RNN_GRU: {
          double r = LUMA_AT(acts, i, j), z = LUMA_AT(acts, i, H + j);
          double nn = LUMA_AT(acts, i, 2 * H + j), hp = LUMA_AT(h, i, j);
          double dn = g * (1 - z) * (1 - nn * nn);                 /* at n's pre-activation */
          double dr = dn * LUMA_AT(gh, i, 2 * H + j) * r * (1 - r); /* at r's */
          double dz = g * (hp - nn) * z * (1 - z);                 /* at z's */
          LUMA_AT(dgi, i, j) = dr;
          LUMA_AT(dgi, i, H + j) = dz;
          LUMA_AT(dgi, i, 2 * H + j) = dn;
          LUMA_AT(dgh, i, j) = dr;
          LUMA_AT(dgh, i, H + j) = dz;
          LUMA_AT(dgh, i, 2 * H + j) = dn * r;
          LUMA_AT(dh, i, j) = g * z;
          break;
        }
        case LUMA_RNN_LSTM: {
          double ig = LUMA_AT(acts, i, j), fg = LUMA_AT(acts, i, H + j);
          double gg = LUMA_AT(acts, i, 2 * H + j), og = LUMA_AT(acts, i, 3 * H + j);
          double tc = tcs[j - j0];
          /* c' reaches the loss through h' = o tanh(c') and directly */
          double dcn = LUMA_AT(gout, i, H + j) + g * og * (1 - tc * tc);
          LUMA_AT(dgi, i, j) = dcn * gg * ig * (1 - ig);
          LUMA_AT(dgi, i, H + j) = dcn * LUMA_AT(c, i, j) * fg * (1 - fg);
          LUMA_AT(dgi, i, 2 * H + j) = dcn * ig * (1 - gg * gg);
          LUMA_AT(dgi, i, 3 * H + j) = g * tc * og * (1 - og);
          LUMA_AT(dc, i, j) = dcn * fg;
          if (dh) LUMA_AT(dh, i, j) = 0;
          break;
        }
        }
      }
    }
    if (dgh && kind != LUMA_RNN_GRU)
      for (int64_t j = 0; j < G * H; j++) LUMA_AT(dgh, i, j) = LUMA_AT(dgi, i, j);
  }
}
