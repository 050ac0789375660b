"""The core's bot plumbing on the toy game (tests/core/toy_game.py): a user bot
written with the core's @bot, checked mode, and the core's search bots, written
once in core/search and bound to the toy's kit, playing it."""

import numpy as np
import pytest

from cargo_sim.core import runner, userbots

from . import toy_game

TOY = toy_game.TOY


def _sim(n, players, seed=3, **kw):
    return runner.simulate(TOY, n, players, seed=seed, workers=1, progress=False, **kw)


@pytest.fixture(scope="module")
def three_steps():
    @userbots.bot("three_steps", params={"k": 3.0}, game=TOY)
    def three_steps(kind, s, seat):
        return 3
    yield "three_steps"
    userbots.unregister("three_steps", game=TOY)


def test_a_user_bot_written_with_the_core_bot_decorator_plays_the_toy(three_steps):
    assert "three_steps" in TOY.bots.names()
    res = _sim(300, [three_steps, "random"])
    p = res.players
    mine, other = p[p.bot == three_steps], p[p.bot == "random"]
    turns = res.games.turns.to_numpy()
    # seat 0 moves every turn: its picks are 3 a turn
    assert (mine.picked.to_numpy() == 3 * turns).all()
    assert mine.won.mean() > other.won.mean()
    # checked (the default) and trusted (check_bots=False): the same games
    fast = _sim(300, [three_steps, "random"], check_bots=False)
    assert fast.players.equals(res.players)


def test_a_faulting_user_bot_stops_the_toy_game_with_a_clear_error():
    from cargo_sim.core.errors import CargoSimError

    @userbots.bot("toy_raiser", game=TOY)
    def toy_raiser(kind, s, seat):
        raise ValueError("no")
    try:
        with pytest.raises(CargoSimError, match="toy_raiser"):
            _sim(5, ["toy_raiser", "random"])
    finally:
        userbots.unregister("toy_raiser", game=TOY)


@pytest.mark.slow
def test_the_core_ismcts_beats_random_on_the_toy():
    """200 two-player games of a race to 40 with a 2-sided die, seats rotated (100
    each way): the core's ismcts (100 iterations a pick) wins at least 80 % (measured
    91 %; random against random on the same seeds: 53 %; `cautious`, which picks 3
    until the end: 97 %)."""
    rules = toy_game.ToyRules.default().replace(target=40, die=2)
    a = _sim(100, ["ismcts?iterations=100", "random"], seed=1, rules=rules)
    b = _sim(100, ["random", "ismcts?iterations=100"], seed=2, rules=rules)
    won = (a.players[a.players.seat == 0].won.sum() + b.players[b.players.seat == 1].won.sum())
    rate = won / 200
    print(f"ismcts wins {rate:.1%} of 200 games against random")
    assert rate >= 0.80


def test_the_core_flatmc_plays_the_toy_and_its_game_state_is_the_simulated_game():
    players = ["flatmc?rollouts=4", "random"]
    res = _sim(3, players, seed=4)
    for g in range(3):
        st = TOY.GameState(players, seed=4, game=g)
        while not st.is_over:
            st.apply(st.bot_answer())
        rows = res.players[res.players.game == g][["pos", "picked", "rolled", "won"]].to_numpy()
        assert np.array_equal(st.stats(), rows)


def test_the_core_game_state_clones_steps_determinizes_and_plays_out_the_toy():
    """core.forward.GameState bound to the toy (nothing of the toy's own but its kernels)."""
    from cargo_sim.core.errors import ConfigError, IllegalDecisionError
    from cargo_sim.core.forward import GameState
    from cargo_sim.core.layout import M_RNG
    st = TOY.GameState(["random", "cautious"], seed=5, game=2)
    assert isinstance(st, GameState) and type(st).GAME is TOY
    assert (st.decision.kind, st.decision.seat) == ("pick", 0) and st.legal() == [1, 2, 3]
    twin = st.clone()
    st.apply(3)
    assert st.s[toy_game.PICKED] == 3 and st.s[toy_game.POS] == 3 + st.s[toy_game.ROLLED]
    assert twin.s[toy_game.PICKED] == 0 and twin.decision.seat == 0      # the clone is independent
    before = st.s.copy()
    with pytest.raises(IllegalDecisionError, match="illegal pick 4"):
        st.apply(4)
    assert np.array_equal(st.s, before)                                  # unchanged
    with pytest.raises(ConfigError):
        st.apply("3")
    with pytest.raises(ConfigError, match="not over"):
        st.returns()
    # determinize: only the chance stream (the die's future) changes, and it does change
    seat = st.decision.seat
    a, b = st.determinize(seat, seed=1), st.determinize(seat, seed=2)
    assert list(np.flatnonzero(a.s != st.s)) == [M_RNG] and a.s[M_RNG] != b.s[M_RNG]
    rolls = set()
    for k in range(8):
        d = st.determinize(seat, seed=k)
        d.apply(1)
        rolls.add(int(d.s[toy_game.ROLLED + seat]))
    assert len(rolls) > 1
    # playout = stepping with the bots' answers; returns from the finished game
    x, y = st.clone(), st.clone()
    x.playout()
    while not y.is_over:
        y.apply(y.bot_answer())
    assert np.array_equal(x.stats(), y.stats()) and x.is_over and x.decision is None
    r = x.returns()
    assert r["vp"] == [int(v) for v in x.s[toy_game.POS:toy_game.POS + 2]]
    assert sum(r["won"]) == 1 and r["win_share"][int(x.s[toy_game.WINNER])] == 1.0
    assert max(r["vp"]) >= TOY.Rules.default()["target"]
    with pytest.raises(ConfigError, match="over"):
        x.apply(1)
    twin.copy_from(x)
    assert np.array_equal(twin.s, x.s)
    # a bot's illegal answer during a playout: one clear error, the state unchanged
    cheat = TOY.GameState(["cheat", "random"], seed=1)
    keep = cheat.s.copy()
    with pytest.raises(IllegalDecisionError, match="'cheat'.*turn 3"):
        cheat.playout()
    assert np.array_equal(cheat.s, keep)


def test_the_core_ismcts_early_stop_never_changes_the_answer():
    """A tree stops once its most visited root option leads by more than the
    iterations left: at every searched decision of a few toy games the answer is the
    full budget's, and the stop saves iterations at some of them."""
    saved = 0
    for seed in (1, 2, 3):
        st = TOY.GameState(["ismcts?iterations=80", "random"], seed=seed)
        while not st.is_over:
            if st.decision.seat == 0:
                full = toy_game.toy_tree_answer_nb(st.s.copy(), 0, False)
                fast = toy_game.toy_tree_answer_nb(st.s.copy(), 0, True)
                assert full[1] == 80 and fast[0] == full[0] and 1 <= fast[1] <= 80
                saved += full[1] - fast[1]
            st.apply(st.bot_answer())
    assert saved > 0


def test_the_core_root_parallel_ismcts_is_reproducible_on_the_toy():
    players = ["ismcts?iterations=30&threads=2", "random"]
    a, b = _sim(4, players, seed=6), _sim(4, players, seed=6)
    assert a.players.equals(b.players)
    st = TOY.GameState(players, seed=6, game=1)
    while not st.is_over:
        st.apply(st.bot_answer())
    rows = a.players[a.players.game == 1][["pos", "picked", "rolled", "won"]].to_numpy()
    assert np.array_equal(st.stats(), rows)
