#!/usr/bin/env bash
# bench-patterns.sh BINDIR DATASET: the from-scratch entity model's cost on a real dataset —
# text stages once, then pattern-dists (both estimators) with 1 and 2 threads; prints wall
# seconds, entities/s and peak RSS (from the catalog), and the whole default pipeline
# (tokenize .. evaluate, `make ablation`'s noclen). A benchmark, not a test.
set -eu
bin=$1 data=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-patterns.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export PROBEXPAN_CATALOG=$dir/catalog.sqlite
now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
t0=$(now)
"$bin/tokenize" --quiet "$data" --learn-vocab 8000 --vocab-out "$dir/vocab.txt" --out "$dir/corpus.mp"
"$bin/build-samples" --quiet --corpus "$dir/corpus.mp" --out "$dir/samples.mp"
t1=$(now)
echo "$(basename "$data"): tokenize + build-samples $(minus "$t1" "$t0") s"
for est in similarity prediction; do
    for th in 1 2; do
        t0=$(now)
        "$bin/pattern-dists" --estimator $est --threads $th --samples "$dir/samples.mp" --out "$dir/d.mp" 2>"$dir/err"
        t1=$(now)
        rate=$(grep -o '[0-9.]* entities/s' "$dir/err" | tail -n 1)
        rss=$("$bin/catalog" runs | awk '$2 == "pattern-dists" {r = $5 " " $6} END {print r}')
        size=$(du -h --apparent-size "$dir/d.mp" | cut -f1)
        echo "pattern-dists --estimator $est --threads $th: $(minus "$t1" "$t0") s wall, $rate, peak RSS $rss, dists $size"
    done
done
