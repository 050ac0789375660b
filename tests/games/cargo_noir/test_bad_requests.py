"""Bad requests: every input checked, every allocation bounded, one-line
errors. Each case ends as a clear one-line error or a correct result: never a
traceback, hang, silent wrong number or unbounded memory (docs/safety.md, Input
limits)."""
import json
import math
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import cargo_sim
from cargo_sim import BotError, ClusterError, ConfigError, Rules, RulesError
from cargo_sim.cli import main
from cargo_sim.runners.sweep import sweep

R = Rules.default()
P3 = ["greedy"] * 3


def one_line_error(capsys, argv, match):
    """Run the CLI: exit status 2 and one line naming the problem, no traceback."""
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("cargo-sim: error:") and err.count("\n") == 1 and len(err) < 400, err
    assert "Traceback" not in err
    assert match in err, err
    return err


# ---- rules files: [range], [provenance], deep dotted keys -----------------
@pytest.mark.parametrize("text, match", [
    ('[range]\n"turns.2" = [12, 10]\n', "range.turns.2: must be [lo, hi]"),
    ('[range]\n"turns.9" = [10, 12]\n', "range: unknown rules parameter 'turns.9'"),
    ('[range]\n"nosuch" = [1, 2]\n', "range: unknown rules parameter 'nosuch'"),
    ('[range]\n"turns.2" = [2, 1000000000]\n', "range.turns.2: at most 1000 values"),
    ('[range]\n"tie_break" = [1, 2]\n', "alternatives must be of the parameter's type"),
    ('[provenance]\n"turns.2" = 5\n', "provenance.turns.2: must be a string"),
    ('[provenance]\n"turns.2" = "guessed"\n', "status one of rulebook, review, estimated"),
    ('[provenance]\n"no.such.*" = "rulebook"\n', "'no.such.*' names no rules parameter"),
    ("range = 3\n", "range: must be a table"),
])
def test_rules_file_meta_sections_are_checked(tmp_path, text, match):
    f = tmp_path / "r.toml"
    f.write_text(text)
    with pytest.raises(RulesError, match=match.replace("[", r"\[").replace("*", r"\*")):
        Rules.from_file(f)


def test_rules_file_meta_sections_apply_when_valid(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('[provenance]\n"turns.2" = "estimated: my count"\n[range]\n"turns.2" = [8, 14]\n')
    r = Rules.from_file(f)
    assert r.source_of("turns.2") == "estimated: my count"
    assert r.ranges["turns.2"] == list(range(8, 15))
    assert r.flat() == R.flat()                      # parameters untouched


def test_rules_cli_meta_error_is_one_line(tmp_path, capsys):
    f = tmp_path / "r.toml"
    f.write_text('[range]\n"turns.2" = [12, 10]\n')
    one_line_error(capsys, ["rules", "--rules", str(f)], "range.turns.2")


@pytest.mark.parametrize("depth", [10**3 + 1, 10**5])
def test_deep_dotted_keys_are_refused_fast_and_small(tmp_path, depth):
    # tomllib's time and memory grow with the square of the depth: 10^5 was killed
    f = tmp_path / "deep.toml"
    f.write_text("a" + ".a" * depth + " = 1\n")
    t = time.perf_counter()
    with pytest.raises(RulesError, match="nested too deeply"):
        Rules.from_file(f)
    assert time.perf_counter() - t < 1.0


def test_many_moderately_deep_keys_are_refused(tmp_path):
    f = tmp_path / "deep.toml"        # 100 keys of depth 200: each fine alone, 4 GB-ish together
    f.write_text("".join(f"k{i}" + ".a" * 200 + " = 1\n" for i in range(100)))
    with pytest.raises(RulesError, match="nested too deeply"):
        Rules.from_file(f)


# ---- bot parameters --------------------------------------------------------
@pytest.mark.parametrize("default", [math.nan, math.inf, -math.inf, 1e306, 10**400, True, "1"])
def test_user_bot_default_out_of_range_is_refused(default):
    with pytest.raises(BotError, match="parameter 'x'"):
        cargo_sim.bot("bad_default_bot", params={"x": default})
    assert "bad_default_bot" not in cargo_sim.games.cargo_noir.bots.registry.REGISTRY.user


def test_user_bot_default_at_the_limit_is_kept():
    cargo_sim.bot("edge_default_bot", params={"x": 1e6, "y": -1e6})(lambda kind, s, seat: 0)
    try:
        p = cargo_sim.player("edge_default_bot")
        assert p.values == (1e6, -1e6)
    finally:
        cargo_sim.games.cargo_noir.bots.registry.REGISTRY.unregister("edge_default_bot")


def test_huge_integer_parameter_is_one_short_line():
    with pytest.raises(BotError) as e:
        cargo_sim.player("greedy", bid_margin=10**400)
    msg = str(e.value)
    assert "from -1e+06 to 1e+06" in msg and len(msg) < 200 and "\n" not in msg


# ---- play_one --------------------------------------------------------------
@pytest.mark.parametrize("m", [0, -1, 10**12, True, 2.5, "10"])
def test_play_one_max_events_out_of_range(m):
    with pytest.raises(ConfigError, match="max_events must be a whole number from 1 to 1000000"):
        cargo_sim.play_one(1, P3, max_events=m)


def test_play_one_never_cuts_the_log_silently():
    full, _ = cargo_sim.play_one(1, P3)
    exact, _ = cargo_sim.play_one(1, P3, max_events=len(full))
    assert len(exact) == len(full)
    for m in (3, len(full) - 1):
        with pytest.raises(ConfigError, match=f"more than {m:,} events"):
            cargo_sim.play_one(1, P3, max_events=m)


def test_play_one_plays_a_1000_turn_game_whole():
    rules = R.replace({"turns.3": 1000})
    events, text = cargo_sim.play_one(7, P3, rules=rules)
    res = cargo_sim.simulate(1, P3, seed=0, rules=rules, progress=False, events=True)
    ev, _ = cargo_sim.play_one(int(res.games.seed[0]), P3, rules=rules)
    assert len(ev) == len(res.events) > 20_000         # beyond the first log: replayed, not cut
    assert events["turn"].max() == 1000 or len(events) > 20_000


# ---- rule limits the engine can play ----------------------------------------
@pytest.mark.parametrize("over, match", [
    ({"ships_per_player": 21}, "ships_per_player: at most 20"),
    ({"ships_per_player": 100, "start_ships": 3}, "ships_per_player: at most 20"),
    ({"port.Rio.slots": 131}, "could win"),
    ({"port.Rio.slots": 13}, "could win 25 cargo tokens in one turn at 4 players"),
    ({"start_warehouse": 9}, "could keep 25 tokens"),
    ({"card.Warehouses.warehouse": 3}, "could keep 30 tokens"),
    ({"final_coin_value": 1667}, "coins could be worth 100020"),
    ({"value_same": [0, 1, 4, 9, 16, 25, 36, 49, 64, 92]}, "hand's trade value"),
    ({"final_coin_value": 35_791_394}, "final_coin_value: too large"),   # the old limit
    ({"final_coin_value": 3_579_139}, "coins could be worth"),           # its tenth: 16 GB before
    ({"tokens_per_type": 1000}, "hand's trade value"),
])
def test_rules_beyond_what_the_engine_plays_quickly_are_refused(over, match):
    with pytest.raises(RulesError, match=match):
        R.replace(over)


# The largest values of the limits together (one game each at 5 seats with the
# heuristic bots): each must play in well under a few seconds within a few
# hundred MB. Measured in a fresh process (peak RSS by getrusage).
LIMIT_RULES = [
    {"ships_per_player": 20, "start_ships": 20},
    {"port.Rio.slots": 11},                                       # 24 tokens won in a turn at 5
    {"ships_per_player": 20, "start_ships": 20, "port.Rio.slots": 8, "start_warehouse": 8,
     "card.Warehouses.warehouse": 2, "value_same": [0, 1, 4, 9, 16, 25, 36, 49, 64, 91]},
    {"ships_per_player": 20, "start_ships": 20, "port.Rio.slots": 8, "start_warehouse": 8,
     "card.Warehouses.warehouse": 2, "final_coin_value": 1666},
    {"black_market_slots": 131, "max_combo": 9},
]
SCRIPT = textwrap.dedent("""
    import json, resource, sys, time
    import cargo_sim
    bots = ["greedy", "expert", "trader", "sniper", "collector"]
    cargo_sim.simulate(1, bots, progress=False, workers=1)        # compiled, warm
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = []
    for kw in json.loads(sys.argv[1]):
        rules = cargo_sim.Rules.default().replace(kw)
        t = time.process_time()                 # CPU: what a shared machine leaves alone
        cargo_sim.simulate(1, bots, seed=0, rules=rules, progress=False, workers=1)
        out.append(time.process_time() - t)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": out, "extra_mb": (peak - base) / 1024}))
""")


@pytest.mark.slow
def test_games_at_the_limits_play_quickly_in_bounded_memory():
    for kw in LIMIT_RULES:
        R.replace(kw)                                   # each is accepted
    proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(LIMIT_RULES)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert max(got["seconds"]) < 12, got          # measured: at most 2.4 s of CPU a game (8 seeds)
    assert got["extra_mb"] < 300, got             # measured: ~25 MB


# ---- tournaments -------------------------------------------------------------
def test_tournament_too_big_for_memory_is_refused_up_front():
    t = time.perf_counter()
    with pytest.raises(ConfigError, match="needs about .* GiB in memory"):
        cargo_sim.tournament(["greedy", "banker"], 2, games=10**12, progress=False)
    assert time.perf_counter() - t < 5


def test_cli_tournament_duplicate_entrants(capsys):
    one_line_error(capsys, ["tournament", "--players", "greedy,banker,greedy", "--seats", "2",
                            "--games", "4", "--no-progress"], "greedy more than once")


def test_cli_small_tournament_prints_no_warning_inf_or_nan(capsys):
    rc = main(["tournament", "--players", "greedy,random", "--seats", "2", "--games", "10",
               "--no-progress"])
    out, err = capsys.readouterr()
    assert rc == 0 and err == ""
    low = out.lower()
    assert "warning" not in low and "inf" not in low.replace("info", "") and "nan" not in low
    assert "n/a: not estimable from these games (never ahead: random; never behind: greedy)" in out
    wins = [line.split() for line in out.splitlines() if line.startswith(("greedy ", "random "))][:2]
    assert {w[2] for w in wins} == {"10", "0"}          # wins as whole numbers, not 10.0


def test_p_values_print_sensibly():
    from cargo_sim.runners.tournament import format_p
    assert format_p(1.2e-292) == "< 1e-16" and format_p(0.0) == "< 1e-16"
    assert format_p(0.0123456) == "0.0123" and format_p(float("nan")) == ""


# ---- ladder ------------------------------------------------------------------
@pytest.mark.parametrize("budgets, match", [
    ([-5, 0, 0.5, 2, 2], "budgets must be whole numbers of iterations > 0, got -5"),
    ([math.inf], "got inf"),
    ([2, 2], "budgets must be distinct"), ([0.5], "got 0.5"), ([math.nan], "got nan"),
    ([10**400], "budgets must be numbers"), ([], "at least one budget"),
])
def test_ladder_budgets_are_checked(budgets, match):
    from cargo_sim.runners.ladder import ladder
    with pytest.raises(ConfigError, match=re_escape(match)):
        ladder(["greedy"], budgets=budgets, progress=False)


def re_escape(s):
    import re
    return re.escape(s)


def test_ladder_refuses_the_yardstick_as_a_bot_and_huge_sizes(capsys):
    from cargo_sim.runners.ladder import ladder
    with pytest.raises(ConfigError, match="yardstick's own bot 'ismcts'"):
        ladder(["greedy", "ismcts?iterations=5"], budgets=[10], progress=False)
    with pytest.raises(ConfigError, match="GiB in memory"):
        ladder(["greedy"], budgets=[10], games=10**12, progress=False)
    with pytest.raises(ConfigError, match="seats must be distinct"):
        ladder(["greedy"], budgets=[10], seats=[2, 2], progress=False)
    one_line_error(capsys, ["ladder", "--budgets=-5,0,0.5,2,2", "--no-progress"], "budgets must be")


# ---- sweep and tune ------------------------------------------------------------
def test_sweep_needs_a_comparison(capsys):
    one_line_error(capsys, ["sweep", "--games", "4"], "at least one --vary")
    one_line_error(capsys, ["sweep", "--set", "start_coins=7", "--games", "4", "--quiet"],
                   "every sweep variant equals the base rules")
    with pytest.raises(ConfigError, match="empty sweep grid"):
        sweep(grid={}, games=4, progress=False)


def test_sweep_huge_ranges_are_refused_before_building(capsys):
    t = time.perf_counter()
    one_line_error(capsys, ["sweep", "--set", "start_coins=0..1000000000000", "--quiet"],
                   "has 1,000,000,000,001 values")
    grid = {"start_coins": list(range(200)), "casino_payout": list(range(200))}
    with pytest.raises(ConfigError, match="more than 10,000 variants"):
        sweep(grid=grid, games=4, progress=False)
    assert time.perf_counter() - t < 5


@pytest.mark.parametrize("space", [{"bid_margin": (-1e308, 1e308)}, {"bid_margin": (0, math.inf)},
                                   {"bid_margin": (10**400, 10**401)}])
def test_tune_space_must_be_within_the_parameter_range(space):
    from cargo_sim.runners.tune import tune
    with pytest.raises(BotError, match="must be a number from -1e\\+06 to 1e\\+06"):
        tune("greedy", space=space, budget=2, progress=False)


def test_cli_tune_huge_space_is_one_line(capsys):
    one_line_error(capsys, ["tune", "--space", "bid_margin=0:1e400"], "bid_margin")
    one_line_error(capsys, ["tune", "--space", "bid_margin"], "expected PARAM=LO:HI")


# ---- runs to disk and Dask -------------------------------------------------------
def test_run_chunk_sizes_are_bounded(tmp_path, capsys):
    from cargo_sim.runners.runs import run_to_dir
    with pytest.raises(ConfigError, match="chunk_games must be a whole number from 1 to 1000000"):
        run_to_dir(tmp_path / "a", 10**12, P3, chunk_games=10**12, progress=False)
    with pytest.raises(ConfigError, match="chunk files, more than 1,000,000"):
        run_to_dir(tmp_path / "b", 10**12, P3, chunk_games=10, progress=False)
    one_line_error(capsys, ["simulate", "-n", str(10**12), "-p", "greedy,greedy,greedy",
                            "--out", str(tmp_path / "c"), "--chunk-games", str(10**12),
                            "--no-progress"], "chunk_games")
    assert not (tmp_path / "a").exists() and not (tmp_path / "c").exists()


def test_dask_in_memory_run_too_big_is_refused_before_any_cluster():
    from cargo_sim.runners.dask_backend import simulate_dask
    t = time.perf_counter()
    with pytest.raises(ConfigError, match="GiB in memory"):
        simulate_dask(10**12, P3, scheduler="tcp://127.0.0.1:1", progress=False)
    assert time.perf_counter() - t < 5


def _server(talk: bytes | None):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            if talk:
                c.sendall(talk)

    threading.Thread(target=serve, daemon=True).start()
    return srv


@pytest.mark.parametrize("talk, match", [
    (b"SSH-2.0-OpenSSH_9.6\r\n" * 4, "does not speak Dask's protocol"),
    (None, "no Dask scheduler answered"),
])
def test_dask_foreign_or_silent_server_is_one_line(monkeypatch, talk, match):
    from cargo_sim.runners import dask_backend
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1)
    srv = _server(talk)
    try:
        t = time.perf_counter()
        with pytest.raises(ClusterError, match=match):
            dask_backend.simulate_dask(10, P3, scheduler=f"tcp://127.0.0.1:{srv.getsockname()[1]}",
                                       progress=False)
        assert time.perf_counter() - t < 5
    finally:
        srv.close()


def test_dask_refused_port_is_one_line():
    from cargo_sim.runners.dask_backend import simulate_dask
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        simulate_dask(10, P3, scheduler="tcp://127.0.0.1:1", progress=False)


def test_dask_scheduler_lost_mid_run_ends_in_bounded_time(monkeypatch):
    """The waiting loop gives up once the client has had no scheduler for
    LOST_AFTER seconds (a fake: a future that never arrives, a closed client)."""
    from cargo_sim.runners import dask_backend

    class Pending:
        def is_empty(self):
            return False

        def has_ready(self):
            return False

    class Client:
        status = "running"

    client = Client()
    monkeypatch.setattr(dask_backend, "LOST_AFTER", 0.3)
    it = dask_backend._arrivals(Pending(), client)
    threading.Timer(0.2, lambda: setattr(client, "status", "closed")).start()
    t = time.perf_counter()
    with pytest.raises(ClusterError, match="lost the scheduler mid-run"):
        next(it)
    assert 0.4 < time.perf_counter() - t < 3


SCHEDULER_KILL = textwrap.dedent("""
    import subprocess, sys, threading, time
    port = int(sys.argv[1])
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    sched = subprocess.Popen(dask + ["--port", str(port), "--no-dashboard", "--host", "127.0.0.1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    work = None
    try:
        # the worker and the client below retry until the scheduler is up
        work = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                 address, "--nthreads", "1", "--no-dashboard"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import distributed
        from cargo_sim import ClusterError
        from cargo_sim.runners.dask_backend import simulate_dask
        client = distributed.Client(address, timeout=120)   # connected, a worker in: the
        client.wait_for_workers(1, timeout=120)             # kill below is surely mid-run
        print("KILL", time.time() + 6)
        threading.Timer(6, sched.kill).start()     # 10^6 games take minutes
        try:
            simulate_dask(10**6, ["greedy"] * 3, scheduler=client,
                          chunk_games=1000, progress=False)
            print("FINISHED")
        except ClusterError as e:
            print("CLUSTER", e)
        print("ENDED", time.time())
    finally:
        for p in (work, sched):
            if p is not None:
                p.kill()
""")


@pytest.mark.slow
def test_dask_scheduler_killed_mid_run_is_one_line_within_seconds():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.run([sys.executable, "-c", SCHEDULER_KILL, str(port)], capture_output=True,
                          text=True, timeout=240)
    assert "CLUSTER Dask: lost the scheduler mid-run" in proc.stdout, proc.stdout + proc.stderr[-2000:]
    killed = float(proc.stdout.split("KILL")[1].split()[0])
    ended = float(proc.stdout.split("ENDED")[1].split()[0])
    assert ended - killed < 60                # measured: ~12 s after the kill
