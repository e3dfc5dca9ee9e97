#!/usr/bin/env bash
# bench-cl.sh BIN TESTBIN WORKDIR DATA CAP THREADS: the contrastive training rate of
# train-cl in BERT-base shapes (12 layers, H 768, 12 heads, FFN 3072, vocab 30522, random
# weights, F = 11 with the frozen-prefix cache) on DATA tokenized with a learned WordPiece
# vocabulary of <= 30,000 tokens (no bert-base-uncased vocab.txt here), at most CAP samples
# per entity. The ranking the pairs come from is synthetic (each entity's
# distribution = a hashed noise + a peak on itself, so rankings are arbitrary but the set
# sizes are the real thresholds' 12/170/200). Run 1 builds the cache and trains one epoch;
# run 2 reuses the cache: its CL passes give the pairs/s figure. Prints both.
set -eu
BIN=$1 TESTBIN=$2 W=$3 DATA=$4 CAP=$5 THREADS=$6
export PATH="$BIN:$PATH" PROBEXPAN_CATALOG=$W/catalog.sqlite
mkdir -p "$W"
tokenize --quiet "$DATA" --learn-vocab 30000 --out "$W/corpus.mp"
build-samples --quiet --corpus "$W/corpus.mp" --max-samples-per-entity "$CAP" --out "$W/samples.mp"
inspect "$W/samples.mp" | sed -n 3p | jq -r '.eid as $e | .name as $n | ($e | length), (range(0; $e | length) | "\($e[.])\t\($n[.])")' >"$W/dists.txt"
n=$(head -n1 "$W/dists.txt")
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) { s = 0; for (j = 0; j < n; j++) { v[j] = 1 + ((i * 7919 + j * 104729) % 97) / 97 + (i == j ? 50 : 0); s += v[j] }
                line = ""; for (j = 0; j < n; j++) line = line (j ? " " : "") sprintf("%.7f", v[j] / s); print line } }' >>"$W/dists.txt"
"$TESTBIN/test_dists" --write "$W/dists.mp" <"$W/dists.txt"
expand --quiet --dists "$W/dists.mp" --queries "$DATA" --size 200 --out "$W/exp.mp"
rerank --quiet --dists "$W/dists.mp" --out "$W/ranked.mp" "$W/exp.mp"
build-pairs --ranked "$W/ranked.mp" --queries "$DATA" --samples "$W/samples.mp" --out "$W/pairs.mp" >"$W/pairs.txt"
cat >"$W/bert-base.json" <<'JSON'
{"architectures": ["BertModel"], "hidden_act": "gelu", "hidden_size": 768, "intermediate_size": 3072,
 "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": 12,
 "num_hidden_layers": 12, "type_vocab_size": 2, "vocab_size": 30522}
JSON
ARGS=(--samples "$W/samples.mp" --pairs "$W/pairs.mp" --config "$W/bert-base.json" --frozen-layers 11
      --cache "$W/cache.mp" --epochs 1 --samples-per-entity 1 --threads "$THREADS")
t0=$(date +%s.%N)
train-cl "${ARGS[@]}" --out "$W/cl-a" 2>"$W/run1.log"
t1=$(date +%s.%N)
train-cl "${ARGS[@]}" --out "$W/cl-b" 2>"$W/run2.log"
t2=$(date +%s.%N)
samples=$(inspect "$W/samples.mp" | sed -n 4p | jq .samples)
echo "bench-cl: $DATA, $samples samples (<= $CAP per entity), $n entities, BERT-base shapes, F=11, $THREADS threads"
grep -h 'frozen-prefix cache' "$W/run1.log" | sed 's/^/  /'
grep -h 'CL pass\|epoch 1/1: loss' "$W/run2.log" | sed 's/^/  /'
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "  run 1 (builds the cache) %.1f s, run 2 (cache reused) %.1f s: cache build ~ %.1f s\n", b - a, c - b, (b - a) - (c - b) }'
