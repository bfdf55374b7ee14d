#!/usr/bin/env python3
"""The start cost of one-shot commands (issue 36): CPU time (user + sys) and peak RSS of a whole
process, tables warm, the median of N runs, one process per run, as a shell script calls them.

    python3 benches/start_cost.py --cli target/release/cube-cli --tables DIR [--runs 10]
        [--before OTHER-CUBE-CLI] [--python PYTHON] [--kociemba-python PYTHON]
        [--min2phase-jar JAR]

DIR must hold the 6edge tier and the large two-phase tables (`cube-cli tables bake --tier 6edge
--caches --tables DIR`); each command runs once before the timed runs, so that first-use checks
and the page cache are out of the figures. `--python` runs `from cube_toolkit import kociemba;
kociemba.solve(s)` in a new interpreter (the package importable by that interpreter, or through
PYTHONPATH); `--kociemba-python` the same with the `kociemba` package of the Python package index;
Give both Pythons the same kind of interpreter (two virtual environments, say): an interpreter
outside one may import a larger site at start. `--min2phase-jar` one solve by min2phase's `Search.solution` through a one-line Java driver
compiled on the fly (skipped without `javac`). A peer not given is not
measured. Prints one line per command: median CPU seconds, median peak RSS in MB, the command.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

# A 12-move state that 6edge proves optimal in a few hundredths of a second.
TWELVE = "R U F D L B R' U' F' D' L' B'"


def measure(argv, env=None, runs=10):
    """Median (CPU seconds, peak RSS in MB) of `runs` runs of `argv`, after one untimed run."""
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    cpu, rss = [], []
    for _ in range(runs):
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            try:
                os.execvpe(argv[0], argv, env if env is not None else os.environ)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"failed: {' '.join(argv)}")
        cpu.append(usage.ru_utime + usage.ru_stime)
        rss.append(usage.ru_maxrss / 1024)
    return statistics.median(cpu), statistics.median(rss)


def report(name, argv, runs, env=None):
    cpu, rss = measure(argv, env, runs)
    print(f"{cpu:6.3f} s {rss:7.1f} MB  {name}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--tables", required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--before", help="another cube-cli to measure in the same run")
    parser.add_argument("--python", help="a Python with cube_toolkit importable")
    parser.add_argument("--kociemba-python", help="a Python with the kociemba package")
    parser.add_argument("--min2phase-jar", help="min2phase's twophase.jar")
    args = parser.parse_args()
    env = dict(os.environ, CUBE_TABLES_DIR=args.tables)
    facelets = subprocess.run(
        [args.cli, "convert", TWELVE, "--to", "facelets"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    clis = [("", args.cli)] + ([("before: ", args.before)] if args.before else [])
    for label, cli in clis:
        report(f'{label}solve "R U F" -q', [cli, "solve", "R U F", "-q"], args.runs, env)
        report(f"{label}scramble -q", [cli, "scramble", "-q"], args.runs, env)
        report(
            f'{label}optimal "{TWELVE}" -q --tier 6edge',
            [cli, "optimal", TWELVE, "-q", "--tier", "6edge"], args.runs, env,
        )
    snippet = f"from cube_toolkit import kociemba; kociemba.solve('{facelets}')"
    if args.python:
        report("python: cube_toolkit.kociemba.solve", [args.python, "-c", snippet], args.runs, env)
        report("python: the interpreter alone", [args.python, "-c", "pass"], args.runs, env)
    if args.kociemba_python:
        peer = f"import kociemba; kociemba.solve('{facelets}')"
        report("peer: kociemba.solve (PyPI)", [args.kociemba_python, "-c", peer], args.runs)
    if args.min2phase_jar and shutil.which("javac"):
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "One.java")
            with open(source, "w") as f:
                f.write(
                    "public class One { public static void main(String[] a) {"
                    " System.out.println(new cs.min2phase.Search().solution(a[0], 21, 100000, 0, 0)); } }"
                )
            subprocess.run(["javac", "-cp", args.min2phase_jar, "-d", tmp, source], check=True)
            classpath = f"{args.min2phase_jar}:{tmp}"
            report("peer: min2phase Search.solution (Java)",
                   ["java", "-cp", classpath, "One", facelets], args.runs)


if __name__ == "__main__":
    main()
