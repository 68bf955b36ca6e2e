"""A parameter sweep on Dask (a local cluster of two worker processes) and its performance
profile (Dolan-More, from summary.json) into a PNG. The report itself is `moreau bench`'s.

    PYTHONPATH=build/python /usr/bin/python3 examples/dask_sweep_profile.py [--out sweep-out]
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from moreau import sweep  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="sweep-out")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()

    # PGS with three over-relaxation factors on three suite systems (docs/solvers.md, pgs-ncp).
    res = sweep.run_sweep(a.out, systems=["fourbar-fixed", "nunchuk", "box-on-plane"],
                          solvers=["pgs-ncp"], params=["omega=0.8,1.0,1.3"], max_samples=4,
                          duration=0.5, max_iters=500, workers=a.workers)
    print(f"{len(res['runs'])} solves in {res['wall_s']:.1f} s on {a.workers} workers; "
          f"report in {a.out}/report.md")

    profiles = json.load(open(os.path.join(a.out, "summary.json")))["profiles"]["time_to_tolerance"]
    fig, ax = plt.subplots(figsize=(7, 4))
    for p in profiles["cold"]:
        ax.step(p["tau"] + [max(p["tau"]) * 2], p["rho"] + [p["rho"][-1]], where="post",
                label=p["solver"])
    ax.set_xscale("log")
    ax.set_xlabel("tau (time / best time)")
    ax.set_ylabel("fraction of problems")
    ax.set_title("Performance profile, cold starts")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "profile.png"), dpi=120)
    print(f"wrote {a.out}/profile.png")


# Dask starts its worker processes by importing this file again: the work must be under main.
if __name__ == "__main__":
    main()
