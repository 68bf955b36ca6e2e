"""Benchmark sweeps on Dask: python3 -m moreau.sweep --out DIR [options].

Samples are recorded (one Dask task per system) and solved (one task per parameter setting,
sample and solver; cold and warm starts together) on a Dask cluster: a LocalCluster of --workers
processes on this machine by default, or the existing cluster at --scheduler ADDRESS. The results
are written by `moreau bench`'s own report writer (results.csv, summary.json, plots/, report.md),
and every row except the time column is identical to the serial `moreau bench` run with the same
selection. With several values of a --param, each solver runs once per setting, labelled
"solver[key=value]" in the report (a performance profile across the settings). docs/python.md.
"""
import argparse
import itertools
import os
import shlex
import sys
import time

from . import _moreau
from ._moreau import bench

__all__ = ["main", "run_sweep", "parse_params"]


def _record(system, dt, duration, max_samples):
    """Task: the samples of one system (a list of bench.Sample, pickled exactly)."""
    try:
        return ("ok", bench.collect_samples(system, dt=dt, duration=duration,
                                            max_samples=max_samples))
    except _moreau.SimulationError as e:  # reported and skipped, as `moreau bench` does
        return ("failed", str(e))


def _solve(sample, index, solver, label, tol, max_iters, params, cold, warm, traces):
    """Task: one sample with one solver (cold and warm starts), as rows of results.csv."""
    rows = bench.run_solves([sample], [solver], tol=tol, max_iters=max_iters, params=params,
                            cold=cold, warm=warm, jobs=1, traces=traces)
    for r in rows:
        r.sample = index
        r.solver = label
    return rows


def _expand_fclib(paths):
    """FCLib inputs as `moreau bench --fclib` takes them: files, or directories searched for
    *.hdf5 / *.h5 (sorted)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p)
                          if f.endswith((".hdf5", ".h5")))
        elif os.path.isfile(p):
            out.append(p)
        else:
            raise _moreau.InputError(f"--fclib {p}: no such file")
    return out


def parse_params(items):
    """['omega=1,1.5', 'check_every=5'] -> [({'omega': '1', 'check_every': '5'}, 'omega=1,check_every=5'),
    ...]: every combination of the listed values (as written), in the order given."""
    keys, values = [], []
    for item in items or []:
        key, eq, vals = item.partition("=")
        if not eq or not key or not vals:
            raise _moreau.InputError(f"--param '{item}': expected key=v1,v2,...")
        if key in keys:
            raise _moreau.InputError(f"--param: parameter '{key}' given twice")
        vs = [v for v in vals.split(",") if v != ""]  # as written: checked by the C++ tables
        keys.append(key)
        values.append((vs, vs))
    combos = []
    for pick in itertools.product(*[range(len(v[1])) for v in values]):
        params = {k: values[i][1][j] for i, (k, j) in enumerate(zip(keys, pick))}
        label = ",".join(f"{k}={values[i][0][j]}" for i, (k, j) in enumerate(zip(keys, pick)))
        combos.append((params, label))
    return combos


def _connect(scheduler, workers):
    from dask.distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler), None
    # One thread per worker process: each solve is timed alone on its core, as in `moreau bench`.
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster), cluster


def run_sweep(out, systems=None, solvers=None, params=(), fclib=(), dt=0.0, duration=0.0,
              max_samples=12, tol=1e-6, max_iters=1000, cold=True, warm=True, traces=True,
              scheduler=None, workers=2, client=None, command_line="", quiet=True):
    """Records and solves on Dask, writes the report into `out`; returns a dict with the samples,
    the runs (bench.RunResult), the solver labels, the systems, notes and timings."""
    t0 = time.perf_counter()
    systems = list(bench.suite_systems() if systems is None else systems)
    solvers = list(bench.default_solvers() if solvers is None else solvers)
    combos = parse_params(params) if params and not isinstance(params[0], tuple) else \
        list(params) or [({}, "")]
    if not combos:
        combos = [({}, "")]
    for s in systems:
        if s not in _moreau.builtin_scenes() and not os.path.exists(s):
            raise _moreau.InputError(
                f"unknown system '{s}'; the suite is: {', '.join(bench.suite_systems())} (any "
                f"built-in scene or scene file works too; built-ins: "
                f"{', '.join(_moreau.builtin_scenes())})")
    _expand_fclib(fclib)  # missing files are bad input, before any work
    for p, _ in combos:  # every setting checked before any work (messages of --param)
        bench.run_solves([], solvers, tol=tol, max_iters=max_iters, params=p)
    if not cold and not warm:
        raise _moreau.InputError("--no-cold and --no-warm leave nothing to run")
    os.makedirs(out, exist_ok=True)

    own = client is None
    cluster = None
    if own:
        client, cluster = _connect(scheduler, workers)
    try:
        # 1. Samples: one task per system; results in the order of `systems`.
        t_rec = time.perf_counter()
        n = len(systems)
        rec = [] if n == 0 else client.map(_record, systems, [dt] * n, [duration] * n, [max_samples] * n,
                         pure=False)
        recorded = client.gather(rec) if rec else []
        t_rec = time.perf_counter() - t_rec
        samples, names, notes = [], [], []
        for system, (status, value) in zip(systems, recorded):
            if status != "ok":
                note = f"system {system} skipped: its simulation failed ({value})"
                print(f"moreau sweep: warning: {note}", file=sys.stderr)
                notes.append(note)
                continue
            samples.extend(value)
            names.append(system)
        for f in _expand_fclib(fclib):
            for s in bench.load_samples(f):
                if not names or names[-1] != s.system:
                    names.append(s.system)
                samples.append(s)
        if not samples:
            raise _moreau.SimulationError("no samples: the systems produced no constrained step")

        # 2. Solves: one task per (setting, sample, solver); each sample is shipped once.
        t_solve = time.perf_counter()
        labels = [s if len(combos) == 1 else f"{s}[{lab}]" for s in solvers for _, lab in combos]
        shipped = client.scatter(samples)
        order, futures = [], []
        for i, smp in enumerate(samples):
            if smp.problem.nl == 0:
                continue
            for k, s in enumerate(solvers):
                for c, (p, lab) in enumerate(combos):
                    label = labels[k * len(combos) + c]
                    order.append((i, k * len(combos) + c))
                    futures.append(client.submit(_solve, shipped[i], i, s, label, tol, max_iters,
                                                 p, cold, warm, traces, pure=False))
        results = client.gather(futures)
        t_solve = time.perf_counter() - t_solve
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()

    # Rows in `moreau bench`'s order: sample, solver (label), cold before warm.
    runs = [r for _, rows in sorted(zip(order, results), key=lambda x: x[0]) for r in rows]
    wall = time.perf_counter() - t0
    bench.write_report(out, samples, runs, labels, names, tol, command_line=command_line,
                       wall_s=wall, notes=notes)
    return {"samples": samples, "runs": runs, "solvers": labels, "systems": names,
            "notes": notes, "wall_s": wall, "record_s": t_rec, "solve_s": t_solve,
            "tasks": len(futures), "record_tasks": len(systems)}


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m moreau.sweep",
        description="moreau bench on a Dask cluster: samples recorded and solves run as Dask "
                    "tasks; writes OUT/results.csv, summary.json, plots/ and report.md with "
                    "`moreau bench`'s writer.")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--systems", help="comma-separated scenes (default: the Table II suite); "
                    "'none' for files only")
    ap.add_argument("--solvers", help="comma-separated solvers (default: moreau bench's set)")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=V1,V2",
                    help="solver parameter and its values (repeatable; every combination runs)")
    ap.add_argument("--fclib", action="append", default=[],
                    help="FCLib .hdf5 file or directory of them, or a .mprob dump (repeatable)")
    ap.add_argument("--dt", type=float, default=0.0, help="time step override [s]")
    ap.add_argument("--duration", type=float, default=0.0, help="simulated time per system [s]")
    ap.add_argument("--max-samples", type=int, default=0, help="samples per system (default 12)")
    ap.add_argument("--tol", type=float, default=1e-6, help="tolerance (default 1e-6)")
    ap.add_argument("--max-iter", type=int, default=1000, help="iteration cap (default 1000)")
    ap.add_argument("--quick", action="store_true", help="as moreau bench --quick")
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--no-cold", action="store_true")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--scheduler", help="address of an existing Dask scheduler (tcp://host:8786)")
    g.add_argument("--workers", type=int, default=2,
                   help="worker processes of the local cluster (default 2)")
    a = ap.parse_args(argv)
    max_samples, duration, max_iter = a.max_samples, a.duration, a.max_iter
    if a.quick:  # moreau bench --quick
        max_samples = max_samples or 3
        duration = duration or 0.5
        max_iter = 500 if max_iter == 1000 else max_iter
    max_samples = max_samples or 12
    def split(s):
        return [x for x in s.split(",") if x]

    try:
        res = run_sweep(
            a.out, systems=(None if not a.systems else [] if a.systems == "none" else
                            split(a.systems)),
            solvers=split(a.solvers) if a.solvers else None, params=a.param, fclib=a.fclib,
            dt=a.dt, duration=duration, max_samples=max_samples, tol=a.tol, max_iters=max_iter,
            cold=not a.no_cold, warm=not a.no_warm, scheduler=a.scheduler, workers=a.workers,
            command_line="python3 -m moreau.sweep " + " ".join(
                shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:])))
    except _moreau.InputError as e:
        print(f"moreau sweep: error: {e}", file=sys.stderr)
        return 2
    except _moreau.SimulationError as e:
        print(f"moreau sweep: error: {e}", file=sys.stderr)
        return 1
    ok = sum(1 for r in res["runs"] if r.success)
    print(f"{len(res['samples'])} samples from {len(res['systems'])} systems, "
          f"{len(res['solvers'])} solvers, {len(res['runs'])} solves ({ok} successful) in "
          f"{res['wall_s']:.1f} s (recording {res['record_s']:.1f} s, {res['record_tasks']} tasks; "
          f"solving {res['solve_s']:.1f} s, {res['tasks']} tasks)")
    for n in res["notes"]:
        print(f"note: {n}")
    print(f"wrote {a.out}/report.md, results.csv, summary.json, plots/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
