#!/usr/bin/env bash
# discover_map.sh CURATED DISCOVERED [CLASSES]: gives the discovered dataset (annotate
# --discover) the curated dataset's classes, by name: a ground-truth member is
# found when one of its names (its name in entity2id.txt, or an alias in the
# curated aliases.txt: the curated mentions count those too), or failing that
# its longest suffix, is the name or an alias (DISCOVERED/aliases.txt) of a
# discovered entity (a curated list made by an earlier discovery has titled
# names, "President Reagan", that discovery now reads as "Reagan"). DISCOVERED/gt/<class>.txt
# lists the discovered entities so found (each once), DISCOVERED/query/<class>.txt
# the same seed sets written as the discovered entities' names (a seed that was
# not discovered is left out, two seeds found as one entity are written once; a
# query left without seeds is dropped). CURATED is a dataset folder or archive.
# CLASSES (optional): a folder of <class>.txt member-name lists (one name a line,
# e.g. all of WordNet's instances of the class, as examples/wordnet/wordnet.awk
# writes them): a discovered entity with one of those names or aliases is a
# member too, also when the curated list has no entity of that name (it was
# dropped below --min-mentions there, or is written otherwise).
# Prints per class: members found / all, queries kept / all; and the recall of
# all members over the classes.
set -euo pipefail
curated=$1 disc=$2 classes=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$curated" ]; then src=$curated; else tar xzf "$curated" -C "$tmp" && src=$(dirname "$(find "$tmp" -name entity2id.txt | head -n1)"); fi
touch "$tmp/none"
cur_aliases=$src/aliases.txt disc_aliases=$disc/aliases.txt
[ -f "$cur_aliases" ] || cur_aliases=$tmp/none
[ -f "$disc_aliases" ] || disc_aliases=$tmp/none
mkdir -p "$disc/gt" "$disc/query"
rm -f "$disc"/gt/*.txt "$disc"/query/*.txt
# every name of a curated entity: "curated name<TAB>name", its own name first
awk -F'\t' 'NR == FNR { print $1 "\t" $1; next } { for (i = 2; i <= NF; i++) if ($i != "") print $1 "\t" $i }' \
    "$src/entity2id.txt" "$cur_aliases" >"$tmp/cur_names"
# every name of a discovered entity: "name<TAB>discovered eid<TAB>discovered name"
awk -F'\t' 'NR == FNR { id[$1] = $2; print $1 "\t" $2 "\t" $1; next }
    ($1 in id) { for (i = 2; i <= NF; i++) if ($i != "") print $i "\t" id[$1] "\t" $1 }' \
    "$disc/entity2id.txt" "$disc_aliases" >"$tmp/disc_names"
# curated name -> the discovered entities it was found as: "curated name<TAB>eid<TAB>name", own name first;
# a name not discovered is found through its longest discovered suffix (a title or a
# qualifier dropped: "President Reagan" -> "Reagan", "Fed Chairman Paul Volcker" -> "Paul Volcker")
awk -F'\t' 'NR == FNR { if (!($1 in eid)) { eid[$1] = $2; nm[$1] = $3 }; next }
    ($2 in eid) { print $1 "\t" eid[$2] "\t" nm[$2]; next }
    { n = split($2, w, " "); for (k = 2; k <= n; k++) { s = w[k]; for (j = k + 1; j <= n; j++) s = s " " w[j]
        if (s in eid) { print $1 "\t" eid[s] "\t" nm[s]; break } } }' "$tmp/disc_names" "$tmp/cur_names" >"$tmp/found"
found_all=0 total_all=0
for g in "$src"/gt/*.txt; do
    cls=$(basename "$g" .txt)
    awk -F'\t' 'NR == FNR { if (!(($1, $2) in seen)) { seen[$1, $2] = 1; as[$1] = as[$1] $2 "\t" $3 "\n" }; next }
        $3 >= 1 { printf "%s", as[$2] }' "$tmp/found" "$g" >"$tmp/gt"
    if [ -n "$classes" ]; then # the discovered entities named in the class list
        awk -F'\t' 'NR == FNR { m[$0] = 1; next } ($1 in m) { print $2 "\t" $3 }' "$classes/$cls.txt" "$tmp/disc_names" >>"$tmp/gt"
    fi
    awk -F'\t' '!seen[$1]++ { print $0 "\t1" }' "$tmp/gt" >"$disc/gt/$cls.txt"
    found=$(awk -F'\t' 'NR == FNR { f[$1] = 1; next } $3 >= 1 && ($2 in f)' "$tmp/found" "$g" | wc -l)
    total=$(awk -F'\t' '$3 >= 1' "$g" | wc -l)
    found_all=$((found_all + found)) total_all=$((total_all + total))
    # queries: curated seed eids -> curated names -> the first discovered entity found, tab-separated
    awk -F'\t' 'FNR == 1 { file++ } file == 1 { name[$2] = $1; next } file == 2 { if (!($1 in as)) as[$1] = $3; next }
        /^EXIT/ { exit } { line = ""; delete used; for (i = 1; i <= NF; i++) { n = split($i, ids, " ");
            for (k = 1; k <= n; k++) if ((ids[k] in name) && (name[ids[k]] in as) && !(as[name[ids[k]]] in used)) {
                used[as[name[ids[k]]]] = 1; line = line (line == "" ? "" : "\t") as[name[ids[k]]] } }
          if (line != "") print line }' "$src/entity2id.txt" "$tmp/found" "$src/query/$cls.txt" >"$disc/query/$cls.txt"
    printf '%-20s members %4d / %4d   queries %d / %d   gt entities %d\n' "$cls" "$found" "$total" \
        "$(wc -l <"$disc/query/$cls.txt")" "$(grep -vc '^EXIT' "$src/query/$cls.txt")" "$(wc -l <"$disc/gt/$cls.txt")"
done
awk -v f="$found_all" -v t="$total_all" 'BEGIN { printf "recall of the ground-truth members: %d / %d = %.3f\n", f, t, f / t }'
