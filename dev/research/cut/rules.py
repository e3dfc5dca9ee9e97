# rules.py LISTS.json...: candidate cut rules on the lists collect.py saved (exploration for docs/cut.md):
# the per-list oracle, a step change-point, a threshold between head and tail (rel), an absolute drop (abs),
# the window-search score curve; mean precision and recall above the cut, lists meeting P >= 0.9 and R >= 0.5.
import json, sys, statistics as st
def load(f): return json.load(open(f))
def prf(q, k):
    E = q['entities']; reach = sum(e['gt'] for e in E)
    hits = sum(e['gt'] for e in E[:k])
    return (hits / k if k else 1.0), (hits / reach if reach else 1.0), reach
def oracle(q):
    E = q['entities']; best = 0
    h = 0
    for k in range(1, len(E)+1):
        h += E[k-1]['gt']
        if h / k >= 0.9: best = k
    return best
def smooth(x, w):
    out = []
    for i in range(len(x)):
        a = max(0, i - w); b = min(len(x), i + w + 1); out.append(sum(x[a:b]) / (b - a))
    return out
def rule_rel(q, c, key='kl_score', head=10, tail=(150, 200), w=2):
    x = [e[key] for e in q['entities']]
    if len(x) < tail[1]: tail = (int(len(x)*0.75), len(x))
    top = sum(x[:head]) / head; bot = sum(x[tail[0]:tail[1]]) / (tail[1]-tail[0])
    thr = top - c * (top - bot); s = smooth(x, w)
    for i, v in enumerate(s):
        if v < thr: return i
    return len(x)
def rule_step(q, key='kl_score'):
    x = [e[key] for e in q['entities']]; n = len(x)
    pre = [0]; pre2 = [0]
    for v in x: pre.append(pre[-1]+v); pre2.append(pre2[-1]+v*v)
    best, bk = None, n
    for k in range(1, n):
        s1 = pre2[k] - pre[k]**2/k; s2 = (pre2[n]-pre2[k]) - (pre[n]-pre[k])**2/(n-k)
        if best is None or s1+s2 < best: best, bk = s1+s2, k
    return bk
def report(name, qs, cutf):
    P = []; R = []; K = []
    for q in qs:
        k = cutf(q); p, r, reach = prf(q, k); P.append(p); R.append(r); K.append(k)
    return f'{name}: P {st.mean(P):.3f} R {st.mean(R):.3f} meet {sum(p>=0.9 and r>=0.5 for p,r in zip(P,R))}/{len(P)} medK {st.median(K)}'
def rule_argmin(q, a):
    E = sorted(q['entities'], key=lambda e: e['order'])
    x = smooth([e['search_score'] for e in E], 3)
    m = min(range(len(x)), key=lambda i: x[i])
    return min(len(x), int(round(a * (m + 1))))

def rule_abs(q, d, head=10, w=0):
    x = [e['kl_score'] for e in q['entities']]
    top = sum(x[:head]) / min(head, len(x)); s = smooth(x, w)
    for i, v in enumerate(s):
        if v < top - d: return i
    return len(x)

def by_order(q):  # the window search's own order, for its score curve
    return {'entities': sorted(q['entities'], key=lambda e: e['order'])}

if __name__ == '__main__':
    for f in sys.argv[1:]:
        qs = load(f)
        print(f, report('oracle (per list, largest k with P@k >= 0.9)', qs, oracle))
        print(f, report('step change-point of -KL', qs, rule_step))
        for c in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7):
            print(f, report(f'rel -KL c={c}', qs, lambda q: rule_rel(q, c, w=0)))
        for d in (0.03, 0.05, 0.07, 0.09, 0.11):
            print(f, report(f'abs -KL drop d={d}', qs, lambda q: rule_abs(q, d)))
        for c in (0.3, 0.5, 0.7, 0.9):
            print(f, report(f'rel window-search score c={c}', qs, lambda q: rule_rel(by_order(q), c, key='search_score', w=0)))
        for a in (1.0, 1.5):
            print(f, report(f'window-search minimum x {a}', qs, lambda q: rule_argmin(q, a)))
        # a shorter list (its first n of the 200): the cut at 0.45, recall of the members the 200 reach
        for n in (50, 100):
            P, R = [], []
            for q in qs:
                k = rule_rel({'entities': q['entities'][:n]}, 0.45, w=0)
                p, r, _ = prf(q, k)
                P.append(p); R.append(r)
            print(f, f'first {n} of 200, rel -KL c=0.45: P {st.mean(P):.3f} R {st.mean(R):.3f}')
