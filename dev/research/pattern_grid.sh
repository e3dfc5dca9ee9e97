#!/usr/bin/env bash
# pattern_grid.sh: the issue-9 table's pattern-model rows — pattern-dists variants (the
# default and one change each) on one dataset, each through expand (size 100) and rerank
# --official (the pipeline's default for pattern models), one MAP table (with re-ranking and,
# as NAME-ws, the window search alone) and the pattern-dists wall times.
# Usage: bash dev/research/pattern_grid.sh DATASET OUTDIR (after `make`; ~5 min on
# wordnet-ese dev on 2 cores).
set -euo pipefail
DATA=${1:?dataset}; OUT=${2:?output folder}; BIN=${BIN:-bin}
mkdir -p "$OUT"
export PROBEXPAN_CATALOG="$OUT/catalog.sqlite"
samples() { # samples for a learned vocabulary of $1 wordpieces
    [ -s "$OUT/samples-$1.mp" ] && return
    "$BIN/tokenize" --quiet "$DATA" --learn-vocab "$1" --vocab-out "$OUT/vocab-$1.txt" --out "$OUT/corpus-$1.mp"
    "$BIN/build-samples" --quiet --corpus "$OUT/corpus-$1.mp" --max-wordpieces 512 --out "$OUT/samples-$1.mp"
}
runs=()
variant() { # name vocab pattern-dists-flags...
    local name=$1 vocab=$2; shift 2
    samples "$vocab"
    local t0=$(date +%s.%N)
    "$BIN/pattern-dists" --quiet --samples "$OUT/samples-$vocab.mp" "$@" --out "$OUT/$name.dists.mp"
    local t1=$(date +%s.%N)
    "$BIN/expand" --quiet --dists "$OUT/$name.dists.mp" --queries "$DATA" --size 100 --out "$OUT/$name.ws.mp"
    "$BIN/rerank" --quiet --official --dists "$OUT/$name.dists.mp" --out "$OUT/$name.ranked.mp" "$OUT/$name.ws.mp"
    rm -f "$OUT/$name.dists.mp"
    printf '%s\t%.1f s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" >>"$OUT/times.tsv"
    runs+=("$name=$OUT/$name.ranked.mp" "$name-ws=$OUT/$name.ws.mp")
}
: >"$OUT/times.tsv"
variant default            8000
variant bag-0              8000 --bag 0
variant bag-weight-1       8000 --bag-weight 1
variant bag-weight-2       8000 --bag-weight 2
variant bag-16             8000 --bag 16
variant short-patterns     8000 --patterns short
variant min-entities-4     8000 --min-entities 4
variant idf-power-1        8000 --idf-power 1
variant temperature-0.25   8000 --temperature 0.25
variant temperature-4      8000 --temperature 4
variant fraction-0.8       8000 --feature-fraction 0.8 --random-seed 2
variant prediction         8000 --estimator prediction
variant vocab-4000         4000
variant vocab-30000        30000
"$BIN/evaluate" --quiet --gt "$DATA" "${runs[@]}"
cat "$OUT/times.tsv"
