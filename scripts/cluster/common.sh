# shellcheck shell=bash
# Shared by the scripts in scripts/cluster/: free ports, waiting for a port, installing a Debian
# package that is missing, stopping a process by its pid file. Source it; it sets
# `set -euo pipefail`.
set -euo pipefail

# shellcheck disable=SC2034 # used by the scripts that source this file
CLUSTER_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Whether something accepts connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# free_port: prints a port on 127.0.0.1 that nothing listens on (from 20000 to 59999; another
# process may still take it before the caller does, which the callers notice when they start).
free_port() {
  local port tries=0
  while [ "$tries" -lt 200 ]; do
    port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    if ! port_open "$port" && ! { command -v ss >/dev/null 2>&1 && ss -Hltn "sport = :$port" | grep -q .; }; then
      echo "$port"
      return 0
    fi
    tries=$((tries + 1))
  done
  echo "no free port found" >&2
  return 1
}

# wait_port PORT PID [SECONDS]: waits until 127.0.0.1:PORT accepts connections; fails when the
# process PID has exited first or after SECONDS (default 20).
wait_port() {
  local port="$1" pid="$2" deadline=$((SECONDS + ${3:-20}))
  until port_open "$port"; do
    if ! running "$pid"; then
      echo "process $pid exited before listening on port $port" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "nothing listens on port $port after ${3:-20} s" >&2
      return 1
    fi
    sleep 0.1
  done
}

# ensure_command COMMAND PACKAGE: installs Debian's PACKAGE with apt-get (with sudo unless run
# as root) when COMMAND is not found.
ensure_command() {
  local command="$1" package="$2"
  if command -v "$command" >/dev/null 2>&1 || [ -x "/usr/sbin/$command" ]; then
    return 0
  fi
  echo "$command not found: installing Debian's $package" >&2
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$package" >/dev/null
}

# The path of COMMAND (Debian puts haproxy and nats-server in /usr/sbin, often not in a user's
# PATH).
command_path() {
  command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"
}

# Whether process PID runs (a zombie left for a parent to reap does not).
running() {
  kill -0 "$1" 2>/dev/null && ! ps -o stat= -p "$1" 2>/dev/null | grep -q '^Z'
}

# stop_pidfile FILE [NAME]: sends SIGTERM to the process whose pid FILE holds, waits up to 10 s
# for it to exit (then SIGKILL), and removes FILE. Nothing to do when FILE is missing.
stop_pidfile() {
  local file="$1" name="${2:-process}" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file")"
  if running "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + 10))
    while running "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    if running "$pid"; then
      echo "$name ($pid) did not stop in 10 s: killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$file"
}
