#!/usr/bin/env bash
# bench-feedback.sh BINDIR DATASET RUN [ROUNDS]: a simulated user on DATASET's queries.
# Round 0 is `query` on the seeds. After each round an oracle reading gt/ looks at the
# top 20 of the list it has not judged yet, accepts the first 5 members of the class and
# rejects the first 5 non-members; the next round runs `query` again with every accepted
# entity as --accepted and every rejected one as --negative-seeds (the method's positives
# and hard negatives). A second user gets no new ranking: the same oracle on the round-0
# list with what it judged removed ("exclusion only", the control). Each round is scored
# with the project's AP@K (evaluate's rule: |gt| counts the whole class) on the list of the
# entities not judged yet (seeds, accepted and rejected removed). Prints MAP@10/20/50 per
# round for both users and the query times. RUN holds the corpus index (make ... index).
# FEEDBACK_QUERIES=Q: only the first Q queries of each class (default 0 = all).
# FEEDBACK_QUERY_OPTS: more options of every `query` run (default none), e.g. "--select 0".
# FEEDBACK_RERUN_OPTS: more options of the runs with feedback only (rounds 1..; round 0 and
# the control stay as FEEDBACK_QUERY_OPTS make them), e.g. "--cl-steps-accepted 50".
# A benchmark, not a test.
set -eu
bin=$1 data=$2 run=$3 rounds=${4:-2}
size=${FEEDBACK_SIZE:-100} per_class=${FEEDBACK_QUERIES:-0}
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-feedback.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export PROBEXPAN_CATALOG=$dir/catalog.sqlite
if [ -d "$data" ]; then root=$data; else
    tar -xzf "$data" -C "$dir"
    root=$(dirname "$(find "$dir" -name entity2id.txt | head -n 1)")
fi
echo "== bench-feedback: $(basename "$data"), index $run/index.mp, size $size, query options '${FEEDBACK_QUERY_OPTS:-}', with feedback '${FEEDBACK_RERUN_OPTS:-}'; uptime:$(uptime | sed 's/.*load/ load/') =="
results=$dir/results.tsv times=$dir/times.txt
: >"$results"
: >"$times"
here=$(cd "$(dirname "$0")" && pwd)
# ap LIST_FILE GT_FILE: AP@10, AP@20, AP@50 of the eids of LIST_FILE (one a line)
ap() { awk -F'\t' -f "$here/ap.awk" "$2" "$1"; }
# unjudged LIST JUDGED: LIST's eids (one a line) without those in JUDGED (one a line), in order
unjudged() { awk 'NR == FNR { j[$1] = 1; next } !($1 in j)' "$2" "$1"; }
# judge LIST GT ACCEPTED REJECTED: the oracle on the first 20 of LIST; appends to the two files
judge() {
    head -n 20 "$1" | awk -F'\t' -v acc="$3" -v rej="$4" 'NR == FNR { if ($3 >= 1) gt[$1] = 1; next }
        ($1 in gt) && a < 5 { print $1 >> acc; a++; next } !($1 in gt) && r < 5 { print $1 >> rej; r++ }' "$2" -
}
csv() { paste -sd, "$1"; }
run_query() { # seeds accepted-file rejected-file out
    local t0 t1
    t0=$(date +%s.%N)
    # shellcheck disable=SC2046,SC2086
    "$bin/query" --quiet --run "$run" --seeds "$1" --size "$size" --format tsv ${FEEDBACK_QUERY_OPTS:-} \
        $( [ -s "$2" ] || [ -s "$3" ] && echo ${FEEDBACK_RERUN_OPTS:-} ) \
        $( [ -s "$2" ] && echo --accepted "$(csv "$2")" ) $( [ -s "$3" ] && echo --negative-seeds "$(csv "$3")" ) |
        awk -F'\t' 'NR > 1 { print $2 }' >"$4"
    t1=$(date +%s.%N)
    awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f\n", a - b }' >>"$times"
}
nq=0
for qf in "$root"/query/*.txt; do
    class=$(basename "$qf" .txt)
    gt=$root/gt/$class.txt i=0
    while read -r line && { [ "$per_class" -eq 0 ] || [ "$i" -lt "$per_class" ]; }; do
        [ -n "$line" ] && [ "$line" != EXIT ] || continue
        nq=$((nq + 1)) i=$((i + 1))
        seeds=$(echo "$line" | tr -s ' \t' ',')
        echo "$line" | tr -s ' \t' '\n' >"$dir/seeds"
        for u in method control; do : >"$dir/acc-$u"; : >"$dir/rej-$u"; done
        run_query "$seeds" "$dir/acc-method" "$dir/rej-method" "$dir/list0"
        for r in $(seq 0 "$rounds"); do
            [ "$r" -eq 0 ] || run_query "$seeds" "$dir/acc-method" "$dir/rej-method" "$dir/list-method"
            [ "$r" -gt 0 ] || cp "$dir/list0" "$dir/list-method"
            cp "$dir/list0" "$dir/list-control"
            for u in method control; do
                cat "$dir/seeds" "$dir/acc-$u" "$dir/rej-$u" >"$dir/judged"
                unjudged "$dir/list-$u" "$dir/judged" >"$dir/open"
                printf '%s\t%s\t%s\t%s\n' "$r" "$u" "$class" "$(ap "$dir/open" "$gt")" >>"$results"
                judge "$dir/open" "$gt" "$dir/acc-$u" "$dir/rej-$u"
            done
        done
    done <"$qf"
done
echo "$nq queries, $((rounds + 1)) rounds; MAP on the entities not judged yet:"
printf '%-6s %-28s %8s %8s %8s\n' round user MAP@10 MAP@20 MAP@50
awk -F'\t' '{ k = $1 "\t" $2; n[k]++; a[k] += $4; b[k] += $5; c[k] += $6 }
    END { for (k in n) { split(k, p, "\t"); printf "%-6s %-28s %8.4f %8.4f %8.4f\n", p[1],
          (p[2] == "method" ? "feedback into the method" : "exclusion only (control)"), a[k] / n[k], b[k] / n[k], c[k] / n[k] } }' \
    "$results" | sort
sort -n "$times" | awk '{ t[NR] = $1 } END { printf "query wall time: p50 %.2f s, p90 %.2f s, max %.2f s over %d runs\n", t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.5)], t[NR], NR }'
echo "end: uptime:$(uptime | sed 's/.*load/ load/')"
