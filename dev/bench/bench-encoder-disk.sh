#!/usr/bin/env bash
# bench-encoder-disk.sh: the encoder pipeline's disk use — runs `make -f pipelines/probexpan.mk
# ablation` of the tree ROOT (its pipelines/ and bin/) with an encoder config on DATA in a fresh
# run folder RUN, listing the folder every 0.2 s, and prints the run folder's peak size, the
# most dists files on disk at once (phase*/dists*.mp, */ensemble.mp, committed or being
# written), the final size, the wall time and the ablation's MAP@10 per variant. A benchmark,
# not a test: run it on a tree of an earlier commit (built) for the former path's figures.
# Usage: bench-encoder-disk.sh ROOT DATA RUN "MAKE VARIABLES..."
set -u
root=$1 data=$2 run=$3 vars=$4
rm -rf "$run"
dists_files() { find "$run" -type f \( -name 'dists*.mp*' -o -name 'ensemble.mp*' \) 2>/dev/null | wc -l; }
start=$(date +%s.%N)
# shellcheck disable=SC2086 # vars are make variable assignments, one word each
make --no-print-directory -f "$root/pipelines/probexpan.mk" BIN="$root/bin" -j2 DATA="$data" RUN="$run" $vars ablation \
    >"$run.log" 2>&1 &
job=$!
peak=0 peakd=0
while kill -0 $job 2>/dev/null; do
    b=$(du -sb "$run" 2>/dev/null | cut -f1)
    d=$(dists_files)
    [ "${b:-0}" -gt "$peak" ] && peak=$b
    [ "$d" -gt "$peakd" ] && peakd=$d
    sleep 0.2
done
wait $job || { echo "bench-encoder-disk: the pipeline failed (see $run.log)" >&2; tail -n 5 "$run.log" >&2; exit 1; }
wall=$(echo "$(date +%s.%N) - $start" | bc)
final=$(du -sb "$run" | cut -f1)
printf 'tree %s\nconfig %s\npeak run folder %.1f MB, at most %d dists files at once, final %.1f MB, wall %.0f s\n' \
    "$root" "$vars" "$(echo "$peak / 1000000" | bc -l)" "$peakd" "$(echo "$final / 1000000" | bc -l)" "$wall"
"$root/bin/inspect" "$run/ablation.mp" | tail -n 1 | jq -r '.runs[] | "\(.label) MAP@10 \(.overall.map[0])"'
