# Reference values for tests/nn/conv_spec.lua: PyTorch 1.13's (Debian's
# python3-torch) Conv1d, Conv2d, ConvTranspose1d/2d and pooling layers in
# float64, forward and backward, for each option (stride, padding, output
# padding, dilation, groups, no bias).
# Regenerate (the /usr/bin one has torch; a pyenv python3 may not):
#   /usr/bin/python3 tests/nn/reference/torch_conv.py > tests/nn/reference/torch_conv.lua
# Each case gives the layer (luma's constructor, its arguments and options,
# which the spec builds), the input size, the output y (N x C_out*...,
# luma's layout: a sample a row, channels first), and the gradients of
# sum(y .* S) at the input, the weight (out x in/groups*k, flattened;
# ConvTranspose1d/2d's in x out/groups*k) and
# the bias.  Input, weight, bias and seed S come from closed formulas the
# spec repeats (0-based n, j here, 1-based there):
#   X[n, j] = sin(1 + 2n + 0.61 j) + 0.1 j / cols
#   W[o, q] = 0.5 cos(1 + o + 0.37 q),  b[o] = 0.2 sin(2 + o)
#   S[n, j] = cos(0.3 + 0.7 n + 0.29 j)
# (a weight that is a vector, BatchNorm2d's, is one row: o = 0; the eval
# case's running statistics are mean[c] = 0.1 sin(c), var[c] = 1 + 0.3 cos(c)).
# SPDX-License-Identifier: MIT
import math
import torch
from torch import nn

torch.set_default_dtype(torch.float64)

N = 2


def grid(rows, cols, f):
    return torch.tensor([[f(i, j) for j in range(cols)] for i in range(rows)])


def x_of(cols):
    return grid(N, cols, lambda n, j: math.sin(1 + 2 * n + 0.61 * j) + 0.1 * j / cols)


# (name, luma constructor, positional args, options (Lua source), input
# shape (C, H, W) or (C, L), torch module)
CASES = [
    ("conv2d", "Conv2d", "2, 3, 3", "{input_size = {5, 6}}", (2, 5, 6), nn.Conv2d(2, 3, 3)),
    ("conv2d stride", "Conv2d", "2, 3, {2, 3}", "{stride = {2, 1}, input_size = {5, 6}}", (2, 5, 6),
     nn.Conv2d(2, 3, (2, 3), stride=(2, 1))),
    ("conv2d padding", "Conv2d", "2, 3, 3", "{padding = {1, 2}, input_size = {5, 6}}", (2, 5, 6),
     nn.Conv2d(2, 3, 3, padding=(1, 2))),
    ("conv2d dilation", "Conv2d", "2, 3, 2", "{dilation = {2, 3}, padding = 1, input_size = {5, 6}}",
     (2, 5, 6), nn.Conv2d(2, 3, 2, dilation=(2, 3), padding=1)),
    ("conv2d groups", "Conv2d", "4, 6, 3", "{groups = 2, input_size = {5, 6}}", (4, 5, 6),
     nn.Conv2d(4, 6, 3, groups=2)),
    ("conv2d no bias", "Conv2d", "2, 4, 3", "{bias = false, stride = 2, padding = 1}", (2, 6, 6),
     nn.Conv2d(2, 4, 3, bias=False, stride=2, padding=1)),
    ("conv1d", "Conv1d", "2, 3, 3", "{}", (2, 9), nn.Conv1d(2, 3, 3)),
    ("conv1d stride", "Conv1d", "2, 3, 3", "{stride = 2}", (2, 9), nn.Conv1d(2, 3, 3, stride=2)),
    ("conv1d padding", "Conv1d", "2, 3, 4", "{padding = 2}", (2, 9), nn.Conv1d(2, 3, 4, padding=2)),
    ("conv1d dilation", "Conv1d", "2, 3, 3", "{dilation = 3, padding = 1}", (2, 9),
     nn.Conv1d(2, 3, 3, dilation=3, padding=1)),
    ("conv1d groups", "Conv1d", "6, 4, 2", "{groups = 2}", (6, 7), nn.Conv1d(6, 4, 2, groups=2)),
    ("conv1d no bias", "Conv1d", "2, 3, 3", "{bias = false, stride = 3, padding = 1}", (2, 9),
     nn.Conv1d(2, 3, 3, bias=False, stride=3, padding=1)),
    ("convtranspose2d", "ConvTranspose2d", "2, 3, 3", "{input_size = {4, 5}}", (2, 4, 5),
     nn.ConvTranspose2d(2, 3, 3)),
    ("convtranspose2d stride", "ConvTranspose2d", "2, 3, {2, 3}", "{stride = {2, 1}, input_size = {4, 5}}",
     (2, 4, 5), nn.ConvTranspose2d(2, 3, (2, 3), stride=(2, 1))),
    ("convtranspose2d padding output_padding", "ConvTranspose2d", "2, 3, 3",
     "{stride = 2, padding = {1, 2}, output_padding = {1, 0}, input_size = {4, 5}}", (2, 4, 5),
     nn.ConvTranspose2d(2, 3, 3, stride=2, padding=(1, 2), output_padding=(1, 0))),
    ("convtranspose2d dilation", "ConvTranspose2d", "2, 3, 2",
     "{dilation = {2, 3}, padding = 1, output_padding = {1, 2}, input_size = {4, 5}}", (2, 4, 5),
     nn.ConvTranspose2d(2, 3, 2, dilation=(2, 3), padding=1, output_padding=(1, 2))),
    ("convtranspose2d groups", "ConvTranspose2d", "4, 6, 3", "{groups = 2, stride = 2, input_size = {3, 4}}",
     (4, 3, 4), nn.ConvTranspose2d(4, 6, 3, groups=2, stride=2)),
    ("convtranspose2d no bias", "ConvTranspose2d", "2, 4, 3", "{bias = false, stride = 2, padding = 1}",
     (2, 4, 4), nn.ConvTranspose2d(2, 4, 3, bias=False, stride=2, padding=1)),
    ("convtranspose1d", "ConvTranspose1d", "2, 3, 3", "{}", (2, 5), nn.ConvTranspose1d(2, 3, 3)),
    ("convtranspose1d stride padding output_padding", "ConvTranspose1d", "2, 3, 4",
     "{stride = 3, padding = 2, output_padding = 1}", (2, 5),
     nn.ConvTranspose1d(2, 3, 4, stride=3, padding=2, output_padding=1)),
    ("convtranspose1d dilation", "ConvTranspose1d", "2, 3, 2", "{dilation = 3, padding = 1, input_size = {6}}",
     (2, 6), nn.ConvTranspose1d(2, 3, 2, dilation=3, padding=1)),
    ("convtranspose1d groups no bias", "ConvTranspose1d", "4, 6, 3", "{groups = 2, stride = 2, bias = false}",
     (4, 5), nn.ConvTranspose1d(4, 6, 3, groups=2, stride=2, bias=False)),
    ("maxpool2d", "MaxPool2d", "2", "{input_size = {3, 5, 6}}", (3, 5, 6), nn.MaxPool2d(2)),
    ("maxpool2d stride padding", "MaxPool2d", "3", "{stride = {2, 1}, padding = 1, input_size = {3, 5, 6}}",
     (3, 5, 6), nn.MaxPool2d(3, stride=(2, 1), padding=1)),
    ("avgpool2d", "AvgPool2d", "2", "{input_size = {3, 5, 6}}", (3, 5, 6), nn.AvgPool2d(2)),
    ("avgpool2d stride padding", "AvgPool2d", "3", "{stride = 2, padding = 1, input_size = {3, 5, 6}}",
     (3, 5, 6), nn.AvgPool2d(3, stride=2, padding=1)),
    ("maxpool1d", "MaxPool1d", "3", "{stride = 2, padding = 1, input_size = {3, 9}}", (3, 9),
     nn.MaxPool1d(3, stride=2, padding=1)),
    ("avgpool1d", "AvgPool1d", "3", "{stride = 2, padding = 1, input_size = {3, 9}}", (3, 9),
     nn.AvgPool1d(3, stride=2, padding=1)),
    ("adaptiveavgpool2d", "AdaptiveAvgPool2d", "{2, 4}", "{input_size = {3, 5, 6}}", (3, 5, 6),
     nn.AdaptiveAvgPool2d((2, 4))),
    ("adaptiveavgpool1d", "AdaptiveAvgPool1d", "4", "{input_size = {3, 9}}", (3, 9),
     nn.AdaptiveAvgPool1d(4)),
    ("batchnorm2d", "BatchNorm2d", "3", "{momentum = 0.2}", (3, 4, 5), nn.BatchNorm2d(3, momentum=0.2)),
    ("batchnorm2d eval", "BatchNorm2d", "3", "{}", (3, 4, 5), nn.BatchNorm2d(3).eval()),
    ("upsample", "Upsample", "{scale_factor = {2, 3}, input_size = {2, 3, 4}}", None, (2, 3, 4),
     nn.Upsample(scale_factor=(2, 3), mode="nearest")),
]


def lua_number(v):
    return repr(float(v))


def lua_matrix(m):
    rows = m.detach().reshape(m.shape[0], -1).tolist()
    return "{ " + ", ".join("{ " + ", ".join(lua_number(v) for v in r) + " }" for r in rows) + " }"


print("-- generated by tests/nn/reference/torch_conv.py (PyTorch %s, float64); do not edit" % torch.__version__)
print("return {")
for name, ctor, positional, opts, shape, layer in CASES:
    cols = math.prod(shape)
    x = x_of(cols).requires_grad_(True)
    with torch.no_grad():
        if getattr(layer, "weight", None) is not None:
            w = layer.weight
            rows = 1 if w.dim() == 1 else w.shape[0]
            flat = grid(rows, w.numel() // rows, lambda o, q: 0.5 * math.cos(1 + o + 0.37 * q))
            w.copy_(flat.reshape(w.shape))
            if layer.bias is not None:
                b = layer.bias
                b.copy_(torch.tensor([0.2 * math.sin(2 + o) for o in range(b.numel())]))
        if isinstance(layer, nn.BatchNorm2d) and not layer.training:
            C = layer.num_features
            layer.running_mean.copy_(torch.tensor([0.1 * math.sin(c) for c in range(C)]))
            layer.running_var.copy_(torch.tensor([1 + 0.3 * math.cos(c) for c in range(C)]))
    y = layer(x.reshape((N,) + shape)).reshape(N, -1)
    S = grid(N, y.shape[1], lambda n, j: math.cos(0.3 + 0.7 * n + 0.29 * j))
    (y * S).sum().backward()
    print("  [%r] = {" % name)
    arguments = positional if opts is None else positional + ", " + opts
    print("    layer = %r, args = function() return %s end," % (ctor, arguments))
    if isinstance(layer, nn.BatchNorm2d):
        print("    training = %s," % ("true" if layer.training else "false"))
        print("    running_mean = { %s }," % lua_matrix(layer.running_mean.reshape(1, -1))[2:-2])
        print("    running_var = { %s }," % lua_matrix(layer.running_var.reshape(1, -1))[2:-2])
    print("    cols = %d," % cols)
    print("    output = %s," % lua_matrix(y))
    print("    grad_input = %s," % lua_matrix(x.grad))
    if getattr(layer, "weight", None) is not None:
        gw = layer.weight.grad
        print("    grad_weight = %s," % lua_matrix(gw.reshape(1, -1) if gw.dim() == 1 else gw))
        if layer.bias is not None:
            print("    grad_bias = { %s }," % lua_matrix(layer.bias.grad.reshape(1, -1))[2:-2])
    print("  },")
print("}")
