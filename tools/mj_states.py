"""Shared by tools/fall_ensemble.py and tools/contacts_same_state.py: running MuJoCo 3
(tools/mujoco3/mj3.mjs) and moreau, and copies of an MJCF file with one more keyframe.

The copies live in a temporary directory beside links to the model's directory entries, so that
includes, meshdir and assets resolve as they do for the original (not paths that climb above the
model's directory, "../"). A keyframe keeps only qpos (qvel, act and ctrl start at zero).
"""

import contextlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, tool):
    """stdout of cmd; exits naming `tool` and the command when it fails."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("%s: %s failed (exit %d): %s"
                 % (tool, cmd[0], r.returncode, r.stderr.strip()[-400:]))
    return r.stdout


def mj3(model, tool, *args):
    """MuJoCo 3's JSON for model (tools/mujoco3/README.md)."""
    return json.loads(run(["node", os.path.join(HERE, "mujoco3", "mj3.mjs"), model] + list(args),
                          tool))


@contextlib.contextmanager
def keyframe_copies(model, key, tool):
    """Yields write(name, qpos) -> the path of a copy of model with a keyframe `key` at qpos."""
    text = open(model).read()
    end = text.rfind("</mujoco>")
    if end < 0:
        sys.exit("%s: %s: no closing </mujoco>" % (tool, model))
    with tempfile.TemporaryDirectory(prefix=tool + "_") as tmp:
        src = os.path.dirname(model)
        for entry in os.listdir(src):
            os.symlink(os.path.join(src, entry), os.path.join(tmp, entry))

        def write(name, qpos):
            frame = '<keyframe><key name="%s" qpos="%s"/></keyframe>\n' % (
                key, " ".join(repr(v) for v in qpos))
            path = os.path.join(tmp, name + "_" + os.path.basename(model))
            with open(path, "w") as f:
                f.write(text[:end] + frame + text[end:])
            return path

        yield write
