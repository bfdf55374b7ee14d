"""Beyond one machine: a Dask LocalCluster of two worker processes solves random states by
two-phase, with the results of the serial run, each worker loading its tables once."""

import pytest

from cube_toolkit import Cube, solve, tables

distributed = pytest.importorskip(
    "distributed", reason="dask[distributed] is not installed (cargo xtask test installs it when it can)"
)


def test_local_cluster_matches_serial():
    states = [Cube.random(seed=1000 + i) for i in range(50)]
    serial = [solve(state) for state in states]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            futures = client.map(solve, states)
            results = client.gather(futures)
            loads = client.run(tables.loads)
    assert results == serial
    assert len(loads) == 2
    assert all(count == 1 for count in loads.values()), loads
