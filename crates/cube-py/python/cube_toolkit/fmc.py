"""Fewest-moves (FMC) tools, as the CLI's ``cube-cli fmc``: step solvers with NISS (EO, DR, HTR
on every axis, nissy-core's steps), insertions into a skeleton (``insert``, ``cycles``,
``improve``) and NISS notation.

In this module parentheses are NISS: ``R U (F' D)`` is ``R U`` done on the scramble and ``F' D``
done on the inverse scramble; a cubing.js group such as ``(R U)2`` is a ``ParseError``.

>>> from cube_toolkit import fmc
>>> fmc.unniss("R U (F' D)")
"R U D' F"
>>> fmc.count("R U2 (M' F)")
{'htm': 5, 'qtm': 6, 'stm': 4}
"""

from ._native import StepSolution
from ._native import fmc_cleanup as cleanup
from ._native import fmc_count as count
from ._native import fmc_cycles as cycles
from ._native import fmc_improve as improve
from ._native import fmc_insert as insert
from ._native import fmc_invert as invert
from ._native import fmc_solve as solve
from ._native import fmc_steps as steps
from ._native import fmc_unniss as unniss

__all__ = [
    "StepSolution",
    "cleanup",
    "count",
    "cycles",
    "improve",
    "insert",
    "invert",
    "solve",
    "steps",
    "unniss",
]
