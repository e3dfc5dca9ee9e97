# rules3.py WN.json RE.json [OTHER.json...]: how close any cut can get to the goal (exploration for
# docs/cut.md, third round), on the lists lists.py saved:
#   oracles   per list the cut of highest precision at recall >= 0.5 (what evaluate --cut-fraction
#             prints as oracle_*), and the best mean precision at mean recall >= 0.5 when each list
#             may be cut anywhere, 0 included (a sweep of P + lambda R per list: the upper hull)
#   fine      the kept rule (rules2.py's first, a rising list cut at 0) on a grid of 0.01
#   shapes    the kept rule with a head of H values and a bottom from the B-th quantile on, chosen
#             leave-one-corpus-out as rules2.py does
#   logistic  a per-entity logistic model of "is a member" on the curve's features, fitted on one
#             corpus, its threshold chosen there (the most lists meeting the goal), measured on the
#             other; cut before the first entity below it, or at the longest head whose mean
#             probability is at or above it
#   signals   list-level figures of the curve against the precision above the kept cut (Spearman)
import json, math, sys
from rules2 import levels, prf, rising0, score

def kept(q, F, head=10, tail_from=0.75):
    x = [e['kl_score'] for e in q['entities']]
    n = len(x)
    top = sum(x[:head]) / head
    tail = x[int(tail_from * n):]
    bot = sum(tail) / len(tail)
    if bot == top or (bot > top and n < 40): return n
    thr = top - F * (top - bot)
    return next((i for i, v in enumerate(x) if v < thr), n)

def oracle_at_recall(q, min_recall=0.5):
    return max((k for k in range(1, len(q['entities']) + 1) if prf(q, k)[1] >= min_recall),
               key=lambda k: (prf(q, k)[0], k), default=0)

def oracle_mean_goal(qs, min_recall=0.5):
    opts = [[prf(q, k) for k in range(len(q['entities']) + 1)] for q in qs]
    best = None
    for lam in (i / 100 for i in range(501)):
        ks = [max(range(len(o)), key=lambda k: o[k][0] + lam * o[k][1]) for o in opts]
        P, R, met = score(qs, lambda q, it=iter(ks): next(it))
        if R >= min_recall and (best is None or P > best[0]): best = (P, R, met)
    return best

def features(q):
    x = [e['kl_score'] for e in q['entities']]
    top, bot, _ = levels(x, 0)
    gap = top - bot
    z = [(v - bot) / gap if gap > 0 else 0 for v in x]
    rows = []
    for i, e in enumerate(q['entities']):
        w = z[max(0, i - 5):i + 6]
        rows.append([1.0, z[i], sum(w) / len(w), math.log(i + 1), abs(math.log(e['kl_rank']) - math.log(i + 1)),
                     sum(v >= 0.55 for v in z[:i + 1]) / (i + 1), min(z[:i + 1])])
    return rows

def sigmoid(s): return 1 / (1 + math.exp(-max(-30.0, min(30.0, s))))

def fit(X, y, steps=300, rate=0.5, l2=1e-3):
    w = [0.0] * len(X[0])
    for _ in range(steps):
        g = [0.0] * len(w)
        for xi, yi in zip(X, y):
            d = sigmoid(sum(a * b for a, b in zip(w, xi))) - yi
            for j, v in enumerate(xi): g[j] += d * v
        w = [wj - rate * (gj / len(X) + l2 * wj) for wj, gj in zip(w, g)]
    return w

def cut_below(ps, t): return next((k for k, p in enumerate(ps) if p < t), len(ps))

def cut_mean(ps, t):
    best, s = 0, 0.0
    for k, p in enumerate(ps, 1):
        s += p
        if s / k >= t: best = k
    return best

def spearman(a, b):
    def ranks(v):
        r = [0] * len(v)
        for j, i in enumerate(sorted(range(len(v)), key=lambda i: v[i])): r[i] = j
        return r
    ra, rb = ranks(a), ranks(b)
    m = (len(a) - 1) / 2
    c = sum((x - m) * (y - m) for x, y in zip(ra, rb))
    return c / math.sqrt(sum((x - m) ** 2 for x in ra) * sum((y - m) ** 2 for y in rb))

def fmt(s): return '%.3f / %.3f / %d' % s

def loco(names, data, table, label):
    """table[param][i]: score on data[i]; chosen on 0 -> measured on 1 and back."""
    for tr, te in ((0, 1), (1, 0)):
        p = max(table, key=lambda p: (table[p][tr][2], table[p][tr][0]))
        print(f'{label} chosen on {names[tr]} {p}: {names[te]} {fmt(table[p][te])} (own {fmt(table[p][tr])})')

if __name__ == '__main__':
    names = sys.argv[1:]
    data = [json.load(open(f)) for f in names]
    for f, qs in zip(names, data):
        print(f'{f}: kept 0.45 {fmt(score(qs, lambda q: kept(q, 0.45)))}; oracle at R >= 0.5 per list '
              f'{fmt(score(qs, oracle_at_recall))}; oracle of the means {fmt(oracle_mean_goal(qs))}')
        print(f'  fine grid: ' + ' '.join(f'{F:.2f} {fmt(score(qs, lambda q: kept(q, F)))}' for F in (0.38, 0.40, 0.42, 0.43, 0.44, 0.45)))
    Fs = [i / 100 for i in range(30, 81, 5)]
    for H in (3, 5, 10, 20):
        for B in (0.5, 0.75, 0.9):
            loco(names, data, {(H, B, F): [score(qs, lambda q: kept(q, F, H, B)) for qs in data] for F in Fs}, 'shapes')
    feats = [[features(q) for q in qs] for qs in data]
    grid = [i / 100 for i in range(30, 100, 2)]
    for tr in (0, 1):
        X = [r for fl in feats[tr] for r in fl]
        y = [float(e['gt']) for q in data[tr] for e in q['entities']]
        w = fit(X, y)
        probs = [[[sigmoid(sum(a * b for a, b in zip(w, xi))) for xi in fl] for fl in fs] for fs in feats]
        for rule, cut in (('below', cut_below), ('mean', cut_mean)):
            table = {t: [score(qs, lambda q, it=iter(ps): cut(next(it), t)) for qs, ps in zip(data, probs)] for t in grid}
            t = max(grid, key=lambda t: (table[t][tr][2], table[t][tr][0]))
            print(f'logistic fitted on {names[tr]} ({rule}, t {t}): ' + '  '.join(f'{n} {fmt(s)}' for n, s in zip(names, table[t])))
    for f, qs in zip(names, data):
        P = [prf(q, rising0(q, kept(q, 0.45)))[0] for q in qs]
        sig = {'relative gap': [], 'head spread / gap': [], 'rank disagreement 1..20': []}
        for q in qs:
            x = [e['kl_score'] for e in q['entities']]
            top, bot, _ = levels(x, 0)
            sig['relative gap'].append((top - bot) / abs(top))
            sig['head spread / gap'].append(math.sqrt(sum((v - top) ** 2 for v in x[:10]) / 10) / (top - bot) if top != bot else 9)
            sig['rank disagreement 1..20'].append(sum(abs(math.log(e['kl_rank']) - math.log(i + 1)) for i, e in enumerate(q['entities'][:20])))
        print(f'signals {f}: ' + ', '.join(f'{k} {spearman(v, P):+.2f}' for k, v in sig.items()))
