"""Simulate a URDF (or MJCF) robot and plot its joint angles over time into a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/robot_joint_angles.py \
        [tests/data/arm.urdf] [--duration 2] [--out joint_angles.png]
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import moreau  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("model", nargs="?", default="tests/data/arm.urdf", help=".urdf, MJCF .xml, .json")
ap.add_argument("--duration", type=float, default=2.0, help="simulated time [s]")
ap.add_argument("--solver", default=None, help="contact solver (default: the scene's)")
ap.add_argument("--out", default="joint_angles.png")
a = ap.parse_args()

model = moreau.load(a.model)
sim = moreau.Simulator(model, solver=a.solver)
steps = int(round(a.duration / sim.dt))
t, q = [sim.state.t], [model.joint_positions(sim.state)]
for _ in range(steps):
    sim.step()
    t.append(sim.state.t)
    q.append(model.joint_positions(sim.state))
q = np.array(q)

fig, ax = plt.subplots(figsize=(7, 4))
for k, name in enumerate(model.dof_names):
    ax.plot(t, q[:, k], label=name)
ax.set_xlabel("time [s]")
ax.set_ylabel("joint coordinate [rad or m]")
ax.set_title(f"{model.name}: {steps} steps of {sim.dt:g} s with {sim.solver}")
ax.legend(fontsize="small")
fig.tight_layout()
fig.savefig(a.out, dpi=120)
print(f"{model.name}: {model.num_bodies} bodies, {len(model.dof_names)} DoFs; wrote {a.out}")
