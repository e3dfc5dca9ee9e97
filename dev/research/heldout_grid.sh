#!/usr/bin/env bash
# heldout_grid.sh: the sensitivity of the tunable defaults on the held-out classes against the
# other corpora of the quality suite (dev/research/heldout-classes.md). A setting is an index
# built with some `index` options and `query --queries` run with some query options and one
# variant; every setting runs on every corpus, one process at a time, --threads 1, and is kept
# (a run whose ranking exists is not redone). Prints OUT/results.tsv: setting, corpus, variant,
# MAP@10, MAP@20, MAP@50 (evaluate's official protocol; with --pool where a corpus has one).
# Then OUT/loco.tsv, leave-one-corpus-out per option: the settings "FAMILY-VALUE" (genus-0,
# genus-6, ...) and "default" are the values of FAMILY; for each variant and each corpus held
# out, the value with the best mean MAP@10 over the other corpora (only values run on every
# corpus, and only families with two such values; ties: the default) — variant, family, corpus held out, value chosen, its MAP@10 on
# the held-out corpus, the default's there.
#
# Usage: bash dev/research/heldout_grid.sh OUT SETTINGS CORPUS...
#   SETTINGS: a file, one setting a line: name<TAB>variant<TAB>index options<TAB>query options
#             ("-" for none)
#   CORPUS:   name=SAMPLES=DATA[=POOL]: the corpus's samples.mp (build-samples), the dataset
#             whose query/ and gt/ are run, and optionally an evaluate --pool folder
#   BIN: the programs (default bin)
set -euo pipefail
out=${1:?output folder}; settings=${2:?settings file}; shift 2
bin=${BIN:-bin}
mkdir -p "$out"
export PROBEXPAN_CATALOG=$out/catalog.sqlite
results=$out/results.tsv
touch "$results"
while IFS=$'\t' read -r name variant iflags qflags; do
    [ -n "$name" ] && [ "${name:0:1}" != "#" ] || continue
    [ "$iflags" != "-" ] || iflags=
    [ "$qflags" != "-" ] || qflags=
    for c in "$@"; do
        IFS='=' read -r corpus samples data pool <<<"$c"
        grep -q "^$name	$corpus	$variant	" "$results" && continue
        ikey=$(printf '%s' "$iflags" | tr -c 'a-z0-9.-' '_')
        index=$out/index-$(printf '%s' "$samples" | cksum | cut -d' ' -f1)${ikey:+-$ikey}.mp # corpora sharing samples share it
        mkdir -p "$out/$corpus"
        # shellcheck disable=SC2086
        [ -s "$index" ] || "$bin/index" --quiet --threads 1 --samples "$samples" $iflags --out "$index"
        ranked=$out/$corpus/$name-$variant.mp
        # shellcheck disable=SC2086
        [ -s "$ranked" ] || "$bin/query" --quiet --threads 1 --index "$index" --queries "$data" --variant "$variant" $qflags --out "$ranked"
        "$bin/evaluate" --quiet --format tsv --gt "$data" ${pool:+--pool "$pool"} "$ranked" |
            awk -F'\t' -v OFS='\t' -v s="$name" -v c="$corpus" -v v="$variant" '$3 == "overall" { print s, c, v, $5, $6, $7 }' >>"$results"
    done
done <"$settings"
cat "$results"
awk -F'\t' -v OFS='\t' '
    { map[$1, $3, $2] = $4; corp[$2] = 1; v[$3] = 1
      if ($1 != "default") { f = $1; sub(/-[^-]*$/, "", f); val = substr($1, length(f) + 2); fam[f, $3] = fam[f, $3] " " val; setting[f, val] = $1 } }
    END { for (fv in fam) {
              split(fv, k, SUBSEP); f = k[1]; var = k[2]
              nval = split("default" fam[fv], vals, " ")
              for (h in corp) {
                  best = ""; bestm = -1; ncomplete = 0
                  for (i = 1; i <= nval; i++) {
                      s = vals[i] == "default" ? "default" : setting[f, vals[i]]
                      sum = 0; n = 0; complete = 1
                      for (c in corp) { if (!((s, var, c) in map)) complete = 0; else if (c != h) { sum += map[s, var, c]; n++ } }
                      if (!complete || !n) continue
                      ncomplete++
                      if (sum / n > bestm + 1e-9) { bestm = sum / n; best = s; bestv = vals[i] }
                  }
                  if (ncomplete > 1 && ("default", var, h) in map) print var, f, h, bestv, map[best, var, h], map["default", var, h]
              } } }' "$results" | sort | { printf 'variant\tfamily\theld_out\tchosen\tits_map10\tdefault_map10\n'; cat; } >"$out/loco.tsv"
