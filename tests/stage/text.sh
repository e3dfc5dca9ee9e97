# tokenize and build-samples from the command line: --lines (the pipeline face of
# the tokenizer), usage errors, and every bad-input case of the text stages (exit 3, a
# message naming file, member, line and reason, and no output left behind).
source "$(dirname "$0")/lib.sh"
FX=$PROBEXPAN_ROOT/tests/fixtures/text
V=$FX/vocab.txt

# --lines: ids per input line (ids of tests/fixtures/text/vocab.txt)
out=$(printf 'Hello [MASK] you\nvisited, Paris!\n\nH\xc3\xa9llo\n' | tokenize --quiet --vocab "$V" --lines)
[ "$out" = "$(printf '28 4 29\n23 24 15 17 1\n\n28')" ] && pass lines || fail lines "$out"
out=$(echo 'hello [MASK]' | tokenize --quiet --vocab "$V" --lines --special)
[ "$out" = "2 28 4 3" ] && pass lines_special || fail lines_special "$out"
out=$(echo 'hello [MASK]' | tokenize --quiet --vocab "$V" --lines --no-special-literals)
[ "$out" = "28 30 32 31" ] && pass lines_no_special_literals || fail lines_no_special_literals "$out"
expect_exit lines_bad_utf8 3 "-: line 2: invalid UTF-8 at byte 3" sh -c "printf 'ok\nab\377\n' | tokenize --vocab '$V' --lines"
# a vocabulary line that is not valid text (every word became [UNK] before this was refused)
{ sed -n 1,10p "$V"; printf 'ab\377c\n'; sed -n '11,$p' "$V"; } >"$WORK/vocab-bad-utf8.txt"
expect_exit vocab_bad_utf8 3 "vocab-bad-utf8.txt: line 11: invalid UTF-8 at byte 3 of a vocabulary token" \
    tokenize "$FX/tiny" --vocab "$WORK/vocab-bad-utf8.txt" --out "$WORK/c.mp"
{ sed -n 1,3p "$V"; printf 'x\0y\n'; sed -n '4,$p' "$V"; } >"$WORK/vocab-nul.txt"
expect_exit vocab_nul 3 "vocab-nul.txt: line 4: a NUL byte at byte 2 of a vocabulary token" \
    sh -c "echo hello | tokenize --vocab '$WORK/vocab-nul.txt' --lines"
[ ! -e "$WORK/c.mp" ] && pass vocab_bad_no_output || fail vocab_bad_no_output "c.mp written"
expect_exit lines_needs_vocab 2 "--lines needs --vocab" tokenize --lines
expect_exit missing_vocab_file 3 "nope.txt: cannot open vocabulary" tokenize "$FX/tiny" --vocab "$WORK/nope.txt" --out "$WORK/c.mp"
expect_exit vocab_or_learn 2 "exactly one of --vocab FILE and --learn-vocab N" tokenize "$FX/tiny" --out "$WORK/c.mp"
expect_exit no_dataset 2 "expected exactly one DATASET" tokenize --vocab "$V" --out "$WORK/c.mp"
expect_exit samples_need_corpus 2 "--corpus is required" build-samples --out "$WORK/s.mp"

# learned vocabulary: deterministic, specials first, written beside --out
mkdir -p "$WORK/l1" "$WORK/l2"
tokenize --quiet "$FX/tiny" --learn-vocab 40 --out "$WORK/l1/c.mp"
tokenize --quiet "$FX/tiny" --learn-vocab 40 --out "$WORK/l2/c.mp" --vocab-out "$WORK/l2/v.txt"
if cmp -s "$WORK/l1/vocab.txt" "$WORK/l2/v.txt" && [ "$(head -n5 "$WORK/l1/vocab.txt" | tr '\n' ' ')" = "[PAD] [UNK] [CLS] [SEP] [MASK] " ] &&
   [ "$(wc -l <"$WORK/l1/vocab.txt")" -le 40 ]; then pass learn_vocab; else fail learn_vocab "$(head -c 300 "$WORK/l1/vocab.txt")"; fi

# bad datasets: copy the tiny fixture, break one thing, expect exit 3 and no output
bad() { # name pattern file-to-replace content
    local name=$1 pat=$2 file=$3 content=$4
    rm -rf "$WORK/bad" "$WORK/o"; mkdir -p "$WORK/o"
    cp -r "$FX/tiny" "$WORK/bad"
    printf '%b' "$content" >"$WORK/bad/$file"
    expect_exit "$name" 3 "$pat" tokenize "$WORK/bad" --vocab "$V" --out "$WORK/o/c.mp"
    [ -z "$(ls -A "$WORK/o" | grep -v '^catalog.sqlite')" ] && pass "${name}_no_output" || fail "${name}_no_output" "$(ls "$WORK/o")"
}
ok='{"tokens": ["Ohio", "is"], "entityMentions": [{"start": 0, "end": 0, "entityId": 0}]}\n'

# "\u0000" in a string is valid JSON: the tokenizer drops the NUL ("hel\u0000lo" is hello)
rm -rf "$WORK/nul"; cp -r "$FX/tiny" "$WORK/nul"
printf '{"tokens": ["hel\\u0000lo", "[MASK]"], "entityMentions": []}\n' >"$WORK/nul/sentences.json"
if tokenize --quiet "$WORK/nul" --vocab "$V" --out "$WORK/nul.mp" &&
   [ "$(inspect "$WORK/nul.mp" | tail -n 1 | jq -c '[.sentences, .wordpieces, .unk]')" = '[1,2,0]' ]; then
    pass json_nul_escape; else fail json_nul_escape; fi
bad malformed_json "bad/sentences.json: line 2: malformed JSON at column" sentences.json "$ok{\"tokens\": [\"a\"\n"
bad missing_tokens "line 1: missing the \"tokens\" array" sentences.json '{"entityMentions": []}\n'
bad missing_mentions "line 2: missing the \"entityMentions\" array" sentences.json "$ok{\"tokens\": [\"a\"]}\n"
bad tokens_not_strings "line 1: tokens\\[1\\]: expected a string" sentences.json '{"tokens": ["a", 5], "entityMentions": []}\n'
bad start_after_end "line 1: entityMentions\\[0\\]: start 1 > end 0" sentences.json '{"tokens": ["a", "b"], "entityMentions": [{"start": 1, "end": 0, "entityId": 0}]}\n'
bad span_out_of_range "line 1: entityMentions\\[0\\]: span 1..2 outside the 2 tokens" sentences.json '{"tokens": ["a", "b"], "entityMentions": [{"start": 1, "end": 2, "entityId": 0}]}\n'
bad unknown_eid "line 3: entityMentions\\[0\\]: entityId 99 is not in entity2id.txt" sentences.json "$ok$ok{\"tokens\": [\"a\"], \"entityMentions\": [{\"start\": 0, \"end\": 0, \"entityId\": 99}]}\n"
bad missing_start "line 1: entityMentions\\[0\\]: missing \"start\"" sentences.json '{"tokens": ["a"], "entityMentions": [{"end": 0, "entityId": 0}]}\n'
bad non_utf8 "line 2: invalid UTF-8 at byte 14" sentences.json "$ok{\"tokens\": [\"\\377\"], \"entityMentions\": []}\n"
bad duplicate_eid "entity2id.txt: line 3: duplicate eid 0 \\(first on line 1\\)" entity2id.txt 'Ohio\t0\nTexas\t1\nParis\t0\n'
bad duplicate_name "entity2id.txt: line 2: duplicate entity name \"Ohio\"" entity2id.txt 'Ohio\t0\nOhio\t1\n'
bad entity_line_malformed "entity2id.txt: line 1: expected name<TAB>eid" entity2id.txt 'Ohio 0\n'

# archives: missing member, truncated, not an archive
mkdir -p "$WORK/nosent/tiny" "$WORK/o"
cp "$FX/tiny/entity2id.txt" "$WORK/nosent/tiny/"
tar czf "$WORK/nosent.tar.gz" -C "$WORK/nosent" tiny
expect_exit archive_missing_member 3 "nosent.tar.gz: no member sentences.json" tokenize "$WORK/nosent.tar.gz" --vocab "$V" --out "$WORK/o/c.mp"
python3 -c "
import json, random
random.seed(1)
with open('$WORK/big.json', 'w') as f:
    for i in range(40000):
        f.write(json.dumps({'tokens': ['Ohio'] + [str(random.random()) for _ in range(5)], 'entityMentions': [{'start': 0, 'end': 0, 'entityId': 0}]}) + '\n')
" 2>/dev/null || awk 'BEGIN { srand(1); for (i = 0; i < 40000; i++) printf "{\"tokens\": [\"Ohio\", \"%f\", \"%f\"], \"entityMentions\": [{\"start\": 0, \"end\": 0, \"entityId\": 0}]}\n", rand(), rand() }' >"$WORK/big.json"
mkdir -p "$WORK/big/tiny"; cp "$FX/tiny/entity2id.txt" "$WORK/big/tiny/"; cp "$WORK/big.json" "$WORK/big/tiny/sentences.json"
tar czf "$WORK/big.tar.gz" -C "$WORK/big" tiny
head -c $(( $(stat -c %s "$WORK/big.tar.gz") / 2 )) "$WORK/big.tar.gz" >"$WORK/cut.tar.gz"
rm -f "$WORK/o/"*.mp*
expect_exit truncated_archive 3 "cut.tar.gz:.*truncated or corrupt archive" tokenize "$WORK/cut.tar.gz" --vocab "$V" --out "$WORK/o/c.mp"
[ -z "$(ls "$WORK/o" | grep '\.mp')" ] && pass truncated_archive_no_output || fail truncated_archive_no_output "$(ls "$WORK/o")"
# with several threads and several bad lines, the first one in the file is reported
mkdir -p "$WORK/two/tiny"; cp "$FX/tiny/entity2id.txt" "$WORK/two/tiny/"
{ head -n 4 "$WORK/big.json"; echo '{"tokens": []}'; sed -n '5,39000p' "$WORK/big.json"; echo '{"oops"'; } >"$WORK/two/tiny/sentences.json"
expect_exit first_error_with_threads 3 "sentences.json: line 5: missing the \"entityMentions\" array" tokenize "$WORK/two" --threads 4 --vocab "$V" --out "$WORK/o/c.mp"
echo "not an archive" >"$WORK/junk.tar.gz"
expect_exit not_an_archive 3 "junk.tar.gz: cannot read as a dataset" tokenize "$WORK/junk.tar.gz" --vocab "$V" --out "$WORK/o/c.mp"

# build-samples on a truncated corpus
tokenize --quiet "$FX/tiny" --vocab "$V" --out "$WORK/o/c.mp"
# (cut inside the payload: the 105-byte checksum trailer and 20 bytes before it)
head -c $(( $(stat -c %s "$WORK/o/c.mp") - 105 - 20 )) "$WORK/o/c.mp" >"$WORK/o/cut.mp"
expect_exit truncated_corpus 3 "cut.mp: byte [0-9]+: truncated" build-samples --corpus "$WORK/o/cut.mp" --out "$WORK/o/s.mp"
build-samples --quiet --corpus "$WORK/o/c.mp" --out "$WORK/o/s.mp"
params_are_options tokenize_params tokenize "$WORK/o/c.mp" vocab_out
params_are_options build_samples_params build-samples "$WORK/o/s.mp"
# the statistics once: the samples' closing map and the run's metrics hold the same figures under the same keys
end_stats=$(inspect "$WORK/o/s.mp" | tail -n 1 | jq -r 'del(.end) | to_entries[] | "\(.key) = \(.value)"' | sort)
run_stats=$(catalog show "$WORK/o/s.mp" | sed -n '/^metrics:/,/^inputs:/s/^  \([a-z0-9_]* = .*\)/\1/p' | grep -v '^bytes = ' | sort)
[ "$(wc -l <<<"$end_stats")" -ge 10 ] && [ "$end_stats" = "$run_stats" ] && pass samples_stats_once ||
    fail samples_stats_once "$(diff <(echo "$end_stats") <(echo "$run_stats") | tr '\n' ' ')"
expect_exit wrong_kind 3 "s.mp: byte 0: wrong artifact kind 'samples', expected 'corpus'" build-samples --corpus "$WORK/o/s.mp" --out "$WORK/o/s2.mp"

# a mention whose words all give no wordpiece ("" and U+200B): tokenize drops it
# with one counted warning (schemas/corpus.md), the sentence's other mention stays;
# a corpus holding an empty span anyway is refused by build-samples (it would put
# [MASK] over nothing)
rm -rf "$WORK/empty"; cp -r "$FX/tiny" "$WORK/empty"
printf '%s\n' '{"tokens": ["", "\u200b", "is", "big", "Ohio"], "entityMentions": [{"start": 0, "end": 1, "entityId": 3}, {"start": 4, "end": 4, "entityId": 0}]}' >>"$WORK/empty/sentences.json"
expect_exit empty_mention_warning 0 "empty/sentences.json: 1 mention dropped: its words produce no wordpieces \(first on line 8\)" \
    tokenize "$WORK/empty" --vocab "$V" --out "$WORK/o/e.mp"
out=$(inspect --quiet "$WORK/o/e.mp" | grep '^\[8,')
[ "$out" = '[8,5,{"$bin":12},[[0,2,3]]]' ] && pass empty_mention_dropped || fail empty_mention_dropped "$out"
if python3 - "$WORK/o/c.mp" "$WORK/o/c-empty.mp" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'\x94\x01\x04\xc4\x10') + 5 + 16   # sentence [1, 4, ids, mentions]: Ohio = [0, 0, 1]
assert d[i:i + 5] == b'\x91\x93\x00\x00\x01'
open(sys.argv[2], 'wb').write(d[:i + 4] + b'\x00' + d[i + 5:])
PY
then
    expect_exit empty_span_corpus 3 "c-empty.mp: byte [0-9]+: mention span \[0, 0\): expected a non-empty span" \
        build-samples --corpus "$WORK/o/c-empty.mp" --out "$WORK/o/s3.mp"
else
    skip empty_span_corpus "python3 could not patch the corpus"
fi

# mentions embedded in a longer name (the next word capitalised, no weekday or month): left
# out for an entity when fewer than --embedded-share of its mentions (Baltimore: 1 of 5 at the
# default 0.25), kept when more (Textron: 2 of 3, "Textron Inc"), never for "Washington Monday"
E=$WORK/embedded && mkdir -p "$E"
printf 'Baltimore\t0\nTextron\t1\nWashington\t2\n' >"$E/entity2id.txt"
{
    echo '{"tokens": ["Baltimore", "Gas", "and", "Electric", "Co", "said"], "entityMentions": [{"start": 0, "end": 0, "entityId": 0}]}'
    for i in 1 2 3 4; do echo '{"tokens": ["in", "Baltimore", "."], "entityMentions": [{"start": 1, "end": 1, "entityId": 0}]}'; done
    for i in 1 2; do echo '{"tokens": ["Textron", "Inc", "said"], "entityMentions": [{"start": 0, "end": 0, "entityId": 1}]}'; done
    echo '{"tokens": ["Textron", "said"], "entityMentions": [{"start": 0, "end": 0, "entityId": 1}]}'
    echo '{"tokens": ["in", "Washington", "Monday"], "entityMentions": [{"start": 1, "end": 1, "entityId": 2}]}'
    echo '{"tokens": ["in", "Washington", "."], "entityMentions": [{"start": 1, "end": 1, "entityId": 2}]}'
} >"$E/sentences.json"
mentions_of() { inspect "$1" | tail -n 1 | jq '.mentions'; }
for share in 0 0.25 1; do
    tokenize "$E" --learn-vocab 50 --vocab-out "$WORK/ev.txt" --embedded-share $share --out "$WORK/e-$share.mp" 2>"$WORK/e-$share.log"
done
[ "$(mentions_of "$WORK/e-0.mp")" = 10 ] && ! grep -q "left out" "$WORK/e-0.log" && pass embedded_share_0_keeps_all ||
    fail embedded_share_0_keeps_all "$(mentions_of "$WORK/e-0.mp") mentions; $(cat "$WORK/e-0.log")"
[ "$(mentions_of "$WORK/e-0.25.mp")" = 9 ] && grep -q "1 embedded mention left out" "$WORK/e-0.25.log" &&
    pass embedded_default_leaves_baltimore_gas || fail embedded_default_leaves_baltimore_gas "$(mentions_of "$WORK/e-0.25.mp") mentions"
[ "$(mentions_of "$WORK/e-1.mp")" = 7 ] && grep -q "3 embedded mentions left out" "$WORK/e-1.log" &&
    pass embedded_share_1_not_monday || fail embedded_share_1_not_monday "$(mentions_of "$WORK/e-1.mp") mentions"
expect_exit embedded_share_range 2 "embedded-share" tokenize "$E" --learn-vocab 50 --embedded-share 2 --out "$WORK/e-bad.mp"
