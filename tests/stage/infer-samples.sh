# infer --samples stage tests: a trained model -> dists artifact (entity table, rows sum to 1,
# the trained synthetic model puts its mass on the right entity), the per-entity cap,
# determinism, and bad input (a model trained on other samples, a samples file of the wrong kind).
source "$(dirname "$0")/lib.sh"
source "$PROBEXPAN_ROOT/tests/fixtures/train/synth.sh"
FIX=$PROBEXPAN_ROOT/tests/fixtures/train
if ! infer --help 2>/dev/null | grep -q -- '--samples'; then
    skip infer-samples-mode "infer has no --samples mode yet"
    exit 0
fi
mk_synth "$WORK/syn" 16 12
tokenize "$WORK/syn" --learn-vocab 300 --out "$WORK/corpus.mp" --quiet &&
    build-samples --corpus "$WORK/corpus.mp" --out "$WORK/s.mp" --quiet &&
    train-mlm --samples "$WORK/s.mp" --config "$FIX/tiny-config.json" --batch 32 --samples-per-entity 32 \
        --epochs 10 --threads 1 --quiet --out "$WORK/m" || { fail setup "tokenize/build-samples/train-mlm failed"; exit 0; }

expect_exit infer-runs 0 'done' infer --model "$WORK/m/final" --samples "$WORK/s.mp" --out "$WORK/d.mp" --threads 1
inspect --full "$WORK/d.mp" >"$WORK/d.json"
check dists-kind grep -q '"kind":"dists"' "$WORK/d.json"
check dists-16-rows grep -q '"matrix":"mean_prob","rows":16,"cols":16' "$WORK/d.json"
# the learned model: entity i's own column is the largest of row i for every row (the
# corpus determines the entity); checked as "row i's maximum is at index i" by position
rows=$(mean_prob_rows "$WORK/d.mp")
ok=0; i=0
while IFS= read -r row; do
    vals=$(tr -d '[]' <<<"$row" | tr ',' '\n')
    best=$(nl -v0 -nln <<<"$vals" | sort -k2 -g -r | head -n 1 | cut -f1 | tr -d ' ')
    [ "$best" = "$i" ] && ok=$((ok + 1))
    i=$((i + 1))
done <<<"$rows"
if [ "$ok" -ge 15 ]; then pass argmax-is-own-entity; else fail argmax-is-own-entity "$ok of $i rows"; fi

infer --model "$WORK/m/final" --samples "$WORK/s.mp" --out "$WORK/d2.mp" --threads 1 --quiet
# the same run twice: same thread count and batch shapes, so the same BLAS kernels and bits
check deterministic cmp <(inspect --full "$WORK/d.mp" | tail -n +2) <(inspect --full "$WORK/d2.mp" | tail -n +2)
expect_exit cap-runs 0 '' infer --model "$WORK/m/final" --samples "$WORK/s.mp" --out "$WORK/d3.mp" --max-samples-per-entity 3 --random-seed 4 --threads 1
check cap-recorded grep -q '"max_samples_per_entity":3' <(inspect --header "$WORK/d3.mp")

mk_synth "$WORK/syn2" 9 3
tokenize "$WORK/syn2" --learn-vocab 300 --out "$WORK/c2.mp" --quiet && build-samples --corpus "$WORK/c2.mp" --out "$WORK/s2.mp" --quiet
expect_exit other-samples 3 'num_entities' infer --model "$WORK/m/final" --samples "$WORK/s2.mp" --out "$WORK/x.mp" --threads 1
check no-partial-output test ! -e "$WORK/x.mp"
# samples tokenized with another vocabulary than the model's (two tokens of its vocab.txt swapped)
awk -v n="$(wc -l <"$WORK/m/final/vocab.txt")" 'NR == n - 1 { keep = $0; next } { print } NR == n { print keep }' \
    "$WORK/m/final/vocab.txt" >"$WORK/other-vocab.txt"
tokenize "$WORK/syn" --vocab "$WORK/other-vocab.txt" --out "$WORK/c3.mp" --quiet &&
    build-samples --corpus "$WORK/c3.mp" --out "$WORK/s3.mp" --quiet || fail setup "samples of another vocabulary"
expect_exit other-vocabulary 3 'vocab\.txt: line [0-9]+: token .* tokenized with another vocabulary' \
    infer --model "$WORK/m/final" --samples "$WORK/s3.mp" --out "$WORK/x.mp" --threads 1
check other-vocabulary-no-output test ! -e "$WORK/x.mp"
# a model whose weights hold NaN (the first 64 KiB of tensor data) is refused, no dists written
cp -r "$WORK/m/final/." "$WORK/nan"
hl=$(od -An -tu4 -N4 "$WORK/nan/model.safetensors" | tr -d ' ')
head -c 65536 /dev/zero | tr '\0' '\377' | dd of="$WORK/nan/model.safetensors" bs=1 seek=$((8 + hl)) conv=notrunc 2>/dev/null
expect_exit nan-weights 3 'nan/model.safetensors: [^:]+: element 0 is -?nan: tensor values must be finite' \
    infer --model "$WORK/nan" --samples "$WORK/s.mp" --out "$WORK/x.mp" --threads 1
check nan-weights-no-output test ! -e "$WORK/x.mp"
expect_exit wrong-kind 3 'samples' infer --model "$WORK/m/final" --samples "$WORK/corpus.mp" --out "$WORK/x.mp" --threads 1

# --rows-of: only the query seeds' rows (a dists-rows artifact), the same values as the full run's
# rows (other batch shapes: within 1e-6 + 1e-5 relative); score-models scores from them as from the
# full dists; --model twice: the ensemble of the two (the same model twice: its own rows, exactly)
printf '1 3 5\n8 3\n' >"$WORK/seeds.txt"
printf '1 2\n' >"$WORK/other.txt"
expect_exit rows-of-runs 0 'done: 4 entities' infer --model "$WORK/m/final" --samples "$WORK/s.mp" --rows-of "$WORK/seeds.txt" \
    --out "$WORK/r.mp" --threads 1
check rows-of-kind grep -q '"kind":"dists-rows"' <(inspect --header "$WORK/r.mp")
inspect --full "$WORK/r.mp" >"$WORK/r.json"
check rows-of-4-rows grep -q '"matrix":"mean_prob","rows":4,"cols":16' "$WORK/r.json"
rows=$(jq -c 'select(type == "object" and (.rows | type == "array")) | .rows' "$WORK/r.json")
# rows of eids 1 3 5 8 (the synthetic entities' rows are their eids)
[ "$rows" = "[1,3,5,8]" ] && pass rows-of-rows || fail rows-of-rows "$rows"
mean_prob_rows "$WORK/r.mp" >"$WORK/r.rows"
mean_prob_rows "$WORK/d.mp" | sed -n '2p;4p;6p;9p' >"$WORK/d.rows"
check rows-of-values numbers_close "$WORK/r.rows" "$WORK/d.rows" 1e-6 1e-5
expect_exit rows-of-missing-queries 3 "nosuch\\.txt" infer --model "$WORK/m/final" --samples "$WORK/s.mp" --rows-of "$WORK/nosuch.txt" --out "$WORK/x.mp" --threads 1
printf '1 99\n' >"$WORK/unknown.txt"
expect_exit rows-of-unknown-seed 3 'unknown\.txt' infer --model "$WORK/m/final" --samples "$WORK/s.mp" --rows-of "$WORK/unknown.txt" --out "$WORK/x.mp" --threads 1
check rows-of-no-output test ! -e "$WORK/x.mp"
expect_exit rows-of-two-models 2 '--rows-of scores one model' infer --model "$WORK/m/final" --model "$WORK/m/final" \
    --samples "$WORK/s.mp" --rows-of "$WORK/seeds.txt" --out "$WORK/x.mp"
expect_exit rows-of-ids 2 'rows-of' infer --model "$WORK/m/final" --ids - --rows-of "$WORK/seeds.txt" </dev/null
expect_exit ensemble-runs 0 'of 2 models' infer --model "$WORK/m/final" --model "$WORK/m/final" --samples "$WORK/s.mp" --out "$WORK/e.mp" --threads 1
check ensemble-of-one-model-twice cmp <(mean_prob_rows "$WORK/e.mp") <(mean_prob_rows "$WORK/d.mp")
cp "$WORK/r.mp" "$WORK/r2.mp"
cp "$WORK/d.mp" "$WORK/d2.mp"
score-models --quiet --queries "$WORK/seeds.txt" --top 1 --out "$WORK/sr.mp" "$WORK/r.mp" "$WORK/r2.mp" >/dev/null &&
    score-models --quiet --queries "$WORK/seeds.txt" --top 1 --out "$WORK/sd.mp" "$WORK/d.mp" "$WORK/d2.mp" >/dev/null
a=$(inspect "$WORK/sr.mp" | jq 'select(.models) | .models[0].score')
b=$(inspect "$WORK/sd.mp" | jq 'select(.models) | .models[0].score')
close_rel "$b" "$a" 1e-4 && pass score-from-seed-rows || fail score-from-seed-rows "$a vs $b"
expect_exit score-rows-lack-seed 3 'r\.mp: rows: no row for seed "ent2"' score-models --queries "$WORK/other.txt" --top 1 --out "$WORK/x.mp" "$WORK/r.mp"
expect_exit score-rows-no-ensemble 2 '--ensemble needs the models. full dists' score-models --queries "$WORK/seeds.txt" --top 1 \
    --ensemble "$WORK/x.mp" --out "$WORK/y.mp" "$WORK/r.mp"
expect_exit score-rows-mixed 3 'wrong artifact kind' score-models --queries "$WORK/seeds.txt" --out "$WORK/x.mp" "$WORK/r.mp" "$WORK/d.mp"
