#!/bin/sh
# build.sh: builds the example ESE dataset from an installed WordNet 3.0
# (Debian package wordnet-base): corpus = glosses and usage examples of all parts
# of speech, entities = capitalised noun lemmas (aliases: the synset's other
# capitalised lemmas), 13 classes from instance-hypernym pointers. wordnet.awk
# extracts, `annotate` matches and writes the dataset folder. Nothing of WordNet
# is stored in the repository; it is read at build time.
#
# Usage: build.sh [--wordnet DIR] [--annotate BIN] [--min-mentions N]
#                 [--queries N] [--random-seed N] --out DIR
# Exit: 0 ok, 2 usage, 3 bad input (WordNet files missing), else annotate's code.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
wordnet=/usr/share/wordnet
annotate=annotate
min_mentions=3
queries=5
seed=20220711
out=

usage() { echo "usage: $0 [--wordnet DIR] [--annotate BIN] [--min-mentions N] [--queries N] [--random-seed N] --out DIR" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --wordnet) wordnet=${2:?}; shift 2 ;;
        --annotate) annotate=${2:?}; shift 2 ;;
        --min-mentions) min_mentions=${2:?}; shift 2 ;;
        --queries) queries=${2:?}; shift 2 ;;
        --random-seed) seed=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage ;;
    esac
done
[ -n "$out" ] || usage

if [ ! -r "$wordnet/data.noun" ]; then
    echo "build.sh: $wordnet/data.noun: not found; expected a WordNet 3.0 database folder (Debian: apt-get install wordnet-base)" >&2
    exit 3
fi
files="$wordnet/data.noun"
for pos in verb adj adv; do
    if [ -r "$wordnet/data.$pos" ]; then files="$files $wordnet/data.$pos"; fi
done

parent=$(dirname "$out")
mkdir -p "$parent"
work=$(mktemp -d "$parent/.wordnet-build.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/classes"

# shellcheck disable=SC2086
awk -v out="$work" -f "$here/wordnet.awk" $files
sed 's/^/build.sh: /' "$work/stats.txt" >&2

"$annotate" --lines --ids --entities "$work/entities.tsv" --classes "$work/classes" \
    --min-mentions "$min_mentions" --max-words 150 --queries "$queries" --random-seed "$seed" \
    --out "$out" "$work/corpus.tsv"

version=$(dpkg-query -W -f '${Version}' wordnet-base 2>/dev/null || echo unknown)
cat > "$work/SOURCES.md" <<EOT
# WordNet example dataset

Built by examples/wordnet/build.sh from $wordnet (Debian wordnet-base $version;
WordNet 3.0, Princeton University, WordNet 3.0 license: permissive, BSD-style).
Corpus: glosses and usage examples of all parts of speech. Entities: capitalised
noun lemmas. Classes: instances (@i pointers) of 13 WordNet class synsets.
Matching: annotate --min-mentions $min_mentions --max-words 150 --queries $queries --random-seed $seed.
EOT
mv "$work/SOURCES.md" "$out/SOURCES.md"
