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

Needs moreau built and tools/mujoco3 installed (npm ci --prefix tools/mujoco3). The copies live in
a temporary directory beside links to the model's directory entries, so that includes, meshdir
and assets resolve as they do for the original (not paths that climb above the model's
directory, "../"). The tilted keyframe keeps only qpos (qvel, act and ctrl start at zero, as
without one). The root body is the first body of MuJoCo's tree; moreau merges bodies welded to it,
whose centre of mass then differs from MuJoCo's root body's.
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KEY = "moreau_fall_ensemble"


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("fall_ensemble: %s failed (exit %d): %s" % (cmd[0], r.returncode, r.stderr.strip()[-400:]))
    return r.stdout


def mj3(model, *args):
    return json.loads(run(["node", os.path.join(HERE, "mujoco3", "mj3.mjs"), model] + list(args)))


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
        sys.exit("fall_ensemble: no such model file: " + model)

    base = mj3(model, "--key", "0")  # the initial state, poses only
    qpos = base["qpos0"]
    if base["nq"] < 7 or abs(math.sqrt(sum(v * v for v in qpos[3:7])) - 1.0) > 1e-9:
        sys.exit("fall_ensemble: %s: the first joint is not a free joint (qpos[3:7] is not a unit "
                 "quaternion)" % model)
    root = base["bodies"][1]["name"]
    steps = int(round(a.duration / base["timestep"]))
    text = open(model).read()
    end = text.rfind("</mujoco>")
    if end < 0:
        sys.exit("fall_ensemble: %s: no closing </mujoco>" % model)

    rows = []
    with tempfile.TemporaryDirectory(prefix="fall_ensemble_") as tmp:
        src = os.path.dirname(model)
        for entry in os.listdir(src):
            os.symlink(os.path.join(src, entry), os.path.join(tmp, entry))
        for k in range(a.starts):
            q = tilted(qpos, a.tilt, k)
            key = '<keyframe><key name="%s" qpos="%s"/></keyframe>\n' % (
                KEY, " ".join(repr(v) for v in q))
            copy = os.path.join(tmp, "start_%02d_%s" % (k, os.path.basename(model)))
            with open(copy, "w") as f:
                f.write(text[:end] + key + text[end:])
            m = mj3(copy, "--key", str(base["nkey"]), "--steps", str(steps), "--every", str(steps))
            if m["key"] != base["nkey"] or max(abs(x - y) for x, y in zip(m["qpos0"], q)) > 1e-12:
                sys.exit("fall_ensemble: MuJoCo 3 did not start %s from the tilted keyframe" % copy)
            mz = [b for b in m["final"]["bodies"] if b["name"] == root][0]["xipos"][2]
            csv = os.path.join(tmp, "start_%02d.csv" % k)
            s = json.loads(run([a.moreau, "simulate", copy, "--set", "keyframe=" + KEY, "--steps",
                                str(steps), "--every", str(steps), "-o", csv, "--json", "-q"]))
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
