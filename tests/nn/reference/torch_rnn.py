# Reference values for tests/nn/recurrent_spec.lua: PyTorch 1.13's
# (Debian's python3-torch) recurrent modules in float64, batch-first:
#   - RNN (tanh and relu), GRU and LSTM with 2 layers, bidirectional, over
#     10 to 20 steps of a batch of 3 samples of 3 features, hidden size 4,
#     with and without an initial state (h0, and c0 for the LSTM);
#   - GRU and LSTM over sequences of lengths 10, 4 and 7 (packed with
#     pack_padded_sequence: luma's `lengths` option);
#   - RNNCell, GRUCell and LSTMCell, one step from a given state.
# Each case gives the outputs (one batch x directions*hidden matrix a
# step), the final states and the gradient of every parameter of the loss
#   sum_t sum(out_t * R_t) + sum_k sum(h_n[k] * Q_k) [+ sum_k sum(c_n[k] * P_k)]
# The inputs, states, weights and the loss's weights R, Q, P come from
# closed formulas that the spec repeats in Lua (0-based indices here,
# 1-based there); no value is typed by hand.
# Regenerate (the /usr/bin one has torch; a pyenv python3 may not):
#   /usr/bin/python3 tests/nn/reference/torch_rnn.py > tests/nn/reference/torch_rnn.lua
# SPDX-License-Identifier: MIT
import math
import torch
from torch import nn

torch.set_default_dtype(torch.float64)

N, D, H = 3, 3, 4                 # batch, input features, hidden units


def grid(rows, cols, f):
    return torch.tensor([[f(i, j) for j in range(cols)] for i in range(rows)])


def x_step(t):
    return grid(N, D, lambda i, j: math.sin(1 + 0.7 * t + 1.3 * i + 0.9 * j))


def h0_state(k):
    return grid(N, H, lambda i, j: 0.3 * math.cos(k + i + 2 * j))


def c0_state(k):
    return grid(N, H, lambda i, j: 0.3 * math.sin(1 + k + 2 * i + j))


def r_weight(t, cols):
    return grid(N, cols, lambda i, j: math.cos(1 + 0.5 * t + i + 0.7 * j))


def q_weight(k):
    return grid(N, H, lambda i, j: math.sin(2 + k + 0.5 * i + j))


def p_weight(k):
    return grid(N, H, lambda i, j: math.cos(3 + 2 * k + i + 0.3 * j))


def set_weights(model):
    # parameter p (0-based, named_parameters order): 0.5 cos(p + 0.7 a + 1.3 b),
    # a bias being one row (a = 0)
    with torch.no_grad():
        for p, (_, w) in enumerate(model.named_parameters()):
            if w.dim() == 1:
                w.copy_(torch.tensor([0.5 * math.cos(p + 1.3 * b) for b in range(w.shape[0])]))
            else:
                w.copy_(grid(w.shape[0], w.shape[1], lambda a, b: 0.5 * math.cos(p + 0.7 * a + 1.3 * b)))


def as_rows(w):
    return w.detach().reshape(1, -1) if w.dim() == 1 else w.detach()


def layer_case(kind, T, layers, bidirectional, with_state, lengths=None, nonlinearity="tanh"):
    if kind == "RNN":
        model = nn.RNN(D, H, num_layers=layers, bidirectional=bidirectional,
                       nonlinearity=nonlinearity, batch_first=True)
    else:
        model = getattr(nn, kind)(D, H, num_layers=layers, bidirectional=bidirectional,
                                  batch_first=True)
    set_weights(model)
    dirs = 2 if bidirectional else 1
    K = layers * dirs
    x = torch.stack([x_step(t) for t in range(T)], 1)          # N x T x D
    state = None
    if with_state:
        h0 = torch.stack([h0_state(k) for k in range(K)])
        state = (h0, torch.stack([c0_state(k) for k in range(K)])) if kind == "LSTM" else h0
    if lengths is not None:
        packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor(lengths), batch_first=True,
                                                   enforce_sorted=False)
        out, final = model(packed, state)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=T)
    else:
        out, final = model(x, state)
    h_n, c_n = final if kind == "LSTM" else (final, None)
    loss = sum((out[:, t, :] * r_weight(t, dirs * H)).sum() for t in range(T))
    loss = loss + sum((h_n[k] * q_weight(k)).sum() for k in range(K))
    if c_n is not None:
        loss = loss + sum((c_n[k] * p_weight(k)).sum() for k in range(K))
    loss.backward()
    return {
        "loss": loss.item(),
        "outputs": [out[:, t, :].detach() for t in range(T)],
        "h_n": [h_n[k].detach() for k in range(K)],
        "c_n": [c_n[k].detach() for k in range(K)] if c_n is not None else None,
        "grads": {name: as_rows(w.grad) for name, w in model.named_parameters()},
    }


def cell_case(kind, nonlinearity="tanh"):
    if kind == "RNNCell":
        model = nn.RNNCell(D, H, nonlinearity=nonlinearity)
    else:
        model = getattr(nn, kind)(D, H)
    set_weights(model)
    x = x_step(0)
    if kind == "LSTMCell":
        h, c = model(x, (h0_state(0), c0_state(0)))
    else:
        h, c = model(x, h0_state(0)), None
    loss = (h * r_weight(0, H)).sum()
    if c is not None:
        loss = loss + (c * p_weight(0)).sum()
    loss.backward()
    return {
        "loss": loss.item(),
        "outputs": [h.detach()],
        "h_n": [h.detach()],
        "c_n": [c.detach()] if c is not None else None,
        "grads": {name: as_rows(w.grad) for name, w in model.named_parameters()},
    }


CASES = [
    ("rnn tanh", lambda: layer_case("RNN", 12, 2, True, True)),
    ("rnn relu", lambda: layer_case("RNN", 10, 2, True, False, nonlinearity="relu")),
    ("gru", lambda: layer_case("GRU", 15, 2, True, True)),
    ("lstm", lambda: layer_case("LSTM", 20, 2, True, True)),
    ("lstm one layer", lambda: layer_case("LSTM", 30, 1, False, False)),
    ("gru lengths", lambda: layer_case("GRU", 10, 2, True, True, lengths=[10, 4, 7])),
    ("lstm lengths", lambda: layer_case("LSTM", 10, 2, True, False, lengths=[10, 4, 7])),
    ("rnn relu lengths", lambda: layer_case("RNN", 10, 1, True, True, lengths=[3, 10, 6],
                                            nonlinearity="relu")),
    ("rnncell tanh", lambda: cell_case("RNNCell")),
    ("rnncell relu", lambda: cell_case("RNNCell", "relu")),
    ("grucell", lambda: cell_case("GRUCell")),
    ("lstmcell", lambda: cell_case("LSTMCell")),
]


def lua_number(v):
    return repr(float(v))


def lua_matrix(M):
    return "{ " + ", ".join("{ " + ", ".join(lua_number(v) for v in row) + " }"
                            for row in M.tolist()) + " }"


def lua_list(ms):
    return "{ " + ", ".join(lua_matrix(M) for M in ms) + " }"


print("-- generated by tests/nn/reference/torch_rnn.py (PyTorch %s, float64); do not edit"
      % torch.__version__)
print("-- matrices are tables of rows; biases are 1 x gates*hidden rows")
print("return {")
for name, run in CASES:
    r = run()
    print("  [%r] = {" % name)
    print("    loss = %s," % lua_number(r["loss"]))
    print("    outputs = %s," % lua_list(r["outputs"]))
    print("    h_n = %s," % lua_list(r["h_n"]))
    if r["c_n"] is not None:
        print("    c_n = %s," % lua_list(r["c_n"]))
    print("    grads = {")
    for k, g in r["grads"].items():
        print("      [%r] = %s," % (k, lua_matrix(g)))
    print("    },")
    print("  },")
print("}")
