#!/usr/bin/env python3
"""Side by side with Insertion Finder (`fmc insert`): lengths over the same algorithm set, and the time.

Not part of CI: it needs Insertion Finder (github.com/xuanyan0x7c7/insertionfinder) built from its
public source outside this tree (autoreconf -fi && ./configure && make; it needs Boost's
program_options and asio and univalue), and this project's generated set written out for it:

    cargo run --release -p cube-solvers --example insert_cases -- algs generated > gen.txt
    insertionfinder --generate --symmetrics-only -f gen.txt -a gen.algs

(Insertion Finder's generator adds each algorithm's images under the symmetries; the generated set
already has them all, so `gen.algs` has this project's 5,587 cases and no other.)

    insert_if.py compare --if BIN --algs gen.algs --cli target/release/cube-cli --kinds 3c,3e,3c3c
    insert_if.py compare --if BIN --all-algs DIR ...   (Insertion Finder's own sets instead)

Each case of `benches/positions/insertions.txt` of the kinds asked (up to --limit) is run by both,
interleaved (ours, then Insertion Finder's, case by case, --rounds times): ours with `--optimal`
(or not, with --greedy), Insertion Finder with `-o` (or not). Lengths are compared case by case;
times are each tool's own measure of its search (`seconds`, `duration`), without start-up and
table loading, summed over the cases (the best round of each), and the wall times of the runs.
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def cases(kinds, limit):
    out = []
    with open(os.path.join(ROOT, "benches", "positions", "insertions.txt")) as f:
        for line in f:
            kind, scramble, skeleton, splices, known = line.rstrip("\n").split("\t")
            if kinds and kind not in kinds:
                continue
            out.append({"kind": kind, "scramble": scramble, "skeleton": skeleton,
                        "known": len(known.split())})
    per_kind = {}
    chosen = []
    for case in out:
        if per_kind.get(case["kind"], 0) < limit:
            per_kind[case["kind"]] = per_kind.get(case["kind"], 0) + 1
            chosen.append(case)
    return chosen


def ours(args, case):
    cmd = [args.cli, "fmc", "insert", case["scramble"], case["skeleton"], "--json"]
    if not args.greedy:
        cmd.append("--optimal")
    if args.max_seconds:
        cmd += ["--max-seconds", str(args.max_seconds)]
    if args.our_algs:
        cmd += ["--algs", args.our_algs]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    record = json.loads(out.stdout.splitlines()[-1])
    return {"length": record.get("length"), "seconds": record.get("seconds", 0.0),
            "optimal": record.get("optimal", False), "wall": wall}


def insertion_finder(args, case):
    cmd = [args.if_bin, "-s", "--json", "-j", str(args.jobs)]
    if args.algs:
        cmd += ["-a", args.algs]
    else:
        cmd += ["--algs-dir", args.all_algs, "--all-algs"]
    if not args.greedy:
        cmd.append("-o")
    start = time.perf_counter()
    try:
        out = subprocess.run(cmd, input=f"{case['scramble']}\n{case['skeleton']}\n",
                             capture_output=True, text=True, timeout=args.if_timeout)
    except subprocess.TimeoutExpired:
        return {"length": None, "seconds": None, "wall": args.if_timeout}
    wall = time.perf_counter() - start
    record = json.loads(out.stdout)
    solutions = record.get("solutions", [])
    length = record["fewest_moves"] if solutions else None
    return {"length": length, "seconds": record.get("duration", 0) / 1e9, "wall": wall}


def compare(args):
    chosen = cases(set(args.kinds.split(",")) if args.kinds else None, args.limit)
    rows = []
    for case in chosen:
        best = {"ours": None, "if": None}
        for _ in range(args.rounds):
            for name, run in (("ours", ours), ("if", insertion_finder)):
                result = run(args, case)
                previous = best[name]
                if previous is None or (result["seconds"] or 1e9) < (previous["seconds"] or 1e9):
                    best[name] = result
        rows.append((case, best["ours"], best["if"]))
        o, i = best["ours"], best["if"]
        print(f"{case['kind']:8} known {case['known']:3}  ours {o['length']} "
              f"{o['seconds']:.4f}s ({'proven' if o['optimal'] else 'not proven'})  "
              f"IF {i['length']} {i['seconds'] if i['seconds'] is None else round(i['seconds'], 4)}s",
              flush=True)
    by_kind = {}
    for case, o, i in rows:
        k = by_kind.setdefault(case["kind"], {"n": 0, "shorter": 0, "same": 0, "longer": 0,
                                              "if_none": 0, "ours_s": 0.0, "if_s": 0.0,
                                              "ours_wall": 0.0, "if_wall": 0.0})
        k["n"] += 1
        if i["length"] is None:
            k["if_none"] += 1
        elif o["length"] is None or o["length"] > i["length"]:
            k["longer"] += 1
        elif o["length"] < i["length"]:
            k["shorter"] += 1
        else:
            k["same"] += 1
        k["ours_s"] += o["seconds"]
        k["if_s"] += i["seconds"] or args.if_timeout
        k["ours_wall"] += o["wall"]
        k["if_wall"] += i["wall"]
    print("\nkind      n  shorter same longer IF-none  ours(s)  IF(s)  ratio  ours wall  IF wall")
    for kind, k in by_kind.items():
        ratio = k["if_s"] / k["ours_s"] if k["ours_s"] else float("inf")
        print(f"{kind:8} {k['n']:3} {k['shorter']:7} {k['same']:4} {k['longer']:6} {k['if_none']:7} "
              f"{k['ours_s']:8.3f} {k['if_s']:6.3f} {ratio:6.1f} {k['ours_wall']:9.2f} {k['if_wall']:8.2f}")
    if any(k["longer"] for k in by_kind.values()):
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--if", dest="if_bin", required=True, help="the insertionfinder binary")
    c.add_argument("--algs", help="Insertion Finder's algorithm file (gen.algs: this project's set)")
    c.add_argument("--all-algs", help="Insertion Finder's algorithm directory (its own sets) instead")
    c.add_argument("--our-algs", help="--algs FILE for ours (default: the generated set)")
    c.add_argument("--cli", required=True)
    c.add_argument("--kinds", default="", help="comma-separated kinds of the case file (default all)")
    c.add_argument("--limit", type=int, default=16, help="cases per kind")
    c.add_argument("--rounds", type=int, default=1)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--greedy", action="store_true", help="both greedy instead of optimal")
    c.add_argument("--max-seconds", type=float, help="ours: --max-seconds")
    c.add_argument("--if-timeout", type=float, default=120.0)
    args = parser.parse_args()
    if not args.algs and not args.all_algs:
        parser.error("--algs or --all-algs")
    compare(args)


if __name__ == "__main__":
    main()
