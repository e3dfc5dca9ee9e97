#!/usr/bin/env bash
# bench-serve.sh: the load test of `probexpan serve` (make bench-serve). Builds the corpus
# index of DATA into RUN (once), starts the server on a free loopback port, and runs
# dev/bench/serve_load: CLIENTS clients for SECONDS s, each repeating four autocomplete
# requests and one noclen expansion; then a shorter run of the full method with 2 clients.
# Prints requests served, errors (must be 0), p50/p99 per kind, and the server's RSS before,
# after the noclen load and at the end.
#   bench-serve.sh BIN LOAD DATA RUN [CLIENTS SECONDS FULL_SECONDS]
set -euo pipefail
bin=$1 load=$2 data=$3 run=$4 clients=${5:-8} secs=${6:-60} full_secs=${7:-30}
make --no-print-directory -f pipelines/probexpan.mk BIN="$bin" DATA="$data" RUN="$run" index >/dev/null
out=$(mktemp) err=$(mktemp)
"$bin/serve" --run "$run" --port 0 >"$out" 2>"$err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$out" "$err"' EXIT
for _ in $(seq 1 600); do grep -q '^listening on' "$out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$out")
[ -n "$url" ] || { cat "$err" >&2; exit 1; }
port=${url##*:}; port=${port%/}
rss() { awk '/^VmRSS/ { printf "%.1f MB", $2 / 1024 }' "/proc/$pid/status"; }
echo "== probexpan serve on $run ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
echo "RSS after loading: $(rss)"
status=0
"$load" 127.0.0.1 "$port" --clients "$clients" --seconds "$secs" --variant noclen --size 50 || status=1
echo "RSS after the noclen load: $(rss)"
"$load" 127.0.0.1 "$port" --clients 2 --seconds "$full_secs" --variant full --size 50 --seed 2 || status=1
echo "RSS at the end: $(rss)"
kill -TERM $pid
wait $pid && echo "SIGTERM: exit 0" || { echo "SIGTERM: exit $?"; status=1; }
exit $status
