#!/usr/bin/env bash
# bench-cut.sh BIN OUT DATA...: where to cut (make bench-cut, docs/cut.md). For each dataset DATA
# (a folder or archive; its name is DATA's base name without .tar.gz): the corpus index
# (pipelines/probexpan.mk index), every query of its query/ expanded on its own to 200 entities
# (`query --queries --size 200`, the default variant), then `evaluate --cut-fraction F` for
# every F of $BENCH_CUT_GRID, with dev/bench/quality/pool/<name>/ as --pool when it holds
# judgements: per list the entities above the cut, their precision and the recall of the
# members the list of 200 reaches; a list meets the goal with precision >= 0.9 and recall >= 0.5.
# The fraction is chosen leave-one-corpus-out over the first two datasets (the other datasets
# are reported, never chosen on): for each held-out corpus, the F that meets the goal in the
# most lists of the other (ties: the higher precision), then its figures on the held-out one;
# and the F the same choice makes on the two together (lists met summed, ties: the higher mean
# precision), which is what the default should be. Prints the table at the default fraction
# (confidence_cut.h) with each corpus's oracle (per list the cut of highest precision at recall
# >= 0.5, chosen knowing the answers: what no rule on the list can beat), then those lines.
# Runs are kept in OUT/<name>/ and redone only when missing (delete OUT to measure afresh).
set -euo pipefail
bin=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
grid=${BENCH_CUT_GRID:-0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.65 0.7 0.75 0.8}
default=$(sed -n 's/^#define CONFIDENCE_CUT_FRACTION \([0-9.]*\).*/\1/p' "$root/common/method/confidence_cut.h")
threads=${BENCH_CUT_THREADS:-1}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rows=$out/rows.tsv
: >"$rows"
names=()
for data in "$@"; do
    name=$(basename "${data%/}")
    name=${name%.tar.gz}
    names+=("$name")
    mkdir -p "$out/$name"
    echo "== $name" >&2
    make -s -C "$root" -f pipelines/probexpan.mk BIN="$bin" DATA="$data" RUN="$out/$name/run" THREADS="$threads" index \
        >"$out/$name/index.log" 2>&1 || { tail -n 20 "$out/$name/index.log" >&2; exit 1; }
    ranked=$out/$name/query-200.mp
    if [ ! -s "$ranked" ]; then
        "$bin/query" --threads "$threads" --index "$out/$name/run/index.mp" --queries "$data" --size 200 --out "$ranked" \
            2>"$out/$name/query.log" || { tail -n 5 "$out/$name/query.log" >&2; exit 1; }
    fi
    pool=()
    if ls "$root/dev/bench/quality/pool/$name/"*.tsv >/dev/null 2>&1; then pool=(--pool "$root/dev/bench/quality/pool/$name"); fi
    for f in $grid $default; do
        "$bin/evaluate" --quiet --format tsv --cut-fraction "$f" "${pool[@]}" "$ranked" |
            awk -F'\t' -v OFS='\t' -v f="$f" -v c="$name" '$3 == "overall" { print c, f, $4, $5, $6, $7, $8, $9, $10, $11 }' >>"$rows"
    done
done

# rows: corpus, fraction, lists, above, precision, recall, goal_met, then the oracle's precision,
# recall and goal_met (the best cut of each list knowing the answers; the same at every fraction)
printf '%-18s %8s %6s %7s %9s %7s %9s   %s\n' corpus fraction lists above precision recall goal_met 'oracle: precision recall goal_met'
awk -F'\t' -v d="$default" '$2 + 0 == d + 0 && !seen[$1]++ { printf "%-18s %8s %6d %7.1f %9.3f %7.3f %6d/%d   %9.3f %7.3f %6d/%d\n", $1, $2, $3, $4, $5, $6, $7, $3, $8, $9, $10, $3 }' "$rows"
if [ ${#names[@]} -ge 2 ]; then
    echo
    echo "leave one corpus out (chosen on one, measured on the other):"
    awk -F'\t' -v a="${names[0]}" -v b="${names[1]}" '
        $1 == a || $1 == b { key = $1 SUBSEP $2; p[key] = $5; r[key] = $6; met[key] = $7; n[key] = $3; fr[$2] = 1 }
        function best(c,   f, bf) { bf = ""; for (f in fr) if ((c SUBSEP f) in met)
                if (bf == "" || met[c SUBSEP f] > met[c SUBSEP bf] || (met[c SUBSEP f] == met[c SUBSEP bf] && p[c SUBSEP f] > p[c SUBSEP bf])) bf = f
            return bf }
        function line(train, test,   f) { f = best(train)
            printf "  chosen on %-18s F = %-5s -> %-18s precision %.3f recall %.3f goal_met %d/%d\n", train, f, test, p[test SUBSEP f], r[test SUBSEP f], met[test SUBSEP f], n[test SUBSEP f] }
        END { line(a, b); line(b, a)
              for (f in fr) if ((a SUBSEP f) in met && (b SUBSEP f) in met) {
                  m = met[a SUBSEP f] + met[b SUBSEP f]; pp = p[a SUBSEP f] + p[b SUBSEP f]
                  if (bf == "" || m > bm || (m == bm && pp > bp)) { bf = f; bm = m; bp = pp } }
              printf "  chosen on both: F = %s (%d lists met)\n", bf, bm }' "$rows"
fi
