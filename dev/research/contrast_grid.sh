#!/usr/bin/env bash
# contrast_grid.sh: the rows of the pattern models' contrastive-refinement table —
# pattern-dists --pairs with the default and one change each, on the pairs of a finished
# `make ablation` run (its phase3-single/pairs.mp, i.e. the NoEN variant's pairs), each through expand
# (size 100) and rerank --official; one MAP table.
# Usage: bash dev/research/contrast_grid.sh DATASET RUNDIR OUTDIR (after `make ablation
# DATA=DATASET RUN=RUNDIR`; ~4 min on wordnet-ese dev on 2 cores).
set -euo pipefail
DATA=${1:?dataset}; RUN=${2:?run folder of make ablation}; OUT=${3:?output folder}; BIN=${BIN:-bin}
mkdir -p "$OUT"
export PROBEXPAN_CATALOG="$OUT/catalog.sqlite"
runs=()
variant() { # name pattern-dists-flags...
    local name=$1; shift
    "$BIN/pattern-dists" --quiet --samples "$RUN/samples.mp" --pairs "$RUN/phase3-single/pairs.mp" "$@" --out "$OUT/$name.dists.mp"
    "$BIN/expand" --quiet --dists "$OUT/$name.dists.mp" --queries "$DATA" --size 100 --out "$OUT/$name.ws.mp"
    "$BIN/rerank" --quiet --official --dists "$OUT/$name.dists.mp" --out "$OUT/$name.ranked.mp" "$OUT/$name.ws.mp"
    rm -f "$OUT/$name.dists.mp"
    runs+=("$name=$OUT/$name.ranked.mp")
}
variant default
variant steps-0       --cl-steps 0
variant steps-20      --cl-steps 20
variant steps-150     --cl-steps 150
variant tau-0.05      --cl-temperature 0.05
variant tau-0.3       --cl-temperature 0.3
variant wd-0.1        --cl-weight-decay 0.1
variant lr-0.02       --cl-lr 0.02
"$BIN/evaluate" --quiet --gt "$DATA" "${runs[@]}"
