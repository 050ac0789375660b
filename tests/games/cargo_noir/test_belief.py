"""Opponent models from public play (core.search.belief_nb, bots/belief_nb.py): the
counts follow public answers only, the posterior finds a seat that plays a candidate
exactly, and the search's use of it is reproducible."""
import numpy as np
import pytest

import cargo_sim
from cargo_sim.core.search.belief_nb import MISS, model_cdf_nb, posterior_nb, sample_nb
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.bots import belief
from cargo_sim.games.cargo_noir.forward import GameState

SEARCH = "ismcts?iterations=2"      # a search seat (the counts are kept at such tables)
ROW = slice(e.BELIEF, e.BELIEF + e.MAX_SEATS * e.MAX_CAND)


def play(players, seed, game=0, until=None, each=None):
    """Step a game with the bots' own answers (to the end, or `until` decisions)."""
    st = GameState(players, seed=seed, game=game)
    n = 0
    while not st.is_over and (until is None or n < until):
        ans = st.bot_answer()
        if each is not None:
            each(st, ans)
        st.step_vector(*ans)
        n += 1
    return st


@pytest.fixture(scope="module")
def finished():
    """A 3-player game to its end: a search seat, `banker` and `syndicate`."""
    return play([SEARCH, "banker", "syndicate"], seed=21)


def test_the_posterior_concentrates_on_the_candidate_a_seat_plays(finished):
    for seat, name in ((1, "banker"), (2, "syndicate")):
        counts = belief.misses(finished, seat)
        assert counts[name] == (0, 0)            # the true candidate never misses
        # every other candidate missed at least once (they are told apart)
        assert all(sum(v) > 0 for k, v in counts.items() if k != name), counts
        post = belief.posterior(finished, seat)  # prior 0.5 on `expert`
        assert post[name] > 0.99, post
        assert abs(sum(post.values()) - 1.0) < 1e-9


def test_no_search_seat_no_counts():
    st = play(["greedy", "expert"], seed=3, until=40)
    assert not st.s[ROW].any()


def test_the_counts_read_no_seat_parameters_nor_the_chance_stream():
    # at every answer of seat 1, replace its real bot and parameters (and the chance
    # stream) by garbage in a copy and apply the same answer: the same counts
    def check(st, ans):
        if st.decision.seat != 1:
            return
        a, b = st.clone(), st.clone()
        b.s[e.BOTS + 1] = 3
        b.s[e.PARAMS + e.N_PARAMS: e.PARAMS + 2 * e.N_PARAMS] = np.arange(e.N_PARAMS) * 777_777
        b.s[e.M_RNG] ^= 0x5DEECE66D
        a.step_vector(*ans)
        b.step_vector(*ans)
        assert np.array_equal(a.s[ROW], b.s[ROW])
        checked.append(1)
    checked = []
    play([SEARCH, "expert"], seed=5, until=60, each=check)
    assert len(checked) >= 10


@pytest.mark.parametrize("twin, same", [("greedy?rich_value=0.3", True),     # inert: rich_coins=0
                                        ("greedy?bid_margin=3", False)])
def test_a_seat_is_told_apart_only_by_its_public_play(twin, same):
    # seat 1 with other parameters that play the same answers: the same counts and the
    # same search answers; parameters that play differently: the counts differ
    a = play([SEARCH, "greedy"], seed=8, until=80)
    b = play([SEARCH, twin], seed=8, until=80)
    assert np.array_equal(a.s[ROW], b.s[ROW]) == same
    assert np.array_equal(a.s[e.RULES:e.STATE_SIZE], b.s[e.RULES:e.STATE_SIZE]) == same


def test_posterior_and_sampling_rows_follow_the_formula():
    # words for candidates 1..4: misses * MISS + near misses
    p = np.zeros(8, np.int64)
    p[1:5] = [0, 2 * MISS, MISS + 2, 1]
    out = np.zeros(8)
    posterior_nb(p, 0, 1, 5, 2, 0.4, 0.1, out)
    w = np.array([0.2, 0.4 * 0.01, 0.2 * 0.1 * 0.1, 0.2 * 0.1 ** 0.5])
    assert np.allclose(out[1:5], w / w.sum()) and out[0] == out[5] == 0
    q = np.zeros(16, np.int64)
    q[:8] = p
    model_cdf_nb(q, 0, 8, 1, 5, 2, 0.4, 0.1, 1, np.zeros(8))
    assert q[12] == 1 << 32 and all(np.diff(q[9:13]) >= 0)
    draws = [sample_nb(q, 8, 1, 5, u) for u in range(0, 1 << 32, 1 << 22)]
    assert abs(draws.count(1) / len(draws) - out[1]) < 0.01
    model_cdf_nb(q, 0, 8, 1, 5, 2, 0.4, 0.1, 2, np.zeros(8))       # MAP: all on candidate 1
    assert {sample_nb(q, 8, 1, 5, u) for u in (0, 1 << 31, (1 << 32) - 1)} == {1}


def test_model_settings_are_reproducible_and_change_the_search():
    mixes = [[f"ismcts?iterations=6&model={m}", "banker"] for m in (0, 1, 2)]
    runs = [cargo_sim.simulate(1, mix, seed=6, progress=False) for mix in mixes]
    again = cargo_sim.simulate(1, mixes[1], seed=6, progress=False)
    assert again.players.drop(columns="bot").equals(runs[1].players.drop(columns="bot"))
    assert not runs[0].players["vp"].equals(runs[1].players["vp"]) \
        or not runs[1].players["vp"].equals(runs[2].players["vp"])


def test_posterior_refuses_bad_arguments_in_one_line(finished):
    with pytest.raises(cargo_sim.CargoSimError, match="not a candidate"):
        belief.posterior(finished, 1, opponent="random")
    with pytest.raises(cargo_sim.CargoSimError, match="tremble"):
        belief.posterior(finished, 1, tremble=0.0)
