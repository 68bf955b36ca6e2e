"""Arrays round-trip between numpy and moreau: State views, Problem views and constructors."""
import pickle

import numpy as np
import pytest

from conftest import PROBLEMS


def test_state_arrays_are_views(moreau):
    s = moreau.load("fourbar-fixed").initial_state()
    r = s.r
    r[1, 2] = 7.5  # a write through the view reaches the State
    assert s.r[1, 2] == 7.5
    u = np.arange(s.num_bodies * 6, dtype=float).reshape(-1, 6)
    s.u = u
    assert np.array_equal(s.u, u)
    # q is (w, x, y, z); q_xyzw the stored (x, y, z, w) view of the same numbers
    assert np.array_equal(s.q[:, 0], s.q_xyzw[:, 3])
    assert np.array_equal(s.q[:, 1:], s.q_xyzw[:, :3])
    q = np.tile([0.0, 0.0, 0.0, 1.0], (s.num_bodies, 1))
    s.q = q
    assert np.array_equal(s.q, q)


def test_state_shape_errors_raise(moreau):
    s = moreau.load("fourbar-fixed").initial_state()
    with pytest.raises(ValueError, match=r"State.r: expected shape \(4, 3\), got \(3, 3\)"):
        s.r = np.zeros((3, 3))
    with pytest.raises(ValueError, match="State.u"):
        s.u = np.zeros(24)
    with pytest.raises(ValueError, match="State.q"):
        s.q = [["a", "b", "c", "d"]] * 4


def test_simulator_state_is_live(moreau):
    sim = moreau.Simulator(moreau.load("pendulum"))
    r = sim.state.r
    before = r.copy()
    sim.step(5)
    assert not np.array_equal(r, before)  # the view follows the simulator's state
    assert sim.state.t == pytest.approx(5 * sim.dt)


def test_problem_dense_csr_and_primal_agree(moreau):
    sim = moreau.Simulator(moreau.load("box-stack"))
    sim.step(3)
    p = sim.problem()
    D = p.D_dense()
    data, indices, indptr, shape = p.D_csr()
    rebuilt = np.zeros(shape)
    for i in range(shape[0]):
        rebuilt[i, indices[indptr[i]:indptr[i + 1]]] = data[indptr[i]:indptr[i + 1]]
    assert np.array_equal(rebuilt, D)
    # D = J M^-1 J^T (eq. 11) from the primal view
    J = p.J()
    Minv = np.zeros((6 * p.num_bodies, 6 * p.num_bodies))
    for b, m in enumerate(p.Minv):
        Minv[6 * b:6 * b + 6, 6 * b:6 * b + 6] = m
    assert np.allclose(J @ Minv @ J.T, D, rtol=1e-12, atol=1e-12 * abs(D).max())
    assert sum(p.block_sizes) == p.nl
    assert p.cones.count("coulomb") == sum(1 for b in p.blocks if b["kind"] == "contact")


def test_problem_from_arrays_round_trip(moreau):
    p, _ = moreau.load_fclib(str(PROBLEMS / "box-stack-1666.hdf5"))
    q = moreau.Problem.from_arrays(p.D_dense(), p.v_f, p.cones, p.block_sizes, p.mu)
    assert np.array_equal(q.D_dense(), p.D_dense())
    assert np.array_equal(q.v_f, p.v_f)
    a = moreau.solve(p, "nbgs", max_iters=50)
    b = moreau.solve(q, "nbgs", max_iters=50)
    assert np.array_equal(a["lambda"], b["lambda"])
    with pytest.raises(ValueError, match=r"D: expected shape"):
        moreau.Problem.from_arrays(np.zeros((2, 2)), p.v_f, p.cones, p.block_sizes, p.mu)
    with pytest.raises(ValueError, match="block 0"):
        moreau.Problem.from_arrays(np.eye(2), [0, 0], ["coulomb"], [2])


def test_problem_pickle_and_files_are_exact(moreau, tmp_path):
    p = moreau.Problem.load(str(PROBLEMS / "quadruped-150.mprob"))
    q = pickle.loads(pickle.dumps(p))
    for f in ("v_f", "v_minus", "f", "u_minus", "u_free", "generalized_force", "M", "Minv"):
        assert np.array_equal(getattr(p, f), getattr(q, f)), f
    assert np.array_equal(p.D_dense(), q.D_dense())
    p.save(str(tmp_path / "p.mprob"))
    assert np.array_equal(moreau.Problem.load(str(tmp_path / "p.mprob")).D_dense(), p.D_dense())


@pytest.mark.skipif("not __import__('moreau').fclib_supported()")
def test_fclib_round_trip(moreau, tmp_path):
    p, info = moreau.load_fclib(str(PROBLEMS / "box-stack-1666.hdf5"))
    assert info["kind"] == "local" and info["contacts"] == 20
    moreau.save_fclib(p, str(tmp_path / "x.hdf5"), "t", "d")
    q, _ = moreau.load_fclib(str(tmp_path / "x.hdf5"))
    assert np.array_equal(q.D_dense(), p.D_dense())
    assert np.array_equal(q.mu, p.mu)
    jointed = moreau.Problem.load(str(PROBLEMS / "quadruped-150.mprob"))
    with pytest.raises(ValueError, match="block"):
        moreau.save_fclib(jointed, str(tmp_path / "y.hdf5"))
    assert not (tmp_path / "y.hdf5").exists()


def test_armature_rows_are_marked_and_carry_their_compliance(moreau):
    # damped_ankle.xml: three hinges, armature a = 0.01 and damping d = 0.05 on each, dt 2 ms.
    sim = moreau.Simulator(moreau.load(str(PROBLEMS.parent / "damped_ankle.xml")))
    sim.step(1)
    p = sim.problem()
    joints = [b for b in p.blocks if b["kind"] == "joint"]
    assert len(joints) == 3
    assert all(b["rotor_rows"] == 1 and b["size"] == 6 for b in joints)
    # D = J M^-1 J^T + C (docs/dynamics.md, "Armature and damping rows"): C is diagonal, with
    # 1 / (a + dt d) on each armature row (a joint block's last row) and zero elsewhere.
    J = p.J()
    Minv = np.zeros((6 * p.num_bodies, 6 * p.num_bodies))
    for b, m in enumerate(p.Minv):
        Minv[6 * b:6 * b + 6, 6 * b:6 * b + 6] = m
    C = p.D_dense() - J @ Minv @ J.T
    rotor = [b["offset"] + b["size"] - 1 for b in joints]
    expected = np.zeros(p.nl)
    expected[rotor] = 1.0 / (0.01 + 0.002 * 0.05)
    assert np.allclose(C, np.diag(expected), rtol=1e-12, atol=1e-9)
