# pipeline-lock.sh: one pipeline at a time in a run folder. Two `make -j2` started at once
# on the same RUN both end with exit 0, the stamps are not newer than the artifacts built
# from them (a third run rebuilds nothing) and no stamp temp file is left; a pipeline
# started while the run folder is locked says it waits and ends once the lock is released.
source "$(dirname "$0")/lib.sh"
MK="make --no-print-directory -f $PROBEXPAN_ROOT/pipelines/probexpan.mk BIN=$PROBEXPAN_BIN"
if ! need_shared; then skip concurrent_runs "no ../shared"; exit 0; fi
RUN=$WORK/run
ARGS="DATA=$SHARED/data/mini-ese.tar.gz RUN=$RUN K=2 THREADS=1"

$MK -j2 $ARGS phase1 >"$WORK/a.log" 2>&1 & a=$!
$MK -j2 $ARGS phase1 >"$WORK/b.log" 2>&1 & b=$!
wait $a; ra=$?; wait $b; rb=$?
if [ $ra = 0 ] && [ $rb = 0 ]; then pass concurrent_runs_end
else fail concurrent_runs_end "exit $ra and $rb: $(tail -n 2 "$WORK/a.log" "$WORK/b.log" | tr '\n' ' ')"; fi

# every artifact exists and is at least as new as each stamp and input it is built from
stale=""
newer() { [ -e "$RUN/$2" ] || stale="$stale missing:$2"; [ "$RUN/$1" -nt "$RUN/$2" ] && stale="$stale $1>$2"; }
newer params-text.txt corpus.mp
newer params-samples.txt samples.mp
newer corpus.mp samples.mp
newer params-index.txt index.mp
newer samples.mp index.mp
for k in 1 2; do newer params-patterns.txt phase1/model-$k.mp; newer index.mp phase1/model-$k.mp; done
[ -z "$stale" ] && pass stamps_not_newer || fail stamps_not_newer "$stale"
left=$(find "$RUN" -name '*.new*' -o -name '*.tmp.*')
[ -z "$left" ] && pass no_temp_left || fail no_temp_left "$left"

# a third run finds everything up to date: no stage runs, no artifact is rewritten
runs() { sqlite3 "$RUN/catalog.sqlite" 'select count(*) from runs'; }
before=$(runs); touch "$WORK/mark"
$MK -j2 $ARGS phase1 >"$WORK/c.log" 2>&1
rewritten=$(find "$RUN" -name '*.mp' -newer "$WORK/mark")
[ "$(runs)" = "$before" ] && [ -z "$rewritten" ] && pass third_run_builds_nothing ||
    fail third_run_builds_nothing "runs $before -> $(runs); rewritten: $rewritten"

# a pipeline on a locked run folder waits for the lock, says so, then ends normally
flock "$RUN" sleep 3 & holder=$!
sleep 0.5
$MK $ARGS phase1 >"$WORK/d.log" 2>&1; rd=$?
if [ $rd = 0 ] && grep -q 'another pipeline is running in .*: waiting' "$WORK/d.log" && ! kill -0 $holder 2>/dev/null; then
    pass waits_for_lock; else fail waits_for_lock "exit $rd: $(tr '\n' ' ' <"$WORK/d.log")"; fi
wait $holder
