"""The toy game ("race to N", tests/core/toy_game.py, registered only here) through
every runner and command: simulate, aggregate (a clear error: the toy has no
counters), tournament with ratings, sweep, tune, a run folder killed and resumed,
Dask, the ladder, --rules/--set, play, rules, bots; manifests name their game.
Nothing here knows a piece of Cargo Noir: what passes here passes for any game."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim.games import BUILTIN
from cargo_sim import ConfigError
from cargo_sim.runners import runs
from cargo_sim.cli import main
from cargo_sim.core.contract import (CORE_GAME_COLUMNS, CORE_PLAYER_COLUMNS, check_columns,
                                     get_game, register_game, unregister_game)

from ..core import toy_game

TOY = toy_game.TOY.name
PLAYERS = ["random", "cautious", "random"]
# the subprocess below imports the toy as this process does (tests.core.toy_game): numba's
# cache of its kernels records the module by name, and a second name for the same file
# would make the cached entries fail to load in the other process
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def toy():
    register_game(toy_game.TOY)
    yield toy_game.TOY
    unregister_game(TOY)


def cli(capsys, *args):
    """``cargo-sim ARGS`` in this process: (exit status, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, pattern: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cargo-sim: error:"), err
    assert re.search(pattern, lines[0]), lines[0]


# ---------------------------------------------------------------------------
# simulate, the core columns, summaries
def test_simulate_api_and_core_columns():
    res = cargo_sim.simulate(300, PLAYERS, seed=3, game=TOY, progress=False, workers=2)
    check_columns(toy_game.TOY, res.games, res.players)
    assert set(CORE_GAME_COLUMNS) <= set(res.games) and set(CORE_PLAYER_COLUMNS) <= set(res.players)
    share = res.players["win_share"].to_numpy().reshape(300, 3)
    assert np.allclose(share.sum(axis=1), 1.0)
    assert (res.players.loc[res.players["win_share"] > 0, "rank"] == 1).all()


def test_cli_simulate_prints_the_games_own_lines(capsys):
    code, out, err = cli(capsys, "simulate", "--game", TOY, "-n", 200, "-p", "random,cautious",
                         "--no-progress")
    assert code == 0, err
    assert "mean turns:" in out and "bank" not in out and "Cargo Noir" not in out
    code2, out2, _ = cli(capsys, "--game", TOY, "simulate", "-n", 200, "-p", "random,cautious",
                         "--no-progress")                       # the global spelling too
    assert code2 == 0 and out2.splitlines()[1:] == out.splitlines()[1:]


def test_rules_and_set_overrides(capsys, tmp_path):
    base = cargo_sim.simulate(100, PLAYERS, seed=1, game=TOY, progress=False)
    longer = cargo_sim.simulate(100, PLAYERS, seed=1, game=TOY, progress=False,
                                rules=toy_game.ToyRules.default().replace(target=60))
    assert longer.games["turns"].mean() > base.games["turns"].mean()
    code, out, err = cli(capsys, "rules", "--game", TOY, "--set", "target=60")
    assert code == 0 and "target=60" in out and "ESTIMATED" in out, err
    code, toml, err = cli(capsys, "rules", "--game", TOY, "--toml", "--set", "die=4")
    assert code == 0 and "die = 4" in toml, err
    f = tmp_path / "toy.toml"
    f.write_text(toml)
    code, out, err = cli(capsys, "simulate", "--game", TOY, "--rules", f, "-n", 50, "-p",
                         "random,random", "--no-progress")
    assert code == 0 and "(with overrides)" in out, err
    code, out, err = cli(capsys, "simulate", "--game", TOY, "--set", "target=0", "-n", 5)
    assert code == 2
    one_error_line(err, "target")


def test_bots_and_play(capsys, tmp_path):
    code, out, err = cli(capsys, "bots", "--game", TOY, "-v")
    assert code == 0 and "cautious" in out and "margin=4" in out and "greedy" not in out, err
    ev = tmp_path / "events.csv"
    code, out, err = cli(capsys, "play", "--game", TOY, "--seed", 5, "--index", 2, "-p",
                         "random,cautious", "--events", ev)
    assert code == 0, err
    assert out.startswith(toy_game.TOY.title) and "game 2 of run seed 5" in out
    events = pd.read_csv(ev)
    res = cargo_sim.simulate(3, ["random", "cautious"], seed=5, game=TOY, progress=False,
                             events=True)
    want = res.events[res.events["game"] == 2].reset_index(drop=True)
    assert (events.drop(columns=["game", "bot"], errors="ignore").to_numpy()
            == want.drop(columns=["game"]).to_numpy()).all()
    code, _, err = cli(capsys, "play", "--game", TOY, "--html", tmp_path / "r.html")
    assert code == 2
    one_error_line(err, "offers no replay page")


def test_unknown_game_is_one_line(capsys):
    for args in (("simulate", "--game", "nope"), ("--game", "nope", "bots"),
                 ("tournament", "--game", "nope", "-p", "a,b")):
        code, _, err = cli(capsys, *args)
        assert code == 2
        known = ", ".join([*BUILTIN, "toy_race"])           # the catalogue's order, then registered
        one_error_line(err, f"unknown game 'nope'; known games: {known}$")
    code, _, err = cli(capsys, "--game", "cargo_noir", "bots", "--game", TOY)
    assert code == 2
    one_error_line(err, "different games")


# ---------------------------------------------------------------------------
# aggregate: the toy offers no counters
def test_aggregate_is_one_clear_error(capsys, tmp_path):
    with pytest.raises(ConfigError, match="offers no aggregate counters"):
        cargo_sim.aggregate(10, PLAYERS, game=TOY)
    with pytest.raises(ConfigError, match="offers no aggregate counters"):
        runs.aggregate_to_dir(tmp_path / "agg", 10, PLAYERS, game=TOY)
    code, _, err = cli(capsys, "simulate", "--game", TOY, "--aggregate", "-n", 10)
    assert code == 2
    one_error_line(err, "offers no aggregate counters")


# ---------------------------------------------------------------------------
# tournament, ratings
def test_tournament_with_ratings(capsys, tmp_path):
    res = cargo_sim.tournament(["random", "cautious", "cautious?margin=1"], 2, games=600, seed=4,
                               game=TOY, progress=False, workers=2)
    assert res.config["game"] == TOY
    assert res.ratings is not None and len(res.standings) == 3
    assert res.games["winner_entrant"].notna().all()
    code, out, err = cli(capsys, "tournament", "--game", TOY, "-p", "random,cautious", "--seats", 2,
                         "-n", 200, "--no-progress", "--out", tmp_path / "t")
    assert code == 0, err
    assert json.loads((tmp_path / "t" / "run.json").read_text())["game"] == TOY


# ---------------------------------------------------------------------------
# sweep, tune, ladder
def test_sweep(capsys):
    from cargo_sim.runners.sweep import measures_of, sweep
    res = sweep(grid={"target": [20, 40]}, players=["random", "cautious"], games=100, seed=2,
                progress=False, game=TOY)
    assert list(res.table["variant"]) == ["base", "target=20", "target=40"]
    assert "picks" in res.measures and "win_price" not in res.measures
    assert list(res.measures[:len(measures_of(TOY))]) == list(measures_of(TOY))
    assert res.table.loc[1, "picks"] < res.table.loc[2, "picks"]
    with pytest.raises(ConfigError, match="needs a grid"):
        sweep(players=["random", "random"], game=TOY)
    code, out, err = cli(capsys, "sweep", "--game", TOY, "--set", "target=20,40", "--players",
                         "random,cautious", "--games", 50, "--quiet", "--measures", "picks")
    assert code == 0 and "picks" in out, err


def test_tune_tiny(capsys):
    from cargo_sim.runners.tune import tune
    r = tune("cautious", ["random"], 2, budget=3, games_per_eval=20, seed=1,
             space={"margin": (0.0, 8.0)}, method="random", fresh_games=40, finalists=2,
             progress=False, game=TOY)
    assert r.best_spec.startswith("cautious") and r.config["game"] == TOY
    code, out, err = cli(capsys, "tune", "--game", TOY, "--bot", "cautious", "--opponents", "random",
                         "--seats", 2, "--budget", 3, "--games-per-eval", 20, "--fresh-games", 40,
                         "--method", "random", "--space", "margin=0:8")
    assert code == 0 and "cautious" in out, err


def test_ladder_tiny(tmp_path):
    from cargo_sim.runners.ladder import ladder
    res = ladder(["random"], yardstick="cautious", budgets=(1, 6), seats=(2,), games=8, seed=1,
                 budget_param="margin", progress=False, game=TOY, opponent="random",
                 rate_decisions=3, out=tmp_path / "lad")
    assert res.complete and len(res.cells) == 2 and res.config["game"] == TOY
    again = ladder(["random"], yardstick="cautious", budgets=(1, 6), seats=(2,), games=8, seed=1,
                   budget_param="margin", progress=False, game=TOY, opponent="random",
                   rate_decisions=3, out=tmp_path / "lad")
    assert_frame_equal(again.cells.drop(columns="seconds"), res.cells.drop(columns="seconds"))


# ---------------------------------------------------------------------------
# run folders: the manifest names the game; killed and resumed; reloaded as the toy
from .test_runs import files, twin  # noqa: E402  (sibling test module)


def test_run_folder_round_trip_and_wrong_game(tmp_path):
    folder = tmp_path / "run"
    runs.run_to_dir(folder, 500, PLAYERS, seed=5, chunk_games=200, progress=False, game=TOY)
    assert json.loads((folder / "manifest.json").read_text())["game"] == TOY
    back = cargo_sim.load_results(folder)
    assert isinstance(back, toy_game.ToyResults) and isinstance(back.rules, toy_game.ToyRules)
    mem = cargo_sim.simulate(500, PLAYERS, seed=5, game=TOY, progress=False)
    assert_frame_equal(back.games, mem.games, check_dtype=False)
    assert_frame_equal(back.players, mem.players, check_dtype=False)
    with pytest.raises(ConfigError, match="holds a run of game toy_race, not cargo_noir"):
        runs.run_to_dir(folder, 500, PLAYERS, seed=5, chunk_games=200, resume=True,
                        progress=False)
    m = json.loads((folder / "manifest.json").read_text())
    m["game"] = "macao_someday"
    (folder / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ConfigError, match="game 'macao_someday', which is not registered"):
        cargo_sim.load_results(folder)


KILLED_RUN = """
import sys, time
sys.path.insert(0, {here!r})
from tests.core import toy_game
from cargo_sim.runners import runs
from cargo_sim.core.contract import register_game
register_game(toy_game.TOY)
runs.run_to_dir({folder!r}, 2000, {players!r}, seed=9, chunk_games=200, workers=1,
                progress=False, game="toy_race", on_chunk=lambda *a: time.sleep(0.3))
"""


def test_run_folder_killed_and_resumed(tmp_path, capsys):
    run = tmp_path / "run"
    code = KILLED_RUN.format(here=str(ROOT), folder=str(run), players=PLAYERS)
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while len(list(run.glob("chunk-*.done"))) < 2:
        if proc.poll() is not None or time.time() - t0 > 120:
            pytest.fail(f"the run ended or stalled: {proc.poll()} {proc.stderr.read()}")
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert len(list(run.glob("chunk-*.done"))) < 10
    code, out, err = cli(capsys, "simulate", "--game", TOY, "-n", 2000, "-p", ",".join(PLAYERS),
                         "--seed", 9, "--chunk-games", 200, "--out", run, "--resume", "-j", 1,
                         "--no-progress")
    assert code == 0, err
    assert "mean turns:" in out
    assert json.loads((run / "run.json").read_text())["game"] == TOY    # the CLI's record
    assert {k: v for k, v in files(run).items() if k != "run.json"} \
        == twin(run, tmp_path / "ref", workers=1, game=TOY)     # uninterrupted, same run id
    code, _, err = cli(capsys, "simulate", "-n", 2000, "-p", ",".join(PLAYERS), "--seed", 9,
                       "--chunk-games", 200, "--out", run, "--resume", "--no-progress")
    assert code == 2
    one_error_line(err, "holds a run of game toy_race, not cargo_noir")


# ---------------------------------------------------------------------------
# Dask
@pytest.mark.slow
def test_dask_equals_local(dask_client):
    local = cargo_sim.simulate(600, PLAYERS, seed=12, game=TOY, progress=False)
    res = cargo_sim.simulate(600, PLAYERS, seed=12, game=TOY, progress=False, backend="dask",
                             scheduler=dask_client, chunk_games=200)
    assert isinstance(res, toy_game.ToyResults) and not res.interrupted
    assert_frame_equal(res.games, local.games, check_dtype=False)
    assert_frame_equal(res.players, local.players, check_dtype=False)


# ---------------------------------------------------------------------------
# user bots (the core's @bot) and the core's search bots on the toy: simulate, checked
# mode and ismcts beating random are in test_toy_plumbing.py; here a user bot and the
# core's search bot go through a tournament and the CLI.
def test_a_user_bot_and_the_core_search_bot_play_a_toy_tournament_and_the_cli(toy, capsys):
    from cargo_sim.core import userbots

    @userbots.bot("toy_three", game=toy)
    def toy_three(kind, s, seat):
        return 3
    try:
        res = cargo_sim.tournament(["toy_three", "random", "ismcts?iterations=20"], 2, games=24,
                                   seed=2, progress=False, game=TOY)
        assert len(res.standings) == 3 and res.games["winner_entrant"].notna().all()
        assert set(res.players["bot"]) == {"toy_three", "random", "ismcts?iterations=20"}
        code, out, err = cli(capsys, "simulate", "--game", TOY, "-n", 20, "-p", "toy_three,random",
                             "--no-progress")
        assert code == 0, err
        assert "toy_three" in out
    finally:
        userbots.unregister("toy_three", game=toy)


def test_a_folder_from_before_games_were_recorded_is_cargo_noirs(tmp_path):
    folder = tmp_path / "old"
    runs.run_to_dir(folder, 300, ["random", "random"], seed=3, chunk_games=100, progress=False)
    (folder / "chunk-00002.done").unlink()                  # as if killed before its marker
    m = json.loads((folder / "manifest.json").read_text())
    assert m.pop("game") == "cargo_noir"
    (folder / "manifest.json").write_text(json.dumps(m, indent=1) + "\n")
    with pytest.raises(ConfigError, match="holds a run of game cargo_noir, not toy_race"):
        runs.run_to_dir(folder, 300, ["random", "random"], seed=3, chunk_games=100, resume=True,
                        progress=False, game=TOY)
    info = runs.run_to_dir(folder, 300, ["random", "random"], seed=3, chunk_games=100,
                           resume=True, progress=False)
    assert info.complete and "game" not in json.loads((folder / "manifest.json").read_text())
    back = cargo_sim.load_results(folder)
    assert isinstance(back.rules, cargo_sim.Rules) and len(back.games) == 300
