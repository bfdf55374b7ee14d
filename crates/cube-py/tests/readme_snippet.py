"""Installs a built wheel into a new virtual environment and runs README.md's Python snippet there.

    python crates/cube-py/tests/readme_snippet.py --install WHEEL-OR-DIRECTORY

The environment has nothing but the wheel (no source tree on its path, no other package), so the
snippet runs as it would for a user who installed the wheel. A directory holds the wheels to
choose from: pip takes the one this interpreter and platform can install. The snippet's tables
follow the package's rules (``$CUBE_TABLES_DIR``, else the user's cache directory); its
``optimal`` bakes the 6edge tier there on first use. Used by the wheels workflow in the oldest
system each wheel's tag claims, and by ``test_wheel.py`` (which ``cargo xtask test`` runs).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import venv

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "README.md")


def snippet(readme=README):
    """The first ```python block of README.md's "## Python" section."""
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Python\n", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    if match is None:
        raise SystemExit("README.md's Python section has no ```python block")
    return match.group(1)


def install(wheels, env_dir):
    """A new environment in `env_dir` with the wheel installed, offline; its interpreter."""
    venv.create(env_dir, with_pip=True)
    python = os.path.join(env_dir, "Scripts" if os.name == "nt" else "bin", "python")
    source = ["--find-links", wheels, "cube-toolkit"] if os.path.isdir(wheels) else [wheels]
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", *source],
        check=True,
    )
    return python


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", required=True, help="a wheel, or a directory of wheels")
    args = parser.parse_args()
    code = snippet()
    with tempfile.TemporaryDirectory() as tmp:
        python = install(os.path.abspath(args.install), os.path.join(tmp, "env"))
        # Run from the empty directory, so that no source tree can be imported instead.
        out = subprocess.run(
            [python, "-c", code], cwd=tmp, check=True, capture_output=True, text=True
        ).stdout
        where = subprocess.run(
            [python, "-c", "import cube_toolkit; print(cube_toolkit.__file__)"],
            cwd=tmp, check=True, capture_output=True, text=True,
        ).stdout.strip()
    print(out, end="")
    if not where.startswith(os.path.join(tmp, "env")):
        raise SystemExit(f"cube_toolkit was imported from {where}, not from the new environment")
    # One printed line per print() of the snippet.
    printed = len(re.findall(r"^print\(", code, re.M))
    if len(out.splitlines()) != printed:
        raise SystemExit(f"the snippet printed {len(out.splitlines())} lines, expected {printed}")


if __name__ == "__main__":
    main()
