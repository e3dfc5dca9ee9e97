# encoder-dists.sh: the encoder pipeline (ENCODER=transformer, a tiny config, mini-ese) keeps at
# most two dists files on disk at once — a watcher lists the run folder every 50 ms, and the
# make log (each dists counted from the command that writes it to the line that deletes it, a
# superset of its life) says the same — scores its models on their seed rows only
# (phase*/seedrows-k.mp), and ranks exactly as the former path: every model's full dists
# (infer), score-models --ensemble, expand and rerank, redone here from the same trained models
# (same seeds, same random seed), give the same entities in the same order for phase 2 and the
# four variants, KL scores within 1e-6 + 1e-4 relative, and model scores within 1e-4 relative.
# A second run of the same goal runs no stage: the deleted dists are not made again.
source "$(dirname "$0")/lib.sh"
if ! need_shared; then skip encoder_dists "no ../shared"; exit 0; fi
DATA=$SHARED/data/mini-ese.tar.gz
MK="make --no-print-directory -f $PROBEXPAN_ROOT/pipelines/probexpan.mk BIN=$PROBEXPAN_BIN"
TINY="ENCODER=transformer K=2 TOPK=1 EPOCHS=1 CL_EPOCHS=1 SPE=2 VOCAB_SIZE=2000 THREADS=1 ENCODER_LAYERS=1 ENCODER_HIDDEN=32 ENCODER_HEADS=2 ENCODER_FFN=64 PAIRS_FLAGS=--pairs-per-set=2"
RUN=$WORK/run

# dists_files: the full dists in the run folder, committed or being written (NAME.mp.tmp.*)
dists_files() { find "$RUN" -type f \( -name 'dists*.mp*' -o -name 'ensemble.mp*' \) 2>/dev/null; }
(
    max=0
    while [ ! -e "$WORK/done" ]; do
        n=$(dists_files | wc -l)
        [ "$n" -gt "$max" ] && { max=$n; echo "$max: $(dists_files | tr '\n' ' ')" >>"$WORK/watch"; }
        sleep 0.05
    done
) &
watcher=$!
$MK -j2 DATA="$DATA" RUN="$RUN" $TINY ablation >"$WORK/log" 2>&1
rc=$?
touch "$WORK/done"
wait $watcher
if [ $rc = 0 ]; then pass ablation_runs; else fail ablation_runs "$(tail -n 5 "$WORK/log")"; exit 0; fi

peak=$(tail -n 1 "$WORK/watch" 2>/dev/null | cut -d: -f1)
[ -n "$peak" ] && [ "$peak" -ge 1 ] && [ "$peak" -le 2 ] && pass watcher_at_most_two ||
    fail watcher_at_most_two "peak ${peak:-none}: $(tail -n 1 "$WORK/watch" 2>/dev/null)"
# the log: +1 at each infer writing a full dists (no --rows-of), -1 at each deletion
awk -v infer="$PROBEXPAN_BIN/infer " 'index($0, infer) == 1 && !/--rows-of/ {n++; if (n > m) m = n} /^probexpan.mk: deleted / {n--}
     END {print m + 0, n + 0}' "$WORK/log" >"$WORK/logcount"
read -r logpeak logleft <"$WORK/logcount"
[ "$logpeak" -le 2 ] && [ "$logpeak" -ge 1 ] && [ "$logleft" = 0 ] && pass log_at_most_two ||
    fail log_at_most_two "peak $logpeak, $logleft left"
[ "$(grep -c '^probexpan.mk: deleted ' "$WORK/log")" = 4 ] && [ -z "$(dists_files)" ] && pass all_released ||
    fail all_released "left: $(dists_files | tr '\n' ' ')"
ok=1
for p in phase1 phase3; do
    for k in 1 2; do [ "$(inspect --header "$RUN/$p/seedrows-$k.mp" | jq -r .kind)" = dists-rows ] || ok=0; done
done
[ $ok = 1 ] && pass seed_rows_artifacts || fail seed_rows_artifacts
# the seed rows are small: 60 distinct seeds of 1,843 entities
size=$(stat -c %s "$RUN/phase1/seedrows-1.mp")
[ "$size" -lt $((1843 * 1843 * 4 / 10)) ] && pass seed_rows_small || fail seed_rows_small "$size bytes"

# the former path, from the same trained models
OLD=$WORK/old
mkdir -p "$OLD"
full_dists() { infer --quiet --threads 1 --model "$1" --samples "$RUN/samples.mp" --out "$2"; }
rank() { # dists size out
    expand --quiet --threads 1 --dists "$1" --queries "$DATA" --size "$2" --out "$3.exp.mp" &&
        rerank --quiet --threads 1 --dists "$1" --out "$3" "$3.exp.mp"
}
old_ok=1
for p in phase1 phase3; do
    for k in 1 2; do full_dists "$RUN/$p/model-$k/final" "$OLD/$p-$k.mp" || old_ok=0; done
    score-models --quiet --threads 1 --queries "$DATA" --top 1 --ensemble "$OLD/$p-ens.mp" --out "$OLD/$p-scores.mp" \
        "$OLD/$p-1.mp" "$OLD/$p-2.mp" >/dev/null || old_ok=0
done
full_dists "$RUN/phase3-single/model/final" "$OLD/single.mp" || old_ok=0
rank "$OLD/phase1-1.mp" 100 "$OLD/noclen.mp" && rank "$OLD/phase1-1.mp" 200 "$OLD/phase2-single.mp" &&
    rank "$OLD/phase1-ens.mp" 100 "$OLD/nocl.mp" && rank "$OLD/phase1-ens.mp" 200 "$OLD/phase2.mp" &&
    rank "$OLD/single.mp" 100 "$OLD/noen.mp" && rank "$OLD/phase3-ens.mp" 100 "$OLD/full.mp" || old_ok=0
[ $old_ok = 1 ] && pass old_path_runs || { fail old_path_runs; exit 0; }

# model scores from seed rows vs from the full dists; the same models kept
scores() { inspect "$1" | jq -c 'select(.models) | .models[] | [.score, .selected]'; }
ok=1
for p in phase1 phase3; do
    paste <(scores "$RUN/$p/scores.mp") <(scores "$OLD/$p-scores.mp") | tr -d '[]' | tr ',\t' '  ' >"$WORK/sc.$p"
    awk '{d = $1 - $3; if (d < 0) d = -d; if (d > 1e-4 * ($3 < 0 ? -$3 : $3) || $2 != $4) bad = 1} END {exit bad || NR != 2}' \
        "$WORK/sc.$p" || { ok=0; echo "$p: $(cat "$WORK/sc.$p" | tr '\n' ';')" >&2; }
done
[ $ok = 1 ] && pass scores_from_seed_rows || fail scores_from_seed_rows "$(cat "$WORK"/sc.* | tr '\n' ';')"

# rankings: the same entities in the same order, KL scores within 1e-6 + 1e-4 relative
entities() { inspect "$1" | jq -c 'select(.entities | type == "array") | .entities'; }
klscores() { inspect "$1" | jq -c 'select(.kl_score) | .kl_score'; }
bad=""
for v in phase2 noclen nocl noen full phase2-single; do
    entities "$RUN/$v/ranked.mp" >"$WORK/ent.new"
    [ "$(wc -l <"$WORK/ent.new")" = 20 ] || { bad="$bad $v(not 20 queries)"; continue; }
    entities "$OLD/$v.mp" | cmp -s - "$WORK/ent.new" || { bad="$bad $v(order)"; continue; }
    klscores "$RUN/$v/ranked.mp" >"$WORK/kl.new"
    klscores "$OLD/$v.mp" >"$WORK/kl.old"
    numbers_close "$WORK/kl.new" "$WORK/kl.old" 1e-6 1e-4 || bad="$bad $v(kl)"
done
[ -z "$bad" ] && pass rankings_equal_old_path || fail rankings_equal_old_path "differ:$bad"

# the same goal again: up to date, no stage runs but the ablation table's evaluate (deleted
# dists are not remade)
$MK -j2 DATA="$DATA" RUN="$RUN" $TINY ablation >"$WORK/log2" 2>&1
! grep "$PROBEXPAN_BIN/" "$WORK/log2" | grep -vq "$PROBEXPAN_BIN/evaluate " && pass second_run_idle ||
    fail second_run_idle "$(grep -o 'bin/[a-z-]*' "$WORK/log2" | tr '\n' ' ')"
