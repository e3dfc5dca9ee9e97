#!/usr/bin/env bash
# discover_map.sh CURATED DISCOVERED: gives the discovered dataset (annotate
# --discover) the curated dataset's classes, by name: DISCOVERED/gt/<class>.txt
# lists the discovered entities whose name is a ground-truth member's name, and
# DISCOVERED/query/<class>.txt the same seed sets, written as names (a seed that
# was not discovered is left out; a query left without seeds is dropped).
# CURATED is a dataset folder or archive. Prints per class: members found / all,
# queries kept / all; and the recall of all members over the 13 classes.
set -euo pipefail
curated=$1 disc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$curated" ]; then src=$curated; else tar xzf "$curated" -C "$tmp" && src=$(dirname "$(find "$tmp" -name entity2id.txt | head -n1)"); fi
mkdir -p "$disc/gt" "$disc/query"
rm -f "$disc"/gt/*.txt "$disc"/query/*.txt
found_all=0 total_all=0
for g in "$src"/gt/*.txt; do
    cls=$(basename "$g" .txt)
    # gt: eid<TAB>name<TAB>label with the discovered eid of the same name
    awk -F'\t' 'NR == FNR { id[$1] = $2; next } $3 >= 1 && ($2 in id) { print id[$2] "\t" $2 "\t1" }' \
        "$disc/entity2id.txt" "$g" >"$disc/gt/$cls.txt"
    found=$(wc -l <"$disc/gt/$cls.txt") total=$(awk -F'\t' '$3 >= 1' "$g" | wc -l)
    found_all=$((found_all + found)) total_all=$((total_all + total))
    # queries: curated seed eids -> curated names -> the names of discovered entities, tab-separated
    awk -F'\t' 'FNR == 1 { file++ } file == 1 { name[$2] = $1; next } file == 2 { disc[$1] = 1; next }
        /^EXIT/ { exit } { line = ""; for (i = 1; i <= NF; i++) { n = split($i, ids, " ");
            for (k = 1; k <= n; k++) if ((ids[k] in name) && (name[ids[k]] in disc)) line = line (line == "" ? "" : "\t") name[ids[k]] }
          if (line != "") print line }' "$src/entity2id.txt" "$disc/entity2id.txt" "$src/query/$cls.txt" >"$disc/query/$cls.txt"
    printf '%-20s members %4d / %4d   queries %d / %d\n' "$cls" "$found" "$total" \
        "$(wc -l <"$disc/query/$cls.txt")" "$(grep -vc '^EXIT' "$src/query/$cls.txt")"
done
awk -v f="$found_all" -v t="$total_all" 'BEGIN { printf "recall of the ground-truth members: %d / %d = %.3f\n", f, t, f / t }'
