#!/usr/bin/env bash
# discover_slots.sh CURATED DISCOVERED DISCOVERED_GT CURATED_RANKED DISCOVERED_RANKED:
# where expansion on a discovered dataset loses against the same corpus with its curated
# list (bench-discover.sh's two runs), query by query. Prints for each query AP@10 of both
# runs (dev/bench/ap.awk, the seeds removed) and the seeds of both, then each top-10 slot
# that holds no member: "D" for the discovered run, with the entity's mentions and the
# curated entity under most of them ("-": none, the curated list never had the name), "C"
# for the curated run. The last lines count the slots by kind, also the discovered run's
# slots that hold a member the curated list never had (no curated class can count it).
# Positions: DISCOVERED was annotated from CURATED's sentences one a line (bench-discover.sh's
# text.txt), so each discovered sentence's articleId ends in ":<line>"; annotate may split a
# line into several sentences, which are found in the line by their text without spaces. A
# discovered mention lies on a curated one when the curated span holds it, or when the two
# overlap by 3/4 of the longer (characters, spaces left out); a discovered entity's curated
# entity is the one that holds more than half of its mentions.
# CURATED: a dataset folder or archive; DISCOVERED_GT: a folder of gt/<class>.txt over the
# discovered entities (bench-discover.sh's OUT/wordnet/data, or DISCOVERED itself).
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: discover_slots.sh CURATED DISCOVERED DISCOVERED_GT CURATED_RANKED DISCOVERED_RANKED" >&2; exit 2; }
curated=$1 disc=$2 disc_gt=$3 ranked_c=$4 ranked_d=$5
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-$here/../../bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$curated" ]; then src=$curated; else tar xzf "$curated" -C "$tmp" && src=$(dirname "$(find "$tmp" -name entity2id.txt | head -n1)"); fi
mentions='(.tokens | join("\u0001")) + "\t" + (.entityMentions | map("\(.start),\(.end),\(.entityId)") | join(";"))'
jq -r '(input_line_number | tostring) + "\t" + '"$mentions" "$src/sentences.json" >"$tmp/cur"
jq -r '(.articleId | sub(".*:"; "")) + "\t" + '"$mentions" "$disc/sentences.json" >"$tmp/disc"
# "eid<TAB>curated eid" for each discovered entity whose mentions mostly lie on one curated
# entity's, "n<TAB>eid<TAB>mentions" for every discovered entity
awk -F'\t' '
function spans(toks, ments, off, out,    n, t, cum, i, m, k, p) {  # mention -> "from,to,eid" in characters
    n = split(toks, t, "\001"); cum[0] = 0
    for (i = 1; i <= n; i++) cum[i] = cum[i - 1] + length(t[i])
    m = (ments == "" ? 0 : split(ments, k, ";"))
    for (i = 1; i <= m; i++) { split(k[i], p, ","); out[i] = (off + cum[p[1]]) "," (off + cum[p[2] + 1]) "," p[3] }
    return m
}
NR == FNR { ctok[$1] = $2; cment[$1] = $3; next }
{
    line = $1
    if (!(line in text)) { text[line] = ctok[line]; gsub("\001", "", text[line]); at[line] = 0; nc[line] = spans(ctok[line], cment[line], 0, cs); for (j = 1; j <= nc[line]; j++) c[line, j] = cs[j] }
    s = $2; gsub("\001", "", s)
    pos = index(substr(text[line], at[line] + 1), s)
    if (pos == 0) { printf "discover_slots.sh: %s: line %s: a discovered sentence is not in the curated sentence\n", FILENAME, line > "/dev/stderr"; bad = 1; exit 3 }
    off = at[line] + pos - 1; at[line] = off + length(s)
    nd = spans($2, $3, off, ds)
    for (i = 1; i <= nd; i++) {
        split(ds[i], a, ","); count[a[3]]++; best = ""; bestov = 0
        for (j = 1; j <= nc[line]; j++) {
            split(c[line, j], b, ","); ov = (a[2] < b[2] ? a[2] : b[2]) - (a[1] > b[1] ? a[1] : b[1])
            la = a[2] - a[1]; lb = b[2] - b[1]
            if ((ov == la || 4 * ov >= 3 * (la > lb ? la : lb)) && ov > bestov) { bestov = ov; best = b[3] }
        }
        if (best != "") on[a[3], best]++
    }
}
END {
    if (bad) exit 3
    for (k in on) { split(k, ids, SUBSEP); if (2 * on[k] > count[ids[1]]) print ids[1] "\t" ids[2] }
    for (e in count) print "n\t" e "\t" count[e]
}' "$tmp/cur" "$tmp/disc" >"$tmp/pairs"
# "class<TAB>query<TAB>seed names<TAB>list eids (seeds removed)" per query
lists() { "$bin/inspect" --quiet --full "$1" | jq -r 'select(.class) | [.class, (.query | tostring), (.seed_names | join(", ")),
    ([.seeds as $s | .entities[] | select(. as $e | $s | index([$e]) | not) | tostring] | join(" "))] | join("\t")'; }
lists "$ranked_c" >"$tmp/lc"
lists "$ranked_d" >"$tmp/ld"
: >"$tmp/slots"; : >"$tmp/members"
while IFS=$'\t' read -r cls q seeds_c list_c <&3 && IFS=$'\t' read -r cls_d q_d seeds_d list_d <&4; do
    [ "$cls" = "$cls_d" ] && [ "$q" = "$q_d" ] || { echo "discover_slots.sh: the runs' queries differ: $cls/$q, $cls_d/$q_d" >&2; exit 3; }
    tr ' ' '\n' <<<"$list_c" >"$tmp/c.list"
    tr ' ' '\n' <<<"$list_d" >"$tmp/d.list"
    ap_c=$(awk -F'\t' -f "$here/ap.awk" "$src/gt/$cls.txt" "$tmp/c.list" | cut -f1)
    ap_d=$(awk -F'\t' -f "$here/ap.awk" "$disc_gt/gt/$cls.txt" "$tmp/d.list" | cut -f1)
    printf '%s q%s AP@10 curated %.3f discovered %.3f   seeds: %s | %s\n' "$cls" "$q" "$ap_c" "$ap_d" "$seeds_c" "$seeds_d"
    head -n 10 "$tmp/d.list" | awk -F'\t' -v gt="$disc_gt/gt/$cls.txt" -v e2i="$disc/entity2id.txt" -v ce2i="$src/entity2id.txt" -v pairs="$tmp/pairs" -v members="$tmp/members" '
        BEGIN { while ((getline l < gt) > 0) { split(l, f, "\t"); if (f[3] >= 1) m[f[1]] = 1 }
                while ((getline l < e2i) > 0) { split(l, f, "\t"); name[f[2]] = f[1] }
                while ((getline l < ce2i) > 0) { split(l, f, "\t"); cname[f[2]] = f[1] }
                while ((getline l < pairs) > 0) { split(l, f, "\t"); if (f[1] == "n") n[f[2]] = f[3]; else cur[f[1]] = f[2] } }
        ($1 in m) { print "member", (($1 in cur) ? "curated" : "-") >>members }
        !($1 in m) { printf "  D  %s  (%d mentions; curated: %s)\n", name[$1], n[$1], ($1 in cur) ? cname[cur[$1]] : "-" }' | tee -a "$tmp/slots"
    head -n 10 "$tmp/c.list" | awk -F'\t' -v gt="$src/gt/$cls.txt" -v e2i="$src/entity2id.txt" '
        BEGIN { while ((getline l < gt) > 0) { split(l, f, "\t"); if (f[3] >= 1) m[f[1]] = 1 }
                while ((getline l < e2i) > 0) { split(l, f, "\t"); name[f[2]] = f[1] } }
        !($1 in m) { printf "  C  %s\n", name[$1] }' | tee -a "$tmp/slots"
done 3<"$tmp/lc" 4<"$tmp/ld"
awk '$1 == "D" { d++; if (/curated: -\)$/) dn++ } $1 == "C" { c++ } $1 == "member" { m++; if ($2 == "-") mn++ }
    END { printf "top-10 slots without a member: discovered run %d (%d of them names the curated list never had), curated run %d\n", d, dn, c
          printf "top-10 slots with a member in the discovered run: %d, %d of them names the curated list never had\n", m, mn }' "$tmp/slots" "$tmp/members"
