#!/bin/sh
# heldout.sh: held-out classes over a WordNet-built dataset (make wordnet-heldout,
# docs/quality.md "Held-out classes"). Writes a dataset folder with DATA's corpus and entities
# (sentences.json, entity2id.txt, aliases.txt when present) and, instead of DATA's classes, the
# classes heldout.awk chooses by its rule from an installed WordNet 3.0 (Debian wordnet-base):
# noun synsets with enough instance members among DATA's entities, few of them in DATA's own
# classes (gt/), no near-duplicates. wordnet.awk -v mode=instances reads WordNet.
#
# Usage: heldout.sh [--wordnet DIR] [--min-members N] [--max-classes N] [--queries N]
#                   [--random-seed N] --data DATASET --out DIR
#   DATASET: a dataset folder or .tar.gz archive (one dataset inside)
# Exit: 0 ok, 2 usage, 3 bad input (WordNet or the dataset's files missing).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
wordnet=/usr/share/wordnet
min_members=15
max_classes=20
queries=5
seed=20220711
data=
out=

usage() { echo "usage: $0 [--wordnet DIR] [--min-members N] [--max-classes N] [--queries N] [--random-seed N] --data DATASET --out DIR" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --wordnet) wordnet=${2:?}; shift 2 ;;
        --min-members) min_members=${2:?}; shift 2 ;;
        --max-classes) max_classes=${2:?}; shift 2 ;;
        --queries) queries=${2:?}; shift 2 ;;
        --random-seed) seed=${2:?}; shift 2 ;;
        --data) data=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage ;;
    esac
done
[ -n "$data" ] && [ -n "$out" ] || usage
# an existing --out is replaced only when this script wrote it (its marker) or it is empty
if [ -d "$out" ] && [ ! -e "$out/.heldout-dataset" ] && [ -n "$(ls -A "$out")" ]; then
    echo "heldout.sh: $out: exists and was not written by heldout.sh; choose a new or empty folder" >&2; exit 2
fi

if [ ! -r "$wordnet/data.noun" ]; then
    echo "heldout.sh: $wordnet/data.noun: not found; expected a WordNet 3.0 database folder (Debian: apt-get install wordnet-base)" >&2
    exit 3
fi
parent=$(dirname "$out")
mkdir -p "$parent"
work=$(mktemp -d "$parent/.heldout-build.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# the dataset's files, from a folder or an archive
mkdir "$work/data" "$work/out"
if [ -d "$data" ]; then
    src=$data
elif [ -r "$data" ]; then
    tar xzf "$data" -C "$work/data" || { echo "heldout.sh: $data: not a readable .tar.gz archive" >&2; exit 3; }
    src=$(dirname "$(find "$work/data" -name entity2id.txt | head -n 1)")
else
    echo "heldout.sh: $data: no such dataset folder or archive" >&2; exit 3
fi
for f in entity2id.txt sentences.json; do
    [ -r "$src/$f" ] || { echo "heldout.sh: $data: no $f in the dataset" >&2; exit 3; }
done
ls "$src"/gt/*.txt >/dev/null 2>&1 || { echo "heldout.sh: $data: no gt/<class>.txt in the dataset (the classes to hold out from)" >&2; exit 3; }

awk -v out="$work" -v mode=instances -f "$here/wordnet.awk" "$wordnet/data.noun"
grep -o '"entityId": *[0-9]*' "$src/sentences.json" | awk -F: '{ n[$2 + 0]++ } END { for (e in n) print e "\t" n[e] }' >"$work/mentions.tsv"
awk -v out="$work/out" -v min_members="$min_members" -v max_classes="$max_classes" -v queries="$queries" -v seed="$seed" -f "$here/heldout.awk" \
    part=entities "$src/entity2id.txt" part=mentions "$work/mentions.tsv" part=dev "$src"/gt/*.txt \
    part=senses "$work/senses.tsv" part=instances "$work/instances.tsv" | sed 's/^/heldout.sh: /' >&2
for f in entity2id.txt aliases.txt sentences.json; do
    if [ -e "$src/$f" ]; then if [ -d "$data" ]; then cp "$src/$f" "$work/out/"; else mv "$src/$f" "$work/out/"; fi; fi
done
version=$(dpkg-query -W -f '${Version}' wordnet-base 2>/dev/null || echo unknown)
cat >"$work/out/SOURCES.md" <<EOT
# Held-out classes over $(basename "$data")

Built by examples/wordnet/heldout.sh from $wordnet (Debian wordnet-base $version; WordNet 3.0,
Princeton University, WordNet 3.0 license) and the dataset $(basename "$data"), whose corpus and
entities (sentences.json, entity2id.txt) are copied unchanged (their sources: that dataset's
SOURCES.md). Classes: chosen by examples/wordnet/heldout.awk's rule (classes.tsv lists them),
none of the dataset's own classes; queries: $queries x 3 seeds a class, random seed $seed.
EOT
: >"$work/out/.heldout-dataset"
rm -rf "$out"
mv "$work/out" "$out"
