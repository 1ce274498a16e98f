# Reference values for tests/nn/torch_reference_spec.lua: PyTorch 1.13's
# (Debian's python3-torch) forward and backward in float64 for small
# networks, 6 samples of 3 features, 3 outputs:
#   - Linear(3, 4) -> activation -> Linear(4, 3) with CrossEntropyLoss, for
#     every activation module luma.nn has (ReLU, LeakyReLU(0.2), ELU(0.7),
#     Softplus, Tanh, Sigmoid, Softmax, LogSoftmax, the last two along rows
#     and along columns);
#   - Linear(3, 4) -> Tanh -> Linear(4, 3) [-> Sigmoid | LogSoftmax] with
#     each loss of luma.nn.losses that PyTorch has, reductions mean, sum and
#     none (none: backward with a fixed seed vector);
#   - BatchNorm1d between the layers in training (the running statistics
#     after the forward too) and inference (running statistics from a
#     formula), LayerNorm, and an Embedding in front;
#   - Dropout with a fixed mask, written out as x * mask / (1 - p)
#     ("inverted", PyTorch's) and as x * mask and x * (1 - p) (luma's
#     "scaled" mode, in training and at inference).
# Each case gives the loss, the network's output and the gradient of every
# parameter, under luma's parameter names (Sequential children 1-based).
# The inputs, targets, weights and masks come from closed formulas that the
# spec repeats in Lua (0-based i, j here, 1-based there); no value is typed
# by hand.
# Regenerate (the /usr/bin one has torch; a pyenv python3 may not):
#   /usr/bin/python3 tests/nn/reference/torch_nn.py > tests/nn/reference/torch_nn.lua
# SPDX-License-Identifier: MIT
import math
import torch
from torch import nn

torch.set_default_dtype(torch.float64)

N, D, H, C = 6, 3, 4, 3          # samples, inputs, hidden units, outputs
P_DROP = 0.25                     # the dropout cases' p


def grid(rows, cols, f):
    return torch.tensor([[f(i, j) for j in range(cols)] for i in range(rows)])


X = grid(N, D, lambda i, j: 2 * math.sin(1 + 3 * i + j))
# TripletMarginLoss: the positive is near the anchor, the negative elsewhere
X_POS = grid(N, D, lambda i, j: 2 * math.sin(1 + 3 * i + j) + 0.6 * math.cos(i + 2 * j))
X_NEG = grid(N, D, lambda i, j: 2 * math.sin(2 + 5 * i + j))
LABELS = [(2 * i) % C for i in range(N)]
# class probabilities: the softmax of cos(1 + i + 2k) over k
_Q = grid(N, C, lambda i, k: math.exp(math.cos(1 + i + 2 * k)))
PROBS = _Q / _Q.sum(1, keepdim=True)
REGRESSION = grid(N, C, lambda i, k: math.cos(i + 2 * k))
BINARY = grid(N, C, lambda i, k: float((i + k) % 2))
SEED = torch.tensor([math.cos(1 + 2 * i) for i in range(N)])   # "none"'s backward
INDICES = [(3 * i + 1) % 5 for i in range(N)]                    # Embedding's input
KEEP = grid(N, H, lambda i, j: float((3 * i + 5 * j) % 4 != 0))  # dropout mask
RUNNING_MEAN = torch.tensor([0.2 * math.sin(1 + j) for j in range(H)])
RUNNING_VAR = torch.tensor([1 + 0.5 * math.cos(2 * j) for j in range(H)])


def set_weights(model):
    # parameter p (0-based, in named_parameters order): 0.5 cos(p + a + 2b),
    # a vector being one row (a = 0)
    with torch.no_grad():
        for p, (_, w) in enumerate(model.named_parameters()):
            if w.dim() == 1:
                w.copy_(torch.tensor([0.5 * math.cos(p + 2 * b) for b in range(w.shape[0])]))
            else:
                w.copy_(grid(w.shape[0], w.shape[1], lambda a, b, p=p: 0.5 * math.cos(p + a + 2 * b)))


class FixedDropout(nn.Module):
    # luma's Dropout with the mask KEEP (a module without parameters, so
    # the Sequential's numbering is the same as luma's)
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        if self.mode == "inverted":
            return x * KEEP / (1 - P_DROP) if self.training else x
        return x * KEEP if self.training else x * (1 - P_DROP)


def mlp(*middle, tail=()):
    return nn.Sequential(nn.Linear(D, H), *middle, nn.Linear(H, C), *tail)


def ce(**kw):
    return lambda out, **_: nn.CrossEntropyLoss(**kw)(out, torch.tensor(LABELS))


CASES = {}

ACTIVATIONS = {
    "relu": nn.ReLU(), "leaky_relu": nn.LeakyReLU(0.2), "elu": nn.ELU(alpha=0.7),
    "softplus": nn.Softplus(), "tanh": nn.Tanh(), "sigmoid": nn.Sigmoid(),
    "softmax": nn.Softmax(dim=1), "log_softmax": nn.LogSoftmax(dim=1),
}
for name, act in ACTIVATIONS.items():
    CASES["activation " + name] = dict(model=mlp(act), loss=ce())
# luma's dim 1 is down each column, PyTorch's dim 0
CASES["activation softmax columns"] = dict(model=mlp(nn.Softmax(dim=0)), loss=ce())
CASES["activation log_softmax columns"] = dict(model=mlp(nn.LogSoftmax(dim=0)), loss=ce())

for r in ["mean", "sum", "none"]:
    CASES["MSELoss " + r] = dict(model=mlp(nn.Tanh()),
                                 loss=lambda o, r=r: nn.MSELoss(reduction=r)(o, REGRESSION))
    CASES["L1Loss " + r] = dict(model=mlp(nn.Tanh()),
                                loss=lambda o, r=r: nn.L1Loss(reduction=r)(o, REGRESSION))
    CASES["HuberLoss " + r] = dict(model=mlp(nn.Tanh()), huber=0.3,
                                   loss=lambda o, r=r: nn.HuberLoss(reduction=r, delta=0.3)(o, REGRESSION))
    CASES["BCELoss " + r] = dict(model=mlp(nn.Tanh(), tail=(nn.Sigmoid(),)),
                                 loss=lambda o, r=r: nn.BCELoss(reduction=r)(o, BINARY))
    CASES["BCEWithLogitsLoss " + r] = dict(
        model=mlp(nn.Tanh()), loss=lambda o, r=r: nn.BCEWithLogitsLoss(reduction=r)(o, BINARY))
    CASES["CrossEntropyLoss indices " + r] = dict(model=mlp(nn.Tanh()), loss=ce(reduction=r))
    CASES["CrossEntropyLoss probabilities " + r] = dict(
        model=mlp(nn.Tanh()), loss=lambda o, r=r: nn.CrossEntropyLoss(reduction=r)(o, PROBS))
    CASES["CrossEntropyLoss smoothing " + r] = dict(
        model=mlp(nn.Tanh()), loss=ce(reduction=r, label_smoothing=0.1))
    CASES["NLLLoss " + r] = dict(
        model=mlp(nn.Tanh(), tail=(nn.LogSoftmax(dim=1),)),
        loss=lambda o, r=r: nn.NLLLoss(reduction=r)(o, torch.tensor(LABELS)))
    CASES["TripletMarginLoss " + r] = dict(model=mlp(nn.Tanh()), triplet=True,
                                           loss=lambda a, p, n, r=r: nn.TripletMarginLoss(
                                               margin=0.3, reduction=r)(a, p, n))
CASES["CrossEntropyLoss probabilities smoothing mean"] = dict(
    model=mlp(nn.Tanh()), loss=lambda o: nn.CrossEntropyLoss(label_smoothing=0.1)(o, PROBS))
# luma's binary label smoothing (0 -> eps, 1 -> 1 - eps) is not an option
# of PyTorch's: here the smoothed targets are given explicitly
CASES["BCEWithLogitsLoss smoothing mean"] = dict(
    model=mlp(nn.Tanh()), loss=lambda o: nn.BCEWithLogitsLoss()(o, BINARY * (1 - 2 * 0.1) + 0.1))
CASES["BCELoss smoothing mean"] = dict(
    model=mlp(nn.Tanh(), tail=(nn.Sigmoid(),)),
    loss=lambda o: nn.BCELoss()(o, BINARY * (1 - 2 * 0.1) + 0.1))

CASES["BatchNorm1d training"] = dict(model=mlp(nn.BatchNorm1d(H), nn.Tanh()), loss=ce(), bn=1)
# non-default eps and momentum, running statistics from the formula first
CASES["BatchNorm1d training options"] = dict(
    model=mlp(nn.BatchNorm1d(H, eps=1e-3, momentum=0.3), nn.Tanh()), loss=ce(), bn=1,
    running=True)
CASES["BatchNorm1d inference"] = dict(model=mlp(nn.BatchNorm1d(H), nn.Tanh()), loss=ce(), bn=1,
                                      running=True, eval=True)
CASES["LayerNorm"] = dict(model=mlp(nn.LayerNorm(H), nn.Tanh()), loss=ce())
# Embedding(5, 3) in front (first: the first Linear's position); index 1
# comes twice, so its rows' gradients add up
CASES["Embedding"] = dict(model=nn.Sequential(nn.Embedding(5, D), *mlp(nn.Tanh())), loss=ce(),
                          input=torch.tensor(INDICES), first=1)

for mode in ["inverted", "scaled"]:
    CASES["Dropout %s training" % mode] = dict(model=mlp(nn.ReLU(), FixedDropout(mode)), loss=ce())
    CASES["Dropout %s inference" % mode] = dict(model=mlp(nn.ReLU(), FixedDropout(mode)), loss=ce(),
                                                eval=True)


def luma_name(name):
    # PyTorch numbers a Sequential's children from 0, luma from 1
    first, rest = name.split(".", 1)
    return "%d.%s" % (int(first) + 1, rest)


def check_away_from_kinks(case, model, x):
    # every ReLU, L1, Huber and triplet hinge input is away from its kink,
    # so both libraries take the same branch and the gradient is unique
    pre = model[:case.get("first", 0) + 1](x)     # the first Linear's output
    assert pre.abs().min() > 1e-3, "a hidden pre-activation is near 0"
    if "d" in case:
        d = (case["d"]).abs()
        assert d.min() > 1e-3, "an output is near its target"
        if "huber" in case:
            assert (d - case["huber"]).abs().min() > 1e-3, "|output - target| is near delta"
            assert (d < case["huber"]).any() and (d > case["huber"]).any()


def run(name, case):
    model = case["model"]
    set_weights(model)
    if case.get("running"):
        bn = model[case["bn"]]
        bn.running_mean.copy_(RUNNING_MEAN)
        bn.running_var.copy_(RUNNING_VAR)
    model.train(not case.get("eval", False))
    if case.get("triplet"):
        out = model(X)
        anchor, pos, neg = out, model(X_POS), model(X_NEG)
        hinge = ((anchor - pos + 1e-6).norm(dim=1) - (anchor - neg + 1e-6).norm(dim=1) + 0.3)
        assert hinge.abs().min() > 1e-3 and (hinge > 0).any() and (hinge < 0).any()
        loss = case["loss"](anchor, pos, neg)
    else:
        out = model(case.get("input", X))
        if name.split()[0] in ("MSELoss", "L1Loss", "HuberLoss"):
            case["d"] = (out - REGRESSION).detach()
        loss = case["loss"](out)
    check_away_from_kinks(case, model, case.get("input", X))
    if loss.dim() == 0:
        loss.backward()
        loss_value = loss.item()
    else:
        # luma's "none" gives one value a row (the sum over a row's
        # elements for the element-wise losses)
        per_row = loss if loss.dim() == 1 else loss.sum(1)
        per_row.backward(SEED)
        loss_value = per_row.detach().reshape(N, 1)
    grads = {luma_name(k): v.grad for k, v in model.named_parameters()}
    result = dict(loss=loss_value, output=out.detach(), grads=grads)
    if "bn" in case:
        bn = model[case["bn"]]
        result["running_mean"] = bn.running_mean
        result["running_var"] = bn.running_var
    return result


def lua_number(v):
    return "%.17g" % v


def lua_matrix(M):
    M = M.detach()
    if M.dim() == 1:
        M = M.reshape(1, -1)
    rows = ["{ " + ", ".join(lua_number(v) for v in row.tolist()) + " }" for row in M]
    return "{ " + ", ".join(rows) + " }"


def lua_value(v):
    return lua_number(v) if isinstance(v, float) else lua_matrix(v)


print("-- generated by tests/nn/reference/torch_nn.py (PyTorch %s, float64); do not edit"
      % torch.__version__)
print("-- matrices are tables of rows; \"none\" losses are n x 1 (one value a row)")
print("return {")
for name, case in CASES.items():
    r = run(name, case)
    print("  [%r] = {" % name)
    print("    loss = %s," % lua_value(r["loss"]))
    print("    output = %s," % lua_matrix(r["output"]))
    for key in ("running_mean", "running_var"):
        if key in r:
            print("    %s = %s," % (key, lua_matrix(r[key])))
    print("    grads = {")
    for k, g in r["grads"].items():
        print("      [%r] = %s," % (k, lua_matrix(g)))
    print("    },")
    print("  },")
print("}")
