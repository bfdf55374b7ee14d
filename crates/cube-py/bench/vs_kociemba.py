"""cube_toolkit.kociemba against the `kociemba` package (PyPI, muodov/kociemba) on the same
random states, side by side in one run: time per call and mean length, every solution checked.

    pip install kociemba
    CUBE_TABLES_DIR=DIR python crates/cube-py/bench/vs_kociemba.py [N]
"""

import statistics
import sys
import time

import kociemba as reference

from cube_toolkit import Cube
from cube_toolkit import kociemba as ours


def run(solve, states):
    times, lengths = [], []
    for state in states:
        start = time.perf_counter()
        solution = solve(state)
        times.append(time.perf_counter() - start)
        assert Cube(state).apply(solution).is_solved if solution else Cube(state).is_solved
        lengths.append(len(solution.split()))
    return statistics.median(times), sum(times) / len(times), sum(lengths) / len(lengths)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    states = [Cube.random(seed=i).facelets for i in range(n)]
    # Both load their tables before the clock (kociemba reads or builds its cache on first use).
    ours.solve(states[0])
    reference.solve(states[0])
    for name, solve in [("cube_toolkit.kociemba", ours.solve), ("kociemba 1.2.1", reference.solve)]:
        median, mean, length = run(solve, states)
        print(f"{name}: {n} states: median {median * 1e3:.2f} ms, mean {mean * 1e3:.2f} ms per call, mean length {length:.2f}")


if __name__ == "__main__":
    main()
