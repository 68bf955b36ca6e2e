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

Needs moreau built and tools/mujoco3 installed (npm ci --prefix tools/mujoco3). The copies live in
a temporary directory beside links to the model's directory entries, as in
tools/fall_ensemble.py. A keyframe keeps only qpos: both engines see the state at rest.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KEY = "moreau_contacts_probe"


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("contacts_same_state: %s failed (exit %d): %s"
                 % (cmd[0], r.returncode, r.stderr.strip()[-400:]))
    return r.stdout


def mj3(model, *args):
    return json.loads(run(["node", os.path.join(HERE, "mujoco3", "mj3.mjs"), model] + list(args)))


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
        sys.exit("contacts_same_state: no such model file: " + model)

    base = mj3(model, "--key", "0")
    steps = int(round(a.duration / base["timestep"]))
    every = max(1, int(round(a.every / base["timestep"])))
    traj = mj3(model, "--key", "0", "--steps", str(steps), "--every", str(every), "--full-qpos")
    text = open(model).read()
    end = text.rfind("</mujoco>")
    if end < 0:
        sys.exit("contacts_same_state: %s: no closing </mujoco>" % model)

    rows = []
    with tempfile.TemporaryDirectory(prefix="contacts_same_state_") as tmp:
        src = os.path.dirname(model)
        for entry in os.listdir(src):
            os.symlink(os.path.join(src, entry), os.path.join(tmp, entry))
        for sample in traj["trajectory"]:
            q = sample["qpos"]
            key = '<keyframe><key name="%s" qpos="%s"/></keyframe>\n' % (
                KEY, " ".join(repr(v) for v in q))
            copy = os.path.join(tmp, "state_%06d_%s" % (sample["step"], os.path.basename(model)))
            with open(copy, "w") as f:
                f.write(text[:end] + key + text[end:])
            m = mj3(copy, "--key", str(base["nkey"]))
            if max(abs(x - y) for x, y in zip(m["qpos0"], q)) > 1e-12:
                sys.exit("contacts_same_state: MuJoCo 3 did not start %s from the keyframe" % copy)
            out = os.path.join(tmp, "state.json")
            # The blow-up check off: MuJoCo's soft contacts leave states millimetres deep, from
            # which the step's correction may move a joint by more than its 1 cm bound; only the
            # contacts at the state are counted here.
            run([a.moreau, "simulate", copy, "--set", "keyframe=" + KEY, "--steps", "1", "-o", out,
                 "--contacts", "--no-blowup-check", "-q"])
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
