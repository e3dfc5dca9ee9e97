# collect.py PORT DATASET_DIR POOL_DIR|- OUT.json: every query of a dataset through a running `probexpan serve` (size 200),
# each listed entity with its figures and whether it is in the class (gt/ plus the pool). Exploration for docs/cut.md.
import json, sys, os, glob, urllib.request
port, ddir, pooldir, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def norm(s): return s.replace('_', ' ').lower()
names = {}
for line in open(f'{ddir}/entity2id.txt'):
    n, e = line.rstrip('\n').split('\t'); names.setdefault(norm(n), int(e))
if os.path.exists(f'{ddir}/aliases.txt'):
    for line in open(f'{ddir}/aliases.txt'):
        f = line.rstrip('\n').split('\t')
        if norm(f[0]) in names:
            for a in f[1:]: names.setdefault(norm(a), names[norm(f[0])])
res = []
for qf in sorted(glob.glob(f'{ddir}/query/*.txt')):
    cls = os.path.basename(qf)[:-4]
    gt = set(int(l.split('\t')[0]) for l in open(f'{ddir}/gt/{cls}.txt') if l.strip())
    pf = f'{pooldir}/{cls}.tsv'
    if pooldir != '-' and os.path.exists(pf):
        for l in open(pf):
            if not l.strip() or l.startswith('#'): continue
            f = l.rstrip('\n').split('\t'); e = names.get(norm(f[0]))
            if e is None: print('unresolved', f[0], file=sys.stderr); continue
            (gt.add if f[1] == '1' else gt.discard)(e)
    for qi, line in enumerate(open(qf)):
        seeds = [int(t) for t in line.split()]
        if not seeds: continue
        body = json.dumps({'seeds': seeds, 'size': 200}).encode()
        r = json.load(urllib.request.urlopen(urllib.request.Request(f'http://127.0.0.1:{port}/api/expand', body, {'Content-Type': 'application/json'})))
        ents = [{k: e[k] for k in ('eid', 'score', 'order', 'kl_rank', 'kl_score', 'search_score', 'mentions')} | {'gt': e['eid'] in gt} for e in r['entities']]
        res.append({'class': cls, 'query': qi, 'seeds': seeds, 'entities': ents})
        print(cls, qi, sum(e['gt'] for e in ents), file=sys.stderr)
json.dump(res, open(out, 'w'))
