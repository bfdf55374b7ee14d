#!/usr/bin/env python3
"""Side by side with nissy-core's coordinate solvers (the FMC steps): same solution sets, and the time.

Not part of CI: it needs nissy-core built from its public source outside this tree
(../shared/design/peers.md, section 5: `./build.sh` and `./build.sh shell` give `run`, whose tables
are generated in its `tables/`), and, for the one-process timings, a small driver of your own
linked against `nissy.o` that reads queries `SOLVER NISS MIN MAX N O MOVES...` on stdin and prints
`SECONDS<TAB>COUNT<TAB>sol|sol|...` (see docs/perf-log/fmc.md).

    fmc_nissy.py compare --nissy DIR --cli target/release/cube-cli --cases 300 --seed 1
    fmc_nissy.py speed   --nissy DIR --cli target/release/cube-cli --driver BIN --rounds 3

`compare` draws (state, step, settings) triples itself: a random 25-move scramble, made to meet the
step's requisite by appending nissy-core's shortest solution of the earlier step (EO for DR from
EO; DR for HTR, leave-slice and finish), a NISS mode the step allows, and settings whose answer is
a whole set (the solution count stays below the cap). Solution lists are compared as nissy-core's
tests compare them: up to swapping commuting parallel moves and up to where the inverse part is
written.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

FACES = "URFDLB"
AXIS = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}

# Step -> the earlier step whose solution makes a state meet its requisite (None: any state).
STEPS = {
    "eofb": None, "eorl": None, "eoud": None,
    "drud": None, "drrl": None, "drfb": None,
    "drud-eofb": "eofb", "drrl-eofb": "eofb", "drud-eorl": "eorl",
    "drfb-eorl": "eorl", "drrl-eoud": "eoud", "drfb-eoud": "eoud",
    "htr-drud": "drud", "htr-drrl": "drrl", "htr-drfb": "drfb",
    "drudslice": "drud", "drrlslice": "drrl", "drfbslice": "drfb",
    "drudfin": "drud", "drrlfin": "drrl", "drfbfin": "drfb",
    "corners": None, "cornersx": None,
}
# Steps that do not use NISS (nissy-core ignores the flag there).
NO_NISS = {s for s in STEPS if s.endswith("slice") or s.endswith("fin")}
NISS = ["normal", "inverse", "linear", "mixed", "all"]
# nissy-core's coordinate solvers keep the number of solutions in 8 bits (`(uint8_t)maxsolutions` in
# src/solvers/coord/solve.h at 3cb60bc): `-n 100000` means 160 and `-n 65536` none, and without `-n`
# (UINT_MAX) 255. So it is asked for 255 at most, and a list of 255 is compared as a capped one.
NISSY_MAX_SOLUTIONS = 255


def random_scramble(rng, length=25):
    moves, last = [], None
    while len(moves) < length:
        face = rng.choice(FACES)
        if last is not None and (face == last or (AXIS[face] == AXIS[last] and FACES.index(face) < FACES.index(last))):
            continue
        moves.append(face + rng.choice(["", "2", "'"]))
        last = face
    return " ".join(moves)


def canonical_part(tokens):
    """Runs of moves on one axis sorted: `U D` and `D U` give the same key."""
    out, run = [], []
    for t in tokens:
        if run and AXIS[t[0]] != AXIS[run[0][0]]:
            out.extend(sorted(run))
            run = []
        run.append(t)
    out.extend(sorted(run))
    return tuple(out)


def canonical(solution):
    normal, inverse, inside = [], [], False
    for tok in solution.replace("(", " ( ").replace(")", " ) ").split():
        if tok == "(":
            inside = True
        elif tok == ")":
            inside = False
        else:
            (inverse if inside else normal).append(tok)
    return canonical_part(normal), canonical_part(inverse)


def nissy_solve(nissy, solver, niss, lo, hi, n, above, moves, timeout=30):
    args = [os.path.join(nissy, "run"), "solve_scramble", "-solver", solver, "-nisstype", niss,
            "-m", str(lo), "-M", str(hi), "-n", str(n), "-t", "1", "-moves", moves]
    if above is not None:
        args[-2:-2] = ["-O", str(above)]
    try:
        out = subprocess.run(args, cwd=nissy, capture_output=True, text=True, check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None   # nissy-core searches the first side of a mixed search unpruned: minutes for corners
    if out.returncode < 0:
        return None   # nissy-core crashed (at 3cb60bc, `-O 1` on some short EO states: a SIGSEGV)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def cli_args(cli, solver, niss, lo, hi, n, above, moves):
    args = [cli, "fmc", "solve", solver, moves, "--niss", niss, "--min", str(lo), "--max", str(hi),
            "-n", str(n), "--json", "-q"]
    if above is not None:
        args += ["--above-optimal", str(above)]
    return args


def cli_solve(cli, solver, niss, lo, hi, n, above, moves):
    out = subprocess.run(cli_args(cli, solver, niss, lo, hi, n, above, moves),
                         capture_output=True, text=True, check=False)
    if out.returncode not in (0, 4):
        raise RuntimeError(f"cube-cli failed ({out.returncode}): {out.stdout.strip()} {out.stderr.strip()}")
    record = json.loads(out.stdout.splitlines()[-1])
    return [s["solution"] for s in record["solutions"]]


def draw(rng, nissy):
    """A triple whose answer is a whole set: (solver, niss, lo, hi, n, above, moves)."""
    solver = rng.choice(sorted(STEPS))
    moves = random_scramble(rng)
    earlier = STEPS[solver]
    if earlier is not None:
        first = nissy_solve(nissy, earlier, "normal", 0, 20, 1, 0, moves)
        moves = f"{moves} {first[0]}"
    niss = "normal" if solver in NO_NISS else rng.choice(NISS)
    above = rng.choice([0, 0, 1, 2]) if solver not in NO_NISS else rng.choice([0, 1])
    if solver.startswith("dr") and "-" not in solver and not solver.endswith(("slice", "fin")):
        above = min(above, 1)   # every DR solution up to 2 above optimal with NISS: thousands
    return solver, niss, 0, 20, NISSY_MAX_SOLUTIONS, above, moves


def compare(args):
    rng = random.Random(args.seed)
    same = differ = crashed = 0
    total_solutions = 0
    for i in range(args.cases):
        solver, niss, lo, hi, n, above, moves = draw(rng, args.nissy)
        theirs = nissy_solve(args.nissy, solver, niss, lo, hi, n, above, moves)
        if theirs is None:
            crashed += 1
            print(f"{i:3} nissy-core crashed or took over 30 s: {solver} {niss} -O {above} [{moves}]", flush=True)
            continue
        try:
            ours = cli_solve(args.cli, solver, niss, lo, hi, 100000, above, moves)
        except RuntimeError as e:
            differ += 1
            print(f"{i:3} FAILED {solver} {niss} -O {above}: {e} [{moves}]", flush=True)
            continue
        a = sorted(map(canonical, theirs))
        b = sorted(map(canonical, ours))
        capped = len(theirs) >= n
        if capped:
            # The shorter lengths whole, the longest one a part of ours.
            longest = max(len(x[0]) + len(x[1]) for x in a)
            ok = [x for x in a if len(x[0]) + len(x[1]) < longest] == \
                [x for x in b if len(x[0]) + len(x[1]) < longest] and set(a) <= set(b)
        else:
            ok = a == b
        same += ok
        differ += not ok
        total_solutions += len(theirs)
        status = ("same" if not capped else "same (capped)") if ok else "DIFFER"
        print(f"{i:3} {status} {solver} {niss} -O {above}: nissy-core {len(theirs)}, ours {len(ours)}  [{moves}]",
              flush=True)
        if not ok:
            print("   only nissy-core:", sorted(set(a) - set(b))[:5])
            print("   only ours:      ", sorted(set(b) - set(a))[:5])
    print(f"{same} of {args.cases} identical, {differ} differ, {crashed} not compared (nissy-core crashed or took"
          f" over 30 s);"
          f" {total_solutions} solutions compared")
    return 0 if differ == 0 else 1


# The five queries of the issue: (name, solver, niss, above, how many states, earlier step).
QUERIES = [
    ("a eofb all +1", "eofb", "all", 1, 200, None),
    ("b drud-eofb linear opt", "drud-eofb", "linear", 0, 200, "eofb"),
    ("c htr-drud linear opt", "htr-drud", "linear", 0, 100, "drud"),
    ("d drudfin opt", "drudfin", "normal", 0, 100, "drud"),
    ("e drud linear opt", "drud", "linear", 0, 100, None),
]


def states_for(rng, nissy, count, earlier):
    states = []
    for _ in range(count):
        moves = random_scramble(rng)
        if earlier is not None:
            moves = f"{moves} {nissy_solve(nissy, earlier, 'normal', 0, 20, 1, 0, moves)[0]}"
        states.append(moves)
    return states


def cpu_run(argv, cwd=None, stdin=None):
    """Wall seconds of one process and its output."""
    start = time.perf_counter()
    out = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, out


def speed(args):
    rng = random.Random(args.seed)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; per process: wall of one process a query;"
          " in one process: seconds of the solve call (nissy-core driver) or of the batch divided by the count")
    for name, solver, niss, above, count, earlier in QUERIES:
        states = states_for(rng, args.nissy, min(count, args.limit), earlier)
        theirs_p, ours_p = [], []
        for _ in range(args.rounds):
            for moves in states:   # interleaved, one query at a time
                t, _ = cpu_run([os.path.join(args.nissy, "run"), "solve_scramble", "-solver", solver, "-nisstype",
                                niss, "-m", "0", "-M", "20", "-O", str(above), "-n", str(NISSY_MAX_SOLUTIONS), "-t", "1",
                                "-moves", moves],
                               cwd=args.nissy)
                theirs_p.append(t)
                t, _ = cpu_run(cli_args(args.cli, solver, niss, 0, 20, NISSY_MAX_SOLUTIONS, above, moves))
                ours_p.append(t)
        # Many queries in one process.
        lines = "".join(f"{solver} {niss} 0 20 {NISSY_MAX_SOLUTIONS} {above} {m}\n" for m in states)
        theirs_b, ours_b = [], []
        for _ in range(args.rounds):
            _, out = cpu_run([args.driver], cwd=args.nissy, stdin=lines)
            theirs_b += [float(line.split("\t")[0]) for line in out.stdout.splitlines()]
            batch = "".join(f"{m}\n" for m in states)
            argv = [args.cli, "fmc", "solve", solver, "-", "--batch", "--niss", niss, "--above-optimal", str(above),
                    "-n", str(NISSY_MAX_SOLUTIONS), "--json", "-q"]
            t, out = cpu_run(argv, stdin=batch)
            ours_b += [json.loads(line)["seconds"] for line in out.stdout.splitlines() if line.startswith("{")]
        med = statistics.median
        print(f"{name:26} per process: nissy-core {med(theirs_p)*1e3:7.1f} ms  ours {med(ours_p)*1e3:7.1f} ms"
              f"  ({med(theirs_p)/med(ours_p):4.1f}x)   in one process: nissy-core {med(theirs_b)*1e3:7.2f} ms"
              f"  ours {med(ours_b)*1e3:7.2f} ms  ({med(theirs_b)/max(med(ours_b),1e-9):4.1f}x)", flush=True)
        print(f"{'':26} per process, totals over {len(theirs_p)} queries: nissy-core {sum(theirs_p):6.2f} s"
              f"  ours {sum(ours_p):6.2f} s  ({sum(theirs_p)/sum(ours_p):4.1f}x)", flush=True)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["compare", "speed"])
    p.add_argument("--nissy", required=True, help="nissy-core's folder (with run and tables/)")
    p.add_argument("--cli", required=True, help="cube-cli binary (release)")
    p.add_argument("--driver", help="the one-process nissy-core driver (speed)")
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--limit", type=int, default=1000, help="at most this many states a query (speed)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    return compare(args) if args.what == "compare" else speed(args)


if __name__ == "__main__":
    sys.exit(main())
