"""solve, scramble, check, convert and tables: each function, checked against the CLI's
documented output or by applying what it returns."""

import pickle

import pytest

import cube_toolkit
from cube_toolkit import Cube, NoSolution, check, convert, scramble, solve, tables

T_PERM = "R U R' U' R' F R2 U' R' U' R U R' F'"


@pytest.mark.parametrize("method", ["two-phase", "thistlethwaite", "beginner", "cfop"])
def test_every_method_solves(method):
    for seed in range(5):
        cube = Cube.random(seed=seed)
        solution = solve(cube, method=method)
        assert solution.method == method
        assert cube.apply(solution.moves).is_solved
        assert solution.move_list == solution.moves.split()
        assert solution.length == len(solution.move_list) == len(solution)
        if method == "two-phase":
            assert solution.length <= 21
        if method in ("beginner", "cfop"):
            assert solution.stages, "staged methods label their stages"
            assert all(stage.label and stage.length == len(stage.moves.split()) for stage in solution.stages)


def test_solve_matches_the_readme():
    # README.md: `cube-cli solve "<T perm>"` and `--method cfop --explain`.
    assert solve(T_PERM).moves == "U F2 U F2 D' L2 B2 U' B2 D L2 U2"
    cfop = solve(T_PERM, method="cfop")
    assert [(s.label, s.moves) for s in cfop.stages] == [("PLL T", T_PERM)]


def test_solve_accepts_any_format_and_a_goal():
    cube = Cube("F2 D R' B")
    assert solve(cube.facelets).moves == solve(cube).moves == solve(cube.h48).moves
    goal = Cube("R U")
    solution = solve(cube, to=goal)
    assert cube.apply(solution.moves).h48 == goal.h48
    assert solve(Cube()).moves == ""


def test_solve_limits():
    cube = Cube("R U F D L B R2 U2")
    with pytest.raises(NoSolution, match="no solution of at most 3 moves found"):
        solve(cube, max_length=3)
    solution = solve(cube, time_budget=0.05)
    assert cube.apply(solution.moves).is_solved and solution.length <= 8
    with pytest.raises(ValueError, match="time_budget=-1.0 is negative"):
        solve(cube, time_budget=-1.0)
    with pytest.raises(cube_toolkit.ParseError, match="unknown method"):
        solve(cube, method="roux")


def test_solution_pickles_and_compares_without_its_time():
    solution = solve("R U R' U'", method="cfop")
    again = pickle.loads(pickle.dumps(solution))
    assert again == solution
    assert again.stages == solution.stages and again.seconds == solution.seconds
    assert solve("R U R' U'", method="cfop") == solution


def test_scramble_is_the_clis():
    # README.md: `cube-cli scramble --seed 42 --count 2`.
    assert scramble(seed=42, count=2) == [
        "F R' F U' L' B' D2 R2 U R2 L2 B2 D R2 L2 B2 D' F' L'",
        "B2 L2 D2 L2 D L2 B2 D' R2 B2 L' B2 U' F B2 L' D R2 L' F'",
    ]
    assert len(scramble()) == 1 and scramble(seed=1) == scramble(seed=1)
    assert scramble("333fm", seed=3)[0].startswith("R' U' F")
    # One-handed and with feet are scrambled as the 3x3x3 Cube, as the CLI reads them (issue 36).
    assert scramble("333oh", seed=3) == scramble("333ft", seed=3) == scramble("333", seed=3)
    assert not Cube(scramble("333bf", seed=3)[0]).is_solved
    with pytest.raises(cube_toolkit.ParseError):
        scramble("444")


def test_check_lists_the_problems_with_codes():
    assert check("R U R' U'") == [] and check(Cube("R")) == []
    # README.md: `cube-cli check UUU...BBR`.
    problems = check("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR")
    assert [p.code for p in problems] == ["colour-count", "colour-count"]
    assert problems[0].message.startswith("colour 'R' appears 10 times, expected 9")
    h48 = "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0"
    codes = [p.code for p in check(h48)]
    assert codes and all(codes), codes
    assert pickle.loads(pickle.dumps(problems[0])) == problems[0]
    with pytest.raises(cube_toolkit.ParseError):
        check("R U Q")


def test_i31_7_check_names_every_rule_as_the_cli():
    # A piece twice and orientations out of range: problems, with the CLI's rule codes.
    h48 = "UF2 UF0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR3 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0"
    assert [p.code for p in check(h48)] == [
        "orientation-out-of-range",
        "orientation-out-of-range",
        "edges-not-a-permutation",
    ]
    twisted = "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0"
    assert [p.code for p in check(twisted)] == ["twisted-corner"]
    stray = check("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBX")
    assert [p.code for p in stray] == ["unknown-colour"]
    assert stray[0].message.startswith("sticker B9 is 'X', a colour that no centre has")
    # Solving names every problem, as the CLI does.
    with pytest.raises(cube_toolkit.IllegalCube) as refused:
        solve(h48)
    assert str(refused.value) == "illegal cube: " + "; ".join(p.message for p in check(h48))
    with pytest.raises(cube_toolkit.IllegalCube):
        Cube(h48)


def test_convert_matches_the_readme():
    assert convert("R U", "h48") == "FR0 UL0 DB0 DF0 UB0 UF0 DL0 BR0 DR0 FL0 BL0 UR0 UFR1 UFL0 DFL0 UBR2 DFR2 UBL0 DBR1 DBL0"
    assert convert("R U", "twizzle") == "9c14df400001baa5280000"
    assert convert("R U R' U'", "b32") == "WFCDERQH=AECDIFGHBJKL=A"
    cube = Cube.random(seed=5)
    alg = convert(cube, "alg")
    assert Cube(alg) == cube
    # Issue 58: half turns are written as cubers write them (`R2`, never `R2'`).
    assert "2" in alg and "2'" not in alg, alg
    for name in ["facelets", "reid", "kpattern"]:
        assert Cube(convert(cube, name)).h48 == cube.h48
    with pytest.raises(cube_toolkit.ParseError, match="unknown format"):
        convert(cube, "svg")


def test_tables_status_dir_and_loads():
    status = tables.status()
    assert status["dir"] == tables.dir()
    # Every optimal tier, Korf's, the H48 and the nx ones, as `cube-cli tables status` lists them.
    nx = ["nx-eo1ep1", "nx-eo2ep1", "nx-eo1ep2", "nx-eo1ep3", "nx-eo3ep1", "nx-eo2ep2"]
    assert {t["tier"] for t in status["tiers"]} == {
        "6edge", "7edge", "8edge", "h0", "h4", "h5", "h6", "h7", *nx, *(f"{t}-qtm" for t in nx)
    }
    assert all({"id", "path", "bytes", "header_ok", "state"} <= set(t) for t in status["tables"])
    before = tables.loads()
    for _ in range(3):
        solve(Cube.random(), method="thistlethwaite")
    after = tables.loads()
    assert after - before <= 1, "a method's tables load once per process"
    solve(Cube.random(), method="thistlethwaite")
    assert tables.loads() == after
