#!/usr/bin/env bash
# Builds the libFuzzer targets tests/fuzz/fuzz_*.c (clang, ASan+UBSan, via
# tests/fuzz/build.mk, incremental) and runs each on its seed corpus for a share
# of a total budget of $1 seconds (default 30): `make fuzz FUZZ_SECONDS=60` takes
# about a minute after the build, whatever the number of targets.
#
#   tests/fuzz/run.sh [SECONDS [TARGET...]]      e.g. tests/fuzz/run.sh 180 wordpiece samples
#
# Environment: FUZZ_JOBS=N runs N targets at a time, each then getting N times
# as long (default 1: the other cores stay free); FUZZ_OUT=dir (default build-fuzz). Per target it prints
# the runs executed, the corpus size, and OK or what it found; the full libFuzzer
# log is in $FUZZ_OUT/logs/<target>.log, a crashing input in
# $FUZZ_OUT/crashes/<target>-crash-<sha1> (replay: $FUZZ_OUT/fuzz_<target> FILE).
# The corpus grows in $FUZZ_OUT/corpus-<target> (seeded from the committed
# tests/fuzz/corpus-<target>/). Before fuzzing, the known crashers
# tests/fixtures/fuzz-crashes/<target>-N are replayed (each must no longer
# crash). Exit status 1 when any target found something or a known crasher
# still crashes.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-30}
shift || true
out=${FUZZ_OUT:-build-fuzz}
jobs=${FUZZ_JOBS:-1}

t0=$(date +%s%N)
elapsed() { local ms=$(( ($(date +%s%N) - t0) / 1000000 )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
make -s -f tests/fuzz/build.mk -j2 FUZZ_OUT="$out" all
echo "fuzz: built in $(elapsed) s"

targets=()
if [ $# -gt 0 ]; then
    for t in "$@"; do targets+=("${t#fuzz_}"); done
else
    for f in tests/fuzz/fuzz_*.c; do n=$(basename "$f" .c); targets+=("${n#fuzz_}"); done
fi
n=${#targets[@]}
# Each slot of `jobs` parallel runs gets ceil(n / jobs) targets sharing `secs`.
per_slot=$(( (n + jobs - 1) / jobs ))
share=$(( secs / per_slot )); [ "$share" -ge 1 ] || share=1
extra=$(( secs - share * per_slot )) # first targets of each slot get one second more
mkdir -p "$out/logs" "$out/crashes"
# The targets' scratch files (fuzz.h) go to a private folder, in memory when possible.
FUZZ_TMPDIR=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp )/probexpan-fuzz.XXXXXX")
export FUZZ_TMPDIR
trap 'rm -rf "$FUZZ_TMPDIR"' EXIT

run_one() { # name seconds
    local name=$1 s=$2 corpus=$out/corpus-$1
    mkdir -p "$corpus"
    cp tests/fuzz/corpus-"$name"/* "$corpus"/ 2>/dev/null || true
    if [ -x tests/fuzz/seed-"$name".sh ]; then tests/fuzz/seed-"$name".sh "$corpus"; fi
    # Known crashers (tests/fixtures/fuzz-crashes/<target>-N) are replayed first:
    # a fixed one passes, one still open counts as a finding.
    local known=0 still=0 f
    for f in tests/fixtures/fuzz-crashes/"$name"-*; do
        [ -f "$f" ] || continue
        known=$((known + 1))
        ASAN_OPTIONS=detect_leaks=0 "$out/fuzz_$name" "$f" >"$out/logs/$name.replay.log" 2>&1 || still=$((still + 1))
    done
    local rc=0
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=0:handle_abort=1 \
    UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/fuzz_$name" -max_total_time="$s" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$out/crashes/$name-" "$corpus" >"$out/logs/$name.log" 2>&1 || rc=$?
    local runs files found
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$name.log" | tail -n 1)
    [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$out/logs/$name.log" | tail -n 1)
    files=$(ls "$corpus" | wc -l)
    if [ "$rc" = 0 ]; then
        found=OK
    else
        found="FOUND: $(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|fuzz: |ALARM|out-of-memory' "$out/logs/$name.log" || echo "exit $rc")"
        found="$found; input: $(sed -n 's/.*Test unit written to //p' "$out/logs/$name.log" | tail -n 1)"
    fi
    [ "$still" = 0 ] || found="$found; KNOWN CRASHERS: $still of $known still crash"
    [ "$known" = 0 ] || [ "$still" != 0 ] || found="$found; $known known crasher(s) fixed"
    printf 'fuzz_%-16s %3d s %10s runs %5d corpus  %s\n' "$name" "$s" "${runs:-?}" "$files" "$found" \
        >"$out/logs/$name.summary"
    [ "$rc" = 0 ] && [ "$still" = 0 ]
}

i=0
for name in "${targets[@]}"; do
    [ -f tests/fuzz/fuzz_"$name".c ] || { echo "fuzz: no target tests/fuzz/fuzz_$name.c" >&2; exit 2; }
    s=$(( share + (i / jobs < extra ? 1 : 0) ))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_one "$name" "$s" &
    i=$((i + 1))
done
wait || true

status=0
for name in "${targets[@]}"; do
    cat "$out/logs/$name.summary"
    grep -q '  OK\(; [0-9]* known crasher(s) fixed\)\?$' "$out/logs/$name.summary" || status=1
done
echo "fuzz: $n targets, $(elapsed) s in all$([ $status = 0 ] && echo ', nothing found' || echo ', FOUND something: see above')"
exit $status
