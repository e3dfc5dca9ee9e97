#!/usr/bin/env bash
# wordnet-heldout.sh: the held-out class builder (examples/wordnet/heldout.sh, heldout.awk,
# wordnet.awk -v mode=instances) on a tiny WordNet fragment and dataset written here: which
# synsets the rule takes (dev share, seed-eligible members, near-duplicates, the size cap), the
# members (through a hyponym, names the dataset lacks left out), the seed sets (only names whose
# every sense is in the class, no two names of one synset in a set), and the bad-input paths.
source "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
H=$PROBEXPAN_ROOT/examples/wordnet/heldout.sh

mkdir -p wn ds/gt
# island: 4 instances (one has two entity names, one a name the dataset lacks); port: 2 own
# instances and 2 through its hyponym seaport, one of them also another synset's name (not a
# seed); deity (4) holds sea_god (3): near-duplicates, the more specific stays; general: the
# dev class's members; mountain: 3 members but 2 of them have other senses (too few seeds).
cat >wn/data.noun <<'EOF'
  1 a made-up WordNet fragment for tests/stage/wordnet-heldout.sh
00100000 17 n 01 island 0 004 ~i 00101000 n 0000 ~i 00102000 n 0000 ~i 00103000 n 0000 ~i 00104000 n 0000 | land surrounded by water
00101000 17 n 02 Alpha 0 Alpha_Isle 0 001 @i 00100000 n 0000 | an island
00102000 17 n 01 Beta 0 001 @i 00100000 n 0000 | an island
00103000 17 n 01 Gamma 0 001 @i 00100000 n 0000 | an island
00104000 17 n 02 Delta 0 Omega 0 001 @i 00100000 n 0000 | an island
00200000 06 n 01 port 0 003 ~ 00210000 n 0000 ~i 00201000 n 0000 ~i 00202000 n 0000 | a place where ships dock
00210000 06 n 01 seaport 0 003 @ 00200000 n 0000 ~i 00211000 n 0000 ~i 00212000 n 0000 | a port on the sea
00201000 15 n 01 Porta 0 001 @i 00200000 n 0000 | a port
00202000 15 n 01 Portb 0 001 @i 00200000 n 0000 | a port
00211000 15 n 01 Portc 0 001 @i 00210000 n 0000 | a seaport
00212000 15 n 01 Portd 0 001 @i 00210000 n 0000 | a seaport
00213000 18 n 01 Portd 0 000 | a person called Portd
00300000 18 n 01 deity 0 002 ~ 00310000 n 0000 ~i 00301000 n 0000 | a god
00310000 18 n 02 sea_god 0 ocean_god 0 004 @ 00300000 n 0000 ~i 00311000 n 0000 ~i 00312000 n 0000 ~i 00313000 n 0000 | a god of the sea
00301000 18 n 01 Nereus 0 001 @i 00300000 n 0000 | a god
00311000 18 n 01 Triton 0 001 @i 00310000 n 0000 | a sea god
00312000 18 n 01 Proteus 0 001 @i 00310000 n 0000 | a sea god
00313000 18 n 01 Glaucus 0 001 @i 00310000 n 0000 | a sea god
00400000 18 n 01 general 0 003 ~i 00401000 n 0000 ~i 00402000 n 0000 ~i 00403000 n 0000 | an officer
00401000 18 n 01 Grant 0 001 @i 00400000 n 0000 | a general
00402000 18 n 01 Lee 0 001 @i 00400000 n 0000 | a general
00403000 18 n 01 Sherman 0 001 @i 00400000 n 0000 | a general
00500000 17 n 01 mountain 0 003 ~i 00501000 n 0000 ~i 00502000 n 0000 ~i 00503000 n 0000 | a high hill
00501000 17 n 01 Mons 0 001 @i 00500000 n 0000 | a mountain
00502000 17 n 01 Olympus 0 001 @i 00500000 n 0000 | a mountain
00503000 17 n 01 Ida 0 001 @i 00500000 n 0000 | a mountain
00504000 15 n 01 Mons 0 000 | a town called Mons
00505000 18 n 01 Ida 0 000 | a woman called Ida
EOF
names="Alpha Alpha_Isle Beta Gamma Delta Porta Portb Portc Portd Nereus Triton Proteus Glaucus Grant Lee Sherman Mons Olympus Ida"
i=0
for n in $names; do printf '%s\t%d\n' "${n//_/ }" $i; i=$((i + 1)); done >ds/entity2id.txt
# mentions: entity i is mentioned i + 1 times (so Ida is the most mentioned)
i=0
for n in $names; do
    for _ in $(seq 0 $i); do printf '{"tokens": ["%s"], "entityMentions": [{"start": 0, "end": 0, "entityId": %d}]}\n' "$n" $i; done
    i=$((i + 1))
done >ds/sentences.json
printf '13\tGrant\t1\n14\tLee\t1\n' >ds/gt/generals.txt

if sh "$H" --wordnet wn --data ds --min-members 3 --queries 10 --out o/all 2>err; then pass builds; else fail builds "$(tail -n 3 err)"; fi
[ "$(ls o/all/gt | tr '\n' ' ')" = 'island.txt port.txt sea_god.txt ' ] && pass rule_classes || fail rule_classes "$(ls o/all/gt | tr '\n' ' ')"
grep -q 'dropped	1 (dev share > 0.1), 1 (< 3 seed-eligible), 1 (near-duplicates)' err && pass rule_log || fail rule_log "$(grep dropped err)"
members() { cut -f1,2 "o/all/gt/$1.txt" | tr '\t\n' ':,'; }
[ "$(members island)" = '0:Alpha,1:Alpha Isle,2:Beta,3:Gamma,4:Delta,' ] &&
    [ "$(members port)" = '5:Porta,6:Portb,7:Portc,8:Portd,' ] &&
    [ "$(members sea_god)" = '10:Triton,11:Proteus,12:Glaucus,' ] && pass rule_members || fail rule_members "$(members island) $(members port)"
# seeds: 3 distinct members a line; Portd (another sense) never; Alpha and Alpha Isle never together
ok=1
for c in island port sea_god; do
    [ "$(wc -l <"o/all/query/$c.txt")" -eq 10 ] || ok=0
    awk -v gt="o/all/gt/$c.txt" 'BEGIN { while ((getline l < gt) > 0) { split(l, f, "\t"); m[f[1]] = 1 } }
        NF != 3 || $1 == $2 || $1 == $3 || $2 == $3 { exit 1 } { for (i = 1; i <= 3; i++) if (!($i in m)) exit 1 }' "o/all/query/$c.txt" || ok=0
done
grep -qw 8 o/all/query/port.txt && ok=0
grep -w 0 o/all/query/island.txt | grep -qw 1 && ok=0
[ $ok = 1 ] && pass seeds || fail seeds "$(cat o/all/query/port.txt o/all/query/island.txt | tr '\n' ' ')"
[ "$(cut -f1,4,6,7 o/all/classes.tsv | tail -n +2 | tr '\t\n' ' ,')" = 'island 5 5 5,port 4 3 3,sea_god 3 3 3,' ] &&
    pass classes_tsv || fail classes_tsv "$(tr '\t\n' ' ,' <o/all/classes.tsv)"
cmp -s ds/sentences.json o/all/sentences.json && cmp -s ds/entity2id.txt o/all/entity2id.txt &&
    pass corpus_copied || fail corpus_copied
# the same inputs, the same seed sets; the cap keeps the largest (ties: the smaller offset)
sh "$H" --wordnet wn --data ds --min-members 3 --queries 10 --out o/again 2>/dev/null
diff -r o/all/query o/again/query >/dev/null && pass deterministic || fail deterministic
sh "$H" --wordnet wn --data ds --min-members 3 --max-classes 2 --out o/cap 2>/dev/null
[ "$(ls o/cap/gt | tr '\n' ' ')" = 'island.txt port.txt ' ] && pass max_classes || fail max_classes "$(ls o/cap/gt | tr '\n' ' ')"
# an archive works as a folder does
tar czf ds.tar.gz ds
sh "$H" --wordnet wn --data ds.tar.gz --min-members 3 --queries 10 --out o/tgz 2>/dev/null
diff -r o/all/gt o/tgz/gt >/dev/null && diff -r o/all/query o/tgz/query >/dev/null && pass archive || fail archive

# bad input: exit 3 (2 for usage), a message, nothing written
expect_exit no_wordnet 3 'nowhere/data\.noun: not found' sh "$H" --wordnet nowhere --data ds --out o/x
mkdir -p bad/gt && cp ds/gt/generals.txt bad/gt/ && cp ds/sentences.json bad/
expect_exit no_entities 3 'bad: no entity2id\.txt in the dataset' sh "$H" --wordnet wn --data bad --out o/x
expect_exit no_dataset 3 'missing: no such dataset' sh "$H" --wordnet wn --data missing --out o/x
expect_exit no_data_option 2 'usage' sh "$H" --wordnet wn --out o/x
mkdir -p foreign && echo keep >foreign/file
expect_exit foreign_out 2 'not written by heldout\.sh' sh "$H" --wordnet wn --data ds --out foreign
[ ! -e o/x ] && [ -z "$(find o -maxdepth 1 -name '.heldout-build*')" ] && [ "$(cat foreign/file)" = keep ] &&
    pass no_partial_output || fail no_partial_output "$(ls -A o)"
