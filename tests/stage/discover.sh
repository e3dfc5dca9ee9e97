# annotate --discover: the one-step dataset from raw text (names found by
# common/discover, mentions, names.tsv with counts and contexts), names.tsv
# given back to annotate --entities unchanged gives the same dataset, the
# synonyms of a definition head as one entity (and --no-heads; not an item
# its entry spells out as another thing), seeds by
# alias through the dataset's aliases.txt, and every bad input (exit 3 naming
# file and position, nothing left behind). Expectations worked out by hand.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkdir o
{
    for i in 1 2 3; do
        echo "Yesterday the Church of England met in London ."
        echo "they played Ludwig van Beethoven in London ."
        echo "the International Business Machines ( IBM ) company grew ."
    done
    echo "then IBM grew again ."
} >text.txt
annotate --discover --lines --out o/d text.txt 2>err
if [ "$(cut -f1 o/d/entity2id.txt | sort | tr '\n' ,)" = 'Church of England,International Business Machines,London,Ludwig van Beethoven,' ]; then
    pass discovered_entities; else fail discovered_entities "$(cat o/d/entity2id.txt err)"; fi
# names.tsv: most mentioned first; the acronym as an alias; count and two contexts after '#'
line=$(grep -P '^International Business Machines\t' o/d/names.tsv)
if [ "$(printf '%s' "$line" | cut -f2,3)" = "$(printf 'IBM\t# 7 mentions; merged: IBM (acronym)')" ] &&
   [ "$(printf '%s' "$line" | awk -F'\t' '{ print NF }')" = 5 ] &&
   [ "$(grep -v '^#' o/d/names.tsv | head -n1 | cut -f1)" = 'International Business Machines' ] &&
   [ "$(cat o/d/aliases.txt)" = "$(printf 'International Business Machines\tIBM')" ]; then
    pass names_file_written; else fail names_file_written "$(cat o/d/names.tsv)"; fi
[ "$(jq -r 'select(.tokens[1] == "IBM") | .entityMentions[0].text' o/d/sentences.json)" = IBM ] &&
    pass acronym_mentions_found || fail acronym_mentions_found
# the reviewed file goes back unchanged: the same dataset
annotate --quiet --entities o/d/names.tsv --lines --out o/again text.txt
cmp -s o/d/entity2id.txt o/again/entity2id.txt && cmp -s o/d/sentences.json o/again/sentences.json &&
    pass names_file_round_trip || fail names_file_round_trip
# a query by alias, resolved against the dataset's aliases.txt
mkdir -p o/d/query && printf 'ibm\tLondon\n' >o/d/query/x.txt
tokenize --quiet o/d --learn-vocab 200 --vocab-out v.txt --out c.mp && build-samples --quiet --corpus c.mp --out s.mp &&
    pattern-dists --quiet --samples s.mp --out dists.mp && expand --quiet --dists dists.mp --queries o/d --size 1 --out e.mp
[ "$(inspect e.mp | sed -n 3p | jq -c .seed_names)" = '["International Business Machines","London"]' ] &&
    pass query_by_alias || fail query_by_alias "$(inspect e.mp 2>&1 | sed -n 3p)"

# variants become one entity: a surname mostly seen in one full name and a
# spelling in capitals are aliases, and their mentions are the entity's; a
# first name seen only inside full names is no entity, so it takes no mention
# from a full name too rare to be kept
{
    for i in 1 2 3 4; do echo "a film with Tom Hanks opened ."; echo "they run Unix here ."; done
    for i in 1 2 3; do echo "later Hanks smiled ."; echo "then Wharton wrote ."; done
    echo "a song by Tom Jones ." # "Tom" before two surnames: a given name, "Tom Hanks" a person
    echo "they run UNIX here ."; echo "they run UNIX there ."; echo "they run UNIX again ."
    for n in Wharton Piaf Cavell Sitwell; do echo "a book by Edith $n appeared ."; done
} >variants.txt
annotate --quiet --discover --lines --out o/v variants.txt
names=$(cut -f1 o/v/entity2id.txt | sort | tr '\n' ,)
hanks=$(jq -r 'select(.tokens[1] == "Hanks") | .entityMentions[0].text' o/v/sentences.json | sort -u)
hanks_id=$(jq -r 'select(.tokens[1] == "Hanks") | .entityMentions[0].entityId' o/v/sentences.json | sort -u)
[ "$names" = 'Tom Hanks,Unix,Wharton,' ] && [ "$hanks" = Hanks ] &&
    [ "$hanks_id" = "$(awk -F'\t' '$1 == "Tom Hanks" { print $2 }' o/v/entity2id.txt)" ] &&
    grep -qP '^Tom Hanks\tHanks\t# 7 mentions; merged: Hanks \(surname\)\t' o/v/names.tsv &&
    grep -qP '^Unix\tUNIX\t# 7 mentions; merged: UNIX \(spelling\)\t' o/v/names.tsv &&
    [ "$(jq -c 'select(.tokens[3] == "Edith") | [.entityMentions[].text]' o/v/sentences.json | tr '\n' ' ')" = '["Wharton"] ' ] &&
    pass variants_merged || fail variants_merged "$names $hanks $(cat o/v/names.tsv)"

# a glossary: the names heading a definition are one entity, its mentions
# counted over all of them (no name is seen 3 times alone); --no-heads reads
# the heads as text
{
    echo "Garbo , Greta Garbo , Greta Louisa Gustafsson : United States film actress"
    echo "Lake Geneva , Lake Leman : a lake between Switzerland and France"
    echo "a late film with Garbo ."
    echo "we sailed on Lake Geneva ."
} >glossary.txt
annotate --quiet --discover --lines --out o/g glossary.txt
garbo=$(jq -r 'select(.tokens[0] == "Garbo") | [.entityMentions[].text] | join("|")' o/g/sentences.json)
grep -qP '^Garbo\tGreta Louisa Gustafsson\tGreta Garbo\t# 4 mentions' o/g/names.tsv &&
    grep -qP '^Lake Geneva\tLake Leman\t# 3 mentions' o/g/names.tsv && [ "$(wc -l <o/g/entity2id.txt)" = 2 ] &&
    [ "$garbo" = 'Garbo|Greta Garbo|Greta Louisa Gustafsson' ] &&
    pass definition_heads || fail definition_heads "$garbo $(cat o/g/names.tsv)"
annotate --quiet --discover --no-heads --lines --out o/gn glossary.txt
[ "$(cut -f1 o/gn/entity2id.txt)" = Garbo ] && [ ! -s o/gn/aliases.txt ] &&
    pass definition_heads_off || fail definition_heads_off "$(cat o/gn/names.tsv)"

# a head's item that its entry spells out as another thing than the head
# ("IMNSHO ( In My Not-So-Humble Opinion )" under IMHO, In My Humble Opinion)
# is a related word the dictionary lists under the headword, no synonym; an
# item spelled out as another of its head's items stays merged (JTAG)
{
    echo "IMHO , IMNSHO , IMO : In My Humble Opinion , said on Usenet ."
    echo "Also seen as IMO and IMNSHO ( In My Not-So-Humble Opinion ) ."
    echo "JTAG , Joint Test Action Group : a standard ."
    echo "the JTAG ( Joint Test Action Group ) port ."
    echo "IMHO the JTAG port is slow ."
    echo "IMNSHO the JTAG port is slower ."
    echo "IMNSHO it is IMHO ."
} >spelled.txt
annotate --quiet --discover --lines --out o/sp spelled.txt
grep -qP '^IMHO\tIMO\t# 5 mentions; merged: IMO \(head\)' o/sp/names.tsv && grep -qP '^IMNSHO\t# 4 mentions' o/sp/names.tsv &&
    grep -qP '^JTAG\tJoint Test Action Group\t# 6 mentions; merged: Joint Test Action Group \(head\)' o/sp/names.tsv &&
    pass head_item_spelled_apart || fail head_item_spelled_apart "$(cat o/sp/names.tsv)"

# names, not fragments: a one-letter name listed with longer ones, names joined
# by "and" (but not two names listed), a title before a person's name, no day
# name, no markup; merges say their rule: a company form, an acronym and the
# only name with its initials met in one sentence
{
    for i in 1 2 3; do
        echo "compilers for C , Pascal and Fortran exist ."
        echo "the Securities and Exchange Commission said so ."
        echo "Finance Minister Cleopa Msuya spoke on Monday ."
        echo "Sun Microsystems makes SPARC ."
        echo "then Sun grew ."
        echo "see IBM}'s chips ."
        echo "we met Digital Equipment Corporation , and DEC agreed ."
    done
    for i in 1 2 3 4; do echo "we use Pascal ."; echo "we use Fortran ."; echo "then DEC grew ."; done
} >shapes.txt
annotate --quiet --discover --lines --out o/s shapes.txt
names=$(cut -f1 o/s/entity2id.txt | sort | tr '\n' ,)
[ "$names" = 'C,Cleopa Msuya,DEC,Fortran,Pascal,SPARC,Securities and Exchange Commission,Sun,' ] &&
    grep -qP '^Sun\tSun Microsystems\t# 6 mentions; merged: Sun Microsystems \(organisation\)\t' o/s/names.tsv &&
    grep -qP '^DEC\tDigital Equipment Corporation\t# 10 mentions; merged: Digital Equipment Corporation \(initials\)\t' o/s/names.tsv &&
    pass names_not_fragments || fail names_not_fragments "$names $(cat o/s/names.tsv)"

# --- bad input: exit 3, file and position, nothing left behind
printf 'all lower case here .\nnothing to find .\n' >plain.txt
expect_exit no_names 3 'plain\.txt: end of input: no entity names discovered' annotate --discover --out o/x plain.txt
printf 'London is big\0\1\2 .\n' >bin.dat
expect_exit binary_file 3 'bin\.dat: line 1, byte 14: NUL byte' annotate --discover --out o/x bin.dat
printf 'London is big .\nM\xfcnchen is big .\n' >latin1.txt
expect_exit mixed_encoding 3 'latin1\.txt: line 2, byte 2: invalid UTF-8' annotate --discover --out o/x latin1.txt
head -c 3000000 /dev/zero | tr '\0' 'a' | sed 's/aaaa/London /g' >huge.txt
expect_exit enormous_line 3 'huge\.txt: line 1: line longer than 1000000 bytes' annotate --discover --lines --max-line 1000000 --out o/x huge.txt
{ printf 'London\t'; head -c 1100000 /dev/zero | tr '\0' 'x'; printf '\n'; } >hugenames.tsv
expect_exit names_file_enormous_line 3 'hugenames\.tsv: line 1: line longer than 1048576 bytes' annotate --entities hugenames.tsv --out o/x text.txt
expect_exit entities_and_discover 2 'exactly one of --entities and --discover' annotate --discover --entities o/d/names.tsv --out o/x text.txt
[ -z "$(ls -A o | grep -v -e '^d$' -e '^again$' -e '^v$' -e '^g$' -e '^gn$' -e '^s$' -e '^sp$' -e '^catalog')" ] && [ -z "$(ls -A . | grep '^\.')" ] &&
    pass no_partial_output || fail no_partial_output "$(ls -A o . | tr '\n' ' ')"
