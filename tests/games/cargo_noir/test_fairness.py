"""A bot sees only what a player sees (docs/safety.md, "What a bot can see").

Bots written to cheat through the botkit accessors and raw indexing
(cheats.py): predicting or steering the chance stream gains nothing, other
seats' parameters are refused or read 0, writes to the state are undone or
(checked mode) stop the game naming the bot, bad indices and runaway loops
are BotErrors, never a crash or a hang. Random bots draw from their seat's own
stream. The crash-prone cases run in a subprocess, so a segfault fails a test
instead of killing pytest."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cargo_sim
from cargo_sim import BotError
from cargo_sim.core.rng_nb import rand_below_at_nb
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.forward import GameState

from . import cheats
from .cheats import NOTE, label

pytestmark = pytest.mark.slow      # the cheating bot's kernel compiles (~10 s CPU, twice: fast and checked)


@pytest.fixture(scope="module", autouse=True)
def cheat_bot():
    cheats.register()
    yield
    cheats.unregister()


def events(players, n=4, seed=5, check=False):
    return cargo_sim.simulate(n, players, seed=seed, progress=False, events=True,
                              check_bots=check, workers=1).events


def draws(ev):
    """The chance stream as the game shows it: every token drawn from the bag
    (Black Market draws, and the cargo of the ports refilled after a win)."""
    keep = ev["action"].isin(["black market draw", "port win", "bag refill"])
    return ev[keep].drop(columns=["bot"]).reset_index(drop=True)


def test_a_copy_of_the_state_does_not_predict_the_next_bag_draw():
    hits = tries = 0
    for seed in (3, 4):                 # two games: enough draws to tell 1 in 10 from chance
        st = GameState([label(cheats.PREDICT), "greedy"], seed=seed)
        while not st.is_over:
            ans = st.bot_answer()
            if st.decision.seat == 0 and st.s[NOTE + 1] > 0:
                total = int(st.s[NOTE + 1])
                # the value the engine's next draw takes: rand_below(bag total) of the real stream
                truth = rand_below_at_nb(st.s[e.M_RNG:e.M_RNG + 1].copy(), 0, total)
                hits += int(st.s[NOTE]) == truth
                tries += 1
                assert st.s[NOTE + 2] == 0 and st.s[NOTE + 3] == 0     # M_RNG, M_BOT_SEED read 0
                assert st.s[NOTE + 7] == 0                              # and so does M_SEAT_KEY
            st.step_vector(*ans)
    assert tries > 50
    assert hits / tries < 0.1, (hits, tries)      # chance: about 1 / (tokens in the bag)


def test_drawing_on_the_real_state_does_not_steer_the_bag():
    honest = events([label(cheats.HONEST), "random", "expert"])
    steer = events([label(cheats.STEER), "random", "expert"])
    assert len(draws(honest)) > 20
    # the same answers, so the same games: the burnt draws moved nothing
    assert draws(honest).equals(draws(steer))
    assert honest.drop(columns="bot").equals(steer.drop(columns="bot"))
    # and the honest cheat plays greedy's games exactly
    greedy = events(["greedy", "random", "expert"])
    assert greedy.drop(columns="bot").equals(honest.drop(columns="bot"))


def test_another_seats_parameters_are_refused_or_read_zero():
    with pytest.raises(BotError, match=r"'t_cheat\?mode=4' \(seat 0\) asked for the parameters of "
                                       r"seat 1 .* reads only its own seat's"):
        cargo_sim.play_one(1, [label(cheats.PARAM_OTHER), "expert"])
    st = GameState([label(cheats.READ_RAW), "expert", "ismcts?iterations=5"], seed=2)
    st.bot_answer()
    assert st.s[NOTE + 4] == 0 and st.s[NOTE + 6] == 0      # other seats' bots, parameters, search marks
    assert st.s[NOTE + 5] > 0                                 # its own parameters are there
    assert st.s[e.PARAMS + e.N_PARAMS] != 0 and st.s[e.R_SEARCH] != 0   # and put back after the call


@pytest.mark.parametrize("mode, what", [
    (cheats.WRITE_COINS, "wrote to coins of seat 0"),
    (cheats.WRITE_TURN, r"wrote to the turn counter \(M_TURN\)"),
    (cheats.WRITE_HAND, r"wrote to seat 1's hand \(token type 0\)"),
    (cheats.WRITE_RNG, r"wrote to the game's chance stream \(M_RNG\)"),
])
def test_checked_mode_stops_a_bot_writing_the_state(mode, what):
    with pytest.raises(BotError, match=rf"bot 't_cheat\?mode={mode}' \(seat 0\) {what} \(state word "
                                       r"\d+\) in its send ship decision: a bot may write only its "
                                       r"answer .*; turn 1 of game 0"):
        cargo_sim.simulate(2, [label(mode), "greedy"], seed=1, progress=False)     # checked by default


def test_checked_mode_finds_a_write_to_the_trade_tables_at_the_games_end():
    with pytest.raises(BotError, match=r"a user bot at this table \(t_cheat\?mode=15\) wrote into the "
                                       r"trade tables .* during game 0"):
        cargo_sim.simulate(2, [label(cheats.WRITE_TABLES), "greedy"], seed=1, progress=False,
                           check_bots=True)


def test_a_write_to_the_chance_stream_is_undone_in_the_fast_mode():
    honest = events([label(cheats.HONEST), "random"])
    writer = events([label(cheats.WRITE_RNG), "random"])
    assert honest.drop(columns="bot").equals(writer.drop(columns="bot"))


def test_the_checked_mode_plays_the_fast_modes_games():
    a = events([label(cheats.HONEST), "random", "greedy"])
    b = events([label(cheats.HONEST), "random", "greedy"], check=True)
    assert a.equals(b)


def test_botkit_refuses_bad_indices_and_rand_bounds_in_the_fast_mode():
    with pytest.raises(BotError, match=r"called a botkit function with an index out of range "
                                       r"\(1000000000\) in its send ship decision"):
        cargo_sim.play_one(1, [label(cheats.FAR_ACCESSOR), "greedy"])
    with pytest.raises(BotError, match=r"index out of range \(-7\)"):
        cargo_sim.play_one(1, [label(cheats.NEG_ACCESSOR), "greedy"])
    with pytest.raises(BotError, match=r"rand_below_nb\(s, n\) with n = 0"):
        cargo_sim.play_one(1, [label(cheats.RAND_ZERO), "greedy"])


def test_a_seats_random_draws_do_not_depend_on_the_other_seats_draws():
    # seat 1 answers as greedy but burns draws (STEER): seat 0's random bot draws
    # from its own stream, so its answers -- and the whole game -- stay greedy's
    a = events(["random", "greedy", "random"], n=6)
    b = events(["random", label(cheats.STEER), "random"], n=6)
    assert a.drop(columns="bot").equals(b.drop(columns="bot"))
    # a random bot that draws 100 more numbers after answering plays random's games
    c = events(["random", label(cheats.RANDOM_BURN), "random"], n=6)
    d = events(["random", "random", "random"], n=6)
    assert c.drop(columns="bot").equals(d.drop(columns="bot"))


def test_random_games_do_not_depend_on_workers_or_chunks():
    a = cargo_sim.simulate(12, ["random"] * 3, seed=9, progress=False, workers=1)
    b = cargo_sim.simulate(12, ["random"] * 3, seed=9, progress=False, workers=2, chunk_size=5)
    assert a.players.equals(b.players) and a.games.equals(b.games)


SUBPROCESS = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {here!r})
    import cargo_sim
    from tests.games.cargo_noir import cheats   # the name this process gives it
    cheats.register()
    for mode in {modes!r}:
        t = time.time()
        try:
            cargo_sim.play_one(1, [cheats.label(mode), "greedy"])      # checked by default
            print(mode, "no error", flush=True)
        except cargo_sim.BotError as exc:
            print(mode, f"{{time.time() - t:.0f}}s", str(exc), flush=True)
""")


def run_cases(modes, timeout):
    """Run the checked cases in a fresh process: (return code, {mode: message})."""
    code = SUBPROCESS.format(here=str(Path(__file__).resolve().parents[3]), modes=list(modes))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=timeout, env=dict(os.environ))
    got = {}
    for line in out.stdout.splitlines():
        mode, _, rest = line.partition(" ")
        got[int(mode)] = rest
    return out.returncode, got, out.stderr[-2000:]


def test_checked_mode_turns_bad_indices_and_runaway_loops_into_bot_errors():
    modes = [cheats.FAR_READ, cheats.NEG_READ, cheats.FAR_ACCESSOR, cheats.LOOP, cheats.LOOP_IN_HELPER]
    rc, got, err = run_cases(modes, timeout=600)
    assert rc == 0, (rc, got, err)              # -11 would be a segmentation fault
    for m in (cheats.FAR_READ, cheats.NEG_READ):
        assert f"'t_cheat?mode={m}' (seat 0) raised an exception in its send ship decision" in got[m]
    assert "index out of range (1000000000)" in got[cheats.FAR_ACCESSOR]
    for m in (cheats.LOOP, cheats.LOOP_IN_HELPER):
        assert f"'t_cheat?mode={m}' (seat 0) ran more than 1,000,000,000 loop steps in its send ship " \
               "decision (a runaway loop?)" in got[m], got[m]


NO_SOURCE = textwrap.dedent("""
    import cargo_sim
    ns = {}
    exec("def t_exec(kind, s, seat):\\n    x = 1\\n    while x > 0:\\n        x = x % 7 + 1\\n"
         "    return x\\n", ns)
    cargo_sim.bot("t_exec")(ns["t_exec"])
    try:
        cargo_sim.play_one(1, ["t_exec", "greedy"])
        print("no error")
    except cargo_sim.BotError as exc:
        print(exc)
""")


def test_a_runaway_loop_in_a_bot_without_source_is_stopped():
    """A bot defined with exec (no source to read) is budgeted like any other: the
    budget is put into numba's IR, not the source."""
    out = subprocess.run([sys.executable, "-c", NO_SOURCE], capture_output=True,
                         text=True, timeout=600, env=dict(os.environ))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "bot 't_exec' (seat 0) ran more than 1,000,000,000 loop steps in its send ship " \
           "decision (a runaway loop?)" in out.stdout, out.stdout


def test_a_tournament_with_a_user_bot_checks_it_by_default():
    with pytest.raises(BotError, match=r"wrote to coins of seat \d"):
        cargo_sim.tournament([label(cheats.WRITE_COINS), "greedy"], 2, games=2, seed=1, progress=False)
    # trusted on request: the writes go unnoticed (the fast mode trusts a bot's writes)
    res = cargo_sim.tournament([label(cheats.WRITE_COINS), "greedy"], 2, games=2, seed=1,
                               progress=False, check_bots=False)
    assert res.config["games_played"] == 2


def test_game_state_checks_user_bots_by_default():
    """The forward model plays a user bot checked unless told to trust it."""
    with pytest.raises(BotError, match=r"wrote to coins of seat \d"):
        GameState([label(cheats.WRITE_COINS), "greedy"], seed=1).playout()
    trusted = GameState([label(cheats.WRITE_COINS), "greedy"], seed=1, check_bots=False).playout()
    assert trusted.is_over
