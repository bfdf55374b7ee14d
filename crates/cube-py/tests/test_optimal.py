"""optimal over the 6edge pattern databases (baked into the test table directory on first use),
on short scrambles, and KeyboardInterrupt stopping a long search."""

import _thread
import pickle
import signal
import threading
import time

import pytest

from cube_toolkit import Cube, optimal, solve, tables


@pytest.mark.parametrize(
    "scramble, length",
    [
        # Known optimal lengths: a commutator of two quarter turns, and the README's 13-mover.
        ("R U R' U'", 4),
        ("R2 U2", 2),
        ("F2 U' B L2 D R' F U2 L' B2 D' R2 F", 13),
    ],
)
def test_optimal_lengths(scramble, length):
    result = optimal(scramble, tier="6edge")
    assert result.optimal and result.length == length == result.proven_lower_bound
    assert Cube(scramble).apply(result.solution).is_solved
    assert result.tier == "6edge" and result.seconds >= 0
    assert result.nodes > 0 or length < 5, "a long one takes a search"


def test_short_random_scrambles_are_never_longer_than_two_phase():
    for seed in range(5):
        cube = Cube("R U").apply(" ".join(["F", "D'", "L2", "B", "U2", "R'"][: 2 + seed]))
        result = optimal(cube, threads=2)
        assert result.optimal and cube.apply(result.solution).is_solved
        assert result.length <= solve(cube).length
        assert result.length <= 2 + 2 + seed


def test_several_solutions_and_pickling():
    result = optimal("R U R' U'", tier="6edge", max_solutions=3)
    assert len(result.solutions) >= 1 and all(len(s.split()) == 4 for s in result.solutions)
    again = pickle.loads(pickle.dumps(result))
    assert (again.solution, again.solutions, again.optimal, again.nodes) == (result.solution, result.solutions, result.optimal, result.nodes)


def test_solve_by_method_optimal():
    solution = solve("R U R' U'", method="optimal")
    assert solution.method == "optimal" and solution.length == 4


def test_tables_load_once():
    optimal("R U", tier="6edge")
    loads = tables.loads()
    for scramble in ["R", "U F", "D2 B"]:
        optimal(scramble, tier="6edge")
    assert tables.loads() == loads


def test_timeout_gives_the_best_known():
    result = optimal(Cube.random(seed=3), tier="6edge", threads=1, timeout=0.3)
    assert not result.optimal and result.length <= 21 and result.proven_lower_bound < result.length


def test_keyboard_interrupt_stops_a_long_search():
    # A process started in the background of a non-interactive shell (as CI may start this one)
    # begins with SIGINT ignored, and Python then keeps it ignored: give it Python's handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt_a_long_search()
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupt_a_long_search():
    optimal("R", tier="6edge")  # the tables are loaded before the clock starts
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        optimal(Cube.random(seed=11), tier="6edge", threads=1)
    assert time.monotonic() - start < 10


def test_i31_2_a_list_cut_by_the_timeout_is_not_complete():
    """Issue 31, item 2: `complete` says whether `solutions` is every solution asked for."""
    four_spots = "F2 B2 U D' R2 L2 U D'"
    full = optimal(four_spots, tier="6edge", max_solutions=1000)
    assert full.optimal and full.complete and len(full.solutions) == 24
    # Python's spelling of the flags (issue 36, item 6).
    assert "optimal=True, complete=True" in repr(full), repr(full)
    assert pickle.loads(pickle.dumps(full)).complete
    enough = optimal(four_spots, tier="6edge", max_solutions=3)
    assert enough.complete and len(enough.solutions) == 3
    # The twister: 72 solutions of 14 moves, over a second of search; a short timeout stops the
    # enumeration before it ends: what was found is optimal, but the list is not complete.
    twister = "F R' U L F' L' F U' R U L' U' L F'"
    cut = optimal(twister, tier="6edge", max_solutions=1000, timeout=0.05)
    assert not cut.complete
    assert len(cut.solutions) < 72


def test_i58_a_bake_or_build_on_first_use_says_so(tmp_path):
    """Issue 58: the first optimal() of a table directory baked 6edge for seconds without a word.
    A bake or a build on first use says what, where, how big and how long first, as a
    BakeWarning on standard error, which a warnings filter keeps quiet."""
    import os
    import subprocess
    import sys

    def run(directory, code):
        env = dict(os.environ, CUBE_TABLES_DIR=str(directory))
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr

    code = "from cube_toolkit import fmc, optimal\nprint(optimal('R U', tier='6edge').solution)\nfmc.solve('R U F', 'eofb')\n"
    out, err = run(tmp_path / "first", code)
    assert out.strip() == "U' R'"
    first = tmp_path / "first"
    assert f"BakeWarning: cube_toolkit: baking the 6edge tables into {first} (about 4 s on 2 cores, 82.7 MiB of disk; once)" in err, err
    assert f"BakeWarning: cube_toolkit: building the fmc-eo tables into {first} (0.1 MiB; once)" in err, err
    # Baked and built: nothing to say.
    assert run(first, code)[1] == ""
    quiet = "import warnings, cube_toolkit\nwarnings.simplefilter('ignore', cube_toolkit.BakeWarning)\ncube_toolkit.fmc.solve('R U F', 'eofb')\n"
    assert run(tmp_path / "quiet", quiet)[1] == ""
