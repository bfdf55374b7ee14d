"""A Rubik's cube (3x3x3) toolkit: every state format, two-phase and optimal solvers, scrambles,
legality checks. The Python face of the Rust crates cube-core, cube-encode, cube-tables and
cube-solvers.

>>> from cube_toolkit import Cube, solve
>>> cube = Cube("R U R' U'")
>>> cube.apply(solve(cube, method="beginner").moves).is_solved
True
"""

from . import fmc, kociemba, tables
from ._native import (
    BakeWarning,
    CubeError,
    Cube,
    IllegalCube,
    NoSolution,
    OptimalResult,
    ParseError,
    Problem,
    Solution,
    Stage,
    TablesInvalid,
    TablesMissing,
    check,
    convert,
    optimal,
    scramble,
    solve,
)

__all__ = [
    "BakeWarning",
    "Cube",
    "CubeError",
    "IllegalCube",
    "NoSolution",
    "OptimalResult",
    "ParseError",
    "Problem",
    "Solution",
    "Stage",
    "TablesInvalid",
    "TablesMissing",
    "check",
    "convert",
    "fmc",
    "kociemba",
    "optimal",
    "scramble",
    "solve",
    "tables",
]
