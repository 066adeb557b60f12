#!/usr/bin/env bash
# One paired-run measurement: the server pinned to core 1 and the load generator to core 0, both
# SCHED_FIFO 50, as the scenarios run them; the generator's own report, the server threads' CPU
# over an 8 s slice of the measured phase, and the storage metrics at its start and end.
#   usage: BIN=<dir with fipsen-server and loadgen> OUT=<dir> paired-run.sh TABLES RATE SYNC DB_DIR [server flags]
#   e.g.   paired-run.sh 3000 3000 normal /var/tmp/fbench --wal-limit-pages 65536
# With TRACE=1 the slice is traced instead (`perf trace` of fsync/fdatasync longer than 0.5 ms),
# with SCHED=1 recorded by `perf sched record -a` (read with `perf sched timehist --cpu 1`).
set -u
T=$1; R=$2; SYNC=$3; DBD=$4; shift 4
B=${BIN:?BIN: the directory of the release binaries}; O=${OUT:-.}
ulimit -n 20000
export FIPSEN_ROOMS_PER_ADDRESS=0 FIPSEN_MAX_PER_ADDRESS=0
mkdir -p "$DBD" "$O"; rm -f "$DBD"/p.sqlite3*
chrt -f 50 taskset -c 1 "$B/fipsen-server" --addr 127.0.0.1:18080 --db "$DBD/p.sqlite3" --rate 1000000 --burst 1000000 \
  --max-connections 19900 --log warn --sync "$SYNC" "$@" > "$O/server.out" 2>&1 &
PID=$!
sleep 1
chrt -f 50 taskset -c 0 "$B/loadgen" run --addr 127.0.0.1:18080 --label x --server-pid $PID --quiet --tables "$T" \
  --spectators 2 --rates "$R" --warmup 10 --seconds 20 --setup-concurrency 128 > "$O/loadgen.out" 2>&1 &
LG=$!
sleep "${SETTLE:-22}"
metrics() { curl -s 127.0.0.1:18080/metrics | grep -E '^fipsen_storage_(commits|committed_writes|checkpoint)|^fipsen_storage_commit_seconds'; }
threads() { for t in /proc/$PID/task/*; do echo "$(cat "$t/comm") $(awk '{print $14+$15}' "$t/stat")"; done | awk '{a[$1]+=$2} END {for (k in a) print k, a[k]}' | sort; }
metrics > "$O/m1"; threads > "$O/s1"
if [ -n "${TRACE:-}" ]; then timeout 8 perf trace -p $PID -e fsync,fdatasync --duration 0.5 -o "$O/trace.txt" 2>/dev/null
elif [ -n "${SCHED:-}" ]; then perf sched record -a -o "$O/sched.data" -- sleep 6 > /dev/null 2>&1; sleep 2
else sleep 8; fi
metrics > "$O/m2"; threads > "$O/s2"
wait $LG
kill $PID; wait $PID 2>/dev/null
echo "--- server threads' CPU over the slice (ticks of 10 ms)"; join "$O/s1" "$O/s2" | awk '{print $1, ($3-$2)}'
echo "--- storage metrics at the slice's start and end"; paste "$O/m1" "$O/m2" | grep -v bucket
grep -E "^$R/s" "$O/loadgen.out"
