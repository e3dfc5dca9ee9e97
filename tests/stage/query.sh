# query stage tests on mini-ese reduced to one query (us_states #1): the pipeline's stages —
# from the index (pattern-model -> score-models -> expand -> rerank -> build-pairs ->
# pattern-model --pairs ..., the default: no dists file written) and on dense
# dists (PATTERN_PATH=dense: pattern-dists instead of pattern-model) — and `query` on the
# pipeline's index give the same ranking for phase 2 and each of the four variants (identical eid lists; aggregate and KL scores within 1e-9 relative,
# the sums over a sparse row being accumulated in another order), and so does the pipeline's
# PROTOCOL=inductive (query --queries, no dists written); TSV, JSON and --out agree;
# an accepted entity is a seed (left out of the list, which equals the one with it among the
# seeds); the modifier rule moves "American" out of a list of states and keeps the rest in
# order; --why gives every feature a text (lists: "with <entity>"); --genus-agreement 0 is the default list and W > 0 re-ranks it, keeping --size and
# leaving the seeds out; --genus-gate 0 keeps the context list, 1 always re-ranks, the default
# only where the list drifts from the seeds' head; and every bad input — unknown or ambiguous names, a seed that is also negative,
# fewer than two seeds, an index of another corpus or of an earlier version of the dataset, a wrong kind or schema, a truncated
# index, an interrupted index build, a patmodel of another index or truncated, pairs of other samples,
# --dists with --index — exits 3 (2 for usage) with the expected message and no output.
source "$(dirname "$0")/lib.sh"
if ! need_shared || [ ! -f "$SHARED/data/mini-ese.tar.gz" ]; then skip query "no ../shared/data/mini-ese.tar.gz"; exit 0; fi
tar xzf "$SHARED/data/mini-ese.tar.gz" -C "$WORK"
D=$WORK/mini-ese
for f in "$D"/query/*.txt; do [ "$(basename "$f")" = us_states.txt ] || rm "$f"; done
seeds=$(head -n 1 "$D/query/us_states.txt")
echo "$seeds" >"$D/query/us_states.txt"
RUN=$WORK/run
DRUN=$WORK/drun
# both paths with query's refinement setting (its weight decay; the pipeline's default is the
# transductive one)
wd=$(query --help | sed -n 's/.*--cl-weight-decay .*(default: \([0-9.]*\)).*/\1/p')
check query-help-states-weight-decay test -n "$wd"
# and one feature fraction for models 2..K (query's default differs from the batch's)
frac=0.8
for path in index dense; do
    if make -s -f "$PROBEXPAN_ROOT/pipelines/probexpan.mk" BIN="$PROBEXPAN_BIN" DATA="$D" RUN="$([ $path = index ] && echo "$RUN" || echo "$DRUN")" \
        THREADS=1 PATTERN_PATH=$path PATTERN_FRACTION=$frac CL_FLAGS="--cl-weight-decay $wd" ablation index >"$WORK/plog" 2>&1; then pass "pipeline_and_index_$path"; else
        fail "pipeline_and_index_$path" "$(tail -n 3 "$WORK/plog")"; exit 0; fi
done
check index_is_inspectable grep -q '"kind":"index"' <(inspect --header "$RUN/index.mp")
check index_smaller_than_a_dists test "$(stat -c %s "$RUN/index.mp")" -lt $(($(stat -c %s "$DRUN/phase1/dists-1.mp") / 3))
check pipeline-writes-no-dists bash -c "[ -z \"\$(find '$RUN' -name '*dists*')\" ]"
check patmodel-inspectable grep -q '"kind":"patmodel"' <(inspect --header "$RUN/phase3/ensemble.mp")
check patmodel-small test "$(stat -c %s "$RUN/phase3/ensemble.mp")" -lt $(($(stat -c %s "$DRUN/phase1/dists-1.mp") / 10))

# same_ranking NAME A B: two ranked records (JSON) hold the same eids in the same order, and
# their aggregate and KL scores agree within 1e-9 relative
same_ranking() {
    check "$1-same-ranking" cmp <(jq '.entities[]' "$2") <(jq '.entities[]' "$3")
    check "$1-same-scores" jq -e -n --slurpfile a "$2" --slurpfile b "$3" '
        def close(x; y): ((x - y) | fabs) <= 1e-9 * ([(x | fabs), (y | fabs), 1e-300] | max);
        [range(0; $a[0].scores | length) | close($a[0].scores[.]; $b[0].scores[.]) and close($a[0].kl_score[.]; $b[0].kl_score[.])] | all'
}

# the pipeline's stages, index vs dense: the same lists, the same figures, the same models kept
for v in phase2 noclen nocl noen full; do
    inspect "$RUN/$v/ranked.mp" | sed -n 3p >"$WORK/stages-$v.json"
    inspect "$DRUN/$v/ranked.mp" | sed -n 3p >"$WORK/dense-$v.json"
    same_ranking "stages-$v" "$WORK/dense-$v.json" "$WORK/stages-$v.json"
done
# (the rows are the same floats, so the model scores are identical)
for p in phase1 phase3; do
    check "stages-same-model-scores-$p" cmp <(inspect "$DRUN/$p/scores.mp" | sed -n 2p | jq -c '[.models[] | .class_scores, .selected]') \
        <(inspect "$RUN/$p/scores.mp" | sed -n 2p | jq -c '[.models[] | .class_scores, .selected]')
done

# the pipeline vs query without its feature selection and modifier rule (the stages have
# neither): the same list, the same figures
seed_list=$(tr ' ' ',' <<<"$seeds")
for v in noclen nocl noen full; do
    query --run "$RUN" --seeds "$seed_list" --variant $v --select 0 --refine-check 0 --modifier-ratio 0 --feature-fraction $frac --out "$WORK/q-$v.mp" --quiet >"$WORK/q-$v.tsv"
    inspect "$WORK/q-$v.mp" | sed -n 3p >"$WORK/index-$v.json"
    same_ranking "$v" "$WORK/stages-$v.json" "$WORK/index-$v.json"
    check "$v-tsv-matches-out" cmp <(tail -n +2 "$WORK/q-$v.tsv" | cut -f2) <(jq '.entities[]' "$WORK/index-$v.json")
done
params_are_options query-params query "$WORK/q-full.mp"
# the inductive pipeline (query --queries from the index, --select 0) on this one-query dataset
# is the same method: the same lists as the transductive stages
if make -s -f "$PROBEXPAN_ROOT/pipelines/probexpan.mk" BIN="$PROBEXPAN_BIN" DATA="$D" RUN="$WORK/irun" THREADS=1 \
    PROTOCOL=inductive PATTERN_FRACTION=$frac QUERY_FLAGS="--select 0 --refine-check 0 --modifier-ratio 0" noclen full >"$WORK/ilog" 2>&1; then pass inductive_pipeline; else fail inductive_pipeline "$(tail -n 3 "$WORK/ilog")"; fi
for v in noclen full; do
    check "inductive-pipeline-$v-same-ranking" cmp <(inspect "$WORK/irun/$v/ranked.mp" | sed -n 3p | jq '.entities[]') \
        <(jq '.entities[]' "$WORK/dense-$v.json")
done
check inductive-pipeline-no-dists bash -c "[ -z \"\$(find '$WORK/irun' -name '*dists*')\" ]"
check tsv-header grep -q $'^rank\teid\tname\tscore\torder\tkl_rank\tkl_score\tsearch_score\tmentions\tabove_cut$' "$WORK/q-full.tsv"
# the default query (with its feature selection): JSON and TSV agree
query --run "$RUN" --seeds "$seed_list" --variant noclen --quiet >"$WORK/q-default.tsv"
query --run "$RUN" --seeds "$seed_list" --variant noclen --format json --quiet >"$WORK/q.json"
check json-matches-tsv cmp <(jq '.entities[].eid' "$WORK/q.json") <(tail -n +2 "$WORK/q-default.tsv" | cut -f2)
# where to cut (docs/cut.md): the TSV marks the JSON's cut.above first ranks; --cut auto returns
# exactly them (the ranking unchanged), in TSV and --out
check cut-marked bash -c "[ \"\$(awk -F'\t' 'NR > 1 && \$10 == 1' '$WORK/q-default.tsv' | wc -l)\" = \"\$(jq .cut.above '$WORK/q.json')\" ]"
query --run "$RUN" --seeds "$seed_list" --variant noclen --cut auto --quiet >"$WORK/q-cut.tsv"
check cut-auto-keeps-the-top cmp <(tail -n +2 "$WORK/q-cut.tsv") <(awk -F'\t' 'NR > 1 && $10 == 1' "$WORK/q-default.tsv")
expect_exit cut-unknown 2 "--cut: expected none or auto, found 'half'" query --run "$RUN" --seeds "$seed_list" --cut half
# seeds by name, repeated --seed, an eid: the same query
names=()
for e in $seeds; do names+=(--seed "$(awk -F'\t' -v e="$e" '$2 == e {print $1}' "$D/entity2id.txt")"); done
query --run "$RUN" "${names[@]}" --variant noclen --quiet >"$WORK/q-names.tsv"
check seeds-by-name cmp "$WORK/q-names.tsv" "$WORK/q-default.tsv"
# the shared seed options: --seeds-file (one name per line, '#' comments) gives the same list
{ echo "# the us_states seeds"; for e in $seeds; do awk -F'\t' -v e="$e" '$2 == e {print $1}' "$D/entity2id.txt"; done; } >"$WORK/seeds.txt"
query --run "$RUN" --seeds-file "$WORK/seeds.txt" --variant noclen --quiet >"$WORK/q-file.tsv"
check seeds-file cmp "$WORK/q-file.tsv" "$WORK/q-default.tsv"
expect_exit seeds-file-missing 3 'nope.txt' query --run "$RUN" --seeds-file "$WORK/nope.txt" --variant noclen
expect_exit seeds-file-with-queries 2 'seeds-file' query --run "$RUN" --seeds-file "$WORK/seeds.txt" --queries "$D" --out "$WORK/qq.mp"
# a negative seed never comes back and changes the refined list
first=$(sed -n 2p "$WORK/q-full.tsv" | cut -f2)
query --run "$RUN" --seeds "$seed_list" --negative-seeds "$first" --quiet >"$WORK/q-neg.tsv"
check negative-left-out bash -c "! cut -f2 '$WORK/q-neg.tsv' | grep -qx '$first'"
# the feature selection's share of the set only counts once entities are accepted: the seeds'
# own list is the default one
query --run "$RUN" --seeds "$seed_list" --quiet >"$WORK/q-select.tsv"
query --run "$RUN" --seeds "$seed_list" --select-min-fraction 1 --quiet >"$WORK/q-frac.tsv"
check min-fraction-needs-accepted cmp "$WORK/q-frac.tsv" "$WORK/q-select.tsv"
# an accepted entity joins the seeds: it anchors the search (noclen has no refinement, so only
# the search and the re-ranking can see it), is not returned, and the list is the one of the
# query with it as a seed (for the full method without pseudo-positives, which accepted
# entities replace, and with as many refinement steps)
acc=$(sed -n 6p "$WORK/q-noclen.tsv" | cut -f2)
for v in noclen nocl full; do
    query --run "$RUN" --seeds "$seed_list" --accepted "$acc" --variant $v --thr-pos 1 --cl-steps-accepted 30 --quiet >"$WORK/q-acc-$v.tsv"
    query --run "$RUN" --seeds "$seed_list,$acc" --variant $v --thr-pos 1 --cl-steps 30 --quiet >"$WORK/q-accseed-$v.tsv"
    check "accepted-left-out-$v" bash -c "! cut -f2 '$WORK/q-acc-$v.tsv' | grep -qx '$acc'"
    check "accepted-is-a-seed-$v" cmp "$WORK/q-acc-$v.tsv" "$WORK/q-accseed-$v.tsv"
done
# the searches of the selection and of phase 2 are clamped to the entity count (the index's
# entities less the seeds): the clamp must not change the list (what it saves, the search's
# work, is no test assertion)
nent=$(inspect "$RUN/index.mp" | jq -rs '[.[] | objects | select(has("entities")) | .entities][0]')
room=$((nent - $(wc -w <<<"$seeds")))
query --run "$RUN" --seeds "$seed_list" --select-size 1000000 --phase2-size 1000000 --quiet >"$WORK/q-huge.tsv"
query --run "$RUN" --seeds "$seed_list" --select-size $room --phase2-size $room --quiet >"$WORK/q-room.tsv"
check search-size-clamp-keeps-the-list cmp "$WORK/q-huge.tsv" "$WORK/q-room.tsv"
# the refinement's steps: --cl-steps-accepted once entities are accepted, --cl-steps otherwise
# (the steps change the list, so the two checks below can see which one a query used)
# (the paper's refinement, without the check that may set it aside)
query --run "$RUN" --seeds "$seed_list" --refine-check 0 --quiet >"$WORK/q-paper.tsv"
query --run "$RUN" --seeds "$seed_list" --refine-check 0 --cl-steps 3 --quiet >"$WORK/q-steps3.tsv"
query --run "$RUN" --seeds "$seed_list" --refine-check 0 --cl-steps 3 --cl-steps-accepted 30 --quiet >"$WORK/q-steps3-acc30.tsv"
check steps-change-the-list bash -c "! cmp -s '$WORK/q-steps3.tsv' '$WORK/q-paper.tsv'"
check accepted-steps-need-accepted cmp "$WORK/q-steps3.tsv" "$WORK/q-steps3-acc30.tsv"
query --run "$RUN" --seeds "$seed_list" --accepted "$acc" --thr-pos 1 --cl-steps 3 --cl-steps-accepted 30 --quiet >"$WORK/q-acc-steps.tsv"
check accepted-steps-with-accepted cmp "$WORK/q-acc-steps.tsv" "$WORK/q-acc-full.tsv"
check accepted-anchors-the-search bash -c "! cmp -s <(cut -f2 '$WORK/q-acc-noclen.tsv' | grep -vx '$acc' | head -n 30) <(cut -f2 '$WORK/q-noclen.tsv' | grep -vx '$acc' | head -n 30)"
# the modifier rule: for the states New Mexico, Arizona, Texas (eids 40, 1, 5) the list without
# it holds "American" (626 mentions, nearly all "American ..." modifiers) in its first 12; by
# default it goes to the end: the same entities, the kept ones and the moved ones each in the
# order they had, "American" first of the moved, every moved one with >= 10 mentions
query --run "$RUN" --seeds 40,1,5 --variant noclen --modifier-ratio 0 --quiet | tail -n +2 | cut -f2,3,9 >"$WORK/q-mod0.tsv"
query --run "$RUN" --seeds 40,1,5 --variant noclen --quiet | tail -n +2 | cut -f2,3,9 >"$WORK/q-mod.tsv"
check modifier-off-lists-american bash -c "head -n 12 '$WORK/q-mod0.tsv' | cut -f2 | grep -qx American"
check modifier-moves-american bash -c "! head -n 20 '$WORK/q-mod.tsv' | cut -f2 | grep -qx American"
check modifier-same-entities cmp <(cut -f1 "$WORK/q-mod0.tsv" | sort) <(cut -f1 "$WORK/q-mod.tsv" | sort)
s=$(grep -n -m1 -P '\tAmerican\t' "$WORK/q-mod.tsv" | cut -d: -f1)
check modifier-kept-in-order cmp <(head -n $((s - 1)) "$WORK/q-mod.tsv" | cut -f1) \
    <(grep -xF -f <(head -n $((s - 1)) "$WORK/q-mod.tsv" | cut -f1) <(cut -f1 "$WORK/q-mod0.tsv"))
check modifier-moved-in-order cmp <(tail -n +$s "$WORK/q-mod.tsv" | cut -f1) \
    <(grep -xF -f <(tail -n +$s "$WORK/q-mod.tsv" | cut -f1) <(cut -f1 "$WORK/q-mod0.tsv"))
check modifier-moved-are-attested awk -F'\t' -v s="$s" 'NR >= s && $3 < 10 { bad = 1 } END { exit bad }' "$WORK/q-mod.tsv"
# --why names every feature it lists, those no single sample shows too: over an index with the
# running-text signals forced on (list and name features), the lists are "with <entity>"
mkdir "$WORK/lrun" && ln -s "$RUN/samples.mp" "$WORK/lrun/samples.mp"
index --samples "$RUN/samples.mp" --list-weight 2 --name-weight 2 --out "$WORK/lrun/index.mp" --quiet
query --run "$WORK/lrun" --seeds Ohio,Texas,Iowa --why Oklahoma --quiet >"$WORK/why-lists.json"
check why-every-feature-has-text jq -e '[.features[], .missing[]] | length > 0 and all(.feature != "")' "$WORK/why-lists.json"
check why-list-features-name-the-entity jq -e '[.features[], .missing[] | select(.kind == "list")] |
    length > 0 and all(.feature | test("^(with .+|_ , NAME|NAME , _|title:.+)$"))' "$WORK/why-lists.json"
# --genus-agreement (mini-ese is a glossary): 0 is the default list; W > 0 re-ranks it with the
# entities whose definitions name the seeds' shared head, still --size entities and no seed
query --run "$RUN" --seeds "$seed_list" --variant noclen --genus-agreement 0 --size 10 --quiet >"$WORK/q-ga0.tsv"
query --run "$RUN" --seeds "$seed_list" --variant noclen --size 10 --quiet >"$WORK/q-ga-default.tsv"
query --run "$RUN" --seeds "$seed_list" --variant noclen --genus-agreement 8 --genus-gate 1 --size 10 --quiet >"$WORK/q-ga8.tsv"
check genus-agreement-off-by-default cmp "$WORK/q-ga0.tsv" "$WORK/q-ga-default.tsv"
check genus-agreement-reranks bash -c "! cmp -s <(cut -f2 '$WORK/q-ga0.tsv') <(cut -f2 '$WORK/q-ga8.tsv')"
check genus-agreement-keeps-size test "$(tail -n +2 "$WORK/q-ga8.tsv" | wc -l)" -eq 10
check genus-agreement-no-seed bash -c "! tail -n +2 '$WORK/q-ga8.tsv' | cut -f2 | grep -qxF -f <(tr ',' '\n' <<<'$seed_list')"
# --genus-gate: 1 always re-ranks (q-ga8 above); 0 never does (no share is below 0), which is
# the list without the re-ranking; by default (0.25) it stays closed for US states, whose list
# their shared head already names; JSON says whether it applied and the share the gate read
query --run "$RUN" --seeds "$seed_list" --variant noclen --genus-agreement 8 --genus-gate 0 --size 10 --quiet >"$WORK/q-gate0.tsv"
check genus-gate-closed-is-the-context-list cmp "$WORK/q-gate0.tsv" "$WORK/q-ga0.tsv"
query --run "$RUN" --seeds "$seed_list" --variant noclen --genus-agreement 8 --size 10 --format json --quiet >"$WORK/q-gate.json"
check genus-gate-default-closed-on-a-named-list jq -e '.genus_share >= 0.25 and .genus_share <= 1 and .genus_reranked == false' "$WORK/q-gate.json"
check genus-gate-default-keeps-the-list cmp <(jq -r '.entities[].name' "$WORK/q-gate.json") <(tail -n +2 "$WORK/q-ga0.tsv" | cut -f3)
query --run "$RUN" --seeds "$seed_list" --variant noclen --genus-agreement 8 --genus-gate 1 --size 10 --format json --quiet >"$WORK/q-gate1.json"
check genus-gate-json-open jq -e '.genus_reranked == true' "$WORK/q-gate1.json"

# the refinement check (refine_check.h): model 1 answers (then noclen's list) unless the seeds
# prefer the unrefined ensemble (nocl's list), which the refined ensemble replaces in turn if the
# seeds prefer it — a higher held-out score and more seeds' rows scoring it higher than lower.
# The JSON gives each seed's row scores; each seed set below is checked against the branch its
# votes call for. Without the check the refined ensemble always answers.
query --run "$RUN" --seeds "$seed_list" --refine-check 0 --format json --quiet >"$WORK/q-nocheck.json"
check no-check-uses-the-refinement jq -e '.refinement_used == true and .holdout.refined == 0 and .holdout_seeds == null' "$WORK/q-nocheck.json"
# the candidate the votes call for, from the JSON's holdout_seeds
votes_choice='def prefers(a; b): (a | add) > (b | add) and
        ([range(a | length) | select(a[.] > b[.])] | length) > ([range(a | length) | select(a[.] < b[.])] | length);
    .holdout_seeds as $h | (if prefers($h.ensemble; $h.model1) then "ensemble" else "model1" end) as $c
    | if prefers($h.refined; $h[$c]) then "refined" else $c end'
check_refinement() { # NAME SEEDS: the check's choice and the list it gives
    local name=$1 sl=$2
    query --run "$RUN" --seeds "$sl" --format json --quiet >"$WORK/q-chk-$name.json"
    query --run "$RUN" --seeds "$sl" --variant noclen --format json --quiet >"$WORK/q-chk-$name-noclen.json"
    query --run "$RUN" --seeds "$sl" --variant nocl --format json --quiet >"$WORK/q-chk-$name-nocl.json"
    local h=$WORK/q-chk-$name.json want
    check "check-$name-scores-in-range" jq -e '[.holdout[], .holdout_seeds[][]] | all(. > 0 and . <= 1)' "$h"
    check "check-$name-a-row-per-seed" jq -e '(.seeds | length) as $n | [.holdout_seeds[] | length] == [$n, $n, $n]' "$h"
    check "check-$name-score-is-the-rows-mean" jq -e '.holdout as $m | .holdout_seeds | to_entries
        | all(((.value | add) / (.value | length) - $m[.key]) | fabs < 1e-9)' "$h"
    want=$(jq -r "$votes_choice" "$h")
    case $want in
    refined) check "check-$name-refined-answers" jq -e '.refinement_used' "$h" ;;
    model1)
        check "check-$name-model1-answers" jq -e '.refinement_used == false and .models_kept == [1]' "$h"
        check "check-$name-model1-is-noclen" cmp <(jq '.entities[].eid' "$h") <(jq '.entities[].eid' "$WORK/q-chk-$name-noclen.json")
        ;;
    *)
        check "check-$name-ensemble-answers" jq -e '.refinement_used == false' "$h"
        check "check-$name-ensemble-is-nocl" cmp <(jq '.entities[].eid' "$h") <(jq '.entities[].eid' "$WORK/q-chk-$name-nocl.json")
        ;;
    esac
}
check_refinement states "$seed_list"
check_refinement states-reversed "$(tr ',' '\n' <<<"$seed_list" | tac | paste -sd,)"
check_refinement mixed "$(cut -d, -f1,2 <<<"$seed_list"),$(sed -n 2p "$WORK/q-noclen.tsv" | cut -f2)"

# bad input
s1=$(cut -d' ' -f1 <<<"$seeds")
n1=$(awk -F'\t' -v e="$s1" '$2 == e {print $1}' "$D/entity2id.txt")
expect_exit unknown-name 3 'unknown entity "Ohioo".*closest names: "Ohio"' query --run "$RUN" --seeds "$seed_list,Ohioo"
expect_exit seed-also-negative 3 'both a seed and a negative seed' query --run "$RUN" --seeds "$seed_list" --negative "$n1"
# an entity both seed and accepted is refused (it was counted once, silently)
expect_exit seed-also-accepted 3 'is both a seed and accepted: give it once' query --run "$RUN" --seeds "$seed_list" --accepted "$n1"
# the seed option group (dataset/queries.h, the same in expand): each way of giving rejected and
# accepted entities gives the same ranking, and an unknown name in any of the nine options exits 3
printf '%s\n' "$first" >"$WORK/first.txt"
printf '# accepted\n%s\n' "$acc" >"$WORK/acc.txt"
query --run "$RUN" --seeds "$seed_list" --negative "$first" --quiet >"$WORK/q-neg-name.tsv"
check negative-name cmp "$WORK/q-neg-name.tsv" "$WORK/q-neg.tsv"
query --run "$RUN" --seeds "$seed_list" --negative-seeds-file "$WORK/first.txt" --quiet >"$WORK/q-neg-file.tsv"
check negative-seeds-file cmp "$WORK/q-neg-file.tsv" "$WORK/q-neg.tsv"
query --run "$RUN" --seeds "$seed_list" --accept "$acc" --variant noclen --thr-pos 1 --cl-steps-accepted 30 --quiet >"$WORK/q-acc-name.tsv"
check accept-name cmp "$WORK/q-acc-name.tsv" "$WORK/q-acc-noclen.tsv"
query --run "$RUN" --seeds "$seed_list" --accepted-file "$WORK/acc.txt" --variant noclen --thr-pos 1 --cl-steps-accepted 30 --quiet >"$WORK/q-acc-file.tsv"
check accepted-file cmp "$WORK/q-acc-file.tsv" "$WORK/q-acc-noclen.tsv"
printf 'Ohioo\n' >"$WORK/bad-names.txt"
for opt in seeds seed seeds-file negative-seeds negative negative-seeds-file accepted accept accepted-file; do
    case $opt in
    seed*) role=seed given=() ;;
    neg*) role="negative seed" given=(--seeds "$seed_list") ;;
    *) role="accepted entity" given=(--seeds "$seed_list") ;;
    esac
    val=Ohioo; [[ $opt == *-file ]] && val=$WORK/bad-names.txt
    expect_exit "bad-$opt" 3 "$role [0-9]+: unknown entity \"Ohioo\"" query --run "$RUN" "${given[@]}" "--$opt" "$val" --variant noclen
    check "bad-$opt-no-output" test ! -s "$WORK/out"
done
expect_exit one-seed 3 'at least 2' query --run "$RUN" --seeds "$s1,$n1"
expect_exit no-seed 3 'at least 2' query --run "$RUN" --variant noclen
expect_exit both-run-and-index 2 'exactly one of --run and --index' query --run "$RUN" --index "$RUN/index.mp" --seeds "$seed_list"
expect_exit bad-variant 2 'expected full, noen' query --run "$RUN" --seeds "$seed_list" --variant best
# ambiguous: a second entity named like the first seed, in another case, in a copy of the corpus
cp -r "$D" "$WORK/amb"
awk -F'\t' -v OFS='\t' -v n="$(tr '[:lower:]' '[:upper:]' <<<"$n1")" 'NR == 1 {$1 = n} {print}' "$D/entity2id.txt" >"$WORK/amb/entity2id.txt"
make -s -f "$PROBEXPAN_ROOT/pipelines/probexpan.mk" BIN="$PROBEXPAN_BIN" DATA="$WORK/amb" RUN="$WORK/arun" THREADS=1 index >"$WORK/alog" 2>&1
# (the exact spelling would pick one of the two: the seed is given in swapped case, neither)
expect_exit ambiguous-name 3 "is ambiguous: .*give the eid instead" query --index "$WORK/arun/index.mp" --seeds "$(tr 'a-zA-Z' 'A-Za-z' <<<"$n1"),$seed_list"
# another name of a seed: from the run's dataset (its aliases.txt), or --aliases (a names file)
s2=$(cut -d' ' -f2 <<<"$seeds")
n2=$(awk -F'\t' -v e="$s2" '$2 == e {print $1}' "$D/entity2id.txt")
printf '%s\tSeed Alias Two\n' "$n2" >"$WORK/amb/aliases.txt"
alias_list=$(sed "s/^\([^,]*\),$s2\(,\|$\)/\1,Seed Alias Two\2/" <<<"$seed_list")
query --run "$WORK/arun" --seeds "$seed_list" --variant noclen --quiet >"$WORK/by-eid.tsv" 2>&1
query --run "$WORK/arun" --seeds "$alias_list" --variant noclen --quiet >"$WORK/by-alias.tsv" 2>&1
check alias-from-run-dataset bash -c "[ '$alias_list' != '$seed_list' ] && [ -s '$WORK/by-eid.tsv' ] && cmp -s '$WORK/by-eid.tsv' '$WORK/by-alias.tsv'"
expect_exit alias-unknown-without-dataset 3 'unknown entity "Seed Alias Two"' query --index "$WORK/arun/index.mp" --seeds "$alias_list"
printf '%s\tSeed Alias Two\n' "$n2" >"$WORK/aliases.tsv"
query --index "$WORK/arun/index.mp" --aliases "$WORK/aliases.tsv" --seeds "$alias_list" --variant noclen --quiet >"$WORK/by-alias-file.tsv" 2>&1
check alias-from-names-file cmp -s "$WORK/by-eid.tsv" "$WORK/by-alias-file.tsv"
printf 'Ohio\tOh\xffio\n' >"$WORK/bad-aliases.tsv"
expect_exit bad-aliases-file 3 'bad-aliases.tsv.*line 1' query --index "$WORK/arun/index.mp" --aliases "$WORK/bad-aliases.tsv" --seeds "$seed_list"
# an index of another corpus in this run folder
cp "$WORK/arun/index.mp" "$WORK/run2-index.mp"
mkdir -p "$WORK/run2" && cp "$RUN/samples.mp" "$WORK/run2/" && cp "$WORK/arun/index.mp" "$WORK/run2/index.mp"
expect_exit index-of-another-corpus 3 'belongs to another corpus' query --run "$WORK/run2" --seeds "$seed_list"
# wrong kind, other schema versions, truncation
expect_exit index-wrong-kind 3 'expected.*index|kind' query --index "$DRUN/phase1/dists-1.mp" --seeds "$seed_list"
for v in 0 4; do
    perl -pe "s/\xa6schema\x03/\xa6schema\x0$v/" "$RUN/index.mp" >"$WORK/schema$v.mp"
    expect_exit "index-schema-$v" 3 "schema version $v is not supported \(this program reads 1..3\)" query --index "$WORK/schema$v.mp" --seeds "$seed_list"
done
for v in 1 2; do
    perl -pe "s/\xa6schema\x03/\xa6schema\x0$v/" "$RUN/index.mp" >"$WORK/schema$v.mp"
    expect_exit "index-schema-$v" 3 "index schema $v predates the list, head and name features: expected schema 3; rebuild it" query --index "$WORK/schema$v.mp" --seeds "$seed_list"
done
head -c $(($(stat -c %s "$RUN/index.mp") - 1000)) "$RUN/index.mp" >"$WORK/trunc.mp"
expect_exit index-truncated 3 'trunc.mp' query --index "$WORK/trunc.mp" --seeds "$seed_list"
# two files the fuzzer found: a temperature of 1e-309 (cos / T overflowed the rows) and postings
# whose byte count wrapped around (P * 4 == 0 for P = 2^62 + 47)
crashers="$PROBEXPAN_ROOT/tests/fixtures/fuzz-crashes"
expect_exit index-temperature-range 3 'byte 522: model settings out of range' query --index "$crashers/index-2" --seeds Ohio,Texas
expect_exit index-postings-wrap 3 'byte 522: foff runs from 0 to 4611686018427387951' query --index "$crashers/index-3" --seeds Ohio,Texas
# the index stage: bad input and interruptions leave nothing under the final name
expect_exit index-of-a-corpus 3 'samples' index --samples "$RUN/corpus.mp" --out "$WORK/x.mp"
check index-bad-input-no-output test ! -e "$WORK/x.mp"
killed=0
for d in 0.02 0.05 0.1 0.2 0.3; do
    timeout -s KILL $d "$PROBEXPAN_BIN/index" --samples "$RUN/samples.mp" --out "$WORK/k.mp" --quiet 2>/dev/null
    if [ $? = 137 ]; then killed=$((killed + 1)); [ -e "$WORK/k.mp" ] && { fail index-killed-leaves-nothing "after $d s"; break; }; fi
    rm -f "$WORK/k.mp"
done
[ $killed -gt 0 ] && pass index-killed-leaves-nothing || skip index-killed-leaves-nothing "the build finished before every kill"

# a dataset rebuilt in place after the index was built (a seed's eid now names another
# entity): query --queries refuses it, exit 3 naming the eid, both names and no output
cp -r "$D" "$WORK/rebuilt"
s1=$(head -n 1 "$D/query/us_states.txt" | cut -d' ' -f1)
awk -F'\t' -v OFS='\t' -v e="$s1" '$2 == e { $1 = $1 " (renamed)" } 1' "$D/entity2id.txt" >"$WORK/rebuilt/entity2id.txt"
expect_exit queries-of-another-dataset-version 3 "entity2id.txt.*eid $s1 is .*\(renamed\).* in the index .*rebuild it" \
    query --run "$RUN" --queries "$WORK/rebuilt" --out "$WORK/rebuilt.mp" --quiet
check queries-of-another-dataset-version-no-output test ! -e "$WORK/rebuilt.mp"

# the stages' bad input: both sources or half of one (2); a model of another index, pairs of
# other samples, a truncated patmodel, an ensemble averaged again (3)
X=$WORK/ix
mkdir -p "$X"
rows() { echo --index "$RUN/index.mp" --model "$RUN/$1.mp"; }
expect_exit rows-both 2 'give --dists FILE, or --index FILE with --model FILE' expand $(rows phase1/model-1) --dists "$DRUN/phase1/dists-1.mp" --queries "$D" --out "$X/x.mp"
expect_exit rows-index-alone 2 'give --dists FILE, or --index FILE with --model FILE' rerank --index "$RUN/index.mp" --out "$X/x.mp" "$RUN/full/expansions.mp"
expect_exit model-of-another-index 3 'made over another index' expand --index "$WORK/arun/index.mp" --model "$RUN/phase1/model-1.mp" --queries "$D" --out "$X/x.mp"
expect_exit pairs-of-other-samples 3 'build both from one samples artifact' pattern-model --index "$WORK/arun/index.mp" --pairs "$RUN/phase3/pairs.mp" --out "$X/x.mp"
head -c $(($(stat -c %s "$RUN/phase3/model-1.mp") - 100)) "$RUN/phase3/model-1.mp" >"$X/trunc.mp"
expect_exit patmodel-truncated 3 'trunc.mp' expand --index "$RUN/index.mp" --model "$X/trunc.mp" --queries "$D" --out "$X/x.mp"
expect_exit ensemble-of-ensembles 3 'averages single models' score-models --queries "$D" --top 1 --index "$RUN/index.mp" --ensemble "$X/x.mp" --out "$X/y.mp" "$RUN/phase3/ensemble.mp"
check stages-bad-input-no-output test ! -e "$X/x.mp" -a ! -e "$X/y.mp"
