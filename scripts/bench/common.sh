# Shared by the benchmark scripts: build, start and stop the servers, pin processes to cores.
# Source it; it sets `set -euo pipefail`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$CARGO_TARGET_DIR/release"
# The server and the generator run on different cores.
SERVER_CPU="${SERVER_CPU:-1}"
LOADGEN_CPU="${LOADGEN_CPU:-0}"
RESULTS="${RESULTS:-$ROOT/target/bench-results}"
# Where the server's database lives: a directory on the disk the server would use in production.
if [ -z "${DB_DIR:-}" ]; then
  DB_DIR="$(mktemp -d /var/tmp/fipsen-bench.XXXXXX)"
  OWN_DB_DIR=1
fi
# Other work shares this machine (browser tests, builds): at the default priority the measured
# processes wait for a CPU for much of the time and the figures show the neighbours (nice -20
# was not enough). They run with real-time priority (SCHED_FIFO 50); the kernel still leaves 5 %
# of each core to other work, and only the top of the saturation ramp (a few 10-second steps)
# fills the cores. Filling the database for the restart scenario runs at nice -20.
# PRIORITY=rt|nice|none chooses.
PRIORITY="${PRIORITY:-rt}"
PRIO=()
set_priority() {
  case "$1" in
    rt) PRIO=(chrt -f 50) ;;
    nice) PRIO=(nice -n -20) ;;
    none) PRIO=() ;;
    *) echo "PRIORITY must be rt, nice or none" >&2; return 2 ;;
  esac
  CURRENT_PRIORITY="$1"
}
set_priority "$PRIORITY"
SERVER_PORT="${SERVER_PORT:-18080}"
BASELINE_PORT="${BASELINE_PORT:-19100}"
# The rate limit protects the server from abusive clients; the generator's players may send
# faster than people do, so it is lifted for the benchmarks.
SERVER_FLAGS=(--rate 1000000 --burst 1000000 --max-connections 19900 --log warn)
# Thousands of tables are opened from a few loopback addresses: no quota on rooms created (an
# environment variable, so that an older build given as BEFORE_BIN ignores it).
export FIPSEN_ROOMS_PER_ADDRESS=0
# The generator opens its ~18,000 connections from a few loopback addresses: no cap on sockets
# per address (an environment variable, so that an older build given as BEFORE_BIN ignores it).
export FIPSEN_MAX_PER_ADDRESS=0
# SYNC=normal runs the server with --sync normal (default: the server's default, full).
if [ -n "${SYNC:-}" ]; then SERVER_FLAGS+=(--sync "$SYNC"); fi
# The baseline's WebSocket read buffer: the same as the server's (listener.rs).
BASELINE_READ_BUFFER="${BASELINE_READ_BUFFER:-512}"
# BEFORE_BIN=path/to/an/older/fipsen-server: the scenarios also measure that build ("before"),
# in the same run, with the same flags (BEFORE_NO_SYNC=1 leaves out --sync, for a build older
# than that flag).
BEFORE_BIN="${BEFORE_BIN:-}"

# One process holds up to ~19,900 connections: raise the soft limit to the hard one (20,000).
ulimit -n "$(ulimit -Hn)"

build() {
  if [ -z "${NO_BUILD:-}" ]; then
    (cd "$ROOT" && cargo build --release -q -p fipsen-server -p fipsen-loadgen)
  fi
}

PID=""

# start_server DB_FILE [extra flags…]: starts the server on SERVER_CPU; sets PID.
start_server() {
  local db="$1"
  shift
  local out="$DB_DIR/server.out"
  "${PRIO[@]}" taskset -c "$SERVER_CPU" "$BIN/fipsen-server" --addr "127.0.0.1:$SERVER_PORT" --db "$db" "${SERVER_FLAGS[@]}" "$@" \
    >"$out" 2>"$DB_DIR/server.err" &
  PID=$!
  wait_listening "$out"
}

# start_before DB_FILE: starts the older build BEFORE_BIN like start_server.
start_before() {
  local db="$1"
  local out="$DB_DIR/server.out"
  local flags=(--rate 1000000 --burst 1000000 --max-connections 19900 --log warn)
  if [ -n "${SYNC:-}" ] && [ -z "${BEFORE_NO_SYNC:-}" ]; then flags+=(--sync "$SYNC"); fi
  "${PRIO[@]}" taskset -c "$SERVER_CPU" "$BEFORE_BIN" --addr "127.0.0.1:$SERVER_PORT" --db "$db" "${flags[@]}" \
    >"$out" 2>"$DB_DIR/server.err" &
  PID=$!
  wait_listening "$out"
}

# calibrate_update_bytes OUT_DIR: the baseline pads each `update` to the server's own mean update
# frame, measured here in a short run of the same traffic (100 tables, 200 moves a second) against
# the server under test, so that both send the same bytes per frame. UPDATE_BYTES=N given in the
# environment skips the measurement. Sets and exports UPDATE_BYTES; notes it in OUT_DIR/machine.txt.
calibrate_update_bytes() {
  local dir="$1"
  if [ -n "${UPDATE_BYTES:-}" ]; then
    echo "baseline update bytes: $UPDATE_BYTES (given)" | tee -a "$dir/machine.txt" >&2
    return 0
  fi
  start_server "$DB_DIR/calibration.sqlite3"
  loadgen run --addr "127.0.0.1:$SERVER_PORT" --label calibration --server-pid "$PID" --quiet \
    --tables 100 --spectators 2 --rates 200 --warmup 3 --seconds 10 >"$dir/calibration.txt"
  stop
  rm -f "$DB_DIR/calibration.sqlite3"*
  UPDATE_BYTES="$(grep -o 'mean update frame [0-9]* bytes' "$dir/calibration.txt" | awk '{print $4}')"
  if [ -z "$UPDATE_BYTES" ] || [ "$UPDATE_BYTES" -le 0 ]; then
    echo "the calibration run measured no update frame (see $dir/calibration.txt)" >&2
    return 1
  fi
  export UPDATE_BYTES
  echo "baseline update bytes: $UPDATE_BYTES (the server's mean update frame, calibration.txt)" | tee -a "$dir/machine.txt" >&2
}

# start_baseline: starts the baseline on SERVER_CPU; sets PID.
start_baseline() {
  local out="$DB_DIR/baseline.out"
  "${PRIO[@]}" taskset -c "$SERVER_CPU" "$BIN/baseline" --addr "127.0.0.1:$BASELINE_PORT" \
    --update-bytes "$UPDATE_BYTES" --read-buffer-bytes "$BASELINE_READ_BUFFER" \
    >"$out" 2>"$DB_DIR/baseline.err" &
  PID=$!
  wait_listening "$out"
}

wait_listening() {
  local out="$1"
  for _ in $(seq 1 3000); do
    if grep -q "listening on" "$out" 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "the server exited:" >&2
      cat "$DB_DIR"/*.err >&2 || true
      return 1
    fi
    sleep 0.01
  done
  echo "the server did not start" >&2
  return 1
}

# stop: SIGTERM to the process started last, then wait for it.
stop() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
    kill -TERM "$PID"
    wait "$PID" 2>/dev/null || true
  fi
  PID=""
}
cleanup() {
  stop
  if [ -n "${OWN_DB_DIR:-}" ]; then rm -rf "$DB_DIR"; fi
}
trap cleanup EXIT

# loadgen ARGS…: the generator on LOADGEN_CPU.
loadgen() {
  "${PRIO[@]}" taskset -c "$LOADGEN_CPU" "$BIN/loadgen" "$@"
}

# describe: the machine and its load, for the results.
describe() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') × $(nproc)"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "kernel: $(uname -r)"
  echo "open files: $(ulimit -n)"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "priority: $CURRENT_PRIORITY (${PRIO[*]:-default}); server on core $SERVER_CPU, generator on core $LOADGEN_CPU"
  echo "database: $DB_DIR ($(df -h "$DB_DIR" | awk 'NR==2 {print $1}'))"
  echo "commit: ${COMMIT:-$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  echo "server flags: ${SERVER_FLAGS[*]}; baseline read buffer: $BASELINE_READ_BUFFER bytes"
  if [ -n "$BEFORE_BIN" ]; then echo "before: $BEFORE_BIN${BEFORE_COMMIT:+ ($BEFORE_COMMIT)}"; fi
}
