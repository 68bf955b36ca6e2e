"""Bad input raises Python exceptions carrying the command line's messages; inspect() equals
`moreau inspect --json`."""
import numpy as np
import pytest

from conftest import SOURCE, cli_error, cli_json


def test_inspect_equals_cli(moreau):
    assert moreau.load("fourbar-fixed").inspect() == cli_json("inspect", "fourbar-fixed", "--json")
    assert moreau.load("chain", n=30).inspect() == cli_json("inspect", "chain", "--set", "n=30",
                                                            "--json")
    urdf = str(SOURCE / "tests" / "data" / "fourbar.urdf")
    assert moreau.load(urdf).inspect() == cli_json("inspect", urdf, "--json")
    mjcf = str(SOURCE / "tests" / "data" / "robot.xml")
    assert moreau.load(mjcf).inspect() == cli_json("inspect", mjcf, "--json")


def test_messages_match_cli(moreau, tmp_path):
    with pytest.raises(moreau.InputError) as e:
        moreau.load("no-such-scene")
    assert str(e.value) == cli_error("inspect", "no-such-scene")
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'/><joint name='j' type='revolute'/></robot>")
    with pytest.raises(ValueError) as e:
        moreau.load(str(bad))
    assert str(e.value) == cli_error("inspect", bad)
    with pytest.raises(ValueError) as e:
        moreau.load("chain", n="abc")
    assert str(e.value) == cli_error("inspect", "chain", "--set", "n=abc")
    model = moreau.load("fourbar-fixed")
    with pytest.raises(moreau.InputError) as e:
        moreau.Simulator(model, solver="no-such-solver")
    assert str(e.value) == cli_error("simulate", "fourbar-fixed", "--solver", "no-such-solver")
    with pytest.raises(moreau.InputError) as e:
        moreau.Simulator(model, solver="pgs-ncp", omegaa=1.5)
    assert str(e.value) == cli_error("simulate", "fourbar-fixed", "--solver", "pgs-ncp",
                                     "--param", "omegaa=1.5")
    with pytest.raises(moreau.InputError) as e:
        moreau.Simulator(model, solver="pgs-ncp", omega=50.0)
    assert str(e.value) == cli_error("simulate", "fourbar-fixed", "--solver", "pgs-ncp",
                                     "--param", "omega=50.0")
    with pytest.raises(moreau.InputError) as e:
        moreau.Simulator(model, integrator="rk4")
    assert str(e.value) == cli_error("simulate", "fourbar-fixed", "--integrator", "rk4")
    garbage = tmp_path / "garbage.mprob"
    garbage.write_text("MOREAU-PROBLEM 1\n{not json\n")
    with pytest.raises(ValueError) as e:
        moreau.Problem.load(str(garbage))
    assert str(e.value) == cli_error("solve", garbage)


def test_bad_arrays_raise_not_crash(moreau):
    p = moreau.Simulator(moreau.load("fourbar-fixed")).problem()
    with pytest.raises(ValueError, match=r"lambda: expected shape \(0,\)"):
        moreau.metrics(p, np.zeros(5), np.zeros(5))
    with pytest.raises(ValueError):
        moreau.Problem.from_arrays("nope", [1.0], ["free"], [1])
    with pytest.raises(ValueError):
        moreau.Simulator(moreau.load("pendulum"), state=moreau.State(7))
    with pytest.raises(TypeError):
        moreau.solve(None, "pgs-ncp")


def test_failed_step_raises_simulation_error(moreau):
    model = moreau.load("pendulum")
    sim = moreau.Simulator(model)
    u = sim.state.u
    u[0, 0] = np.nan
    with pytest.raises(moreau.SimulationError):
        sim.step()
