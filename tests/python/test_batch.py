"""Batches of worlds: numpy views without copies, each world as a lone Simulator, any threads."""
import numpy as np
import pytest


def test_batch_arrays_are_views_and_worlds_match_lone_simulators(moreau):
    model = moreau.load("quadruped")
    b1 = moreau.Batch(model, 4, threads=1)
    b2 = moreau.Batch(model, 4, threads=2)
    assert b1.ctrl.shape == (4, 12) and len(b1.controls) == 12
    assert b1.r.shape == (4, model.num_bodies, 3) and b1.q.shape[2] == 4
    base = b1.ctrl[0].copy()
    for b in (b1, b2):
        c = b.ctrl  # a view: writes reach the batch
        c += 0.05 * np.arange(1, 5)[:, None]
        assert np.array_equal(b.ctrl, c)
    b1.step(30)
    b2.step(30)
    for name in ("t", "r", "q", "u"):
        assert np.array_equal(getattr(b1, name), getattr(b2, name)), name
    assert np.all(b1.t == pytest.approx(30 * moreau.Simulator(model).dt))
    assert not np.array_equal(b1.r[0], b1.r[1])
    # world 2 alone: a batch of one world with world 2's controls
    lone = moreau.Batch(model, 1)
    lone.ctrl[0] = base + 0.05 * 3
    lone.step(30)
    assert np.array_equal(lone.r[0], b1.r[2]) and np.array_equal(lone.u[0], b1.u[2])
    assert b1.unconverged.shape == (4,)


def test_batch_state_in_and_errors(moreau):
    model = moreau.load("quadruped")
    b = moreau.Batch(model, 2, threads=2)
    sim = moreau.Simulator(model)
    sim.step(3)
    b.step(3)
    assert np.array_equal(b.r[0], sim.state.r) and np.array_equal(b.state(1).u, sim.state.u)
    b.ctrl[1, 0] = np.nan
    with pytest.raises(moreau.SimulationError, match="1 of 2 worlds failed; world 1: control 0"):
        b.step(1)
    assert b.errors()[0] == "" and "not finite" in b.errors()[1]
    b.reset([1])
    b.step(1)  # world 1 runs again from the initial state
    with pytest.raises(ValueError, match="world 5 is out of range"):
        b.reset([5])
    with pytest.raises(ValueError, match="num_worlds must be >= 1"):
        moreau.Batch(model, 0)
    with pytest.raises(ValueError, match="takes no controls"):
        moreau.Batch(model, 2, integrator="nmdp")
