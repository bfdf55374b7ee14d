#!/usr/bin/env python3
"""Draws benchmark positions of a given optimal length: seeded random move sequences of that
length (`peers/fmc_nissy.py`'s `random_scramble`: no face turned twice in a row, opposite faces
in one order), each kept when two optimal solvers of this toolkit that share no heuristic (sym48
over an H48 tier, and `--korf`: Korf's over a Korf tier, or nx over an nx tier) both prove its
optimal length equal to its move count. Prints the kept sequences, one a line: the layout
`optimal_bench` reads (a sequence that is an optimal solution of the position it makes).

    python3 benches/draw_positions.py --cli target/release/cube-cli --tables DIR \
        --length 15 --count 20 --seed 15 > benches/positions/drawn-15.txt
"""

import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from fmc_nissy import random_scramble  # noqa: E402  (the one canonical random move sequence)


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
    p.add_argument("--korf", default="7edge", help="the second tier (Korf's or nx's)")
    args = p.parse_args()
    rng = random.Random(args.seed)
    kept = []
    while len(kept) < args.count:
        batch = [random_scramble(rng, args.length) for _ in range(args.count)]
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
