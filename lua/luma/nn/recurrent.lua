-- luma.nn.recurrent: the recurrent modules of luma.nn (docs/NN.md,
-- "Recurrent networks"): the cells RNNCell, GRUCell and LSTMCell, one
-- time step, and the layers RNN, GRU and LSTM over a sequence, with
-- PyTorch's names, parameter layout and equations; rows are samples.
--
-- A cell step is three autograd nodes: the two gate pre-activations gi =
-- x W_ih^T + b_ih and gh = h W_hh^T + b_hh (one dgemm each, autograd's
-- linear) and one node for all the element-wise gate math and its
-- backward, a fused kernel in C (src/ml/nn/rnn.c), rather than a chain of
-- a dozen small operations.  The LSTM's node yields [h c] side by side,
-- split by two column blocks.  A layer is one node a direction
-- (run_direction): all T steps' input products in one dgemm, the steps
-- themselves in a loop of recurrent products and fused cells.
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local autograd = require("luma.autograd")
local variable = require("luma.autograd.variable")
local module = require("luma.nn.module")
local native = require("luma.nn.native")

local fail = args.fail
local class = module.class
local is_variable = autograd.is_variable
local linear = autograd.linear
local record, record_many = variable.record, variable.record_many
local value_of = variable.value_of
local affine = native.affine
local rnn_cell, rnn_cell_backward = native.rnn_cell, native.rnn_cell_backward

local recurrent = {}

local function wants_grad(x) return is_variable(x) and x.requires_grad end

local GATES = { tanh = 1, relu = 1, gru = 3, lstm = 4 }

-- One fused step: the new state of kind ("tanh", "relu", "gru", "lstm")
-- from the pre-activations gi, gh (Variables), the state h (and c) and the
-- row mask (nil: every row active), as one autograd node: n x H, or
-- [h c] (n x 2H) for the LSTM.
local function fused_step(kind, gi, gh, h, c, mask)
  local giv, ghv = gi.value, gh.value
  local hv, cv = variable.value_of(h), c and variable.value_of(c)
  local out, acts = rnn_cell(kind, giv, ghv, hv, cv, mask)
  return record(kind .. "_cell", out, { gi, gh, h, c }, function(g)
    local dgi, dgh, dh, dc = rnn_cell_backward(kind, g, giv, ghv, hv, cv, mask, out, acts)
    return { dgi, dgh or dgi, dh, dc }
  end)
end

-- The new (h, c) of a cell of `kind` with parameters named by suffix on
-- owner, from the input x and the state h, c (Variables or matrices).
local function cell_step(owner, suffix, kind, x, h, c, mask)
  local gi = linear(x, owner["weight_ih" .. suffix], owner["bias_ih" .. suffix])
  local gh = linear(h, owner["weight_hh" .. suffix], owner["bias_hh" .. suffix])
  local out = fused_step(kind, gi, gh, h, c, mask)
  if kind ~= "lstm" then return out end
  local H = out.value:cols() // 2
  return out:sub(nil, nil, 1, H), out:sub(nil, nil, H + 1, 2 * H)
end

-- Sizes up to a matrix dimension's limit (2^31 - 1); errors at level
-- (fail's) from the caller.
local function check_count(value, name, fname, level)
  if math.type(value) ~= "integer" or value < 1 or value > 2147483647 then
    fail(level + 1, "%s: %s must be an integer in [1, 2147483647], got %s", fname, name,
      tostring(value))
  end
end

local function generator_of(g, fname, level)
  if g == nil then return luma.random.Generator() end
  if type(g) ~= "userdata" and type(g) ~= "table" then
    fail(level + 1, "%s: generator must be a luma.random.Generator, got %s", fname, args.type_of(g))
  end
  return g
end

-- The kind of an RNN's nonlinearity option.
local function nonlinearity_of(value, fname, level)
  value = value or "tanh"
  if value ~= "tanh" and value ~= "relu" then
    fail(level + 1, "%s: nonlinearity must be \"tanh\" or \"relu\", got %s", fname, tostring(value))
  end
  return value
end

-- weight_ih, weight_hh (gates H x in, gates H x H) and bias_ih, bias_hh
-- (1 x gates H), each U(-1/sqrt(H), 1/sqrt(H)) drawn from g in that
-- order: PyTorch's default init (torch.nn.RNNBase.reset_parameters).
local function add_weights(self, suffix, n_in, H, gates, bias, g)
  local bound = 1 / math.sqrt(H)
  local function draw(rows, cols) return g:uniform(rows, cols) * (2 * bound) - bound end
  self:register_parameter("weight_ih" .. suffix, draw(gates * H, n_in))
  self:register_parameter("weight_hh" .. suffix, draw(gates * H, H))
  if bias then
    self:register_parameter("bias_ih" .. suffix, draw(1, gates * H))
    self:register_parameter("bias_hh" .. suffix, draw(1, gates * H))
  end
end

-- The matrix of an input or state operand, or an error naming `what`.
local function matrix_of(x, what, fname)
  if is_variable(x) then return x.value end
  if luma.ismatrix(x) then return x end
  fail(2, "%s: %s must be a luma.Matrix or a luma.autograd.Variable, got %s", fname, what,
    args.type_of(x))
end

local function check_shape(M, rows, cols, what, fname)
  if M:rows() ~= rows or M:cols() ~= cols then
    fail(2, "%s: %s is %d x %d but must be %d x %d (batch x hidden_size)", fname, what,
      M:rows(), M:cols(), rows, cols)
  end
end

local function check_width(M, n, what, fname)
  if M:cols() ~= n then
    fail(2, "%s: %s is %d x %d but the layer expects %d features per row", fname, what,
      M:rows(), M:cols(), n)
  end
end

-- Cells -------------------------------------------------------------------

local function cell_class(name, kind)
  return class(name, {
    init = function(self, n_in, hidden, opts)
      check_count(n_in, "input_size", name, 3)
      check_count(hidden, "hidden_size", name, 3)
      local valid = { bias = true, generator = true }
      if kind == "rnn" then valid.nonlinearity = true end
      opts = args.options(name, 3, opts, nil, valid, 3)
      self.input_size, self.hidden_size, self.bias = n_in, hidden, opts.bias ~= false
      self.kind = kind == "rnn" and nonlinearity_of(opts.nonlinearity, name, 3) or kind
      add_weights(self, "", n_in, hidden, GATES[self.kind], self.bias,
        generator_of(opts.generator, name, 3))
    end,
    forward = function(self, x, state)
      local X = matrix_of(x, "input", name)
      check_width(X, self.input_size, "input", name)
      local n, H = X:rows(), self.hidden_size
      local h, c
      if kind == "lstm" then
        if state ~= nil then
          if type(state) ~= "table" or getmetatable(state) ~= nil then
            fail(1, "%s: state must be a list {h, c}, got %s", name, args.type_of(state))
          end
          h, c = state[1], state[2]
        end
      else
        h = state
      end
      if h == nil then h = luma.zeros(n, H) end
      check_shape(matrix_of(h, "h", name), n, H, "h", name)
      if kind == "lstm" then
        if c == nil then c = luma.zeros(n, H) end
        check_shape(matrix_of(c, "c", name), n, H, "c", name)
      end
      return cell_step(self, "", self.kind, x, h, c)
    end,
    extra_repr = function(self)
      local text = string.format("input_size=%d, hidden_size=%d, bias=%s", self.input_size,
        self.hidden_size, tostring(self.bias))
      if kind == "rnn" then text = text .. ", nonlinearity=" .. self.kind end
      return text
    end,
  })
end

--- RNNCell(input_size, hidden_size [, {bias = true, nonlinearity = "tanh",
-- generator = nil}]): h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh).
recurrent.RNNCell = cell_class("RNNCell", "rnn")
--- GRUCell(input_size, hidden_size [, {bias = true, generator = nil}])
recurrent.GRUCell = cell_class("GRUCell", "gru")
--- LSTMCell(input_size, hidden_size [, {bias = true, generator = nil}])
recurrent.LSTMCell = cell_class("LSTMCell", "lstm")

-- Layers ------------------------------------------------------------------

-- The sequence xs checked: a list of T >= 1 matrices or Variables of one
-- batch; returns T and the batch size.
local function check_sequence(xs, n_in, fname)
  if type(xs) ~= "table" or getmetatable(xs) ~= nil or xs[1] == nil then
    fail(2, "%s: input must be a non-empty list of matrices (one batch x input_size matrix "
      .. "or Variable per time step), got %s", fname,
      type(xs) == "table" and getmetatable(xs) == nil and "an empty table" or args.type_of(xs))
  end
  local T, n = #xs, nil
  for t = 1, T do
    local x = xs[t]
    if not (is_variable(x) or luma.ismatrix(x)) then
      fail(2, "%s: input[%d] is a %s, not a luma.Matrix or luma.autograd.Variable", fname, t,
        args.type_of(x))
    end
    local X = is_variable(x) and x.value or x
    n = n or X:rows()
    if X:rows() ~= n then
      fail(2, "%s: input[%d] has %d rows but input[1] has %d (every step is one batch)", fname,
        t, X:rows(), n)
    end
    check_width(X, n_in, string.format("input[%d]", t), fname)
  end
  return T, n
end

-- The row masks of each step from lengths (nil: none), n x 1 matrices of
-- 1 (the row's sequence is still running) and 0.
local function masks_of(lengths, T, n, fname)
  if lengths == nil then return nil end
  if type(lengths) ~= "table" or getmetatable(lengths) ~= nil or #lengths ~= n then
    fail(2, "%s: lengths must be a list of %d integers (one a row), got %s", fname, n,
      type(lengths) == "table" and (#lengths .. " entries") or args.type_of(lengths))
  end
  for i = 1, n do
    local len = lengths[i]
    if math.type(len) ~= "integer" or len < 1 then
      fail(2, "%s: lengths[%d] must be an integer >= 1, got %s", fname, i, tostring(len))
    end
    if len > T then
      fail(2, "%s: lengths[%d] is %d but the sequence has %d steps", fname, i, len, T)
    end
  end
  local masks = {}
  for t = 1, T do
    local M = luma.zeros(n, 1)
    for i = 1, n do
      if lengths[i] >= t then M:set(i, 1, 1) end
    end
    masks[t] = M
  end
  return masks
end

-- The initial states (h0 or c0): a list of num_layers * num_directions
-- matrices or Variables, n x H each, or one when that count is 1; nil
-- gives zeros.
local function initial_states(given, what, count, n, H, fname)
  local list = {}
  if given == nil then
    for k = 1, count do list[k] = luma.zeros(n, H) end
    return list
  end
  if is_variable(given) or luma.ismatrix(given) then
    if count ~= 1 then
      fail(2, "%s: %s must be a list of %d states (num_layers x num_directions), got one %s",
        fname, what, count, args.type_of(given))
    end
    given = { given }
  end
  if type(given) ~= "table" or getmetatable(given) ~= nil or #given ~= count then
    fail(2, "%s: %s must be a list of %d n x %d states (num_layers x num_directions), got %s",
      fname, what, count, H, type(given) == "table" and (#given .. " entries") or args.type_of(given))
  end
  for k = 1, count do
    local label = string.format("%s[%d]", what, k)
    check_shape(matrix_of(given[k], label, fname), n, H, label, fname)
    list[k] = given[k]
  end
  return list
end

-- How many times the largest gradient that entered a layer's state from
-- its outputs the gradient carried back through the steps may grow before
-- backward warns: a millionfold is far past what the saturating cells
-- allow in a healthy network and soon followed by overflow.
local EXPLODING = 1e6

-- The warning of a gradient exploding through the steps (once a module):
-- it names the step, the layer and direction, and the remedy.
-- The 2-norm of a contiguous matrix by a dot product, a fraction of
-- norm()'s cost; only a sum of squares past the double range takes norm().
local function norm2(M)
  local size = math.sqrt(M:dot(M))
  if size == math.huge then size = M:norm() end
  return size
end

local function check_exploding(self, carry, scale, t, T, suffix)
  -- (carry: the state's gradient, [dh dc] for the LSTM, in one buffer)
  local size = norm2(carry)
  if size == size and size <= EXPLODING * scale then return end
  self._warned_exploding = true
  local layer, reverse = suffix:match("^_l(%d+)(.*)$")
  warn(string.format("%s: the gradient through the state %s at step %d of %d (layer %d%s) in "
    .. "backward; clip the gradients (luma.nn.clip_grad_norm, or the estimators' "
    .. "clip_grad_norm), lower the learning rate or shorten the steps with detach_every "
    .. "(warned once per module)", self._name,
    size == size and size < math.huge and string.format("grew to %.3g, %.3g times the "
      .. "largest gradient at the outputs,", size, size / scale) or "overflowed to " .. size,
    t, T, tonumber(layer) + 1, reverse ~= "" and ", reverse direction" or ""))
end

-- One direction of one layer over the whole sequence as one autograd
-- node (variable.record_many): X holds every step's input, T blocks of n
-- rows in time order, so all T input products x W_ih^T + b_ih are one
-- dgemm, and each step does only the recurrent product h W_hh^T + b_hh
-- and the fused cell.  Backward runs the steps in reverse with the fused
-- cell backward and the recurrent product G W_hh, collecting the gate
-- gradients of every step, and then forms the input and both weight
-- gradients with one dgemm each over the whole sequence rather than T
-- small ones (the accumulated T weight-sized sums cost more than the
-- products).  Returns the T outputs (in time order; rows past their
-- length zero) and the final h (and c) as Variables.
local function run_direction(self, suffix, X, T, n, h0, c0, masks, reverse, every)
  local kind, H = self.kind, self.hidden_size
  local lstm = kind == "lstm"
  local W_ih, W_hh = self["weight_ih" .. suffix], self["weight_hh" .. suffix]
  local b_ih, b_hh = self["bias_ih" .. suffix], self["bias_hh" .. suffix]
  local Xv, Wih, Whh = value_of(X), W_ih.value, W_hh.value
  local bih, bhh = b_ih and b_ih.value, b_hh and b_hh.value
  local GI = affine(Xv, Wih, bih, true)
  -- what backward needs is kept only when a graph is recorded (not under
  -- no_grad, where the estimators predict)
  local recording = variable.grad_enabled()
  local Hprev = recording and luma.zeros(T * n, H) -- each step's incoming h, in time order
  local h, c = value_of(h0), c0 and value_of(c0)
  local saved, values = {}, {}
  for s = 1, T do
    local t = reverse and T - s + 1 or s
    local r1, r2 = (t - 1) * n + 1, t * n
    local mask = masks and masks[t]
    local gi = GI:sub(r1, r2, nil, nil)
    local gh = affine(h, Whh, bhh, true)
    local out, acts = rnn_cell(kind, gi, gh, h, c, mask)
    if recording then
      Hprev:sub(r1, r2, nil, nil):assign(h)
      saved[s] = { t, gi, gh, h, c, out, acts }
    end
    if lstm then
      h, c = out:sub(nil, nil, 1, H), out:sub(nil, nil, H + 1, 2 * H)
    else
      h = out
    end
    values[t] = mask and h:mul(mask) or h
  end
  values[T + 1] = h
  if lstm then values[T + 2] = c end
  -- the inputs the node differentiates, and where each one's gradient goes
  local inputs, at = { X, W_ih, W_hh, h0 }, {}
  if lstm then inputs[#inputs + 1] = c0; at.c0 = #inputs end
  if b_ih then inputs[#inputs + 1] = b_ih; at.b_ih = #inputs end
  if b_hh then inputs[#inputs + 1] = b_hh; at.b_hh = #inputs end
  local outputs = record_many(kind .. "_layer", values, inputs, function(gs)
    local G = GI:cols()
    local dGI = luma.zeros(T * n, G)
    local dGH = kind == "gru" and luma.zeros(T * n, G) or dGI
    -- the gradient at the state carried from step to step: for the LSTM
    -- one n x 2H buffer [dh dc], the layout the fused backward reads,
    -- written in place through its two column blocks
    local carry = luma.zeros(n, lstm and 2 * H or H)
    local dh, dc = carry, nil
    if lstm then dh, dc = carry:sub(nil, nil, 1, H), carry:sub(nil, nil, H + 1, 2 * H) end
    if gs[T + 1] then dh:assign(gs[T + 1]) end
    if lstm and gs[T + 2] then dc:assign(gs[T + 2]) end
    -- the largest gradient that entered the state from outside, against
    -- which the gradient carried back through the steps is measured
    local scale = norm2(carry)
    for s = T, 1, -1 do
      local t, gi, gh, hp, cp, out, acts = table.unpack(saved[s], 1, 7)
      local mask = masks and masks[t]
      local gy = gs[t]
      if gy then
        dh:add(mask and gy:mul(mask) or gy, dh)
        scale = math.max(scale, norm2(gy))
      end
      local dgi, dgh, dpass, dcp = rnn_cell_backward(kind, carry, gi, gh, hp, cp, mask, out, acts)
      local r1, r2 = (t - 1) * n + 1, t * n
      dGI:sub(r1, r2, nil, nil):assign(dgi)
      if dgh then dGH:sub(r1, r2, nil, nil):assign(dgh) end
      -- the gradient at the incoming state, unless detach_every cut it
      -- (or it is the initial state and needs none)
      if (every and s > 1 and (s - 1) % every == 0)
          or (s == 1 and not wants_grad(h0) and not (lstm and wants_grad(c0))) then
        carry:fill(0)
      else
        (dgh or dgi):matmul(Whh, dh)
        if dpass then dh:add(dpass, dh) end
        if dc then dc:assign(dcp) end
        if self.warn_exploding and not self._warned_exploding then
          check_exploding(self, carry, scale, t, T, suffix)
        end
      end
    end
    dh, dc = dh:copy(), dc and dc:copy()
    local grads = { nil, nil, nil, dh }
    if wants_grad(X) then grads[1] = dGI * Wih end
    if wants_grad(W_ih) then grads[2] = dGI:t() * Xv end
    if wants_grad(W_hh) then grads[3] = dGH:t() * Hprev end
    if at.c0 then grads[at.c0] = dc end
    -- the bias gradients, column sums, as a product with a row of ones:
    -- dgemm reads the T*n x gates*H matrix row by row, where a column sum
    -- strides through it a column at a time
    local ones = (at.b_ih or at.b_hh) and luma.ones(1, T * n)
    if at.b_ih then grads[at.b_ih] = ones * dGI end
    if at.b_hh then grads[at.b_hh] = dGH == dGI and grads[at.b_ih] or ones * dGH end
    return grads
  end)
  local ys = table.move(outputs, 1, T, 1, {})
  return ys, outputs[T + 1], outputs[T + 2]
end

local FORWARD_OPTIONS = { h0 = true, c0 = true, lengths = true, detach_every = true }

local function layer_class(name, kind)
  return class(name, {
    init = function(self, n_in, hidden, opts)
      check_count(n_in, "input_size", name, 3)
      check_count(hidden, "hidden_size", name, 3)
      local valid = { num_layers = true, bias = true, bidirectional = true, dropout = true,
        generator = true }
      if kind == "rnn" then valid.nonlinearity = true end
      opts = args.options(name, 3, opts, nil, valid, 3)
      local layers = opts.num_layers or 1
      check_count(layers, "num_layers", name, 3)
      local p = opts.dropout or 0
      if type(p) ~= "number" or not (p >= 0 and p < 1) then
        fail(3, "%s: dropout must be a number in [0, 1), got %s", name, tostring(p))
      end
      local g = generator_of(opts.generator, name, 3)
      self.input_size, self.hidden_size, self.num_layers = n_in, hidden, layers
      self.bias, self.bidirectional, self.dropout = opts.bias ~= false, opts.bidirectional == true, p
      self.kind = kind == "rnn" and nonlinearity_of(opts.nonlinearity, name, 3) or kind
      self.generator = g
      -- backward warns once when the gradient explodes through the steps
      -- (check_exploding); an estimator that clips turns it off
      self.warn_exploding = true
      local directions = self.bidirectional and 2 or 1
      for l = 0, layers - 1 do
        for d = 0, directions - 1 do
          add_weights(self, "_l" .. l .. (d == 1 and "_reverse" or ""),
            l == 0 and n_in or directions * hidden, hidden, GATES[self.kind], self.bias, g)
        end
      end
    end,
    forward = function(self, xs, opts)
      opts = args.options(name, 2, opts, nil, FORWARD_OPTIONS, 1)
      if kind ~= "lstm" and opts.c0 ~= nil then
        fail(1, "%s: c0 is the LSTM's cell state; %s has none", name, name)
      end
      local T, n = check_sequence(xs, self.input_size, name)
      local H, L, D = self.hidden_size, self.num_layers, self.bidirectional and 2 or 1
      local masks = masks_of(opts.lengths, T, n, name)
      local every = opts.detach_every
      if every ~= nil and (math.type(every) ~= "integer" or every < 1) then
        fail(1, "%s: detach_every must be an integer >= 1, got %s", name, tostring(every))
      end
      local h0 = initial_states(opts.h0, "h0", L * D, n, H, name)
      local c0 = kind == "lstm" and initial_states(opts.c0, "c0", L * D, n, H, name) or nil
      local h_n, c_n = {}, kind == "lstm" and {} or nil
      local inputs = xs
      for l = 0, L - 1 do
        local per_direction = {}
        -- every step's input in one T*n-row matrix, for the one input
        -- product of each direction
        local X = autograd.vstack(inputs)
        for d = 0, D - 1 do
          local k = l * D + d + 1
          local suffix = "_l" .. l .. (d == 1 and "_reverse" or "")
          local ys, h, c = run_direction(self, suffix, X, T, n, h0[k], c0 and c0[k], masks,
            d == 1, every)
          h_n[k] = h
          if c_n then c_n[k] = c end
          per_direction[d + 1] = ys
        end
        local outputs = {}
        for t = 1, T do
          outputs[t] = D == 2 and autograd.hstack { per_direction[1][t], per_direction[2][t] }
            or per_direction[1][t]
        end
        if l < L - 1 and self.training and self.dropout > 0 then
          local keep = 1 - self.dropout
          for t = 1, T do
            local Y = outputs[t].value
            outputs[t] = outputs[t]:mul(self.generator:uniform(Y:rows(), Y:cols()):lt(keep) / keep)
          end
        end
        inputs = outputs
      end
      if c_n then return inputs, h_n, c_n end
      return inputs, h_n
    end,
    extra_repr = function(self)
      local text = string.format("input_size=%d, hidden_size=%d, num_layers=%d, bias=%s, "
        .. "bidirectional=%s, dropout=%g", self.input_size, self.hidden_size, self.num_layers,
        tostring(self.bias), tostring(self.bidirectional), self.dropout)
      if kind == "rnn" then text = text .. ", nonlinearity=" .. self.kind end
      return text
    end,
  })
end

--- RNN, GRU, LSTM(input_size, hidden_size [, {num_layers = 1, bias = true,
-- bidirectional = false, dropout = 0, nonlinearity = "tanh" (RNN),
-- generator = nil}]); layer(xs [, {h0, c0, lengths, detach_every}]) ->
-- outputs, h_n (, c_n).
recurrent.RNN = layer_class("RNN", "rnn")
recurrent.GRU = layer_class("GRU", "gru")
recurrent.LSTM = layer_class("LSTM", "lstm")

local G = " generator (a luma.random.Generator, default a fresh one) makes the draws repeatable."
local INIT = " Parameters as PyTorch's: weight_ih (gates*hidden x input), weight_hh (gates*hidden "
  .. "x hidden), bias_ih and bias_hh (1 x gates*hidden), each U(-1/sqrt(hidden), 1/sqrt(hidden))."
local LAYER = " layer(xs [, {h0 = nil, c0 = nil, lengths = nil, detach_every = nil}]) -> outputs, "
  .. "h_n: xs is a list of T matrices (or Variables), batch x input_size, one per time step; "
  .. "outputs the list of T Variables, batch x (directions*hidden), the last layer's h at each "
  .. "step (both directions side by side, forward first). h0 is a list of num_layers*directions "
  .. "batch x hidden states, layer by layer and forward before reverse (a single matrix when "
  .. "that is 1), zeros by default; h_n the final states in that order. lengths (one integer "
  .. "a row, at most T): rows past their length keep their state and output zeros, and the "
  .. "reverse direction starts at each row's last step. detach_every = k cuts the gradient "
  .. "through the state every k steps of each direction (truncated BPTT). Parameter names "
  .. "weight_ih_l0, ..., with _reverse for the reverse direction; dropout applies to every "
  .. "layer's outputs but the last's, in training. Backward warns (once a module) when the "
  .. "gradient carried back through the steps grows to a million times the largest at the "
  .. "outputs or overflows, naming the step; layer.warn_exploding = false silences it."

local DOCS = {
  { recurrent.RNNCell, "luma.nn.RNNCell",
    "RNNCell(input_size, hidden_size [, {bias = true, nonlinearity = \"tanh\", generator = nil}]) -> module",
    "One step of an Elman network: cell(x [, h]) -> h' = act(x W_ih^T + b_ih + h W_hh^T + "
      .. "b_hh), act tanh or relu; h defaults to zeros." .. INIT .. G },
  { recurrent.GRUCell, "luma.nn.GRUCell",
    "GRUCell(input_size, hidden_size [, {bias = true, generator = nil}]) -> module",
    "One GRU step (Cho et al. 2014, as PyTorch): cell(x [, h]) -> h' with gates r, z, n in "
      .. "that order: r = s(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = tanh(W_in x + b_in "
      .. "+ r * (W_hn h + b_hn)), h' = (1 - z) * n + z * h." .. INIT .. G },
  { recurrent.LSTMCell, "luma.nn.LSTMCell",
    "LSTMCell(input_size, hidden_size [, {bias = true, generator = nil}]) -> module",
    "One LSTM step (Hochreiter & Schmidhuber 1997 with the forget gate of Gers et al. 2000, "
      .. "as PyTorch): cell(x [, {h, c}]) -> h', c' with gates i, f, g, o in that order: c' = "
      .. "f * c + i * g, h' = o * tanh(c'); i, f, o sigmoids and g a tanh of x W_ih^T + b_ih + "
      .. "h W_hh^T + b_hh. The state defaults to zeros." .. INIT .. G },
  { recurrent.RNN, "luma.nn.RNN",
    "RNN(input_size, hidden_size [, {num_layers = 1, bias = true, bidirectional = false, dropout = 0, nonlinearity = \"tanh\", generator = nil}]) -> module",
    "A stack of RNNCell layers over a sequence." .. LAYER .. INIT .. G },
  { recurrent.GRU, "luma.nn.GRU",
    "GRU(input_size, hidden_size [, {num_layers = 1, bias = true, bidirectional = false, dropout = 0, generator = nil}]) -> module",
    "A stack of GRUCell layers over a sequence." .. LAYER .. INIT .. G },
  { recurrent.LSTM, "luma.nn.LSTM",
    "LSTM(input_size, hidden_size [, {num_layers = 1, bias = true, bidirectional = false, dropout = 0, generator = nil}]) -> module",
    "A stack of LSTMCell layers over a sequence; layer(xs [, opts]) -> outputs, h_n, c_n, "
      .. "c0 and c_n the cell states as h0 and h_n." .. LAYER .. INIT .. G },
}
for _, d in ipairs(DOCS) do
  luma.doc.set(d[1], { name = d[2], signature = d[3], doc = d[4] })
end

return recurrent
