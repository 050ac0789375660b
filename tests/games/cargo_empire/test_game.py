"""Cargo Empire through the core: simulate and the CLI with --game cargo_empire, the same
games whatever the threads or chunks, the invariants after every step of random games,
the forward model equals the simulated game, determinize resamples only what a seat
cannot see, a user bot sees only its seat's secrets, the bots' strength, the direct
random kernel plays the general kernel's games, and the bench's report."""
import numpy as np
import pytest

import cargo_sim
from cargo_sim.cli import main
from cargo_sim.core import userbots
from cargo_sim.core.contract import get_game
from cargo_sim.games.cargo_empire import enums as E
from cargo_sim.games.cargo_empire.bots.random_nb import random_decide_nb
from cargo_sim.games.cargo_empire.engine_nb import pb
from cargo_sim.games.cargo_empire.forward import GameState

GAME = get_game("cargo_empire")
RULES = GAME.Rules.default()


def sim(n, players, seed=0, **kw):
    return cargo_sim.simulate(n, players, seed=seed, progress=False, game="cargo_empire", **kw)


def test_same_games_for_any_threads_and_chunks_and_a_valid_results_table():
    a = sim(40, ["random", "expert", "upgrader"], seed=3, workers=1, chunk_size=40)
    b = sim(40, ["random", "expert", "upgrader"], seed=3, workers=2, chunk_size=7)
    assert a.games.equals(b.games) and a.players.equals(b.players)
    p = a.players
    assert (p.groupby("game")["win_share"].sum() == 1).all()
    assert (p["vp"] == p["dev_vp"] + p["lv3_vp"] + p["card_vp"] + p["mission_vp"]).all()
    assert set(p["rank"]) <= {1, 2, 3}


@pytest.mark.parametrize("n", [2, 5])
def test_random_games_keep_the_invariants_after_every_step(n):
    steps = 0
    for g in range(3):
        st = GameState(["random"] * n, seed=11, game=g, rules=RULES)
        while not st.is_over:
            st.apply(st.bot_answer())
            steps += 1
            assert GAME.invariants(st.s, RULES) == [], (g, steps)
    broken = st.s.copy()
    broken[E.G_CUBES] = 7
    assert GAME.invariants(broken, RULES) != []


def test_stepping_with_the_forward_model_is_the_simulated_game():
    players = ["expert", "random", "collector", "racer"]
    res = sim(3, players, seed=13)
    cols = list(E.PLAYER_FIELDS)
    for g in range(3):
        st = GameState(players, seed=13, game=g)
        twin = st.clone()
        while not st.is_over:
            st.apply(st.bot_answer())
        assert not twin.is_over
        rows = res.players.loc[res.players["game"] == g, cols].to_numpy(np.int64)
        np.testing.assert_array_equal(st.stats(), rows)


def test_determinize_resamples_only_what_the_seat_cannot_see():
    st = GameState(["random"] * 3, seed=5, game=1)
    while st.decision.kind != "deliver" or st.turn < 2:
        st.apply(st.bot_answer())
    seat = st.decision.seat
    d = st.determinize(seat, seed=9)
    a, b = st.s, d.s
    same = [E.G_TILE, E.G_LV, E.G_CUBES, E.G_PUBLIC, E.G_DEVSIDE]
    for at in same:
        np.testing.assert_array_equal(a[at:at + 8], b[at:at + 8])
    own = pb(seat)
    np.testing.assert_array_equal(a[own:own + E.PW], b[own:own + E.PW])
    assert a[E.G_DECK_N] == b[E.G_DECK_N]
    ring = lambda s: sorted(int(s[E.G_DECK + (s[E.G_DECK_TOP] + i) % E.MAXC]) for i in range(s[E.G_DECK_N]))
    assert ring(a) == ring(b)
    hidden_a = [int(x) for q in range(3) if q != seat for x in a[pb(q) + E.P_MISS:pb(q) + E.P_MISS + 2]]
    hidden_b = [int(x) for q in range(3) if q != seat for x in b[pb(q) + E.P_MISS:pb(q) + E.P_MISS + 2]]
    decks = [d.determinize(seat, seed=k).s for k in range(6)]
    assert any(not np.array_equal(x[E.G_DECK:E.G_DECK + E.MAXC], a[E.G_DECK:E.G_DECK + E.MAXC]) for x in decks)
    assert len(hidden_a) == len(hidden_b)


MISS0, MISS1 = pb(0) + E.P_MISS, pb(1) + E.P_MISS


def peek(kind, s, seat):
    """Answers illegally (-7) if it sees the other seat's mission or not its own."""
    mine, theirs = (MISS0, MISS1) if seat == 0 else (MISS1, MISS0)
    if kind == E.D_DELIVER and (s[mine] < 0 or s[theirs] >= 0):
        return -7
    return random_decide_nb(kind, s, seat)


def test_a_user_bot_sees_its_own_missions_and_not_the_others():
    userbots.bot("empire_peek", game="cargo_empire")(peek)
    try:
        res = sim(3, ["empire_peek", "random"], seed=1)
    finally:
        userbots.unregister("empire_peek", game="cargo_empire")
    assert len(res.games) == 3


def test_the_cli_plays_and_narrates_cargo_empire(capsys, tmp_path):
    assert main(["simulate", "--game", "cargo_empire", "--players", "expert,random", "--games", "20",
                 "--no-progress"]) in (0, None)
    out = capsys.readouterr().out
    assert "expert" in out and "forced passes" in out
    main(["play", "--game", "cargo_empire", "--players", "expert,random", "--seed", "2"])
    out = capsys.readouterr().out
    assert "delivers" in out and "scores" in out
    path = tmp_path / "map.toml"
    from .test_rules_data import SMALL_MAP      # a printed map (the rules doc's example)
    path.write_text("map_cities = 4\n" + SMALL_MAP)
    main(["simulate", "--game", "cargo_empire", "--players", "random,random", "--games", "5",
          "--rules", str(path), "--no-progress"])
    assert "5 games" in capsys.readouterr().out


def test_expert_beats_random_and_the_named_strategies_play():
    res = sim(300, ["expert", "random"], seed=21)
    assert res.summary()["win_rate"][0] >= 0.95
    res = sim(40, ["shortest", "upgrader", "racer", "missioner", "collector"], seed=2)
    assert res.players["vp"].mean() > 20


@pytest.mark.slow
def test_the_core_search_bots_play_cargo_empire():
    """flatmc and ismcts through the core, bound to the game's search kit (a small budget:
    this checks the plumbing and that a search is no worse than random)."""
    res = sim(4, ["ismcts?iterations=30", "random"], seed=1, workers=1)
    assert res.summary()["win_rate"][0] >= 0.75
    res = sim(2, ["flatmc?rollouts=20", "expert"], seed=2, workers=1)
    assert len(res.games) == 2


def test_the_direct_random_kernel_plays_the_games_of_the_general_one():
    """Tables of `random` only run run_random_games_nb (the bot called directly, one
    delivery list): the same rows and events as run_games_nb asking through the table."""
    from cargo_sim.games.cargo_empire.chunk_nb import run_games_nb, run_random_games_nb
    from cargo_sim.games.cargo_empire.simulate import table_template
    from cargo_sim.core.seeds_nb import game_seeds
    from cargo_sim.core.runner import ERR_SIZE
    seeds = game_seeds(4, 0, 6)
    out = []
    for n in (2, 5):
        template, decide = table_template(RULES, [GAME.bots.parse("random")] * n)
        for kernel in ("direct", "general"):
            games = np.zeros((6, len(E.GAME_FIELDS)), np.int64)
            players = np.zeros((6, n, len(E.PLAYER_FIELDS)), np.int32)
            log = np.zeros((6 * n * GAME.event_rows_per_seat, E.N_EVENT_FIELDS), np.int64)
            err = np.full(ERR_SIZE, -1, np.int64)
            if kernel == "direct":
                ok = run_random_games_nb(template, seeds, games, players, log, err)
            else:
                ok = run_games_nb(template, decide, seeds, games, players, log, err)
            assert ok
            out.append((games, players, log[:err[E.ERR_EVENTS]]))
    for (a, b) in ((out[0], out[1]), (out[2], out[3])):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    assert out[0][0][:, 2].min() > 30                  # whole games: dozens of decisions each


def test_the_bench_reports_random_at_each_table_size_and_experts_share_at_four():
    """bench.kernel_rates on a stand-in for the kernel's rate: every size timed, the
    share from the 4-player rates of the same repeats, the targets named."""
    from cargo_sim.games.cargo_empire import bench
    calls = []

    def rate(n, games, workers, seed, bot, game):
        calls.append((n, bot, game))
        return {"random": 1000.0 * n, "expert": 300.0}[bot] + seed
    got = bench.kernel_rates(rate, repeat=2, seconds=0.01)
    assert got["random"] == {n: 1000.0 * n + 3 for n in (2, 3, 4, 5)}
    assert got["expert"] == 303 and got["expert_share"] == pytest.approx(303 / 4003)
    assert {c[2] for c in calls} == {"cargo_empire"} and (4, "expert", "cargo_empire") in calls
    assert "10,000" in got["lines"][0] and "20%" in got["lines"][1]
