#!/usr/bin/env bash
# bench-discover-text.sh BIN TEXT OUT JUDGED [NAME...]: entity discovery on raw text
# nobody prepared (FOLDOC, the Jargon File): `annotate --discover` on TEXT, then
# discover_judge.sh (precision and merge precision from the hand judgements
# JUDGED.tsv, JUDGED-merges.tsv; markup fragments), and whether each NAME was
# discovered (as a name or an alias). annotate detects the text's layout (FOLDOC:
# dictd, its {link} markup stripped; the Jargon File: wrapped plain text);
# DISCOVER_FLAGS passes more options (e.g. --format NAME).
set -euo pipefail
bin=$1 text=$2 out=$3 judged=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
[ -r "$text" ] || { echo "bench-discover-text: $text not found" >&2; exit 1; }
mkdir -p "$out"
echo "text: $(wc -l <"$text") lines, $(wc -c <"$text") bytes"
rm -rf "$out/discovered"
/usr/bin/time -f 'annotate --discover: %U s CPU, %M KB peak RSS' \
    "$bin/annotate" --quiet --discover ${DISCOVER_FLAGS:-} --out "$out/discovered" "$text"
bash "$here/discover_judge.sh" "$out/discovered" "$judged"
for name in "$@"; do
    line=$(awk -F'\t' -v n="$name" '!/^#/ && !found { for (i = 1; i <= NF && $i !~ /^#/; i++) if ($i == n) { print; found = 1 } }' "$out/discovered/names.tsv")
    if [ -n "$line" ]; then echo "'$name' discovered: $(printf '%s' "$line" | cut -f1) ($(printf '%s' "$line" | grep -o '# [0-9]* mentions' | tr -d '#'))"
    else echo "'$name' not discovered"; fi
done
