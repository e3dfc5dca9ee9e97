#!/usr/bin/env bash
# bench-scale.sh SCALE_CORPUS BINDIR DATASET COPIES DIR: the method on COPIES copies of
# DATASET (dev/bench/scale_corpus.c) — builds the corpus into DIR/data-xCOPIES (kept for
# the next run), runs the pipeline's ablation (4 variants x the dataset's queries) into
# DIR/run-xCOPIES with every stage wrapped by measure-stage.sh, and prints per stage:
# runs, wall s, CPU s, peak RSS, bytes written, and the load average when it started;
# then the totals and the run folder's size. A benchmark, not a test: the machine may be
# shared, so the load is printed beside the figures.
set -eu
gen=$1 bin=$2 data=$3 copies=$4 dir=$5
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$dir"
corpus=$dir/data-x$copies run=$dir/run-x$copies log=$dir/stages-x$copies.tsv
echo "== bench-scale: $copies copies of $(basename "$data") =="
echo "start: $(date -u +%H:%M:%S) UTC, uptime:$(uptime | sed 's/.*load/ load/')"
df -h "$dir" | tail -n 1 | awk '{print "disk: " $4 " free on " $6}'
rm -f "$log"
measure() { "$here/measure-stage.sh" "$log" "$@"; }
if [ ! -d "$corpus" ]; then measure "$gen" --quiet --copies "$copies" --out "$corpus" "$data"; fi
grep -E '^(sentences|entities)' "$corpus/stats.txt" | tr '\t' ' ' | sed 's/^/corpus: /'
rm -rf "$run"
export MEASURE_FOLDER=$run
t0=$(date +%s.%N)
wrap() { echo "$here/measure-stage.sh $log $bin/$1"; }
make --no-print-directory -s -C "$root" -f pipelines/probexpan.mk DATA="$corpus" RUN="$run" \
    TOKENIZE="$(wrap tokenize)" BUILD_SAMPLES="$(wrap build-samples)" PATTERN_DISTS="$(wrap pattern-dists)" \
    SCORE_MODELS="$(wrap score-models)" EXPAND="$(wrap expand)" RERANK="$(wrap rerank)" \
    EVALUATE="$(wrap evaluate)" ablation >"$dir/pipeline-x$copies.log" 2>&1 || {
    tail -n 20 "$dir/pipeline-x$copies.log"; exit 1; }
t1=$(date +%s.%N)
echo
"$bin/evaluate" --quiet --gt "$corpus" $(for v in noclen noen nocl full; do echo "ProbExpan-$v=$run/$v/ranked.mp"; done) |
    grep -E 'overall|^run|MAP' | head -n 12
echo
awk -F'\t' -v wall="$(awk -v a="$t1" -v b="$t0" 'BEGIN{print a-b}')" -v folder="$(du -sb "$run" | cut -f1)" '
    { n[$1]++; w[$1] += $2; c[$1] += $3; if ($4 > r[$1]) r[$1] = $4; b[$1] += $5; if ($6 > peak) peak = $6;
      if (!($1 in l)) { l[$1] = $7; order[++k] = $1 } else if ($7 > l[$1]) l[$1] = $7;
      W += $2; C += $3; if ($4 > R) R = $4 }
    END {
      printf "%-16s %5s %9s %9s %10s %12s %6s\n", "stage", "runs", "wall s", "CPU s", "peak RSS", "written", "load"
      for (i = 1; i <= k; i++) { s = order[i]
        printf "%-16s %5d %9.1f %9.1f %8.0f MB %9.0f MB %6s\n", s, n[s], w[s], c[s], r[s] / 1024, b[s] / 1e6, l[s] }
      printf "%-16s %5s %9.1f %9.1f %8.0f MB\n", "all stages", "", W, C, R / 1024
      printf "wall time of the pipeline: %.1f s; run folder: %.2f GB (largest seen after a stage: %.2f GB)\n",
             wall, folder / 1e9, peak / 1e9 }' "$log"
echo "end: $(date -u +%H:%M:%S) UTC, uptime:$(uptime | sed 's/.*load/ load/')"
