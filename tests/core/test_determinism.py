"""Determinism: a game depends on its seed alone.

Same run seed -> identical tables; the number of worker threads and the chunk
size change nothing; game i of a run is game i of any longer run with the
same seed and of a run starting at i; ``play_one(games.seed[i])`` replays
game i; driving the same game phase by phase (run_phase_nb, phase 0) plays
exactly the game the whole-game kernel plays.
"""
import functools

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim import Rules
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.bots.registry import parse_player
from cargo_sim.games.cargo_noir.testing import run_phase_nb
from cargo_sim.games.cargo_noir.simulate import table_template
from cargo_sim.games.cargo_noir.testing import ScriptedGame

PLAYERS = {n: ["random"] * n for n in range(2, 6)}


@functools.lru_cache(maxsize=None)
def run(n, n_games, seed, workers=2, start=0, chunk_size=128):
    return cargo_sim.simulate(n_games, PLAYERS[n], seed=seed, workers=workers, start=start,
                              chunk_size=chunk_size, progress=False)


def same_values(a: pd.DataFrame, b: pd.DataFrame):
    """Equal tables up to integer width (columns are downcast per run)."""
    assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_dtype=False,
                       check_categorical=False)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_same_seed_same_tables(n):
    a = run(n, 600, 11)
    b = cargo_sim.simulate(600, PLAYERS[n], seed=11, workers=2, chunk_size=128, progress=False)
    assert_frame_equal(a.games, b.games)
    assert_frame_equal(a.players, b.players)


@pytest.mark.parametrize("n", [2, 5])
def test_different_seed_different_games(n):
    a, b = run(n, 600, 11), run(n, 600, 12)
    assert not np.array_equal(a.games["seed"].to_numpy(), b.games["seed"].to_numpy())
    assert not np.array_equal(a.players["vp"].to_numpy(), b.players["vp"].to_numpy())
    # and games inside a run differ from each other
    assert a.games["seed"].nunique() == 600
    assert a.players.groupby("game")["vp"].sum().nunique() > 10


@pytest.mark.parametrize("n", [3, 4])
def test_workers_and_chunks_do_not_matter(n):
    ref = run(n, 600, 11)
    for workers, chunk in [(1, 128), (1, 10_000), (2, 7), (3, 64)]:
        other = cargo_sim.simulate(600, PLAYERS[n], seed=11, workers=workers, chunk_size=chunk,
                                   progress=False)
        assert_frame_equal(ref.games, other.games)
        assert_frame_equal(ref.players, other.players)


@pytest.mark.parametrize("n", [2, 4])
def test_game_i_is_the_same_in_a_longer_run(n):
    short, long = run(n, 200, 5), run(n, 600, 5)
    same_values(short.games, long.games.iloc[:200])
    same_values(short.players, long.players.iloc[:200 * n])


@pytest.mark.parametrize("n", [3, 5])
def test_run_with_start_is_a_slice_of_the_full_run(n):
    full = run(n, 600, 5)
    part = run(n, 150, 5, start=300)
    assert part.games["game"].tolist() == list(range(300, 450))
    same_values(part.games, full.games.iloc[300:450])
    same_values(part.players, full.players.iloc[300 * n:450 * n])
    # a run split in two pieces is the whole run
    first = run(n, 300, 5)
    rest = run(n, 300, 5, start=300)
    same_values(pd.concat([first.games, rest.games]), full.games)
    same_values(pd.concat([first.players, rest.players]), full.players)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_play_one_replays_game_i(n):
    res = run(n, 600, 11)
    for i in (0, 1, 17, 599):
        seed = int(res.games["seed"].iloc[i])
        ev, text = cargo_sim.play_one(seed, PLAYERS[n])
        sc = ev[ev["action"] == "score"].sort_values("seat")
        rows = res.players[res.players["game"] == i].sort_values("seat")
        assert sc["seat"].astype(int).tolist() == list(range(n))
        assert sc["value"].astype(int).tolist() == rows["vp"].astype(int).tolist()
        assert sc["count"].astype(int).tolist() == rows["won"].astype(int).tolist()
        # the event log agrees with the statistics of that game
        buys = ev[ev["action"] == "buy"]
        bought = buys.groupby("seat")["count"].sum().reindex(range(n), fill_value=0)
        assert bought.astype(int).tolist() == rows["cards_bought"].astype(int).tolist()
        wins = ev[ev["action"] == "port win"].groupby("seat").size().reindex(range(n), fill_value=0)
        assert wins.astype(int).tolist() == rows["ports_won"].astype(int).tolist()
        assert "WINNER" in text


def test_play_one_is_deterministic():
    a_ev, a_text = cargo_sim.play_one(123456789, PLAYERS[4])
    b_ev, b_text = cargo_sim.play_one(123456789, PLAYERS[4])
    assert_frame_equal(a_ev, b_ev)
    assert a_text == b_text
    c_ev, _ = cargo_sim.play_one(123456790, PLAYERS[4])
    assert not (len(a_ev) == len(c_ev) and a_ev.equals(c_ev))


def test_equal_rules_objects_give_equal_games():
    a = cargo_sim.simulate(100, PLAYERS[3], seed=3, rules=Rules.default(), progress=False)
    b = cargo_sim.simulate(100, PLAYERS[3], seed=3,
                           rules=Rules.default().replace(start_coins=7), progress=False)
    assert_frame_equal(a.games, b.games)
    assert_frame_equal(a.players, b.players)
    c = cargo_sim.simulate(100, PLAYERS[3], seed=3,
                           rules=Rules.default().replace(start_coins=9), progress=False)
    assert not c.players["coins"].equals(a.players["coins"])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_phase_by_phase_equals_whole_game(n):
    """run_phase_nb(phase 0) turn by turn, then scoring, plays the same game as
    the whole-game kernel with the same seed (play_one)."""
    rules = Rules.default()
    template, decide = table_template(rules, [parse_player("random")] * n)
    hi = e.PARAMS + e.MAX_SEATS * e.N_PARAMS
    log = np.zeros((0, e.N_EVENT_FIELDS), dtype=np.int64)
    for seed in (1, 2, 3):
        g = ScriptedGame(n, rules=rules, seed=seed)
        g.s[e.BOTS:hi] = template[e.BOTS:hi]
        for turn in range(1, rules.turns(n) + 1):
            g.set_turn(turn)
            for seat in range(n):
                run_phase_nb(g.s, decide, log, 0, seat)
        run_phase_nb(g.s, decide, log, 4, 0)
        ev, _ = cargo_sim.play_one(seed, PLAYERS[n])
        sc = ev[ev["action"] == "score"].sort_values("seat")
        assert [g.stat(q, "vp") for q in range(n)] == sc["value"].astype(int).tolist()
        assert [g.stat(q, "won") for q in range(n)] == sc["count"].astype(int).tolist()
        assert sum(g.stat(q, "cards_bought") for q in range(n)) == int(
            ev.loc[ev["action"] == "buy", "count"].sum())


@pytest.mark.parametrize("n", [2, 5])
def test_recorded_events_equal_play_one(n):
    res = cargo_sim.simulate(40, PLAYERS[n], seed=21, events=True, workers=2, chunk_size=16,
                             progress=False)
    again = cargo_sim.simulate(40, PLAYERS[n], seed=21, events=True, workers=1, progress=False)
    assert_frame_equal(res.events, again.events)
    assert_frame_equal(res.players, again.players)
    assert sorted(res.events["game"].unique()) == list(range(40))
    for i in (0, 13, 39):
        ev_i = res.events[res.events["game"] == i].reset_index(drop=True)
        one, _ = cargo_sim.play_one(int(res.games["seed"].iloc[i]), PLAYERS[n])
        cols = [c for c in one.columns if c != "game"]
        assert_frame_equal(ev_i[cols], one[cols], check_dtype=False, check_categorical=False)
