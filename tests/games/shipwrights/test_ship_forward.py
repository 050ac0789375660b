"""Shipwrights' forward model and hidden information: determinize resamples exactly what
a seat cannot know (the deck's order, other hands less what it passed, the face-down
cards), keeps the top card's back, and never depends on the real hidden order; random
games keep the invariants after every answer; same seed, same games."""
import numpy as np
import pytest

from cargo_sim.core import runner
from cargo_sim.core.contract import get_game
from cargo_sim.games.shipwrights import enums as E
from cargo_sim.games.shipwrights import testing as T
from cargo_sim.games.shipwrights.forward_nb import determinize_nb, hidden_slots_nb, regroup_nb
from cargo_sim.games.shipwrights.rules import Rules

R = Rules.default()
GAME = get_game("shipwrights")


def mid_draft(n=4, seed=11, picks=6):
    """A game of random bots stopped in its first day's draft, after some picks."""
    st = GAME.GameState(["random"] * n, seed=seed, game=0, rules=R)
    while st.decision.kind != "draft":
        st.apply(st.bot_answer())
    for _ in range(picks):
        st.apply(st.bot_answer())
    return st


def groups(s, seat):
    addr = np.empty(3 * E.MAX_DECK, np.int64)
    grp = np.empty(3 * E.MAX_DECK, np.int64)
    m = hidden_slots_nb(s, seat, addr, grp)
    out = {}
    for a, g in zip(addr[:m], grp[:m]):
        out.setdefault(int(g), []).append(int(a))
    return out


def test_determinize_changes_only_what_the_seat_cannot_know():
    st = mid_draft()
    s = st.s
    seat = int(s[E.G_SEAT])
    d = s.copy()
    determinize_nb(d, seat, np.int64(99))
    hidden = {a for addrs in groups(s, seat).values() for a in addrs}
    changed = {i for i in range(E.RULES_END, E.STATE_SIZE) if d[i] != s[i]}
    assert changed and changed <= hidden
    assert d[E.G_TOP_BACK] == s[E.G_TOP_BACK]
    assert d[E.K_BOX_BACK + d[E.G_DECK + d[E.G_DECK_N] - 1]] == s[E.G_TOP_BACK]
    for g, addrs in groups(s, seat).items():           # each group keeps its cards
        assert sorted(s[addrs]) == sorted(d[addrs]), g
    assert T.invariants(d, R) == []


def test_cards_passed_in_the_draft_stay_among_the_seats_after():
    st = mid_draft(n=4, picks=3)          # round 1 done by three seats: the fourth holds the packet
    s = st.s
    first = int(s[E.G_FIRST])
    g = groups(s, first)                  # the first player saw every card the others kept
    assert E.MAX_ROUNDS not in g or all(a < T.pb(0) for a in g[E.MAX_ROUNDS])   # only the deck unknown
    last = (first + 3) % 4
    g = groups(s, last)                   # the last seat saw none of the cards kept before it
    assert 0 not in g


def test_determinize_does_not_depend_on_the_real_hidden_order():
    st = mid_draft(picks=5)
    s = st.s
    seat = int(s[E.G_SEAT])
    other = s.copy()
    regroup_nb(other, seat, True)         # the same public game, the hidden cards rearranged
    a, b = s.copy(), other.copy()
    determinize_nb(a, seat, np.int64(5))
    determinize_nb(b, seat, np.int64(5))
    np.testing.assert_array_equal(a, b)


def test_a_search_bot_plays_a_game():
    res = runner.simulate("shipwrights", 1, ["flatmc?rollouts=1", "expert"], seed=2, progress=False)
    assert res.players["vp"].sum() > 0


@pytest.mark.parametrize("n", [2, 5])
def test_random_games_keep_the_invariants_after_every_answer(n):
    st = GAME.GameState(["random"] * n, seed=4, game=1, rules=R)
    steps = 0
    while not st.is_over:
        st.apply(st.bot_answer())
        steps += 1
        if steps % 7 == 0:
            assert GAME.invariants(st.s, R) == [], steps
    assert GAME.invariants(st.s, R) == []
    assert st.s[E.G_DAY] <= R["max_days"]


def test_same_seed_same_games_for_any_chunks_and_threads():
    a = runner.simulate("shipwrights", 24, ["random", "expert", "military"], seed=8, progress=False,
                        workers=1, chunk_size=24)
    b = runner.simulate("shipwrights", 24, ["random", "expert", "military"], seed=8, progress=False,
                        workers=2, chunk_size=5)
    np.testing.assert_array_equal(a.players.to_numpy(), b.players.to_numpy())


def test_gold_stays_in_0_to_12_over_many_games():
    res = runner.simulate("shipwrights", 300, ["random", "attacker", "economy", "boathouse"], seed=9,
                          progress=False)
    p = res.players
    assert p["gold"].between(0, 12).all() and (p["goods"] >= 0).all() and (p["workers"] >= 0).all()
    assert (p["workers"] <= 8).all() and (res.games["days"] <= R["max_days"]).all()


def test_the_event_log_tells_the_game():
    res = runner.simulate("shipwrights", 1, ["expert", "random"], seed=3, progress=False, events=True)
    text = GAME.render_events(res.events, R)
    assert "completes the" in text and "finishes with" in text


@pytest.mark.slow
def test_expert_beats_random_95_percent():
    res = runner.simulate("shipwrights", 400, ["expert", "random"], seed=12, progress=False)
    assert res.summary()["win_rate"].iloc[0] >= 0.95
