"""The forward model: a game stepped answer by answer is the simulated game; legal
answers agree with the engine's own check; clones are independent."""
import numpy as np
import pytest

import cargo_sim
from cargo_sim import ConfigError, IllegalDecisionError
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.forward_nb import RANGE

MIXES = [["random", "random"], ["expert", "random", "greedy"],
         ["random", "sniper", "trader", "collector"], ["random"] * 5]


def step_with_bots(st: GameState) -> int:
    """Play to the end through the public step API, asking the seats' bots."""
    n = 0
    while not st.is_over:
        ans, out = st.bot_answer()
        st.step_vector(ans, out)
        n += 1
    return n


@pytest.mark.parametrize("mix", MIXES)
def test_stepped_game_equals_simulated_game(mix):
    res = cargo_sim.simulate(3, mix, seed=5, progress=False)
    n = len(mix)
    for g in range(3):
        st = GameState(mix, seed=5, game=g)
        assert step_with_bots(st) > 10
        rows = res.players[res.players.game == g].sort_values("seat")
        got = st.stats()
        for f in ("vp", "won", "coins", "ports_won", "trades", "cards_bought", "bm_draws"):
            assert list(rows[f]) == list(got[:, e.P._fields.index(f)]), (mix, g, f)
        assert st.returns()["vp"] == list(rows["vp"])
        assert len(rows) == n


# an all-random table plays out through simulate's own loop (chunk_nb.random_playout_nb),
# stepping asks through the generic one: the two must play the same game
@pytest.mark.parametrize("mix", [["expert", "random", "greedy"], ["random"] * 2, ["random"] * 5])
def test_playout_equals_stepping_and_clone_is_independent(mix):
    st = GameState(mix, seed=9, game=2)
    for _ in range(25):                      # into the middle of the game
        st.step_vector(*st.bot_answer())
    a, b = st.clone(), st.clone()
    a.playout()
    step_with_bots(b)
    assert np.array_equal(a.stats(), b.stats())
    assert np.array_equal(a.s, b.s)          # the whole state, bots' notes included
    assert not st.is_over and st.decision is not None      # the original did not move
    c = GameState(mix, seed=9, game=3)
    c.copy_from(st)                          # the cheap copy: game part only
    c.playout()
    assert np.array_equal(c.stats(), a.stats())


def test_the_decide_kernel_travels_in_the_state():
    """The Python entry points take the table's decide kernel from the state (its
    addresses, set on first use and copied with it); a state without them stops
    with an illegal answer instead of calling address 0."""
    from cargo_sim.core.dispatch_nb import UNSET
    from cargo_sim.core.layout import R_DECIDE_C, R_DECIDE_JIT
    from cargo_sim.games.cargo_noir.forward_nb import (stopped_nb, table_bot_answer_nb,
                                                        table_playout_nb)
    st = GameState(["random", "greedy"], seed=4, game=1)
    assert st.s[R_DECIDE_C] == 0
    st.step_vector(*st.bot_answer())
    assert st.s[R_DECIDE_C] != 0 and st.s[R_DECIDE_JIT] != 0
    assert st.clone().s[R_DECIDE_C] == st.s[R_DECIDE_C]
    log = np.zeros((0, e.N_EVENT_FIELDS), dtype=np.int64)
    for call in (lambda s: table_playout_nb(s, log, 0), table_bot_answer_nb):
        bare = st.s.copy()
        bare[R_DECIDE_JIT] = bare[R_DECIDE_C] = 0
        call(bare)
        assert stopped_nb(bare) and bare[e.M_ERR_VALUE] == UNSET
        assert bare[e.M_ERR_SEAT] == st.decision.seat


def _answers_of(row):
    ans, lo, hi = row
    if ans == RANGE:
        return [(v, None) for v in sorted({lo, hi, (lo + hi) // 2})]
    if hi > 0 or lo > 0:
        return [(ans, b) for b in sorted({lo, hi})]
    return [(ans, None)]


def test_legal_answers_agree_with_the_engine_on_random_states():
    """Every enumerated answer is accepted by the engine; answers just outside are refused."""
    rng = np.random.default_rng(3)
    checked = refused = 0
    for g in range(8):
        st = GameState(["random"] * (2 + g % 4), seed=21, game=g)
        probe = st.clone()                  # tried answers go here (copy_from: game part only)

        def attempt(ans, bid):
            probe.copy_from(st)
            probe.step(ans, bid=bid)

        while not st.is_over:
            legal = st.legal()
            if legal is not None:
                assert legal, st
                for row in legal:
                    for ans, bid in _answers_of(row):
                        attempt(ans, bid)                      # no IllegalDecisionError
                        checked += 1
                d = st.decision
                bad = []
                if d.code == e.D_SEND:
                    for ans, lo, hi in legal:
                        if ans >= e.LOC_PORT0:
                            bad += [(ans, lo - 1), (ans, hi + 1)]
                    ports = {a for a, _, _ in legal}
                    bad += [(e.LOC_PORT0 + p, 50) for p in range(16) if e.LOC_PORT0 + p not in ports]
                elif d.code == e.D_RAISE:
                    lo = legal[1][1]
                    bad += [(lo - 1, None)] if lo > 1 else []
                    bad += [(legal[1][2] + 1, None)]
                elif d.code in (e.D_ORDER, e.D_BLACK_MARKET):
                    ok = {a for a, _, _ in legal}
                    bad += [(a, None) for a in range(-3, 40) if a not in ok][:5]
                for ans, bid in bad:
                    with pytest.raises(IllegalDecisionError):
                        attempt(ans, bid)
                    refused += 1
            ans, out = st.bot_answer()
            if legal is not None and rng.random() < 0.5:      # wander off the bot's path too
                row = legal[rng.integers(len(legal))]
                ans, bid = _answers_of(row)[0]
                st.step(ans, bid=bid)
            else:
                st.step_vector(ans, out)
    assert checked > 500 and refused > 200


def test_an_illegal_step_leaves_the_state_unchanged():
    st = GameState(["random", "random"], seed=1)
    assert st.decision.kind == "send ship"
    before = st.s[:e.STATE_SIZE].copy()
    with pytest.raises(IllegalDecisionError, match="send ship"):
        st.step(e.LOC_PORT0, bid=10_000)
    assert np.array_equal(st.s[:e.STATE_SIZE], before)
    st.step(e.LOC_CASINO)
    assert st.decision.seat == 0                  # three ships to send on turn 1


def test_errors_are_clear():
    with pytest.raises(cargo_sim.BotError):
        GameState(["nosuchbot", "random"])
    with pytest.raises(ConfigError):
        GameState(["random", "random"], game=-1)
    st = GameState(["random", "random"], seed=2).playout()
    assert st.is_over and st.decision is None and st.legal() == []
    with pytest.raises(ConfigError, match="over"):
        st.step(0)
    assert sum(st.returns()["win_share"]) == pytest.approx(1.0)
