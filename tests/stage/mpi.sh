# mpi.sh: the MPI-capable stages, 1 process vs 2 ranks on localhost (mpirun --oversubscribe).
# The golden model (a pretrained HF directory: F = 1 frozen layer, so train-mlm builds the
# frozen-prefix cache first) trains data-parallel: the cache is byte-identical, every step's
# loss equals the single-process one within 1e-5 relative (one optimizer step per epoch, so
# the per-epoch losses are the per-step losses), infer over 2 ranks writes a byte-identical
# dists artifact (and, for two models' ensemble and for seed rows, the same rows), and the corpus index built by 2 ranks is byte-identical. A rank killed mid-run fails the job with a message naming it and leaves no
# artifact under the final name. Skipped visibly without mpirun or in a build without MPI.
# The byte-identities hold by construction: batch k runs on rank k mod ranks, the batches are
# those of one process, rank 0 writes them in order, and every rank runs the same threads.
source "$(dirname "$0")/lib.sh"
source "$PROBEXPAN_ROOT/tests/fixtures/train/synth.sh"
G=$SHARED/golden
if ! have_mpi; then skip all "no mpirun or a build without MPI (openmpi-bin, libopenmpi-dev)"; exit 0; fi
if [ ! -f "$G/model.safetensors" ]; then skip all "no ../shared/golden"; exit 0; fi
export SOURCE_DATE_EPOCH=1700000000 # artifacts' "created": byte comparisons

# 50 entities (the golden head's size), 4 sentences each, on the golden vocabulary
mk_synth "$WORK/syn" 50 4
tokenize "$WORK/syn" --vocab "$G/vocab.txt" --out "$WORK/corpus.mp" --quiet &&
    build-samples --corpus "$WORK/corpus.mp" --out "$WORK/s.mp" --quiet || { fail setup "tokenize/build-samples"; exit 0; }
TR="train-mlm --samples $WORK/s.mp --model $G --batch 256 --samples-per-entity all --epochs 4 --lr 1e-3 --threads 1 --quiet"
$TR --out "$WORK/one" --cache "$WORK/cache1.mp" 2>"$WORK/one.err" || fail train-one "$(tail -n 2 "$WORK/one.err")"
expect_exit train-two-ranks 0 '' mpirun2 $TR --out "$WORK/two" --cache "$WORK/cache2.mp"
check cache-byte-identical cmp "$WORK/cache1.mp" "$WORK/cache2.mp"
state_losses() { # the per-epoch losses of a trainer_state.json
    sed -n '/"loss": \[/,/\]/p' "$1/final/trainer_state.json" | grep -Eo '[-0-9.eE+]+' ; }
n=0 bad=0
while read -r a b; do n=$((n + 1)); close_rel "$a" "$b" 1e-5 || bad=1; done < <(paste <(state_losses "$WORK/one") <(state_losses "$WORK/two"))
if [ $n = 4 ] && [ $bad = 0 ]; then
    pass losses-per-step-equal
else
    fail losses-per-step-equal "$(paste <(state_losses "$WORK/one") <(state_losses "$WORK/two") | tr '\n' ' ')"
fi
check rank0-writes-checkpoints test -s "$WORK/two/epoch-4/model.safetensors"
check one-catalog-record test "$(catalog runs 2>/dev/null | grep -Ec "^ +[0-9]+ +train-mlm .*--out $WORK/two( |\$)")" = 1
# a checkpoint of a 2-rank job resumes in one process
$TR --out "$WORK/two" --epochs 5 --resume 2>/dev/null
check resume-other-rank-count test "$(readlink "$WORK/two/final")" = epoch-5

# sharded inference: the same artifact
IN="infer --model $WORK/one/final --samples $WORK/s.mp --threads 1 --quiet"
$IN --out "$WORK/d1.mp" 2>/dev/null
expect_exit infer-two-ranks 0 '' mpirun2 $IN --out "$WORK/d2.mp"
check infer-byte-identical cmp "$WORK/d1.mp" "$WORK/d2.mp"
expect_exit ids-mode-single-process 2 'one process' mpirun2 infer --model "$WORK/one/final" --ids /dev/null --quiet
# two models' ensemble (their rows travel together) and a model's seed rows: the same floats over 2 ranks
printf '1 3\n' >"$WORK/seeds.txt"
IN2="infer --model $WORK/one/final --model $WORK/two/final --samples $WORK/s.mp --threads 1 --quiet"
$IN2 --out "$WORK/e1.mp" 2>/dev/null
expect_exit ensemble-two-ranks 0 '' mpirun2 $IN2 --out "$WORK/e2.mp"
check ensemble-same-rows cmp <(mean_prob_rows "$WORK/e1.mp") <(mean_prob_rows "$WORK/e2.mp")
$IN --rows-of "$WORK/seeds.txt" --out "$WORK/r1.mp" 2>/dev/null
expect_exit seed-rows-two-ranks 0 '' mpirun2 $IN --rows-of "$WORK/seeds.txt" --out "$WORK/r2.mp"
check seed-rows-same cmp <(mean_prob_rows "$WORK/r1.mp") <(mean_prob_rows "$WORK/r2.mp")

mk_synth "$WORK/big" 50 120
tokenize "$WORK/big" --vocab "$G/vocab.txt" --out "$WORK/bigc.mp" --quiet && build-samples --corpus "$WORK/bigc.mp" --out "$WORK/bigs.mp" --quiet

# the corpus index: ranks count disjoint feature sets, rank 0 merges -> the same file
index --samples "$WORK/bigs.mp" --out "$WORK/i1.mp" --quiet
expect_exit index-two-ranks 0 '' mpirun2 index --samples "$WORK/bigs.mp" --out "$WORK/i2.mp" --quiet
check index-byte-identical cmp "$WORK/i1.mp" "$WORK/i2.mp"
check index-has-features test "$(inspect "$WORK/i1.mp" | jq -s 'map(.features // empty) | .[0]')" -gt 0

# a rank that dies: kill rank 1 while the job runs -> the job fails, no artifact
mpirun2 infer --model "$WORK/one/final" --samples "$WORK/bigs.mp" --out "$WORK/killed.mp" --threads 1 >"$WORK/kill.out" 2>&1 &
job=$!
victim=""
for _ in $(seq 1 100); do # the rank-1 process (its environment names its rank)
    for p in $(pgrep -f "infer --model $WORK/one/final --samples $WORK/bigs.mp" 2>/dev/null); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
    done
    [ -n "$victim" ] && break
    sleep 0.1
done
[ -n "$victim" ] && kill -9 "$victim"
wait $job; rc=$?
if [ -n "$victim" ] && [ $rc -ne 0 ]; then pass killed-rank-fails-job; else fail killed-rank-fails-job "victim '$victim', exit $rc"; fi
check killed-rank-message grep -Eqi 'rank|process' "$WORK/kill.out"
check killed-rank-no-artifact test ! -e "$WORK/killed.mp"
