"""Shared fixtures of the Python module's tests: the package, the `moreau` binary, the data."""
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("MOREAU_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BIN = os.environ.get("MOREAU_BIN", str(SOURCE / "build" / "moreau"))
PROBLEMS = SOURCE / "tests" / "data" / "problems"


def run_cli(*args, check=True):
    """Runs the `moreau` binary; returns the CompletedProcess (text)."""
    r = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"moreau {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}")
    return r


def cli_error(*args):
    """The message the command line prints after 'error: ' (exit code 2)."""
    r = run_cli(*args, check=False)
    assert r.returncode == 2, r.stderr
    line = [ln for ln in r.stderr.splitlines() if ": error: " in ln][0]
    return r.stderr[r.stderr.index(line) + line.index(": error: ") + len(": error: "):].rstrip("\n")


def cli_json(*args):
    return json.loads(run_cli(*args).stdout)


@pytest.fixture(scope="session")
def moreau():
    import moreau as m
    return m
