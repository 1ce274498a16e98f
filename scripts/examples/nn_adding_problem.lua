-- The adding problem (Hochreiter & Schmidhuber, Neural Computation 9, 1997,
-- experiment 4; in the form of Le, Jaitly & Hinton 2015 and Arjovsky et
-- al. 2016): a sequence of T steps, each a value drawn from U(0, 1) and a
-- marker, 1 at exactly two steps (one in each half) and 0 elsewhere; the
-- target is the sum of the two marked values.  Predicting the constant 1
-- scores the target's variance, 2/12 = 0.167 (the baseline); beating it
-- means carrying a value across up to T steps.  docs/NN.md, "Worked
-- examples".
--
-- An LSTM (luma.nn.LSTM, 32 units, forget-gate bias 1 as Gers et al. 2000)
-- and a plain tanh RNN (luma.nn.RNN, 32 units) with a linear head on the
-- last state are trained the same way: Adam (rate 0.01), batches of 32
-- fresh sequences, gradients clipped to norm 1, and a curriculum (Bengio
-- et al., ICML 2009) of 400 batches at T = 20, 200 at T = 50 and 200 at
-- T = 100, because at T = 100 from the start the LSTM's plateau lasts
-- thousands of batches.  Prints the mean training MSE of each stage and
-- the test MSE of both on 500 sequences of length 100:
--   build/luma scripts/examples/nn_adding_problem.lua
-- (measured: LSTM 0.0011, RNN 0.184; 24 s and 3 s on the 2-core machine
-- under load).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn = luma.nn

local H, BATCH = 32, 32
local STAGES = { { 20, 400 }, { 50, 200 }, { 100, 200 } } -- {T, batches}

-- n sequences of T steps as the layers take them (a list of T n x 2
-- matrices: value, marker) and their targets (n x 1).
local function sequences(g, n, T)
  local values = g:uniform(n, T)
  local first = (g:uniform(n, 1) * (T // 2)):floor() + 1
  local second = (g:uniform(n, 1) * (T // 2)):floor() + (T // 2 + 1)
  local steps = luma.arange(1, T):t() -- 1 x T
  local markers = steps:eq(first) + steps:eq(second) -- n x T
  local xs = {}
  for t = 1, T do xs[t] = luma.hstack { values:col(t), markers:col(t) } end
  return xs, values:mul(markers):sum(2)
end

local function train(kind)
  local g = luma.random.Generator(1)
  local rnn = nn[kind](2, H, { generator = g })
  if kind == "LSTM" then
    -- gates i, f, g, o: the forget gate's bias at 1 keeps the cell's memory
    -- open from the start
    rnn.bias_ih_l0.value:sub(1, 1, H + 1, 2 * H):fill(1)
  end
  local head = nn.Linear(H, 1, { generator = g })
  local params = rnn:parameters()
  for _, p in ipairs(head:parameters()) do params[#params + 1] = p end
  local opt = luma.optim.Adam { lr = 0.01, params = params }
  local data = luma.random.Generator(2) -- both models see the same sequences
  local t0 = luma.now()
  for _, stage in ipairs(STAGES) do
    local T, batches = stage[1], stage[2]
    local total = 0
    for _ = 1, batches do
      local xs, y = sequences(data, BATCH, T)
      opt:zero_grad()
      local _, h_n = rnn(xs)
      local d = head(h_n[1]) - y
      local loss = d:mul(d):mean()
      loss:backward()
      nn.clip_grad_norm(params, 1)
      opt:step()
      total = total + loss.value:get(1, 1)
    end
    print(string.format("%-4s T = %3d: mean training MSE %.4f over %d batches", kind, T,
      total / batches, batches))
  end
  local xs, y = sequences(luma.random.Generator(3), 500, 100)
  local mse = luma.autograd.no_grad(function()
    local _, h_n = rnn(xs)
    return (head(h_n[1]).value - y):pow(2):mean()
  end)
  return mse, luma.now() - t0
end

local lstm, lstm_time = train("LSTM")
local rnn, rnn_time = train("RNN")
print(string.format("test MSE at T = 100: LSTM %.4f, RNN %.4f (baseline of predicting 1: %.3f)",
  lstm, rnn, 2 / 12))
print(string.format("training time: LSTM %.0f s, RNN %.0f s", lstm_time, rnn_time))
