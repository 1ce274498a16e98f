-- A character-level LSTM language model (Graves 2013, "Generating
-- Sequences With Recurrent Neural Networks"; Karpathy's char-rnn) on a
-- public-domain text shipped by a Debian package: SQLite's release
-- history, /usr/share/doc/sqlite3/changelog.gz of the package sqlite3
-- (SQLite and its documentation are in the public domain; the Debian
-- package's copyright file says so).  docs/NN.md, "Worked examples".
--
-- The text (about 300,000 characters of release notes, spaces collapsed)
-- is cut 90/10 into training and held-out parts.  An LSTM of 128 units
-- reads one-hot characters and a linear layer gives the logits of the next
-- character at every step; Adam (rate 0.005, gradients clipped to norm 5)
-- trains it on batches of 32 random windows of 50 characters.  Prints the
-- mean training loss every 50 batches (nats a character; log(vocabulary)
-- at the start), the held-out loss before and after, and 300 characters
-- sampled at temperature 0.6 after the prompt "SQLite ":
--   build/luma scripts/examples/nn_char_lstm.lua [BATCHES = 400]
-- (measured: vocabulary 92, held-out loss 4.53 -> 2.02 in 400 batches,
-- 26 s of CPU, 67 s on the 2-core machine under load; the sample reads
-- "SQLite the and fices in the " option or the buge rollowite ...": words,
-- spacing and the text's identifiers, SQLITE_..., in the right places).
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local nn, autograd = luma.nn, luma.autograd

local SOURCE = "/usr/share/doc/sqlite3/changelog.gz"
local BATCHES = tonumber(... or arg and arg[1]) or 400
local H, T, BATCH = 128, 50, 32

local pipe = assert(io.popen("gzip -dc " .. SOURCE))
local raw = pipe:read("a")
pipe:close()
if #raw == 0 then error(SOURCE .. " is missing or empty: install the Debian package sqlite3") end
-- from the release notes on, printable ASCII, runs of blanks as one space
local text = raw:sub((raw:find("Release History", 1, true) or 1)):gsub("[^\32-\126]", " ")
  :gsub("%s+", " ")

-- the vocabulary: every character of the text, in byte order
local seen, vocab = {}, {}
for ch in text:gmatch(".") do seen[ch] = true end
for b = 32, 126 do
  if seen[string.char(b)] then vocab[#vocab + 1] = string.char(b) end
end
local index = {}
for k, ch in ipairs(vocab) do index[ch] = k end
local V = #vocab
local codes = {}
for k = 1, #text do codes[k] = index[text:sub(k, k)] end
local split = math.floor(0.9 * #codes)
print(string.format("%s: %d characters, vocabulary of %d; training on the first %d", SOURCE,
  #codes, V, split))

-- rows of one-hot codes: n x V
local function one_hot(list)
  local M = luma.zeros(#list, V)
  for i, c in ipairs(list) do M:set(i, c, 1) end
  return M
end

-- windows starting at the given offsets: the T input steps (n x V each)
-- and the next characters, T blocks of n (the layout of vstack(outputs))
local function windows(starts)
  local xs, targets = {}, {}
  for t = 1, T do
    local step = {}
    for i, s in ipairs(starts) do
      step[i] = codes[s + t - 1]
      targets[(t - 1) * #starts + i] = codes[s + t]
    end
    xs[t] = one_hot(step)
  end
  return xs, one_hot(targets)
end

local g = luma.random.Generator(1)
local lstm = nn.LSTM(V, H, { generator = g })
local head = nn.Linear(H, V, { generator = g })
local params = lstm:parameters()
for _, p in ipairs(head:parameters()) do params[#params + 1] = p end
local opt = luma.optim.Adam { lr = 0.005, params = params }

-- the mean loss (nats a character) of windows over the given starts
local function loss_of(xs, targets)
  local outputs = lstm(xs)
  local logits = head(autograd.vstack(outputs))
  return -(logits:log_softmax(2):mul(targets)):sum() / targets:rows()
end

-- the held-out loss on 64 fixed windows of the last 10%
local held = {}
for i = 1, 64 do held[i] = split + (i - 1) * ((#codes - split - T - 1) // 64) + 1 end
local held_xs, held_targets = windows(held)
local function held_out()
  return autograd.no_grad(function() return loss_of(held_xs, held_targets).value:get(1, 1) end)
end

local before = held_out()
local t0, total = luma.now(), 0
for b = 1, BATCHES do
  local starts = {}
  for i = 1, BATCH do starts[i] = math.floor(g:uniform(1, 1):get(1, 1) * (split - T - 1)) + 1 end
  local xs, targets = windows(starts)
  opt:zero_grad()
  local loss = loss_of(xs, targets)
  loss:backward()
  nn.clip_grad_norm(params, 5)
  opt:step()
  total = total + loss.value:get(1, 1)
  if b % 50 == 0 then
    print(string.format("batch %4d: training loss %.3f (%.0f s)", b, total / 50, luma.now() - t0))
    total = 0
  end
end
print(string.format("held-out loss %.3f before training, %.3f after (log %d = %.3f)", before,
  held_out(), V, math.log(V)))

-- sampling: the state after the prompt, then one character at a time
-- drawn from softmax(logits / temperature)
lstm:evaluate()
local prompt, temperature = "SQLite ", 0.6
local sample = { prompt }
autograd.no_grad(function()
  local h, c
  local function step(code)
    local outputs, h_n, c_n = lstm({ one_hot({ code }) }, h and { h0 = h, c0 = c } or nil)
    h, c = h_n, c_n
    return head(outputs[1]).value
  end
  local logits
  for k = 1, #prompt do logits = step(index[prompt:sub(k, k)]) end
  for _ = 1, 300 do
    local p = (logits / temperature):softmax(2)
    local u, acc, pick = g:uniform(1, 1):get(1, 1), 0, V
    for k = 1, V do
      acc = acc + p:get(1, k)
      if u <= acc then pick = k break end
    end
    sample[#sample + 1] = vocab[pick]
    logits = step(pick)
  end
end)
print("sample: " .. table.concat(sample))
