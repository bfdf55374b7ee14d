"""Issue 31: two-phase honours its limits (item 3) and every numeric argument's edge values are a
``ValueError`` naming the argument (item 6), never an ``OverflowError``, a ``PanicException`` or
a search without end."""

import _thread
import signal
import threading
import time

import pytest

from conftest import POSITIONS
from cube_toolkit import Cube, NoSolution, kociemba, optimal, scramble, solve


def position(optimal_length):
    """The first scramble of the test positions (``testdata/positions``) with this optimal length."""
    text = (POSITIONS / f"nissy-core-optimal-{optimal_length}.txt").read_text()
    return Cube(text.splitlines()[0])


def test_i31_3_solve_below_the_optimum_ends_within_the_time_budget():
    cube = position(16)
    solve("R U")  # the tables are loaded before the clock starts
    start = time.monotonic()
    with pytest.raises(NoSolution, match=r"two-phase: no solution of at most 15 moves found in 1\.\d s"):
        solve(cube, max_length=15, time_budget=1.0)
    assert time.monotonic() - start < 2.0
    assert solve(cube, max_length=20, time_budget=1.0).length <= 20


def test_i31_3_kociemba_below_the_optimum_is_a_value_error():
    # Without a time budget two-phase gives up after its default of 10 s.
    facelets = position(18).facelets
    start = time.monotonic()
    with pytest.raises(ValueError, match="no solution of at most 17 moves found in 10"):
        kociemba.solve(facelets, max_depth=17)
    assert time.monotonic() - start < 12.0


def interrupted_within(call, seconds):
    """Runs `call`, interrupted (as by Ctrl-C) after 0.3 s; returns how long it took to stop."""
    # A process started in the background of a non-interactive shell begins with SIGINT
    # ignored: give it Python's handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            call()
        stopped = time.monotonic() - start - 0.3
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stopped < seconds, stopped


def test_i31_3_ctrl_c_stops_two_phase_and_kociemba():
    cube = position(16)
    solve("R U")
    interrupted_within(lambda: solve(cube, max_length=15), 0.1)
    interrupted_within(lambda: kociemba.solve(cube.facelets, max_depth=15), 0.1)


@pytest.mark.parametrize("value", [1e19, 1.8e19, 2e6, float("inf"), float("-inf"), float("nan"), -1.0, 0, 1e-12, 10**400, -(10**400)])
def test_i31_6_time_limits_out_of_range_are_value_errors(value):
    cube = Cube("R U F")
    with pytest.raises(ValueError, match="time_budget=.* a time limit is from 1 ns"):
        solve(cube, time_budget=value)
    with pytest.raises(ValueError, match="timeout=.* a time limit is from 1 ns"):
        optimal(cube, timeout=value)
    with pytest.raises(ValueError, match="time_budget="):
        solve(cube, method="optimal", time_budget=value)


def test_i31_6_the_largest_time_limit_is_accepted():
    assert solve("R U F", time_budget=1e6).length == 3
    assert optimal("R U F", tier="6edge", timeout=1e6).length == 3


def test_i31_6_kociemba_refuses_what_kociemba_refuses():
    with pytest.raises(TypeError, match="cubestring must be a str"):
        kociemba.solve(None)
    with pytest.raises(TypeError, match="patternstring must be a str"):
        kociemba.solve(Cube("R").facelets, 5)
    with pytest.raises(ValueError, match="max_depth=-1 is negative"):
        kociemba.solve(Cube("R").facelets, max_depth=-1)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: solve("R U", max_length=v), "max_length"),
        (lambda v: optimal("R U", threads=v), "threads"),
        (lambda v: optimal("R U", max_solutions=v), "max_solutions"),
        (lambda v: scramble(count=v), "count"),
        (lambda v: scramble(seed=v), "seed"),
        (lambda v: Cube.random(seed=v), "seed"),
    ],
)
def test_i31_6_integers_out_of_range_are_value_errors(call, name):
    for value in [-1, 2**64, 10**40]:
        with pytest.raises(ValueError, match=f"{name}={value} is out of range: expected an integer from"):
            call(value)
    with pytest.raises(TypeError):
        call(1.5)


def test_i31_6_integers_at_their_bounds():
    assert solve("R U", max_length=2**64 - 1).length == 2
    assert scramble(seed=2**64 - 1) == scramble(seed=2**64 - 1)
    assert scramble(count=0) == []
    assert optimal("R U", tier="6edge", threads=1024).length == 2
    for threads in [0, 1025]:
        with pytest.raises(ValueError, match="threads=.* from 1 to 1024"):
            optimal("R U", threads=threads)
    with pytest.raises(ValueError, match="max_solutions=0"):
        optimal("R U", max_solutions=0)
