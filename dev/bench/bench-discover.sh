#!/usr/bin/env bash
# bench-discover.sh BIN CURATED OUT: entity discovery against a curated dataset.
# The curated sentences with their mention annotations removed (each sentence's
# tokens joined, one per line) go through `annotate --discover --lines`; the
# curated classes are mapped onto the discovered entities by name
# (discover_map.sh: recall of the ground-truth members); then the full ProbExpan
# pipeline runs on both datasets with the same seeds, and `query --queries` (the
# inductive path users run) from each pipeline's index; evaluate prints MAP of both
# protocols side by side. With WordNet installed (WORDNET_DIR, default /usr/share/wordnet),
# the discovered run is also scored against every discovered entity that WordNet
# names as a class member (examples/wordnet/wordnet.awk's class lists with every
# lemma of a member synset: a name is a member when any of its senses is, the rule
# of wordnet-ese's own gt, so that both datasets are scored by one rule), also
# those the curated list lacks; the curated run also against the same lists mapped onto
# its entities (OUT/wordnet/curated), so that both are scored by one rule (WORDNET_CLASSES=0:
# not, for datasets whose classes are no WordNet classes). THREADS goes to the pipeline
# and to query. DISCOVER_FLAGS go to annotate (e.g. --min-count 2).
# JUDGED (a path prefix, see discover_judge.sh): also the precision and merge
# precision of the discovered names from those hand judgements. Last, discover_slots.sh
# lists each top-10 slot without a member of both runs in OUT/slots.txt and prints its counts.
set -euo pipefail
bin=$1 curated=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -d "$curated" ]; then sentences=$curated/sentences.json; else
    tar xzf "$curated" -C "$out" --wildcards '*sentences.json' && sentences=$(find "$out" -name sentences.json -not -path '*/discovered/*' | head -n1); fi
jq -r '.tokens | join(" ")' "$sentences" >"$out/text.txt"
echo "text: $(wc -l <"$out/text.txt") lines, $(wc -c <"$out/text.txt") bytes"
/usr/bin/time -f 'annotate --discover: %e s wall, %M KB peak RSS' \
    "$bin/annotate" --quiet --discover --lines ${DISCOVER_FLAGS:-} --out "$out/discovered" "$out/text.txt"
echo "candidates (entities of the discovered dataset): $(wc -l <"$out/discovered/entity2id.txt")"
bash "$here/discover_map.sh" "$curated" "$out/discovered"
[ -z "${JUDGED:-}" ] || bash "$here/discover_judge.sh" "$out/discovered" "$JUDGED"
wordnet=${WORDNET_DIR:-/usr/share/wordnet}
if [ -r "$wordnet/data.noun" ] && [ "${WORDNET_CLASSES:-1}" = 1 ]; then
    rm -rf "$out/wordnet" && mkdir -p "$out/wordnet/classes" "$out/wordnet/data"
    awk -v out="$out/wordnet" -v class_names=all -f "$root/examples/wordnet/wordnet.awk" "$wordnet/data.noun" >/dev/null
    cp "$out/discovered/entity2id.txt" "$out/wordnet/data/"
    [ ! -f "$out/discovered/aliases.txt" ] || cp "$out/discovered/aliases.txt" "$out/wordnet/data/"
    echo "with WordNet's class lists:"
    bash "$here/discover_map.sh" "$curated" "$out/wordnet/data" "$out/wordnet/classes" | grep -v recall
    # the curated entities scored by the same rule: WordNet's lists mapped onto them
    rm -rf "$out/wordnet/curated" && mkdir -p "$out/wordnet/curated"
    if [ -d "$curated" ]; then csrc=$curated; else csrc=$(dirname "$sentences") && tar xzf "$curated" -C "$out" --exclude '*sentences.json'; fi
    cp "$csrc/entity2id.txt" "$out/wordnet/curated/"
    [ ! -f "$csrc/aliases.txt" ] || cp "$csrc/aliases.txt" "$out/wordnet/curated/"
    bash "$here/discover_map.sh" "$curated" "$out/wordnet/curated" "$out/wordnet/classes" | tail -n 1
fi
# both protocols on both lists: the transductive pipeline (full) and the inductive
# `query --queries` from the pipeline's index (each seed set on its own, as users run it)
for v in discovered curated; do
    data=$out/discovered
    [ $v = curated ] && data=$curated
    make -s -C "$root" -f pipelines/probexpan.mk BIN="$bin" DATA="$data" RUN="$out/run-$v" full >"$out/run-$v.log" 2>&1
    "$bin/query" --threads "${THREADS:-0}" --index "$out/run-$v/index.mp" --queries "$data" \
        --out "$out/run-$v/query.mp" 2>"$out/run-$v/query.log"
done
for p in full/ranked query; do
    echo "${p%/ranked}:"
    "$bin/evaluate" --quiet --gt "$out/discovered" discovered="$out/run-discovered/$p.mp"
    [ "${WORDNET_CLASSES:-1}" != 1 ] || [ ! -d "$out/wordnet/data" ] ||
        "$bin/evaluate" --quiet --gt "$out/wordnet/data" discovered-wordnet-gt="$out/run-discovered/$p.mp"
    "$bin/evaluate" --quiet --gt "$curated" curated="$out/run-curated/$p.mp"
    [ "${WORDNET_CLASSES:-1}" != 1 ] || [ ! -d "$out/wordnet/curated" ] ||
        "$bin/evaluate" --quiet --gt "$out/wordnet/curated" curated-wordnet-gt="$out/run-curated/$p.mp"
done
# where the discovered run loses, slot by slot (the whole list in OUT/slots.txt)
gt=$out/discovered
[ "${WORDNET_CLASSES:-1}" != 1 ] || [ ! -d "$out/wordnet/data" ] || gt=$out/wordnet/data
BIN=$bin bash "$here/discover_slots.sh" "$curated" "$out/discovered" "$gt" \
    "$out/run-curated/full/ranked.mp" "$out/run-discovered/full/ranked.mp" >"$out/slots.txt"
tail -n 2 "$out/slots.txt"
