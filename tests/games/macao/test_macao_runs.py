"""Macao through the shared runners that take a game: `tune`'s default field is Macao's
own named strategies (its Dask run is in tests/core/test_dask.py, beside the cluster the
other Dask tests share)."""
import json

import pytest

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


def test_a_run_too_big_for_memory_suggests_only_what_the_game_offers():
    """Macao keeps counters as Cargo Noir does: both refusals name the run folder and
    --aggregate, in one line."""
    import cargo_sim
    for game in ("macao", "cargo_noir"):
        with pytest.raises(cargo_sim.ConfigError, match="GiB in memory") as e:
            cargo_sim.simulate(10**13, ["random", "random"], game=game, progress=False)
        msg = str(e.value)
        assert "--out DIR" in msg and "--aggregate" in msg and "\n" not in msg
