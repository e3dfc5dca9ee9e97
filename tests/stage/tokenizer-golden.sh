# tokenizer-golden.sh: the `tokenize` program on the golden cases of ../shared/golden/tokenizer/
# (HuggingFace's Rust tokenizer, bert-base-uncased): every text without a line feed through
# `--lines --special` (also with --no-special-literals for the special_tokens cases), every
# text through a dataset's sentences.json (NUL included), and every pre-split word list one word
# per line. The ids must be the reference's except for the cases listed, with their reasons, in
# tests/fixtures/text/golden-tokenizer-differences.tsv, which must differ.
source "$(dirname "$0")/lib.sh"
T=$SHARED/golden/tokenizer
if [ ! -f "$T/cases.jsonl" ]; then skip golden_tokenizer "no ../shared/golden/tokenizer"; exit 0; fi
grep -v '^#' "$PROBEXPAN_ROOT/tests/fixtures/text/golden-tokenizer-differences.tsv" | cut -f1 | sort >"$WORK/listed"
tok() { tokenize --quiet --vocab "$T/vocab.txt" "$@"; }
# raw_lines: the hex of each input line (stdin) as raw bytes, one per line
raw_lines() { while IFS= read -r h; do printf '%b\n' "$(sed 's/../\\x&/g' <<<"$h")"; done; }

# judge NAME KEYS EXPECTED GOT: line i of KEYS names the case whose ids are line i of EXPECTED
# and GOT; the keys with other ids must be exactly the listed ones among KEYS.
judge() {
    local name=$1
    paste "$3" "$4" | awk -F'\t' '{ print $1 == $2 ? "same" : "differs" }' | paste "$2" - >"$WORK/$name.verdict"
    grep -P '\tdiffers$' "$WORK/$name.verdict" | cut -f1 | sort >"$WORK/$name.differ"
    sort "$2" | comm -12 - "$WORK/listed" >"$WORK/$name.expected"
    local n same
    n=$(wc -l <"$2"); same=$(grep -c -P '\tsame$' "$WORK/$name.verdict")
    if [ "$n" -gt 0 ] && cmp -s "$WORK/$name.differ" "$WORK/$name.expected"; then
        pass "$name"; echo "  $name: $same of $n identical to the reference, the other $((n - same)) as listed" >&2
    else fail "$name" "unlisted differences: $(comm -23 "$WORK/$name.differ" "$WORK/$name.expected" | tr '\n' ' ')listed but identical: $(comm -13 "$WORK/$name.differ" "$WORK/$name.expected" | tr '\n' ' ')"; fi
}
lf='test("^(..)*0a")' # the UTF-8 hex holds a line feed

# texts, one per line
jq -r "select(.text_utf8_hex | $lf | not) | .id" "$T/cases.jsonl" >"$WORK/t.keys"
jq -r "select(.text_utf8_hex | $lf | not) | .ids | map(tostring) | join(\" \")" "$T/cases.jsonl" >"$WORK/t.want"
jq -r "select(.text_utf8_hex | $lf | not) | .text_utf8_hex" "$T/cases.jsonl" | raw_lines | tok --lines --special >"$WORK/t.got"
judge texts_lines "$WORK/t.keys" "$WORK/t.want" "$WORK/t.got"

# the special_tokens cases with the literals as ordinary text
jq -r 'select(.ids_no_special_literals) | .id + ":no-literals"' "$T/cases.jsonl" >"$WORK/n.keys"
jq -r 'select(.ids_no_special_literals) | .ids_no_special_literals | map(tostring) | join(" ")' "$T/cases.jsonl" >"$WORK/n.want"
jq -r 'select(.ids_no_special_literals) | .text_utf8_hex' "$T/cases.jsonl" | raw_lines | tok --lines --special --no-special-literals >"$WORK/n.got"
judge texts_no_literals "$WORK/n.keys" "$WORK/n.want" "$WORK/n.got"

# every text as the one token of a sentence of a dataset (line feeds and "\u0000" included):
# the corpus holds as many wordpieces as the reference ids (less [CLS]/[SEP]) of the identical
# cases plus those --lines gives for the listed ones
mkdir -p "$WORK/ds" && printf 'Foo\t1\n' >"$WORK/ds/entity2id.txt"
jq -c '{tokens: [.text], entityMentions: []}' "$T/cases.jsonl" >"$WORK/ds/sentences.json"
want=$(jq -r '[.id, (.ids | length - 2)] | @tsv' "$T/cases.jsonl" | sort | join -v1 - "$WORK/listed" | awk '{s += $2} END {print s}')
listed_got=$(paste "$WORK/t.keys" "$WORK/t.got" | sort | join -t "$(printf '\t')" - "$WORK/listed" | awk -F'\t' '{s += split($2, a, " ") - 2} END {print s + 0}')
if tok "$WORK/ds" --out "$WORK/ds.mp" && got=$(inspect "$WORK/ds.mp" | tail -n 1 | jq -c '[.sentences, .wordpieces]') &&
   [ "$got" = "[434,$((want + listed_got))]" ]; then pass texts_dataset; else fail texts_dataset "got ${got:-nothing}, want [434,$((want + listed_got))]"; fi

# pre-split word lists: each word on its own line, the ids of a case's words concatenated
# (cases with a line feed inside a word cannot be fed so: the unit test covers them)
words_lf='any(.words[]; test("\n"))'
for mode in true false; do
    sel="select(.match_special == $mode and ($words_lf | not))"
    jq -r "$sel | .id" "$T/cases_pretokenized.jsonl" >"$WORK/p$mode.keys"
    jq -r "$sel | .ids | map(tostring) | join(\" \")" "$T/cases_pretokenized.jsonl" >"$WORK/p$mode.want"
    jq -r "$sel | .words | length" "$T/cases_pretokenized.jsonl" >"$WORK/p$mode.counts"
    jq -r "$sel | .words[]" "$T/cases_pretokenized.jsonl" | tok --lines $([ $mode = false ] && echo --no-special-literals) >"$WORK/p$mode.words"
    awk 'NR == FNR { n[++cases] = $1; next } { ids[++w] = $0 }
         END { w = 0; for (c = 1; c <= cases; c++) { line = ""
                   for (k = 0; k < n[c]; k++) { x = ids[++w]; line = line (line != "" && x != "" ? " " : "") x }
                   print line } }' "$WORK/p$mode.counts" "$WORK/p$mode.words" >"$WORK/p$mode.got"
    judge "pretokenized_match_special_$mode" "$WORK/p$mode.keys" "$WORK/p$mode.want" "$WORK/p$mode.got"
done
