"""Bots: the built-in strategies, user-written bots and their errors (user bots at a
table: test_bot_faults.py)."""
import runpy
from pathlib import Path

import numpy as np
import pytest

import cargo_sim
from cargo_sim.games.cargo_noir.bots import registry
from cargo_sim.games.cargo_noir.bots.heuristic_nb import heuristic_decide_nb as heur
from cargo_sim.games.cargo_noir.bots.random_nb import random_decide_nb
from cargo_sim.games.cargo_noir.bots.strategies import PARAMS, STRATEGIES, strategy_params

ROOT = Path(__file__).resolve().parents[3]


def test_builtin_table_order_matches_dispatch():
    # dispatch_nb sends index 0 to random and every other built-in to the heuristic family
    assert registry.BUILTIN_ORDER[0] == "random"
    assert registry.BUILTIN["random"].resolve() is random_decide_nb
    # ... except the search bots, registered last and marked for the table (s[R_SEARCH])
    plain = registry.bot_names(search=False)
    assert plain == registry.BUILTIN_ORDER[:len(plain)]
    for name in plain[1:]:
        assert registry.BUILTIN[name].resolve() is heur
    assert set(plain[1:]) == set(STRATEGIES) | {"strong"}     # strong: expert's kernel, trained
    assert [b for b in registry.BUILTIN_ORDER if registry.BUILTIN[b].search] == ["flatmc", "ismcts"]


def test_strategies_are_distinct_and_documented():
    seen = set()
    for name in STRATEGIES:
        params = tuple(strategy_params(name).values())
        assert params not in seen, f"{name} has the same parameters as another strategy"
        seen.add(params)
        assert len(registry.BUILTIN[name].doc) > 80
    assert list(strategy_params("greedy")) == list(PARAMS)


def test_player_parameters_parse_and_validate():
    p = cargo_sim.player("greedy?bid_margin=2&hold=0.5")
    assert p.values[list(PARAMS).index("bid_margin")] == 2.0
    assert p.label == "greedy?bid_margin=2&hold=0.5"
    assert cargo_sim.player("greedy", bid_margin=3).values[1] == 3.0
    with pytest.raises(cargo_sim.BotError, match="no parameter 'nope'"):
        cargo_sim.player("greedy?nope=1")
    with pytest.raises(cargo_sim.BotError, match="unknown bot 'grredy'"):
        cargo_sim.player("grredy")


def test_greedy_bids_the_least_that_wins():
    events, _ = cargo_sim.play_one(11, ["greedy", "greedy", "greedy"])
    sends = events[(events.action == "send port") & (events.turn == 1)]
    # on turn 1 nobody has raised: each bid is 1 on an empty port or one above the top stack
    for port, grp in sends.groupby("loc", observed=True):
        assert list(grp.amount) == list(range(1, len(grp) + 1))


def test_expert_beats_random_two_player():
    res = cargo_sim.simulate(300, ["expert", "random"], seed=5, progress=False)
    res2 = cargo_sim.simulate(300, ["random", "expert"], seed=6, progress=False)
    wins = (res.players.query("seat == 0").win_share.sum()
            + res2.players.query("seat == 1").win_share.sum())
    assert wins / 600 > 0.95


@pytest.mark.slow               # a table with a user bot compiles its kernel (seconds, not cached)
def test_example_user_bot_runs_and_keeps_its_rule():
    ns = runpy.run_path(str(ROOT / "docs" / "example_bot.py"), run_name="example")
    try:
        res = cargo_sim.simulate(60, ["casino_sniper", "greedy", "random"], seed=2, progress=False)
        sniper = res.players.query("bot == 'casino_sniper'")
        assert len(sniper) == 60
        # it delegates raises to the heuristic with raise_ratio 0: it never raises
        assert sniper.raises.sum() == 0
        assert sniper.vp.mean() > res.players.query("bot == 'random'").vp.mean()
        # parameters reach the bot: a huge min_gain sends every ship to the Casino
        lazy = cargo_sim.simulate(20, ["casino_sniper?min_gain=1000", "random"], seed=2,
                                  progress=False).players.query("seat == 0")
        assert lazy.bids.sum() == 0 and lazy.casino_visits.sum() > 0
        assert "casino_sniper" in cargo_sim.bot_names()
    finally:
        cargo_sim.unregister_bot("casino_sniper")
    assert ns["casino_sniper"] is not None


@pytest.mark.slow
def test_user_bot_that_does_not_compile_gets_a_bot_error():
    @cargo_sim.bot("broken_bot")
    def broken_bot(kind, s, seat):
        return {"a": kind}                  # a dict is not an int: numba cannot type it
    try:
        with pytest.raises(cargo_sim.BotError, match="does not compile") as info:
            cargo_sim.simulate(2, ["broken_bot", "random"], seed=1, progress=False)
        msg = str(info.value)
        assert "broken_bot" in msg and "Failed in" not in msg and "nopython frontend" not in msg
    finally:
        cargo_sim.unregister_bot("broken_bot")


NUMBA_TEXT = """Failed in nopython mode pipeline (step: nopython frontend)
Failed in nopython mode pipeline (step: nopython frontend)
NameError: name 'LOC_CASSINO' is not defined
During: Pass nopython_type_inference
During: resolving callee type: type(CPUDispatcher(<function casino_typo at 0x7f727e103600>))
During: typing of call at <string> (6)

File "<string>", line 6:
<source missing, REPL/exec in use?>
"""


def test_numba_first_real_message():
    from cargo_sim.games.cargo_noir.simulate import numba_first_message
    assert numba_first_message(NUMBA_TEXT) == "NameError: name 'LOC_CASSINO' is not defined"
    assert numba_first_message("Failed in x\nNo implementation of function f\n") == \
        "No implementation of function f"
    assert numba_first_message("Failed in x\nDuring: y\n") == "Failed in x"


def test_bot_names_are_checked():
    with pytest.raises(cargo_sim.BotError):
        cargo_sim.bot("greedy")(lambda kind, s, seat: 0)
    with pytest.raises(cargo_sim.BotError):
        cargo_sim.bot("a?b")


def test_play_one_takes_the_seed_column_as_is():
    res = cargo_sim.simulate(3, ["greedy", "random"], seed=4, progress=False)
    events, text = cargo_sim.play_one(res.games.seed[2], ["greedy", "random"])   # numpy uint64
    score = events[events.action == "score"].sort_values("seat")
    assert list(score.value) == list(res.players.query("game == 2").sort_values("seat").vp)
    assert "turn 1" in text


def test_first_compile_says_so(capsys, monkeypatch):
    import importlib
    sim = importlib.import_module("cargo_sim.core.runner")     # the one runner compiles tables
    cargo_sim.simulate(2, ["random", "random"], seed=1, progress=False)
    from cargo_sim.games.cargo_noir.bots.dispatch_nb import random_table_decide_nb
    assert not sim.first_compile(random_table_decide_nb)          # compiled now
    capsys.readouterr()
    monkeypatch.setattr(sim, "first_compile", lambda decide: True)
    cargo_sim.simulate(2, ["random", "random"], seed=1, progress=True)
    err = capsys.readouterr().err
    assert "compiling the bots (random) for their first use" in err and "minutes" in err
    assert "simulate: 2 players (random, random)" in err          # the bar names its work
