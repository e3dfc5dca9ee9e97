# score-models, expand, rerank, evaluate end to end on a 9-entity fixture
# (tests/fixtures/expansion: two states/cities "models" as text, a tiny dataset),
# with hand-derived expectations, and their bad-input paths (exit 3, no output).
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/expansion
DATA=$FX/tiny
mkdists() { "$PROBEXPAN_TESTBIN/test_dists" --write "$2" <"$1"; }
mkdists "$FX/model-a.txt" "$WORK/a.mp" && mkdists "$FX/model-b.txt" "$WORK/b.mp" || { fail fixtures "cannot build dists"; exit 1; }

# --- score-models: model a's seed rows differ only in their own peaks, so the
# swap makes every pair identical (score 0); model b is noisy -> a is kept.
if score-models --queries "$DATA" --top 1 --ensemble "$WORK/ens1.mp" --out "$WORK/scores.mp" "$WORK/b.mp" "$WORK/a.mp" >"$WORK/table" 2>"$WORK/err" &&
   grep -Eq 'a\.mp +0 +0 +0 +\*' "$WORK/table" && ! grep -Eq 'b\.mp.*\*' "$WORK/table" &&
   [ "$(inspect "$WORK/scores.mp" | tail -n1 | jq -c '[.models[] | .selected]')" = '[false,true]' ]; then
    pass score_models_keeps_consistent; else fail score_models_keeps_consistent "$(cat "$WORK/table" "$WORK/err")"; fi
# ensemble of the top 1 = model a; of both = the element-wise mean of the text rows
inspect --full "$WORK/ens1.mp" | sed -n 4p | tr -d '[]' | tr ',' '\n' >"$WORK/e1"
sed -n 11p "$FX/model-a.txt" | tr ' ' '\n' >"$WORK/ra"
paste "$WORK/e1" "$WORK/ra" | awk '{ if ($1 - $2 > 1e-6 || $2 - $1 > 1e-6) bad = 1 } END { exit bad || NR != 9 }' &&
    pass ensemble_top1_is_model || fail ensemble_top1_is_model
score-models --queries "$DATA" --top 2 --ensemble "$WORK/ens2.mp" --out "$WORK/scores2.mp" "$WORK/b.mp" "$WORK/a.mp" >/dev/null 2>&1
inspect --full "$WORK/ens2.mp" | sed -n 4p | tr -d '[]' | tr ',' '\n' >"$WORK/e2"
sed -n 11p "$FX/model-b.txt" | tr ' ' '\n' >"$WORK/rb"
paste "$WORK/e2" "$WORK/ra" "$WORK/rb" | awk '{ d = $1 - ($2 + $3) / 2; if (d > 1e-6 || d < -1e-6) bad = 1 } END { exit bad || NR != 9 }' &&
    pass ensemble_is_mean || fail ensemble_is_mean

# --- expand: window 1 at these sizes, so each step takes the top candidate:
# states {Ohio,Texas,Iowa} -> Oregon, Utah; {Texas,Iowa,Oregon} -> Ohio, Utah;
# cities {Chicago,New York,new_york} -> Boston, then Ohio (ties: lowest row).
expand --dists "$WORK/a.mp" --queries "$DATA" --size 2 --names --out "$WORK/exp.mp" >"$WORK/names" 2>"$WORK/err"
if grep -qx ' -> Oregon, Utah' "$WORK/names" && grep -qx ' -> Ohio, Utah' "$WORK/names" && grep -qx ' -> Boston, Ohio' "$WORK/names" &&
   [ "$(inspect "$WORK/exp.mp" | sed -n 3p | jq -c '[.class, .entities]')" = '["cities",[19,10]]' ]; then
    pass expand_dataset_queries; else fail expand_dataset_queries "$(cat "$WORK/names" "$WORK/err")"; fi
expand --dists "$WORK/a.mp" --seeds " ohio, TEXAS ,12" --size 2 --names --out "$WORK/seeds.mp" >"$WORK/names" 2>/dev/null
grep -qx ' -> Oregon, Utah' "$WORK/names" && pass expand_seeds_normalised || fail expand_seeds_normalised "$(cat "$WORK/names")"
expect_exit expand_ambiguous_name 3 '"New_York" is ambiguous: "New York" \(eid 16\), "new_york" \(eid 17\)' \
    expand --dists "$WORK/a.mp" --seeds "Chicago,New_York" --out "$WORK/x.mp"
expand --dists "$WORK/a.mp" --seeds "Chicago, new_york " --size 1 --out "$WORK/exact.mp" 2>/dev/null
[ "$(inspect "$WORK/exact.mp" | sed -n 3p | jq -c .seeds)" = '[15,17]' ] && pass expand_exact_spelling_wins || fail expand_exact_spelling_wins
expect_exit expand_unknown_name 3 'unknown entity "Ohoi".*closest names: "Ohio" \(eid 10\)' \
    expand --dists "$WORK/a.mp" --seeds "Ohoi,Texas" --out "$WORK/x.mp"
expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" --negative-seeds Oregon --size 2 --names --out "$WORK/neg.mp" >"$WORK/names" 2>/dev/null
grep -qx ' -> Utah, Chicago' "$WORK/names" && pass expand_negative_seeds || fail expand_negative_seeds "$(cat "$WORK/names")"
# seeds as people write them: aliases (a names file), --seed with a comma, --seeds-file
printf 'Ohio\tBuckeye State\t# 3 mentions\tcontext\nTexas\tLone Star State, The\nIowa\tHawkeye State\n' >"$WORK/aliases.tsv"
expand --dists "$WORK/a.mp" --aliases "$WORK/aliases.tsv" --seeds "buckeye state" --seed "Lone Star State, The" \
    --seed Iowa --size 2 --names --out "$WORK/alias.mp" >"$WORK/names" 2>"$WORK/err"
grep -qx ' -> Oregon, Utah' "$WORK/names" && pass expand_aliases_and_seed || fail expand_aliases_and_seed "$(cat "$WORK/names" "$WORK/err")"
printf 'Hawkeye State\n\n# a comment\nTexas\n10\n' >"$WORK/seeds.txt"
expand --dists "$WORK/a.mp" --aliases "$WORK/aliases.tsv" --seeds-file "$WORK/seeds.txt" --size 2 --out "$WORK/sf.mp" 2>/dev/null
[ "$(inspect "$WORK/sf.mp" | sed -n 3p | jq -c '.seeds')" = '[12,11,10]' ] && pass expand_seeds_file || fail expand_seeds_file
expect_exit expand_alias_without_aliases 3 '\-\-seed: occurrence 1: unknown entity "Hawkeye State"' \
    expand --dists "$WORK/a.mp" --seed "Hawkeye State" --out "$WORK/x.mp"
printf '# nothing\n\n' >"$WORK/noseeds.txt"
expect_exit expand_seeds_file_empty 3 'noseeds.txt: no seed entities in the file' \
    expand --dists "$WORK/a.mp" --seeds-file "$WORK/noseeds.txt" --out "$WORK/x.mp"
# the seed option group (dataset/queries.h, the same in query): each way of giving rejected and
# accepted entities gives the same expansion, and an unknown name in any of them exits 3 naming it
expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" --negative-seeds Oregon --size 2 --out "$WORK/neg-list.mp" 2>/dev/null
printf 'Oregon\n' >"$WORK/oregon.txt"
expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" --negative Oregon --size 2 --out "$WORK/neg-name.mp" 2>/dev/null
expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" --negative-seeds-file "$WORK/oregon.txt" --size 2 --out "$WORK/neg-file.mp" 2>/dev/null
check expand_negative_name cmp <(inspect "$WORK/neg-list.mp" | sed -n 3p) <(inspect "$WORK/neg-name.mp" | sed -n 3p)
check expand_negative_seeds_file cmp <(inspect "$WORK/neg-list.mp" | sed -n 3p) <(inspect "$WORK/neg-file.mp" | sed -n 3p)
# an accepted entity joins the seeds: the expansion of the four as seeds
expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa,Oregon" --size 2 --names --out "$WORK/acc-seed.mp" >"$WORK/acc-seed" 2>/dev/null
check expand_accepted_joins_seeds bash -c "grep -qx ' -> Utah, Chicago' '$WORK/acc-seed'"
for how in "--accepted Oregon" "--accept Oregon" "--accepted-file $WORK/oregon.txt"; do
    # shellcheck disable=SC2086 # $how is an option and its value
    expand --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" $how --size 2 --names --out "$WORK/acc.mp" >"$WORK/acc" 2>/dev/null
    name=${how%% *}
    check "expand_${name#--}" cmp <(inspect "$WORK/acc.mp" | sed -n 3p) <(inspect "$WORK/acc-seed.mp" | sed -n 3p)
done
printf 'Oregon\nOhoi\n' >"$WORK/bad-names.txt"
for opt in seeds seed seeds-file negative-seeds negative negative-seeds-file accepted accept accepted-file; do
    case $opt in
    *-file) val=$WORK/bad-names.txt pat="bad-names.txt: line 2: unknown entity \"Ohoi\"" ;;
    seed | negative | accept) val=Ohoi pat="--$opt: occurrence 1: unknown entity \"Ohoi\"" ;;
    *) val=Oregon,Ohoi pat="--$opt: item 2: unknown entity \"Ohoi\"" ;;
    esac
    seeds=(--seeds Ohio,Texas); [[ $opt == seed* ]] && seeds=()
    expect_exit "expand_bad_$opt" 3 "$pat" expand --dists "$WORK/a.mp" "${seeds[@]}" "--$opt" "$val" --out "$WORK/x.mp"
    check "expand_bad_${opt}_no_output" test ! -e "$WORK/x.mp"
done
expect_exit expand_accepted_also_seed 2 '\-\-accepted: "Ohio" is also a seed of seeds query 1' \
    expand --dists "$WORK/a.mp" --seeds "Ohio,Texas" --accept Ohio --out "$WORK/x.mp"
expect_exit expand_accepted_also_negative 2 '\-\-accepted: "Oregon" is also a negative seed' \
    expand --dists "$WORK/a.mp" --seeds "Ohio,Texas" --accept Oregon --negative Oregon --out "$WORK/x.mp"
printf 'Ohio\n' >"$WORK/oneline.txt"
expand --dists "$WORK/a.mp" --queries "$WORK/oneline.txt" --size 1 --out "$WORK/one.mp" 2>/dev/null
[ "$(inspect "$WORK/one.mp" | sed -n 3p | jq -c '.seeds')" = '[10]' ] && pass query_file_single_name || fail query_file_single_name
printf 'Ohio, Texas\n10 11 12\nEXIT\n13 14\n' >"$WORK/mystates.txt"
expand --dists "$WORK/a.mp" --queries "$WORK/mystates.txt" --size 1 --out "$WORK/file.mp" 2>/dev/null
[ "$(inspect "$WORK/file.mp" | tail -n +3 | jq -c '[.class, .query, .seeds]' | tr -d '\n')" = '["mystates",0,[10,11]]["mystates",1,[10,11,12]]' ] &&
    pass expand_query_file || fail expand_query_file
# --exclusive: cities#1 and states#1 expand together from one pool (both sets'
# seeds blocked for both). Round 1: cities take Boston, states Oregon. Round 2:
# the cities' best free entity is Utah (all other states are taken); states#1 has
# nothing left. states#2 is alone in its group: Ohio, Utah.
expand --dists "$WORK/a.mp" --queries "$DATA" --size 2 --exclusive --out "$WORK/excl.mp" 2>"$WORK/err"
got=$(inspect "$WORK/excl.mp" | tail -n +3 | jq -c '.entities' | tr -d '\n')
[ "$got" = '[19,14][13][10,14]' ] && grep -q 'states #1: only 1 entities could be added' "$WORK/err" &&
    pass expand_exclusive || fail expand_exclusive "$got"

# --official: logz candidates keep each row's order here and the window is 1 for
# the first 20 rounds, so the lists are the same; the header records the schedule.
expand --dists "$WORK/a.mp" --queries "$DATA" --size 2 --official --out "$WORK/off.mp" 2>/dev/null &&
    rerank --official --dists "$WORK/a.mp" --out "$WORK/offr.mp" "$WORK/off.mp" 2>/dev/null
if [ "$(inspect "$WORK/off.mp" | head -n1 | jq -c '[.params.official, .params.candidates]')" = '[1,"logz"]' ] &&
   [ "$(inspect "$WORK/offr.mp" | head -n1 | jq -c '[.params.aggregate, .params.mu]')" = '["sum",9]' ] &&
   [ "$(inspect "$WORK/offr.mp" | tail -n +3 | jq -c '.entities' | tr -d '\n')" = '[19,10][13,14][10,14]' ]; then
    pass official_schedule; else fail official_schedule; fi

# --- rerank + evaluate: both hits of each states query count (2 of 5 gt -> 0.4);
# cities: Boston hit at 1 (1 of 4 gt -> 0.25); overall (0.4+0.4+0.25)/3 = 0.35.
rerank --dists "$WORK/a.mp" --out "$WORK/ranked.mp" "$WORK/exp.mp" 2>/dev/null
evaluate "$WORK/ranked.mp" >"$WORK/table" 2>/dev/null
if grep -Eq '^overall +3 +0\.3500 +0\.3500 +0\.3500 +0\.3500$' "$WORK/table" && grep -Eq '^cities +1 +0\.2500' "$WORK/table"; then
    pass evaluate_map; else fail evaluate_map "$(cat "$WORK/table")"; fi
# --show: the first query of one class, top 2, '+' marks the ground-truth member (Boston)
evaluate --show 1 --show-top 2 "$WORK/ranked.mp" >"$WORK/shown" 2>/dev/null
[ "$(sed -n '/^top entities/,$p' "$WORK/shown" | tr -s ' ')" = "$(printf 'top entities (+ = in the ground truth):\ncities, query 1: seeds Chicago, New York, new_york\n 1 + Boston\n 2 Ohio')" ] &&
    pass evaluate_show_lists || fail evaluate_show_lists "$(cat "$WORK/shown")"
evaluate --json --out "$WORK/report.mp" expansion="$WORK/exp.mp" reranked="$WORK/ranked.mp" >"$WORK/json" 2>/dev/null
# header and catalog params come from each program's option table
params_are_options score_models_params score-models "$WORK/scores2.mp"
params_are_options ensemble_params score-models "$WORK/ens2.mp"
params_are_options expand_params expand "$WORK/exp.mp"
params_are_options rerank_params rerank "$WORK/ranked.mp"
params_are_options evaluate_params evaluate "$WORK/report.mp" gt
[ "$(jq -c '[.runs[] | [.label, .overall.map[0]]]' "$WORK/json")" = '[["expansion",0.35],["reranked",0.35]]' ] &&
    [ "$(inspect "$WORK/report.mp" | tail -n1 | jq -c '.runs[1].queries[0].ap')" = '[0.25,0.25,0.25,0.25]' ] &&
    pass evaluate_json_report || fail evaluate_json_report "$(cat "$WORK/json")"
evaluate expansion="$WORK/exp.mp" reranked="$WORK/ranked.mp" >"$WORK/table" 2>/dev/null
grep -Eq '^reranked +\| +0\.3500 +0\.3500 +0\.3500$' "$WORK/table" && grep -q '| tiny' "$WORK/table" &&
    pass evaluate_side_by_side || fail evaluate_side_by_side "$(cat "$WORK/table")"

# --- lists and tables for the next tool: one entity a line
rerank --quiet --dists "$WORK/a.mp" --format tsv --out "$WORK/r2.mp" "$WORK/exp.mp" >"$WORK/tsv"
if [ "$(head -n1 "$WORK/tsv")" = "$(printf 'class\tquery\trank\teid\tname\tscore')" ] && [ "$(wc -l <"$WORK/tsv")" = 7 ] &&
   [ "$(awk -F'\t' '$1 == "cities" && $3 == 1 { print $4, $5 }' "$WORK/tsv")" = '19 Boston' ]; then
    pass rerank_format_tsv; else fail rerank_format_tsv "$(cat "$WORK/tsv")"; fi
expand --quiet --dists "$WORK/a.mp" --queries "$DATA" --size 2 --format json --out "$WORK/x.mp" >"$WORK/jl"
[ "$(jq -sc '[.[] | select(.class == "cities") | [.rank, .eid, .name]]' "$WORK/jl")" = '[[1,19,"Boston"],[2,10,"Ohio"]]' ] &&
    [ "$(jq -s 'length' "$WORK/jl")" = 6 ] && pass expand_format_json || fail expand_format_json "$(cat "$WORK/jl")"
expect_exit expand_format_bad 2 "--format: expected text, tsv or json, found 'csv'" expand --dists "$WORK/a.mp" --queries "$DATA" --format csv --out "$WORK/x.mp"
evaluate --format tsv expansion="$WORK/exp.mp" reranked="$WORK/ranked.mp" >"$WORK/etsv" 2>/dev/null
[ "$(grep -P '^reranked\ttiny\toverall\t' "$WORK/etsv" | cut -f4,5)" = "$(printf '3\t0.350000')" ] &&
    [ "$(grep -Pc '^reranked\ttiny\tcities\t1\t0.250000' "$WORK/etsv")" = 1 ] && pass evaluate_format_tsv || fail evaluate_format_tsv "$(cat "$WORK/etsv")"
evaluate --per-class expansion="$WORK/exp.mp" reranked="$WORK/ranked.mp" >"$WORK/pc" 2>/dev/null
[ "$(grep -c '^cities ' "$WORK/pc")" = 2 ] && grep -q '^reranked on tiny:' "$WORK/pc" && pass evaluate_per_class || fail evaluate_per_class "$(cat "$WORK/pc")"

# --judged: a person's own judgements (eid or name, label) as the ground truth of every class.
# {Ohio,Texas,Iowa} -> Oregon, Utah. Both judged members listed: AP 1. Utah and an entity
# never listed: one hit at rank 2 of two members -> 0.5 / 2 = 0.25.
printf 'oregon\t1\n14\t1\n# not a member:\nBoston\t0\n' >"$WORK/judged.tsv"
printf 'Utah\t1\nNowhere City\t1\n' >"$WORK/judged2.tsv"
expand --quiet --dists "$WORK/a.mp" --seeds "Ohio,Texas,Iowa" --size 2 --out "$WORK/mine.mp"
evaluate --quiet --judged "$WORK/judged.tsv" "$WORK/mine.mp" >"$WORK/j1" && evaluate --quiet --judged "$WORK/judged2.tsv" "$WORK/mine.mp" >"$WORK/j2"
grep -Eq '^overall +1 +1\.0000 ' "$WORK/j1" && grep -Eq '^overall +1 +0\.2500 ' "$WORK/j2" && pass evaluate_judged || fail evaluate_judged "$(cat "$WORK/j1" "$WORK/j2")"
printf 'Utah\tyes\n' >"$WORK/badj.tsv"
expect_exit evaluate_judged_bad_label 3 'badj.tsv: line 1: expected an integer label after the tab, found "yes"' evaluate --judged "$WORK/badj.tsv" "$WORK/mine.mp"
printf 'Utah\n' >"$WORK/badj.tsv"
expect_exit evaluate_judged_no_label 3 'badj.tsv: line 1: expected ITEM<TAB>LABEL' evaluate --judged "$WORK/badj.tsv" "$WORK/mine.mp"

# --- bad input: exit 3, a message naming the place, and no output file
cp -r "$DATA" "$WORK/bad"
printf '10 11 99\n' >"$WORK/bad/query/states.txt"
expect_exit unknown_eid_in_query 3 'query/states.txt query 1: seed eid 99 is not an entity of entity2id.txt' \
    expand --dists "$WORK/a.mp" --queries "$WORK/bad" --out "$WORK/bad.mp"
printf '10 18 12\n' >"$WORK/bad/query/states.txt"
expect_exit seed_missing_from_dists 3 'seed eid 18 \("Lonely"\) has no row in' \
    expand --dists "$WORK/a.mp" --queries "$WORK/bad" --out "$WORK/bad.mp"
[ ! -e "$WORK/bad.mp" ] && pass no_partial_output || fail no_partial_output
sed 's/\tBoston$/\tBostonia/' "$FX/model-a.txt" | "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/c.mp"
expect_exit mismatched_entity_tables 3 'c\.mp: entity table row 8: eid 19 "Bostonia", but .*a\.mp has eid 19 "Boston"' \
    score-models --queries "$DATA" --out "$WORK/s.mp" "$WORK/a.mp" "$WORK/c.mp"
head -n 5 "$FX/model-a.txt" | sed '1s/.*/4/' >"$WORK/small.txt"
printf '0.25 0.25 0.25 0.25\n%.0s' 1 2 3 4 >>"$WORK/small.txt"
"$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/small.mp" <"$WORK/small.txt"
expect_exit rerank_other_dists 3 'expanded over 9 entities, but .*small\.mp has 4' \
    rerank --dists "$WORK/small.mp" --out "$WORK/r.mp" "$WORK/exp.mp"
: >"$WORK/bad/gt/cities.txt"
expect_exit empty_gt_file 3 'gt/cities.txt: empty ground truth' evaluate --gt "$WORK/bad" "$WORK/ranked.mp"
expect_exit evaluate_seeds_need_gt 3 'records no dataset.*--gt' evaluate "$WORK/seeds.mp"
printf '10 11 oops\n' >"$WORK/typo.txt"
expect_exit query_file_bad_token 3 'typo.txt: line 1 item 1: unknown entity "10 11 oops"' \
    expand --dists "$WORK/a.mp" --queries "$WORK/typo.txt" --out "$WORK/x.mp"
printf '\n10 18\n' >"$WORK/lonely.txt"
expect_exit query_file_eid_not_in_dists 3 'lonely.txt: line 2: seed eid 18 has no row in' \
    expand --dists "$WORK/a.mp" --queries "$WORK/lonely.txt" --out "$WORK/x.mp"
printf '10 11\nOhio, Texsa\n' >"$WORK/typo2.txt"
expect_exit query_file_unknown_name 3 'typo2.txt: line 2 item 2: unknown entity "Texsa"; closest names: "Texas"' \
    expand --dists "$WORK/a.mp" --queries "$WORK/typo2.txt" --out "$WORK/x.mp"
printf 'EXIT\n10 11\n' >"$WORK/none.txt"
expect_exit query_file_empty 3 'none.txt: no queries in the file' \
    expand --dists "$WORK/a.mp" --queries "$WORK/none.txt" --out "$WORK/x.mp"
expect_exit seeds_empty 3 'no seed entities in " , "' expand --dists "$WORK/a.mp" --seeds " , " --out "$WORK/x.mp"
printf '10\n' >"$WORK/single.txt"
expect_exit score_models_no_pairs 3 'single.txt: no class has 2 distinct seed entities' \
    score-models --queries "$WORK/single.txt" --top 1 --out "$WORK/s.mp" "$WORK/a.mp"
sed 's/^19\tBoston$/20\tBoston/' "$FX/model-a.txt" | "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/e.mp"
expect_exit rerank_eid_not_in_dists 3 'exp.mp: cities query 1: entity eid 19 has no row in .*e\.mp' \
    rerank --dists "$WORK/e.mp" --out "$WORK/r.mp" "$WORK/exp.mp"
expect_exit evaluate_not_expansions 3 'a.mp: header: kind "dists": expected an "expansions" or "ranked" artifact' \
    evaluate --gt "$DATA" "$WORK/a.mp"
rm "$WORK/bad/gt/cities.txt"
expect_exit evaluate_class_without_gt 3 'no gt/cities.txt for class "cities"' evaluate --gt "$WORK/bad" "$WORK/ranked.mp"
expect_exit expand_needs_queries 2 'exactly one of --queries and --seeds' expand --dists "$WORK/a.mp" --out "$WORK/x.mp"
expect_exit score_models_top_too_big 2 '--top 3: only 2 models' score-models --queries "$DATA" --top 3 --out "$WORK/s.mp" "$WORK/a.mp" "$WORK/b.mp"
