# collect.py PORT DATASET_DIR POOL_DIR|- OUT.json: every query of a dataset through a running `probexpan serve` (size 200),
# each listed entity with its figures and whether it is in the class (gt/ plus the pool). Exploration for docs/cut.md.
import json, sys, os, glob, urllib.request
from members import entity_names, members
port, ddir, pooldir, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
names = entity_names(ddir)
res = []
for qf in sorted(glob.glob(f'{ddir}/query/*.txt')):
    cls = os.path.basename(qf)[:-4]
    gt = members(ddir, pooldir, cls, names)
    for qi, line in enumerate(open(qf)):
        seeds = [int(t) for t in line.split()]
        if not seeds: continue
        body = json.dumps({'seeds': seeds, 'size': 200}).encode()
        r = json.load(urllib.request.urlopen(urllib.request.Request(f'http://127.0.0.1:{port}/api/expand', body, {'Content-Type': 'application/json'})))
        ents = [{k: e[k] for k in ('eid', 'score', 'order', 'kl_rank', 'kl_score', 'search_score', 'mentions')} | {'gt': e['eid'] in gt} for e in r['entities']]
        res.append({'class': cls, 'query': qi, 'seeds': seeds, 'entities': ents})
        print(cls, qi, sum(e['gt'] for e in ents), file=sys.stderr)
json.dump(res, open(out, 'w'))
