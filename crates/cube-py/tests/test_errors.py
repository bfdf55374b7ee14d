"""The exceptions, one per kind, each with the reason in its message."""

import os
import subprocess
import sys

import pytest

import cube_toolkit
from cube_toolkit import CubeError, IllegalCube, NoSolution, ParseError, TablesInvalid, TablesMissing


def test_the_kinds_are_cube_errors():
    for kind in [ParseError, IllegalCube, TablesMissing, TablesInvalid, NoSolution]:
        assert issubclass(kind, CubeError) and issubclass(kind, Exception)


def test_parse_error():
    with pytest.raises(ParseError, match="read as h48"):
        cube_toolkit.solve("UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 XYZ0")


def test_structured_text_is_never_moves():
    # Issue 31, item 1: 53 stickers by row were read as juxtaposed moves.
    by_row = "UUU UUU UUU RRR RRR RRR FFF FFF FFF DDD DDD DDD LLL LLL LLL BBB BBB BB"
    with pytest.raises(ParseError, match="found 53 facelets, expected 54 \\(read as facelets"):
        cube_toolkit.Cube(by_row)
    with pytest.raises(ParseError, match="missing a space"):
        cube_toolkit.Cube("(R U R' U')x6")


def test_illegal_cube():
    twisted = "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0"
    for call in [lambda: cube_toolkit.solve(twisted), lambda: cube_toolkit.optimal(twisted), lambda: cube_toolkit.convert(twisted, "alg")]:
        with pytest.raises(IllegalCube, match="illegal cube"):
            call()


def test_no_solution():
    with pytest.raises(NoSolution):
        cube_toolkit.solve("R U F D", max_length=2)


def run_alone(code, tables_dir):
    """Runs `code` in a fresh interpreter with its own table directory."""
    env = dict(os.environ, CUBE_TABLES_DIR=str(tables_dir))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_tables_missing(tmp_path):
    code = (
        "import cube_toolkit\n"
        "try:\n"
        "    cube_toolkit.optimal('R U', tier='7edge')\n"
        "except cube_toolkit.TablesMissing as e:\n"
        "    print('missing:', e)\n"
    )
    result = run_alone(code, tmp_path)
    assert "missing: the 7edge pattern databases are not baked" in result.stdout, result.stderr
    assert 'cube_toolkit.tables.bake("7edge")' in result.stdout


def test_tables_invalid(tmp_path):
    (tmp_path / "korf-corners.v1.tbl").write_bytes(b"not a table" * 100)
    code = (
        "import cube_toolkit\n"
        "try:\n"
        "    cube_toolkit.optimal('R U', tier='6edge')\n"
        "except cube_toolkit.TablesInvalid as e:\n"
        "    print('invalid:', e)\n"
    )
    result = run_alone(code, tmp_path)
    assert "invalid: " in result.stdout and "korf-corners" in result.stdout, result.stdout + result.stderr
    # The fix in the package's words: its own bake function, never the library's or the CLI's.
    assert 'cube_toolkit.tables.bake("6edge") (any tier bakes the corners)' in result.stdout, result.stdout
    assert "cube_tables::" not in result.stdout and "cube-cli" not in result.stdout, result.stdout


def test_a_bad_h48_table_names_the_package_bake(tmp_path):
    (tmp_path / "h48-h0.v1.tbl").write_bytes(b"not a table" * 100)
    code = (
        "import cube_toolkit\n"
        "try:\n"
        "    cube_toolkit.optimal('R U', tier='h0')\n"
        "except cube_toolkit.TablesInvalid as e:\n"
        "    print('invalid:', e)\n"
        "print('state:', [t['state'] for t in cube_toolkit.tables.status()['tables'] if t['id'] == 'h48-h0'][0])\n"
    )
    result = run_alone(code, tmp_path)
    assert "invalid: table h48-h0" in result.stdout, result.stdout + result.stderr
    assert result.stdout.count('(re-run cube_toolkit.tables.bake("h0"))') == 2, result.stdout
