#!/usr/bin/env bash
# bench-classes.sh: how well `probexpan classes` finds the classes of a dataset before any
# seed (make bench-classes). Builds the corpus index of each DATA into RUN_ROOT/<name> (once),
# lists the proposals (`classes --format json`, default options) and, for every ground-truth
# class (gt/<class>.txt, label 1), finds the proposal whose top-10 typical members are most
# that class: a class is found when that share is >= 80 %. Prints, per class, the best
# proposal (rank, head, share of its top 10 in the class), then "found K of N classes", and
# the CPU time of `classes` (user + system, from /usr/bin/time; the wall time depends on what
# else the machine runs).
#   bench-classes.sh BIN RUN_ROOT DATA...
set -euo pipefail
bin=$1 root=$2; shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for data in "$@"; do
    name=$(basename "$data" .tar.gz)
    run=$root/$name
    make --no-print-directory -f pipelines/probexpan.mk BIN="$bin" DATA="$data" RUN="$run" THREADS=1 index >/dev/null
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin/classes" --run "$run" --format json --quiet >"$tmp/classes.json"
    mkdir -p "$tmp/$name" && tar xzf "$data" -C "$tmp/$name"
    gt=$(find "$tmp/$name" -type d -name gt | head -n 1)
    echo "== $name: $(jq '.classes | length' "$tmp/classes.json") proposals from $(jq .genus_features "$tmp/classes.json") genus features of $(jq .entities "$tmp/classes.json") entities"
    found=0 total=0
    for g in "$gt"/*.txt; do
        cls=$(basename "$g" .txt)
        awk -F'\t' '$3 == 1 { print $1 }' "$g" | jq -R 'tonumber' | jq -s . >"$tmp/members.json"
        best=$(jq -r --slurpfile m "$tmp/members.json" '
            [.classes[] | {rank, head, top: (.members[:10] | map(.eid))}
             | .share = ((.top | map(select(. as $e | $m[0] | index($e) != null)) | length) / (.top | length))]
            | max_by([.share, -.rank]) // {rank: 0, head: "-", share: 0}
            | "\(.share)\t\(.rank)\t\(.head)"' "$tmp/classes.json")
        IFS=$'\t' read -r share rank head <<<"$best"
        ok=no
        if awk -v s="$share" 'BEGIN { exit !(s >= 0.8) }'; then ok=yes; found=$((found + 1)); fi
        total=$((total + 1))
        printf '%-20s %4d members  best: #%-3s %-16s top-10 share %.1f  found %s\n' "$cls" "$(jq length "$tmp/members.json")" "$rank" "$head" "$share" "$ok"
    done
    read -r user sys <"$tmp/time"
    echo "found $found of $total classes (a proposal whose top 10 are >= 80 % the class)"
    echo "classes: CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s (user + system), loading the index included"
done
