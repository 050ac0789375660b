"""Fixtures shared by the test folders (core/ and games/<game>/)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def dask_client():
    """One 2-worker LocalCluster (loopback only) for the whole session: each worker
    process imports the library and loads the compiled kernels (seconds of CPU)."""
    import distributed  # a declared test dependency: missing is a failure, not a skip
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def pytest_sessionstart(session):
    """Warm numba's cache first (tests/warmup.py), its parts side by side, in the
    xdist controller or a plain run; not in xdist workers (the controller did)."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("collectonly") \
            or os.environ.get("CARGO_SIM_TEST_WARMUP") == "0":
        return
    script = Path(__file__).with_name("warmup.py")
    parts = ("engine", "heuristic", "macao")
    procs = [subprocess.Popen([sys.executable, str(script), part], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for part in parts]
    for part, proc in zip(parts, procs):
        _, err = proc.communicate()
        if proc.returncode:       # the tests that need the part will say what is wrong
            print(f"\nwarm-up {part} failed: {err.strip().splitlines()[-1:]}", file=sys.stderr)


@pytest.fixture
def interrupt_on():
    """``interrupt_on(real, n)``: a stand-in for ``real`` that raises
    KeyboardInterrupt (as Ctrl-C would) on its n-th call and otherwise calls
    ``real``; its ``calls`` attribute counts the calls."""
    def make(real, n):
        def wrapper(*a, **kw):
            wrapper.calls += 1
            if wrapper.calls == n:
                raise KeyboardInterrupt
            return real(*a, **kw)
        wrapper.calls = 0
        return wrapper
    return make
