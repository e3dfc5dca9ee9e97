#!/usr/bin/env bash
# Runs every unit-test program ($PROBEXPAN_TESTBIN/test_*) and every stage test
# script (tests/stage/*.sh), counts their PASS/FAIL/SKIP lines and prints the
# closing line "N passed, N failed, N skipped". Exit 1 on any failure.
# TESTS=pattern limits the run to test files whose name contains the pattern.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
export PROBEXPAN_ROOT=$root
: "${PROBEXPAN_BIN:=$root/bin}" "${PROBEXPAN_TESTBIN:=$root/build/tests}"
export PROBEXPAN_BIN PROBEXPAN_TESTBIN
export PATH="$PROBEXPAN_BIN:$PATH"
log=$(mktemp -d)/tests.log
pattern=${TESTS:-}
start=$(date +%s)

run_one() { # name, command...
    local name=$1; shift
    local out rc
    out=$(timeout "${TEST_TIMEOUT:-600}" "$@" 2>"$log.err"); rc=$?
    [ $rc -eq 124 ] && echo "FAIL: $name (timed out after ${TEST_TIMEOUT:-600} s)"
    printf '%s\n' "$out"
    if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' <<<"$out"; then
        echo "FAIL: $name (exit $rc without a FAIL line)"
    fi
    if [ $rc -ne 0 ] || grep -q '^FAIL: ' <<<"$out"; then sed 's/^/    /' "$log.err" | tail -n 40; fi
}

{
for t in "$PROBEXPAN_TESTBIN"/test_*; do
    [ -x "$t" ] && [ -e "$root/tests/unit/$(basename "$t").c" ] || continue # not a stale binary
    case $(basename "$t") in *"$pattern"*) ;; *) continue ;; esac
    (cd "$root" && run_one "$(basename "$t")" "$t")
done
for t in "$root"/tests/stage/*.sh; do
    [ -f "$t" ] || continue
    case $(basename "$t") in *"$pattern"*) ;; *) continue ;; esac
    (cd "$root" && run_one "$(basename "$t")" bash "$t")
done
} | tee "$log"

passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
skipped=$(grep -c '^SKIP: ' "$log")
echo "($(($(date +%s) - start)) s)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
