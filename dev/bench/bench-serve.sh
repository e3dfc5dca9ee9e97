#!/usr/bin/env bash
# bench-serve.sh: the load test of `probexpan serve` (make bench-serve). Builds the corpus
# index of DATA into RUN (once), starts the server on a free loopback port and drives it with
# dev/bench/serve_load:
#   1. cold: one client, 30 noclen expansions of size 50 on a fresh server (nothing kept yet);
#   2. one client, 3,000 autocomplete requests;
#   3. the load: CLIENTS clients for SECONDS s, each repeating four autocomplete requests and
#      one noclen expansion of size 50;
#   4. the full method: 2 clients for FULL_SECONDS s;
#   5. slow clients: 4 clients (3.'s rhythm) for ATTACK_SECONDS s alone, then again while
#      2 x the connection capacity (256 sockets, serve_load --slow) send request heads one byte
#      every 500 ms; the p99 under attack over the p99 alone per kind (the target: at most 2),
#      the normal clients' errors (must be 0) and the server's RSS during the attack.
# Each phase prints requests served, errors (must be 0), p50/p99 per kind, and the server's
# CPU time per request (from /proc/PID/stat: user + system, all threads, over the phase) —
# the figure that does not depend on what else the machine runs; the wall-clock latencies
# do. Then the server's RSS after loading, halfway through each load, after it and at the end
# (it grows while the rows kept across requests fill their --row-cache budget, 128 MB, then
# stays flat), and SIGTERM's exit status. Exits 1 when a phase had an error or the server did
# not exit 0.
#   bench-serve.sh BIN LOAD DATA RUN [CLIENTS SECONDS FULL_SECONDS ATTACK_SECONDS]
set -euo pipefail
bin=$1 load=$2 data=$3 run=$4 clients=${5:-8} secs=${6:-60} full_secs=${7:-30} attack_secs=${8:-30}
capacity=128 # serve's --max-connections default
make --no-print-directory -f pipelines/probexpan.mk BIN="$bin" DATA="$data" RUN="$run" index >/dev/null
out=$(mktemp) err=$(mktemp) phase_out=$(mktemp) alone_out=$(mktemp) slow_out=$(mktemp)
"$bin/serve" --run "$run" --port 0 >"$out" 2>"$err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$out" "$err" "$phase_out" "$alone_out" "$slow_out"' EXIT
for _ in $(seq 1 600); do grep -q '^listening on' "$out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$out")
[ -n "$url" ] || { cat "$err" >&2; exit 1; }
port=${url##*:}; port=${port%/}
tck=$(getconf CLK_TCK)
rss() { awk '/^VmRSS/ { printf "%.1f MB", $2 / 1024 }' "/proc/$pid/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
status=0
# phase TITLE LOAD-ARGS...: one serve_load run, then the server's CPU time per request
phase() {
    local title=$1 c0 c1 n; shift
    echo "-- $title"
    c0=$(cpu_ticks)
    "$load" 127.0.0.1 "$port" "$@" | tee "$phase_out" || status=1
    c1=$(cpu_ticks)
    n=$(sed -n 's/.*: \([0-9]*\) requests served.*/\1/p' "$phase_out")
    awk -v t=$((c1 - c0)) -v hz="$tck" -v n="${n:-0}" \
        'BEGIN { if (n > 0) printf "server CPU time: %.3f s for %d requests = %.3f ms per request\n", t / hz, n, 1000 * t / hz / n }'
}
echo "== probexpan serve on $run ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
echo "RSS after loading: $(rss)"
phase "cold: 1 client, 30 noclen expansions (no row kept yet)" --clients 1 --only expand --requests 30 --variant noclen --size 50 --random-seed 3
phase "autocomplete alone: 1 client, 3,000 requests" --clients 1 --only autocomplete --requests 3000 --random-seed 4
(sleep $((secs / 2)); echo "RSS halfway through the load: $(rss)") &
phase "load: $clients clients for $secs s, 4 autocomplete + 1 noclen expansion each round" --clients "$clients" --seconds "$secs" --variant noclen --size 50
wait $!
echo "RSS after the load: $(rss)"
(sleep $((full_secs / 2)); echo "RSS halfway through the full method: $(rss)") &
phase "full method: 2 clients for $full_secs s" --clients 2 --seconds "$full_secs" --only expand --variant full --size 50 --random-seed 2
wait $!
echo "RSS after the full method: $(rss)"
phase "alone: 4 clients for $attack_secs s, 4 autocomplete + 1 noclen expansion each round" --clients 4 --seconds "$attack_secs" --variant noclen --size 50 --random-seed 5
cp "$phase_out" "$alone_out"
"$load" 127.0.0.1 "$port" --slow $((2 * capacity)) --seconds $((attack_secs + 2)) >"$slow_out" & slow=$!
sleep 1
(sleep $((attack_secs / 2)); echo "RSS halfway through the attack: $(rss)") &
phase "under attack: the same 4 clients while $((2 * capacity)) slow clients trickle request heads" --clients 4 --seconds "$attack_secs" --variant noclen --size 50 --random-seed 5
wait $!
wait $slow || status=1
cat "$slow_out"
# p99 under attack / p99 alone, per kind (the report lines: KIND N requests p50 X ms p99 Y ms ...)
awk 'FNR == NR && / p99 / { alone[$1] = $8; next }
     / p99 / && alone[$1] > 0 { printf "p99 under attack / alone, %s: %.2f (%.2f ms / %.2f ms; target <= 2)\n", $1, $8 / alone[$1], $8, alone[$1] }' \
    "$alone_out" "$phase_out"
echo "RSS at the end: $(rss)"
kill -TERM $pid
wait $pid && echo "SIGTERM: exit 0" || { echo "SIGTERM: exit $?"; status=1; }
exit $status
