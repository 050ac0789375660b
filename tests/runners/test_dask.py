"""The Dask backend: runs on a 2-worker LocalCluster (loopback only) equal the
local runs, through simulate/aggregate(backend="dask") and the CLI; a lost
worker's chunks are played again; a chunk lost too often is one clear error."""
import os
import signal
import sys

import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim import ClusterError
from cargo_sim.runners import runs

import distributed  # noqa: E402,F401 (a declared test dependency)

from cargo_sim.runners import dask_backend  # noqa: E402
from cargo_sim.runners.dask_backend import simulate_dask  # noqa: E402
from .test_runs import files, twin  # noqa: E402  (sibling test module)

PLAYERS = ["random"] * 4


@pytest.fixture
def client(dask_client):
    return dask_client


@pytest.mark.slow
def test_local_cluster_equals_local_run():
    local = cargo_sim.simulate(2000, PLAYERS, seed=11, progress=False)   # also fills the compiled cache
    res = simulate_dask(2000, PLAYERS, seed=11, chunk_games=300, n_workers=2, progress=False)
    assert not res.interrupted
    assert_frame_equal(res.games, local.games)
    assert_frame_equal(res.players, local.players)


@pytest.mark.slow          # here, not in Macao's tests: one cluster for every Dask test
def test_a_second_game_on_dask_equals_its_local_run(client):
    players = ["random"] * 3           # the workers load one bot's kernels: the test stays cheap
    local = cargo_sim.simulate(90, players, seed=21, game="macao", progress=False)
    res = cargo_sim.simulate(90, players, seed=21, game="macao", progress=False, backend="dask",
                             scheduler=client, chunk_games=30)
    assert not res.interrupted
    assert_frame_equal(res.games, local.games, check_dtype=False)
    assert_frame_equal(res.players, local.players, check_dtype=False)


@pytest.mark.slow
def test_simulate_and_aggregate_backend_dask(client):
    local = cargo_sim.simulate(1500, PLAYERS, seed=12, progress=False, start=100)
    res = cargo_sim.simulate(1500, PLAYERS, seed=12, progress=False, start=100, backend="dask",
                             scheduler=client, chunk_games=400)
    assert_frame_equal(res.games, local.games)
    assert_frame_equal(res.players, local.players)
    agg = cargo_sim.aggregate(1500, PLAYERS, seed=12, progress=False, backend="dask",
                              scheduler=client.scheduler.address, chunk_games=400)
    assert agg == cargo_sim.aggregate(1500, PLAYERS, seed=12, progress=False)
    with pytest.raises(cargo_sim.ConfigError, match="backend"):
        cargo_sim.simulate(10, PLAYERS, backend="spark")
    with pytest.raises(cargo_sim.ConfigError, match="backend='dask'"):
        cargo_sim.simulate(10, PLAYERS, scheduler=client)


@pytest.mark.slow
def test_cli_dask_run_folder_equals_local_folder(client, tmp_path, capsys):
    from cargo_sim.cli import main
    out = tmp_path / "out"
    rc = main(["simulate", "-n", "1200", "-p", ",".join(PLAYERS), "--seed", "13", "--out", str(out),
               "--chunk-games", "500", "--dask", client.scheduler.address, "--no-progress"])
    assert rc == 0, capsys.readouterr().err
    # the files of a local run of the same run (its run id too: test_runs.twin)
    # (the CLI's folder also holds its run.json: the call's record, checked in test_run_records)
    got = {k: v for k, v in files(out).items() if k != "run.json"}
    assert got == twin(out, tmp_path / "ref")
    assert b"--dask" in (out / "run.json").read_bytes()


def _worker_pids(client):
    return list(client.run(os.getpid).values())


@pytest.mark.slow
def test_workers_killed_mid_run_are_recovered(client, monkeypatch):
    """Every worker killed at once (SIGKILL) after the first chunk arrives: the
    nannies restart them and the lost chunks are played again."""
    real = dask_backend._run_chunks
    kills = []

    def killing(task, game, n_games, labels, seed, rules, scheduler, chunk_games, n_workers,
                progress, on_result, **kw):
        def hook(i, lo, hi, result):
            if not kills:
                for pid in _worker_pids(client):
                    os.kill(pid, signal.SIGKILL)
                kills.append(i)
            on_result(i, lo, hi, result)
        return real(task, game, n_games, labels, seed, rules, scheduler, chunk_games, n_workers,
                    progress, hook, **kw)

    monkeypatch.setattr(dask_backend, "_run_chunks", killing)
    local = cargo_sim.simulate(2400, PLAYERS, seed=14, progress=False)
    res = cargo_sim.simulate(2400, PLAYERS, seed=14, progress=False, backend="dask",
                             scheduler=client, chunk_games=200)
    assert len(kills) == 1 and not res.interrupted
    assert_frame_equal(res.games, local.games)
    assert_frame_equal(res.players, local.players)


def _lost_every_time(game, n, players, seed, rules, start):
    from distributed.comm.core import CommClosedError
    raise CommClosedError("worker gone (test)")


@pytest.mark.slow
def test_chunk_lost_too_often_is_one_clear_error(client):
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with pytest.raises(ClusterError, match=r"games 0\.\.99 was lost with its worker 3 times"):
            dask_backend._run_chunks(_lost_every_time, "cargo_noir", 100, PLAYERS, 1,
                                     cargo_sim.Rules.default(), client, 100, 2, False,
                                     lambda *a: None)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_missing_dask_is_a_config_error(monkeypatch):
    import builtins
    from cargo_sim import ConfigError
    real = builtins.__import__

    def no_distributed(name, *a, **kw):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(ConfigError, match=r"pip install cargo_sim\[dask\]"):
        dask_backend.simulate_dask(10, PLAYERS)
