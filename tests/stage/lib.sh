# lib.sh: helpers for stage tests (sourced). Each check prints one
# PASS:/FAIL:/SKIP: line that tests/run.sh counts.
# Usage: source "$(dirname "$0")/lib.sh"; then expect_exit, expect_stderr, pass/fail/skip.
set -u
TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/probexpan-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
SHARED=${PROBEXPAN_SHARED:-$PROBEXPAN_ROOT/../shared}
export PROBEXPAN_CATALOG=$WORK/catalog.sqlite

pass() { echo "PASS: $TEST_NAME/$1"; }
fail() { echo "FAIL: $TEST_NAME/$1${2:+ ($2)}"; }
skip() { echo "SKIP: $TEST_NAME/$1 (${2:-skipped})"; }
need_shared() { [ -d "$SHARED/data" ]; }

# expect_exit NAME CODE PATTERN cmd...: runs cmd, checks exit code and that
# stderr matches the extended regex PATTERN (empty = no check).
expect_exit() {
    local name=$1 code=$2 pat=$3; shift 3
    "$@" >"$WORK/out" 2>"$WORK/err"; local rc=$?
    if [ "$rc" -ne "$code" ]; then fail "$name" "exit $rc, expected $code; stderr: $(tail -n 3 "$WORK/err" | tr '\n' ' ')"; return 1; fi
    if [ -n "$pat" ] && ! grep -Eq -- "$pat" "$WORK/err"; then fail "$name" "stderr lacks /$pat/: $(tail -n 3 "$WORK/err" | tr '\n' ' ')"; return 1; fi
    pass "$name"
}
# serve_start ARGS...: `serve --port 0 ARGS` in the background (stdout and stderr in
# $WORK/serve.out and serve.err); sets PID, and U (its URL) once it listens; 1 when it exits first
# or does not listen within 30 s.
serve_start() {
    serve --port 0 "$@" >"$WORK/serve.out" 2>"$WORK/serve.err" &
    PID=$!
    for _ in $(seq 1 300); do
        U=$(sed -n 's/^listening on //p' "$WORK/serve.out")
        [ -n "$U" ] && return 0
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}
# mean_prob_rows DISTS: the rows of a dists artifact's mean_prob matrix, one JSON array a line.
mean_prob_rows() { inspect --full "$1" | sed -n '/"matrix":"mean_prob"/,$p' | grep '^\['; }
# map10_of REPORT: overall MAP@10 of the first run of an evaluate report.
map10_of() { inspect "$1" | tail -n 1 | jq '.runs[0].overall.map[0]'; }
# numbers_close A B ABS REL: files A and B hold the same lines of JSON number arrays, each number
# of A within ABS + REL*|b| of B's (for float results computed in another order: other batch
# shapes or thread counts make BLAS pick other kernels, so the last bits differ).
numbers_close() {
    awk -F'[][, ]+' -v abs="$3" -v rel="$4" '
        NR == FNR { n[FNR] = NF; for (i = 1; i <= NF; i++) a[FNR, i] = $i; lines = FNR; next }
        { if (NF != n[FNR]) exit 1
          for (i = 1; i <= NF; i++) { if ($i == "") continue; d = a[FNR, i] - $i; if (d < 0) d = -d; b = $i < 0 ? -$i : $i
                                      if (d > abs + rel * b) exit 1 } }
        END { if (FNR != lines) exit 1 }' "$1" "$2"
}
# option_keys PROGRAM: the params keys of the program's options that always have a value (the
# ones --help shows with a default; not the global --quiet, --threads, --catalog)
option_keys() { "$1" --help | sed -n 's/^  --\([a-z0-9-]*\) .*(default: .*/\1/p' | grep -vx 'quiet\|threads\|catalog' | tr - _ | sort; }
# params_are_options NAME PROGRAM ARTIFACT [UNSET...]: the artifact's header params and the
# catalog's params of the run that made it name every such option of PROGRAM (they come from its
# option table) but the UNSET ones (string options not given whose help text names a default)
params_are_options() {
    local keys header run unset
    unset=$(printf '%s\n' "${@:4}")
    keys=$(option_keys "$2" | grep -vxF "${unset:-//}")
    header=$(comm -23 <(echo "$keys") <(inspect --header "$3" | jq -r '.params | keys[]' | sort))
    run=$(comm -23 <(echo "$keys") <(catalog show "$3" | sed -n '/^params:/,/^metrics:/s/^  \([a-z0-9_]*\) = .*/\1/p' | sort -u))
    if [ -n "$keys" ] && [ -z "$header$run" ]; then pass "$1"
    else fail "$1" "header params lack: $(echo $header); catalog params lack: $(echo $run)"; fi
}
# check NAME cmd...: PASS when cmd succeeds.
check() { local name=$1; shift; if "$@" >"$WORK/check.out" 2>&1; then pass "$name"; else fail "$name" "$(tail -n 3 "$WORK/check.out" | tr '\n' ' ')"; fi; }
# have_mpi: mpirun is installed and the programs link MPI (else MPI checks skip visibly).
have_mpi() { command -v mpirun >/dev/null && ldd "$PROBEXPAN_BIN/train-mlm" 2>/dev/null | grep -q libmpi; }
# mpirun2 cmd...: cmd as 2 MPI ranks on this machine. Under make test-asan without leak checks
# inside mpirun (Open MPI's unloaded plugins leave allocations LeakSanitizer cannot attribute;
# the same code is leak-checked by the single-process tests); address/UB checks stay on.
mpirun2() {
    mpirun --allow-run-as-root --oversubscribe -np 2 ${PROBEXPAN_ASAN:+-x ASAN_OPTIONS=detect_leaks=0} "$@"
}
# close_rel A B TOL: |A - B| <= TOL * |A|
close_rel() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; exit !(a != "" && b != "" && d <= t * m) }'; }
