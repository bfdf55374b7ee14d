"""Beyond one machine: a Dask LocalCluster of two worker processes solves random states by
two-phase and short ones optimally (6edge), with the results of the serial run, each worker
loading each set of tables once."""

import functools
import pathlib
import re
import subprocess
import sys

import pytest

from cube_toolkit import Cube, optimal, scramble, solve, tables

distributed = pytest.importorskip(
    "distributed", reason="dask[distributed] is not installed (cargo xtask test installs it when it can)"
)


def test_local_cluster_matches_serial():
    states = [Cube.random(seed=1000 + i) for i in range(50)]
    serial = [solve(state) for state in states]
    short = [Cube(" ".join(scramble(seed=i)[0].split()[: 4 + i % 4])) for i in range(10)]
    solve_optimally = functools.partial(optimal, tier="6edge", threads=1)
    serial_optimal = [solve_optimally(state) for state in short]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            results = client.gather(client.map(solve, states))
            optimal_results = client.gather(client.map(solve_optimally, short, pure=False))
            loads = client.run(tables.loads)
    assert results == serial
    assert [(r.solution, r.length, r.optimal) for r in optimal_results] == [
        (r.solution, r.length, r.optimal) for r in serial_optimal
    ]
    assert all(r.optimal for r in optimal_results)
    # Each worker: the two-phase tables once, the 6edge databases at most once (a worker that got
    # no optimal task loaded none).
    assert len(loads) == 2
    assert all(1 <= count <= 2 for count in loads.values()), loads
    assert sum(loads.values()) >= 3, loads


def test_the_readme_example_runs_as_written(tmp_path):
    """Issue 36, item 4: docs/python.md's Dask example, as a script, proves its 200 states in minutes."""
    readme = (pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md").read_text(encoding="utf-8")
    example = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "dask" in b)
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "200 of 200 proven optimal", done.stdout
