"""optimal over an H48 tier (h0, the test tier, baked into the test table directory on first use)
against the CLI's answers on held positions, its tables loaded once for many calls, and the one
bake rule: a tier baked by cube-cli, xtask and Python leaves the same files (6edge, which bakes in
seconds through the same catalogue and bake as every family's tiers; h0 takes 17 s a bake).

The positions are five of nissy-core's 16-movers (their optimal length is 16, from nissy-core's own
solver) and the first 10 moves of fifteen others (at most 10 moves; seconds less on CI); cube-cli and
xtask are the release binaries of this checkout (``cargo xtask test`` names them in
``CUBE_CLI_BIN`` and ``CUBE_XTASK_BIN``; else ``target/release``)."""

import hashlib
import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import POSITIONS, ROOT
from cube_toolkit import Cube, optimal, tables

LINES = [line.strip() for line in (POSITIONS / "nissy-core-optimal-16.txt").read_text().splitlines() if line.strip()]
FULL = 5
HELD = LINES[:FULL] + [" ".join(line.split()[:10]) for line in LINES[FULL:20]]


# The variables ``cargo xtask test`` names the binaries in.
NAMED = {"cube-cli": "CUBE_CLI_BIN", "xtask": "CUBE_XTASK_BIN"}


def binary(name):
    named = os.environ.get(NAMED[name])
    if named:
        path = pathlib.Path(named)
        assert path.exists(), f"{NAMED[name]} names {path}, which does not exist"
        return path
    path = ROOT / "target" / "release" / name
    if not path.exists():
        pytest.skip(f"{path} is not built (cargo build --release -p {name})")
    return path


def test_h0_gives_the_cli_s_answers_and_loads_once():
    assert len(HELD) == 20, "testdata/positions/nissy-core-optimal-16.txt holds 25 positions"
    first = optimal(HELD[0], tier="h0", threads=2)
    loads = tables.loads()
    ours = [first] + [optimal(scramble, tier="h0", threads=2) for scramble in HELD[1:]]
    assert tables.loads() == loads, "h0's tables load once for 20 calls"
    cli = subprocess.run(
        [str(binary("cube-cli")), "optimal", "-", "--batch", "--json", "--tier", "h0", "--threads", "2",
         "--tables", tables.dir()],
        input="\n".join(HELD), capture_output=True, text=True, timeout=600,
    )
    assert cli.returncode == 0, cli.stderr
    records = [json.loads(line) for line in cli.stdout.splitlines()]
    assert len(records) == len(HELD)
    for scramble, result, record in zip(HELD, ours, records):
        assert result.tier == record["tier"] == "h0"
        assert result.optimal and record["optimal"]
        assert result.length == record["length"], scramble
        assert result.proven_lower_bound == result.length
        if len(scramble.split()) == 16:
            # nissy-core's length.
            assert result.length == 16, scramble
        else:
            assert result.length <= 10, scramble
        assert Cube(scramble).apply(result.solution).is_solved


def kept_files(directory):
    """The bake's files: every name but the bake log and the lock files, each table's payload by
    its hash (a stamp's contents name the file's identity, so only its name counts)."""
    files = {}
    for path in sorted(pathlib.Path(directory).iterdir()):
        if path.name in ("bake.log", ".bake.lock", ".lock"):
            continue
        files[path.name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.suffix == ".tbl" else None
    return files


def test_a_tier_baked_by_the_cli_xtask_and_python_is_the_same(tmp_path):
    by_cli, by_xtask, by_python = tmp_path / "cli", tmp_path / "xtask", tmp_path / "python"
    cli = subprocess.run(
        [str(binary("cube-cli")), "tables", "bake", "--tier", "6edge", "--tables", str(by_cli)],
        capture_output=True, text=True, timeout=600,
    )
    assert cli.returncode == 0, cli.stderr
    xtask = subprocess.run(
        [str(binary("xtask")), "bake-tables", "--tier", "6edge", "--dir", str(by_xtask)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert xtask.returncode == 0, xtask.stderr
    env = dict(os.environ, CUBE_TABLES_DIR=str(by_python))
    python = subprocess.run(
        [sys.executable, "-c", "import cube_toolkit; cube_toolkit.tables.bake('6edge', progress=False)"],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert python.returncode == 0, python.stderr
    files = kept_files(by_cli)
    tables = {"korf-corners.v1.tbl", "korf-edges-6a.v1.tbl", "korf-edges-6b.v1.tbl"}
    assert tables <= set(files), files
    assert {name + ".checked" for name in tables} <= set(files), files
    assert kept_files(by_xtask) == files
    assert kept_files(by_python) == files


def test_the_quarter_turn_metric():
    # R2 U2: 4 quarter turns (each half turn counts 2), 2 face turns; nx-eo1ep1-qtm bakes on
    # first use.
    result = optimal("R2 U2", metric="qtm", tier="nx-eo1ep1-qtm", threads=1)
    assert (result.metric, result.tier, result.length) == ("qtm", "nx-eo1ep1-qtm", 4)
    assert result.solution == "U2 R2" and result.optimal and result.proven_lower_bound == 4
    # A -qtm tier implies the metric; metric="qtm" alone takes the largest baked -qtm tier.
    assert optimal("R U2", tier="nx-eo1ep1-qtm").length == 3
    assert optimal("R U2", metric="qtm").metric == "qtm"
    assert optimal("R U2", tier="6edge").metric == "htm"
    with pytest.raises(ValueError, match='"htm".*"qtm"'):
        optimal("R U", metric="ftm")
    with pytest.raises(ValueError, match="nx-eo1ep1-qtm"):
        optimal("R U", tier="nx-eo1ep1", metric="qtm")
    with pytest.raises(ValueError, match="nx-eo1ep1-qtm"):
        optimal("R U", tier="7edge", metric="qtm")
    # Issue 58: a tier is named as the CLI names it (6edge, not the Rust name Edge6).
    with pytest.raises(ValueError, match='^tier "6edge" counts in "htm", not "qtm": use tier="nx-eo1ep1-qtm"'):
        optimal("R U", tier="6edge", metric="qtm")
