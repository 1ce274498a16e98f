/*
 * rnn_lua.c - the fused recurrent-cell steps of rnn.h for luma.nn's
 * RNNCell, GRUCell, LSTMCell and the RNN, GRU, LSTM layers
 * (lua/luma/nn/recurrent.lua), registered into luma.nn.native.  They check
 * every shape they read; the outputs are new matrices.
 * SPDX-License-Identifier: MIT
 */
#include "nn/rnn_lua.h"

#include "budget.h"
#include "core/matrix_lua.h"
#include "nn/rnn.h"

static const char *const kinds[] = {"tanh", "relu", "gru", "lstm", NULL};

/* The matrix at arg, rows x cols (what names it in the error). */
static luma_Mat *shaped(lua_State *L, int arg, int64_t rows, int64_t cols, const char *what) {
  luma_Mat *m = luma_matrix_check(L, arg);
  if (m->rows != rows || m->cols != cols)
    luma_arg_error(L, arg, "%s is %I x %I but must be %I x %I", what, (lua_Integer)m->rows,
                   (lua_Integer)m->cols, (lua_Integer)rows, (lua_Integer)cols);
  return m;
}

/* The operands both directions share, from argument `first` on: gi, gh,
 * h, c (LSTM, else ignored) and mask (optional); checks their shapes
 * against h's (n x H). */
typedef struct Step {
  luma_RnnKind kind;
  int gates;
  luma_Mat *gi, *gh, *h, *c, *mask;
} Step;

static Step step_args(lua_State *L, int kind_arg, int first) {
  Step s;
  s.kind = (luma_RnnKind)luaL_checkoption(L, kind_arg, NULL, kinds);
  s.gates = luma_rnn_gates(s.kind);
  s.h = luma_matrix_check(L, first + 2);
  const int64_t n = s.h->rows, H = s.h->cols;
  s.gi = shaped(L, first, n, s.gates * H, "gi");
  s.gh = shaped(L, first + 1, n, s.gates * H, "gh");
  s.c = s.kind == LUMA_RNN_LSTM ? shaped(L, first + 3, n, H, "c") : NULL;
  s.mask = lua_isnoneornil(L, first + 4) ? NULL : shaped(L, first + 4, n, 1, "mask");
  return s;
}

/* About the element operations a step does for each of its n x H units
 * (a dozen for the gated cells, exp and tanh counted as a few). */
static void charge_step(lua_State *L, const Step *s) {
  luma_charge(L, (uint64_t)(s->h->rows * s->h->cols) * (uint64_t)(4 * s->gates));
}

/* rnn_cell(kind, gi, gh, h [, c [, mask]]) -> out, acts */
static int n_rnn_cell(lua_State *L) {
  Step s = step_args(L, 1, 2);
  const int64_t n = s.h->rows, H = s.h->cols;
  charge_step(L, &s);
  luma_Mat *out = luma_matrix_new(L, n, s.kind == LUMA_RNN_LSTM ? 2 * H : H);
  luma_Mat *acts = NULL;
  if (s.gates > 1) acts = luma_matrix_new(L, n, s.gates * H);
  else lua_pushnil(L);
  luma_rnn_forward(s.kind, s.gi, s.gh, s.h, s.c, s.mask, out, acts);
  return 2;
}

/* rnn_cell_backward(kind, gout, gi, gh, h, c, mask, out, acts)
 *   -> dgi, dgh (GRU; else nil: it equals dgi), dh (nil for RNN and LSTM
 *   without a mask: zeros), dc (LSTM; else nil) */
static int n_rnn_cell_backward(lua_State *L) {
  Step s = step_args(L, 1, 3);
  const int64_t n = s.h->rows, H = s.h->cols;
  const int64_t out_cols = s.kind == LUMA_RNN_LSTM ? 2 * H : H;
  luma_Mat *gout = shaped(L, 2, n, out_cols, "gout");
  luma_Mat *out = shaped(L, 8, n, out_cols, "out");
  luma_Mat *acts = s.gates > 1 ? shaped(L, 9, n, s.gates * H, "acts") : NULL;
  charge_step(L, &s);
  lua_settop(L, 9);
  luma_Mat *dgi = luma_matrix_new(L, n, s.gates * H);
  luma_Mat *dgh = NULL, *dh = NULL, *dc = NULL;
  if (s.kind == LUMA_RNN_GRU) dgh = luma_matrix_new(L, n, s.gates * H);
  else lua_pushnil(L);
  if (s.kind == LUMA_RNN_GRU || s.mask) dh = luma_matrix_new(L, n, H);
  else lua_pushnil(L);
  if (s.kind == LUMA_RNN_LSTM) dc = luma_matrix_new(L, n, H);
  else lua_pushnil(L);
  luma_rnn_backward(s.kind, gout, s.gi, s.gh, s.h, s.c, s.mask, out, acts, dgi, dgh, dh, dc);
  return 4;
}

void luma_nn_register_rnn(lua_State *L, int tidx) {
  static const luma_Func funcs[] = {
      {"rnn_cell", n_rnn_cell, "rnn_cell(kind, gi, gh, h [, c [, mask]]) -> out, acts",
       "One fused step of a recurrent cell (luma.nn's RNN, GRU and LSTM use it). kind: "
       "\"tanh\", \"relu\", \"gru\" or \"lstm\"; gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh "
       "the gate pre-activations (n x gates*H, gates in PyTorch's order), h the state (n x H), "
       "c the LSTM's cell state, mask an n x 1 matrix whose 0 rows keep their state. out is "
       "the new h (LSTM: [h c], n x 2H); acts the gates after their nonlinearities (GRU, "
       "LSTM; nil otherwise), for the backward step."},
      {"rnn_cell_backward", n_rnn_cell_backward,
       "rnn_cell_backward(kind, gout, gi, gh, h, c, mask, out, acts) -> dgi, dgh, dh, dc",
       "The backward step of rnn_cell from gout, the gradient at its out: the gradients at "
       "gi, gh (GRU only; nil where it equals dgi), h (nil when it is zero: RNN and LSTM "
       "without a mask) and c (LSTM; else nil)."},
      {NULL, NULL, NULL, NULL}};
  luma_register_funcs(L, tidx, "luma.nn.native", funcs);
}
