#!/usr/bin/env python3
"""Draws benchmark positions of a given optimal length: seeded random move sequences of that
length (no face turned twice in a row, opposite faces in one order), each kept when two optimal
solvers of this toolkit that share no heuristic (sym48 over an H48 tier, Korf's over a Korf tier)
both prove its optimal length equal to its move count. Prints the kept sequences, one a line: the
layout `optimal_bench` reads (a sequence that is an optimal solution of the position it makes).

    python3 benches/draw_positions.py --cli target/release/cube-cli --tables DIR \
        --length 15 --count 20 --seed 15 > benches/positions/drawn-15.txt
"""

import argparse
import json
import random
import subprocess
import sys

FACES = "URFDLB"
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}


def draw(rng, length):
    moves, last, before = [], None, None
    while len(moves) < length:
        face = rng.choice(FACES)
        if face == last:
            continue
        # Opposite faces commute: keep one order (U before D, R before L, F before B).
        if last == OPPOSITE[face] and FACES.index(face) < FACES.index(last):
            continue
        if face == before and last == OPPOSITE[face]:
            continue
        moves.append(face + rng.choice(["", "2", "'"]))
        before, last = last, face
    return " ".join(moves)


def lengths(cli, tables, tier, scrambles):
    out = subprocess.run(
        [cli, "--json", "optimal", "--batch", "--tables", tables, "--tier", tier, "-"],
        input="\n".join(scrambles) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert len(records) == len(scrambles), (tier, len(records))
    for r in records:
        assert r.get("optimal") and r.get("complete"), r
    return [r["length"] for r in records]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--tables", required=True)
    p.add_argument("--length", type=int, required=True)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--h48", default="h5")
    p.add_argument("--korf", default="7edge")
    args = p.parse_args()
    rng = random.Random(args.seed)
    kept = []
    while len(kept) < args.count:
        batch = [draw(rng, args.length) for _ in range(args.count)]
        first = lengths(args.cli, args.tables, args.h48, batch)
        candidates = [s for s, n in zip(batch, first) if n == args.length]
        if not candidates:
            continue
        second = lengths(args.cli, args.tables, args.korf, candidates)
        for s, n in zip(candidates, second):
            if n != args.length:
                sys.exit(f"the solvers disagree on {s}: {args.h48} {args.length}, {args.korf} {n}")
        kept += candidates
        print(f"{len(kept)} of {args.count}", file=sys.stderr)
    print("\n".join(kept[: args.count]))


if __name__ == "__main__":
    main()
