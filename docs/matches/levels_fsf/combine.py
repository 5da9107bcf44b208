#!/usr/bin/env python3
"""Level ratings from two kinds of measurement, by weighted least squares:
each level against Fairy-Stockfish (absolute, on its UCI_Elo scale at 20000
nodes a move; pool.py) and each level against the one below (the spacing;
docs/engine.md, 100 games each at 2+0.05)."""
import math

# pool.py: rating and 95% half-width per level.
anchor = [(946, 177), (1100, 170), (1524, 192), (1824, 192), (1944, 172), (1941, 184), (2311, 176), (3259, 353)]
# Level n+1 minus level n: Elo and 95% half-width (scores of 95% and more say little: 400 wide).
step = [(798, 400), (531, 400), (288, 95), (111, 72), (315, 95), (186, 72), (225, 74)]
N = len(anchor)
# Normal equations (A^T W A) x = A^T W b, W = 1 / sigma^2.
M = [[0.0] * N for _ in range(N)]
v = [0.0] * N
for n, (a, ci) in enumerate(anchor):
    wt = (1.96 / ci) ** 2
    M[n][n] += wt
    v[n] += wt * a
for n, (d, ci) in enumerate(step):
    wt = (1.96 / ci) ** 2
    for i, si in ((n + 1, 1), (n, -1)):
        v[i] += wt * si * d
        for j, sj in ((n + 1, 1), (n, -1)):
            M[i][j] += wt * si * sj
def solve(M, v):
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(M)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]
x = solve(M, v)
for n in range(N):
    e = [0.0] * N
    e[n] = 1.0
    var = solve(M, e)[n]
    print(f"L{n + 1} {x[n]:.0f} ± {1.96 * math.sqrt(var):.0f}")
