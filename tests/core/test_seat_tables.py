"""The plumbing the games share, folded into the core: the seats' columns and a stopped
game's error (core.seat_tables), a table of named rule items (check_items), a game's
state offsets (Slots), the search bots' registration and the int-coded forward model's
answers. Pure Python: nothing here compiles a kernel."""
import numpy as np
import pandas as pd
import pytest

import cargo_sim
from cargo_sim.core.bots import BotRegistry, BotSpec, register_search_bots
from cargo_sim.core.contract import get_game
from cargo_sim.core.errors import BotError, ConfigError, IllegalDecisionError
from cargo_sim.core.layout import Slots
from cargo_sim.core.rule_types import check_items
from cargo_sim.core.search.params import SEARCH_RANGES, search_docs, search_params
from cargo_sim.core.seat_tables import SeatResults, decision_error, events_frame, seat_columns


class _P:
    def __init__(self, label):
        self.label = label


def test_seat_columns_split_a_shared_win():
    # game 0: seats 0 and 2 share the win; game 1: seat 1 alone
    games = np.array([[3, 9, 0, 2], [3, 8, 1, 1]], np.int64)
    rows = np.zeros((2, 3, 3), np.int32)
    rows[0, :, 0], rows[0, :, 2] = (5, 2, 5), (1, 0, 1)
    rows[1, :, 0], rows[1, :, 2] = (1, 7, 3), (0, 1, 0)
    g, p = seat_columns(games, rows, np.array([11, 12]), 10, [_P("a"), _P("b"), _P("a")],
                        ("n_players", "turns", "winner", "n_winners"), ("vp", "rank", "won"))
    assert list(g["game"]) == [10, 11] and list(g["n_winners"]) == [2, 1]
    assert list(p["win_share"]) == [0.5, 0.0, 0.5, 0.0, 1.0, 0.0]
    assert list(p["bot"]) == ["a", "b", "a"] * 2 and list(p["bot"].categories) == ["a", "b"]
    assert list(p["vp"]) == [5, 2, 5, 1, 7, 3] and list(p["seat"]) == [0, 1, 2] * 2
    res = SeatResults(pd.DataFrame(g), pd.DataFrame({**p, "rank": p["rank"]}), None, {})
    assert list(res.summary()["win_rate"]) == [0.25, 0.5, 0.25]


def test_decision_error_names_the_bot_the_decision_and_the_turn():
    players = [_P("random"), _P("mine")]
    e = decision_error(players, [0, 1, 1, 42, 7, 0], 3, 99, ("pick", "pay"), "day")
    assert isinstance(e, IllegalDecisionError)
    assert str(e) == ("bot 'mine' (seat 1) made an illegal pay decision: answer 42; "
                      "day 7 of game 3 (game seed 99)")
    e = decision_error(players, [0, 9, 0, 0, 2, 1], 0, 5, ("pick",), "round")
    assert isinstance(e, BotError) and "failed (raised) at a kind 9 decision; round 2" in str(e)


def test_events_frame_names_the_actions():
    df = events_frame(np.array([[0, 1], [0, 0]]), ("game", "action"), ("take", "pass"))
    assert list(df["action"]) == ["pass", "take"]


def test_check_items_reports_every_bad_item():
    fields = {"cost": int, "name": str}
    p = []
    ok = check_items({"ship": {"a": {"cost": 1, "name": "x"}, "b": {"cost": "1", "name": "y"},
                               "c": {"cost": 1}, "d": {"cost": 1, "name": "z", "sails": 2}, "e": 3}},
                     "ship", fields, p)
    assert list(ok) == ["a"]
    assert p == ["ship.b.cost: must be an integer, got '1'", "ship.c.name: missing",
                 "unknown rules parameter 'ship.d.sails' (ship fields: cost, name)",
                 "ship.e: must be a table of cost, name"]
    for bad in ({}, {"ship": {}}, {"ship": [1]}):
        p = []
        assert check_items(bad, "ship", fields, p) == {} and p == ["ship: must be a non-empty table"]


def test_slots_are_consecutive():
    k = Slots(100)
    assert (k(), k(4), k(), k.at) == (100, 101, 105, 106)


def test_search_bots_follow_the_builtins_and_model_them():
    reg = BotRegistry("toy_fold", 16)
    for name in ("random", "greedy", "expert"):
        reg.register_builtin(BotSpec(name, "m:f"))
    params = search_params({"opts": (0.0, "options")}, opponent="greedy", rollout="expert")
    models = register_search_bots(reg, "m:search", params, search_docs("its answers", "the deck"),
                                  {"opts": (0, 9, True)})
    assert models == ("random", "greedy", "expert")
    assert reg.builtin_order == ["random", "greedy", "expert", "flatmc", "ismcts"]
    spec = reg.builtin["ismcts"]
    assert spec.search == 2 and spec.models == models and spec.decide == "m:search"
    assert (spec.params["opponent"], spec.params["rollout"]) == (1.0, 2.0)
    assert set(spec.bot_params) == {"opponent", "rollout"}
    assert spec.ranges["opts"] == (0, 9, True) and spec.ranges["iterations"] == SEARCH_RANGES["iterations"]
    assert "rollouts" not in spec.ranges and "rollouts" in reg.builtin["flatmc"].ranges


@pytest.mark.parametrize("game", ["macao", "shipwrights"])
def test_coded_answers_are_whole_numbers(game):
    forward = get_game(game).forward
    assert forward.answer(3) == 3 and forward.answer(np.int64(-2)) == -2
    for bad in (True, 2.5, "1", 2**31):
        with pytest.raises(ConfigError, match=r"answer is a whole number"):
            forward.answer(bad)


@pytest.mark.parametrize("game,title", [("macao", "Macao"), ("shipwrights", "Shipwrights")])
def test_search_bots_run_one_thread(game, title):
    with pytest.raises(BotError, match=rf"bot 'ismcts\?threads=2': {title}'s search bots run one thread"):
        cargo_sim.simulate(1, ["ismcts?threads=2", "random"], game=game)
