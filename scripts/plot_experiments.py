#!/usr/bin/python3
"""Figures for `moreau experiment` (docs/benchmark-experiments.md): one SVG per experiment.

Usage: /usr/bin/python3 scripts/plot_experiments.py CSV_DIR [--figures docs/figures] [--png DIR]
Reads CSV_DIR/<experiment>.csv (and the -trace tables) written by
`./build/moreau experiment all --out CSV_DIR`. Runs with the system python (matplotlib from
scripts/setup.sh). Deterministic output: fixed SVG hash salt, no dates in the metadata.
"""
import argparse
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "moreau", "svg.fonttype": "none", "font.size": 9, "axes.grid": True,
                     "grid.alpha": 0.3, "legend.fontsize": 7})
META = {"Date": None, "Creator": "scripts/plot_experiments.py"}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k, v in r.items():
            try:
                r[k] = float(v)
            except ValueError:
                pass
    return rows


def uniq(rows, key):
    out = []
    for r in rows:
        if r[key] not in out:
            out.append(r[key])
    return out


def finite_or_nan(x, cap=float("inf")):
    return x if isinstance(x, float) and math.isfinite(x) and abs(x) < cap else float("nan")


STYLE = {  # solver/config -> (colour, linestyle)
    "admm-ccp": ("tab:red", "-"), "apgd": ("tab:orange", "--"),
    "pgs-ccp(de_saxce=0)": ("tab:pink", ":"), "admm-ncp-sa": ("tab:blue", "-"),
    "nbgs": ("tab:green", "--"), "ngn": ("tab:cyan", ":"), "pgs-ccp": ("tab:purple", "-"),
    "pgs-ncp": ("tab:brown", "--"),
    "soft pgs-ccp(de_saxce=0)": ("tab:orange", "--"), "soft apgd": ("tab:red", ":"),
    "hard pgs-ccp(de_saxce=0)": ("tab:purple", "-."), "hard apgd": ("tab:olive", "-."),
    "hard admm-ncp-sa": ("tab:blue", "-"),
}


def style(name):
    c, ls = STYLE.get(name, ("black", "-"))
    return {"color": c, "linestyle": ls}


def save(fig, figures, png, name):
    os.makedirs(figures, exist_ok=True)
    fig.savefig(os.path.join(figures, name + ".svg"), metadata=META)
    if png:
        os.makedirs(png, exist_ok=True)
        fig.savefig(os.path.join(png, name + ".png"), dpi=110)
    plt.close(fig)


def plot_ccp(d, figures, png):
    s = read(os.path.join(d, "ccp-vs-ncp.csv"))
    tr = read(os.path.join(d, "ccp-vs-ncp-trace.csv"))
    v0 = s[0]["v0"]
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.9))
    for solver in uniq(tr, "solver"):
        rows = [r for r in tr if r["solver"] == solver and r["mu"] == 0.5]
        t = [r["t"] for r in rows]
        ax[0].plot(t, [max(r["height_gain"], 1e-12) for r in rows], label=solver, **style(solver))
        sl = [r for r in rows if r["mu_vt_contact_mean"] > 1e-3]
        ax[1].plot([r["mu_vt_contact_mean"] for r in sl], [r["vn_contact_mean"] for r in sl],
                   marker="o", markersize=2.5, lw=0, color=style(solver)["color"], label=solver)
    for mu in uniq(tr, "mu"):
        for solver in uniq(tr, "solver"):
            rows = [r for r in tr if r["solver"] == solver and r["mu"] == mu]
            ax[2].plot([r["t"] for r in rows], [r["x"] for r in rows], **style(solver),
                       label=solver if mu == 0.5 else None)
        d_an = next(r["distance_analytic"] for r in s if r["mu"] == mu)
        ax[2].axhline(d_an, color="gray", lw=0.8)
        ax[2].text(0.0, d_an, f" v0²/(2 mu g), mu = {mu:g}", va="bottom", fontsize=7, color="gray")
    lim = max(r["mu_vt_contact_mean"] for r in tr)
    ax[1].plot([0, lim], [0, lim], color="gray", lw=0.8, label="v_n = mu |v_t|")
    ax[0].set(title=f"Box height above rest (mu = 0.5, v0 = {v0:g} m/s)", xlabel="t [s]",
              ylabel="CoM height gain [m] (floor 1e-12)", yscale="log", ylim=(1e-13, 0.1))
    ax[0].text(0.2, 2e-3, "CCP: hop, then slides at gap = dt mu |v_t|", fontsize=7)
    ax[0].text(0.05, 3e-12, "NCP: stays on the plane", fontsize=7)
    ax[1].set(title="Contact normal velocity while sliding (mu = 0.5)",
              xlabel="mu |v_t| at active contacts [m/s]", ylabel="v_n (solver's v+) [m/s]")
    ax[2].set(title="Sliding distance vs Coulomb's v0²/(2 mu g)", xlabel="t [s]",
              ylabel="x - x0 [m]")
    ax[0].legend(ncol=2, loc="center right")
    ax[1].legend()
    ax[2].legend(ncol=2)
    fig.suptitle("ccp-vs-ncp: a 0.2 m cube launched along a plane (dt = 1 ms); CCP lines overlap, "
                 "NCP lines overlap", fontsize=10)
    fig.tight_layout()
    save(fig, figures, png, "ccp-vs-ncp")


def plot_softening(d, figures, png):
    s = read(os.path.join(d, "softening-vs-proximal.csv"))
    systems = uniq(s, "system")
    metrics = [("max_joint_drift", "max |f_J| over the run [m, rad]"),
               ("iters_mean", "mean solver iterations per step"),
               ("max_joint_speed_late", "max |J u| over the 2nd half [m/s, rad/s]"),
               ("max_energy_drift", "max |E(t) - E(0)| [J]")]
    fig, ax = plt.subplots(len(systems), 4, figsize=(16, 3.6 * len(systems)), squeeze=False)
    for i, system in enumerate(systems):
        for cfg in uniq(s, "config"):
            rows = [r for r in s if r["system"] == system and r["config"] == cfg]
            x = [r["mass_ratio"] for r in rows]
            for j, (m, label) in enumerate(metrics):
                y = [finite_or_nan(r[m], 1e3) for r in rows]
                ax[i][j].plot(x, y, marker="o", label=cfg, **style(cfg))
                bad = [(a, 1e3 if m != "iters_mean" else r["iters_mean"]) for a, r in zip(x, rows)
                       if r["completed"] == 0 or r[m] > 1e3 or not math.isfinite(r[m])]
                if bad:
                    ax[i][j].plot(*zip(*bad), marker="x", ms=9, lw=0, color=style(cfg)["color"])
                ax[i][j].set(xscale="log", yscale="log", xlabel="mass ratio", ylabel=label,
                             title=f"{system}: {label.split(' [')[0]}")
        ax[i][0].legend()
    fig.suptitle("softening-vs-proximal: MuJoCo-style softening (CCP solvers, ERP off) vs hard "
                 "constraints (ERP 0.5, ADMM proximal term); 2 s at dt = 1 ms\n× = run failed "
                 "(non-finite) or value > 1e3, drawn at 1e3",
                 fontsize=10)
    fig.tight_layout()
    save(fig, figures, png, "softening-vs-proximal")


def plot_timestep(d, figures, png):
    s = read(os.path.join(d, "timestep-sweep.csv"))
    systems = uniq(s, "system")
    metrics = [("iters_mean", "mean iterations / step"), ("natmap_max", "max natural map at exit"),
               ("drift_or_pen", "max |f_J| or penetration [m]"),
               ("max_energy_drift", "max |E(t) - E(0)| [J]")]
    fig, ax = plt.subplots(len(systems), 4, figsize=(14, 3.1 * len(systems)), squeeze=False)
    for i, system in enumerate(systems):
        for solver in uniq(s, "solver"):
            rows = [r for r in s if r["system"] == system and r["solver"] == solver]
            x = [1e3 * r["dt"] for r in rows]
            for j, (m, label) in enumerate(metrics):
                if m == "drift_or_pen":
                    raw = [max(r["max_joint_drift"], r["max_penetration"]) for r in rows]
                else:
                    raw = [r[m] for r in rows]
                y = [finite_or_nan(v, 1e6) for v in raw]
                ax[i][j].plot(x, y, marker="o", label=solver, **style(solver))
                bad = [(a, 1e6) for a, v in zip(x, raw) if not (abs(v) < 1e6)]
                if bad:
                    ax[i][j].plot(*zip(*bad), marker="x", ms=9, lw=0, color=style(solver)["color"])
                ax[i][j].set(xscale="log", yscale="log", xlabel="dt [ms]", ylabel=label,
                             title=f"{system}: {label.split(' [')[0]}")
                ax[i][j].set_xticks([1, 2, 5, 10], ["1", "2", "5", "10"])
        ax[i][0].legend()
    fig.suptitle("timestep-sweep: 1 s simulated per run, tol 1e-8; × = blew up (> 1e6, clipped)",
                 fontsize=10)
    fig.tight_layout()
    save(fig, figures, png, "timestep-sweep")


def plot_sor(d, figures, png):
    s = read(os.path.join(d, "sor-sensitivity.csv"))
    systems = uniq(s, "system")
    cap = max(r["iterations"] for r in s)
    fig, ax = plt.subplots(2, len(systems), figsize=(4.4 * len(systems), 6.4), squeeze=False,
                           gridspec_kw={"height_ratios": [2, 1]})
    solvers = uniq(s, "solver")
    for i, system in enumerate(systems):
        a, b = ax[0][i], ax[1][i]
        for k, solver in enumerate(solvers):
            rows = [r for r in s if r["system"] == system and r["solver"] == solver]
            omegas = sorted(set(r["omega"] for r in rows))
            med, fails, divs = [], [], []
            for w in omegas:
                it = sorted(r["iterations"] for r in rows if r["omega"] == w)
                med.append(it[len(it) // 2])
                n = len(it)
                fails.append(sum(1 for r in rows if r["omega"] == w and r["converged"] == 0) / n)
                divs.append(sum(1 for r in rows if r["omega"] == w and r["diverged"] != 0) / n)
            off = 1 + 0.015 * (k - 1)  # separate overlapping lines a little
            a.plot(omegas, [m * off for m in med], marker="o", label=solver, **style(solver))
            width = 0.05
            x = [w + (k - 1) * width for w in omegas]
            b.bar(x, fails, width=width, color=style(solver)["color"], alpha=0.45,
                  label=f"{solver}: not converged")
            b.bar(x, divs, width=width, color=style(solver)["color"], hatch="xx", fill=False,
                  edgecolor=style(solver)["color"], label=f"{solver}: diverged")
        a.axhline(cap, color="gray", lw=0.8)
        a.text(0.6, cap, " iteration cap", va="bottom", fontsize=7, color="gray")
        n = len(uniq([r for r in s if r["system"] == system], "step"))
        a.set(yscale="log", xlabel="SOR relaxation omega", ylabel="median sweeps to tol 1e-6",
              title=f"{system} ({n} recorded problems, cold start)")
        a.legend()
        b.set(xlabel="SOR relaxation omega", ylabel="fraction of problems", ylim=(0, 1.05),
              title=f"{system}: failures")
        if i == 0:
            b.legend(ncol=2, fontsize=6)
    fig.suptitle("sor-sensitivity: PGS family (Alg. 5) against omega; bars: not converged at the "
                 "cap (filled) and diverged (hatched: blow-up or residual above the cold start's)",
                 fontsize=10)
    fig.tight_layout()
    save(fig, figures, png, "sor-sensitivity")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv_dir")
    ap.add_argument("--figures", default=os.path.join(os.path.dirname(__file__), "..", "docs",
                                                      "figures"))
    ap.add_argument("--png", default=None, help="also write PNGs here (for viewing)")
    a = ap.parse_args()
    plots = {"ccp-vs-ncp": plot_ccp, "softening-vs-proximal": plot_softening,
             "timestep-sweep": plot_timestep, "sor-sensitivity": plot_sor}
    done = 0
    for name, fn in plots.items():
        if os.path.exists(os.path.join(a.csv_dir, name + ".csv")):
            fn(a.csv_dir, a.figures, a.png)
            print(f"wrote {os.path.join(a.figures, name + '.svg')}")
            done += 1
    if done == 0:
        sys.exit(f"no experiment CSV in {a.csv_dir}")


if __name__ == "__main__":
    main()
