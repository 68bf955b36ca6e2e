"""Every registered solver, called from Python, gives the command line's answer (moreau solve)
on the stored problems, bit for bit."""
import json

import numpy as np
import pytest

from conftest import PROBLEMS, run_cli

FILES = ["box-stack-1666.hdf5", "quadruped-150.mprob"]


def load(moreau, name):
    path = str(PROBLEMS / name)
    return moreau.load_fclib(path)[0] if name.endswith(".hdf5") else moreau.Problem.load(path)


@pytest.mark.parametrize("name", FILES)
def test_every_solver_matches_cli(moreau, name, tmp_path):
    if name.endswith(".hdf5") and not moreau.fclib_supported():
        pytest.skip("built without HDF5")
    p = load(moreau, name)
    for solver in moreau.solver_names():
        lam_file = tmp_path / f"{solver}.json"
        r = run_cli("solve", PROBLEMS / name, "--solver", solver, "--max-iter", 200, "--tol",
                    1e-8, "--json", "--lambda-out", lam_file, check=False)
        if r.returncode == 2:  # refused: Python raises with the same message
            with pytest.raises(ValueError) as e:
                moreau.solve(p, solver, max_iters=200, tol=1e-8)
            assert str(e.value) in r.stderr
            continue
        cli = json.loads(r.stdout)
        py = moreau.solve(p, solver, {"max_iters": 200, "tol": 1e-8})
        assert py["status"] == cli["status"], solver
        assert py["iterations"] == cli["iterations"], solver
        assert py.get("message", "") == cli.get("message", ""), solver
        if lam_file.exists():
            lam = np.array(json.load(open(lam_file))["lambda"], dtype=float)
            assert np.array_equal(py["lambda"], lam, equal_nan=True), solver
        m = moreau.metrics(p, py["lambda"], py["v_plus"])
        if cli["r_natmap"] is None:  # a non-finite residual (JSON has no NaN) in both
            assert not np.isfinite(m["r_natmap"]), solver
        elif np.isfinite(cli["r_natmap"]):
            assert m["r_natmap"] == cli["r_natmap"], solver


def test_warm_start_and_settings(moreau):
    p = load(moreau, "quadruped-150.mprob")
    cold = moreau.solve(p, "pgs-ncp", tol=1e-10, max_iters=2000)
    assert cold["status"] == "converged"
    assert len(cold["trace"]) == cold["iterations"]  # residual per iteration
    warm = moreau.solve(p, "pgs-ncp", tol=1e-10, max_iters=2000, warm_start=cold["lambda"])
    assert warm["iterations"] < cold["iterations"]
    # the NCP at the answer: r_natmap within tolerance (eq. 163)
    assert moreau.metrics(p, cold["lambda"], cold["v_plus"])["r_natmap"] <= 1e-8
    # a solver parameter changes the iterates
    over = moreau.solve(p, "pgs-ncp", tol=1e-10, max_iters=2000, omega=1.3)
    assert over["iterations"] != cold["iterations"]
    with pytest.raises(ValueError, match="warm_start: expected shape"):
        moreau.solve(p, "pgs-ncp", warm_start=np.zeros(3))
