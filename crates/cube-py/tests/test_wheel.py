"""Issue 36, item 4: the wheel that ``cargo xtask test`` built, installed into a fresh virtual
environment (nothing else in it, offline), runs README.md's Python snippet (``readme_snippet.py``,
which the wheels workflow runs on the oldest system of each wheel's tag)."""

import os
import pathlib
import subprocess
import sys

import pytest

WHEEL = os.environ.get("CUBE_TOOLKIT_WHEEL")
SCRIPT = pathlib.Path(__file__).with_name("readme_snippet.py")


@pytest.mark.skipif(not WHEEL, reason="cargo xtask test names the wheel it built in CUBE_TOOLKIT_WHEEL")
def test_the_wheel_runs_the_readme_snippet_in_a_fresh_environment():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--install", WHEEL],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    # The snippet's lines: two-phase's moves with CFOP's stages, the optimal solution, then
    # kociemba's answer, moves only.
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and "Stage(" in lines[0], done.stdout
    assert all(move.rstrip("'2") in list("URFDLB") for move in lines[2].split()), done.stdout


def test_the_readme_snippet_is_found():
    import readme_snippet  # beside this file: pytest puts tests/ on the path

    code = readme_snippet.snippet()
    assert "from cube_toolkit import" in code and "kociemba.solve(" in code
