#!/usr/bin/env bash
# bench-mpi.sh BIN DIR DATA SENTENCES CAP INFER_SPE MPIRUN: 1 process vs 2 MPI ranks on this
# machine (make bench-mpi). On the first SENTENCES sentences of DATA (a dataset folder: the
# WordNet example; 0 = all), at most CAP samples per entity, a learned vocabulary and the small
# config (4 layers, hidden 256, 4 heads, FFN 1024), three tasks:
#   1) building the frozen-prefix cache (train-mlm --frozen-layers 3, over every sample);
#   2) one training epoch from scratch (F = 0, 1 sample per entity, global batch 32);
#   3) infer over INFER_SPE samples per entity.
# Each runs as one process with 1 thread, one process with 2 threads, and 2 ranks of 1 thread
# (MPIRUN, e.g. "mpirun --allow-run-as-root -np 2"). The times are the programs' own
# per-phase profile lines (cluster_phase_end): the phase alone, without start-up, which is
# shown apart (the run's wall time outside its phases). Speed-ups are against 1 process x 1
# thread. "idle est." predicts the 2-rank speed-up on idle cores from CPU times, which other
# jobs on the machine change less than wall times: the 2-rank run's work (both ranks' CPU
# seconds outside MPI calls) over its critical path (see common/base/cluster.h). The load average is printed with every run: on
# a loaded machine the wall-clock columns say little. A benchmark, not a test.
set -eu
BIN=$1 DIR=$2 DATA=$3 SENTENCES=$4 CAP=$5 INFER_SPE=$6 MPIRUN=$7
export PROBEXPAN_CATALOG=$DIR/catalog.sqlite
mkdir -p "$DIR"
cd "$DIR"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "== bench-mpi on $(basename "$DATA") ($(nproc) cores, load average $(load))"
mkdir -p data
cp "$DATA/entity2id.txt" data/
if [ "$SENTENCES" -gt 0 ]; then head -n "$SENTENCES" "$DATA/sentences.json" >data/sentences.json
else cp "$DATA/sentences.json" data/; fi
$BIN/tokenize data --learn-vocab 8000 --out corpus.mp --quiet
$BIN/build-samples --corpus corpus.mp --max-samples-per-entity "$CAP" --out samples.mp 2>build.err
grep -o 'done: .*' build.err | sed 's/^done: /samples: /'
V=$(wc -l <vocab.txt)
cat >small.json <<JSON
{"vocab_size": $V, "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
 "intermediate_size": 1024, "max_position_embeddings": 512, "type_vocab_size": 2,
 "layer_norm_eps": 1e-12, "hidden_act": "gelu"}
JSON

# run NAME cmd...: runs cmd with its log in NAME.log; sets WALL (whole run) and LOADS.
LOADS=""
run() {
    local name=$1 t0 t1; shift
    LOADS="$LOADS $(cut -d' ' -f1 /proc/loadavg)"
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>"$name.log" || { echo "bench-mpi: $name failed:"; tail -n 5 "$name.log"; exit 1; }
    t1=$(date +%s.%N)
    WALL=$(echo "$t1 - $t0" | bc)
}
# field NAME PHASE what: a number from NAME.log's "PHASE profile:" line (what: wall, cpu, critical).
field() {
    local line
    line=$(grep -F "$2 profile:" "$1.log" | tail -n 1)
    [ -n "$line" ] || { echo "bench-mpi: no '$2 profile' line in $1.log" >&2; exit 1; }
    case $3 in
        wall) sed 's/.*profile: wall \([0-9.]*\) s.*/\1/' <<<"$line" ;;
        cpu) sed 's/.*, CPU \([0-9.]*\) s$/\1/' <<<"$line" ;;
        critical) sed 's/.*critical path \([0-9.]*\) s CPU.*/\1/' <<<"$line" ;;
        busy) grep -o 'busy [0-9.]*' <<<"$line" | awk '{s += $2} END {print s}' ;;
    esac
}
ratio() { echo "scale=2; $1 / $2" | bc; }

TRAIN="$BIN/train-mlm --samples samples.mp --config small.json --batch 32 --random-seed 1 --epochs 1"
declare -A PH STARTUP
# task KEY PHASE OTHER_PHASE cmd...: the three runs of a task; OTHER_PHASE (or "") is a phase of
# the same run that is neither the measured one nor start-up (the cache runs' short epoch).
task() {
    local key=$1 phase=$2 other=$3 how out rest w; shift 3
    for how in 1t 2t 2r; do
        out=$key-$how
        rm -rf "$out" "$out.mp" "$out.mp.lock"
        case $how in
            1t) run "$out" "$@" --threads 1 --out "$out" ${CACHE:+--cache "$out.mp"} ;;
            2t) run "$out" "$@" --threads 2 --out "$out" ${CACHE:+--cache "$out.mp"} ;;
            2r) run "$out" $MPIRUN "$@" --threads 1 --out "$out" ${CACHE:+--cache "$out.mp"} ;;
        esac
        w=$(field "$out" "$phase" wall)
        rest=$(echo "$WALL - $w" | bc)
        [ -n "$other" ] && rest=$(echo "$rest - $(field "$out" "$other" wall)" | bc)
        PH[$key-$how]=$w
        STARTUP[$key-$how]=$rest
    done
    PH[$key-cpu]=$(field "$key-1t" "$phase" cpu)
    PH[$key-critical]=$(field "$key-2r" "$phase" critical)
    PH[$key-busy]=$(field "$key-2r" "$phase" busy)
}
CACHE=1
task cache "prefix cache" "epoch 1/1" $TRAIN --frozen-layers 3 --samples-per-entity 1
CACHE=""
task train "epoch 1/1" "" $TRAIN --frozen-layers 0 --samples-per-entity 1
task infer "inference" "" $BIN/infer --model "$DIR/train-1t/final" --samples samples.mp \
    --max-samples-per-entity "$INFER_SPE"
N=$(sed -n 's/.*done: \([0-9,]*\) entities.*/\1/p' build.err)
S=$(sed -n 's/.*entities, \([0-9,]*\) samples.*/\1/p' build.err)
M=$(grep -o '[0-9,]* samples, [0-9.]* entities/s' infer-1t.log | sed 's/ samples.*//')

echo
printf '%-48s %8s %17s %17s %10s\n' "task (wall s of the phase)" "1 proc" "1 proc x 2 thr" "2 ranks x 1 thr" "idle est."
line() { # line KEY LABEL
    local k=$1
    printf '%-48s %8.1f %9.1f (%4.2fx) %9.1f (%4.2fx) %9.2fx\n' "$2" "${PH[$k-1t]}" "${PH[$k-2t]}" \
        "$(ratio "${PH[$k-1t]}" "${PH[$k-2t]}")" "${PH[$k-2r]}" "$(ratio "${PH[$k-1t]}" "${PH[$k-2r]}")" \
        "$(ratio "${PH[$k-busy]}" "${PH[$k-critical]}")"
}
line cache "prefix cache, F = 3 ($S samples)"
line train "training epoch, F = 0 ($N samples, batch 32)"
line infer "inference ($M samples)"
printf '%-48s %8.1f %17.1f %17.1f\n' "start-up + exit, mean over the 3 tasks" \
    "$(echo "(${STARTUP[cache-1t]} + ${STARTUP[train-1t]} + ${STARTUP[infer-1t]}) / 3" | bc -l)" \
    "$(echo "(${STARTUP[cache-2t]} + ${STARTUP[train-2t]} + ${STARTUP[infer-2t]}) / 3" | bc -l)" \
    "$(echo "(${STARTUP[cache-2r]} + ${STARTUP[train-2r]} + ${STARTUP[infer-2r]}) / 3" | bc -l)"
echo
echo "1-minute load average at the start of each run:$LOADS (now $(load)); on 2 cores,"
echo "a load above ~2 means other jobs shared the cores and the wall-clock columns are noisy."
echo "idle est. = the 2-rank run's work (CPU s outside MPI calls, both ranks) / its critical path;"
echo "both come from the same run, so a load that slows every CPU second alike cancels out (work"
echo "that every rank repeats, such as the AdamW step, counts twice: a slight overestimate)."
echo "The same against the 1-thread run's CPU s (two runs: noisier under load):"
for k in cache train infer; do
    printf '  %-6s 1 thread CPU %7.2f s, 2 ranks work %7.2f s, critical path %7.2f s -> %4.2fx\n' "$k" \
        "${PH[$k-cpu]}" "${PH[$k-busy]}" "${PH[$k-critical]}" "$(ratio "${PH[$k-cpu]}" "${PH[$k-critical]}")"
done
echo "the 2-rank profiles (per rank: busy = CPU outside MPI calls, waiting = wall inside them):"
grep -h 'profile:' cache-2r.log train-2r.log infer-2r.log | grep -v 'epoch 1/1 profile.*' | sed 's/^/  /'
grep -h 'epoch 1/1 profile:' train-2r.log | sed 's/^/  /'
