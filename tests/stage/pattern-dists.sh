# pattern-dists stage tests: a dataset whose three classes differ only in their contexts ->
# a dists artifact (entity table, params, rows sum to 1) whose rows put their mass on the
# entity's own class, for both estimators; identical output for 1 and 2 threads; seeded
# feature subsets; the contrastive refinement from a pairs artifact (loss falls, recorded,
# lineage); and bad input (wrong artifact kind, truncated samples, pairs of other samples,
# bad flags), each with its exit code and no partial output.
source "$(dirname "$0")/lib.sh"

# mk_classes DIR PER: entities c<k>_<i> (class k = 0..2, i = 0..5); class k's sentences put the
# mention in its own frame ("the state of X", "the city of X", "the X river") among fillers.
mk_classes() {
    local dir=$1 per=$2 k i j id=0
    local f=(the a old new big small north south east west far near green red blue)
    local left=("the state of" "the city of" "crossed the") right=(", whose governor" ", whose mayor" "river , which flows")
    mkdir -p "$dir"
    for ((k = 0; k < 3; k++)); do for ((i = 0; i < 6; i++)); do printf 'c%d_%d\t%d\n' $k $i $((k * 6 + i)); done; done >"$dir/entity2id.txt"
    for ((j = 0; j < per; j++)); do
        for ((k = 0; k < 3; k++)); do
            for ((i = 0; i < 6; i++)); do
                read -r -a l <<<"${left[k]}"; read -r -a r <<<"${right[k]}"
                local toks=("${f[(j * 7 + i * 3) % 15]}" "${f[(j * 5 + i + k) % 15]}" "${l[@]}" "c${k}_$i" "${r[@]}" "${f[(j + i * 11) % 15]}")
                local n=$((2 + ${#l[@]})) json
                json=$(printf '"%s",' "${toks[@]}")
                printf '{"tokens": [%s], "entityMentions": [{"start": %d, "end": %d, "entityId": %d, "text": "c%d_%d"}]}\n' \
                    "${json%,}" $n $n $((k * 6 + i)) $k $i
            done
        done
    done >"$dir/sentences.json"
    mkdir -p "$dir/query"
    for ((k = 0; k < 3; k++)); do echo "$((k * 6)) $((k * 6 + 1)) $((k * 6 + 2))" >"$dir/query/c$k.txt"; done
}
mk_classes "$WORK/cls" 6
tokenize "$WORK/cls" --learn-vocab 300 --out "$WORK/corpus.mp" --quiet &&
    build-samples --corpus "$WORK/corpus.mp" --out "$WORK/s.mp" --quiet || { fail setup "tokenize/build-samples failed"; exit 0; }

# own_class_rows FILE: how many rows have their largest non-self entry in the entity's own class
# (row i is entity c<i/6>_<i%6>: the entity table follows entity2id.txt here)
own_class_rows() {
    local ok=0 i=0 row
    while IFS= read -r row; do
        best=$(tr -d '[]' <<<"$row" | tr ',' '\n' | nl -v0 -nln | awk -v self=$i '$1 != self' | sort -k2 -g -r | head -n 1 | cut -f1 | tr -d ' ')
        [ $((best / 6)) = $((i / 6)) ] && ok=$((ok + 1))
        i=$((i + 1))
    done < <(mean_prob_rows "$1")
    echo $ok
}
sums_to_one() { mean_prob_rows "$1" | tr -d '[]' | awk -F, '{s = 0; for (i = 1; i <= NF; i++) s += $i; if (s < 0.9999 || s > 1.0001) bad++} END {exit bad > 0}'; }

for est in similarity prediction; do
    expect_exit "$est-runs" 0 'done' pattern-dists --estimator $est --samples "$WORK/s.mp" --out "$WORK/$est.mp" --threads 2
    inspect --full "$WORK/$est.mp" >"$WORK/$est.json"
    check "$est-kind-and-shape" grep -q '"matrix":"mean_prob","rows":18,"cols":18' "$WORK/$est.json"
    check "$est-params" grep -q "\"estimator\":\"$est\"" <(inspect --header "$WORK/$est.mp")
    check "$est-rows-sum-to-1" sums_to_one "$WORK/$est.mp"
    n=$(own_class_rows "$WORK/$est.mp")
    [ "$n" = 18 ] && pass "$est-mass-on-own-class" || fail "$est-mass-on-own-class" "$n of 18 rows"
    pattern-dists --estimator $est --samples "$WORK/s.mp" --out "$WORK/$est-1t.mp" --threads 1 --quiet
    # bit-identical by construction: each row is computed by one thread, in a fixed order, without BLAS
    check "$est-same-for-1-and-2-threads" cmp <(mean_prob_rows "$WORK/$est.mp") <(mean_prob_rows "$WORK/$est-1t.mp")
done

# the lineage reaches the samples; a feature subset is recorded and depends on its seed
params_are_options params-are-options pattern-dists "$WORK/similarity.mp"
check bag-recorded-as-resolved test "$(inspect --header "$WORK/similarity.mp" | jq -c '[.params.bag, .params.min_entities]')" = '[8,2]'
check lineage-to-samples grep -q '\[samples\]' <(catalog --catalog "$WORK/catalog.sqlite" lineage "$WORK/similarity.mp")
pattern-dists --samples "$WORK/s.mp" --feature-fraction 0.5 --random-seed 2 --out "$WORK/f2.mp" --quiet
pattern-dists --samples "$WORK/s.mp" --feature-fraction 0.5 --random-seed 3 --out "$WORK/f3.mp" --quiet
check fraction-recorded grep -q '"feature_fraction":0.5' <(inspect --header "$WORK/f2.mp")
check subsets-differ-by-seed bash -c "! cmp -s <(inspect --full '$WORK/f2.mp' | tail -n +2) <(inspect --full '$WORK/f3.mp' | tail -n +2)"

# the contrastive refinement: pairs from a ranking of the similarity model (E_pos: seeds and
# ranks 1..2, E_neg: ranks 9..14)
expand --dists "$WORK/similarity.mp" --queries "$WORK/cls" --size 15 --out "$WORK/e.mp" --quiet &&
    rerank --official --dists "$WORK/similarity.mp" --out "$WORK/r.mp" "$WORK/e.mp" --quiet &&
    build-pairs --ranked "$WORK/r.mp" --queries "$WORK/cls" --samples "$WORK/s.mp" \
        --thr-pos 3 --l-neg 8 --u-neg 15 --out "$WORK/pairs.mp" --quiet >/dev/null || fail pairs-setup "expand/rerank/build-pairs failed"
expect_exit contrast-runs 0 'contrastive refinement on 3 classes' pattern-dists --samples "$WORK/s.mp" --pairs "$WORK/pairs.mp" --out "$WORK/cl.mp"
loss=$(grep -o 'loss [0-9.]* -> [0-9.]*' "$WORK/err")
awk -v b="${loss#loss }" 'BEGIN {split(b, x, " -> "); exit !(x[2] < x[1])}' && pass contrast-lowers-loss || fail contrast-lowers-loss "$loss"
check contrast-recorded grep -q '"cl_steps":50' <(inspect --header "$WORK/cl.mp")
check contrast-lineage grep -q '\[pairs\]' <(catalog --catalog "$WORK/catalog.sqlite" lineage "$WORK/cl.mp")
check contrast-rows-sum-to-1 sums_to_one "$WORK/cl.mp"
expect_exit contrast-needs-similarity 2 'similarity' pattern-dists --estimator prediction --samples "$WORK/s.mp" --pairs "$WORK/pairs.mp" --out "$WORK/bad5.mp"
mk_classes "$WORK/cls2" 4
tokenize "$WORK/cls2" --learn-vocab 300 --out "$WORK/c2.mp" --quiet && build-samples --corpus "$WORK/c2.mp" --out "$WORK/s2.mp" --quiet
expect_exit pairs-of-other-samples 3 'pairs.mp' pattern-dists --samples "$WORK/s2.mp" --pairs "$WORK/pairs.mp" --out "$WORK/bad5.mp"
check contrast-bad-no-output test ! -e "$WORK/bad5.mp"

# bad input: exit 3 (file) or 2 (flags), and no output left behind
expect_exit wrong-kind 3 'corpus.mp' pattern-dists --samples "$WORK/corpus.mp" --out "$WORK/bad1.mp"
check wrong-kind-no-output test ! -e "$WORK/bad1.mp"
head -c 2000 "$WORK/s.mp" >"$WORK/trunc.mp"
expect_exit truncated-samples 3 'trunc.mp' pattern-dists --samples "$WORK/trunc.mp" --out "$WORK/bad2.mp"
check truncated-no-output test ! -e "$WORK/bad2.mp"
expect_exit missing-samples 3 'nope.mp' pattern-dists --samples "$WORK/nope.mp" --out "$WORK/bad3.mp"
expect_exit bad-estimator 2 'estimator' pattern-dists --estimator knn --samples "$WORK/s.mp" --out "$WORK/bad4.mp"
expect_exit bad-patterns 2 'patterns' pattern-dists --patterns medium --samples "$WORK/s.mp" --out "$WORK/bad4.mp"
expect_exit min-entities-1 2 'min-entities' pattern-dists --min-entities 1 --samples "$WORK/s.mp" --out "$WORK/bad4.mp"
expect_exit fraction-0 2 'feature-fraction' pattern-dists --feature-fraction 0 --samples "$WORK/s.mp" --out "$WORK/bad4.mp"
expect_exit bag-too-wide 2 'bag' pattern-dists --bag 99 --samples "$WORK/s.mp" --out "$WORK/bad4.mp"
expect_exit no-out 2 'out' pattern-dists --samples "$WORK/s.mp"
check flags-no-output test ! -e "$WORK/bad4.mp"

# index and pattern-dists take the pattern-counting options from one table with one range
# check: the same refusals, and -1 is the estimator's default where the table gives one
expect_exit index-min-entities-1 2 'min_entities \(--min-entities\) 1: expected 2' index --min-entities 1 --samples "$WORK/s.mp" --out "$WORK/bad5.mp"
expect_exit index-idf-power-11 2 'idf-power' index --idf-power 11 --samples "$WORK/s.mp" --out "$WORK/bad5.mp"
expect_exit index-bag-weight-minus-1 2 'bag-weight' index --bag-weight -1 --samples "$WORK/s.mp" --out "$WORK/bad5.mp"
check index-flags-no-output test ! -e "$WORK/bad5.mp"
SOURCE_DATE_EPOCH=1 index --samples "$WORK/s.mp" --out "$WORK/ix-default.mp" --quiet &&
    SOURCE_DATE_EPOCH=1 index --samples "$WORK/s.mp" --bag -1 --min-entities -1 --idf-power -1 --out "$WORK/ix-minus1.mp" --quiet ||
    fail index-minus-one "index failed"
check index-minus-one-is-the-default cmp "$WORK/ix-default.mp" "$WORK/ix-minus1.mp"
