# noun_slots_replay.py RANKED.mp DATA_DIR POOL_DIR COUNTS.json RATIO MIN_MENTIONS [v]: the modifier rule
# (common/model/noun_slots.h) replayed on the lists of a `query --modifier-ratio 0` run, with the
# counts of noun_slots_replay_counts.py: MAP@10/20/50 (official, pooled) before and after, how many
# names left a top 20 and how many unjudged names entered one; v: each list the rule changed.
import json, subprocess, sys, os, collections
mp, data, pool, nsfile = sys.argv[1:5]
ratio = float(sys.argv[5]); M = int(sys.argv[6]); verbose = len(sys.argv) > 7
ns = {int(k): v for k, v in json.load(open(nsfile)).items()}
out = subprocess.run([os.environ.get('PROBEXPAN_BIN', 'bin') + '/inspect', '--full', mp], capture_output=True, text=True).stdout.splitlines()
names = {}; gt = collections.defaultdict(set)
for line in open(os.path.join(data, 'entity2id.txt')):
    p = line.rstrip('\n').split('\t')
    if len(p) >= 2: names[int(p[1])] = p[0]
name2eid = {v: k for k, v in names.items()}
for f in os.listdir(os.path.join(data, 'gt')):
    c = f[:-4]
    for line in open(os.path.join(data, 'gt', f)):
        p = line.split('\t')
        if p[0].strip().isdigit(): gt[c].add(int(p[0]))
judged = set()
if os.path.isdir(pool):
  for c in list(gt):
    fp = os.path.join(pool, c + '.tsv')
    if not os.path.exists(fp): continue
    for line in open(fp):
        if line.startswith('#') or not line.strip(): continue
        p = line.rstrip('\n').split('\t'); e = name2eid.get(p[0])
        if e is None: continue
        judged.add((c, e))
        if p[1] == '1': gt[c].add(e)
        else: gt[c].discard(e)
def ap(lst, G, K):
    h = 0; s = 0
    for i, e in enumerate(lst[:K]):
        if e in G: h += 1; s += h / (i + 1)
    return s / min(len(G), K)
def share(e):
    n, k, _ = ns.get(e, [0, 0, ''])
    return k / n if n else None
tot = collections.defaultdict(list); moved_tot = 0; unj = 0
for line in out[2:]:
    q = json.loads(line); c = q['class']; seeds = q['seeds']
    ents = [e for e in q['entities'] if e not in set(seeds)]
    ss = sorted(share(s) for s in seeds if share(s) is not None)
    ref = ss[len(ss) // 2] if ss else None
    keep, moved = [], []
    for e in ents:
        sh = share(e); n = ns.get(e, [0])[0]
        if ref is not None and sh is not None and n >= M and sh < ratio * ref: moved.append(e)
        else: keep.append(e)
    new = keep + moved
    moved_tot += len([e for e in moved if e in ents[:20]])
    for K in (10, 20, 50):
        tot[('before', K)].append(ap(ents, gt[c], K)); tot[('after', K)].append(ap(new, gt[c], K))
    unj += sum(1 for e in new[:20] if e not in gt[c] and (c, e) not in judged)
    if verbose:
        d = ap(new, gt[c], 10) - ap(ents, gt[c], 10)
        if abs(d) > 1e-9 or any(e in ents[:10] for e in moved):
            print(f"{c} q{q['query']} {ap(ents,gt[c],10):.3f}->{ap(new,gt[c],10):.3f} ref={ref:.2f} moved(top20): " + ', '.join(f"{names[e]}{'+' if e in gt[c] else ''}({share(e):.2f},{ns[e][0]})" for e in moved if e in ents[:20]))
print(' '.join(f"{w}@{K}={sum(v)/len(v):.4f}" for (w, K), v in sorted(tot.items())), f"moved-from-top20={moved_tot} unjudged@20={unj}")
