# setname.py SET_NAMES.jsonl WN.json RE.json: the set's name (common/model/set_name.h: the head
# shared by the seeds, its support among the seeds and in the list of 200) as a list-level signal
# of where to cut (exploration for docs/cut.md, third round). SET_NAMES.jsonl: one line per list,
# {"c": corpus, "class", "query", "set_name": query --format json's set_name}. Rules, chosen
# leave-one-corpus-out (the most lists meeting the goal, ties: the higher mean precision):
#   zero    the kept cut, but a list whose head holds fewer than a share S of its 200 (or that has
#           no shared head) is cut at 0
#   strict  the same lists cut at the stricter fraction G instead of 0
import json, sys
from rules2 import prf, score
from rules3 import kept, spearman, fmt

names_path, *paths = sys.argv[1:]
support = {}
for line in open(names_path):
    o = json.loads(line)
    h = (o['set_name'] or {}).get('heads') or []
    support[(o['c'], o['class'], o['query'])] = h[0]['listed'] / h[0]['of_listed'] if h else 0.0
data = []
for p, corpus in zip(paths, ('wordnet-ese-dev', 'reuters-ese-dev')):
    qs = [q for q in json.load(open(p)) if (corpus, q['class'], q['query']) in support]
    for q in qs: q['support'] = support[(corpus, q['class'], q['query'])]
    data.append(qs)
    P = [prf(q, kept(q, 0.45))[0] for q in qs]
    S = [q['support'] for q in qs]
    rho = f'{spearman(S, P):+.2f}' if len(set(S)) > 1 else 'undefined (one value)'
    print(f'{p}: {len(qs)} lists; Spearman of the support with the precision above the kept cut {rho}; '
          f'no shared head in {sum(s == 0 for s in S)}')
Ss = [i / 20 for i in range(0, 13)]
for rule, Gs in (('zero', [None]), ('strict', [0.2, 0.3, 0.35, 0.4])):
    table = {(S, G): [score(qs, lambda q: kept(q, 0.45) if q['support'] >= S else (0 if G is None else kept(q, G))) for qs in data]
             for S in Ss for G in Gs}
    for tr, te in ((0, 1), (1, 0)):
        p = max(table, key=lambda p: (table[p][tr][2], table[p][tr][0]))
        print(f'{rule} chosen on {paths[tr]} (S, G) {p}: {paths[te]} {fmt(table[p][te])} (own {fmt(table[p][tr])})')
    ok = [p for p in table if table[p][0][1] >= 0.5]
    p = max(ok, key=lambda p: table[p][0][0])
    print(f'{rule} highest precision at R >= 0.5 on {paths[0]}: {p} {fmt(table[p][0])}')
