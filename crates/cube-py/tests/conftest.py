"""Shared set-up of the cube_toolkit tests: one table directory for the whole run.

``cargo xtask test`` points ``CUBE_TABLES_DIR`` at the directory the CLI's tests cache their small
tables in (under the target directory), so that the 6edge databases and the two-phase tables are
built at most once per checkout. Run alone, the tests use ``target/tmp/py-tables`` of the
workspace. The test data (external vectors, positions of known optimal length) is the repository's
``testdata/``.
"""

import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]

if not os.environ.get("CUBE_TABLES_DIR"):
    os.environ["CUBE_TABLES_DIR"] = str(ROOT / "target" / "tmp" / "py-tables")

VECTORS = ROOT / "testdata" / "vectors"
POSITIONS = ROOT / "testdata" / "positions"
