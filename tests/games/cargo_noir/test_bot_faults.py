"""User bots at a table: a bot that raises, or indexes out of bounds (checked, the
default), stops the run with a BotError naming the bot, its decision and the
game's seed; an illegal answer is an IllegalDecisionError; a bot delegating
to the heuristic plays the built-in's games.

Every table of user bots compiles their kernel (seconds of CPU, not cached on
disk: the bot below links the heuristic family in), so the behaviours are the
modes of ONE registered bot: every table below shares one compiled kernel (one
more with check_bots)."""
import re

import pytest

import cargo_sim
from cargo_sim.botkit import (D_SEND, LOC_PORT0, OUT, heuristic_decide_nb, param_nb,
                              random_decide_nb)
from cargo_sim.cli import main
from cargo_sim.games.cargo_noir.bots.strategies import PARAMS, strategy_params

pytestmark = pytest.mark.slow      # the first table compiles its kernel (~8 s CPU even with a warm cache)

MODE = len(PARAMS)       # the slot after greedy's parameters (which the heuristic reads)


def t_user(kind, s, seat):
    mode = param_nb(s, seat, MODE)
    if mode == 0:                              # greedy's parameters, the heuristic's answers
        return heuristic_decide_nb(kind, s, seat)
    if kind == D_SEND:
        if mode == 2:
            raise ValueError("my bot broke")
        if mode == 3:
            return s[s.shape[0] + 10**9]       # far outside the state: a crash unchecked
        if mode == 4:
            x = 1
            for step in range(100):            # a search that never finishes, with a step guard
                x = (x * 3) % 7 + 1
                if x == 0:
                    break
            else:
                raise RuntimeError("search did not finish")
        if mode == 5:
            s[OUT] = 0                         # a port needs at least 1 coin
            return LOC_PORT0
    return random_decide_nb(kind, s, seat)     # mode 1: the random bot's answers


CLONE = "t_user"          # mode 0, the default: the label shows changed parameters only
OK, RAISER, FAR_READER, GUARDED, ZERO_BIDDER = (f"t_user?mode={m}" for m in range(1, 6))


@pytest.fixture(scope="module", autouse=True)
def user_bot():
    """Registered for this module only: other tests list every registered bot."""
    cargo_sim.bot("t_user", params={**strategy_params("greedy"), "mode": 0})(t_user)
    yield
    cargo_sim.unregister_bot("t_user")


def fault(label, seat):
    return rf"bot '{re.escape(label)}' \(seat {seat}\) raised an exception in its send ship " \
           r"decision; turn 1 of game 0 \(game seed (\d+);"


def test_a_bots_own_exception_names_bot_decision_and_seed():
    with pytest.raises(cargo_sim.BotError, match=fault(RAISER, 1)) as info:
        cargo_sim.simulate(3, ["random", RAISER], seed=1, progress=False)
    assert "--fast-bots" in str(info.value) and "\n" not in str(info.value)
    seed = int(re.search(fault(RAISER, 1), str(info.value)).group(1))
    assert seed == int(cargo_sim.simulate(1, ["random"] * 2, seed=1, progress=False).games.seed[0])
    with pytest.raises(cargo_sim.BotError, match=f"game seed {seed}"):
        cargo_sim.play_one(seed, ["random", RAISER])


def test_an_out_of_bounds_read_is_a_bot_error_by_default(capsys):
    with pytest.raises(cargo_sim.BotError, match=fault(FAR_READER, 0)):
        cargo_sim.simulate(2, [FAR_READER, "random"], seed=1, progress=False)
    rc = main(["play", "--seed", "1", "--index", "0", "-p", f"{FAR_READER},random"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and f"'{FAR_READER}' (seat 0) raised" in err
    # the old --check-bots is still accepted (it is the default now)
    rc = main(["play", "--seed", "1", "--index", "0", "-p", f"{FAR_READER},random", "--check-bots"])
    assert rc == 2 and f"'{FAR_READER}' (seat 0) raised" in capsys.readouterr().err


def test_wrapped_and_checked_user_bots_play_the_same_games():
    a = cargo_sim.simulate(5, ["random", "random"], seed=4, progress=False)
    b = cargo_sim.simulate(5, [OK, OK], seed=4, progress=False, check_bots=False)
    c = cargo_sim.simulate(5, [OK, OK], seed=4, progress=False)
    assert a.players.drop(columns="bot").equals(b.players.drop(columns="bot"))
    assert b.players.drop(columns="bot").equals(c.players.drop(columns="bot"))


def test_a_step_guarded_loop_stops_the_run_naming_the_bot():
    with pytest.raises(cargo_sim.BotError, match=fault(GUARDED, 0)):
        cargo_sim.play_one(7, [GUARDED, "random"])


def test_user_bot_illegal_answer_is_reported():
    with pytest.raises(cargo_sim.IllegalDecisionError) as info:
        cargo_sim.simulate(5, [ZERO_BIDDER, "greedy"], seed=1, progress=False)
    msg = str(info.value)
    assert ZERO_BIDDER in msg and "send ship" in msg and "game seed" in msg


def test_user_bot_delegating_to_the_heuristic_plays_identical_games():
    """A user bot with greedy's parameters that delegates every decision to the
    heuristic family plays exactly greedy's games, alone or mixed at a table."""
    a = cargo_sim.simulate(40, ["greedy", "greedy", "random"], seed=3, progress=False)
    b = cargo_sim.simulate(40, [CLONE, "greedy", "random"], seed=3, progress=False)
    cols = ["game", "seat", "vp", "coins", "ports_won", "trades", "raises"]
    assert (a.players[cols].values == b.players[cols].values).all()
    assert (b.players.bot.astype(str) == [CLONE, "greedy", "random"] * 40).all()
