/*
 * rnn.h - the fused element-wise step of a recurrent cell (no Lua): from
 * the gate pre-activations gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh
 * (two dgemms, done by the caller) to the new state, and back, in one
 * pass over the rows each way, where a chain of whole-matrix operations
 * would make ten or more temporaries a step.
 *
 * The equations are PyTorch's (docs/NN.md, "Recurrent networks"):
 *   RNN (Elman 1990):   h' = act(gi + gh), act tanh or relu
 *   GRU (Cho et al. 2014, v3):  r = s(gi_r + gh_r), z = s(gi_z + gh_z),
 *       n = tanh(gi_n + r * gh_n), h' = (1 - z) * n + z * h
 *   LSTM (Hochreiter & Schmidhuber 1997, forget gate of Gers, Schmidhuber
 *       & Cummins 2000):  [i f g o] = gi + gh, i, f, o through the
 *       sigmoid s, g through tanh, c' = f * c + i * g, h' = o * tanh(c')
 * with the gates stacked in that order along the columns (gates x hidden).
 * A row whose mask is 0 (a sequence past its length) keeps its state:
 * h' = h (and c' = c), and its gradient passes straight through.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NN_RNN_H
#define LUMA_ML_NN_RNN_H

#include "core/matrix.h"

typedef enum luma_RnnKind {
  LUMA_RNN_TANH, /* 1 gate */
  LUMA_RNN_RELU, /* 1 gate */
  LUMA_RNN_GRU,  /* 3 gates: r, z, n */
  LUMA_RNN_LSTM  /* 4 gates: i, f, g, o */
} luma_RnnKind;

/* The number of gates (blocks of hidden columns) of gi and gh. */
int luma_rnn_gates(luma_RnnKind kind);

/* One step forward.  gi, gh: n x (gates H); h: n x H; c: n x H (LSTM,
 * else NULL); mask: n x 1 or NULL (all rows active).  Writes out: n x H,
 * the new h (LSTM: n x 2H, [h' c']), and acts (GRU: n x 3H, [r z n];
 * LSTM: n x 4H, [i f g o] after their nonlinearities; NULL otherwise).
 * Any strides; out and acts share no memory with the inputs. */
void luma_rnn_forward(luma_RnnKind kind, const luma_Mat *gi, const luma_Mat *gh,
                      const luma_Mat *h, const luma_Mat *c, const luma_Mat *mask,
                      luma_Mat *out, luma_Mat *acts);

/* One step backward from gout, the gradient at out (forward's shape), with
 * forward's inputs, out and acts.  Writes dgi (n x gates H), dgh (GRU
 * only: its n gate differs from dgi's; for the others dgh equals dgi and
 * may be NULL), dh (n x H; may be NULL for RNN and LSTM without a mask,
 * where h reaches the step only through gh) and dc (LSTM, else NULL). */
void luma_rnn_backward(luma_RnnKind kind, const luma_Mat *gout, const luma_Mat *gi,
                       const luma_Mat *gh, const luma_Mat *h, const luma_Mat *c,
                       const luma_Mat *mask, const luma_Mat *out, const luma_Mat *acts,
                       luma_Mat *dgi, luma_Mat *dgh, luma_Mat *dh, luma_Mat *dc);

#endif
