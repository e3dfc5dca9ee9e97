#!/usr/bin/env bash
# bench-scale.sh SCALE_CORPUS BINDIR DATASET COPIES DIR: the method on COPIES copies of
# DATASET (dev/bench/scale_corpus.c) — builds the corpus into DIR/data-xCOPIES (kept for
# the next run), then into DIR/run-xCOPIES:
#   index path (default): the pipeline's `index` target (tokenize, build-samples, index),
#     then the ablation as `query` runs: each variant of $VARIANTS (default: noclen noen nocl
#     full) on every query of copy 0 ($BENCH_SCALE_QUERIES per class, default all);
#   BENCH_SCALE_PATH=stages: the pipeline's `ablation` target (every query), its stage programs reading the
#     index (pattern-model, score-models/expand/rerank --index --model: no dists file);
#   BENCH_SCALE_PATH=dense: the same on dense `dists` files (PATTERN_PATH=dense; refused above
#     2 copies: one file alone would take V_e^2 * 4 bytes, 24 GB at 10 copies).
# Every program runs under measure-stage.sh; prints per stage the runs, wall s (sum and
# median), CPU s, peak RSS, bytes written and the highest load average seen at its starts;
# then MAP@10/20/50 per variant (every copy's class members count), the index's size and
# the run folder's. A benchmark, not a test: the machine may be shared, so the load is
# printed beside the figures.
set -eu
gen=$1 bin=$2 data=$3 copies=$4 dir=$5
path=${BENCH_SCALE_PATH:-index} per_class=${BENCH_SCALE_QUERIES:-0} variants=${VARIANTS:-noclen noen nocl full}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case $path in
index | stages) ;;
dense) [ "$copies" -le 2 ] || { echo "bench-scale: the dense path is refused above 2 copies" >&2; exit 2; } ;;
*) echo "bench-scale: BENCH_SCALE_PATH must be index, stages or dense" >&2; exit 2 ;;
esac
mkdir -p "$dir"
corpus=$dir/data-x$copies run=$dir/run-x$copies-$path log=$dir/stages-x$copies-$path.tsv
echo "== bench-scale: $copies copies of $(basename "$data"), $path path =="
echo "start: $(date -u +%H:%M:%S) UTC, uptime:$(uptime | sed 's/.*load/ load/')"
df -h "$dir" | tail -n 1 | awk '{print "disk: " $4 " free on " $6}'
rm -f "$log"
measure() { "$here/measure-stage.sh" "$log" "$@"; }
if [ ! -d "$corpus" ]; then measure "$gen" --quiet --copies "$copies" --out "$corpus" "$data"; fi
grep -E '^(sentences|entities)' "$corpus/stats.txt" | tr '\t' ' ' | sed 's/^/corpus: /'
rm -rf "$run"
mkdir -p "$run"
: >"$run/.probexpan-run" # the pipeline writes into a folder it marked as its own
export MEASURE_FOLDER=$run
wrap() { echo "$here/measure-stage.sh $log $bin/$1"; }
pipeline() {
    make --no-print-directory -s -C "$root" -f pipelines/probexpan.mk DATA="$corpus" RUN="$run" \
        TOKENIZE="$(wrap tokenize)" BUILD_SAMPLES="$(wrap build-samples)" PATTERN_DISTS="$(wrap pattern-dists)" \
        PATTERN_MODEL="$(wrap pattern-model)" PATTERN_PATH="$([ "$path" = dense ] && echo dense || echo index)" \
        SCORE_MODELS="$(wrap score-models)" EXPAND="$(wrap expand)" RERANK="$(wrap rerank)" \
        EVALUATE="$(wrap evaluate)" INDEX="$(wrap index)" "$@" >>"$dir/pipeline-x$copies-$path.log" 2>&1 || {
        tail -n 20 "$dir/pipeline-x$copies-$path.log"; exit 1; }
}
: >"$dir/pipeline-x$copies-$path.log"
: >"$run/ap.tsv"
t0=$(date +%s.%N)
if [ "$path" != index ]; then
    pipeline VARIANTS="$variants" ablation
    for v in $variants; do
        "$bin/evaluate" --quiet --gt "$corpus" --out "$run/$v/eval.mp" "$v=$run/$v/ranked.mp" >/dev/null
        "$bin/inspect" "$run/$v/eval.mp" | tail -n 1 |
            jq -r --arg v "$v" '[$v, "all"] + (.runs[0].overall.map[0:3] | map(tostring)) | @tsv' >>"$run/ap.tsv"
    done
else
    pipeline index
    for v in $variants; do
        mkdir -p "$run/ablation/$v"
        for qf in "$corpus"/query/*.txt; do
            class=$(basename "$qf" .txt) i=0
            while read -r line && { [ "$per_class" -eq 0 ] || [ "$i" -lt "$per_class" ]; }; do
                [ -n "$line" ] && [ "$line" != EXIT ] || continue
                i=$((i + 1))
                out=$run/ablation/$v/$class-$i.tsv
                MEASURE_NAME=query-$v measure "$bin/query" --quiet --run "$run" --variant "$v" \
                    --seeds "$(echo "$line" | tr -s ' \t' ',')" --size 100 --format tsv >"$out"
                awk -F'\t' 'NR == FNR { s[$1] = 1; next } FNR > 1 && !($2 in s) { print $2 }' \
                    <(echo "$line" | tr -s ' \t' '\n') "$out" >"$out.list"
                printf '%s\t%s\t%s\n' "$v" "$class" "$(awk -F'\t' -f "$here/ap.awk" "$corpus/gt/$class.txt" "$out.list")" >>"$run/ap.tsv"
            done <"$qf"
        done
    done
fi
t1=$(date +%s.%N)
echo
printf '%-8s %8s %8s %8s %8s\n' variant queries MAP@10 MAP@20 MAP@50
awk -F'\t' '{ n[$1]++; a[$1] += $3; b[$1] += $4; c[$1] += $5; if (!($1 in o)) o[$1] = ++k; v[o[$1]] = $1 }
    END { for (i = 1; i <= k; i++) { x = v[i]; printf "%-8s %8s %8.4f %8.4f %8.4f\n", x, ($2 == "all" ? "all" : n[x]), a[x] / n[x], b[x] / n[x], c[x] / n[x] } }' "$run/ap.tsv"
echo
sort -t$'\t' -k1,1 -k2,2g "$log" |
    awk -F'\t' '{ v[$1, ++n[$1]] = $2 } END { for (s in n) print s "\t" v[s, int((n[s] + 1) / 2)] }' >"$run/median.tsv"
awk -F'\t' -v wall="$(awk -v a="$t1" -v b="$t0" 'BEGIN{print a-b}')" -v folder="$(du -sb "$run" | cut -f1)" '
    NR == FNR { med[$1] = $2; next }
    { n[$1]++; w[$1] += $2; c[$1] += $3; if ($4 > r[$1]) r[$1] = $4; b[$1] += $5; if ($6 > peak) peak = $6;
      if (!($1 in l)) { l[$1] = $7; order[++k] = $1 } else if ($7 > l[$1]) l[$1] = $7;
      W += $2; C += $3; if ($4 > R) R = $4 }
    END {
      printf "%-14s %5s %9s %9s %9s %10s %11s %6s\n", "stage", "runs", "wall s", "median s", "CPU s", "peak RSS", "written", "load"
      for (i = 1; i <= k; i++) { s = order[i]
        printf "%-14s %5d %9.1f %9.2f %9.1f %7.0f MB %8.1f MB %6s\n", s, n[s], w[s], med[s], c[s], r[s] / 1024, b[s] / 1e6, l[s] }
      printf "%-14s %5s %9.1f %9s %9.1f %7.0f MB\n", "all", "", W, "", C, R / 1024
      printf "wall time after the corpus: %.1f s; run folder: %.3f GB (largest after a stage: %.3f GB)\n",
             wall, folder / 1e9, peak / 1e9 }' "$run/median.tsv" "$log"
[ ! -f "$run/index.mp" ] || echo "index on disk: $(du -b "$run/index.mp" | awk '{ printf "%.1f MB", $1 / 1e6 }')"
echo "end: $(date -u +%H:%M:%S) UTC, uptime:$(uptime | sed 's/.*load/ load/')"
