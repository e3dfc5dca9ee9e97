#!/usr/bin/env bash
# bench-train.sh BIN DIR DATA THREADS BASE_SENTENCES SPE: train-mlm and infer throughput
# (make bench-train). 1) the small config from scratch on DATA (wordnet-ese-dev): training
# samples/s (one epoch of SPE samples per entity; s/epoch extrapolated to 256 and avg),
# inference entities/s and samples/s, peak RSS of each. 2) BERT-base shapes, random
# weights, F = 11, on the first BASE_SENTENCES sentences of DATA: prefix-cache build rate,
# cached training rate, inference rate. A benchmark, not a test.
set -eu
BIN=$1 DIR=$2 DATA=$3 THREADS=$4 BASE_SENTENCES=$5 SPE=$6
FIX=$(cd "$(dirname "$0")/../../tests/fixtures/train" && pwd)
export PROBEXPAN_CATALOG=$DIR/catalog.sqlite
mkdir -p "$DIR"
cd "$DIR"
T="--threads $THREADS"
timed() { # timed NAME cmd...: runs cmd, keeps its stderr in NAME.err, wall s + peak RSS in NAME.time
    local name=$1; shift
    /usr/bin/time -f "%e %M" -o "$name.time" "$@" 2>"$name.err" || { tail -n 5 "$name.err"; exit 1; }
}
field() { read -r s kb <"$1.time"; case $2 in s) echo "$s" ;; mb) echo "scale=0; $kb / 1024" | bc ;; esac; }
rate() { echo "scale=1; $1 / $2" | bc; }

echo "== small config from scratch on $(basename "$DATA") (threads $THREADS, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
$BIN/tokenize "$DATA" --learn-vocab 8000 --out corpus.mp --quiet
$BIN/build-samples --corpus corpus.mp --out samples.mp 2>build.err
V=$(wc -l <vocab.txt)
sed "s/\"vocab_size\": [0-9]*/\"vocab_size\": $V/" "$FIX/small-config.json" >small.json
E=$(grep -o 'done: [0-9,]* entities' build.err | grep -o '[0-9][0-9,]*' | tr -d ,)
S=$(grep -o 'entities, [0-9,]* samples' build.err | grep -o '[0-9][0-9,]*' | tr -d ,)
timed train $BIN/train-mlm --samples samples.mp --config small.json --epochs 1 --samples-per-entity "$SPE" $T --out small-model
line=$(grep 'epoch 1/1: loss' train.err)
tr_rate=$(echo "$line" | grep -o '[0-9.]* samples/s' | cut -d' ' -f1)
echo "entities $E, samples $S, vocab $V"
echo "train-mlm: $tr_rate samples/s ($line)"
echo "  s/epoch at 256 samples/entity: $(rate "$E * 256" "$tr_rate"); at avg ($(( (S + E / 2) / E ))): $(rate "$E * $(( (S + E / 2) / E ))" "$tr_rate"); peak RSS $(field train mb) MB"
timed infer $BIN/infer --model small-model/final --samples samples.mp --out dists.mp $T
s=$(field infer s)
echo "infer: $s s, $(rate "$E" "$s") entities/s, $(rate "$S" "$s") samples/s, peak RSS $(field infer mb) MB, dists $(( $(stat -c %s dists.mp) / 1000000 )) MB"

echo "== BERT-base shapes, random weights, F = 11, first $BASE_SENTENCES sentences"
mkdir -p base-data
tar -xzf "$DATA" -C base-data
src=$(dirname "$(find base-data -name sentences.json | head -n 1)")
head -n "$BASE_SENTENCES" "$src/sentences.json" >base-data/sentences.small.json
mv base-data/sentences.small.json "$src/sentences.json"
$BIN/tokenize "$src" --learn-vocab 8000 --out base-corpus.mp --vocab-out base-vocab.txt --quiet
$BIN/build-samples --corpus base-corpus.mp --out base-samples.mp 2>build-base.err
BE=$(grep -o 'done: [0-9,]* entities' build-base.err | grep -o '[0-9][0-9,]*' | tr -d ,)
BS=$(grep -o 'entities, [0-9,]* samples' build-base.err | grep -o '[0-9][0-9,]*' | tr -d ,)
cat >base.json <<JSON
{"vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
 "intermediate_size": 3072, "max_position_embeddings": 512, "type_vocab_size": 2,
 "layer_norm_eps": 1e-12, "hidden_act": "gelu"}
JSON
timed base-train $BIN/train-mlm --samples base-samples.mp --config base.json --frozen-layers 11 --epochs 1 \
    --samples-per-entity 8 $T --out base-model --cache base-cache.mp
echo "subset: $BE entities, $BS samples"
echo "cache build: $(grep 'prefix cache built' base-train.err | sed 's/.*built: //'), file $(( $(stat -c %s base-cache.mp) / 1000000 )) MB"
echo "cached training: $(grep 'epoch 1/1: loss' base-train.err | sed 's/.*epoch 1\/1: //'), peak RSS $(field base-train mb) MB"
# a second ensemble member, another seed, on the same encoder (the first model's checkpoint as
# --model: its 11 frozen layers are the random init, so the cache fingerprint matches)
timed base-train2 $BIN/train-mlm --samples base-samples.mp --model base-model/final --epochs 1 \
    --samples-per-entity 8 $T --out base-model2 --cache base-cache.mp --random-seed 2
echo "2nd model (seed 2) reusing the cache: $(grep 'epoch 1/1: loss' base-train2.err | sed 's/.*epoch 1\/1: //'), wall $(field base-train2 s) s, rebuilt: $(grep -c 'building the frozen' base-train2.err)"
timed base-infer $BIN/infer --model base-model/final --samples base-samples.mp --out base-dists.mp $T
s=$(field base-infer s)
echo "infer (12 layers): $s s, $(rate "$BE" "$s") entities/s, $(rate "$BS" "$s") samples/s, peak RSS $(field base-infer mb) MB"
