"""The tables of this process: where they live, what is baked, how many loads this process made.

The table directory follows the CLI's rules: ``$CUBE_TABLES_DIR``, else the user's cache
directory. Each method's tables load once per process and are shared by every call in it, so a
worker that solves thousands of states pays the load once; :func:`loads` counts the loads.
"""

from ._native import table_loads as loads
from ._native import tables_bake as bake
from ._native import tables_dir as dir
from ._native import tables_status as status

__all__ = ["bake", "dir", "loads", "status"]
