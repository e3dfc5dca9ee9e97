#!/usr/bin/env bash
# bench-expand.sh GEN BINDIR TMPDIR V...: for each V, generate synthetic dists
# (dev/bench/gen_dists.c, classes of 100), expand one query of 3 seeds of class 0
# by 100 entities on one thread, and print the window-search time and the wall
# time of the whole expand run (which also maps the file and hashes its inputs for
# the catalog). Artifacts are deleted afterwards. A benchmark, not a test.
set -eu
gen=$1 bin=$2 tmp=$3
shift 3
dir=$(mktemp -d "$tmp/bench-expand.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export PROBEXPAN_CATALOG=$dir/catalog.sqlite
now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
for v in "$@"; do
    c=$((v / 100)) # classes; class of row i = i mod c
    t0=$(now)
    "$gen" "$dir/dists.mp" "$v" 100
    t1=$(now)
    size=$(du -h --apparent-size "$dir/dists.mp" | cut -f1)
    "$bin/expand" --threads 1 --dists "$dir/dists.mp" --seeds "0,$c,$((2 * c))" --size 100 --out "$dir/x.mp" 2>"$dir/expand.err"
    t2=$(now)
    ws=$(sed -n 's/.*window search: \([0-9.]*\) s for \([0-9]*\) entities.*, \([0-9.]*\) s of CPU.*/\1 s (CPU \3 s) for \2 expansions/p' "$dir/expand.err")
    hits=$("$bin/inspect" "$dir/x.mp" | tail -n1 | grep -o '"entities":\[[0-9,]*\]' | tr -d '"entities:[]' | tr ',' '\n' |
        awk -v c="$c" '$1 % c == 0' | wc -l)
    printf 'V_e = %s: dists %s generated in %s s | expand: window search %s (%s of the 97 class members found), whole run %s s\n' \
        "$v" "$size" "$(minus "$t1" "$t0")" "$ws" "$hits" "$(minus "$t2" "$t1")"
    rm -f "$dir/dists.mp" "$dir/x.mp"
done
