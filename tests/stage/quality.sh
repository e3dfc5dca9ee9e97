# evaluate's options for the quality suite (make bench-quality): --ap-denominator non-seeds
# and --pool, on the 9-entity fixture of expansion.sh with hand-computed figures, and the
# pool's bad files (exit 3 naming file and line).
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/expansion
DATA=$FX/tiny
"$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/a.mp" <"$FX/model-a.txt" || { fail fixtures "cannot build dists"; exit 1; }
# states {Ohio,Texas,Iowa} -> Oregon, Utah; {Texas,Iowa,Oregon} -> Ohio, Utah; cities {Chicago,New York,new_york} -> Boston, Ohio
expand --quiet --dists "$WORK/a.mp" --queries "$DATA" --size 2 --out "$WORK/exp.mp" &&
    rerank --quiet --dists "$WORK/a.mp" --out "$WORK/ranked.mp" "$WORK/exp.mp" || { fail fixtures "cannot expand"; exit 1; }

# --ap-denominator: official |gt| counts the seeds (states 2 hits / 5 = 0.4, cities 1 / 4);
# without them every list here is perfect: states 2 / 2, cities (Boston) 1 / 1.
evaluate --quiet "$WORK/ranked.mp" >"$WORK/all" && evaluate --quiet --ap-denominator all "$WORK/ranked.mp" >"$WORK/all2" &&
    evaluate --quiet --ap-denominator non-seeds "$WORK/ranked.mp" >"$WORK/ns"
grep -Eq '^overall +3 +0\.3500 ' "$WORK/all" && cmp -s "$WORK/all" "$WORK/all2" && grep -Eq '^states +2 +1\.0000 ' "$WORK/ns" &&
    grep -Eq '^overall +3 +1\.0000 +1\.0000 ' "$WORK/ns" && pass ap_denominator_non_seeds || fail ap_denominator_non_seeds "$(cat "$WORK/all" "$WORK/ns")"
expect_exit ap_denominator_bad 2 "--ap-denominator: expected all or non-seeds, found 'seeds'" \
    evaluate --ap-denominator seeds "$WORK/ranked.mp"
# every member a seed: nothing left to find
cp -r "$DATA" "$WORK/allseeds" && printf '10\tOhio\t1\n11\tTexas\t1\n12\tIowa\t1\n' >"$WORK/allseeds/gt/states.txt"
expect_exit ap_denominator_nothing_left 3 'every member of class "states" is a seed of its query 1' \
    evaluate --ap-denominator non-seeds --gt "$WORK/allseeds" "$WORK/ranked.mp"

# --pool: Utah judged not a state, Lonely judged one (an alias resolves too); states gt =
# {Ohio, Texas, Iowa, Oregon, Lonely}. states #1 Oregon, Utah: 1 hit / 5 = 0.2 (non-seeds:
# 1 / |{Oregon, Lonely}| = 0.5); #2 Ohio, Utah: 0.2 (0.5); cities 0.25 (1). P@10 = 0.1 in
# each list, P@20 0.05; unjudged in the top 20: only Ohio in the cities list (1 of 3 lists).
mkdir -p "$WORK/pool" && printf '# states judged by hand\nUtah\t0\tnot a state in this text\nlonely\t1\tjudged a member\n\nUtah\t0\tjudged twice alike\n' >"$WORK/pool/states.tsv"
printf 'a note, not a pool file\n' >"$WORK/pool/README"
evaluate --quiet --pool "$WORK/pool" "$WORK/ranked.mp" >"$WORK/p" && evaluate --quiet --pool "$WORK/pool" --ap-denominator non-seeds --format tsv "$WORK/ranked.mp" >"$WORK/pt"
if grep -Eq '^states +2 +0\.2000 +0\.2000 +0\.2000 +0\.2000 +0\.1000 +0\.0500 +0\.0000$' "$WORK/p" &&
   grep -Eq '^overall +3 +0\.2167 .* +0\.1000 +0\.0500 +0\.3333$' "$WORK/p" && grep -q 'unjudged@20' "$WORK/p" &&
   [ "$(awk -F'\t' '$3 == "overall" { printf "%.4f %.4f %.4f %.4f", $5, $9, $10, $11 }' "$WORK/pt")" = '0.6667 0.1000 0.0500 0.3333' ] &&
   [ "$(head -n1 "$WORK/pt" | cut -f9-)" = "$(printf 'P@10\tP@20\tunjudged@20')" ]; then
    pass evaluate_pool; else fail evaluate_pool "$(cat "$WORK/p" "$WORK/pt")"; fi
# without --pool the tables keep their columns
[ "$(head -n1 "$WORK/all" | wc -w)" = 6 ] && pass evaluate_without_pool_columns || fail evaluate_without_pool_columns "$(head -n1 "$WORK/all")"

# bad pool files: exit 3, file and line. bad_pool NAME CLASS CONTENT PATTERN: DIR/CLASS.tsv = CONTENT
bad_pool() {
    rm -rf "$WORK/bp" && mkdir -p "$WORK/bp" && printf "$3" >"$WORK/bp/$2.tsv"
    expect_exit "$1" 3 "$4" evaluate --pool "$WORK/bp" "$WORK/ranked.mp"
}
bad_pool pool_unknown_name states 'Utah\t0\treason\nOhoi\t1\treason\n' 'bp/states.tsv: line 2: unknown entity "Ohoi".*"Ohio"'
bad_pool pool_bad_label states 'Utah\tyes\treason\n' \
    'bp/states.tsv: line 1: expected the label 1 \(a member\) or 0 \(not a member\) after the name, found "yes"'
bad_pool pool_label_two states 'Utah\t2\n' 'bp/states.tsv: line 1: expected the label 1'
bad_pool pool_no_label states 'Utah\n' 'bp/states.tsv: line 1: expected name<TAB>1\|0<TAB>reason, found 1 field'
bad_pool pool_conflict states 'Utah\t1\tyes\n# later\n14\t0\tno\n' 'bp/states.tsv: line 3: "14" \(eid 14\) judged 0 here and 1 at line 1'
bad_pool pool_unknown_class rivers 'Utah\t1\tx\n' 'bp/rivers.tsv: "rivers" is not a class of'
bad_pool pool_empties_class cities 'Chicago\t0\t\nNew York\t0\t\nnew_york\t0\t\nBoston\t0\t\n' 'bp/cities.tsv: the pool leaves class "cities" without a member'
bad_pool pool_bad_utf8 states 'Utah\t1\t\xff\n' 'bp/states.tsv'
rm -rf "$WORK/bp" && mkdir -p "$WORK/bp"
expect_exit pool_empty_folder 3 'bp: no <class>.tsv file in the pool folder' evaluate --pool "$WORK/bp" "$WORK/ranked.mp"
expect_exit pool_missing_folder 3 'nowhere: cannot open the pool folder' evaluate --pool "$WORK/nowhere" "$WORK/ranked.mp"
printf 'Utah\t1\n' >"$WORK/j.tsv"
expect_exit pool_with_judged 2 '--pool adds to a dataset' evaluate --pool "$WORK/pool" --judged "$WORK/j.tsv" "$WORK/ranked.mp"

# --cut-fraction (docs/cut.md): at F = 1 the threshold is the tail's own level, which no value
# is strictly below, so every list keeps its 2 entities: states 2/2 members (precision 1,
# recall 1, twice), cities Boston and Ohio (0.5, 1); overall precision (1 + 1 + 0.5) / 3, two
# lists meet precision >= 0.9 and recall >= 0.5. The oracle cut (the best precision at recall
# >= 0.5 knowing the answers): cities Boston alone (1, 1), states both (1, 1: ties go to the
# longer cut), so all three lists could meet the goal.
evaluate --quiet --cut-fraction 1 --format tsv "$WORK/ranked.mp" >"$WORK/cut" &&
    [ "$(awk -F'\t' '$3 == "overall" { print $4, $5, $6, $7, $8 }' "$WORK/cut")" = "3 2.00 0.8333 1.0000 2" ] &&
    [ "$(awk -F'\t' '$3 == "cities" { print $6, $7, $8 }' "$WORK/cut")" = "0.5000 1.0000 0" ] &&
    [ "$(awk -F'\t' '$3 == "cities" { print $9, $10, $11 }' "$WORK/cut")" = "1.0000 1.0000 1" ] &&
    [ "$(awk -F'\t' '$3 == "overall" { print $9, $10, $11 }' "$WORK/cut")" = "1.0000 1.0000 3" ] &&
    pass evaluate_cut || fail evaluate_cut "$(cat "$WORK/cut")"
expect_exit evaluate_cut_needs_ranked 3 'has no kl_score' evaluate --cut-fraction 0.45 "$WORK/exp.mp"
expect_exit evaluate_cut_not_json 2 'not json' evaluate --cut-fraction 0.45 --json "$WORK/ranked.mp"
expect_exit evaluate_cut_range 2 'cut-fraction' evaluate --cut-fraction 1.5 "$WORK/ranked.mp"
