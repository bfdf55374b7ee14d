"""cube_toolkit.fmc.insert, cycles and improve (issue 59): constructed skeletons with a known
finish (benches/positions/insertions.txt, made by cube-solvers' insert_cases example), each answer
checked by applying it to the scramble; the errors in the CLI's words."""

import pathlib

import pytest

from cube_toolkit import Cube, IllegalCube, ParseError, fmc

ROOT = pathlib.Path(__file__).resolve().parents[3]
CASES = ROOT / "benches" / "positions" / "insertions.txt"


def first_cases(kinds):
    """The first case of each kind: (kind, scramble, skeleton, known solution)."""
    found = {}
    for line in CASES.read_text().splitlines():
        kind, scramble, skeleton, _, known = line.split("\t")
        if kind in kinds and kind not in found:
            found[kind] = (kind, scramble, skeleton, known)
    return [found[k] for k in kinds]


@pytest.mark.parametrize("kind,scramble,skeleton,known", first_cases(["3c", "3e", "2c2e", "3c3e"]))
def test_insert_solves_no_longer_than_the_known_finish(kind, scramble, skeleton, known):
    record = fmc.insert(scramble, skeleton, optimal=True)
    solution = record["solution"]
    assert Cube(scramble).apply(solution).is_solved, (kind, solution)
    assert record["length"] == len(solution.split())
    assert record["length"] <= len(known.split()), (kind, solution, known)
    assert record["optimal"] and record["complete"]
    # Each insertion replayed where it says gives the next sequence, then the solution.
    sequence = record["skeleton"]
    for insertion in record["insertions"]:
        moves = insertion["sequence"].split()
        at = insertion["position"]
        assert fmc.cleanup(" ".join(moves)) == sequence
        done = fmc.cleanup(" ".join(moves[:at] + insertion["algorithm"].split() + moves[at:]))
        cancelled = len(moves) + len(insertion["algorithm"].split()) - len(done.split())
        assert cancelled == insertion["cancelled"], insertion
        sequence = done
    assert sequence == solution
    # The greedy finder is never shorter than the proven fewest.
    greedy = fmc.insert(scramble, skeleton)
    assert Cube(scramble).apply(greedy["solution"]).is_solved
    assert greedy["length"] >= record["length"]


def test_insert_with_an_own_algorithm_list():
    record = fmc.insert("D R U R' D' R U' R' F2 B2", "B2 F2", algs="R U R' D R U' R' D'")
    assert Cube("D R U R' D' R U' R' F2 B2").apply(record["solution"]).is_solved
    assert len(record["insertions"]) == 1
    assert record["insertions"][0]["kind"] == "corner-3-cycle"


def test_cycles_in_fmc_words():
    # R U R' U' swaps two pairs of corners, twisting them, and cycles three edges: its order is
    # 6 (two swaps of order 2 by a twist, lcm 2 and 3, with the edges' 3).
    record = fmc.cycles("R U R' U'", "")
    assert record["skeleton_length"] == 0
    assert record["code"] == "2c2c3e"
    assert record["words"].startswith("4 corners, 3 edges")
    # The skeleton that undoes it leaves nothing.
    assert fmc.cycles("R U R' U'", "U R U' R'")["words"] == "solved"
    # NISS notation: (R U R' U') on the inverse side is the plain U R U' R'.
    assert fmc.cycles("R U R' U'", "(R U R' U')")["words"] == "solved"


def test_improve_finds_a_shorter_solution_doing_the_same():
    solution = "D B2 R2 U2 R2 U2 R2 U2 R2 L"
    record = fmc.improve(solution, max_length=8)
    assert record["complete"] and record["length"] == 10
    best = record["improvements"][0]
    assert best["length"] < 10
    assert Cube(best["solution"]) == Cube(solution)


def test_errors_in_the_cli_s_words():
    with pytest.raises(ParseError, match="^skeleton: "):
        fmc.insert("R U", "R Q")
    with pytest.raises(ParseError, match="^skeleton: "):
        fmc.cycles("R U", "R (U")
    with pytest.raises(IllegalCube):
        fmc.insert("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBF", "R")
    with pytest.raises(ValueError, match="the skeleton already solves the scramble"):
        fmc.insert("R U", "U' R'")
    with pytest.raises(ValueError, match="no edge algorithm"):
        fmc.insert("R U R' U'", "", algs="R U R' D R U' R' D'")
    with pytest.raises(ParseError, match="^algs: "):
        fmc.insert("R U", "", algs="R Q")
    with pytest.raises(ValueError, match="max_length=11 is out of range"):
        fmc.improve("R U", max_length=11)
    with pytest.raises(ValueError, match="threads=0 is out of range"):
        fmc.insert("R U", "", threads=0)
