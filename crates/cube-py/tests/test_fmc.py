"""cube_toolkit.fmc (issue 33): the NISS notation functions and the step solvers, each result
checked by applying it to a state, and subgroup scrambles (scramble(type=...))."""

import pytest

from cube_toolkit import Cube, IllegalCube, ParseError, fmc, scramble

SCRAMBLE = "R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F"


def edges_oriented_fb(cube):
    """Whether every edge is oriented on F/B: in the H48 text, every edge's flip digit is 0."""
    return all(piece[-1] == "0" for piece in cube.h48.split()[:12])


def normal_side(scramble_text, sequence):
    """The state of the normal side of a NISS sequence: the inverse of the inverse part, the
    scramble, the normal part (built from plain moves, not from fmc's own functions)."""
    normal, inverse = [], []
    side = normal
    for token in sequence.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            side = inverse
        elif token == ")":
            side = normal
        else:
            side.append(token)
    start = Cube(" ".join(inverse)).inverse() if inverse else Cube()
    return start.apply(scramble_text).apply(" ".join(normal))


def test_unniss_invert_cleanup_count():
    assert fmc.unniss("R U (F' D)") == "R U D' F"
    assert fmc.unniss("(F') R U (D)") == "R U D' F"
    assert fmc.invert("R U (F' D)") == "F' D (R U)"
    assert fmc.cleanup("Rw L' x' (M2 U U D)") == "(R2 L2 U D2)"
    # Counted by hand: R 1, U2 1 (2 in QTM), M' 2 (1 in STM), F 1.
    assert fmc.count("R U2 (M' F)") == {"htm": 5, "qtm": 6, "stm": 4}
    # unniss then apply: the plain sequence solves what the NISS sequence solves.
    plain = fmc.unniss("R U (F' D)")
    scrambled = Cube(plain).inverse()
    assert scrambled.apply(plain).is_solved


@pytest.mark.parametrize("text", ["(R U)2", "(R (U))", "[R, U]", "R Q"])
def test_cubing_js_text_is_a_parse_error(text):
    with pytest.raises(ParseError) as error:
        fmc.unniss(text)
    if text != "R Q":
        assert "NISS notation" in str(error.value)


def test_solve_gives_solutions_of_the_step():
    solutions = fmc.solve(SCRAMBLE, "eofb", niss="all", max_solutions=10)
    assert len(solutions) == 10
    assert [s.length for s in solutions] == sorted(s.length for s in solutions)
    for s in solutions:
        assert edges_oriented_fb(normal_side(SCRAMBLE, s.moves)), s
        assert s.length == len((s.normal + " " + s.inverse).split())
    optimal = fmc.solve(SCRAMBLE, "eofb", niss="normal", optimal=True, max_solutions=1000)
    assert {s.length for s in optimal} == {optimal[0].length}
    assert all(not s.inverse for s in optimal)
    assert fmc.solve("R U F", "eofb")[0].moves == "F"


def test_a_long_minimum_and_the_memory_bound():
    """Issue 54: one solution far above the optimum comes at once; a list that would take more
    than the solver's memory bound raises MemoryError rather than eat the machine."""
    [eleven] = fmc.solve(SCRAMBLE, "eofb", min_moves=11, max_moves=11)
    assert eleven.moves == "U R U R U R U F2 D' L B"
    with pytest.raises(MemoryError) as error:
        fmc.solve(SCRAMBLE, "eofb", niss="all", max_moves=8, max_solutions=10**8)
    assert "ask for fewer" in str(error.value)


def test_solve_reads_a_partial_solution_in_niss_notation():
    # An EO found with NISS, then DR from it: the skeleton as written equals the state written out
    # (the inverse of the inverse part, the scramble, the normal part).
    by_niss = fmc.solve(f"{SCRAMBLE} R2 F (U2 B)", "drud-eofb", max_solutions=5)
    written_out = fmc.solve(f"B' U2 {SCRAMBLE} R2 F", "drud-eofb", max_solutions=5)
    assert by_niss and [s.moves for s in by_niss] == [s.moves for s in written_out]
    with pytest.raises(ParseError, match="NISS notation"):
        fmc.solve("(R U)2", "eofb")


def test_solve_errors():
    with pytest.raises(ParseError, match="eofb"):
        fmc.solve(SCRAMBLE, "eofbb")
    with pytest.raises(IllegalCube, match="needs edge orientation solved on F/B"):
        fmc.solve(SCRAMBLE, "drud-eofb")
    with pytest.raises(ValueError, match="below"):
        fmc.solve(SCRAMBLE, "eofb", min_moves=5, max_moves=3)
    with pytest.raises(ParseError, match="normal, inverse, linear, mixed, all"):
        fmc.solve(SCRAMBLE, "eofb", niss="sideways")
    with pytest.raises(ValueError, match="max_moves"):
        fmc.solve(SCRAMBLE, "eofb", max_moves=21)


def test_steps():
    steps = fmc.steps()
    names = [s["name"] for s in steps]
    for name in ["eofb", "eorl", "eoud", "drud", "drud-eofb", "htr-drud"]:
        assert name in names
    assert all(s["table_bytes"] > 0 and s["moveset"] and s["requisite"] for s in steps)


@pytest.mark.parametrize("kind", ["eo", "dr", "htr", "corners", "edges"])
def test_subgroup_scrambles(kind):
    first = scramble(type=kind, seed=33, count=3)
    again = scramble(type=kind, seed=33, count=3)
    assert [Cube(s) for s in first] == [Cube(s) for s in again], "the seed fixes the states"
    for text in first:
        pieces = Cube(text).h48.split()
        edges, corners = pieces[:12], pieces[12:]
        if kind in ("eo", "dr", "htr"):
            assert all(e[-1] == "0" for e in edges)
        if kind in ("dr", "htr"):
            assert all(c[-1] == "0" for c in corners)
        if kind == "corners":
            assert edges == Cube().h48.split()[:12]
        if kind == "edges":
            assert corners == Cube().h48.split()[12:]


def test_bad_scramble_type():
    with pytest.raises(ParseError, match="eo, dr, htr, corners, edges"):
        scramble(type="drud")
    with pytest.raises(ValueError):
        scramble(event="333fm", type="dr")
