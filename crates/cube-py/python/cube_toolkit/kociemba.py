"""A drop-in for the ``kociemba`` package: ``solve(cubestring, patternstring=None, max_depth=None)``.

The cube string is 54 facelets in the order U R F D L B, in the letters ``URFDLB``. An invalid
string raises ``ValueError`` with the specific reason (``IllegalCube`` and ``ParseError`` are
subclasses of ``CubeError``, re-raised as ``ValueError`` here, as ``kociemba`` raises).

>>> from cube_toolkit import kociemba
>>> kociemba.solve("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB")
''
"""

from typing import Optional

from ._native import Cube, CubeError
from ._native import solve as _solve

__all__ = ["solve"]


def solve(cubestring: str, patternstring: Optional[str] = None, max_depth: Optional[int] = None) -> str:
    """The two-phase solution of ``cubestring``, or the moves that take it to ``patternstring``.

    ``max_depth`` bounds the length (``kociemba``'s default of 24 holds anyway: every cube has
    a two-phase solution of at most 20 moves here). Raises ``ValueError`` for an invalid string,
    saying why, and when no solution is within ``max_depth``.
    """
    try:
        cube = Cube(cubestring, format="facelets")
        goal = None if patternstring is None else Cube(patternstring, format="facelets")
        return _solve(cube, method="two-phase", max_length=max_depth, to=goal).moves
    except CubeError as e:
        raise ValueError(str(e)) from e
