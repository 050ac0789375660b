"""The Dask backend: a 2-worker LocalCluster run equals the local run."""
import pytest
from pandas.testing import assert_frame_equal

import cargo_sim

pytest.importorskip("distributed")

from cargo_sim.dask_backend import simulate_dask  # noqa: E402

PLAYERS = ["random"] * 4


def test_local_cluster_equals_local_run():
    local = cargo_sim.simulate(2000, PLAYERS, seed=11, progress=False)   # also fills the compiled cache
    res = simulate_dask(2000, PLAYERS, seed=11, chunk_games=300, n_workers=2, progress=False)
    assert not res.interrupted
    assert_frame_equal(res.games, local.games)
    assert_frame_equal(res.players, local.players)


def test_missing_dask_is_a_config_error(monkeypatch):
    import builtins
    from cargo_sim import ConfigError
    from cargo_sim import dask_backend
    real = builtins.__import__

    def no_distributed(name, *a, **kw):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(ConfigError, match=r"pip install cargo_sim\[dask\]"):
        dask_backend.simulate_dask(10, PLAYERS)
