#!/usr/bin/env python3
"""Pools each level's calibration chunks: the rating R that makes the expected
score against the opponents' UCI_Elo values equal the actual score (maximum
likelihood under the logistic Elo model), with a rough 95% interval."""
import collections, glob, math, os, re, sys
games = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(sys.argv[1] if len(sys.argv) > 1 else 'docs/matches/levels_fsf', 'L*_e*_c*.txt'))):
    m = re.search(r'L(\d+)_e(\d+)_c\d+', f)
    lv, e = int(m.group(1)), int(m.group(2))
    t = open(f).read()
    r = re.search(r'wins (\d+) draws (\d+) losses (\d+)', t)
    if not r: continue
    w, d, l = map(int, r.groups())
    games[lv].append((e, w, d, l))
def expected(r, e): return 1 / (1 + 10 ** ((e - r) / 400))
for lv in sorted(games):
    rows = games[lv]
    n = sum(w + d + l for _, w, d, l in rows)
    score = sum(w + d / 2 for _, w, d, l in rows)
    lo, hi = 0.0, 4000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if sum((w + d + l) * expected(mid, e) for e, w, d, l in rows) < score: lo = mid
        else: hi = mid
    r = (lo + hi) / 2
    # Fisher information for the interval.
    info = sum((w + d + l) * expected(r, e) * (1 - expected(r, e)) for e, w, d, l in rows) * (math.log(10) / 400) ** 2
    ci = 1.96 / math.sqrt(info) if info > 0 else float('inf')
    W = sum(w for _, w, d, l in rows); D = sum(d for _, w, d, l in rows); L = sum(l for _, w, d, l in rows)
    opp = ", ".join(f"{e}: {w}-{d}-{l}" for e, w, d, l in rows)
    print(f"| L{lv} | {100 + 200 * (lv - 1)} ms | {opp} | {W}-{D}-{L} | {r:.0f} ± {ci:.0f} |")
