#!/usr/bin/python3
"""Reference solutions of the polytope-weight QP with cvxopt's interior-point QP solver.

    minimize 1/2 w^T Q w + c^T w   s.t.  w >= 0,  sum(w[g]) <= 1 for every group g

Usage: cvxopt_qp.py INSTANCES OUT. INSTANCES holds whitespace-separated numbers: the instance
count, then per instance n, the group count, the group sizes, Q (n*n, row-major) and c (n).
OUT receives one line per instance: status (1 optimal, 0 not), the objective, then w (n numbers).
Run by tests/nmdp/test_simplex_qp.cpp.
"""
import sys

import cvxopt
from cvxopt import matrix, solvers


def main():
    tokens = open(sys.argv[1]).read().split()
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    solvers.options.update(
        {"show_progress": False, "abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10, "maxiters": 200}
    )
    lines = []
    for _ in range(int(take())):
        n = int(take())
        sizes = [int(take()) for _ in range(int(take()))]
        Q = [[float(take()) for _ in range(n)] for _ in range(n)]
        c = [float(take()) for _ in range(n)]
        # G w <= h: -w <= 0, then one row of ones per group.
        rows = [[-1.0 if j == i else 0.0 for j in range(n)] for i in range(n)]
        begin = 0
        for size in sizes:
            rows.append([1.0 if begin <= j < begin + size else 0.0 for j in range(n)])
            begin += size
        P = matrix([[Q[i][j] for i in range(n)] for j in range(n)])  # column-major lists
        G = matrix([[rows[i][j] for i in range(len(rows))] for j in range(n)])
        h = matrix([0.0] * n + [1.0] * len(sizes))
        sol = solvers.qp(P, matrix(c), G, h)
        w = list(sol["x"])
        lines.append(
            " ".join([str(int(sol["status"] == "optimal")), repr(sol["primal objective"])] + [repr(x) for x in w])
        )
    open(sys.argv[2], "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
