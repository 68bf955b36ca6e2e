"""A Python rollout equals the C++ simulator's (`moreau simulate --out traj.csv`) bit for bit."""
import csv

import numpy as np
import pytest

from conftest import run_cli


def cli_trajectory(tmp_path, scene, steps, *extra):
    out = tmp_path / f"{scene}.csv"
    run_cli("simulate", scene, "--steps", steps, "--out", out, *extra)
    rows = list(csv.reader(open(out)))
    data = np.array([[float(x) for x in row] for row in rows[1:]])  # shortest round-trip text
    return data


@pytest.mark.parametrize("scene,steps,extra,kw", [
    ("fourbar-fixed", 200, [], {}),
    ("box-stack", 150, ["--solver", "nbgs"], {"solver": "nbgs"}),
    ("chain", 100, ["--set", "n=10", "--solver", "pgs-ncp", "--param", "omega=1.2"],
     {"solver": "pgs-ncp", "omega": 1.2}),
])
def test_rollout_matches_cli(moreau, tmp_path, scene, steps, extra, kw):
    ref = cli_trajectory(tmp_path, scene, steps, *extra)
    params = {"n": 10} if scene == "chain" else {}
    model = moreau.load(scene, **params)
    nb = model.num_bodies
    traj = moreau.Simulator(model, **kw).rollout(steps)
    py = np.concatenate([traj["t"][:, None],
                         np.concatenate([traj["r"], traj["q"], traj["u"]], axis=2).reshape(
                             len(traj["t"]), nb * 13)], axis=1)
    assert ref.shape[0] == steps + 1
    assert np.array_equal(py, ref[:, 1:1 + 1 + 13 * nb])
    # step() from Python, one at a time: the same numbers again
    sim = moreau.Simulator(model, **kw)
    for _ in range(steps):
        sim.step()
    s = sim.state
    last = np.concatenate([s.r, s.q, s.u], axis=1).ravel()
    assert np.array_equal(last, ref[-1, 2:2 + 13 * nb])


def test_joint_positions_follow_the_pendulum(moreau):
    model = moreau.load("pendulum")
    sim = moreau.Simulator(model)
    q0 = model.joint_positions(sim.state)
    sim.step(200)
    q1 = model.joint_positions(sim.state)
    assert len(q0) == len(model.dof_names)
    assert not np.array_equal(q0, q1)  # the pendulum swings
