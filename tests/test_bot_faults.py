"""A user bot that raises, or indexes out of bounds in check mode, stops the run
with a BotError naming the bot, its decision and the game's seed."""
import re

import pytest

import cargo_sim
from cargo_sim.botkit import D_SEND, random_decide_nb
from cargo_sim.cli import main


def t_raiser(kind, s, seat):
    if kind == D_SEND:
        raise ValueError("my bot broke")
    return random_decide_nb(kind, s, seat)


def t_far_reader(kind, s, seat):
    if kind == D_SEND:
        return s[s.shape[0] + 10**9]          # far outside the state: a crash unchecked
    return random_decide_nb(kind, s, seat)


@pytest.fixture(scope="module", autouse=True)
def user_bots():
    """Registered for this module only: other tests list every registered bot."""
    bots = {"t_raiser": t_raiser, "t_far_reader": t_far_reader, "t_ok": t_ok,
            "t_guarded": t_guarded}
    for name, fn in bots.items():
        cargo_sim.bot(name)(fn)
    yield
    for name in bots:
        cargo_sim.unregister_bot(name)


FAULT = r"bot '{}' \(seat {}\) raised an exception in its send ship decision; turn 1 of game 0 " \
        r"\(game seed (\d+);"


def test_a_bots_own_exception_names_bot_decision_and_seed():
    with pytest.raises(cargo_sim.BotError, match=FAULT.format("t_raiser", 1)) as info:
        cargo_sim.simulate(3, ["random", "t_raiser"], seed=1, progress=False)
    assert "--check-bots" in str(info.value)
    seed = int(re.search(FAULT.format("t_raiser", 1), str(info.value)).group(1))
    assert seed == int(cargo_sim.simulate(1, ["random"] * 2, seed=1, progress=False).games.seed[0])
    with pytest.raises(cargo_sim.BotError, match=f"game seed {seed}"):
        cargo_sim.play_one(seed, ["random", "t_raiser"])


def test_check_bots_turns_an_out_of_bounds_read_into_a_bot_error(capsys):
    with pytest.raises(cargo_sim.BotError, match=FAULT.format("t_far_reader", 0)):
        cargo_sim.simulate(2, ["t_far_reader", "random"], seed=1, progress=False, check_bots=True)
    rc = main(["play", "--seed", "1", "--game", "0", "-p", "t_far_reader,random", "--check-bots"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "'t_far_reader' (seat 0) raised" in err


def t_ok(kind, s, seat):
    return random_decide_nb(kind, s, seat)


@pytest.mark.slow
def test_wrapped_and_checked_user_bots_play_the_same_games():
    a = cargo_sim.simulate(5, ["random", "random"], seed=4, progress=False)
    b = cargo_sim.simulate(5, ["t_ok", "t_ok"], seed=4, progress=False)
    c = cargo_sim.simulate(5, ["t_ok", "t_ok"], seed=4, progress=False, check_bots=True)
    assert a.players.drop(columns="bot").equals(b.players.drop(columns="bot"))
    assert b.players.drop(columns="bot").equals(c.players.drop(columns="bot"))


def t_guarded(kind, s, seat):
    if kind == D_SEND:
        x = 1
        for step in range(100):        # a search that never finishes, with a step guard
            x = (x * 3) % 7 + 1
            if x == 0:
                break
        else:
            raise RuntimeError("search did not finish")
    return random_decide_nb(kind, s, seat)


@pytest.mark.slow
def test_a_step_guarded_loop_stops_the_run_naming_the_bot():
    with pytest.raises(cargo_sim.BotError, match=FAULT.format("t_guarded", 0)):
        cargo_sim.play_one(7, ["t_guarded", "random"])
