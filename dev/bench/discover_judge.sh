#!/usr/bin/env bash
# discover_judge.sh DISCOVERED JUDGED: precision of the names `annotate --discover`
# found (DISCOVERED: its output folder, with names.tsv), from hand judgements.
# The sample: the SAMPLE (default 250) discovered names whose MD5 of "SEED:name"
# is smallest (SEED default 1), so that the sample is fixed for a fixed list and
# a name keeps its place when discovery changes (only new names enter it); the
# merges: the MERGE_SAMPLE (default 100) aliases (alias, entity, rule from
# names.tsv's "merged:" comment) drawn the same way.
# JUDGED is a path prefix: JUDGED.tsv holds "name<TAB>1|0<TAB>why" and
# JUDGED-merges.tsv "alias<TAB>entity<TAB>1|0<TAB>why" (rules in
# dev/bench/discover-judged/RULES.md). Sampled names or merges without a
# judgement are listed in DISCOVERED/unjudged.tsv and unjudged-merges.tsv, in the
# judged files' format with the judgement empty: judge them and append them.
# Prints precision and merge precision over the judged ones, how many are
# unjudged, and the names and aliases that hold markup ({ } < > [ ] |).
set -euo pipefail
disc=$1 judged=$2
seed=${SEED:-1} sample=${SAMPLE:-250} merge_sample=${MERGE_SAMPLE:-100}
touch "$judged.tsv" "$judged-merges.tsv"
md5_first() { # N: stdin lines sorted by MD5 of "SEED:line", the first N
    perl -MDigest::MD5=md5_hex -sne 'chomp; print md5_hex("$seed:$_"), "\t$_\n"' -- -seed="$seed" |
        LC_ALL=C sort | awk -v n="$1" 'NR <= n' | cut -f2-
}
# names: the entities' names; merges: "alias<TAB>entity<TAB>rule"
grep -v '^#' "$disc/names.tsv" | cut -f1 >"$disc/names.list"
grep -v '^#' "$disc/names.tsv" | awk -F'\t' '{ for (i = 2; i <= NF; i++) if ($i ~ /^# [0-9]+ mentions; merged: /) {
        s = $i; sub(/^# [0-9]+ mentions; merged: /, "", s); sub(/\)$/, "", s)
        k = split(s, part, /\), /) # "alias (rule" each (no name holds a parenthesis: it is no name token)
        for (p = 1; p <= k; p++) { m = match(part[p], / \([a-z]+$/)
            if (m) print substr(part[p], 1, m - 1) "\t" $1 "\t" substr(part[p], m + 2) } } }' >"$disc/merges.list"
md5_first "$sample" <"$disc/names.list" >"$disc/sample.list"
: >"$disc/unjudged.tsv"
: >"$disc/unjudged-merges.tsv"
md5_first "$merge_sample" <"$disc/merges.list" >"$disc/merge-sample.list"
awk -F'\t' -v out="$disc/unjudged.tsv" 'FILENAME == ARGV[1] { j[$1] = $2; next }
    { if (($1 in j) && j[$1] != "") { n++; ok += j[$1] == 1 } else print $1 "\t\t" >out }
    END { printf "precision of discovered names: %d / %d judged = %.3f\n", ok, n, (n ? ok / n : 0) }' \
    "$judged.tsv" "$disc/sample.list"
awk -F'\t' -v out="$disc/unjudged-merges.tsv" 'FILENAME == ARGV[1] { j[$1 SUBSEP $2] = $3; next }
    { key = $1 SUBSEP $2; if ((key in j) && j[key] != "") { n++; ok += j[key] == 1; r[$3]++ } else print $1 "\t" $2 "\t\t" $3 >out }
    END { printf "merge precision: %d / %d judged = %.3f (", ok, n, (n ? ok / n : 0); sep = ""
          for (k in r) { printf "%s%s %d", sep, k, r[k]; sep = ", " }; print ")" }' \
    "$judged-merges.tsv" "$disc/merge-sample.list"
echo "unjudged: $(wc -l <"$disc/unjudged.tsv") of $(wc -l <"$disc/sample.list") sampled names, $(wc -l <"$disc/unjudged-merges.tsv") of $(wc -l <"$disc/merge-sample.list") sampled merges"
echo "markup fragments (names and aliases with { } < > [ ] |): $(cut -f1 "$disc/merges.list" | cat "$disc/names.list" - | grep -c '[][{}<>|]' || true)"
echo "names: $(wc -l <"$disc/names.list"), aliases: $(wc -l <"$disc/merges.list") ($(cut -f3 "$disc/merges.list" | sort | uniq -c | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }'))"
