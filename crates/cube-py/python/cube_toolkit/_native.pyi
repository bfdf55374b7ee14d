"""Type stubs of the native module of cube_toolkit."""

from typing import Any, Dict, List, Optional, Tuple, Union

class CubeError(Exception): ...
class ParseError(CubeError): ...
class IllegalCube(CubeError): ...
class TablesMissing(CubeError): ...
class TablesInvalid(CubeError): ...
class NoSolution(CubeError): ...
class BakeWarning(UserWarning): ...

class Cube:
    def __init__(self, text: Optional[str] = None, format: Optional[str] = None) -> None: ...
    @staticmethod
    def random(seed: Optional[int] = None) -> "Cube": ...
    @property
    def facelets(self) -> str: ...
    @property
    def h48(self) -> str: ...
    @property
    def twizzle(self) -> str: ...
    @property
    def kpattern(self) -> str: ...
    @property
    def b32(self) -> str: ...
    @property
    def reid(self) -> str: ...
    @property
    def is_solved(self) -> bool: ...
    def apply(self, alg: str) -> "Cube": ...
    def inverse(self) -> "Cube": ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str, str]]: ...

State = Union[Cube, str]

class Problem:
    code: str
    message: str
    def __init__(self, code: str, message: str) -> None: ...

class Stage:
    label: str
    moves: str
    length: int

class Solution:
    moves: str
    move_list: List[str]
    length: int
    stages: List[Stage]
    method: str
    seconds: float
    def __init__(self, moves: str, stages: List[Tuple[str, str]], method: str, seconds: float) -> None: ...
    def __len__(self) -> int: ...

class OptimalResult:
    solution: str
    solutions: List[str]
    length: int
    optimal: bool
    proven_lower_bound: int
    nodes: int
    seconds: float
    tier: str
    complete: bool
    metric: str
    def __init__(
        self,
        solution: str,
        solutions: List[str],
        length: int,
        optimal: bool,
        proven_lower_bound: int,
        nodes: int,
        seconds: float,
        tier: str,
        complete: bool = True,
        metric: str = "htm",
    ) -> None: ...

def solve(
    state: State,
    method: str = "two-phase",
    max_length: Optional[int] = None,
    time_budget: Optional[float] = None,
    to: Optional[State] = None,
) -> Solution: ...
def optimal(
    state: State,
    tier: Optional[str] = None,
    threads: Optional[int] = None,
    timeout: Optional[float] = None,
    max_solutions: Optional[int] = None,
    metric: Optional[str] = None,
) -> OptimalResult: ...
def scramble(
    event: str = "333", seed: Optional[int] = None, count: Optional[int] = None, type: Optional[str] = None
) -> List[str]: ...
def check(state: State) -> List[Problem]: ...
def convert(state: State, to: str) -> str: ...
def tables_status() -> Dict[str, Any]: ...
def tables_bake(tier: str, progress: bool = True) -> None: ...
def tables_dir() -> str: ...
def table_loads() -> int: ...

class StepSolution:
    moves: str
    normal: str
    inverse: str
    length: int

def fmc_unniss(sequence: str) -> str: ...
def fmc_invert(sequence: str) -> str: ...
def fmc_cleanup(sequence: str) -> str: ...
def fmc_count(sequence: str) -> Dict[str, int]: ...
def fmc_steps() -> List[Dict[str, Any]]: ...
def fmc_solve(
    state: State,
    step: str,
    niss: str = "normal",
    max_solutions: Optional[int] = None,
    min_moves: Optional[int] = None,
    max_moves: Optional[int] = None,
    optimal: bool = False,
    above_optimal: Optional[int] = None,
    threads: Optional[int] = None,
) -> List[StepSolution]: ...
def fmc_cycles(scramble: State, skeleton: str) -> Dict[str, Any]: ...
def fmc_insert(
    scramble: State,
    skeleton: str,
    optimal: bool = False,
    max_seconds: Optional[float] = None,
    threads: Optional[int] = None,
    algs: Optional[str] = None,
) -> Dict[str, Any]: ...
def fmc_improve(
    solution: str,
    max_length: Optional[int] = None,
    improvements: Optional[int] = None,
    max_seconds: Optional[float] = None,
    threads: Optional[int] = None,
) -> Dict[str, Any]: ...
