# serve.sh: `probexpan serve` over a small run of mini-ese, through curl — every route (the
# classes of the corpus and `probexpan classes`, the set's name of an expansion, typed names
# resolved as `query` resolves seeds), the
# refusals (malformed JSON, wrong types, unknown entities and routes, oversize bodies, wrong
# content type, cross-origin and foreign Host), no path reaches outside the web page, CSP on
# every response and no CORS, many requests at once, the page in headless chromium
# (tests/browser/serve-page.cjs) when chromium and node are installed, and SIGTERM and SIGINT
# each answering a request in flight, refusing new ones and exiting 0.
source "$(dirname "$0")/lib.sh"
DATA=$SHARED/data/mini-ese.tar.gz
expect_exit help 0 '' serve --help
grep -q 'e.g.:' "$WORK/out" && pass help_example || fail help_example
expect_exit no_run 2 'run is required' serve
expect_exit bad_bind 2 'IPv4 or IPv6' serve --run "$WORK" --bind nowhere --data "$WORK"
expect_exit not_a_run 3 'corpus.mp: missing' serve --run "$WORK/none"
if ! need_shared || [ ! -f "$DATA" ]; then skip serve_api "no ../shared/data/mini-ese.tar.gz"; exit 0; fi
expect_exit no_index 3 'index.mp: missing' serve --run "$WORK" --data "$DATA"

RUN=$WORK/run
if ! make --no-print-directory -f "$PROBEXPAN_ROOT/pipelines/probexpan.mk" BIN="$PROBEXPAN_BIN" DATA="$DATA" RUN="$RUN" \
    THREADS=1 index >"$WORK/pipe.log" 2>&1; then
    fail run_built "$(tail -n 3 "$WORK/pipe.log")"; exit 0
fi

# start_server: serve in the background on a free port; sets PID and U (its URL).
start_server() { serve_start --run "$RUN"; }
trap 'kill -9 $PID 2>/dev/null; rm -rf "$WORK"' EXIT
if start_server; then pass starts; else fail starts "$(tail -n 3 "$WORK/serve.err")"; exit 0; fi
case $U in http://127.0.0.1:*/) pass loopback_url ;; *) fail loopback_url "$U" ;; esac

# req NAME EXPECTED_STATUS curl-args...: the body lands in $WORK/body, the headers in $WORK/hdr.
req() {
    local name=$1 want=$2; shift 2
    local got
    got=$(curl -s -m 20 -o "$WORK/body" -D "$WORK/hdr" -w '%{http_code}' "$@")
    if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "HTTP $got, expected $want: $(head -c 200 "$WORK/body")"; fi
}
# err_says PATTERN: the last body is a JSON error whose message matches PATTERN.
err_says() { jq -e --arg p "$1" '.error.message | test($p)' "$WORK/body" >/dev/null; }
post() { curl -s -m 30 -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "$1" "${U}api/expand"; }
# expect_post NAME STATUS BODY [MESSAGE-PATTERN]
expect_post() {
    local got; got=$(post "$3")
    if [ "$got" != "$2" ]; then fail "$1" "HTTP $got, expected $2: $(head -c 200 "$WORK/body")"
    elif [ -n "${4:-}" ] && ! err_says "$4"; then fail "$1" "message: $(head -c 200 "$WORK/body")"
    else pass "$1"; fi
}

# ---- the page and its headers ----
req page 200 "$U"
grep -qi '^content-type: text/html' "$WORK/hdr" && grep -q 'id="seed-input"' "$WORK/body" && pass page_html || fail page_html
grep -qi "^content-security-policy: default-src 'none'; script-src 'self'" "$WORK/hdr" && pass csp || fail csp "$(grep -i security "$WORK/hdr")"
grep -qi '^access-control' "$WORK/hdr" && fail no_cors || pass no_cors
grep -qi '^x-content-type-options: nosniff' "$WORK/hdr" && pass nosniff || fail nosniff
req api_headers 200 -H "Origin: ${U%/}" "${U}api/info"
grep -qi "^content-security-policy: default-src 'none'" "$WORK/hdr" && ! grep -qi '^access-control' "$WORK/hdr" && pass api_csp_no_cors || fail api_csp_no_cors
req error_headers 404 "${U}api/nothing"
grep -qi "^content-security-policy: default-src 'none'" "$WORK/hdr" && ! grep -qi '^access-control' "$WORK/hdr" && pass error_csp_no_cors || fail error_csp_no_cors
got=$(curl -s -m 10 -o "$WORK/body" -D "$WORK/hdr" -w '%{http_code}' -X OPTIONS -H 'Origin: http://evil.example' \
    -H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: content-type' "${U}api/expand")
case $got in 4??) ! grep -qi '^access-control' "$WORK/hdr" && pass no_cors_preflight || fail no_cors_preflight "CORS headers sent" ;;
    *) fail no_cors_preflight "HTTP $got" ;; esac
req app_js 200 "${U}app.js"
grep -qi '^content-type: text/javascript' "$WORK/hdr" && pass js_type || fail js_type
for p in '../README.md' '../../etc/passwd' '%2e%2e/Makefile' 'web/index.html' 'index.html/../app.js' 'samples.mp' 'api/../../etc/passwd'; do
    got=$(curl -s -m 10 --path-as-is -o "$WORK/body" -w '%{http_code}' "$U$p")
    [ "$got" = 404 ] && err_says 'unknown route' || { fail no_path_escape "$p gave HTTP $got"; continue; }
done
pass no_path_escape

# ---- what the run serves ----
req info 200 "${U}api/info"
jq -e '.entities > 1000 and .variants == ["full", "noen", "nocl", "noclen"] and .default_variant == "full"' "$WORK/body" >/dev/null && pass info || fail info "$(head -c 300 "$WORK/body")"

# ---- autocomplete ----
req entities 200 "${U}api/entities?prefix=oh&limit=5"
jq -e '.entities | map(.name) | index("Ohio") != null' "$WORK/body" >/dev/null && pass prefix_finds_ohio || fail prefix_finds_ohio "$(head -c 300 "$WORK/body")"
jq -e '.entities | all(.mentions > 0 and (.name | ascii_downcase | test("(^| )oh")))' "$WORK/body" >/dev/null && pass prefix_all_match || fail prefix_all_match
req entities_word 200 "${U}api/entities?prefix=york"
jq -e '.entities | map(.name) | index("New York") != null' "$WORK/body" >/dev/null && pass word_prefix || fail word_prefix
req entities_limit 200 "${U}api/entities?limit=3"
jq -e '(.entities | length) == 3 and .entities[0].mentions >= .entities[2].mentions' "$WORK/body" >/dev/null && pass empty_prefix_most_mentioned || fail empty_prefix_most_mentioned
req limit_zero 400 "${U}api/entities?prefix=a&limit=0"
req limit_text 400 "${U}api/entities?limit=ten"
req unknown_param 400 "${U}api/entities?prefx=a"
err_says 'unknown parameter' && pass unknown_param_named || fail unknown_param_named
req bad_utf8 400 "${U}api/entities?prefix=%ff%fe"

# ---- expand ----
expect_post expand 200 '{"seeds":["Ohio","Texas","Iowa"],"negative_seeds":["Utah"],"size":20,"variant":"noclen"}'
cp "$WORK/body" "$WORK/expand1.json"
jq -e '(.entities | length) == 20 and ([.entities[].rank] == [range(1; 21)]) and (.entities | all(.score != null))' "$WORK/body" >/dev/null &&
    pass expand_ranked || fail expand_ranked "$(head -c 300 "$WORK/body")"
jq -e '[.entities[].name] | (index("Ohio") == null and index("Texas") == null and index("Iowa") == null and index("Utah") == null)' "$WORK/body" >/dev/null &&
    pass expand_excludes_seeds_and_negatives || fail expand_excludes_seeds_and_negatives
jq -e '.seeds | map(.name) == ["Ohio","Texas","Iowa"]' "$WORK/body" >/dev/null && pass expand_echoes_seeds || fail expand_echoes_seeds
# the rows kept across requests (--row-cache) change nothing: a repeated request, and the
# query command (which keeps none), give the same ranking, for noclen and for the full method
cli_eids() { "$PROBEXPAN_BIN/query" --run "$RUN" --seeds Ohio,Texas,Iowa --negative-seeds Utah --size "$1" --variant "$2" 2>/dev/null | awk -F'\t' 'NR > 1 { print $2 }' | paste -sd,; }
expect_post expand_again 200 '{"seeds":["Ohio","Texas","Iowa"],"negative_seeds":["Utah"],"size":20,"variant":"noclen"}'
[ "$(jq -r '[.entities[].eid] | join(",")' "$WORK/body")" = "$(jq -r '[.entities[].eid] | join(",")' "$WORK/expand1.json")" ] &&
    [ "$(jq -r '[.entities[].eid] | join(",")' "$WORK/body")" = "$(cli_eids 20 noclen)" ] && pass kept_rows_noclen || fail kept_rows_noclen
expect_post expand_full 200 '{"seeds":["Ohio","Texas","Iowa"],"negative_seeds":["Utah"],"size":10,"variant":"full"}'
[ "$(jq -r '[.entities[].eid] | join(",")' "$WORK/body")" = "$(cli_eids 10 full)" ] && pass kept_rows_full ||
    fail kept_rows_full "$(jq -c '[.entities[].eid]' "$WORK/body") vs $(cli_eids 10 full)"
first=$(jq -r '.entities[0].name' "$WORK/expand1.json")
second=$(jq -r '.entities[1].eid' "$WORK/expand1.json")
expect_post expand_accepted 200 "{\"seeds\":[\"Ohio\",\"Texas\",\"Iowa\"],\"accepted\":[$second],\"negative_seeds\":[\"Utah\",\"$first\"],\"size\":20,\"variant\":\"noclen\"}"
jq -e --arg f "$first" '[.entities[].name] | index($f) == null' "$WORK/body" >/dev/null &&
    pass rejected_leaves_the_list || fail rejected_leaves_the_list
jq -e --argjson s "$second" '(.entities | all(.status == "candidate" and .eid != $s)) and (.accepted | length == 1)' \
    "$WORK/body" >/dev/null && pass accepted_leaves_the_list || fail accepted_leaves_the_list "$(head -c 300 "$WORK/body")"
cmp -s <(jq -c '[.entities[].eid]' "$WORK/body") <(jq -c '[.entities[].eid]' "$WORK/expand1.json") &&
    fail feedback_changes_the_list || pass feedback_changes_the_list
# an accepted entity joins the seeds: the same list as with it among the seeds
cp "$WORK/body" "$WORK/accepted.json"
expect_post expand_accepted_as_seed 200 "{\"seeds\":[\"Ohio\",\"Texas\",\"Iowa\",$second],\"negative_seeds\":[\"Utah\",\"$first\"],\"size\":20,\"variant\":\"noclen\"}"
cmp -s <(jq -c '[.entities[].eid]' "$WORK/body") <(jq -c '[.entities[].eid]' "$WORK/accepted.json") &&
    pass accepted_is_a_seed || fail accepted_is_a_seed
expect_post by_eid 200 '{"seeds":[32,5,116],"size":5,"variant":"noclen"}'
expect_post malformed_json 400 '{"seeds":["Ohio",' 'malformed JSON'
expect_post not_object 400 '["Ohio","Texas"]' 'expected a JSON object'
expect_post seeds_not_array 400 '{"seeds":"Ohio,Texas"}' 'seeds: expected an array'
expect_post seed_wrong_type 400 '{"seeds":["Ohio",true]}' 'seeds\[1\]'
expect_post size_wrong 400 '{"seeds":["Ohio","Texas"],"size":0}' '^size'
expect_post size_text 400 '{"seeds":["Ohio","Texas"],"size":"10"}' '^size'
expect_post variant_wrong 400 '{"seeds":["Ohio","Texas"],"variant":"best"}' 'variant'
expect_post unknown_key 400 '{"seeds":["Ohio","Texas"],"negatives":["Utah"]}' "unknown key 'negatives'"
expect_post missing_seeds 400 '{"size":5}' 'seeds: missing'
expect_post duplicate_key 400 '{"seeds":["Ohio"],"seeds":["Texas"]}' 'malformed JSON'
expect_post unknown_entity 422 '{"seeds":["Ohoi","Texas"]}' 'unknown entity "Ohoi"'
jq -e '.error.suggestions | map(.name) | index("Ohio") != null' "$WORK/body" >/dev/null && pass suggestions || fail suggestions "$(head -c 300 "$WORK/body")"
expect_post unknown_eid 422 '{"seeds":[99999999,5]}' 'no entity with eid 99999999'
expect_post seed_and_negative 422 '{"seeds":["Ohio","Texas"],"negative_seeds":["Texas"]}' 'both a seed and a negative'
expect_post one_seed 422 '{"seeds":["Ohio","ohio"]}' 'at least two'
head -c 70000 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
got=$(curl -s -m 20 -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$WORK/big.json" "${U}api/expand")
[ "$got" = 413 ] && err_says 'larger than' && pass oversize_body || fail oversize_body "HTTP $got"
got=$(curl -s -m 20 -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' -H 'Transfer-Encoding: chunked' --data-binary @"$WORK/big.json" "${U}api/expand")
[ "$got" = 413 ] && pass oversize_chunked || fail oversize_chunked "HTTP $got"
req wrong_content_type 415 -d '{"seeds":["Ohio","Texas"]}' "${U}api/expand"
req get_expand 405 "${U}api/expand"
req cross_origin 403 -H 'Origin: http://evil.example' -H 'Content-Type: application/json' -d '{"seeds":["Ohio","Texas"]}' "${U}api/expand"
req foreign_host 403 -H 'Host: evil.example' "${U}api/entities?prefix=oh"
req unknown_route 404 "${U}api/nothing"
err_says "unknown route" && pass unknown_route_named || fail unknown_route_named

# ---- the set's name: the definition heads the seeds share, with their support ----
expect_post set_name 200 '{"seeds":["Ohio","Texas","Iowa"],"size":20,"variant":"noclen"}'
jq -e '.set_name.heads | length > 0 and all(.seeds >= 2 and .of_seeds == 3 and .listed <= .of_listed and .of_listed == 20)' "$WORK/body" >/dev/null &&
    jq -e '.set_name.text | test("^[^ ]+ — [23]/3 seeds, [0-9]+ of the top 20")' "$WORK/body" >/dev/null &&
    pass set_name_shared_heads || fail set_name_shared_heads "$(jq -c .set_name "$WORK/body")"
head=$(jq -r '.set_name.heads[0].head' "$WORK/body")
req export_set_name 200 "${U}api/export?seed=Ohio&seed=Texas&seed=Iowa&size=20&variant=noclen&format=tsv"
tail -n 1 "$WORK/body" | grep -q "^# these look like: $head — " && [ "$(grep -c '^#' "$WORK/body")" = 1 ] &&
    pass export_set_name_last_line || fail export_set_name_last_line "$(tail -n 1 "$WORK/body")"
query --run "$RUN" --seeds Ohio,Texas,Iowa --variant noclen --size 20 --format json 2>"$WORK/q.err" >"$WORK/q.json"
jq -e --arg h "$head" '.set_name.heads[0].head == $h' "$WORK/q.json" >/dev/null && grep -q "^query: these look like: $head — " "$WORK/q.err" &&
    pass query_set_name || fail query_set_name "$(jq -c .set_name "$WORK/q.json") / $(grep look "$WORK/q.err")"
# ---- where to cut (docs/cut.md): "cut": "auto" lists the ranks above the cut of the same list,
# the export marks them (above_cut), and query --cut auto returns the same entities ----
expect_post cut_none 200 '{"seeds":["Ohio","Texas","Iowa"],"size":100,"variant":"noclen"}'
cp "$WORK/body" "$WORK/cut-none.json"
expect_post cut_auto 200 '{"seeds":["Ohio","Texas","Iowa"],"size":100,"variant":"noclen","cut":"auto"}'
above=$(jq '.cut.above' "$WORK/cut-none.json")
jq -e '.cut.dropped and .cut.above > 0 and .cut.above < 100 and .cut.curve == "kl_score" and .cut.threshold < .cut.top' "$WORK/cut-none.json" >/dev/null &&
    cmp -s <(jq '.entities[].eid' "$WORK/body") <(jq ".entities[:$above][].eid" "$WORK/cut-none.json") &&
    pass cut_auto_is_the_top_above || fail cut_auto_is_the_top_above "above $above, auto lists $(jq '.entities | length' "$WORK/body")"
expect_post cut_bad 400 '{"seeds":["Ohio","Texas"],"cut":"maybe"}' "cut: expected none or auto"
req export_cut 200 "${U}api/export?seed=Ohio&seed=Texas&seed=Iowa&size=100&variant=noclen&format=tsv"
[ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "above_cut") c = i; print $c } $4 == "candidate" && $c == 1 { n++ } END { print n + 0 }' "$WORK/body" | paste -sd' ')" = "above_cut $above" ] &&
    pass export_above_cut || fail export_above_cut "$(head -n 1 "$WORK/body")"
query --run "$RUN" --seeds Ohio,Texas,Iowa --variant noclen --size 100 --cut auto --quiet >"$WORK/q-cut.tsv"
cmp -s <(tail -n +2 "$WORK/q-cut.tsv" | cut -f2) <(jq ".entities[:$above][].eid" "$WORK/cut-none.json") &&
    pass query_cut_auto_matches_api || fail query_cut_auto_matches_api "$(($(wc -l <"$WORK/q-cut.tsv") - 1)) rows, API above $above"
# query's errors name the program once
expect_exit query_one_prefix 3 '^query: seed 2: unknown entity "Ohoi"' query --run "$RUN" --seeds Ohio,Ohoi
grep -q 'query: query:' "$WORK/err" && fail query_no_doubled_prefix "$(head -n 1 "$WORK/err")" || pass query_no_doubled_prefix

# ---- a typed name, resolved as the seeds are ----
req resolve 200 "${U}api/resolve?name=ohio"
jq -e '.entity.name == "Ohio" and .ambiguous == false and .suggestions == []' "$WORK/body" >/dev/null && pass resolve_exact || fail resolve_exact "$(head -c 300 "$WORK/body")"
req resolve_prefix 200 "${U}api/resolve?name=Oh"
jq -e '.entity == null and .ambiguous == false and (.suggestions | length) > 0' "$WORK/body" >/dev/null && pass resolve_prefix_is_no_name || fail resolve_prefix_is_no_name "$(head -c 300 "$WORK/body")"
req resolve_unknown 200 "${U}api/resolve?name=Linus%20Torvalds"
jq -e '.entity == null and (.suggestions | length) > 0' "$WORK/body" >/dev/null && pass resolve_unknown_suggests || fail resolve_unknown_suggests
req resolve_missing 400 "${U}api/resolve"
req resolve_unknown_param 400 "${U}api/resolve?name=Ohio&x=1"

# ---- the classes of the corpus, before any seed ----
req classes 200 "${U}api/classes"
cp "$WORK/body" "$WORK/classes1.json"
jq -e '(.classes | length) > 0 and ([.classes[].rank] == [range(1; (.classes | length) + 1)]) and
    (.classes | all((.head | length) > 0 and (.members | length) > 0 and .core >= 5 and .entities >= .core and
                    .coherence > 0 and .coherence <= 1 and (.members | all(.share > 0 and .share <= 1 and .count >= 1)))) and
    ([.classes[].score] == ([.classes[].score] | sort | reverse))' "$WORK/classes1.json" >/dev/null &&
    pass classes_ranked || fail classes_ranked "$(head -c 300 "$WORK/classes1.json")"
# the most typical members first: by the share of their definitions calling them the head
jq -e '.classes | all(.members | map(.share) | . == (sort | reverse))' "$WORK/classes1.json" >/dev/null &&
    pass classes_typical_first || fail classes_typical_first
req classes_again 200 "${U}api/classes"
cmp -s "$WORK/body" "$WORK/classes1.json" && pass classes_cached_same || fail classes_cached_same
req classes_param 400 "${U}api/classes?limit=3"
classes --run "$RUN" --format json --quiet >"$WORK/classes-cli.json"
cmp -s <(jq -S .classes "$WORK/classes-cli.json") <(jq -S .classes "$WORK/classes1.json") && pass classes_cli_is_the_api || fail classes_cli_is_the_api
classes --run "$RUN" --quiet >"$WORK/classes.tsv"
head -n 1 "$WORK/classes.tsv" | grep -q $'^rank\thead\tword\tentities\tcore\tcoherence\tscore\tmember_eids\tmembers$' &&
    cmp -s <(tail -n +2 "$WORK/classes.tsv" | cut -f2,8) <(jq -r '.classes[] | [.head, (.members | map(.eid | tostring) | join(","))] | @tsv' "$WORK/classes1.json") &&
    pass classes_tsv_is_the_json || fail classes_tsv_is_the_json "$(head -n 2 "$WORK/classes.tsv")"
classes --run "$RUN" --limit 2 --members 3 --quiet >"$WORK/classes2.tsv"
[ "$(wc -l <"$WORK/classes2.tsv")" = 3 ] && awk -F'\t' 'NR > 1 && split($8, m, ",") != 3 { exit 1 }' "$WORK/classes2.tsv" &&
    pass classes_limit_members || fail classes_limit_members "$(cat "$WORK/classes2.tsv")"
expect_exit classes_help 0 '' classes --help
expect_exit classes_no_run 2 'run is required' classes
expect_exit classes_bad_format 2 'expected tsv or json' classes --run "$RUN" --format csv
expect_exit classes_not_a_run 3 'index.mp: missing' classes --run "$WORK/none"
mkdir -p "$WORK/norun" && cp "$RUN/index.mp" "$WORK/norun/"
expect_exit classes_no_samples 3 'samples.mp: missing' classes --run "$WORK/norun"
cp "$RUN/corpus.mp" "$WORK/norun/samples.mp"
expect_exit classes_other_samples 3 'not the samples artifact' classes --run "$WORK/norun"

# ---- contexts ----
ohio=$(curl -s "${U}api/entities?prefix=ohio&limit=1" | jq '.entities[0].eid')
req contexts 200 "${U}api/entity/$ohio/contexts?limit=3"
jq -e '(.contexts | length) == 3 and (.contexts | all(.tokens[.start:.end + 1] | join(" ") == "Ohio"))' "$WORK/body" >/dev/null &&
    pass contexts_mark_the_mention || fail contexts_mark_the_mention "$(head -c 300 "$WORK/body")"
req contexts_unknown 404 "${U}api/entity/99999999/contexts"
jq -e '.error.message | test("no entity with eid 99999999")' "$WORK/body" >/dev/null && pass contexts_unknown_json || fail contexts_unknown_json

# ---- the context features tying an entity to the seeds ----
# ties ENTITY_EID SEED... : the features of ENTITY against the seeds into $WORK/ties.json
ties() {
    local e=$1 q='limit=1&features=100'; shift
    for s in "$@"; do q="$q&seed=$s"; done
    curl -s -m 20 -o "$WORK/ties.json" -w '%{http_code}' "${U}api/entity/$e/contexts?$q"
}
# near_words EID: the lowercased words within 8 of the entity's mentions in the dataset
near_words() {
    tar xzOf "$DATA" mini-ese/sentences.json | jq -r --argjson e "$1" '. as $s | .entityMentions[] | select(.entityId == $e) |
        ($s.tokens[([.start - 8, 0] | max):.start][], $s.tokens[.end + 1:.end + 9][]) | ascii_downcase' | sort -u
}
cand=$(jq '.entities[0].eid' "$WORK/expand1.json")
seeds=$(jq -r '[.seeds[].eid] | join(" ")' "$WORK/expand1.json")
# shellcheck disable=SC2086
[ "$(ties "$cand" $seeds)" = 200 ] && cp "$WORK/ties.json" "$WORK/ties3.json" &&
    jq -e '(.features | length) > 0 and .shared_features >= (.features | length) and .similarity > 0 and (.seeds | length) == 3' "$WORK/ties3.json" >/dev/null &&
    pass ties_listed || fail ties_listed "$(head -c 300 "$WORK/ties3.json")"
jq -e '[.features[].contribution] as $c | ($c == ($c | sort | reverse)) and ($c | add) <= .similarity + 1e-12 and
    (.features | all(.count > 0 and .seeds_sharing >= 1 and (.seed_counts | length) == 3 and
                     ([.seed_counts[] | select(. > 0)] | length) >= .seeds_sharing and
                     (.kind == "word" or ((.kind == "genus" or .kind == "differentia") and (.feature | contains("_") | not)) or
                      (.kind == "pattern" and (.feature | split(" ") | index("_") != null)))))' "$WORK/ties3.json" >/dev/null &&
    pass ties_best_first_and_shared || fail ties_best_first_and_shared "$(jq -c '.features[0:3]' "$WORK/ties3.json")"
# the word features, checked against the sentences themselves: near the entity, and near each
# seed the feature is counted for (a wordpiece starts a word of the sentence)
near_words "$cand" >"$WORK/near.cand"
ok=1 checked=0
while IFS=$'\t' read -r w counts; do
    grep -q "^$w" "$WORK/near.cand" || { ok=0; echo "    '$w' not near the entity" >&2; }
    k=0
    for s in $seeds; do
        c=$(echo "$counts" | cut -d, -f$((k + 1)))
        if [ "$c" -gt 0 ]; then near_words "$s" | grep -q "^$w" || { ok=0; echo "    '$w' not near seed $s" >&2; }; fi
        k=$((k + 1))
    done
    checked=$((checked + 1))
done < <(jq -r '.features[] | select(.kind == "word" and (.feature | test("^[a-z]{3,}$"))) | [.feature, (.seed_counts | map(tostring) | join(","))] | @tsv' "$WORK/ties3.json" | head -n 5)
[ "$ok" = 1 ] && [ "$checked" -gt 0 ] && pass ties_in_the_sentences || fail ties_in_the_sentences "$checked word features checked"
# the similarity is a mean cosine: symmetric for one seed, the mean of the single-seed ones
set -- $seeds
ties "$cand" "$1" >/dev/null; s1=$(jq .similarity "$WORK/ties.json")
ties "$1" "$cand" >/dev/null; s1r=$(jq .similarity "$WORK/ties.json")
ties "$cand" "$2" >/dev/null; s2=$(jq .similarity "$WORK/ties.json")
ties "$cand" "$1" "$2" >/dev/null; s12=$(jq .similarity "$WORK/ties.json")
jq -en --argjson a "$s1" --argjson b "$s1r" --argjson c "$s2" --argjson d "$s12" '($a - $b | fabs) < 1e-9 and ($d - ($a + $c) / 2 | fabs) < 1e-9 and $a > 0' >/dev/null &&
    pass ties_mean_cosine || fail ties_mean_cosine "$s1 $s1r $s2 $s12"
ties "$cand" >/dev/null
jq -e '.features == [] and .similarity == null and .seeds == [] and (.contexts | length) == 1' "$WORK/ties.json" >/dev/null &&
    pass ties_need_seeds || fail ties_need_seeds "$(head -c 200 "$WORK/ties.json")"
[ "$(ties "$cand" Ohoi Texas)" = 422 ] && jq -e '.error.message | test("unknown entity")' "$WORK/ties.json" >/dev/null &&
    pass ties_unknown_seed || fail ties_unknown_seed
req ties_features_range 400 "${U}api/entity/$cand/contexts?features=1000&seed=Ohio"
req contexts_not_a_number 404 "${U}api/entity/abc/contexts"
req contexts_limit 400 "${U}api/entity/$ohio/contexts?limit=100000"

# ---- why not X? where the expansion of the same parameters places an entity ----
WHYQ="seed=Ohio&seed=Texas&seed=Iowa&negative=Utah&size=20&variant=noclen"
jq -e '.entities | all(.shared_all >= 0 and .shared_any >= .shared_all) and (.[0].shared_all > 0)' "$WORK/expand1.json" >/dev/null &&
    pass expand_shared_counts || fail expand_shared_counts "$(jq -c '.entities[0]' "$WORK/expand1.json")"
top=$(jq '.entities[0].eid' "$WORK/expand1.json")
req why_listed 200 "${U}api/entity/$top/why?$WHYQ"
jq -e --slurpfile x "$WORK/expand1.json" '.status == "listed" and .rank == 1 and .search_rank == null and .listed == 20 and
    (.score - $x[0].entities[0].score | fabs) < 1e-9 and .kl_rank == $x[0].entities[0].kl_rank and .shared_all == $x[0].entities[0].shared_all and
    (.members | map(.name)) == ["Ohio","Texas","Iowa"] and (.features | length) > 0 and (.summary | startswith($x[0].entities[0].name + " is in the list: rank 1 of 20"))' \
    "$WORK/body" >/dev/null && pass why_listed_is_the_list || fail why_listed_is_the_list "$(head -c 300 "$WORK/body")"
expect_post expand50 200 '{"seeds":["Ohio","Texas","Iowa"],"negative_seeds":["Utah"],"size":50,"variant":"noclen"}'
out=$(jq '.entities[29].eid' "$WORK/body")
req why_outside 200 "${U}api/entity/$out/why?$WHYQ&features=5"
cp "$WORK/body" "$WORK/why-out.json"
jq -e '.status == "outside" and .rank == 20 + .search_rank and .search_rank >= 1 and .score == null and .kl_rank >= 1 and .kl_rank <= 21 and
    (.list_kl_score | .[0] >= .[1]) and (.features | length) <= 5 and (.missing | length) <= 5 and .selected_held <= .selected_features and
    (.missing | all(.count == 0 and .seeds_sharing >= 2)) and (.features | all(.count > 0))' "$WORK/why-out.json" >/dev/null &&
    pass why_outside_placed || fail why_outside_placed "$(head -c 400 "$WORK/why-out.json")"
# query --why gives the same answer for the same entity and parameters
query --run "$RUN" --seeds Ohio,Texas,Iowa --negative-seeds Utah --size 20 --variant noclen --why "$out" >"$WORK/why-cli.json" 2>"$WORK/why-cli.err"
pick='{status, rank, search_rank, kl_rank, listed, shared_all, shared_features, selected_features, selected_held, summary,
       f: [.features[] | [.feature, .kind, .seeds_sharing, .seed_counts]], m: [.missing[] | [.feature, .kind, .seeds_sharing]]}'
jq -e --slurpfile a "$WORK/why-out.json" '(.kl_score - $a[0].kl_score | fabs) < 1e-9 and (.similarity - $a[0].similarity | fabs) < 1e-9' "$WORK/why-cli.json" >/dev/null &&
    cmp -s <(jq -S "$pick | .f |= .[0:5] | .m |= .[0:5]" "$WORK/why-cli.json") <(jq -S "$pick" "$WORK/why-out.json") &&
    grep -q "^query: .* is not in the top 20" "$WORK/why-cli.err" && pass why_cli_is_the_api ||
    fail why_cli_is_the_api "$(diff <(jq -S "$pick | .f |= .[0:5] | .m |= .[0:5]" "$WORK/why-cli.json") <(jq -S "$pick" "$WORK/why-out.json") | head -n 6)"
req why_seed 200 "${U}api/entity/$ohio/why?$WHYQ"
jq -e '.status == "seed" and .rank == null and .kl_score == null' "$WORK/body" >/dev/null && pass why_seed_status || fail why_seed_status "$(head -c 200 "$WORK/body")"
utah=$(curl -s "${U}api/resolve?name=Utah" | jq '.entity.eid')
req why_rejected 200 "${U}api/entity/$utah/why?$WHYQ"
jq -e '.status == "rejected" and .rank == null and .search_rank >= 1 and (.summary | test("is rejected"))' "$WORK/body" >/dev/null &&
    pass why_rejected_status || fail why_rejected_status "$(head -c 200 "$WORK/body")"
req why_not_a_number 404 "${U}api/entity/12x/why?$WHYQ"
err_says 'must be digits' && pass why_not_a_number_json || fail why_not_a_number_json
req why_unknown_eid 404 "${U}api/entity/99999999/why?$WHYQ"
err_says 'no entity with eid 99999999' && pass why_unknown_eid_json || fail why_unknown_eid_json
req why_features_range 400 "${U}api/entity/$top/why?$WHYQ&features=1000"
err_says '^features' && pass why_features_range_json || fail why_features_range_json
req why_format_refused 400 "${U}api/entity/$top/why?$WHYQ&format=tsv"
err_says "unknown parameter 'format'" && pass why_format_refused_json || fail why_format_refused_json
req why_no_seeds 400 "${U}api/entity/$top/why?size=20"
req why_size 400 "${U}api/entity/$top/why?$WHYQ&size=0"
req why_unknown_seed 422 "${U}api/entity/$top/why?seed=Ohoi&seed=Texas"
jq -e '.error.suggestions | map(.name) | index("Ohio") != null' "$WORK/body" >/dev/null && pass why_unknown_seed_suggests || fail why_unknown_seed_suggests
req why_post 405 -H 'Content-Type: application/json' -d '{}' "${U}api/entity/$top/why"
expect_exit query_why_needs_run 2 'why needs --run' query --index "$RUN/index.mp" --seeds Ohio,Texas --why Iowa
expect_exit query_why_unknown 3 'entity to explain: unknown entity "Ohoi"' query --run "$RUN" --seeds Ohio,Texas --why Ohoi
[ ! -s "$WORK/out" ] && pass query_why_unknown_no_output || fail query_why_unknown_no_output

# ---- export ----
req export_tsv 200 "${U}api/export?seed=Ohio&seed=Texas&seed=Iowa&accepted=$second&negative=Utah&size=10&variant=noclen&format=tsv"
grep -qi '^content-disposition: attachment; filename="expansion.tsv"' "$WORK/hdr" && pass export_attachment || fail export_attachment
awk -F'\t' -v acc="$second" 'NR == 1 { ok = ($1 == "rank" && $2 == "eid" && $3 == "name" && $4 == "status" && $5 == "score") }
    $4 == "seed" { s++ } $4 == "accepted" { a++; if ($1 != "" || $2 != acc) ok = 0 } $4 == "rejected" { r++ }
    $4 == "candidate" { c++; if ($1 != c || $2 == acc) ok = 0 }
    END { exit !(ok && s == 3 && a == 1 && r == 1 && c == 10) }' "$WORK/body" && pass export_tsv_rows || fail export_tsv_rows "$(head -n 5 "$WORK/body" | tr '\t\n' ' |')"
req export_json 200 "${U}api/export?seed=Ohio&seed=Texas&seed=Iowa&size=10&variant=noclen&format=json"
jq -e '(.entities | length) == 10' "$WORK/body" >/dev/null && pass export_json_rows || fail export_json_rows
req export_no_seeds 400 "${U}api/export?format=tsv"
req export_bad_format 400 "${U}api/export?seed=Ohio&seed=Texas&format=csv"

# ---- many at once, the server still standing ----
pids=()
for i in $(seq 1 24); do
    if [ $((i % 2)) = 0 ]; then curl -s -m 30 -o /dev/null -w '%{http_code}\n' "${U}api/entities?prefix=a&limit=10"
    else curl -s -m 30 -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' -d '{"seeds":["Ohio","Texas"],"size":30,"variant":"noclen"}' "${U}api/expand"; fi >"$WORK/code.$i" &
    pids+=($!)
done
wait "${pids[@]}"
cat "$WORK"/code.* >"$WORK/codes"
[ "$(grep -c '^200$' "$WORK/codes")" = 24 ] && pass concurrent_requests || fail concurrent_requests "$(sort "$WORK/codes" | uniq -c | tr '\n' ' ')"
kill -0 "$PID" && pass still_running || fail still_running

# ---- the page in a real browser ----
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null; then
    skip browser "chromium or node not installed (apt-get install chromium nodejs)"
else
    mkdir -p "$PROBEXPAN_ROOT/build"
    node "$PROBEXPAN_ROOT/tests/browser/serve-page.cjs" "$U" "$PROBEXPAN_ROOT/build/serve-page.png" "$CHROMIUM" >"$WORK/browser.out" 2>&1
    cat "$WORK/browser.out" | grep -E '^(PASS|FAIL|SKIP): ' || fail browser "$(tail -n 3 "$WORK/browser.out")"
    grep -vE '^(PASS|FAIL|SKIP): ' "$WORK/browser.out" | sed 's/^/    /' >&2
    # where to cut: the line, the plot, and "only above the cut" = "cut": "auto" (docs/cut.md)
    node "$PROBEXPAN_ROOT/tests/browser/serve-cut.cjs" "$U" "$PROBEXPAN_ROOT/build/serve-cut.png" "$CHROMIUM" >"$WORK/browser-cut.out" 2>&1
    grep -E '^(PASS|FAIL|SKIP): ' "$WORK/browser-cut.out" || fail browser_cut "$(tail -n 3 "$WORK/browser-cut.out")"
    node "$PROBEXPAN_ROOT/tests/browser/why-page.cjs" "$U" "$PROBEXPAN_ROOT/build/why-page.png" "$CHROMIUM" >"$WORK/why-browser.out" 2>&1
    grep -E '^(PASS|FAIL|SKIP): ' "$WORK/why-browser.out" || fail why_browser "$(tail -n 3 "$WORK/why-browser.out")"
fi

# ---- SIGTERM and SIGINT: a request in flight (its body still arriving when the signal comes)
# is answered, new connections are refused, then the server exits 0 ----
signal_drains() {
    local sig=$1 body='{"seeds":["Ohio","Texas","Iowa"],"size":20,"variant":"noclen"}' port=${U##*:} rc
    port=${port%/}
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'POST /api/expand HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
        "$port" "${#body}" "${body:0:10}" >&3
    sleep 0.5
    kill -"$sig" "$PID"
    sleep 0.5
    if curl -s -m 5 -o /dev/null "${U}api/info"; then fail "sig${sig,,}_refuses_new" "a new request was served"; else pass "sig${sig,,}_refuses_new"; fi
    printf '%s' "${body:10}" >&3
    timeout 60 cat <&3 >"$WORK/drain.out"
    exec 3<&-
    wait "$PID"; rc=$?
    [ "$rc" = 0 ] && pass "sig${sig,,}_exit_0" || fail "sig${sig,,}_exit_0" "exit $rc: $(tail -n 2 "$WORK/serve.err")"
    head -n 1 "$WORK/drain.out" | grep -q '^HTTP/1.1 200' && sed '1,/^\r$/d' "$WORK/drain.out" | jq -e '.entities | length == 20' >/dev/null &&
        grep -q "SIG$sig: finishing 1 request(s) in flight" "$WORK/serve.err" && pass "sig${sig,,}_finishes_in_flight" ||
        fail "sig${sig,,}_finishes_in_flight" "$(head -n 1 "$WORK/drain.out") / $(grep -o 'finishing.*' "$WORK/serve.err")"
}
signal_drains TERM
if start_server; then signal_drains INT; else fail sigint_restart "$(tail -n 3 "$WORK/serve.err")"; fi
