"""The examples in the docstrings run as doctests, and every public name has a docstring."""

import doctest

import cube_toolkit

DOCUMENTED = [
    cube_toolkit,
    cube_toolkit.kociemba,
    cube_toolkit.tables,
    cube_toolkit.Cube,
    cube_toolkit.solve,
    cube_toolkit.optimal,
    cube_toolkit.scramble,
    cube_toolkit.check,
    cube_toolkit.convert,
    cube_toolkit.Solution,
    cube_toolkit.OptimalResult,
    cube_toolkit.fmc.insert,
    cube_toolkit.fmc.cycles,
    cube_toolkit.fmc.improve,
]


def test_docstring_examples_run():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for obj in DOCUMENTED:
        for test in finder.find(obj, getattr(obj, "__name__", repr(obj)), module=False, globs={}):
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert result.attempted >= 12


def test_every_public_name_has_a_docstring():
    for name in cube_toolkit.__all__:
        assert getattr(cube_toolkit, name).__doc__, name
    for name in cube_toolkit.tables.__all__:
        assert getattr(cube_toolkit.tables, name).__doc__, name
