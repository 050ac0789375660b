"""The contract test suite: every registered game, and a toy game registered only
here, must pass it through the same core runner (docs/contract.md, section 4).

Determinism for any worker count and chunk size; prefix stability; illegal answers
as one-line errors naming bot, decision and game; random-bot fuzzing with the game's
invariants hook; a game stepped answer by answer with the forward model equals the
simulated game. Plus: the core names no piece of any game.
"""
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import njit

import cargo_sim
from cargo_sim import CargoSimError, ConfigError
from cargo_sim.botkit import D_SEND, random_decide_nb
from cargo_sim.cli import main
from cargo_sim.core import runner
from cargo_sim.core.contract import (CAPABILITIES, Game, GameBase, check_columns, game_names,
                                     get_game, missing_members, offers, optional, register_game,
                                     require, unregister_game)

from . import toy_game

CORE = Path(cargo_sim.__file__).parent / "core"


@njit(cache=True)
def contract_bad_nb(kind, s, seat):
    """Seat 1 sends its ships nowhere (an illegal destination); the others play at random."""
    return -5 if kind == D_SEND and seat == 1 else random_decide_nb(kind, s, seat)


@pytest.fixture(scope="module", autouse=True)
def games():
    """The toy game, for this module only."""
    register_game(toy_game.TOY)
    yield
    unregister_game(toy_game.TOY.name)


@pytest.fixture
def cargo_noir_bad_bot(monkeypatch):
    """Cargo Noir's seat 1 answers illegally: a registered bot 'contract_bad' whose table
    plays contract_bad_nb (cached on disk: a user bot's own table would compile the
    whole heuristic family, minutes on a cold cache)."""
    game = get_game("cargo_noir")
    real = game.table_template
    cargo_sim.bot("contract_bad")(contract_bad_nb)

    def table_template(rules, players, check_bots=False):
        template, _ = real(rules, [game.bots.parse("random")] * len(players))
        return template, contract_bad_nb

    monkeypatch.setattr(game, "table_template", table_template)
    yield
    cargo_sim.unregister_bot("contract_bad")


@pytest.fixture
def macao_bad_bot():
    """Macao's seat 1: a user bot answering -5 (never a legal answer)."""
    from cargo_sim.core import userbots
    userbots.bot("macao_bad", game="macao")(lambda kind, s, seat: -5)
    yield
    userbots.unregister("macao_bad", game="macao")


@pytest.fixture
def shipwrights_bad_bot():
    """Shipwrights' seat 1: a user bot answering -5 (never a legal answer)."""
    from cargo_sim.core import userbots
    userbots.bot("shipwrights_bad", game="shipwrights")(lambda kind, s, seat: -5)
    yield
    userbots.unregister("shipwrights_bad", game="shipwrights")


@pytest.fixture
def cargo_empire_bad_bot():
    """Cargo Empire's seat 1: a user bot answering -5 (never a legal answer)."""
    from cargo_sim.core import userbots
    userbots.bot("empire_bad", game="cargo_empire")(lambda kind, s, seat: -5)
    yield
    userbots.unregister("empire_bad", game="cargo_empire")


# per game: a table of bots (random ones where the game has them) and one with a bot
# that answers illegally (its label, the decision it gets wrong)
CASES = {
    "cargo_noir": dict(players=["random", "random", "random"],
                       illegal=(["random", "contract_bad"], "contract_bad", "send ship")),
    "macao": dict(players=["random", "random", "random"],
                  illegal=(["random", "macao_bad"], "macao_bad", "start colour")),
    "shipwrights": dict(players=["random", "random", "random"],
                        illegal=(["random", "shipwrights_bad"], "shipwrights_bad", "start goods")),
    "cargo_empire": dict(players=["random", "random", "random"],
                         illegal=(["random", "empire_bad"], "empire_bad", "mission")),
    "toy_race": dict(players=["random", "cautious?margin=5", "random"],
                     illegal=(["random", "cheat"], "cheat", "pick")),
}
ALL = sorted(set(CASES) | {"toy_race"})


def test_every_registered_game_has_a_case_here():
    """A game added to the library must be added to this suite."""
    assert set(game_names()) <= set(CASES), set(game_names()) - set(CASES)
    assert "toy_race" in game_names()        # registered by this module only


@pytest.mark.parametrize("name", ALL)
def test_the_game_object_satisfies_the_protocol(name):
    game = get_game(name)
    assert isinstance(game, Game) and game.name == name
    rules = game.Rules.default()
    for fields in (game.game_fields(rules), game.player_fields(rules)):
        assert len(fields.names) == len(set(fields.names)) and np.dtype(fields.dtype).kind == "i"
    assert all(isinstance(a, str) for a in (*game.analyses, *game.report_sections))
    assert all(kind in ("t", "wilson") for _, kind in game.sweep_measures.values())
    res = sim(name, 6)
    check_columns(game, res.games, res.players)       # the core columns (core.ratings needs them)
    counts = game.summary_counts(res.games)
    assert all(isinstance(v, int) for v in counts.values())
    assert all(isinstance(line, str) for line in game.summary_lines(counts, 6, rules))


def test_missing_core_columns_are_one_clear_error():
    with pytest.raises(ConfigError, match="players table lacks the core column.*win_share"):
        check_columns(toy_game.TOY, {"game": [], "seed": []},
                      {"game": [], "seat": [], "bot": [], "vp": [], "rank": []})


def test_unknown_game_is_one_clear_error():
    with pytest.raises(ConfigError, match=r"unknown game 'nope'; known games: .*cargo_noir.*toy_race"):
        get_game("nope")
    with pytest.raises(ConfigError, match="does not implement the game contract"):
        register_game(object())


def sim(name, n, players=None, **kw):
    kw.setdefault("progress", False)
    return runner.simulate(name, n, players or CASES[name]["players"], **kw)


def same(a, b):
    pd.testing.assert_frame_equal(a.games.reset_index(drop=True), b.games.reset_index(drop=True))
    pd.testing.assert_frame_equal(a.players.reset_index(drop=True), b.players.reset_index(drop=True))


@pytest.mark.parametrize("name", ALL)
def test_same_games_for_any_workers_and_chunk_size(name):
    one = sim(name, 30, seed=5, workers=1, chunk_size=30)
    same(one, sim(name, 30, seed=5, workers=2, chunk_size=7))
    same(one, sim(name, 30, seed=5, workers=3, chunk_size=1))
    assert len(one.games) == 30 and len(one.players) == 90
    assert one.games["seed"].nunique() == 30 and not one.interrupted


@pytest.mark.parametrize("name", ALL)
def test_game_i_of_a_run_is_game_i_of_a_longer_run(name):
    long = sim(name, 24, seed=9, chunk_size=5, workers=2)
    short = sim(name, 10, seed=9)
    tail = sim(name, 8, seed=9, start=10)
    n = len(CASES[name]["players"])
    pd.testing.assert_frame_equal(short.games, long.games.iloc[:10])
    pd.testing.assert_frame_equal(short.players, long.players.iloc[:10 * n])
    same(tail, type(long)(long.games.iloc[10:18], long.players.iloc[10 * n:18 * n], *_rest(long)))
    assert tail.games["game"].tolist() == list(range(10, 18))
    assert sim(name, 24, seed=10).games["seed"].iloc[0] != long.games["seed"].iloc[0]


def _rest(res):
    return (res.rules, res.config)


@pytest.mark.parametrize("name", ALL)
def test_event_logs_do_not_depend_on_chunks(name):
    """The toy game's first guess of event rows is 1 per game: every chunk overflows
    its log and is replayed with a larger one, and still gives the same events."""
    a = sim(name, 6, seed=2, events=True, chunk_size=6, workers=1).events
    b = sim(name, 6, seed=2, events=True, chunk_size=2, workers=2).events
    pd.testing.assert_frame_equal(a, b)
    assert sorted(a["game"].unique()) == list(range(6))
    text = get_game(name).render_events(a[a["game"] == 0], get_game(name).Rules.default())
    assert text.count("\n") > 2


@pytest.mark.parametrize("name", ALL)
def test_an_illegal_answer_is_one_line_naming_bot_decision_and_game(name, request):
    if name in ("cargo_noir", "macao", "shipwrights", "cargo_empire"):
        request.getfixturevalue(name + "_bad_bot")
    players, bot, decision = CASES[name]["illegal"]
    with pytest.raises(CargoSimError) as info:
        sim(name, 20, players, seed=4, start=7, chunk_size=3, workers=2)
    msg = str(info.value)
    assert "\n" not in msg and f"'{bot}'" in msg and f"illegal {decision} decision" in msg, msg
    g = int(re.search(r"of game (\d+)", msg).group(1))
    assert g == 7                      # the first game of the run (bot answers illegally at once)
    seed = int(re.search(r"game seed (\d+)", msg).group(1))
    assert seed == int(runner.game_seeds(4, 7, 1)[0])


@pytest.mark.parametrize("name", ALL)
def test_random_games_keep_the_invariants_after_every_step(name):
    """Fuzzing through the forward model: the game's invariants hook after each answer
    of random bots, and the hook does find a broken state."""
    game = get_game(name)
    assert game.GameState is not None, f"{name} has no GameState (core/forward.py)"
    rules = game.Rules.default()
    players = ["random"] * 3
    steps = 0
    for g in range(3):
        st = game.GameState(players, seed=21, game=g, rules=rules)
        assert game.invariants(st.s, rules) == []
        while not st.is_over:
            st.apply(st.bot_answer())
            steps += 1
            assert game.invariants(st.s, rules) == [], (g, steps)
    assert steps > 10
    broken = st.s.copy()
    _break(name, broken)
    assert game.invariants(broken, rules) != []


def _break(name, s):
    if name == "toy_race":
        s[toy_game.POS] += 1                     # a position that is not picks + rolls
    elif name == "macao":
        from cargo_sim.games.macao import enums as m
        s[m.G_BANK] += 1                         # a coin from nowhere
    elif name == "shipwrights":
        from cargo_sim.games.shipwrights import enums as w
        s[w.G_DECK_N] -= 1                       # a card lost
    elif name == "cargo_empire":
        from cargo_sim.games.cargo_empire import enums as ce
        s[ce.G_MN] += 1                          # a mission from nowhere
    else:
        from cargo_sim.games.cargo_noir import enums as e
        s[e.M_BANK] += 1                         # a coin from nowhere


@pytest.mark.parametrize("name", ALL)
def test_stepping_with_the_forward_model_is_the_simulated_game(name):
    game = get_game(name)
    assert game.GameState is not None, f"{name} has no GameState (core/forward.py)"
    rules = game.Rules.default()
    players = CASES[name]["players"]
    res = sim(name, 4, seed=13)
    cols = list(game.player_fields(rules).names)
    for g in range(4):
        st = game.GameState(players, seed=13, game=g, rules=rules)
        other = st.clone()
        while not st.is_over:
            st.apply(st.bot_answer())
        assert not other.is_over              # a clone is independent
        rows = res.players.loc[res.players["game"] == g, cols].to_numpy(np.int64)
        np.testing.assert_array_equal(st.stats(), rows)


# ---- the runner itself -----------------------------------------------------------------
def test_ctrl_c_keeps_the_finished_chunks_in_order():
    taken = []

    def take(job, out):
        taken.append(out)
        if len(taken) == 3:
            raise KeyboardInterrupt

    assert runner.run_jobs(range(100), lambda j: j * j, take, workers=2) is True
    assert taken == [0, 1, 4]
    taken.clear()
    with pytest.raises(KeyboardInterrupt):
        runner.run_jobs(range(100), lambda j: j, take, workers=1, interruptible=False)


def test_a_failing_job_stops_the_run_with_its_error():
    def work(j):
        if j == 5:
            raise ConfigError("job 5 failed")
        return j
    taken = []
    with pytest.raises(ConfigError, match="job 5 failed"):
        runner.run_jobs(range(10**9), work, lambda j, r: taken.append(r), workers=2)
    assert taken == [0, 1, 2, 3, 4]            # lazily generated jobs: 10^9 cost nothing


def test_the_progress_bar_names_the_game_table(capsys):
    sim("toy_race", 5, progress=True)
    assert "simulate: 3 players (random, cautious?margin=5, random), 5 games" in capsys.readouterr().err


# ---- the core knows no game ---------------------------------------------------------------
GAME_WORDS = re.compile(r"cargo[ _]noir|\bports?\b|\bcards?\b|\bcoins?\b|\bships?\b|\bbids?\b|"
                        r"\btokens?\b|\bbank\b|\bcasino\b", re.I)


def test_the_core_names_no_piece_of_a_game():
    found = [(p.name, m.group(0)) for p in sorted(CORE.rglob("*.py"))
             for m in GAME_WORDS.finditer(p.read_text())]
    assert found == []
    for p in CORE.rglob("*.py"):         # only the list of built-in games, never a game's module
        assert not re.search(r"from \.\.games\.|import cargo_sim\.games\.", p.read_text()), p.name


# ---- --game on the CLI and game= in the API -----------------------------------------------
def test_cli_game_option(capsys):
    assert main(["--game", "nope", "bots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game 'nope'; known games: cargo_noir" in err
    assert main(["--game", "toy_race", "simulate", "-n", "12", "-p", "random,cautious",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean turns" in out          # the toy's own summary line
    assert main(["--game", "toy_race", "tournament", "-p", "random,cautious", "--seats", "2",
                 "-n", "40", "--no-progress"]) == 0
    assert "toy_race" not in capsys.readouterr().err


def test_api_game_argument():
    a = cargo_sim.simulate(8, ["random", "cautious"], seed=3, progress=False, game="toy_race")
    b = sim("toy_race", 8, ["random", "cautious"], seed=3)
    same(a, b)
    with pytest.raises(ConfigError, match="unknown game"):
        cargo_sim.simulate(1, ["random"] * 2, game="nope")
    with pytest.raises(ConfigError, match="toy_race offers no aggregate counters"):
        cargo_sim.aggregate(10, ["random"] * 2, game="toy_race")


# ---------------------------------------------------------------------------
# optional capabilities: one mechanism (core.contract.require), one line each
class Bare(toy_game.Toy):
    """The toy without any optional capability: GameBase's defaults."""
    name = "toy_bare"
    forward = None
    GameState = None
    sweep_measures = GameBase.sweep_measures
    sweep_units = GameBase.sweep_units


def test_gamebase_gives_every_optional_capability_absent():
    bare = Bare()
    assert not missing_members(bare) and isinstance(bare, Game)
    for cap in CAPABILITIES:
        assert not offers(bare, cap), cap
    assert optional(bare, "sweep_units")(None) == {} and GameBase.summary_counts(bare, None) == {}
    assert GameBase.summary_lines(bare, {}, 1, None) == []
    assert bare.rules_type_name == "ToyRules" and repr(bare) == "<game toy_bare>"
    # the default size: 2 core + 3 int64 game fields; 24 core bytes + 4 int32 fields a seat
    assert bare.table_bytes(10, 3) == 10 * (16 + 24 + 3 * (24 + 16))


@pytest.mark.parametrize("cap", sorted(CAPABILITIES))
def test_a_missing_capability_is_one_line_naming_the_game_and_what_it_lacks(cap):
    members, what, _ = CAPABILITIES[cap]
    with pytest.raises(ConfigError) as e:
        require(Bare(), cap)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"game toy_bare offers no {what}: ")
    # a game object that is not a GameBase: the same line, read with the absent defaults
    plain = type("Plain", (), {"name": "plain", "title": "Plain"})()
    with pytest.raises(ConfigError, match=f"game plain offers no {re.escape(what)}"):
        require(plain, cap)
    assert optional(plain, members[0]) == getattr(GameBase, members[0])


@pytest.mark.parametrize("name", ["cargo_noir", "macao", "shipwrights", "cargo_empire"])
def test_the_library_games_offer_what_their_commands_need(name):
    game = get_game(name)
    want = set(CAPABILITIES)         # every game offers every capability
    assert {c for c in CAPABILITIES if offers(game, c)} == want


def test_commands_the_toy_cannot_serve_say_so_in_one_line(tmp_path, capsys):
    """The toy lacks counters, replay, report, robustness study and benchmarks (each one
    command's error is in tests/runners/test_toy_everywhere.py and tests/analyses); here
    the ladder without a forward model and the benchmark without its own module."""
    from cargo_sim.bench.main import forward_rates
    from cargo_sim.runners.ladder import search_rate
    with pytest.raises(ConfigError, match="game toy_race offers no benchmarks of its own"):
        forward_rates(game="toy_race")
    register_game(Bare())
    try:
        with pytest.raises(ConfigError, match="game toy_bare offers no forward model"):
            search_rate("random", 2, decisions=1, game="toy_bare")
        code = main(["--game", "toy_bare", "play", "--seed", "1", "--html", str(tmp_path / "x.html")])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "toy_bare offers no replay page" in err
        assert not (tmp_path / "x.html").exists()
    finally:
        unregister_game("toy_bare")
