"""The Dask sweep on a 2-worker LocalCluster writes the rows of the serial `moreau bench` run
(every column but the time)."""
import csv

import pytest

from conftest import run_cli

pytest.importorskip("distributed")


def rows(path):
    with open(path) as f:
        r = list(csv.DictReader(f))
    for row in r:
        row.pop("solve_time_s")
    return r


def test_sweep_equals_serial_bench(moreau, tmp_path):
    from moreau import sweep
    systems, solvers = ["fourbar-fixed", "box-on-plane", "nunchuk"], ["pgs-ncp", "admm-ncp-sa"]
    run_cli("bench", "--quick", "--quiet", "--jobs", 1, "--systems", ",".join(systems),
            "--solvers", ",".join(solvers), "--out", tmp_path / "serial")
    assert sweep.main(["--quick", "--workers", "2", "--systems", ",".join(systems), "--solvers",
                       ",".join(solvers), "--out", str(tmp_path / "dask")]) == 0
    serial, dask = rows(tmp_path / "serial" / "results.csv"), rows(tmp_path / "dask" / "results.csv")
    assert len(serial) > 10
    assert dask == serial
    for f in ("summary.json", "report.md"):
        assert (tmp_path / "dask" / f).exists()


def test_param_sweep_labels_rows(moreau, tmp_path):
    from moreau import sweep
    res = sweep.run_sweep(str(tmp_path / "p"), systems=["fourbar-fixed"], solvers=["pgs-ncp"],
                          params=["omega=1,1.3"], max_samples=2, duration=0.2, workers=2)
    assert res["solvers"] == ["pgs-ncp[omega=1]", "pgs-ncp[omega=1.3]"]
    run_cli("bench", "--quiet", "--systems", "fourbar-fixed", "--solvers", "pgs-ncp",
            "--max-samples", 2, "--duration", 0.2, "--param", "omega=1.3",
            "--out", tmp_path / "s")
    serial = rows(tmp_path / "s" / "results.csv")
    dask = [r for r in rows(tmp_path / "p" / "results.csv") if r["solver"] == "pgs-ncp[omega=1.3]"]
    for r in dask:
        r["solver"] = "pgs-ncp"
    assert dask == serial
    with pytest.raises(moreau.InputError, match="--param 'omegaa=1'"):
        sweep.run_sweep(str(tmp_path / "q"), systems=["fourbar-fixed"], solvers=["pgs-ncp"],
                        params=["omegaa=1"])


def test_sweep_with_fclib_equals_serial_bench(moreau, tmp_path):
    from moreau import sweep
    from conftest import PROBLEMS
    if not moreau.fclib_supported():
        pytest.skip("built without HDF5")
    run_cli("bench", "--quiet", "--systems", "none", "--fclib", PROBLEMS, "--solvers",
            "nbgs,apgd", "--out", tmp_path / "serial")
    assert sweep.main(["--systems", "none", "--fclib", str(PROBLEMS), "--solvers", "nbgs,apgd",
                       "--workers", "2", "--out", str(tmp_path / "dask")]) == 0
    assert rows(tmp_path / "dask" / "results.csv") == rows(tmp_path / "serial" / "results.csv")
    assert sweep.main(["--systems", "none", "--fclib", str(tmp_path / "nope.hdf5"),
                       "--out", str(tmp_path / "x")]) == 2


def test_sweep_on_an_existing_scheduler(moreau, tmp_path):
    from dask.distributed import LocalCluster
    from moreau import sweep
    args = ["--systems", "fourbar-fixed", "--solvers", "admm-ncp-sa", "--max-samples", "2",
            "--duration", "0.2"]
    run_cli("bench", "--quiet", *args, "--out", tmp_path / "serial")
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=":0") as cluster:
        assert sweep.main(args + ["--scheduler", cluster.scheduler_address,
                                  "--out", str(tmp_path / "dask")]) == 0
    assert rows(tmp_path / "dask" / "results.csv") == rows(tmp_path / "serial" / "results.csv")
