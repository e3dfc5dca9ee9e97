# lists.py RANKED.jsonl DATASET_DIR POOL_DIR|- GENUS.tsv|- OUT.json: the lists of a `ranked` artifact
# (`inspect` output of `query --queries --size 200 --out`), each entity with its figures, its genus
# agreement (genus_dump.c's TSV; None without) and whether it is in the class (gt/ plus the pool,
# as evaluate --pool reads it). The input of rules2.py (exploration for docs/cut.md).
import json, sys
from members import entity_names, members
jl, ddir, pooldir, genus, out = sys.argv[1:6]
names = entity_names(ddir)
agree = {}
if genus != '-':
    for l in list(open(genus))[1:]:
        c, q, r, e, a = l.rstrip('\n').split('\t'); agree[(c, int(q), int(e))] = float(a)
res, gts = [], {}
for line in open(jl):
    o = json.loads(line)
    if 'entities' not in o or not isinstance(o['entities'], list): continue
    c = o['class']
    if c not in gts: gts[c] = members(ddir, pooldir, c, names)
    ents = []
    for i, e in enumerate(o['entities']):
        ents.append({'eid': e, 'score': o['scores'][i], 'order': o['order'][i], 'kl_rank': o['kl_rank'][i],
                     'kl_score': o['kl_score'][i], 'genus': agree.get((c, o['query'], e)), 'gt': e in gts[c]})
    res.append({'class': c, 'query': o['query'], 'seeds': o['seeds'], 'entities': ents})
json.dump(res, open(out, 'w'))
print(out, len(res), 'lists', file=sys.stderr)
