"""Solve one FCLib problem with three solvers and plot their residual per iteration into a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/compare_solvers_fclib.py \
        [tests/data/problems/box-stack-1666.hdf5] [--solvers nbgs,admm-ncp-sa,apgd] [--out residuals.png]
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import moreau  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("problem", nargs="?", default="tests/data/problems/box-stack-1666.hdf5")
ap.add_argument("--solvers", default="nbgs,admm-ncp-sa,apgd")
ap.add_argument("--tol", type=float, default=1e-8)
ap.add_argument("--max-iters", type=int, default=500)
ap.add_argument("--out", default="residuals.png")
a = ap.parse_args()

if a.problem.endswith(".mprob"):
    problem = moreau.Problem.load(a.problem)
else:
    problem, info = moreau.load_fclib(a.problem)
    print(f"{a.problem}: FCLib {info['kind']} problem, {info['contacts']} contacts")

fig, ax = plt.subplots(figsize=(7, 4))
for solver in a.solvers.split(","):
    out = moreau.solve(problem, solver, tol=a.tol, max_iters=a.max_iters)
    m = moreau.metrics(problem, out["lambda"], out["v_plus"])  # solver-agnostic (eq. 163)
    print(f"{solver:14s} {out['status']:15s} {out['iterations']:5d} iterations "
          f"{out['solve_time_s'] * 1e3:8.3f} ms  r_natmap {m['r_natmap']:.2e}")
    ax.semilogy(range(1, len(out["trace"]) + 1), out["trace"], label=solver)
ax.axhline(a.tol, color="grey", lw=0.8, ls="--")
ax.set_xlabel("iteration")
ax.set_ylabel("residual (each solver's own stopping quantity)")
ax.set_title(f"{problem.nl} rows, {len(problem.blocks)} blocks")
ax.legend()
fig.tight_layout()
fig.savefig(a.out, dpi=120)
print(f"wrote {a.out}")
