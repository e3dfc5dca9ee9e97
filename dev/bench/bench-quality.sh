#!/usr/bin/env bash
# bench-quality.sh BIN OUT DATA...: the quality suite across genres (make bench-quality,
# docs/quality.md). For each dataset DATA (a folder or archive; its name is DATA's base name
# without .tar.gz): the corpus index (pipelines/probexpan.mk index), `query --queries` with the
# default variant (full) and --variant noclen, each query on its own, and the transductive
# pipeline's variants $BENCH_QUALITY_VARIANTS (default "noclen nocl full"; "noclen noen nocl full"
# is the whole ablation; "none" skips the pipeline rows). Every ranking is scored by evaluate,
# the official protocol, with dev/bench/quality/pool/<name>/ as --pool when that folder holds judgements. A dataset with
# hand-judged seed sets — $BENCH_QUALITY_JUDGED, "name=DIR" with DIR/query/<class>.txt and
# DIR/judged/<class>.tsv — is also queried on those seed sets (same index), scored with
# P@10/P@20 against the judgements. A dataset over another's corpus — $BENCH_QUALITY_SHARED_INDEX,
# "name=other" (the held-out classes of make wordnet-heldout over wordnet-ese dev) — is queried
# from that corpus's index (listed first in DATA) and has no pipeline rows: the transductive
# pipeline would tokenize and index the same corpus again in a run of its own.
# Prints one table: a row per method and corpus — MAP@10/20/50 (official), MAP@10 with the
# seeds out of the denominator, P@10/P@20 and unjudged@20 where judged, the share of entities
# with <= 5 mentions in the top 20 and among the classes' members, the query runs' per-query
# wall and CPU p50 — then per method the mean over the corpora and the worst corpus (MAP@10).
# Runs are kept in OUT/<name>/ and redone when missing or older than what they are made of (the
# dataset for the mention counts; the index, which the pipeline rebuilds when the dataset
# changes, and bin/query for the query runs); delete OUT to measure afresh.
set -euo pipefail
bin=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
variants=${BENCH_QUALITY_VARIANTS:-noclen nocl full}
threads=${BENCH_QUALITY_THREADS:-1}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rows=$out/rows.tsv
: >"$rows"

name_of() { local b; b=$(basename "${1%/}"); b=${b%.tar.gz}; b=${b%.tgz}; echo "$b"; }

# mentions NAME DATA: OUT/NAME/mentions.tsv, "eid<TAB>mentions" of every entity mentioned
mentions() {
    local f=$out/$1/mentions.tsv src=$2
    [ -s "$f" ] && [ "$f" -nt "$src" ] && { [ ! -d "$src" ] || [ "$f" -nt "$src/sentences.json" ]; } && return
    if [ ! -d "$src" ]; then
        mkdir -p "$out/$1/data" && tar xzf "$src" -C "$out/$1/data" --wildcards '*sentences.json' '*gt/*'
        src=$(dirname "$(find "$out/$1/data" -name sentences.json | head -n1)")
    fi
    jq -r '.entityMentions[].entityId' "$src/sentences.json" | sort -n | uniq -c | awk '{ print $2 "\t" $1 }' >"$f.tmp"
    mv "$f.tmp" "$f"
}

# gt_folder NAME DATA: the dataset's gt/ folder as files
gt_folder() { if [ -d "$2" ]; then echo "$2/gt"; else dirname "$(find "$out/$1/data" -path '*gt/*' -name '*.txt' | head -n1)"; fi; }

# row METHOD CORPUS RANKED [evaluate options...]: one row of the table
row() {
    local method=$1 corpus=$2 ranked=$3 name=$4 gtdir=$5 timing=$6
    shift 6
    local tsv ns
    tsv=$("$bin/evaluate" --quiet --format tsv "$@" "$ranked" | awk -F'\t' '$3 == "overall"')
    ns=$("$bin/evaluate" --quiet --format tsv --ap-denominator non-seeds "$@" "$ranked" | awk -F'\t' '$3 == "overall" { print $5 }')
    # the share of <= 5-mention entities in the lists' top 20 (seeds left out) and among the members
    local short
    short=$("$bin/inspect" "$ranked" | tail -n +3 | jq -r '. as $r | (.entities - .seeds)[:20][] | "L\t\($r.class)\t\(.)"' |
        cat - <(for g in "$gtdir"/*.txt; do awk -F'\t' -v c="$(basename "$g" .txt)" '$3 >= 1 { print "G\t" c "\t" $1 }' "$g"; done) |
        awk -F'\t' 'NR == FNR { m[$1] = $2; next }
            $1 == "L" { nl++; sl += (m[$3] + 0 <= 5); used[$2] = 1; next }
            { g[++ng] = $2; ge[ng] = $3 }
            END { for (i = 1; i <= ng; i++) if (g[i] in used) { nm++; sm += (m[ge[i]] + 0 <= 5) }
                  printf "%.3f\t%.3f", nl ? sl / nl : 0, nm ? sm / nm : 0 }' "$out/$name/mentions.tsv" -)
    echo "$tsv" | awk -F'\t' -v OFS='\t' -v m="$method" -v c="$corpus" -v ns="$ns" -v short="$short" -v t="$timing" '
        { p10 = NF >= 9 ? $9 : "-"; p20 = NF >= 10 ? $10 : "-"; un = NF >= 11 ? $11 : "-"
          print m, c, $5, $6, $7, ns, p10, p20, un, short, t }' >>"$rows"
}

# pipeline LOG VAR=VALUE... TARGET: pipelines/probexpan.mk, its output in LOG (its end shown on failure)
pipeline() {
    local log=$1
    shift
    /usr/bin/time -f '%e s wall, %U s user, %S s system, %M KB peak RSS' -o "$log.time" \
        make -s -C "$root" -f pipelines/probexpan.mk "$@" >"$log" 2>&1 || { tail -n 20 "$log" >&2; exit 1; }
}

# query_run RUN DATA VARIANT OUT.mp: query --queries, its "wall p50<TAB>CPU p50" on stdout
query_run() {
    local log=${4%.mp}.log
    if [ ! -s "$4" ] || [ ! "$4" -nt "$1/index.mp" ] || [ ! "$4" -nt "$bin/query" ]; then "$bin/query" --threads "$threads" --index "$1/index.mp" --queries "$2" --variant "$3" --out "$4" 2>"$log"; fi
    local t
    t=$(sed -n 's/.*queries: wall p50 \([0-9.]*\) s.*CPU p50 \([0-9.]*\) s.*/\1\t\2/p' "$log" | tail -n1)
    echo "${t:--	-}"
}

for data in "$@"; do
    name=$(name_of "$data")
    run=$out/$name/run # the pipeline's folder; the suite's own files beside it
    mkdir -p "$out/$name"
    echo "== $name" >&2
    shared=
    for s in ${BENCH_QUALITY_SHARED_INDEX:-}; do [ "${s%%=*}" != "$name" ] || shared=${s#*=}; done
    if [ -n "$shared" ]; then
        run=$out/$shared/run
        [ -s "$run/index.mp" ] || { echo "bench-quality.sh: $name uses $shared's index: list $shared before it" >&2; exit 2; }
    else
        pipeline "$out/$name/index.log" BIN="$bin" DATA="$data" RUN="$run" THREADS="$threads" index
    fi
    mentions "$name" "$data"
    gtdir=$(gt_folder "$name" "$data")
    pool=()
    if ls "$root/dev/bench/quality/pool/$name/"*.tsv >/dev/null 2>&1; then pool=(--pool "$root/dev/bench/quality/pool/$name"); fi
    for v in full noclen; do
        t=$(query_run "$run" "$data" "$v" "$out/$name/query-$v.mp")
        row "query $v" "$name" "$out/$name/query-$v.mp" "$name" "$gtdir" "$t" "${pool[@]}"
    done
    if [ -z "$shared" ] && [ "$variants" != none ]; then
        pipeline "$out/$name/pipeline.log" BIN="$bin" DATA="$data" RUN="$run" THREADS="$threads" VARIANTS="$variants" ablation
        for v in $variants; do row "pipeline $v" "$name" "$run/$v/ranked.mp" "$name" "$gtdir" "-	-" "${pool[@]}"; done
    fi
    for j in ${BENCH_QUALITY_JUDGED:-}; do
        [ "${j%%=*}" = "$name" ] || continue
        dir=${j#*=}
        dir=$(cd "$dir" && pwd)
        jd=$out/$name/judged-data
        if [ ! -d "$jd" ]; then # the dataset with the hand-picked seed sets as its query/
            src=$data
            [ -d "$src" ] || src=$(dirname "$gtdir")
            mkdir -p "$jd"
            for f in entity2id.txt aliases.txt sentences.json gt; do [ ! -e "$src/$f" ] || ln -s "$(cd "$src" && pwd)/$f" "$jd/$f"; done
            ln -s "$dir/query" "$jd/query"
        fi
        for v in full noclen; do
            t=$(query_run "$run" "$jd" "$v" "$out/$name/judged-$v.mp")
            row "query $v" "$name judged" "$out/$name/judged-$v.mp" "$name" "$gtdir" "$t" --pool "$dir/judged"
        done
    done
done

# the table: rows, then per method the mean over the corpora (not the judged lists) and the worst
awk -F'\t' '
    function f(x) { return x == "-" || x == "" ? "       -" : sprintf("%8.3f", x) }
    BEGIN { printf "%-16s %-22s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "method", "corpus", "MAP@10", "MAP@20", "MAP@50",
                   "MAP@10ns", "P@10", "P@20", "unjudg", "<=5top", "<=5gt", "wall p50", "CPU p50" }
    { if (!($1 in seen)) { seen[$1] = 1; order[++nm] = $1 }
      line[$1] = line[$1] sprintf("%-16s %-22s %s %s %s %s %s %s %s %s %s %8s %8s\n", $1, $2, f($3), f($4), f($5), f($6), f($7), f($8),
                                  f($9), f($10), f($11), $12, $13)
      if ($2 !~ / judged$/) { n[$1]++; for (k = 3; k <= 6; k++) s[$1, k] += $k
                              if (!($1 in worst) || $3 < worst[$1]) { worst[$1] = $3; wc[$1] = $2 } } }
    END { for (i = 1; i <= nm; i++) { m = order[i]; printf "%s", line[m]
              printf "%-16s %-22s %s %s %s %s\n", m, "mean (" n[m] " corpora)", f(s[m, 3] / n[m]), f(s[m, 4] / n[m]), f(s[m, 5] / n[m]), f(s[m, 6] / n[m])
              printf "%-16s %-22s %s\n", m, "worst: " wc[m], f(worst[m]) } }' "$rows" | tee "$out/table.txt"
