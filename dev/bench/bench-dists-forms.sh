#!/usr/bin/env bash
# bench-dists-forms.sh REDUCE BINDIR DATASET DISTS K...: the encoder-dists decision —
# expand (size 100) + rerank ($RERANK_FLAGS) + evaluate on DISTS in each storage form,
# with the default candidate order (mean) and with logz (the order that reads
# log-probabilities):
#   two matrices  the schema-1 file as written, read by the schema-1 programs in $OLD_BIN
#                 (logz reads the stored mean of log-softmax); skipped when OLD_BIN is unset
#   one matrix    mean_prob alone, the log derived on read (this repository's reader)
#   topK          each row's K largest entries plus the remaining mass spread evenly
#                 (written dense by REDUCE, so the same reader measures it)
# Prints MAP@10/20/50, the mean overlap of each query's top 50 with the first form's, and
# the form's size at this V_e. A benchmark, not a test.
set -eu
reduce=$1 bin=$2 data=$3 dists=$4
shift 4
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-dists-forms.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export PROBEXPAN_CATALOG=$dir/catalog.sqlite
n=$("$bin/inspect" "$dists" | sed -n 2p | jq '.entities')
stride=$(( (4 * n + 5 + 63) / 64 * 64 ))
echo "== dists forms: $dists (V_e = $n), rerank ${RERANK_FLAGS:-(default)}; uptime:$(uptime | sed 's/.*load/ load/') =="
top50() { "$bin/inspect" "$1" | jq -c 'select(.class) | .entities[:50]'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }
printf '%-13s %-6s %8s %8s %8s %10s %10s\n' form cands MAP@10 MAP@20 MAP@50 top50-same size
ref=
for form in ${OLD_BIN:+two-matrices} one-matrix $(for k in "$@"; do echo "top$k"; done); do
    file=$dists use=$bin size=$((n * stride))
    case $form in
    two-matrices) use=$OLD_BIN size=$((2 * n * stride)) ;;
    top*) file=$dir/f.mp size=$((n * (${form#top} * 8 + 4))); "$reduce" --quiet --k "${form#top}" "$dists" "$file" ;;
    esac
    ref=${ref:-$form}
    for cand in mean logz; do
        "$use/expand" --quiet --dists "$file" --queries "$data" --size 100 --candidates $cand --out "$dir/x.mp"
        # shellcheck disable=SC2086
        "$use/rerank" --quiet --dists "$file" ${RERANK_FLAGS:-} --out "$dir/r-$form-$cand.mp" "$dir/x.mp"
        "$bin/evaluate" --quiet --gt "$data" --out "$dir/e.mp" "$form=$dir/r-$form-$cand.mp" >/dev/null
        map=$("$bin/inspect" "$dir/e.mp" | tail -n 1 | jq -r '.runs[0].overall.map[0:3] | map(. * 10000 | round / 10000) | @tsv')
        same=$(paste -d'\n' <(top50 "$dir/r-$ref-$cand.mp") <(top50 "$dir/r-$form-$cand.mp") |
            jq -s '[range(0; length; 2) as $i | .[$i] as $a | .[$i + 1] as $b
                    | ([$b[] | select(. as $x | $a | index($x))] | length) / ($a | length)] | add / length')
        printf '%-13s %-6s %8s %8s %8s %10.3f %10s\n' "$form" $cand $map "$same" "$(mb $size)"
    done
    [ "$file" = "$dists" ] || rm -f "$file"
done
