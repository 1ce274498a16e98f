-- Benchmark runner: `build/luma scripts/bench/run.lua [NAME_PATTERN]`
-- (`make bench`, `make bench BENCH=startup`).
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
-- Nothing here times anything itself: benchtool, ptydrive or the script
-- under test do, so this runs under plain lua5.4 as well as under luma.

local pattern = ...

-- Paths --------------------------------------------------------------------

local function dirname(path)
  return path and path:match("^(.*)/[^/]*$")
end

local BENCH_DIR = dirname(arg and arg[0]) or "."
local ROWS_DIR = BENCH_DIR .. "/rows"

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
  internal = { s = 1, ms = 1e3, us = 1e6 },
  rss = { KiB = 1, MB = 1 / 1024 },
}

-- Runs per side when a row does not say: start-up is noisy and cheap,
-- an idle RSS is nearly deterministic and a REPL session costs a second.
local DEFAULT_RUNS = { wall = 15, internal = 7, rss = 5 }

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

local function run_row(row)
  local scale = UNITS[row.kind][row.unit]
  local result = { luma = {}, peer = {} }
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

local COLUMNS = {
  { title = "name" },
  { title = "peer" },
  { title = "luma", right = true },
  { title = "peer", right = true },
  { title = "luma/peer", right = true },
  { title = "unit" },
  { title = "target / status" },
}

local function table_cells(row, result)
  return {
    row.name,
    row.peer.name,
    result.luma.error and "error" or fmt_num(result.luma.median),
    result.peer.skipped and "skipped" or fmt_num(result.peer.median),
    fmt_ratio(result.ratio),
    row.unit,
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
    target = row.target and { max = row.target.max, max_ratio = row.target.max_ratio,
      pass = result.target_pass },
  }
end

local function write_json(path, rows)
  local f = assert(io.open(path, "w"))
  f:write(json_encode({
    generated = os.date("!%Y-%m-%dT%H:%M:%SZ"),
    filter = pattern,
    config = luma_config(),
    rows = rows,
  }), "\n")
  f:close()
end

-- Main -------------------------------------------------------------------------

local function matches(name)
  if pattern == nil or pattern == "" then return true end
  local ok, found = pcall(string.find, name, pattern)
  if not ok then
    io.stderr:write("bench: bad pattern '", pattern, "': ", found, "\n")
    os.exit(2)
  end
  return found ~= nil
end

local function main()
  local rows = {}
  for _, file in ipairs(list_row_files()) do
    local row = load_row(file)
    if matches(row.name) then rows[#rows + 1] = row end
  end
  if #rows == 0 then
    io.stderr:write("bench: no benchmark matches '", tostring(pattern), "'\n")
    return 2
  end

  local lines, json_rows, failed = {}, {}, false
  for _, row in ipairs(rows) do
    io.stderr:write(string.format("bench: %s (%d runs each) ...\n", row.name, row.runs))
    local result = run_row(row)
    failed = failed or result.luma.error ~= nil
    lines[#lines + 1] = table_cells(row, result)
    json_rows[#json_rows + 1] = json_row(row, result)
  end
  print_table(lines)
  local json_path = BUILD .. "/bench.json"
  write_json(json_path, json_rows)
  io.stderr:write("bench: wrote ", json_path, "\n")
  return failed and 1 or 0
end

os.exit(main())
