# serve-names.sh: reviewing discovered names in `probexpan serve` (docs/discovery.md, "Reviewing
# names in the page"; docs/api.md) through curl, on a tiny dataset discovered here from made-up
# text: GET /api/names (mentions, rules, contexts, search, paging), POST /api/names/edit (rename,
# merge, delete written atomically with a numbered backup; every refusal a 4xx JSON error naming
# the field, the file untouched and no backup made), an edit over a file changed on disk, POST
# and GET /api/rebuild (one at a time, edits refused meanwhile, a new dataset and run whose
# autocomplete has the new name, a failing rebuild reported and the server still up), a server
# without names, and the page in headless chromium (tests/browser/names-page.cjs).
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
{
    for i in 1 2 3 4; do
        for s in Ohio Texas Iowa Utah Kansas Nevada; do
            echo "the state of $s has a capital city and many farms ."
            echo "people moved to $s in search of land ."
        done
        for p in "Ludwig van Beethoven" Mozart Haydn Brahms; do
            echo "the composer $p wrote a symphony in Vienna ."
            echo "music by $p was played at the concert ."
        done
        echo "the International Business Machines ( IBM ) company grew ."
        echo "then IBM sold computers ."
    done
} >text.txt
mkdir w
annotate --discover --lines --out w/data text.txt 2>annotate.err || { fail fixture "$(tail -n 2 annotate.err)"; exit 0; }
if ! make --no-print-directory -f "$PROBEXPAN_ROOT/pipelines/probexpan.mk" BIN="$PROBEXPAN_BIN" DATA=w/data RUN=w/run \
    THREADS=1 index >pipe.log 2>&1; then
    fail run_built "$(tail -n 3 pipe.log)"; exit 0
fi
NAMES=w/data/names.tsv
cp "$NAMES" names.orig

trap 'kill -9 $PID 2>/dev/null; rm -rf "$WORK"' EXIT
serve_start --run w/run || { fail starts "$(tail -n 3 "$WORK/serve.err")"; exit 0; }
grep -q 'names to review: w/data/names.tsv' serve.err && pass finds_names_file || fail finds_names_file "$(cat serve.err)"

# req NAME STATUS curl-args...: the body lands in $WORK/body.
req() {
    local name=$1 want=$2 got; shift 2
    got=$(curl -s -m 20 -o "$WORK/body" -w '%{http_code}' "$@")
    if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "HTTP $got, expected $want: $(head -c 300 "$WORK/body")"; fi
}
ok_json() { jq -e "$2" body >/dev/null && pass "$1" || fail "$1" "$(head -c 400 body)"; }
edit() { req "$1" "$2" -H 'Content-Type: application/json' --data-binary "$3" "${U}api/names/edit"; }
# refused NAME STATUS BODY PATTERN: an edit refused with a JSON error matching PATTERN, the
# names file unchanged and no backup made
refused() {
    edit "$1" "$2" "$3"
    jq -e --arg p "$4" --argjson s "$2" '.error.status == $s and (.error.message | test($p))' body >/dev/null ||
        fail "$1_message" "$(head -c 300 body)"
    cmp -s "$NAMES" names.orig && ! ls "$NAMES".bak.* >/dev/null 2>&1 || fail "$1_file_unchanged" "$(ls w/data)"
}

# ---- the list ----
req info 200 "${U}api/info"
ok_json info_says_names '.names == true'
req names 200 "${U}api/names"
ok_json names_listed '.entities == 12 and .total == 12 and (.names | length) == 12 and .names[0].name == "Vienna" and .offset == 0'
ok_json names_ibm '.names[] | select(.name == "International Business Machines") | .aliases == ["IBM"] and .mentions == 12
    and .rules == [{"alias": "IBM", "rule": "acronym"}] and (.contexts | length) == 2 and (.note | startswith("12 mentions"))'
ok_json names_contexts '.names[] | select(.name == "Ohio") | .contexts == ["the state of Ohio has a capital city and many farms .",
    "people moved to Ohio in search of land ."] and .mentions == 8 and .rules == []'
req names_search_alias 200 "${U}api/names?q=ibm"
ok_json search_by_alias '.total == 1 and .names[0].name == "International Business Machines"'
req names_search_case 200 "${U}api/names?q=VAN%20BEET"
ok_json search_folds_case '.total == 1 and .names[0].name == "Ludwig van Beethoven"'
req names_page 200 "${U}api/names?offset=10&limit=5"
ok_json names_paged '.total == 12 and (.names | length) == 2 and .offset == 10'
req names_bad_limit 400 "${U}api/names?limit=0"
req names_bad_offset 400 "${U}api/names?offset=-1"
req names_unknown_param 400 "${U}api/names?prefix=a"
jq -e '.error.message | test("prefix")' body >/dev/null && pass names_unknown_param_named || fail names_unknown_param_named "$(cat body)"

# ---- refused edits: 4xx JSON naming the field; the file untouched ----
refused edit_malformed 400 '{"edits": [' 'malformed JSON'
refused edit_not_object 400 '[1]' 'expected a JSON object'
refused edit_empty 400 '{"edits": []}' 'non-empty array'
refused edit_extra_key 400 '{"edits": [{"op": "delete", "name": "Ohio"}], "force": true}' 'exactly one key'
refused edit_unknown_op 400 '{"edits": [{"op": "split", "name": "Ohio"}]}' 'edits\[0\]\.op'
refused edit_unknown_key 400 '{"edits": [{"op": "delete", "name": "Ohio", "to": "X"}]}' 'unknown key "to"'
refused edit_missing_name 400 '{"edits": [{"op": "delete"}]}' 'edits\[0\]\.name: missing'
refused edit_number_name 400 '{"edits": [{"op": "delete", "name": 3}]}' 'edits\[0\]\.name: expected a string'
refused edit_tab_in_name 400 '{"edits": [{"op": "rename", "name": "Ohio", "to": "A\tB"}]}' 'edits\[0\]\.to: a tab'
refused edit_hash_name 400 '{"edits": [{"op": "rename", "name": "Ohio", "to": "#1"}]}' "edits\\[0\\]\\.to: .*'#'"
refused edit_nul_name 400 '{"edits": [{"op": "rename", "name": "Ohio", "to": "A\u0000B"}]}' 'NUL'
refused edit_unknown_name 422 '{"edits": [{"op": "delete", "name": "Ohioo"}]}' 'edits\[0\]\.name: no entity named "Ohioo"'
refused rename_onto_name 409 '{"edits": [{"op": "rename", "name": "Ohio", "to": "texas"}]}' 'edits\[0\]\.to: "texas" is already a name or alias of "Texas"'
refused rename_onto_alias 409 '{"edits": [{"op": "rename", "name": "Ohio", "to": "IBM"}]}' 'edits\[0\]\.to: .*International Business Machines'
refused rename_same 422 '{"edits": [{"op": "rename", "name": "Ohio", "to": "Ohio"}]}' 'edits\[0\]\.to: the same'
refused merge_into_self 422 '{"edits": [{"op": "merge", "name": "Ohio", "into": "Ohio"}]}' 'edits\[0\]\.into: the same entity'
refused merge_into_unknown 422 '{"edits": [{"op": "merge", "name": "Ohio", "into": "Nowhere"}]}' 'edits\[0\]\.into: no entity named "Nowhere"'
# all or none: the first edit is fine, the second names an entity the first deleted
refused edit_all_or_none 422 '{"edits": [{"op": "delete", "name": "Utah"}, {"op": "merge", "name": "Utah", "into": "Texas"}]}' 'edits\[1\]\.name'
req edit_wrong_type 415 -H 'Content-Type: text/plain' --data-binary '{"edits": []}' "${U}api/names/edit"
req edit_get 405 "${U}api/names/edit"
req names_post 405 -H 'Content-Type: application/json' --data-binary '{}' "${U}api/names"
cmp -s "$NAMES" names.orig && pass refusals_leave_file || fail refusals_leave_file

# ---- a saved edit: atomic, with a backup ----
edit edit_saved 200 '{"edits": [{"op": "rename", "name": "Ohio", "to": "Buckeye State"},
    {"op": "merge", "name": "Haydn", "into": "Mozart"}, {"op": "delete", "name": "Vienna"}]}'
ok_json edit_answer '.saved == 3 and .entities == 10 and .backup == "w/data/names.tsv.bak.1" and .file == "w/data/names.tsv"'
cmp -s "$NAMES.bak.1" names.orig && pass backup_is_previous || fail backup_is_previous
ls w/data | grep -q 'tmp' && fail no_temp_left "$(ls w/data)" || pass no_temp_left
[ "$(grep -P '^Buckeye State\t' "$NAMES" | cut -f1-3)" = "$(printf 'Buckeye State\tOhio\t# 8 mentions')" ] &&
    pass rename_keeps_old_as_alias || fail rename_keeps_old_as_alias "$(grep Buckeye "$NAMES")"
[ "$(grep -P '^Mozart\t' "$NAMES" | cut -f1-3)" = "$(printf 'Mozart\tHaydn\t# 16 mentions')" ] && ! grep -qP '^Haydn\t' "$NAMES" &&
    pass merge_adds_alias_and_mentions || fail merge_adds_alias_and_mentions "$(grep -P 'Mozart|Haydn' "$NAMES")"
! grep -qP '^Vienna\t' "$NAMES" && pass delete_drops_line || fail delete_drops_line
# the lines no edit touched are written back byte for byte
[ "$(grep -vP '^(Ohio|Haydn|Mozart|Vienna)\t' names.orig)" = "$(grep -vP '^(Buckeye State|Mozart)\t' "$NAMES")" ] &&
    pass untouched_lines_kept || fail untouched_lines_kept "$(diff names.orig "$NAMES")"
req names_after_edit 200 "${U}api/names?q=buckeye"
ok_json list_shows_edit '.total == 1 and .names[0].aliases == ["Ohio"] and .names[0].mentions == 8'
edit second_save 200 '{"edits": [{"op": "rename", "name": "Buckeye State", "to": "Ohio"}]}'
ok_json numbered_backup '.backup == "w/data/names.tsv.bak.2"'
[ "$(grep -P '^Ohio\t' "$NAMES" | cut -f1-2)" = "$(printf 'Ohio\tBuckeye State')" ] && pass rename_back || fail rename_back "$(grep Ohio "$NAMES")"
edit rename_to_own_alias 200 '{"edits": [{"op": "rename", "name": "Ohio", "to": "Buckeye State"}]}'
[ "$(grep -P '^Buckeye State\t' "$NAMES" | cut -f1-3)" = "$(printf 'Buckeye State\tOhio\t# 8 mentions')" ] &&
    pass alias_and_name_swap || fail alias_and_name_swap "$(grep Buckeye "$NAMES")"

# ---- a file changed on disk since it was read: refused, read again ----
cp "$NAMES" before-outside
printf 'Carthage\n' >>"$NAMES"
edit changed_on_disk 409 '{"edits": [{"op": "delete", "name": "Texas"}]}'
jq -e '.error.message | test("changed on disk")' body >/dev/null && pass changed_on_disk_message || fail changed_on_disk_message "$(cat body)"
grep -qP '^Texas\t' "$NAMES" && pass changed_on_disk_not_saved || fail changed_on_disk_not_saved
req reread 200 "${U}api/names?q=carthage"
ok_json changed_file_read_again '.total == 1 and .names[0].mentions == null and .names[0].contexts == []'
cp before-outside "$NAMES"
req reread_back 200 "${U}api/names?q=carthage"   # the list still holds it until an edit finds the change
edit edit_after_restore 409 '{"edits": [{"op": "delete", "name": "Texas"}]}'
cp "$NAMES" saved.tsv

# ---- rebuild ----
req rebuild_bad_body 400 -H 'Content-Type: application/json' --data-binary '{"now": true}' "${U}api/rebuild"
req rebuild_idle 200 "${U}api/rebuild"
ok_json rebuild_idle_state '.state == "idle" and .fraction == 0 and .stage == null and .run == null'
req rebuild_start 202 -H 'Content-Type: application/json' --data-binary '{}' "${U}api/rebuild"
ok_json rebuild_started '.state == "running" and .dataset == "w/data.2" and .run == "w/run.2" and .stages == ["text", "annotate", "tokenize", "samples", "index"]'
req rebuild_one_at_a_time 409 -H 'Content-Type: application/json' -X POST "${U}api/rebuild"
edit edit_during_rebuild 409 '{"edits": [{"op": "delete", "name": "Texas"}]}'
jq -e '.error.message | test("rebuild is running")' body >/dev/null && pass edit_during_rebuild_message || fail edit_during_rebuild_message "$(cat body)"
fractions=""
for _ in $(seq 1 600); do
    curl -s -m 5 "${U}api/rebuild" >body
    fractions="$fractions $(jq -r .fraction body)"
    [ "$(jq -r .state body)" = running ] || break
    sleep 0.1
done
ok_json rebuild_done '.state == "done" and .fraction == 1 and .error == null and .restart == "probexpan serve --run w/run.2"'
echo "$fractions" | tr ' ' '\n' | grep -v '^$' | sort -c -g 2>/dev/null && pass rebuild_fraction_rises || fail rebuild_fraction_rises "$fractions"
[ -f w/run.2/index.mp ] && cmp -s w/data.2/names.tsv saved.tsv && pass rebuild_outputs || fail rebuild_outputs "$(ls w w/run.2 w/data.2)"
[ ! -e w/run.2.text ] && pass rebuild_text_removed || fail rebuild_text_removed
kill -0 "$PID" && pass serves_during_rebuild || fail serves_during_rebuild
req still_answers 200 "${U}api/entities?prefix=oh"

# a rebuild that fails (a name given to two entities: annotate exits 3) is reported; the server stays up
printf 'Texas\n' >>"$NAMES"
req rebuild_again 202 -H 'Content-Type: application/json' --data-binary '' "${U}api/rebuild"
ok_json rebuild_next_numbers '.run == "w/run.3" and .dataset == "w/data.3"'
for _ in $(seq 1 300); do curl -s -m 5 "${U}api/rebuild" >body; [ "$(jq -r .state body)" = running ] || break; sleep 0.1; done
ok_json rebuild_failure_reported '.state == "failed" and .stage == "annotate" and (.error | test("annotate exited with status 3")) and (.error | test("Texas"))'
kill -0 "$PID" && pass alive_after_failed_rebuild || fail alive_after_failed_rebuild
cp saved.tsv "$NAMES"
OLD_PID=$PID OLD_U=$U

# ---- the new run: the new names in autocomplete, the review goes on ----
serve_start --run w/run.2 || { fail new_run_starts "$(tail -n 3 serve.err)"; exit 0; }
NEW_PID=$PID
trap 'kill -9 $OLD_PID $NEW_PID 2>/dev/null; rm -rf "$WORK"' EXIT
req new_autocomplete 200 "${U}api/entities?prefix=buck"
ok_json new_name_in_autocomplete '.entities[0].name == "Buckeye State" and .entities[0].aliases == ["Ohio"] and .entities[0].mentions == 8'
req new_merged 200 "${U}api/entities?prefix=mozart"
ok_json merged_mentions '.entities[0].name == "Mozart" and .entities[0].mentions == 16'
req new_deleted 200 "${U}api/resolve?name=Vienna"
ok_json deleted_is_no_entity '.entity == null'
req new_names 200 "${U}api/names"
ok_json new_run_reviews '.file == "w/data.2/names.tsv" and .entities == 10'

# ---- the page in a real browser: rename, save, rebuild, then the new name in autocomplete ----
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ] || ! command -v node >/dev/null; then
    skip browser "chromium or node not installed (apt-get install chromium nodejs)"
else
    mkdir -p "$PROBEXPAN_ROOT/build"
    node "$PROBEXPAN_ROOT/tests/browser/names-page.cjs" review "$U" "$PROBEXPAN_ROOT/build/names-page.png" "$CHROMIUM" Kansas Sunflower >browser.out 2>&1
    grep -E '^(PASS|FAIL|SKIP): ' browser.out || fail browser_review "$(tail -n 3 browser.out)"
    grep -P '^Sunflower\tKansas\t' w/data.2/names.tsv >/dev/null && pass page_saved_rename || fail page_saved_rename "$(grep Kansas w/data.2/names.tsv)"
    page_run=$(curl -s -m 5 "${U}api/rebuild" | jq -r .run)
    if [ -f "$page_run/index.mp" ] && serve_start --run "$page_run"; then
        trap 'kill -9 $OLD_PID $NEW_PID $PID 2>/dev/null; rm -rf "$WORK"' EXIT
        node "$PROBEXPAN_ROOT/tests/browser/names-page.cjs" autocomplete "$U" "$PROBEXPAN_ROOT/build/names-autocomplete.png" "$CHROMIUM" Sunf Sunflower >browser2.out 2>&1
        grep -E '^(PASS|FAIL|SKIP): ' browser2.out || fail browser_autocomplete "$(tail -n 3 browser2.out)"
        kill "$PID"
    else fail page_rebuilt_run "$(ls w)"; fi
fi
kill "$NEW_PID"

# ---- no names file: the routes say so; a bad names file is exit 3 naming the line ----
kill "$OLD_PID"; wait "$OLD_PID" 2>/dev/null
mkdir plain && cp w/data/entity2id.txt w/data/sentences.json plain/
serve_start --run w/run --data plain || { fail plain_starts "$(tail -n 3 serve.err)"; exit 0; }
req plain_info 200 "${U}api/info"
ok_json info_says_no_names '.names == false'
req no_names_list 404 "${U}api/names"
jq -e '.error.message | test("no names file")' body >/dev/null && pass no_names_message || fail no_names_message "$(cat body)"
req no_names_edit 404 -H 'Content-Type: application/json' --data-binary '{"edits": [{"op": "delete", "name": "Ohio"}]}' "${U}api/names/edit"
req no_names_rebuild 404 -H 'Content-Type: application/json' --data-binary '{}' "${U}api/rebuild"
req no_names_rebuild_status 404 "${U}api/rebuild"
kill "$PID"
printf 'Ohio\nTex\377as\n' >bad.tsv
expect_exit bad_names_file 3 'bad.tsv.*line 2' serve --run w/run --names bad.tsv --port 0
