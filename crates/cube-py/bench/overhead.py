"""Per-call time of cube_toolkit.solve (two-phase) on the states of the Rust example
`two_phase_calls` (state i is Cube.random(seed=i)), for the per-call overhead in docs/PERFORMANCE.md.

    CUBE_TABLES_DIR=DIR python crates/cube-py/bench/overhead.py [N] [ROUNDS]

The table directory must be the one the Rust example used, so both solve over the same tables.
"""

import sys
import time

from cube_toolkit import Cube, solve


def per_call(states, rounds):
    best, moves = float("inf"), 0
    for _ in range(rounds):
        start = time.perf_counter()
        moves = sum(solve(state).length for state in states)
        best = min(best, (time.perf_counter() - start) / len(states))
    return best, moves


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    states = [Cube.random(seed=i) for i in range(n)]
    solve(states[0])  # the tables load once, before the clock
    random, moves = per_call(states, rounds)
    solved, _ = per_call([Cube()] * n, rounds)
    texts, _ = per_call([state.facelets for state in states], rounds)
    print(f"python two-phase: {n} random states (Cube), best of {rounds} rounds: {random * 1e6:.1f} us per call, mean length {moves / n:.2f}")
    print(f"python two-phase: the same as facelet strings: {texts * 1e6:.1f} us per call")
    print(f"python two-phase: solved cube: {solved * 1e6:.2f} us per call")


if __name__ == "__main__":
    main()
