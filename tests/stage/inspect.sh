# inspect, the probexpan dispatcher and the shared CLI conventions (help, exit codes).
source "$(dirname "$0")/lib.sh"
fx=$PROBEXPAN_ROOT/tests/fuzz/corpus-artifact/matrix.mp   # a small dists-kind artifact

inspect "$fx" >"$WORK/o" 2>"$WORK/e"
if head -n1 "$WORK/o" | grep -q '"kind":"dists","schema":1' &&
   grep -q '{"matrix":"mean_prob","rows":2,"cols":3,"head":\[\[0.5,0.25,0.25\],\[0.5,0.25,0.25\]\]}' "$WORK/o" &&
   grep -q '^\[-1,2.5,null\]$' "$WORK/o"; then pass header_and_matrix_summary; else fail header_and_matrix_summary "$(cat "$WORK/o")"; fi

inspect --full "$fx" >"$WORK/o"
[ "$(grep -c '^\[0.5,0.25,0.25\]$' "$WORK/o")" = 2 ] && pass full_rows || fail full_rows "$(cat "$WORK/o")"

probexpan inspect --header "$fx" >"$WORK/o" && [ "$(wc -l <"$WORK/o")" = 1 ] && pass dispatcher_runs_stage || fail dispatcher_runs_stage
probexpan --help | grep -q 'score-models' && pass dispatcher_lists_stages || fail dispatcher_lists_stages
expect_exit dispatcher_unknown_stage 2 "unknown stage 'frobnicate'" probexpan frobnicate

head -c 200 "$fx" >"$WORK/cut.mp"
expect_exit truncated_file 3 "cut.mp: byte [0-9]+: truncated" inspect "$WORK/cut.mp"
expect_exit not_an_artifact 3 "not a ProbExpan artifact" inspect "$PROBEXPAN_ROOT/Makefile"
expect_exit missing_file 3 "nope.mp: cannot open" inspect "$WORK/nope.mp"
expect_exit unknown_option 2 "unknown option '--frob'" inspect --frob "$fx"
expect_exit threads_out_of_range 2 "--threads: -1 is out of range" inspect --threads -1 "$fx"
expect_exit threads_not_a_number 2 "--threads: 'two' is not a whole number" inspect --threads two "$fx"
expect_exit missing_argument 2 "expected exactly one ARTIFACT" inspect

# every program: --help, a place in the dispatcher's list, and no stray positional argument
# (three are more than any program declares except those whose usage says "...")
probexpan --help >"$WORK/stages"
for p in "$PROBEXPAN_BIN"/*; do
    name=$(basename "$p")
    [ "$name" = probexpan ] && continue
    out=$("$p" --help 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q '^Usage: ' <<<"$out" && grep -q '^e.g.:' <<<"$out" && grep -q -- '--threads' <<<"$out"; then
        pass "help_$name"; else fail "help_$name" "exit $rc"; fi
    if grep -q "^  $name " "$WORK/stages" && probexpan "$name" --help | grep -q "^$name - "; then
        pass "dispatcher_has_$name"; else fail "dispatcher_has_$name" "probexpan --help does not list it"; fi
    grep '^Usage: ' <<<"$out" | grep -q '\.\.\.' ||
        expect_exit "stray_argument_$name" 2 "unexpected argument 'stray-[123]'" "$p" stray-1 stray-2 stray-3
done
# one name per concept: the contrastive settings (the pipeline's CL_FLAGS go to pattern-dists and
# train-cl alike) are --cl-lr and --cl-temperature in every program that has them
for p in pattern-dists train-cl query; do
    if "$p" --help | grep -q -- '^  --cl-lr ' && "$p" --help | grep -q -- '^  --cl-temperature '; then pass "cl_names_$p"
    else fail "cl_names_$p" "no --cl-lr or --cl-temperature"; fi
done
for name in infer pattern-dists train-cl train-mlm expand; do
    expect_exit "no_positional_$name" 2 "unexpected argument 'stray'" "$name" stray
done
expect_exit one_positional_inspect 2 "unexpected argument 'two.mp'" inspect "$fx" two.mp
