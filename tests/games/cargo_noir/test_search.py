"""The search bots (flatmc, ismcts): fair information, reproducibility, legal play, strength."""
import numpy as np
import pytest

import cargo_sim
from cargo_sim import BotError
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.bots import registry
from cargo_sim.games.cargo_noir.forward import GameState

ISM = "ismcts?iterations=40"
ISM2 = "ismcts?iterations=40&threads=2"     # root-parallel: two trees of 20 iterations
FMC = "flatmc?rollouts=2"
ISM_CUT = "ismcts?iterations=40&horizon=1"  # playouts cut a turn after the decision's, then scored


def to_decision_of(st: GameState, seat: int, skip: int = 0) -> GameState:
    """Step with the bots' own answers until `seat`'s (skip+1)-th decision from here."""
    while True:
        if st.decision.seat == seat:
            if skip == 0:
                return st
            skip -= 1
        st.step_vector(*st.bot_answer())


@pytest.mark.parametrize("bot", [ISM, ISM2, FMC, ISM_CUT])
def test_decision_ignores_the_hidden_chance_stream_and_leaves_the_game_as_it_was(bot):
    st = to_decision_of(GameState([bot, "greedy", "random"], seed=11, game=1), 0, skip=4)
    other = st.clone()
    other.s[e.M_RNG] ^= 0x5DEECE66D           # the bag's future draws differ
    before = st.s.copy()
    a, out_a = st.bot_answer()
    b, out_b = other.bot_answer()
    assert (a, list(out_a)) == (b, list(out_b))
    # the search put the game back: only the answer's vector s[OUT...] may differ
    changed = np.flatnonzero(st.s[:e.STATE_SIZE] != before[:e.STATE_SIZE])
    assert all(e.OUT <= i < e.OUT + e.OUT_W for i in changed), changed


@pytest.mark.parametrize("bot", [ISM, FMC])
def test_decision_ignores_who_the_opponents_are(bot):
    # the first decision of a game is seat 0's, before anyone else has played:
    # the same public state whoever sits at the other seats
    answers = set()
    for others in (["greedy", "random"], ["sniper", "expert"], ["random", "random"]):
        st = GameState([bot] + others, seed=3, game=0)
        a, out = st.bot_answer()
        answers.add((a, tuple(out)))
    assert len(answers) == 1


@pytest.mark.slow
def test_search_games_are_reproducible_for_any_threads_and_chunks():
    mix = [FMC, "random", ISM]
    a = cargo_sim.simulate(4, mix, seed=8, workers=1, progress=False)
    b = cargo_sim.simulate(4, mix, seed=8, workers=2, chunk_size=1, progress=False)
    assert a.players.equals(b.players) and a.games.equals(b.games)
    # a stepped game with the same bots is the simulated one (the search's stream
    # does not depend on the game's place in a chunk or on the event log)
    st = GameState(mix, seed=8, game=3)
    while not st.is_over:
        st.step_vector(*st.bot_answer())
    rows = a.players[a.players.game == 3].sort_values("seat")
    assert st.returns()["vp"] == list(rows["vp"])


@pytest.mark.parametrize("mix", [["ismcts?iterations=6", "greedy"],
                                 ["random", "flatmc?rollouts=1&bids=2", "expert",
                                  "ismcts?iterations=4&opp_widen=0"],
                                 ["ismcts?iterations=3&opponent=random&rollout=random"] * 5])
def test_search_bots_play_legal_games(mix):
    res = cargo_sim.simulate(2, mix, seed=2, progress=False, events=True)
    assert len(res.games) == 2 and res.games["winners_mask"].gt(0).all()
    assert set(res.players["bot"]) == set(mix)


def test_root_parallel_search_is_reproducible_and_its_own_search():
    # the same seed and thread count: the same game; a decision with 2 trees of 20
    # iterations is a different search from 1 tree of 40 (not the same answers everywhere)
    mix = ["ismcts?iterations=8&threads=2", "greedy"]
    a = cargo_sim.simulate(1, mix, seed=5, progress=False)
    b = cargo_sim.simulate(1, mix, seed=5, progress=False)
    assert a.players.equals(b.players) and a.games.equals(b.games)
    answers = {1: [], 2: []}
    for threads in (1, 2):
        st = GameState([f"ismcts?iterations=40&threads={threads}", "greedy"], seed=9)
        for _ in range(12):
            st = to_decision_of(st, 0)
            ans = st.bot_answer()
            answers[threads].append((ans[0], tuple(ans[1])))
            st.step_vector(*ans)
    assert answers[1] != answers[2]


def test_bot_valued_parameters_are_given_by_name():
    p = cargo_sim.player("ismcts?iterations=100&opponent=sniper")
    assert p.label == "ismcts?iterations=100&opponent=sniper"
    assert p.values[1] == registry.BUILTIN_ORDER.index("sniper")
    for bad in ("ismcts?opponent=ismcts", "ismcts?opponent=nobody", "flatmc?rollout=1.5"):
        with pytest.raises(BotError, match="built-in bot"):
            cargo_sim.player(bad)
    assert "ismcts" in cargo_sim.bot_names() and "ismcts" not in cargo_sim.bot_names(search=False)
    assert not any(registry.BUILTIN[b].search for b in registry.default_players(5) if b in registry.BUILTIN)


def test_determinize_resamples_only_the_chance_stream():
    st = to_decision_of(GameState(["greedy", "random"], seed=4), 1, skip=3)
    d1, d2, d3 = st.determinize(1, seed=5), st.determinize(1, seed=5), st.determinize(1, seed=6)
    assert np.array_equal(d1.s, d2.s)
    diff = np.flatnonzero(d1.s != st.s)
    assert list(diff) == [e.M_RNG] and d3.s[e.M_RNG] != d1.s[e.M_RNG]
    with pytest.raises(cargo_sim.ConfigError):
        st.determinize(2, seed=5)


@pytest.mark.slow
def test_ismcts_beats_random_seat_rotated():
    res = [cargo_sim.simulate(3, mix, seed=21, progress=False)
           for mix in (["ismcts?iterations=100", "random"], ["random", "ismcts?iterations=100"])]
    share = np.mean([r.players[r.players.bot.str.startswith("ismcts")]["win_share"].mean() for r in res])
    assert share >= 5 / 6


def test_search_bots_are_reachable_from_the_cli_and_tournaments(capsys):
    from cargo_sim.cli import main
    assert main(["simulate", "-n", "2", "-p", "ismcts?iterations=4&opponent=sniper,expert",
                 "--no-progress"]) == 0
    assert "ismcts?iterations=4&opponent=sniper" in capsys.readouterr().out
    t = cargo_sim.tournament(["flatmc?rollouts=1&bids=1", "greedy"], n_players=2, games=2, seed=1,
                             progress=False)
    assert len(t.standings) == 2
    assert main(["bots", "-v"]) == 0
    assert "opponent=greedy" in capsys.readouterr().out


def test_the_tree_can_always_follow_the_rollout_bot():
    # ismcts orders and widens its options from the rollout bot's answer: that answer
    # (a bid no bucket holds included) must be one of the options, at every kind of decision
    from cargo_sim.games.cargo_noir.bots.searchkit_nb import (begin_search_nb, options_nb,
                                                              policy_option_nb, search_buffers_nb)
    st = GameState(["ismcts?rollout=banker&bids=1", "expert"], seed=5)
    twin = GameState(["banker", "expert"], seed=5)       # the same game, banker at seat 0
    kinds = set()
    while not st.is_over:
        a, out = twin.bot_answer()
        if st.decision.seat == 0:
            s = st.s.copy()
            root, base, _, rows, key, ans, bid, vec, keep = search_buffers_nb()
            assert begin_search_nb(s, 0, root, base)
            n, is_vec = options_nb(s, 0, 1, rows, key, ans, bid, vec, keep)
            k, n2 = policy_option_nb(s, 0, n, is_vec, key, ans, bid, vec, keep)
            assert n2 in (n, n + 1) and 0 <= k < n2 and ans[k] == a
            if is_vec and not (st.decision.code == e.D_TRADE and a == 0):
                assert list(vec[k]) == list(out)
            elif st.decision.code == e.D_SEND and a >= e.LOC_PORT0:
                assert bid[k] == out[0]
            kinds.add((st.decision.code, n2 > n))
        st.step_vector(a, out)
        twin.step_vector(a, out)
    # banker bids above the least legal bid late in the game: an option of its own
    assert {e.D_SEND, e.D_TRADE} <= {k for k, _ in kinds} and (e.D_SEND, True) in kinds


@pytest.mark.parametrize("bad, rng", [
    ("ismcts?widen_exp=50", "from 0 to 1"), ("ismcts?widen_exp=-0.1", "from 0 to 1"),
    ("ismcts?iterations=0", "whole number from 1 to 100000"),
    ("ismcts?iterations=1e6", "whole number from 1 to 100000"),
    ("ismcts?iterations=2.5", "whole number from 1 to 100000"),
    ("ismcts?bids=9", "whole number from 1 to 8"), ("flatmc?bids=0", "whole number from 1 to 8"),
    ("flatmc?rollouts=-1", "whole number from 1 to 100000"), ("ismcts?c=-1", "from 0 to 100"),
    ("ismcts?widen=1e5", "from 0 to 100"), ("ismcts?opp_widen=-2", "from 0 to 100"),
    ("ismcts?bias=1e4", "from -1000 to 1000"), ("flatmc?vp_weight=-2000", "from -1000 to 1000"),
    ("ismcts?threads=0", "whole number from 1 to 16"), ("ismcts?threads=17", "whole number from 1 to 16"),
    ("ismcts?threads=1.5", "whole number from 1 to 16"),
    ("ismcts?model=3", "whole number from 0 to 2"), ("ismcts?prior=1.5", "from 0 to 1"),
    ("ismcts?tremble=0", "from 0.0001 to 0.9"),
    ("ismcts?horizon=-1", "whole number from 0 to 100"),
    ("ismcts?horizon=1.5", "whole number from 0 to 100"),
])
def test_search_parameters_out_of_range_are_refused_with_the_range(bad, rng):
    name = bad.split("=")[0].split("?")[1]
    with pytest.raises(BotError, match=rf"parameter '{name}' must be .*{rng}, got"):
        cargo_sim.player(bad)


@pytest.mark.parametrize("mix", [
    ["ismcts?iterations=3&widen_exp=1&widen=100&opp_widen=100&c=100&bids=8&bias=1000&vp_weight=1000"
     "&model=2&prior=1&tremble=0.9&horizon=100", "greedy"],
    ["ismcts?iterations=1&widen_exp=0&widen=0&opp_widen=0&c=0&bids=1&bias=-1000&vp_weight=-1000"
     "&model=1&prior=0&tremble=0.0001&horizon=1", "greedy"],
    ["flatmc?rollouts=1&bids=8&vp_weight=-1000", "flatmc?rollouts=1&bids=1&vp_weight=1000"],
])
def test_the_ends_of_the_search_parameters_ranges_play(mix):
    res = cargo_sim.simulate(1, mix, seed=4, progress=False)
    assert res.games["winners_mask"].gt(0).all()


def test_cli_refuses_a_search_parameter_out_of_range_in_one_line(capsys):
    from cargo_sim.cli import main
    rc = main(["simulate", "-n", "1", "-p", "ismcts?widen_exp=50,greedy"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert err.startswith("cargo-sim: error: bot 'ismcts' parameter 'widen_exp' must be a number from 0 to 1")


def test_horizon_is_the_core_slot_after_the_belief_parameters():
    from cargo_sim.core.search.params import SP_HORIZON, search_params
    names = list(registry.SEARCH_PARAMS["ismcts"])
    assert names.index("horizon") == SP_HORIZON and registry.SEARCH_PARAMS["ismcts"]["horizon"][0] == 3
    assert "horizon" not in registry.SEARCH_PARAMS["flatmc"]
    with pytest.raises(ValueError, match="beliefs"):     # its slot comes after theirs
        search_params({"x": (1.0, "x")}, horizon=3)


@pytest.mark.slow          # compiles the scoring kernel for a Python call (~5-14 s cold)
def test_a_cut_playout_is_scored_by_the_holdings():
    from cargo_sim.games.cargo_noir.bots.evaluate_nb import cut_reward_nb
    st = to_decision_of(GameState(["expert", "expert"], seed=2, game=0), 0, skip=6)
    s = st.s.copy()
    r0, r1 = cut_reward_nb(s, 0, 0.0), cut_reward_nb(s, 1, 0.0)
    assert 0.0 < r0 < 1.0 and 0.0 < r1 < 1.0 and abs(r0 + r1 - 1.0) < 1e-9   # 2 players: p and 1 - p
    s[e.PLAYER + e.PL_COINS] += 30                   # seat 0 richer: its chance up, seat 1's down
    assert cut_reward_nb(s, 0, 0.0) > r0 and cut_reward_nb(s, 1, 0.0) < r1
    # vp_weight adds w x the estimated margin, which is seat 1's negated at 2 players and
    # has the sign of the win probability's lead
    d0 = cut_reward_nb(s, 0, 0.01) - cut_reward_nb(s, 0, 0.0)
    d1 = cut_reward_nb(s, 1, 0.01) - cut_reward_nb(s, 1, 0.0)
    assert abs(d0 + d1) < 1e-9 and (d0 > 0) == (cut_reward_nb(s, 0, 0.0) > 0.5)
