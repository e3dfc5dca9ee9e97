# blas_core stage tests (docs/blas.md): the golden-vector tests under OpenBLAS's generic
# Prescott (SSE3) kernels too (the suite's own run covers the core chosen for this CPU); an
# encoder program's log line and its catalog run record name the core in use; a user's
# OPENBLAS_CORETYPE, even empty, is kept.
source "$(dirname "$0")/lib.sh"
source "$PROBEXPAN_ROOT/tests/fixtures/train/synth.sh"
REPORT="$PROBEXPAN_TESTBIN/test_blas_core --report"

# --- the generic kernels: the variable reaches the library, and every golden test passes
if [ "$(OPENBLAS_CORETYPE=Prescott $REPORT)" = "Prescott OPENBLAS_CORETYPE" ]; then pass prescott-in-effect
else fail prescott-in-effect "OPENBLAS_CORETYPE=Prescott gave '$(OPENBLAS_CORETYPE=Prescott $REPORT)'"; fi
for t in test_bert_golden test_cl_step test_hcl_loss test_projection_head test_tensor_ops test_bert_fd; do
    OPENBLAS_CORETYPE=Prescott "$PROBEXPAN_TESTBIN/$t" >"$WORK/$t.out" 2>"$WORK/$t.err"; rc=$?
    n=$(grep -c '^PASS: ' "$WORK/$t.out")
    if grep -q '^SKIP: ' "$WORK/$t.out"; then skip "golden-prescott-$t" "$(grep -m1 '^SKIP: ' "$WORK/$t.out")"
    elif [ $rc -eq 0 ] && [ "$n" -gt 0 ] && ! grep -q '^FAIL: ' "$WORK/$t.out"; then pass "golden-prescott-$t"
    else fail "golden-prescott-$t" "exit $rc, $(grep '^FAIL: ' "$WORK/$t.out" | tr '\n' ' ')$(tail -n 3 "$WORK/$t.err" | tr '\n' ' ')"; fi
done

# --- the log line and the catalog record: a one-epoch train-mlm on a tiny synthetic corpus
mk_synth "$WORK/syn" 8 4
tokenize "$WORK/syn" --learn-vocab 300 --out "$WORK/syn.corpus.mp" --quiet &&
    build-samples --corpus "$WORK/syn.corpus.mp" --out "$WORK/syn.mp" --quiet ||
    { fail setup "tokenize/build-samples failed"; exit 0; }
# core_run NAME CORE ORIGIN [VAR=VALUE]: train-mlm (with the variable when given) logs
# "BLAS: OpenBLAS core CORE (ORIGIN" and the catalog records blas_core = CORE
core_run() {
    local name=$1 core=$2 origin=$3; shift 3
    env "$@" train-mlm --samples "$WORK/syn.mp" --config "$PROBEXPAN_ROOT/tests/fixtures/train/tiny-config.json" \
        --epochs 1 --batch 16 --samples-per-entity 4 --threads 1 --out "$WORK/$name" 2>"$WORK/$name.err" ||
        { fail "$name" "train-mlm failed: $(tail -n 2 "$WORK/$name.err" | tr '\n' ' ')"; return; }
    local recorded
    recorded=$(catalog show "$WORK/$name/epoch-1" | sed -n 's/^  blas_core = //p')
    if grep -qF "BLAS: OpenBLAS core $core ($origin" "$WORK/$name.err" && [ "$recorded" = "$core" ]; then pass "$name"
    else fail "$name" "log: $(grep 'BLAS:' "$WORK/$name.err"); catalog: '$recorded'; expected $core ($origin)"; fi
}
core_run log-and-catalog-user-core Prescott OPENBLAS_CORETYPE OPENBLAS_CORETYPE=Prescott
# set but empty: the user's, left to OpenBLAS (which then falls back on its own)
empty=$(OPENBLAS_CORETYPE= $REPORT); empty=${empty%% *}
core_run log-and-catalog-empty-variable "$empty" OPENBLAS_CORETYPE OPENBLAS_CORETYPE=
if [ -n "${OPENBLAS_CORETYPE+set}" ]; then
    skip log-and-catalog-chosen-core "this environment sets OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE: the choice is not exercised"
else
    # the core test_blas_core checks to be the best for this CPU
    chosen=$($REPORT)
    core_run log-and-catalog-chosen-core "${chosen%% *}" "${chosen#* }"
fi
