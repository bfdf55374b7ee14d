"""A drop-in for the ``kociemba`` package: ``solve(cubestring, patternstring=None, max_depth=None)``.

The cube string is 54 facelets in the order U R F D L B, in the letters ``URFDLB``. An invalid
string raises ``ValueError`` with the specific reason (``IllegalCube`` and ``ParseError`` are
subclasses of ``CubeError``, re-raised as ``ValueError`` here, as ``kociemba`` raises).

>>> from cube_toolkit import kociemba
>>> kociemba.solve("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB")
''
"""

from typing import Optional

from ._native import Cube, CubeError, NoSolution
from ._native import solve as _solve

__all__ = ["solve"]


def solve(cubestring: str, patternstring: Optional[str] = None, max_depth: Optional[int] = None) -> str:
    """The two-phase solution of ``cubestring``, or the moves that take it to ``patternstring``.

    ``max_depth`` bounds the length (``kociemba``'s default of 24 holds anyway: every cube has
    a two-phase solution of at most 20 moves here). Raises ``TypeError`` for a string that is
    not a ``str`` (such as ``None``), ``ValueError`` for an invalid string, saying why, for a
    negative ``max_depth``, and when no solution of at most ``max_depth`` moves is found: the
    search gives up after 10 s (a ``max_depth`` below the cube's optimal length; ``kociemba``
    gives up after its own time limit too). Ctrl-C stops it (``KeyboardInterrupt``).
    """
    for name, text in [("cubestring", cubestring), ("patternstring", patternstring)]:
        if not isinstance(text, str) and (name == "cubestring" or text is not None):
            raise TypeError(f"{name} must be a str of 54 facelets, not {type(text).__name__}")
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth={max_depth} is negative: expected a number of moves, 0 or more")
    try:
        cube = Cube(cubestring, format="facelets")
        goal = None if patternstring is None else Cube(patternstring, format="facelets")
        return _solve(cube, method="two-phase", max_length=max_depth, to=goal).moves
    except NoSolution as e:
        # The native message names the native arguments (max_length, time_budget): this one's
        # is max_depth.
        found = str(e).split(" (", 1)[0]
        raise ValueError(f"{found} (raise max_depth: every cube has a solution of at most 20 moves)") from e
    except CubeError as e:
        raise ValueError(str(e)) from e
