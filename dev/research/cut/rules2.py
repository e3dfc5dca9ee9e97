# rules2.py WN.json RE.json [OTHER.json...]: cut rules on the lists lists.py saved (exploration for
# docs/cut.md), each over a grid, chosen leave-one-corpus-out between the first two files (the most
# lists meeting P >= 0.9 and R >= 0.5, ties: the higher mean precision), reported on every file.
#   first   the kept rule of confidence_cut.h: before the first -KL below top - F (top - bottom)
#   share   the largest k whose first k hold at least a share S at or above that level (S = 1: first)
#   first0, run0  first and run, with a list whose tail is above its head (bottom > top) cut at 0
#           instead of kept whole
#   count   the number of entities at or above the level, wherever they are; gcount: genus as below
#   run     before the first run of m entities below the level; grun: genus as below
#   hyst    two levels: before the first -KL below top - L (top - bottom), then back to the last
#           entity at or above top - F (top - bottom) (F <= L)
#   genus   share, with an entity whose definitions call it something other than the seeds' shared
#           head (genus agreement 0) counted as below the level
import json, sys, statistics as st

def levels(x, F, head=10):
    n = len(x)
    top = sum(x[:min(head, n)]) / min(head, n)
    tail = x[3 * n // 4:]
    bot = sum(tail) / len(tail)
    return top, bot, top - F * (top - bot)

def first(q, F):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, thr = levels(x, F)
    if bot >= top: return len(x)
    for i, v in enumerate(x):
        if v < thr: return i
    return len(x)

def share_cut(q, F, S, use_genus):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, thr = levels(x, F)
    if bot >= top: return len(x)
    best, up = 0, 0
    for i, e in enumerate(q['entities']):
        ok = x[i] >= thr and not (use_genus and e['genus'] == 0)
        up += ok
        if ok and up >= S * (i + 1): best = i + 1  # a cut only after an entity that is above
    return best

def count_cut(q, F, use_genus):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, thr = levels(x, F)
    if bot >= top: return len(x)
    return sum(1 for i, e in enumerate(q['entities']) if x[i] >= thr and not (use_genus and e['genus'] == 0))

def run_cut(q, F, m, use_genus):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, thr = levels(x, F)
    if bot >= top: return len(x)
    below = 0
    for i, e in enumerate(q['entities']):
        b = x[i] < thr or (use_genus and e['genus'] == 0)
        below = below + 1 if b else 0
        if below >= m: return i + 1 - m
    return len(x)

def rising0(q, k):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, _ = levels(x, 0)
    return 0 if bot > top else k

def hyst(q, L, F):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, lo = levels(x, L)
    hi = top - F * (top - bot)
    k = len(x)
    for i, v in enumerate(x):
        if v < lo: k = i; break
    while k > 0 and x[k - 1] < hi: k -= 1
    return k

def prf(q, k):
    E = q['entities']; reach = sum(e['gt'] for e in E); hits = sum(e['gt'] for e in E[:k])
    return (hits / k if k else 1.0), (hits / reach if reach else 1.0)

def score(qs, cut):
    P, R = [], []
    for q in qs:
        p, r = prf(q, cut(q)); P.append(p); R.append(r)
    met = sum(p >= 0.9 and r >= 0.5 for p, r in zip(P, R))
    return st.mean(P), st.mean(R), met

def oracle(q):
    h, best = 0, 0
    for k, e in enumerate(q['entities'], 1):
        h += e['gt']
        if h / k >= 0.9: best = k
    return best

FS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]
SS = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0]
FAMILIES = {
    'first': [((F,), (lambda F: lambda q: first(q, F))(F)) for F in FS],
    'share': [((F, S), (lambda F, S: lambda q: share_cut(q, F, S, False))(F, S)) for F in FS for S in SS],
    'genus': [((F, S), (lambda F, S: lambda q: share_cut(q, F, S, True))(F, S)) for F in FS for S in SS],
    'first0': [((F,), (lambda F: lambda q: rising0(q, first(q, F)))(F)) for F in FS],
    'run0': [((F, m), (lambda F, m: lambda q: rising0(q, run_cut(q, F, m, False)))(F, m)) for F in FS for m in (1, 2, 3, 4)],
    'hyst': [((L, F), (lambda L, F: lambda q: hyst(q, L, F))(L, F)) for L in FS for F in FS if F <= L],
    'count': [((F,), (lambda F: lambda q: count_cut(q, F, False))(F)) for F in FS],
    'gcount': [((F,), (lambda F: lambda q: count_cut(q, F, True))(F)) for F in FS],
    'run': [((F, m), (lambda F, m: lambda q: run_cut(q, F, m, False))(F, m)) for F in FS for m in (1, 2, 3, 4)],
    'grun': [((F, m), (lambda F, m: lambda q: run_cut(q, F, m, True))(F, m)) for F in FS for m in (1, 2, 3, 4)],
}

if __name__ == '__main__':
    names = sys.argv[1:]
    data = [json.load(open(f)) for f in names]
    for f, qs in zip(names, data):
        print(f, 'oracle P %.3f R %.3f met %d/%d' % (*score(qs, oracle), len(qs)))
    for fam, grid in FAMILIES.items():
        table = [(p, [score(qs, cut) for qs in data]) for p, cut in grid]
        def best(i):
            return max(table, key=lambda t: (t[1][i][2], t[1][i][0]))
        def best_both():
            return max(table, key=lambda t: (t[1][0][2] + t[1][1][2], t[1][0][0] + t[1][1][0]))
        for train, test in ((0, 1), (1, 0)):
            p, s = best(train)
            print(f'{fam:6} chosen on {names[train]} {p} -> {names[test]} P {s[test][0]:.3f} R {s[test][1]:.3f} met {s[test][2]}/{len(data[test])}'
                  f'  (on its own: P {s[train][0]:.3f} R {s[train][1]:.3f} met {s[train][2]})')
        for i in range(len(data)):
            ok = [t for t in table if t[1][i][1] >= 0.5]
            if ok:
                p, s = max(ok, key=lambda t: t[1][i][0])
                print(f'{fam:6} highest precision at R >= 0.5 on {names[i]}: {p} P {s[i][0]:.3f} R {s[i][1]:.3f} met {s[i][2]}')
        p, s = best_both()
        print(f'{fam:6} chosen on both {p}: ' + '  '.join(f'{n} P {x[0]:.3f} R {x[1]:.3f} met {x[2]}/{len(d)}' for n, x, d in zip(names, s, data)))
