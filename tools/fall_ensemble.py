#!/usr/bin/env python3
"""Where a passive fall ends, over perturbed starts, in moreau and in MuJoCo 3.

A robot that falls from standing ends where chaos puts it: a change of 1e-16 m in a contact's gap
moves the G1's resting pelvis by centimetres (docs/model-import.md). One run of each engine
compares two draws; this compares the two distributions. Each start tilts the floating base of the
model's initial state (its first keyframe, as moreau starts an MJCF model, else qpos0) by `--tilt`
rad about a horizontal axis drawn from the seed. Both engines run the same copies of the file,
with the tilted state as a keyframe, for `--duration` s at the file's time step; the script prints
each start's resting height of the root body's centre of mass and moreau's unconverged steps, and
a summary (medians, ranges, totals) as the last line, JSON.

Usage: python3 tools/fall_ensemble.py MODEL.xml [--starts N] [--tilt RAD] [--duration S]
           [--moreau BUILD/moreau] [--json OUT]

Needs moreau built and tools/mujoco3 installed (npm ci --prefix tools/mujoco3). The copies of the
file: tools/mj_states.py (the tilted keyframe keeps only qpos: qvel, act and ctrl start at zero,
as without one). The root body is the first body of MuJoCo's tree; moreau merges bodies welded to it,
whose centre of mass then differs from MuJoCo's root body's.
"""

import argparse
import json
import math
import os
import random
import statistics
import sys

from mj_states import ROOT, keyframe_copies, mj3, run

TOOL = "fall_ensemble"
KEY = "moreau_fall_ensemble"


def tilted(qpos, tilt, seed):
    """qpos with the free root's quaternion (qpos[3:7], w x y z) turned by tilt about a
    horizontal axis at the seed's angle."""
    a = random.Random(seed).uniform(0.0, 2.0 * math.pi)
    r = [math.cos(tilt / 2), math.sin(tilt / 2) * math.cos(a), math.sin(tilt / 2) * math.sin(a), 0.0]
    w, x, y, z = qpos[3:7]
    q = [r[0] * w - r[1] * x - r[2] * y - r[3] * z,
         r[0] * x + r[1] * w + r[2] * z - r[3] * y,
         r[0] * y - r[1] * z + r[2] * w + r[3] * x,
         r[0] * z + r[1] * y - r[2] * x + r[3] * w]
    return qpos[:3] + q + qpos[7:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("--starts", type=int, default=12)
    ap.add_argument("--tilt", type=float, default=0.005)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--moreau", default=os.path.join(ROOT, "build", "moreau"))
    ap.add_argument("--json", help="also write the summary and every start's row to this file")
    a = ap.parse_args()
    model = os.path.abspath(a.model)
    if not os.path.isfile(model):
        sys.exit("%s: no such model file: %s" % (TOOL, model))

    base = mj3(model, TOOL, "--key", "0")  # the initial state, poses only
    qpos = base["qpos0"]
    if base["nq"] < 7 or abs(math.sqrt(sum(v * v for v in qpos[3:7])) - 1.0) > 1e-9:
        sys.exit("%s: %s: the first joint is not a free joint (qpos[3:7] is not a unit "
                 "quaternion)" % (TOOL, model))
    root = base["bodies"][1]["name"]
    steps = int(round(a.duration / base["timestep"]))

    rows = []
    with keyframe_copies(model, KEY, TOOL) as write:
        for k in range(a.starts):
            q = tilted(qpos, a.tilt, k)
            copy = write("start_%02d" % k, q)
            m = mj3(copy, TOOL, "--key", str(base["nkey"]), "--steps", str(steps), "--every",
                    str(steps))
            if m["key"] != base["nkey"] or max(abs(x - y) for x, y in zip(m["qpos0"], q)) > 1e-12:
                sys.exit("%s: MuJoCo 3 did not start %s from the tilted keyframe" % (TOOL, copy))
            mz = [b for b in m["final"]["bodies"] if b["name"] == root][0]["xipos"][2]
            csv = os.path.join(os.path.dirname(copy), "start_%02d.csv" % k)
            s = json.loads(run([a.moreau, "simulate", copy, "--set", "keyframe=" + KEY, "--steps",
                                str(steps), "--every", str(steps), "-o", csv, "--json", "-q"],
                               TOOL))
            with open(csv) as f:
                head, last = f.readline().strip().split(","), f.read().strip().split("\n")[-1].split(",")
            oz = float(last[head.index(root + ".z")])
            rows.append({"start": k, "moreau_z": oz, "mujoco3_z": mz,
                         "unconverged": s["nonconverged_steps"], "steps": s["steps"],
                         "max_penetration": s["max_penetration"],
                         "max_energy_gain": s["max_energy_gain"], "wall_s": s["wall_time_s"]})
            print("start %2d  %s z at %.1f s: moreau %.3f m, MuJoCo 3 %.3f m; moreau: %d of %d "
                  "steps unconverged, %.2f s" % (k, root, a.duration, oz, mz, s["nonconverged_steps"],
                                                 s["steps"], s["wall_time_s"]), flush=True)

    mo = [r["moreau_z"] for r in rows]
    mj = [r["mujoco3_z"] for r in rows]
    summary = {
        "model": model, "starts": a.starts, "tilt": a.tilt, "duration": a.duration,
        "root": root, "mujoco_version": base["mujoco_version"],
        "moreau_median": statistics.median(mo), "moreau_min": min(mo), "moreau_max": max(mo),
        "mujoco3_median": statistics.median(mj), "mujoco3_min": min(mj), "mujoco3_max": max(mj),
        "median_difference": statistics.median(mo) - statistics.median(mj),
        "unconverged": sum(r["unconverged"] for r in rows),
        "steps": sum(r["steps"] for r in rows),
        "max_penetration": max(r["max_penetration"] for r in rows),
        "max_energy_gain": max(r["max_energy_gain"] for r in rows),
        "wall_s_max": max(r["wall_s"] for r in rows),
    }
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "starts": rows}, f, indent=1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
