#!/usr/bin/env python3
"""Contacts per state in moreau and in MuJoCo 3, on the same states.

MuJoCo 3 runs the model's passive fall from its first keyframe (else qpos0) for `--duration` s at
the file's time step; every `--every` s its state (qpos) becomes a keyframe of a copy of the file,
and both engines detect the contacts of that one state: MuJoCo's ncon after mj_forward (its
contacts within the geoms' margins, 0 in most robot files), and moreau's contacts of one step
from it (`moreau simulate --steps 1 --contacts`): all of them (within moreau's collision margin,
1 mm: the rows of the step's Problem) and those carrying an impulse in that step. The last line is
a JSON summary (means over the states).

Usage: python3 tools/contacts_same_state.py MODEL.xml [--duration S] [--every S]
           [--moreau BUILD/moreau] [--json OUT]

Needs moreau built and tools/mujoco3 installed (npm ci --prefix tools/mujoco3). The copies of the
file: tools/mj_states.py. A keyframe keeps only qpos: both engines see the state at rest.
"""

import argparse
import json
import os
import statistics
import sys

from mj_states import ROOT, keyframe_copies, mj3, run

TOOL = "contacts_same_state"
KEY = "moreau_contacts_probe"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--every", type=float, default=0.25)
    ap.add_argument("--moreau", default=os.path.join(ROOT, "build", "moreau"))
    ap.add_argument("--json", help="also write the summary and every state's row to this file")
    a = ap.parse_args()
    model = os.path.abspath(a.model)
    if not os.path.isfile(model):
        sys.exit("%s: no such model file: %s" % (TOOL, model))

    base = mj3(model, TOOL, "--key", "0")
    steps = int(round(a.duration / base["timestep"]))
    every = max(1, int(round(a.every / base["timestep"])))
    traj = mj3(model, TOOL, "--key", "0", "--steps", str(steps), "--every", str(every),
               "--full-qpos")

    rows = []
    with keyframe_copies(model, KEY, TOOL) as write:
        for sample in traj["trajectory"]:
            q = sample["qpos"]
            copy = write("state_%06d" % sample["step"], q)
            m = mj3(copy, TOOL, "--key", str(base["nkey"]))
            if max(abs(x - y) for x, y in zip(m["qpos0"], q)) > 1e-12:
                sys.exit("%s: MuJoCo 3 did not start %s from the keyframe" % (TOOL, copy))
            out = os.path.join(os.path.dirname(copy), "state.json")
            # The blow-up check off: MuJoCo's soft contacts leave states millimetres deep, from
            # which the step's correction may move a joint by more than its 1 cm bound; only the
            # contacts at the state are counted here.
            run([a.moreau, "simulate", copy, "--set", "keyframe=" + KEY, "--steps", "1", "-o", out,
                 "--contacts", "--no-blowup-check", "-q"], TOOL)
            with open(out) as f:
                contacts = json.load(f)["samples"][-1]["contacts"]
            active = sum(1 for c in contacts if any(abs(v) > 0.0 for v in c[3:6]))
            rows.append({"t": sample["t"], "mujoco3": m["ncon0"], "moreau": len(contacts),
                         "moreau_active": active})
            print("t %5.2f s  MuJoCo 3: %3d contacts; moreau: %3d (%3d carrying an impulse)"
                  % (sample["t"], m["ncon0"], len(contacts), active), flush=True)

    summary = {
        "model": model, "duration": a.duration, "states": len(rows),
        "mujoco_version": base["mujoco_version"],
        "mujoco3_mean": statistics.mean(r["mujoco3"] for r in rows),
        "moreau_mean": statistics.mean(r["moreau"] for r in rows),
        "moreau_active_mean": statistics.mean(r["moreau_active"] for r in rows),
    }
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "states": rows}, f, indent=1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
