#!/usr/bin/env bash
# bench-text: tokenize + build-samples on a dataset archive (default: the wordnet-ese dev
# set), printing input MB/s, sentences/s, peak RSS and output size for each stage.
# A benchmark, not a test. Usage: bench-text.sh BIN_DIR [DATASET] [VOCAB_SIZE]
set -eu
bin=$1
data=${2:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/data/wordnet-ese/wordnet-ese-dev.tar.gz}
nvocab=${3:-30522}
[ -r "$data" ] || { echo "bench-text: $data not found (needs ../shared)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-text.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PROBEXPAN_CATALOG=$work/catalog.sqlite
timer=""
[ -x /usr/bin/time ] && timer="/usr/bin/time -f %e:%M:%U:%S -o $work/time"

div() { awk "BEGIN { print ($1) / ($2) }"; }

run() { # label input-bytes sentences output command...
    local label=$1 bytes=$2 sents=$3 out=$4; shift 4
    local t0 t1 secs rss
    t0=$(date +%s.%N)
    $timer "$@" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    rss="n/a (no /usr/bin/time)"
    [ -n "$timer" ] && rss=$(awk -F: '{ printf "%.1f MB", $2 / 1024 }' "$work/time")
    local osize=$(stat -c %s "$out") cpu=$secs
    [ -n "$timer" ] && cpu=$(awk -F: '{ print $3 + $4 }' "$work/time")
    printf '%-14s wall %6.2f s  %7.1f MB/s  %9.0f sentences/s | cpu %6.2f s  %7.1f MB/s per core | peak RSS %s, output %.1f MB (RSS/output %s)\n' \
        "$label" "$secs" "$(div "$bytes" "1000000 * $secs")" "$(div "$sents" "$secs")" \
        "$cpu" "$(div "$bytes" "1000000 * $cpu")" "$rss" "$(div "$osize" 1000000)" \
        "$( [ -n "$timer" ] && awk -F: -v o="$osize" '{ printf "%.2f", $2 * 1024 / o }' "$work/time" || echo n/a)"
    grep -h 'done:' "$work/err" | sed 's/^/               /'
}

json_bytes=$(bsdtar -xOf "$data" '*sentences.json' 2>/dev/null | wc -c || tar -xzOf "$data" --wildcards '*sentences.json' | wc -c)
[ "$json_bytes" -gt 0 ] || json_bytes=$(tar -xzOf "$data" --wildcards '*sentences.json' | wc -c)
printf 'dataset: %s (sentences.json %.1f MB)\n' "$data" "$(div "$json_bytes" 1000000)"
# a vocabulary learned once, outside the timed runs (no pretrained vocab.txt here)
"$bin/tokenize" --quiet "$data" --learn-vocab "$nvocab" --out "$work/learn.mp" --vocab-out "$work/vocab.txt"
nsent=$("$bin/tokenize" "$data" --vocab "$work/vocab.txt" --out "$work/warm.mp" 2>&1 | sed -n 's/.*done: \([0-9,]*\) sentences.*/\1/p' | tr -d ,)
run tokenize "$json_bytes" "$nsent" "$work/corpus.mp" "$bin/tokenize" "$data" --vocab "$work/vocab.txt" --out "$work/corpus.mp"
run build-samples "$(stat -c %s "$work/corpus.mp")" "$nsent" "$work/samples.mp" \
    "$bin/build-samples" --corpus "$work/corpus.mp" --out "$work/samples.mp"
run learn-vocab "$json_bytes" "$nsent" "$work/vocab2.txt" \
    "$bin/tokenize" "$data" --learn-vocab "$nvocab" --out "$work/learn2.mp" --vocab-out "$work/vocab2.txt"
