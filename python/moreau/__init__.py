"""moreau: rigid multibody dynamics with frictional contact, and its contact solvers.

    import moreau
    model = moreau.load("fourbar-fixed")          # built-in name (keywords: --set), .json, .urdf, MJCF .xml
    sim = moreau.Simulator(model, solver="admm-ncp-sa", dt=1e-3, tol=1e-8)
    traj = sim.rollout(100)                       # dict of numpy arrays t, r, q, u
    batch = moreau.Batch(model, 64, threads=2)    # 64 worlds; batch.ctrl, .r, .q, .u: numpy views
    p = sim.problem()                             # the last step's Problem
    out = moreau.solve(p, "nbgs", max_iters=200)  # lambda, v_plus, status, iterations, trace

docs/python.md describes the module; `python3 -m moreau.sweep --help` the Dask sweeps.
"""
from ._moreau import (  # noqa: F401
    Batch,
    InputError,
    Model,
    Problem,
    SimulationError,
    Simulator,
    State,
    bench,
    builtin_scenes,
    fclib_supported,
    load,
    load_fclib,
    metrics,
    save_fclib,
    solve,
    solver_names,
    solver_params,
    solvers,
)

__all__ = [
    "Batch", "InputError", "Model", "Problem", "SimulationError", "Simulator", "State", "bench",
    "builtin_scenes", "fclib_supported", "load", "load_fclib", "metrics", "save_fclib", "solve",
    "solver_names", "solver_params", "solvers",
]
