"""cube_toolkit.kociemba, the drop-in for the kociemba package: its README's examples and the
shared facelet vectors, every solution checked by applying it."""

import json
import os
import subprocess
import sys
import time

import pytest

from conftest import VECTORS
from cube_toolkit import Cube, kociemba


def test_kociemba_readme_examples():
    # The examples of Kociemba's README (muodov/kociemba): a state, then a state to a pattern.
    state = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    solution = kociemba.solve(state)
    assert Cube(state).apply(solution).is_solved
    assert len(solution.split()) <= 20
    start = "FLBUULFFLFDURRDBUBUUDDFFBRDDBLRDRFLLRLRULFUDRRBDBBBUFL"
    pattern = "BBURUDBFUFFFRRFUUFLULUFUDLRRDBBDBDBLUDDFLLRRBRLLLBRDDF"
    solution = kociemba.solve(start, pattern)
    assert Cube(start).apply(solution).facelets == pattern


def test_max_depth():
    state = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    assert len(kociemba.solve(state, max_depth=20).split()) <= 20
    with pytest.raises(ValueError, match="no solution of at most 5 moves found") as raised:
        kociemba.solve(state, max_depth=5)
    # The shim's own argument is named, not the native solve's (issue 36).
    assert "raise max_depth" in str(raised.value)
    assert "max_length" not in str(raised.value) and "time_budget" not in str(raised.value)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR", "colour 'R' appears 10 times"),
        ("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBB", "found 53 facelets"),
        ("R U R' U'", "facelets"),
    ],
)
def test_an_invalid_string_is_a_value_error_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        kociemba.solve(text)


def test_shared_vectors_solve_by_two_phase():
    vectors = json.loads((VECTORS / "facelets.json").read_text())["vectors"]
    assert len(vectors) > 300
    for vector in vectors:
        facelets = vector["facelets"]
        solution = kociemba.solve(facelets)
        # Solutions turn the faces by their centres: applied to the pieces alone (H48 keeps no
        # rotation), whatever the cube's orientation.
        assert Cube(Cube(facelets).h48).apply(solution).is_solved, vector["id"]
        assert len(solution.split()) <= 21, vector["id"]
        # The vector's own moves make the same state (RubikTwoPhase's facelets).
        assert Cube(vector["moves"] or None).h48 == Cube(facelets).h48, vector["id"]


def test_a_first_solve_in_a_new_table_directory_builds_nothing_large(tmp_path):
    """Issue 36: a new process in a new table directory answers from the small two-phase tables
    (the CLI's rule: the large ones only when cached), in well under the minute their build takes,
    and writes none of them."""
    state = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    code = f"from cube_toolkit import kociemba; print(kociemba.solve({state!r}))"
    env = dict(os.environ, CUBE_TABLES_DIR=str(tmp_path / "new"))
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Cube(state).apply(done.stdout.strip()).is_solved
    assert time.monotonic() - start < 20
    written = list((tmp_path / "new").glob("two-phase-phase1-exact*")) if (tmp_path / "new").exists() else []
    assert written == [], written
