"""Macao through the shared runners that take a game: `tune`'s default field is Macao's
own named strategies, and a run on the Dask backend equals the local run."""
import json

import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim.cli import main


def test_tune_default_opponents_are_macaos_strategies(tmp_path, capsys):
    out = tmp_path / "tune"
    code = main(["tune", "--game", "macao", "--seats", "2", "--evals", "2", "--games-per-eval", "2",
                 "--fresh-games", "2", "--method", "random", "--space", "patience=0.1:0.7",
                 "--no-progress", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    config = json.loads((out / "run.json").read_text())
    assert config["game"] == "macao"
    assert config["opponents"] == ["greedy", "builder", "shipper"]       # not Cargo Noir's names


@pytest.mark.slow          # the cluster's workers load Macao's kernels (seconds)
def test_dask_equals_local(dask_client):
    players = ["random"] * 3           # the workers load one bot's kernels: the test stays cheap
    local = cargo_sim.simulate(90, players, seed=21, game="macao", progress=False)
    res = cargo_sim.simulate(90, players, seed=21, game="macao", progress=False, backend="dask",
                             scheduler=dask_client, chunk_games=30)
    assert not res.interrupted
    assert_frame_equal(res.games, local.games, check_dtype=False)
    assert_frame_equal(res.players, local.players, check_dtype=False)
