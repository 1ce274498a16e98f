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

int luma_rnn_gates(luma_RnnKind kind) {
  switch (kind) {
  case LUMA_RNN_GRU: return 3;
  case LUMA_RNN_LSTM: return 4;
  default: return 1;
  }
}

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* Whether row i is active (no mask: all are). */
static int active(const luma_Mat *mask, int64_t i) { return !mask || LUMA_AT(mask, i, 0) != 0; }

void luma_rnn_forward(luma_RnnKind kind, const luma_Mat *gi, const luma_Mat *gh,
                      const luma_Mat *h, const luma_Mat *c, const luma_Mat *mask,
                      luma_Mat *out, luma_Mat *acts) {
  const int64_t n = h->rows, H = h->cols;
  for (int64_t i = 0; i < n; i++) {
    const int on = active(mask, i);
    for (int64_t j = 0; j < H; j++) {
      switch (kind) {
      case LUMA_RNN_TANH:
      case LUMA_RNN_RELU: {
        double a = LUMA_AT(gi, i, j) + LUMA_AT(gh, i, j);
        double y = kind == LUMA_RNN_TANH ? tanh(a) : (a > 0 ? a : 0);
        LUMA_AT(out, i, j) = on ? y : LUMA_AT(h, i, j);
        break;
      }
      case LUMA_RNN_GRU: {
        double r = sigmoid(LUMA_AT(gi, i, j) + LUMA_AT(gh, i, j));
        double z = sigmoid(LUMA_AT(gi, i, H + j) + LUMA_AT(gh, i, H + j));
        double nn = tanh(LUMA_AT(gi, i, 2 * H + j) + r * LUMA_AT(gh, i, 2 * H + j));
        double hp = LUMA_AT(h, i, j);
        LUMA_AT(acts, i, j) = r;
        LUMA_AT(acts, i, H + j) = z;
        LUMA_AT(acts, i, 2 * H + j) = nn;
        LUMA_AT(out, i, j) = on ? (1 - z) * nn + z * hp : hp;
        break;
      }
      case LUMA_RNN_LSTM: {
        double ig = sigmoid(LUMA_AT(gi, i, j) + LUMA_AT(gh, i, j));
        double fg = sigmoid(LUMA_AT(gi, i, H + j) + LUMA_AT(gh, i, H + j));
        double gg = tanh(LUMA_AT(gi, i, 2 * H + j) + LUMA_AT(gh, i, 2 * H + j));
        double og = sigmoid(LUMA_AT(gi, i, 3 * H + j) + LUMA_AT(gh, i, 3 * H + j));
        double cn = fg * LUMA_AT(c, i, j) + ig * gg;
        LUMA_AT(acts, i, j) = ig;
        LUMA_AT(acts, i, H + j) = fg;
        LUMA_AT(acts, i, 2 * H + j) = gg;
        LUMA_AT(acts, i, 3 * H + j) = og;
        LUMA_AT(out, i, j) = on ? og * tanh(cn) : LUMA_AT(h, i, j);
        LUMA_AT(out, i, H + j) = on ? cn : LUMA_AT(c, i, j);
        break;
      }
      }
    }
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
    for (int64_t j = 0; j < H; j++) {
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
        double tc = tanh(LUMA_AT(out, i, H + j));
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
    if (dgh && kind != LUMA_RNN_GRU)
      for (int64_t j = 0; j < G * H; j++) LUMA_AT(dgh, i, j) = LUMA_AT(dgi, i, j);
  }
}
