-- Benchmark runner:
--   build/luma scripts/bench/run.lua [--quick] [--write-baseline] [--baseline FILE] [NAME_PATTERN]
-- (`make bench`, `make bench BENCH=startup`, `make bench-quick`,
-- `make bench-baseline`).
--
-- Every row is a pair, the Luma side and a peer doing the same work, run
-- alternately (luma, peer, luma, peer, ...) so that drift in machine load
-- hits both sides alike; the table reports medians because a single slow
-- run (a page-cache miss, a noisy neighbour) would drag a mean.
--
-- Rows live in scripts/bench/rows/<name>.lua, one descriptor per file, so
-- adding a benchmark never means editing this file; see README.md.  The
-- table goes to stdout, progress to stderr, the full data to
-- <build>/bench.json.  Exit status 1 when a Luma side failed; a missing
-- peer is only "skipped", and targets are informational.
--
-- Each ratio is compared with the committed baseline (baseline.lua, the
-- ratios of the last full run): a row more than 15% above it is marked
-- WORSE and listed after the table, so that a change to the core which
-- slows a kernel shows on the next run.  --write-baseline records this
-- run's ratios there.  --quick runs the short list in quick.lua.  Rows that
-- declare the bytes or flops of their kernel also show the fraction of the
-- machine's memory bandwidth or dgemm rate they reach, both measured in the
-- same run.
--
-- Nothing here times anything itself: benchtool, ptydrive or the script
-- under test do, so this runs under plain lua5.4 as well as under luma.
-- SPDX-License-Identifier: MIT

local USAGE = "usage: run.lua [--quick] [--write-baseline] [--baseline FILE] [NAME_PATTERN]"

-- A ratio this much above the baseline's is marked WORSE.
local WORSE_BY = 0.15

-- Paths --------------------------------------------------------------------

local function dirname(path)
  return path and path:match("^(.*)/[^/]*$")
end

local BENCH_DIR = dirname(arg and arg[0]) or "."
local ROWS_DIR = BENCH_DIR .. "/rows"
local QUICK_FILE = BENCH_DIR .. "/quick.lua"

-- Command line ---------------------------------------------------------------

local function usage_error(message)
  io.stderr:write("bench: ", message, "\n", USAGE, "\n")
  os.exit(2)
end

local function parse_args(...)
  local opts = { baseline = BENCH_DIR .. "/baseline.lua" }
  local args = table.pack(...)
  local i = 1
  while i <= args.n do
    local a = args[i]
    if a == "--quick" then
      opts.quick = true
    elseif a == "--write-baseline" then
      opts.write_baseline = true
    elseif a == "--baseline" then
      i = i + 1
      opts.baseline = args[i] or usage_error("--baseline needs a file")
    elseif a:match("^%-%-baseline=") then
      opts.baseline = a:match("^%-%-baseline=(.*)$")
    elseif a:match("^%-%-") then
      usage_error("unknown option " .. a)
    elseif opts.pattern then
      usage_error("one name pattern at most, got '" .. opts.pattern .. "' and '" .. a .. "'")
    elseif a ~= "" then
      opts.pattern = a
    end
    i = i + 1
  end
  return opts
end

local OPTS = parse_args(...)
local pattern = OPTS.pattern

-- The build directory is the one holding the interpreter we were started
-- with (`make bench BUILD=build-asan` runs build-asan/luma), so the rows
-- measure that very binary; BUILD in the environment overrides.
local function find_build_dir()
  local from_env = os.getenv("BUILD")
  if from_env and from_env ~= "" then return from_env end
  local interpreter = arg and arg[-1]
  if interpreter and interpreter:match("/luma$") then return dirname(interpreter) end
  return "build"
end

local BUILD = find_build_dir()
local BENCHTOOL = BUILD .. "/benchtool"
local PTYDRIVE = BUILD .. "/ptydrive"

-- What row files receive as `...`: paths they need to build commands.
local ROW_ENV = {
  luma = BUILD .. "/luma",
  build = BUILD,
  dir = BENCH_DIR,
  -- Debian's python3 is the one with python3-numpy/-sklearn installed
  -- (scripts/setup-deps --bench); the python3 on PATH may be another build.
  python = "/usr/bin/python3",
}

-- Running commands -----------------------------------------------------------

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- Shell command line for an argv list with optional environment additions.
-- Environment keys are sorted so the command line is reproducible.
local function command_line(argv, env)
  local words = {}
  local keys = {}
  for k in pairs(env or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do words[#words + 1] = k .. "=" .. quote(env[k]) end
  for _, a in ipairs(argv) do words[#words + 1] = quote(a) end
  return table.concat(words, " ")
end

-- Runs argv with stdin from /dev/null (a REPL peer must not wait on our
-- terminal); returns its stdout+stderr, and its exit status (0 = success).
local function capture(argv, env)
  local pipe = assert(io.popen(command_line(argv, env) .. " </dev/null 2>&1", "r"))
  local output = pipe:read("a")
  local _, how, code = pipe:close()
  if how == "signal" then code = 128 + code end
  return output, code
end

local function succeeds(argv, env)
  local _, code = capture(argv, env)
  return code == 0
end

local function is_installed(program)
  return succeeds({ "sh", "-c", 'command -v "$1"', "sh", program })
end

-- First non-empty line of a command's output, for short error messages.
local function first_line(output)
  return output:match("[^\n]*%S[^\n]*") or "(no output)"
end

-- Measurement kinds ----------------------------------------------------------
-- Each takes a side ({argv, env, ...}) and returns one sample in the kind's
-- base unit (seconds or KiB), or nil and a message.

local measure = {}

-- Whole-process wall time, taken by benchtool (fork/exec/wait4 with no
-- shell in between, which would add about a millisecond).
function measure.wall(side)
  local argv = { BENCHTOOL, "1" }
  table.move(side.argv, 1, #side.argv, 3, argv)
  local output, code = capture(argv, side.env)
  local wall, status = output:match("^(%S+) %d+ (%d+)")
  if code ~= 0 or not wall then return nil, "benchtool: " .. first_line(output) end
  if status ~= "0" then return nil, "exit status " .. status end
  return tonumber(wall)
end

-- The script times its own kernel and prints a line "time <seconds>", so
-- interpreter start-up and data loading stay out of the number.
function measure.internal(side)
  local output, code = capture(side.argv, side.env)
  if code ~= 0 then return nil, string.format("exit status %d: %s", code, first_line(output)) end
  for line in output:gmatch("[^\n]+") do
    local seconds = tonumber(line:match("^time%s+(%S+)%s*$"))
    if seconds then return seconds end
  end
  return nil, "no 'time <seconds>' line in output"
end

local function write_temp(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

-- Resident memory of an idle interactive session: start the program on a
-- pseudo-terminal (a REPL behaves differently on a pipe), wait for its
-- prompt, let it settle, read VmRSS, then end it with Ctrl-D.
function measure.rss(side)
  local script = write_temp(table.concat({
    "expect " .. side.prompt:gsub("\\", "\\\\"),
    "sleep " .. side.settle,
    "rss",
    "send \\x04",
    "wait",
  }, "\n") .. "\n")
  local argv = { PTYDRIVE, "-t", "20", script, "--" }
  table.move(side.argv, 1, #side.argv, #argv + 1, argv)
  local output, code = capture(argv, side.env)
  os.remove(script)
  local kb = tonumber(output:match("rss_kb (%d+)"))
  if code ~= 0 or not kb then return nil, "ptydrive: " .. first_line(output) end
  return kb
end

-- Display units per kind, as multipliers of the kind's base unit.
local UNITS = {
  wall = { s = 1, ms = 1e3, us = 1e6 },
  internal = { s = 1, ms = 1e3, us = 1e6, ns = 1e9 },
  rss = { KiB = 1, MB = 1 / 1024 },
}

-- Runs per side when a row does not say: start-up is noisy and cheap,
-- an idle RSS is nearly deterministic and a REPL session costs a second.
local DEFAULT_RUNS = { wall = 15, internal = 7, rss = 5 }

-- Machine limits -------------------------------------------------------------
-- A row may declare what its Luma side moves or computes per timed run:
-- limit = { kind = "bandwidth", bytes = B } or { kind = "flops", flops = F }.
-- The achieved rate (B or F over the Luma median) is shown as a fraction
-- of the machine's, measured once per run, when the first row that needs
-- it comes: the memory bandwidth by benchtool's STREAM-like copy and triad
-- (the better of the two), the dgemm rate by kernels/matmul.lua on
-- DGEMM_N x DGEMM_N through Luma's BLAS.  A fraction near 1 says that the
-- kernel runs at the machine's limit and can only be sped up by moving or
-- computing less; above 1 (bandwidth), its data stayed in cache.

local DGEMM_N = 3000

local LIMITS = {
  bandwidth = {
    field = "bytes",
    label = "bandwidth",
    unit = "GB/s",
    measure = function()
      local output, code = capture({ BENCHTOOL, "stream" })
      local copy, triad, threads, mib = output:match("copy (%S+) triad (%S+) threads (%d+) mib (%d+)")
      copy, triad = tonumber(copy), tonumber(triad)
      if code ~= 0 or not (copy and triad) then return nil, "benchtool stream: " .. first_line(output) end
      return math.max(copy, triad), string.format("memory bandwidth %.1f GB/s (benchtool stream: "
        .. "copy %.1f, triad %.1f GB/s, %s threads, arrays of %s MiB)", math.max(copy, triad), copy,
        triad, threads, mib)
    end,
  },
  flops = {
    field = "flops",
    label = "dgemm",
    unit = "GFLOP/s",
    measure = function()
      local output, code = capture({ ROW_ENV.luma, BENCH_DIR .. "/kernels/matmul.lua",
        tostring(DGEMM_N) })
      local seconds
      for line in output:gmatch("[^\n]+") do
        seconds = seconds or tonumber(line:match("^time%s+(%S+)%s*$"))
      end
      if code ~= 0 or not seconds then return nil, "kernels/matmul.lua: " .. first_line(output) end
      local rate = 2 * DGEMM_N ^ 3 / seconds * 1e-9
      return rate, string.format("dgemm %.1f GFLOP/s (%d x %d product through Luma's BLAS, best "
        .. "of 3)", rate, DGEMM_N, DGEMM_N)
    end,
  },
}

-- kind -> { rate = GB/s or GFLOP/s, about = text } or { error = text }
local machine_limits = {}

local function machine_limit(kind)
  local known = machine_limits[kind]
  if not known then
    io.stderr:write("bench: measuring the machine's ", LIMITS[kind].label, " ...\n")
    local rate, about = LIMITS[kind].measure()
    known = rate and { rate = rate, about = about } or { error = about }
    if known.error then io.stderr:write("bench: ", known.error, "\n") end
    machine_limits[kind] = known
  end
  return known
end

-- Data files -------------------------------------------------------------------
-- quick.lua and baseline.lua are data: text chunks run in an empty
-- environment, so they can build tables and nothing else.  Returns the
-- value, or nil, a message and whether the file is missing.

local function load_data(path)
  local f, err = io.open(path, "r")
  if not f then return nil, err, true end
  local text = f:read("a")
  f:close()
  local chunk, message = load(text, "@" .. path, "t", {})
  if not chunk then return nil, message end
  local ok, value = pcall(chunk)
  if not ok then return nil, tostring(value) end
  return value
end

local function is_ratio(v)
  return type(v) == "number" and v > 0 and v < math.huge
end

-- The baseline, or nil (with a warning) when the file does not exist;
-- a malformed one is an error, since it would silently disable the guard.
local function load_baseline(path)
  local b, err, missing = load_data(path)
  if missing then
    io.stderr:write("bench: no baseline (", err, "): every row is new\n")
    return nil
  end
  local function bad(why)
    io.stderr:write("bench: bad baseline ", path, ": ", why, "\n")
    os.exit(2)
  end
  if b == nil then bad(err) end
  if type(b) ~= "table" or type(b.rows) ~= "table" then bad("must return a table with a rows table") end
  for _, field in ipairs({ "machine", "date", "commit", "note" }) do
    if b[field] ~= nil and type(b[field]) ~= "string" then bad(field .. " must be a string") end
  end
  for name, ratio in pairs(b.rows) do
    if type(name) ~= "string" or not is_ratio(ratio) then
      bad("rows must map row names to positive ratios, got " .. tostring(name) .. " = "
        .. tostring(ratio))
    end
  end
  return b
end

-- Loading rows -------------------------------------------------------------

local function list_row_files()
  local output, code = capture({ "ls", "-1", ROWS_DIR })
  assert(code == 0, "cannot list " .. ROWS_DIR .. ": " .. first_line(output))
  local files = {}
  for name in output:gmatch("[^\n]+") do
    if name:match("%.lua$") then files[#files + 1] = name end
  end
  table.sort(files)
  return files
end

local function check_side(side, what, file)
  local where = file .. ": " .. what
  assert(type(side) == "table", where .. " must be a table")
  assert(type(side.argv) == "table" and #side.argv > 0, where .. ".argv must be a non-empty list")
  assert(side.env == nil or type(side.env) == "table", where .. ".env must be a table")
end

-- Loads one descriptor, checks it and fills in defaults; the row is named
-- after its file so a name can never be declared twice.
local function load_row(file)
  local path = ROWS_DIR .. "/" .. file
  local chunk = assert(loadfile(path))
  local row = chunk(ROW_ENV)
  assert(type(row) == "table", path .. " must return a table")
  row.name = file:gsub("%.lua$", "")
  assert(measure[row.kind], path .. ": kind must be wall, internal or rss")
  row.unit = row.unit or (row.kind == "rss" and "MB" or "ms")
  assert(UNITS[row.kind][row.unit], path .. ": unit '" .. tostring(row.unit)
    .. "' does not fit kind " .. row.kind)
  row.runs = row.runs or DEFAULT_RUNS[row.kind]
  row.warmup = row.warmup or (row.kind == "rss" and 0 or 1)
  assert(row.target == nil or (row.target.max == nil) ~= (row.target.max_ratio == nil),
    path .. ": target needs exactly one of max and max_ratio")
  if row.limit ~= nil then
    local limit = LIMITS[type(row.limit) == "table" and row.limit.kind]
    assert(limit, path .. ": limit.kind must be bandwidth or flops")
    assert(row.kind ~= "rss", path .. ": a limit needs a time (kind wall or internal)")
    local amount = row.limit[limit.field]
    assert(type(amount) == "number" and amount > 0,
      path .. ": limit." .. limit.field .. " must be a positive number")
  end
  check_side(row.luma, "luma", path)
  check_side(row.peer, "peer", path)
  assert(type(row.peer.name) == "string", path .. ": peer.name must be a string")
  for _, side in ipairs({ row.luma, row.peer }) do
    if row.kind == "rss" then
      assert(type(side.prompt) == "string", path .. ": rss sides need a prompt")
      side.settle = side.settle or 0.3
    end
  end
  return row
end

-- Running rows -------------------------------------------------------------

local function median(xs)
  local sorted = table.move(xs, 1, #xs, 1, {})
  table.sort(sorted)
  local n = #sorted
  if n % 2 == 1 then return sorted[(n + 1) // 2] end
  return (sorted[n // 2] + sorted[n // 2 + 1]) / 2
end

local function summarize(samples)
  if #samples == 0 then return nil end
  return {
    median = median(samples),
    min = math.min(table.unpack(samples)),
    max = math.max(table.unpack(samples)),
    samples = samples,
  }
end

-- Why the peer cannot run, or nil.  Missing peers are normal (a machine
-- without scripts/setup-deps --bench), so this is a "skipped", not an error.
local function peer_unavailable(peer)
  local program = peer.argv[1]
  if not is_installed(program) then return program .. " not installed" end
  if peer.check and not succeeds(peer.check, peer.env) then
    return "check failed: " .. command_line(peer.check)
  end
  return nil
end

local function run_row(row, baseline)
  local scale = UNITS[row.kind][row.unit]
  local result = { luma = {}, peer = {} }
  -- measured before the row's own runs, so that a row's time and the
  -- machine's rate are taken under the same load as far as possible
  local machine = row.limit and machine_limit(row.limit.kind)
  local sides = {
    { def = row.luma, out = result.luma, samples = {} },
    { def = row.peer, out = result.peer, samples = {} },
  }
  result.peer.skipped = peer_unavailable(row.peer)
  local live = { sides[1], not result.peer.skipped and sides[2] or nil }

  -- Unmeasured first runs fill the page cache (and the .pyc cache), which
  -- would otherwise make run 1 an outlier on whichever side went first.
  for round = 1, row.warmup + row.runs do
    for i = 1, 2 do
      local side = live[i]
      if side then
        local value, err = measure[row.kind](side.def)
        if not value then
          if i == 1 then side.out.error = err else side.out.skipped = "run failed: " .. err end
          live[i] = nil
        elseif round > row.warmup then
          side.samples[#side.samples + 1] = value * scale
        end
      end
    end
    if not live[1] then break end
  end

  for _, side in ipairs(sides) do
    local stats = summarize(side.samples)
    for k, v in pairs(stats or {}) do side.out[k] = v end
  end
  -- Partial samples of a side that failed mid-row are kept in the JSON but
  -- must not make a median.
  if result.luma.error then result.luma.median = nil end
  if result.peer.skipped then result.peer.median = nil end
  if result.luma.median and result.peer.median then
    result.ratio = result.luma.median / result.peer.median
  end
  -- A target bounds the Luma median (max, in the row's unit) or the
  -- luma/peer ratio (max_ratio); with a skipped peer a ratio target is n/a.
  if row.target and row.target.max and result.luma.median then
    result.target_pass = result.luma.median <= row.target.max
  elseif row.target and row.target.max_ratio and result.ratio then
    result.target_pass = result.ratio <= row.target.max_ratio
  end
  result.baseline = baseline and baseline.rows[row.name]
  if result.baseline and result.ratio then
    result.vs_baseline = result.ratio / result.baseline - 1
    result.worse = result.vs_baseline > WORSE_BY
  end
  if machine and result.luma.median then
    local limit = LIMITS[row.limit.kind]
    local achieved = row.limit[limit.field] / (result.luma.median / scale) * 1e-9
    result.limit = { kind = row.limit.kind, [limit.field] = row.limit[limit.field],
      unit = limit.unit, achieved = achieved, machine = machine.rate,
      fraction = machine.rate and achieved / machine.rate }
  end
  return result
end

-- Output ---------------------------------------------------------------------

local function fmt_num(v)
  if v == nil then return "-" end
  if v >= 100 then return string.format("%.0f", v) end
  if v >= 10 then return string.format("%.1f", v) end
  return string.format("%.2f", v)
end

local function fmt_ratio(r)
  if r == nil then return "-" end
  return string.format("%.3g", r)
end

local function status_text(row, result)
  local parts = {}
  if result.luma.error then parts[#parts + 1] = "ERROR: " .. result.luma.error end
  if row.target then
    local verdict = result.target_pass == nil and "n/a"
      or result.target_pass and "PASS" or "FAIL"
    local bound = row.target.max and string.format("< %g %s", row.target.max, row.unit)
      or string.format("ratio <= %g", row.target.max_ratio)
    parts[#parts + 1] = string.format("%s (%s)", verdict, bound)
  end
  if result.peer.skipped then parts[#parts + 1] = "peer skipped: " .. result.peer.skipped end
  return #parts > 0 and table.concat(parts, "; ") or "-"
end

-- The ratio's change against the baseline: "+3%", "-20%", "+31% WORSE";
-- "new" for a row the baseline lacks, "-" without a ratio to compare.
local function baseline_text(result)
  if not result.baseline then return "new" end
  if not result.vs_baseline then return "-" end
  local text = string.format("%+.0f%%", result.vs_baseline * 100)
  return result.worse and text .. " WORSE" or text
end

local function limit_text(row, result)
  if not (result.limit and result.limit.fraction) then return "-" end
  return string.format("%.0f%% of %s", result.limit.fraction * 100, LIMITS[row.limit.kind].label)
end

local COLUMNS = {
  { title = "name" },
  { title = "peer" },
  { title = "luma", right = true },
  { title = "peer", right = true },
  { title = "luma/peer", right = true },
  { title = "vs base", right = true },
  { title = "unit" },
  { title = "limit" },
  { title = "target / status" },
}

local function table_cells(row, result)
  return {
    row.name,
    row.peer.name,
    result.luma.error and "error" or fmt_num(result.luma.median),
    result.peer.skipped and "skipped" or fmt_num(result.peer.median),
    fmt_ratio(result.ratio),
    baseline_text(result),
    row.unit,
    limit_text(row, result),
    status_text(row, result),
  }
end

local function print_table(lines)
  local widths = {}
  for i, col in ipairs(COLUMNS) do
    widths[i] = #col.title
    for _, cells in ipairs(lines) do widths[i] = math.max(widths[i], #cells[i]) end
  end
  local function emit(cells)
    local out = {}
    for i, col in ipairs(COLUMNS) do
      local fmt = i == #COLUMNS and "%s" or col.right and "%" .. widths[i] .. "s"
        or "%-" .. widths[i] .. "s"
      out[i] = string.format(fmt, cells[i])
    end
    print(table.concat(out, "  "))
  end
  local titles = {}
  for i, col in ipairs(COLUMNS) do titles[i] = col.title end
  emit(titles)
  for _, cells in ipairs(lines) do emit(cells) end
  print("(medians; luma and peer columns in the row's unit; lower is better)")
end

-- What the table's last columns were measured against, and the rows that
-- got worse.
local function print_summary(baseline, baseline_path, worse)
  if baseline then
    print(string.format("vs base: luma/peer against %s (%s, %s, commit %s); WORSE: more than "
      .. "%.0f%% above it", baseline_path, baseline.date or "undated",
      baseline.machine or "unknown machine", baseline.commit or "unknown", WORSE_BY * 100))
  else
    print("vs base: no baseline at " .. baseline_path)
  end
  for _, kind in ipairs({ "bandwidth", "flops" }) do
    local known = machine_limits[kind]
    if known then print("limit: " .. (known.about or known.error)) end
  end
  if #worse == 0 then
    if baseline then
      print(string.format("no row is more than %.0f%% worse than the baseline", WORSE_BY * 100))
    end
    return
  end
  print(string.format("WORSE than the baseline by more than %.0f%% (%d):", WORSE_BY * 100, #worse))
  for _, w in ipairs(worse) do
    print(string.format("  %s: luma/peer %s against %s (%+.0f%%)", w.name, fmt_ratio(w.ratio),
      fmt_ratio(w.baseline), w.vs_baseline * 100))
  end
end

-- JSON -------------------------------------------------------------------------
-- A small encoder: objects get sorted keys so the file diffs cleanly;
-- NaN and infinities, which JSON lacks, become null.

local JSON_ESCAPES = {
  ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t",
}

local function json_string(s)
  local escaped = s:gsub('[%c"\\]', function(c)
    return JSON_ESCAPES[c] or string.format("\\u%04x", c:byte())
  end)
  return '"' .. escaped .. '"'
end

local function json_number(n)
  if math.type(n) == "integer" then return string.format("%d", n) end
  if n ~= n or n == math.huge or n == -math.huge then return "null" end
  -- Shortest of the usual precisions that reads back to the same double.
  local s = string.format("%.15g", n)
  if tonumber(s) ~= n then s = string.format("%.17g", n) end
  return s
end

-- A table is an array when its keys are exactly 1..n (an empty table too).
local function is_array(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n == #t
end

local json_encode -- forward: values nest

local function json_table(t, depth)
  assert(depth < 32, "json: nesting too deep (a cycle?)")
  local parts = {}
  if is_array(t) then
    for i = 1, #t do parts[i] = json_encode(t[i], depth + 1) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(t) do
    assert(type(k) == "string", "json: object keys must be strings")
    keys[#keys + 1] = k
  end
  table.sort(keys)
  for i, k in ipairs(keys) do parts[i] = json_string(k) .. ":" .. json_encode(t[k], depth + 1) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function json_encode(v, depth)
  local t = type(v)
  if t == "nil" then return "null" end
  if t == "boolean" then return tostring(v) end
  if t == "number" then return json_number(v) end
  if t == "string" then return json_string(v) end
  if t == "table" then return json_table(v, depth or 0) end
  error("json: cannot encode a " .. t)
end

-- Build information when running under luma (absent under plain lua5.4).
local function luma_config()
  local ok, luma = pcall(require, "luma")
  if ok and type(luma) == "table" and luma.config then return luma.config() end
  return nil
end

local function json_row(row, result)
  return {
    name = row.name,
    about = row.about,
    kind = row.kind,
    unit = row.unit,
    better = "lower",
    runs = row.runs,
    luma = result.luma,
    peer = {
      name = row.peer.name,
      median = result.peer.median,
      min = result.peer.min,
      max = result.peer.max,
      samples = result.peer.samples,
      skipped = result.peer.skipped,
    },
    ratio = result.ratio,
    baseline = result.baseline,
    vs_baseline = result.vs_baseline,
    worse = result.worse,
    limit = result.limit,
    target = row.target and { max = row.target.max, max_ratio = row.target.max_ratio,
      pass = result.target_pass },
  }
end

local function write_json(path, rows, baseline)
  local f = assert(io.open(path, "w"))
  f:write(json_encode({
    generated = os.date("!%Y-%m-%dT%H:%M:%SZ"),
    filter = pattern,
    quick = OPTS.quick or nil,
    config = luma_config(),
    baseline = baseline and { file = OPTS.baseline, machine = baseline.machine,
      date = baseline.date, commit = baseline.commit },
    machine_limits = next(machine_limits) and machine_limits or nil,
    rows = rows,
  }), "\n")
  f:close()
end

-- Writing the baseline ---------------------------------------------------------

-- "<model name>, <n> logical CPUs" from /proc/cpuinfo.
local function machine_description()
  local f = io.open("/proc/cpuinfo", "r")
  if not f then return "unknown machine" end
  local model, cpus = nil, 0
  for line in f:lines() do
    if line:match("^processor%s*:") then cpus = cpus + 1 end
    model = model or line:match("^model name%s*:%s*(.-)%s*$")
  end
  f:close()
  return string.format("%s, %d logical CPUs", model or "unknown CPU", cpus)
end

-- The short hash of HEAD, "-dirty" when tracked files differ from it (the
-- numbers then belong to no commit).
local function source_commit()
  local output, code = capture({ "git", "-C", BENCH_DIR, "rev-parse", "--short", "HEAD" })
  local commit = code == 0 and output:match("^%x+")
  if not commit then return "unknown" end
  local status = capture({ "git", "-C", BENCH_DIR, "status", "--porcelain", "--untracked-files=no" })
  return status:match("%S") and commit .. "-dirty" or commit
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Writes the ratios measured in this run to path; entries of the previous
-- baseline for rows this run did not measure (filtered out, peer skipped,
-- Luma side failed) are kept and named in the note, those of rows that no
-- longer exist are dropped.  Written to a temporary file and renamed, so
-- an interrupted write leaves the old baseline.
local function write_baseline(path, measured, previous, row_names)
  local rows, kept = {}, {}
  for name, ratio in pairs(measured) do rows[name] = ratio end
  for name, ratio in pairs(previous and previous.rows or {}) do
    if rows[name] == nil and row_names[name] then
      rows[name] = ratio
      kept[#kept + 1] = name
    end
  end
  table.sort(kept)
  local n_measured = #sorted_keys(measured)
  local note = string.format("luma/peer medians of %d row%s measured by run.lua "
    .. "--write-baseline%s%s", n_measured, n_measured == 1 and "" or "s",
    OPTS.quick and " --quick" or "", pattern and " (rows matching '" .. pattern .. "')" or "")
  if #kept > 0 then
    note = string.format("%s; %d kept from the previous baseline (%s, commit %s): %s", note, #kept,
      previous.date or "undated", previous.commit or "unknown", table.concat(kept, ", "))
  end
  local out = {
    "-- luma/peer ratios that `make bench` compares each run with (see README.md,",
    "-- \"Baseline\").  Written by `make bench-baseline` (run.lua --write-baseline);",
    "-- read as data, in an empty environment.",
    "-- SPDX-License-Identifier: MIT",
    "return {",
    string.format("  machine = %q,", machine_description()),
    string.format("  date = %q,", os.date("%Y-%m-%d")),
    string.format("  commit = %q,", source_commit()),
    string.format("  note = %q,", note),
    "  rows = {",
  }
  for _, name in ipairs(sorted_keys(rows)) do
    out[#out + 1] = string.format("    [%q] = %.3g,", name, rows[name])
  end
  out[#out + 1] = "  },"
  out[#out + 1] = "}"
  local temp = path .. ".tmp"
  local f = assert(io.open(temp, "w"))
  f:write(table.concat(out, "\n"), "\n")
  f:close()
  assert(os.rename(temp, path))
  io.stderr:write(string.format("bench: wrote %s (measured %d, kept %d)\n", path, n_measured, #kept))
end

-- Main -------------------------------------------------------------------------

-- A row is selected when its name contains the pattern as plain text
-- (row names are full of '-', a Lua quantifier: BENCH=add-1e7 must find
-- add-1e7) or matches it as a Lua pattern (BENCH='^linalg').
local function matches(name)
  if pattern == nil or pattern == "" then return true end
  if name:find(pattern, 1, true) then return true end
  local ok, found = pcall(string.find, name, pattern)
  if not ok then
    io.stderr:write("bench: bad pattern '", pattern, "': ", found, "\n")
    os.exit(2)
  end
  return found ~= nil
end

-- The quick subset: name -> its entry of quick.lua ({ name, runs }), every
-- name checked against rows/ so that a renamed row cannot drop out of it
-- unnoticed.
local function load_quick(row_names)
  local list, err = load_data(QUICK_FILE)
  if type(list) ~= "table" then
    io.stderr:write("bench: bad ", QUICK_FILE, ": ", err or "must return a list", "\n")
    os.exit(2)
  end
  local quick = {}
  for i, entry in ipairs(list) do
    local ok = type(entry) == "table" and row_names[entry.name]
      and (entry.runs == nil or math.type(entry.runs) == "integer" and entry.runs >= 1)
    if not ok then
      io.stderr:write(string.format("bench: %s: entry %d must be { name = <a row in rows/>, "
        .. "runs = <runs per side, optional> }\n", QUICK_FILE, i))
      os.exit(2)
    end
    quick[entry.name] = entry
  end
  return quick
end

local function main()
  local all, row_names = {}, {}
  for _, file in ipairs(list_row_files()) do
    local row = load_row(file)
    all[#all + 1] = row
    row_names[row.name] = true
  end
  local quick = OPTS.quick and load_quick(row_names)
  local rows = {}
  for _, row in ipairs(all) do
    if matches(row.name) and (not quick or quick[row.name]) then
      if quick then row.runs = quick[row.name].runs or row.runs end
      rows[#rows + 1] = row
    end
  end
  if #rows == 0 then
    io.stderr:write("bench: no benchmark matches '", tostring(pattern), "'\n")
    return 2
  end
  local baseline = load_baseline(OPTS.baseline)

  local lines, json_rows, worse, measured, failed = {}, {}, {}, {}, false
  for _, row in ipairs(rows) do
    io.stderr:write(string.format("bench: %s (%d runs each) ...\n", row.name, row.runs))
    local result = run_row(row, baseline)
    failed = failed or result.luma.error ~= nil
    lines[#lines + 1] = table_cells(row, result)
    json_rows[#json_rows + 1] = json_row(row, result)
    measured[row.name] = result.ratio
    if result.worse then
      worse[#worse + 1] = { name = row.name, ratio = result.ratio, baseline = result.baseline,
        vs_baseline = result.vs_baseline }
    end
  end
  print_table(lines)
  print_summary(baseline, OPTS.baseline, worse)
  local json_path = BUILD .. "/bench.json"
  write_json(json_path, json_rows, baseline)
  io.stderr:write("bench: wrote ", json_path, "\n")
  if OPTS.write_baseline then write_baseline(OPTS.baseline, measured, baseline, row_names) end
  return failed and 1 or 0
end

os.exit(main())
