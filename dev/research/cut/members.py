# members.py: a class's members as evaluate --pool reads them — gt/<class>.txt, then the pool's
# judgements (name TAB 1|0, names resolved through entity2id.txt and aliases.txt) added or
# removed. Shared by collect.py and lists.py (exploration for docs/cut.md).
import os, sys

def norm(s): return s.replace('_', ' ').lower()

def entity_names(ddir):
    names = {}
    for line in open(f'{ddir}/entity2id.txt'):
        n, e = line.rstrip('\n').split('\t'); names.setdefault(norm(n), int(e))
    if os.path.exists(f'{ddir}/aliases.txt'):
        for line in open(f'{ddir}/aliases.txt'):
            f = line.rstrip('\n').split('\t')
            if norm(f[0]) in names:
                for a in f[1:]: names.setdefault(norm(a), names[norm(f[0])])
    return names

def members(ddir, pooldir, cls, names):
    gt = set(int(l.split('\t')[0]) for l in open(f'{ddir}/gt/{cls}.txt') if l.strip())
    pf = f'{pooldir}/{cls}.tsv'
    if pooldir != '-' and os.path.exists(pf):
        for l in open(pf):
            if not l.strip() or l.startswith('#'): continue
            f = l.rstrip('\n').split('\t'); e = names.get(norm(f[0]))
            if e is None: print('unresolved', f[0], file=sys.stderr); continue
            (gt.add if f[1] == '1' else gt.discard)(e)
    return gt
