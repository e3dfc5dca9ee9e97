# signals.sh: a program stopped by SIGTERM/SIGINT/SIGHUP mid-run leaves no temporary file
# behind, dies of the signal and is recorded in the catalog with status 128+signal; a
# reader of stdout that goes away (`| head -1`) ends the program quietly with exit 0; what a
# SIGKILL leaves is removed by the next run of the same output.
source "$(dirname "$0")/lib.sh"
printf 'Ohio\nTexas\n' >"$WORK/names.tsv"
# annotate reads stdin until it ends: kill it while it waits, its spool file open
for sig in TERM INT HUP; do
    mkdir "$WORK/$sig"
    annotate --entities "$WORK/names.tsv" --out "$WORK/$sig/data" < <(printf 'Ohio is here. Texas too.\n'; sleep 30) 2>/dev/null &
    pid=$!
    for _ in $(seq 200); do ls -A "$WORK/$sig" | grep -q spool && break; sleep 0.05; done
    ls -A "$WORK/$sig" | grep -q spool || fail "annotate_$sig" "no spool file appeared"
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    num=$(kill -l "$sig")
    if [ "$rc" = $((128 + num)) ] && [ -z "$(ls -A "$WORK/$sig")" ]; then pass "annotate_$sig"
    else fail "annotate_$sig" "exit $rc, left: $(ls -A "$WORK/$sig" | tr '\n' ' ')"; fi
    n=$(catalog runs | awk -v s=$((128 + num)) '$2 == "annotate" && $3 == s' | wc -l)
    [ "$n" = 1 ] && pass "annotate_${sig}_recorded" || fail "annotate_${sig}_recorded" "$n runs with status $((128 + num))"
done

# SIGKILL cannot be caught: the killed run's temporary files stay until a later run of the
# same output removes them (their owner process is gone); other files are never touched
mkdir "$WORK/kill"
annotate --entities "$WORK/names.tsv" --out "$WORK/kill/data" < <(printf 'Ohio is here. Texas too.\n'; sleep 30) 2>/dev/null &
pid=$!
for _ in $(seq 200); do ls -A "$WORK/kill" | grep -q spool && break; sleep 0.05; done
kill -KILL "$pid"; wait "$pid" 2>/dev/null
left=$(ls -A "$WORK/kill")
printf 'x\n' >"$WORK/kill/.data.spool-mine"   # not a name of annotate's: kept
printf 'Ohio is here. Texas too.\n' | annotate --quiet --entities "$WORK/names.tsv" --min-mentions 1 --out "$WORK/kill/data"
if [ -n "$left" ] && [ ! -e "$WORK/kill/$left" ] && [ -d "$WORK/kill/data" ] && [ -e "$WORK/kill/.data.spool-mine" ] &&
   [ "$(ls -A "$WORK/kill" | wc -l)" = 2 ]; then pass annotate_kill_cleaned_later
else fail annotate_kill_cleaned_later "killed run left '$left'; now: $(ls -A "$WORK/kill" | tr '\n' ' ')"; fi
# an artifact writer killed mid-write (test_dists --write blocks reading its rows)
(printf '2\n0\ta\n1\tb\n'; sleep 30) | "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/kill/d.mp" &
pid=$!
for _ in $(seq 200); do ls -A "$WORK/kill" | grep -q 'd\.mp\.tmp\.' && break; sleep 0.05; done
left=$(ls -A "$WORK/kill" | grep 'd\.mp\.tmp\.')
kill -KILL "$pid"
wait "$pid" 2>/dev/null
: >"$WORK/kill/d.mp.tmp.other"
printf '2\n0\ta\n1\tb\n1 0\n0 1\n' | "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/kill/d.mp" 2>"$WORK/err"
if [ -n "$left" ] && [ ! -e "$WORK/kill/$left" ] && [ -s "$WORK/kill/d.mp" ] && [ -e "$WORK/kill/d.mp.tmp.other" ] &&
   grep -q "removed .*$left, left by process $pid" "$WORK/err"; then pass writer_kill_cleaned_later
else fail writer_kill_cleaned_later "killed run left '$left'; now: $(ls -A "$WORK/kill" | tr '\n' ' '); $(cat "$WORK/err")"; fi

# EPIPE: outputs far larger than a pipe buffer, read by head: exit 0, nothing on stderr,
# and expand still writes its artifact
awk 'BEGIN { n = 400; print n; for (i = 0; i < n; i++) print i "\te" i
             for (i = 0; i < n; i++) { for (j = 0; j < n; j++) printf "%s%g", (j ? " " : ""), 1 / n; print "" } }' |
    "$PROBEXPAN_TESTBIN/test_dists" --write "$WORK/big.mp"
inspect --full "$WORK/big.mp" 2>"$WORK/err" | head -n 1 >"$WORK/first"
rc=${PIPESTATUS[0]}
if [ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && grep -q '"kind":"dists"' "$WORK/first"; then pass inspect_head
else fail inspect_head "exit $rc: $(cat "$WORK/err")"; fi
awk 'BEGIN { for (i = 0; i < 300; i++) print i, i + 1 }' >"$WORK/many.txt"
expand --dists "$WORK/big.mp" --queries "$WORK/many.txt" --size 100 --names --out "$WORK/e.mp" 2>"$WORK/err" | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] && [ -s "$WORK/e.mp" ] && pass expand_names_head || fail expand_names_head "exit $rc: $(tail -n 2 "$WORK/err")"
