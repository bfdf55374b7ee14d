"""Cube: reading every format the CLI reads, writing every format, apply, inverse, equality,
hashing, pickling and repr."""

import copy
import pickle

import pytest

from cube_toolkit import Cube, IllegalCube, ParseError

# The README's example of each format, and what `cube-cli convert "R U"` prints.
R_U = {
    "h48": "FR0 UL0 DB0 DF0 UB0 UF0 DL0 BR0 DR0 FL0 BL0 UR0 UFR1 UFL0 DFL0 UBR2 DFR2 UBL0 DBR1 DBL0",
    "twizzle": "9c14df400001baa5280000",
}
SEXY_B32 = "WFCDERQH=AECDIFGHBJKL=A"


def test_every_format_reads_back_to_the_same_pieces():
    cube = Cube("R U")
    assert cube.h48 == R_U["h48"]
    assert cube.twizzle == R_U["twizzle"]
    assert Cube("R U R' U'").b32 == SEXY_B32
    for text in [cube.facelets, cube.h48, cube.twizzle, cube.kpattern, cube.b32, cube.reid]:
        assert Cube(text).h48 == cube.h48, text


def test_each_format_can_be_forced():
    cube = Cube("R U")
    for name in ["facelets", "h48", "twizzle", "kpattern", "b32", "reid"]:
        assert Cube(getattr(cube, name), format=name).h48 == cube.h48
    assert Cube("R U", format="alg") == cube


def test_solved_and_default():
    assert Cube().is_solved
    with pytest.raises(ParseError, match="empty"):
        Cube("")
    assert Cube("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB").is_solved
    assert not Cube("R").is_solved


def test_apply_is_the_algorithm_appended():
    for start, more in [("", "R U"), ("R U", "F' D2"), ("x", "U"), ("x y", "U R"), ("z2", "M E S"), ("y", "r U'")]:
        assert Cube(start or None).apply(more) == Cube(f"{start} {more}"), (start, more)
    assert Cube("R U R' U'").apply("U R U' R'").is_solved


def test_inverse_undoes_the_pieces():
    for alg, inverse in [("R U", "U' R'"), ("F2 D' L B", "B' L' D F2"), ("(R U R' U')3", "(U R U' R')3")]:
        cube = Cube(alg)
        assert cube.inverse() == Cube(inverse)
        assert cube.inverse().inverse() == cube
        assert cube.apply(inverse).is_solved


def test_equality_and_hash():
    assert Cube("R U R' U'") == Cube("R U R' U'")
    assert Cube("R U") != Cube("U R")
    assert len({Cube("R"), Cube("R"), Cube("R2"), Cube("R U R' U' R U R' U' R U R' U' R U R' U' R U R' U' R U R' U'")}) == 3
    assert Cube("R") != "R"


def test_pickle_copy_and_repr_round_trip():
    for cube in [Cube(), Cube("R U"), Cube("x y R"), Cube.random(seed=7)]:
        assert pickle.loads(pickle.dumps(cube)) == cube
        assert copy.deepcopy(cube) == cube
        assert eval(repr(cube)) == cube


def test_random_is_uniform_legal_and_seeded():
    assert Cube.random(seed=1) == Cube.random(seed=1)
    assert Cube.random(seed=1) != Cube.random(seed=2)
    assert len({Cube.random() for _ in range(20)}) == 20


def test_a_text_that_is_no_state_is_a_parse_error_with_its_format():
    with pytest.raises(ParseError, match="read as facelets"):
        Cube("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBB")
    with pytest.raises(ParseError, match="move sequence"):
        Cube("R U Q")
    with pytest.raises(ParseError, match="unknown format"):
        Cube("R", format="yaml")
    with pytest.raises(ParseError):
        Cube("R").apply("R (U")


def test_a_state_that_is_no_cube_is_illegal():
    with pytest.raises(IllegalCube, match="colour 'R' appears 10 times"):
        Cube("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR")
