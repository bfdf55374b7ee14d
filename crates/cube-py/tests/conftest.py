"""Shared set-up of the cube_toolkit tests: one table directory for the whole run.

``cargo xtask test`` points ``CUBE_TABLES_DIR`` at the directory the CLI's tests cache their small
tables in (under the target directory), so that the 6edge databases and the two-phase tables are
built at most once per checkout. Run alone, the tests use ``target/tmp/py-tables`` of the
workspace.
"""

import os
import pathlib

if not os.environ.get("CUBE_TABLES_DIR"):
    root = pathlib.Path(__file__).resolve().parents[3]
    os.environ["CUBE_TABLES_DIR"] = str(root / "target" / "tmp" / "py-tables")

VECTORS = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "vectors"
