"""Fixtures shared by the test folders (core/ and games/<game>/)."""
import pytest


@pytest.fixture(scope="session")
def dask_client():
    """One 2-worker LocalCluster (loopback only) for the whole session: each worker
    process imports the library and loads the compiled kernels (seconds of CPU)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
