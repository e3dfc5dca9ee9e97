# infer.sh: `infer --model DIR --ids` on the golden model: the probabilities at [MASK]
# match ../shared/golden/infer/probs (max|c−g| <= 1e-4·max|g| + 1e-6), one JSON array per
# line; bad input lines and a broken model exit 3 naming the line / tensor.
source "$(dirname "$0")/lib.sh"
G=$SHARED/golden
if [ ! -d "$G/infer" ]; then skip golden "no ../shared/golden"; exit 0; fi
# one line of non-pad ids per row of infer/input_ids [16,64]
od -An -v -t d4 -w256 "$G/infer/input_ids.i32" | awk '{s=""; for (i=1;i<=NF;i++) if ($i!=0) s=s (s==""?"":" ") $i; print s}' >"$WORK/ids.txt"
if infer --model "$G" --ids - <"$WORK/ids.txt" >"$WORK/probs.jsonl" 2>"$WORK/err"; then pass runs; else fail runs "$(tail -n 2 "$WORK/err")"; fi
[ "$(wc -l <"$WORK/probs.jsonl")" -eq 16 ] && pass lines || fail lines "expected 16 lines"
tr -d '[]' <"$WORK/probs.jsonl" | tr ',' '\n' >"$WORK/got.txt"
od -An -v -t f4 -w4 "$G/infer/probs.f32" >"$WORK/ref.txt"
if paste "$WORK/got.txt" "$WORK/ref.txt" | awk '{d=$1-$2; if (d<0) d=-d; if (d>e) e=d; r=$2<0?-$2:$2; if (r>m) m=r; n++}
     END {exit !(n==800 && e <= 1e-4*m + 1e-6)}'; then pass golden_probs; else fail golden_probs "differs from infer/probs"; fi
# the same from a file, with a batch size that splits the input: equal within float32 rounding
# (the batch shape changes which sgemm kernel OpenBLAS runs, so bits may differ: 1e-8 seen)
infer --model "$G" --ids "$WORK/ids.txt" --batch 5 >"$WORK/probs2.jsonl" 2>/dev/null
check batch_independent numbers_close "$WORK/probs.jsonl" "$WORK/probs2.jsonl" 1e-7 1e-4
printf '101 5 6 102\n' >"$WORK/nomask.txt"
expect_exit no_mask 3 'line 1: no \[MASK\]' infer --model "$G" --ids "$WORK/nomask.txt"
printf '101 103 102\n101 103 x 102\n' >"$WORK/bad.txt"
expect_exit not_integer 3 'line 2: expected space-separated integer' infer --model "$G" --ids "$WORK/bad.txt"
printf '101 103 5000 102\n' >"$WORK/oov.txt"
expect_exit out_of_vocab 3 'line 1: token id 5000 outside' infer --model "$G" --ids "$WORK/oov.txt"
mkdir "$WORK/m"; cp "$G/config.json" "$WORK/m/"
head -c 20000 "$G/model.safetensors" >"$WORK/m/model.safetensors"
expect_exit truncated_model 3 'model.safetensors: .*data_offsets' infer --model "$WORK/m" --ids "$WORK/nomask.txt"
expect_exit no_mode 2 '' infer --model "$G"
# configs the fuzzer found: sizes whose parameter count overflows, an eps that is 0 in float32
mkdir "$WORK/huge" "$WORK/eps"
cp "$PROBEXPAN_ROOT/tests/fixtures/fuzz-crashes/bert_config-1" "$WORK/huge/config.json"
cp "$PROBEXPAN_ROOT/tests/fixtures/fuzz-crashes/bert_config-2" "$WORK/eps/config.json"
expect_exit config_too_large 3 'config.json: the sizes describe .* parameters' infer --model "$WORK/huge" --ids "$WORK/nomask.txt"
expect_exit config_eps_underflow 3 'config.json: layer_norm_eps: expected a positive number representable' infer --model "$WORK/eps" --ids "$WORK/nomask.txt"
