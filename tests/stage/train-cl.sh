# build-pairs and train-cl end to end on the toy dataset
# (tests/fixtures/cltrain/toy: fruit/city/color, 8 entities each, 5 sentences per entity,
# each entity with its own context word, so samples of one entity are recognisable):
# tokenize -> build-samples -> a block-diagonal dists fixture -> expand -> rerank -> pairs ->
# train-cl with a tiny config from scratch. Checks the pairs report and artifact, that the
# contrastive loss is finite and falls, the checkpoints (projection head included) load in
# infer, --resume gives identical weights, and the bad inputs (exit 2/3, no output).
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/cltrain
DATA=$FX/toy

tokenize --quiet "$DATA" --learn-vocab 250 --out "$WORK/corpus.mp" &&
    build-samples --quiet --corpus "$WORK/corpus.mp" --out "$WORK/samples.mp" &&
    build-samples --quiet --corpus "$WORK/corpus.mp" --max-samples-per-entity 3 --out "$WORK/samples3.mp" ||
    { fail fixtures "cannot build the toy samples"; exit 0; }
# dists: same-class entities 10x likelier, the entity itself +5, a fixed jitter against ties
awk -F'\t' '{ name[NR-1] = $1; eid[NR-1] = $2; n = NR }
    END { print n; for (i = 0; i < n; i++) print eid[i] "\t" name[i];
          for (i = 0; i < n; i++) { s = 0
              for (j = 0; j < n; j++) { v[j] = (int(i / 8) == int(j / 8) ? 10 : 1) + 0.01 * ((i * 7 + j * 13) % 24) + (i == j ? 5 : 0); s += v[j] }
              line = ""; for (j = 0; j < n; j++) line = line (j ? " " : "") sprintf("%.6f", v[j] / s); print line } }' \
    "$DATA/entity2id.txt" >"$WORK/dists.txt"
"$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/dists.mp" <"$WORK/dists.txt" &&
    expand --quiet --dists "$WORK/dists.mp" --queries "$DATA" --size 18 --out "$WORK/exp.mp" &&
    rerank --quiet --dists "$WORK/dists.mp" --out "$WORK/ranked.mp" "$WORK/exp.mp" ||
    { fail fixtures "cannot build the ranking"; exit 0; }

# --- pairs
PAIRS=(--ranked "$WORK/ranked.mp" --queries "$DATA" --thr-pos 3 --l-neg 8 --u-neg 16)
if build-pairs "${PAIRS[@]}" --samples "$WORK/samples.mp" --out "$WORK/pairs.mp" >"$WORK/report" 2>"$WORK/err" &&
   [ "$(grep -c '|E_pos| = [0-9]*, |E_neg| = [0-9]*$' "$WORK/report")" = 3 ] &&
   grep -q '^city: |E_pos| = ' "$WORK/report" && grep -q '^  pos: paris, rome, oslo, lima' "$WORK/report" &&
   grep -q 'done: .* pairs (thr_pos 3, L_neg 8, U_neg 16)' "$WORK/err"; then
    pass pairs_report; else fail pairs_report "$(cat "$WORK/report" "$WORK/err")"; fi
if inspect --header "$WORK/pairs.mp" | grep -q '"kind":"pairs","schema":1' &&
   inspect --header "$WORK/pairs.mp" | grep -q '"thr_pos":3,"l_neg":8,"u_neg":16'; then
    pass pairs_artifact_header; else fail pairs_artifact_header "$(inspect --header "$WORK/pairs.mp" 2>&1)"; fi
# header and catalog params come from build-pairs' option table
params_are_options pairs_params build-pairs "$WORK/pairs.mp"
build-pairs --quiet "${PAIRS[@]}" --samples "$WORK/samples3.mp" --out "$WORK/pairs3.mp" >/dev/null ||
    fail pairs_other_samples "cannot build pairs from samples3"

expect_exit pairs_wrong_kind 3 'expected a "ranked" artifact' \
    build-pairs --ranked "$WORK/exp.mp" --queries "$DATA" --samples "$WORK/samples.mp" --out "$WORK/bad.mp"
expect_exit pairs_samples_not_samples 3 "wrong artifact kind" \
    build-pairs "${PAIRS[@]}" --samples "$WORK/ranked.mp" --out "$WORK/bad.mp"
expect_exit pairs_missing_ranked 2 "--ranked, --queries, --samples and --out are required" \
    build-pairs --queries "$DATA" --samples "$WORK/samples.mp" --out "$WORK/bad.mp"
expect_exit pairs_bad_bounds 2 "thresholds" \
    build-pairs "${PAIRS[@]}" --l-neg 20 --samples "$WORK/samples.mp" --out "$WORK/bad.mp"
# a ranking too short to reach E_neg (ranks 9..15): contrastive pairs need hard negatives
expand --quiet --dists "$WORK/dists.mp" --queries "$DATA" --size 6 --out "$WORK/short-exp.mp" &&
    rerank --quiet --dists "$WORK/dists.mp" --out "$WORK/short.mp" "$WORK/short-exp.mp" || fail setup "short ranking"
expect_exit pairs_no_hard_negatives 3 'short\.mp: class [a-z]+: no hard negatives: E_neg takes ranks 9\.\.15 and the longest list has [0-9]+ entities' \
    build-pairs --ranked "$WORK/short.mp" --queries "$DATA" --thr-pos 3 --l-neg 8 --u-neg 16 \
    --samples "$WORK/samples.mp" --out "$WORK/bad.mp"
[ ! -e "$WORK/bad.mp" ] && pass pairs_no_partial_output || fail pairs_no_partial_output

# --- train-cl
TRAIN=(--samples "$WORK/samples.mp" --pairs "$WORK/pairs.mp" --config "$FX/tiny-config.json" --batch-pairs 32
       --samples-per-entity 5 --batch 16 --lr 3e-3 --cl-lr 3e-3 --threads 1)
if train-cl "${TRAIN[@]}" --epochs 6 --out "$WORK/cl" 2>"$WORK/err"; then pass train_runs; else fail train_runs "$(tail -n 3 "$WORK/err")"; fi
grep -o 'CL pass [12]: loss [^ ]*' "$WORK/err" | awk '{ print $5 }' >"$WORK/losses"
if [ "$(wc -l <"$WORK/losses")" = 12 ] && awk '$1 != $1 + 0 || $1 ~ /nan|inf/ { bad = 1 } END { exit bad }' "$WORK/losses"; then
    pass cl_loss_finite; else fail cl_loss_finite "$(cat "$WORK/losses")"; fi
# mean of the first epoch's passes vs the last epoch's: the loss must fall clearly
if awk 'NR <= 2 { a += $1 } NR >= 11 { b += $1 } END { exit !(a / 2 - b / 2 > 0.1) }' "$WORK/losses"; then
    pass cl_loss_decreases; else fail cl_loss_decreases "$(tr '\n' ' ' <"$WORK/losses")"; fi
if [ -d "$WORK/cl/epoch-6" ] && [ "$(readlink "$WORK/cl/final")" = epoch-6 ] &&
   grep -aq 'projection_head.1.num_batches_tracked' "$WORK/cl/final/model.safetensors" &&
   grep -aq 'projection_head.3.weight' "$WORK/cl/final/model.safetensors" && grep -aq 'head.2.weight' "$WORK/cl/final/model.safetensors"; then
    pass checkpoint_has_heads; else fail checkpoint_has_heads "$(ls "$WORK/cl")"; fi
# the checkpoint feeds infer: one [MASK] sequence -> 24 probabilities summing to 1
mask=$(grep -n '^\[MASK\]$' "$WORK/cl/final/vocab.txt" | cut -d: -f1)
cls=$(grep -n '^\[CLS\]$' "$WORK/cl/final/vocab.txt" | cut -d: -f1)
sep=$(grep -n '^\[SEP\]$' "$WORK/cl/final/vocab.txt" | cut -d: -f1)
if echo "$((cls - 1)) 6 $((mask - 1)) $((sep - 1))" | infer --quiet --model "$WORK/cl/final" --ids - >"$WORK/probs" &&
   tr -d '[]' <"$WORK/probs" | tr ',' '\n' | awk '{ s += $1; n++ } END { exit !(n == 24 && s > 0.9999 && s < 1.0001) }'; then
    pass infer_loads_checkpoint; else fail infer_loads_checkpoint "$(cat "$WORK/probs")"; fi

# ... and phase 4 goes on from it: infer --samples -> dists (rows sum to 1) -> expand
if infer --quiet --model "$WORK/cl/final" --samples "$WORK/samples.mp" --out "$WORK/cl-dists.mp" &&
   inspect --full "$WORK/cl-dists.mp" | awk '/^\[/ { n++; s = 0; k = split(substr($0, 2, length($0) - 2), v, ","); for (i = 1; i <= k; i++) s += v[i];
        if (n <= 24 && (k != 24 || s < 0.99999 || s > 1.00001)) bad = 1 } END { exit bad || n != 24 }' &&
   expand --quiet --dists "$WORK/cl-dists.mp" --queries "$DATA" --size 5 --out "$WORK/cl-exp.mp"; then
    pass infer_samples_then_expand; else fail infer_samples_then_expand; fi
catalog runs >"$WORK/runs" 2>&1
if grep -q 'cl_loss_epoch_6 = ' "$WORK/runs" && grep -q 'loss_epoch_6 = ' "$WORK/runs"; then
    pass catalog_metrics; else fail catalog_metrics "$(tail -n 5 "$WORK/runs")"; fi
# lineage: the checkpoint's inputs include the pairs, and through them the ranking
catalog lineage "$WORK/cl/epoch-6" >"$WORK/lineage" 2>&1
if grep -q "^  <- .*/pairs.mp \[pairs\]" "$WORK/lineage" && grep -q "<- .*/ranked.mp \[ranked\]" "$WORK/lineage" &&
   grep -q "^  <- .*/samples.mp \[samples\]" "$WORK/lineage"; then
    pass lineage_has_pairs; else fail lineage_has_pairs "$(cat "$WORK/lineage")"; fi
# --fixed-pairs: every pass uses the stored draw (all of its pairs, the remainder dropped)
npairs=$(inspect "$WORK/pairs.mp" | sed -n 2p | jq .pairs)
if train-cl "${TRAIN[@]}" --epochs 1 --fixed-pairs --out "$WORK/fixed" 2>"$WORK/err" &&
   [ "$(grep -c "CL pass [12]: loss .* ($npairs pairs, $((npairs % 32)) dropped)" "$WORK/err")" = 2 ]; then
    pass fixed_pairs; else fail fixed_pairs "$npairs pairs; $(grep 'CL pass' "$WORK/err")"; fi

# --resume: 2 epochs, then resumed to 3 == 3 uninterrupted (same seed and threads)
train-cl --quiet "${TRAIN[@]}" --epochs 3 --out "$WORK/r1" && train-cl --quiet "${TRAIN[@]}" --epochs 2 --out "$WORK/r2" &&
    train-cl --quiet "${TRAIN[@]}" --epochs 3 --resume --out "$WORK/r2" &&
    cmp -s "$WORK/r1/epoch-3/model.safetensors" "$WORK/r2/epoch-3/model.safetensors" &&
    cmp -s "$WORK/r1/epoch-3/optimizer.safetensors" "$WORK/r2/epoch-3/optimizer.safetensors" &&
    pass resume_identical || fail resume_identical
expect_exit resume_other_settings 3 "cl_settings.json: tau_plus: the run to resume used another value" \
    train-cl "${TRAIN[@]}" --epochs 4 --resume --tau-plus 0.2 --out "$WORK/r2"

# data-parallel under mpirun: 2 ranks end the epoch (26 contrastive steps + the prediction pass)
# at the single-process loss within 1e-5 relative (the same global batches; the sums differ in
# rounding only); rank 0 writes the checkpoints
if have_mpi; then
    epoch_loss() { sed -n '/"loss": \[/,/\]/p' "$1/final/trainer_state.json" | grep -Eo '[-0-9.eE+]+' | head -n 1; }
    if mpirun2 train-cl --quiet "${TRAIN[@]}" --epochs 1 --out "$WORK/dp" 2>"$WORK/err" &&
       close_rel "$(epoch_loss "$WORK/r1")" "$(epoch_loss "$WORK/dp")" 1e-5; then
        pass two_ranks_same_loss
    else fail two_ranks_same_loss "1 rank $(epoch_loss "$WORK/r1"), 2 ranks $(epoch_loss "$WORK/dp" 2>&1) $(tail -n 2 "$WORK/err")"; fi
    expect_exit two_ranks_batch_too_small 2 "at least 2 pairs per rank" mpirun2 train-cl "${TRAIN[@]}" --batch-pairs 3 --out "$WORK/bad7"
else
    skip two_ranks "no mpirun or a build without MPI"
fi

# --- bad input
expect_exit train_pairs_wrong_kind 3 "wrong artifact kind 'samples', expected 'pairs'" \
    train-cl "${TRAIN[@]}" --pairs "$WORK/samples.mp" --out "$WORK/bad1"
expect_exit train_pairs_other_samples 3 "built from another samples artifact" \
    train-cl "${TRAIN[@]}" --pairs "$WORK/pairs3.mp" --out "$WORK/bad2"
expect_exit train_samples_wrong_kind 3 "wrong artifact kind" \
    train-cl "${TRAIN[@]}" --samples "$WORK/pairs.mp" --out "$WORK/bad3"
expect_exit train_too_few_pairs 3 "fewer than one batch of 100000" \
    train-cl "${TRAIN[@]}" --batch-pairs 100000 --out "$WORK/bad4"
expect_exit train_no_pairs 2 "--pairs is required" train-cl --samples "$WORK/samples.mp" --config "$FX/tiny-config.json" --out "$WORK/bad5"
expect_exit train_bad_preset 2 "--preset: expected wiki, apr or se2" train-cl "${TRAIN[@]}" --preset foo --out "$WORK/bad6"
[ ! -e "$WORK/bad1/epoch-1" ] && [ ! -e "$WORK/bad2/epoch-1" ] && [ ! -e "$WORK/bad4/epoch-1" ] &&
    pass train_no_partial_output || fail train_no_partial_output
