#!/usr/bin/env bash
# bench-mpi.sh BIN DIR DATA SPE CAP SENTENCES: 1 process vs 2 MPI ranks on this machine (make
# bench-mpi). On the first SENTENCES sentences of DATA (a dataset folder: the WordNet example),
# at most CAP samples per entity, with a learned
# vocabulary and the small config
# (4 layers, hidden 256, 4 heads, FFN 1024): 1) building the frozen-prefix cache (F = 3),
# 2) one training epoch from scratch (F = 0, SPE samples per entity, global batch 32),
# 3) infer over all samples. Each runs as one process with 1 thread, one process with 2
# threads, and 2 ranks of 1 thread (mpirun -np 2); the speed-up is against 1 process x 1
# thread. Prints wall seconds and rates. A benchmark, not a test.
set -eu
BIN=$1 DIR=$2 DATA=$3 SPE=$4 CAP=$5 SENTENCES=$6
export PROBEXPAN_CATALOG=$DIR/catalog.sqlite OMPI_MCA_rmaps_base_oversubscribe=1
MPI="mpirun --allow-run-as-root -np 2"
mkdir -p "$DIR"
cd "$DIR"
echo "== bench-mpi on $(basename "$DATA") ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
mkdir -p data
cp "$DATA/entity2id.txt" data/
head -n "$SENTENCES" "$DATA/sentences.json" >data/sentences.json
$BIN/tokenize data --learn-vocab 8000 --out corpus.mp --quiet
$BIN/build-samples --corpus corpus.mp --max-samples-per-entity "$CAP" --out samples.mp 2>build.err
grep -o 'done: .*' build.err
V=$(wc -l <vocab.txt)
cat >small.json <<JSON
{"vocab_size": $V, "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
 "intermediate_size": 1024, "max_position_embeddings": 512, "type_vocab_size": 2,
 "layer_norm_eps": 1e-12, "hidden_act": "gelu"}
JSON
wall() { local t0 t1; t0=$(date +%s.%N); "$@" 2>>bench.err >/dev/null || { tail -n 5 bench.err; exit 1; }; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
row() { # row TASK NAME cmd...: runs the three ways, prints seconds and speed-ups
    local task=$1 name=$2; shift 2
    local a b c
    rm -rf "$name"-*; a=$(wall "$@" --threads 1 --out "$name-1t" $EXTRA1)
    rm -rf "$name"-*; b=$(wall "$@" --threads 2 --out "$name-2t" $EXTRA2)
    rm -rf "$name"-*; c=$(wall $MPI "$@" --threads 1 --out "$name-2r" $EXTRA3)
    printf '%-34s %9.1f %9.1f (%4.2fx) %9.1f (%4.2fx)\n' "$task" "$a" "$b" "$(echo "$a / $b" | bc -l)" "$c" "$(echo "$a / $c" | bc -l)"
}
printf '%-34s %9s %19s %19s\n' "task (wall s)" "1 proc" "1 proc x 2 thr" "2 ranks x 1 thr"
TRAIN="$BIN/train-mlm --samples samples.mp --config small.json --batch 32 --seed 1"
EXTRA1="--cache c1.mp" EXTRA2="--cache c2.mp" EXTRA3="--cache c3.mp"
rm -f c1.mp c2.mp c3.mp
# cache build alone: F = 3 and an epoch of 1 sample per entity after it (its time is small)
row "prefix cache (F=3) + tiny epoch" cache $TRAIN --frozen-layers 3 --epochs 1 --samples-per-entity 1
for c in c1.mp c2.mp c3.mp; do rm -f "$c" "$c.lock"; done
EXTRA1="" EXTRA2="" EXTRA3=""
row "training epoch (F=0, $SPE/entity)" train $TRAIN --frozen-layers 0 --epochs 1 --samples-per-entity "$SPE"
$TRAIN --frozen-layers 0 --epochs 1 --samples-per-entity 1 --out model --quiet
row "infer (all samples)" infer $BIN/infer --model model/final --samples samples.mp
grep -h 'prefix cache built\|epoch 1/1: loss\|entities ->' bench.err | sed 's/^/  log: /' | tail -n 12
