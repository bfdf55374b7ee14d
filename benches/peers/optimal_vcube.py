#!/usr/bin/env python3
"""Side by side with vcube (an optimal solver over nxopt's 2.6 GB table): interleaved rounds, totals.

Not part of CI: it needs vcube built from its public source outside this tree, with two small
changes of your own (../shared/design/peers.md, section "vcube"): the solver's count of pruning-table
evaluations printed as the third field of each output line, and `madvise(MADV_HUGEPAGE)` on its
table when `VCUBE_THP=1` (without reserved hugetlb pages vcube falls back to 4 KiB pages). Its
coordinate-112 table is generated with `./vc-optimal -c 112 -n -w 2` in vcube's directory.

    optimal_vcube.py --vcube DIR --bench target/release/examples/optimal_bench \\
        --cli target/release/cube-cli --tables DIR --tier h5 [--tables DIR2 --tier nx-eo3ep1] \\
        --rounds 3 SET.txt...

Each round runs, for every set in turn, this project's `optimal_bench` on each tier given (one
process, the whole set, `--threads 2`, default settings, its tables on transparent huge pages; the
`--tables` and `--tier` options pair up in order: sym48 over an H48 tier, nx over an nx tier) and
then vcube. With `--per-position`, ours runs as users run it instead: one `cube-cli optimal --tier
T --threads 2 --quiet --json STATE` process per position (the search seconds from its record, the
process's wall time, table load included, beside them), and vcube
(`-c 112 -w 1 -O`: one thread per cube, the table on huge pages). `optimal_bench` checks its own
answers; every vcube solution is checked with `cube-cli verify` and its length against the set's.
Printed per set and solver: the median and the total of the per-position search times (table
loads excluded on both sides), the worst position, and table GB x s x threads by totals and by
medians; then ours by CPU time (the record's `cpu_seconds`, or optimal_bench's CPU per node):
the threads the searches really used on average, and table GB x CPU s against vcube's GB x s
(one worker).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

# Table bytes in GB (10^9): vcube's coordinate-112 file; sym48's tier + the corner database + its
# move deltas + COCSEP (docs/perf-log/optimal-sym48.md, "sym48 over h4..h7"); an nx tier + the
# corner database (0.044) + its move deltas (0.051).
VCUBE_GB = 2.603
TIER_GB = {
    "h4": 0.58,
    "h5": 1.07,
    "h6": 2.04,
    "h7": 3.99,
    "nx-eo1ep1": 0.115,
    "nx-eo2ep1": 0.420,
    "nx-eo1ep2": 0.583,
    "nx-eo1ep3": 1.518,
    "nx-eo3ep1": 2.698,
}

BENCH_LINE = re.compile(r"^\S+:(\d+)\s+(\d+) moves\s+(\d+) nodes\s+([\d.]+) s(?:.*?([\d.]+) ns cpu/node)?")


def vcube_moves(text):
    """vcube's solution (`R  F' D2 ...`, two columns a move; or `R1F3D2` in its compact style) as
    outer-turn notation."""
    suffix = {"": "", "1": "", "2": "2", "3": "'", "'": "'"}
    pairs = re.findall(r"([URFDLB])([123']?)", text)
    return " ".join(face + suffix[n] for face, n in pairs)


def run_ours(args, tables, tier, path):
    cmd = [args.bench, "--tables", tables, "--tier", tier, "--threads", str(args.threads), path]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        m = BENCH_LINE.match(line)
        if m:
            nodes = int(m.group(3))
            cpu = float(m.group(5)) * nodes / 1e9 if m.group(5) else None
            rows.append((int(m.group(1)), float(m.group(4)), nodes, None, cpu))
    return rows


def run_cli(args, tables, tier, scrambles):
    """One `cube-cli optimal` process per position: (line, search seconds, nodes, process wall,
    the search's CPU seconds from the record)."""
    rows = []
    for i, scramble in enumerate(scrambles):
        cmd = [args.cli, "optimal", "--tables", tables, "--tier", tier, "--threads", str(args.threads),
               "--quiet", "--json", scramble]
        start = time.monotonic()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        wall = time.monotonic() - start
        record = json.loads(out.splitlines()[-1])
        if record["length"] != len(scramble.split()) or not record["optimal"]:
            sys.exit(f"{tier}, #{i + 1}: {record['length']} moves, the set says {len(scramble.split())}")
        rows.append((i + 1, record["seconds"], record["nodes"], wall, record.get("cpu_seconds")))
    return rows


def run_vcube(args, path, scrambles):
    env = dict(os.environ, VCUBE_THP="1")
    with open(path) as f:
        out = subprocess.run(
            ["./vc-optimal", "-c", "112", "-w", "1", "-O"],
            cwd=args.vcube, stdin=f, check=True, capture_output=True, text=True, env=env,
        ).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split(maxsplit=4)
        if len(fields) < 4:
            continue
        ident, secs, evals, length = int(fields[0]), float(fields[1]), int(fields[2]), int(fields[3])
        moves = vcube_moves(fields[4] if len(fields) > 4 else "")
        scramble = scrambles[ident]
        if length != len(scramble.split()) or len(moves.split()) != length:
            sys.exit(f"vcube, {path}:{ident + 1}: {length} moves, the set says {len(scramble.split())}")
        check = subprocess.run([args.cli, "verify", scramble, moves], capture_output=True, text=True)
        if check.returncode != 0:
            sys.exit(f"vcube, {path}:{ident + 1}: `{moves}` does not solve `{scramble}`")
        rows.append((ident + 1, secs, evals))
    return rows


def summary(name, rows, gb, threads):
    times = [r[1] for r in rows]
    total, median = sum(times), statistics.median(times)
    worst = max(rows, key=lambda r: r[1])
    print(
        f"  {name:<10} n={len(rows):<3} median {median:8.3f} s  total {total:9.2f} s  "
        f"worst #{worst[0]} {worst[1]:.2f} s ({worst[2]:,} nodes)  "
        f"GBxsxthreads: totals {gb * total * threads:8.1f}, medians {gb * median * threads:6.2f}"
    )
    return total, median


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vcube", required=True, help="vcube's directory (vc-optimal and tables/)")
    p.add_argument("--bench", required=True, help="this project's optimal_bench example")
    p.add_argument("--cli", required=True, help="this project's cube-cli (answers checked with it)")
    p.add_argument("--tables", action="append", required=True, help="a tier's table directory")
    p.add_argument("--tier", action="append", required=True, choices=sorted(TIER_GB))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--per-position", action="store_true",
                   help="ours as one cube-cli process per position (the record's search seconds)")
    p.add_argument("sets", nargs="+")
    args = p.parse_args()
    if len(args.tables) != len(args.tier):
        p.error("give one --tables per --tier")
    for rnd in range(1, args.rounds + 1):
        for path in args.sets:
            with open(path) as f:
                scrambles = [line.strip() for line in f if line.strip()]
            print(f"round {rnd}, {path} ({len(scrambles)} positions)", flush=True)
            ours = []
            for tables, tier in zip(args.tables, args.tier):
                if args.per_position:
                    rows = run_cli(args, tables, tier, scrambles)
                else:
                    rows = run_ours(args, tables, tier, path)
                if len(rows) != len(scrambles):
                    sys.exit(f"optimal_bench over {tier} answered {len(rows)} of {len(scrambles)}")
                ours.append((tier, rows))
            vc = run_vcube(args, path, scrambles)
            if len(vc) != len(scrambles):
                sys.exit(f"vcube answered {len(vc)} of {len(scrambles)}")
            v_total, v_med = summary("vcube 112", vc, VCUBE_GB, 1)
            for tier, rows in ours:
                total, med = summary(tier, rows, TIER_GB[tier], args.threads)
                by_total = (VCUBE_GB * v_total) / (TIER_GB[tier] * total * args.threads)
                by_median = (VCUBE_GB * v_med) / (TIER_GB[tier] * med * args.threads)
                print(f"  vcube / {tier} per GB x s x threads: by totals {by_total:.2f}x, by medians {by_median:.2f}x")
                cpus = [r[4] for r in rows]
                if all(c is not None for c in cpus):
                    # The threads the search really used: its CPU time (helper included) over its
                    # wall time; vcube's one worker's per-cube seconds count as its CPU time.
                    cpu = sum(cpus)
                    print(f"  {tier} CPU: total {cpu:.2f} s ({cpu / total:.2f} threads on average); "
                          f"vcube / {tier} per GB x CPU s by totals: {(VCUBE_GB * v_total) / (TIER_GB[tier] * cpu):.2f}x")
                if args.per_position:
                    walls = [r[3] for r in rows]
                    print(f"  {tier} processes' wall (load included): median {statistics.median(walls):.3f} s, "
                          f"total {sum(walls):.2f} s")
            for i, (_, tv, nv) in enumerate(vc):
                cells = "   ".join(f"{tier} {rows[i][1]:8.3f} s {rows[i][2]:>13,} nodes" for tier, rows in ours)
                print(f"    #{i + 1:<3} {cells}   vcube {tv:8.3f} s {nv:>12,} evals", flush=True)


if __name__ == "__main__":
    main()
