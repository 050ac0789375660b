"""Tests of the ``cargo-sim`` command line, in-process (``main([...])``) and as a subprocess."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import cargo_sim
from cargo_sim.cli.main import atomic_write_text, main, parse_set

PLAYERS = "random,random,random"


def run_cli(*args, timeout=300):
    """The CLI as a user runs it: a fresh interpreter, exit status and both streams."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([sys.executable, "-m", "cargo_sim.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def assert_one_error_line(err: str):
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("cargo-sim: error: "), err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------
# simulate
@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_simulate_writes_tables_and_run_json(tmp_path, capsys, fmt):
    out = tmp_path / "run"
    rc = main(["simulate", "--games", "150", "--players", PLAYERS, "--seed", "7", "--chunk-games", "60",
               "--out", str(out), "--format", fmt, "--layout", "files", "--no-progress",
               "--set", "start_coins=8"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "95% CI" in text and "games/s" in text
    read = pd.read_parquet if fmt == "parquet" else pd.read_csv
    games, players = read(out / f"games.{fmt}"), read(out / f"players.{fmt}")
    assert len(games) == 150 and len(players) == 450
    assert sorted(players["seat"].unique()) == [0, 1, 2]
    meta = json.loads((out / "run.json").read_text())
    assert meta["seed"] == 7 and meta["n_games"] == 150 and meta["interrupted"] is False
    assert meta["players"] == ["random"] * 3
    assert meta["rules_overrides"] == {"start_coins": 8}
    rules = cargo_sim.Rules.default().replace(start_coins=8)
    assert meta["rules_digest"] == rules.digest
    assert "port.Tanger.slots" in meta["estimated_rules"] and "port.Rio.slots" not in meta["estimated_rules"]
    assert meta["versions"]["cargo_sim"] == cargo_sim.__version__
    assert "--seed 7" in meta["command"]
    for df in (games, players):          # the run's columns, in front (test_runs: run folders)
        assert df.columns[:2].tolist() == ["run_id", "run_seed"]
        assert set(df["run_id"]) == {meta["run_id"]} and set(df["run_seed"]) == {7}
    assert set(players["n_players"]) == {3}
    # no temp files left behind
    assert sorted(p.name for p in out.iterdir()) == sorted([f"games.{fmt}", f"players.{fmt}", "run.json"])
    # the tables are those of the library call
    ref = cargo_sim.simulate(150, ["random"] * 3, seed=7, rules=rules, progress=False)
    assert games["seed"].astype("uint64").tolist() == ref.games["seed"].tolist()
    assert games.columns[2:].tolist() == ref.games.columns.tolist()
    assert players["vp"].tolist() == ref.players["vp"].tolist()


def test_run_headline_says_thread_or_threads():
    """The summary says "on 1 thread" / "on 2 threads", never "on 2 thread(s)"."""
    from cargo_sim.cli.common import run_headline
    rules = cargo_sim.Rules.default()
    for workers, word in ((1, "on 1 thread"), (2, "on 2 threads")):
        line = run_headline(10, {"seed": 1}, False, 2, rules, 1.0, workers)
        assert line.endswith(word) and "(s)" not in line, line


def test_simulate_subprocess(tmp_path):
    out = tmp_path / "sub"
    r = run_cli("simulate", "--games", 120, "--players", "random,random", "--seed", 3,
                "--out", out, "--workers", 2)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    res = cargo_sim.load_results(out)         # a run folder
    assert len(res.games) == 120 and len(res.players) == 240 and res.config["seed"] == 3


def test_summary_lines_per_seat(capsys):
    assert main(["simulate", "-n", "60", "-p", "random,random,random,random", "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    seat_rows = [l for l in out if l.split() and l.split()[0] in "0123" and "random" in l]
    assert len(seat_rows) == 4


# ---------------------------------------------------------------------------
# user mistakes: one line, exit 2, no traceback
@pytest.mark.slow
def test_bad_bot_name_subprocess():
    r = run_cli("simulate", "--games", 10, "--players", "random,nosuchbot", "--no-progress")
    assert r.returncode == 2
    assert_one_error_line(r.stderr)
    assert "nosuchbot" in r.stderr


@pytest.mark.parametrize("args, words", [
    (["simulate", "-n", "10", "-p", "random,nosuchbot"], "nosuchbot"),
    (["simulate", "-n", "10", "--set", "start_coins=abc"], "start_coins"),
    (["simulate", "-n", "10", "--set", "no_such_param=3"], "no_such_param"),
    (["simulate", "-n", "10", "--set", "start_coins"], "name=value"),
    (["simulate", "-n", "10", "--set", "card.Villa.cost=[1,"], "card.Villa.cost"),
    (["simulate", "-n", "10", "-p", "random"], "player count"),
    (["simulate", "-n", "10", "-p", "random,,random"], "--players"),
    (["simulate", "-n", "10", "--workers", "0"], "workers"),
    (["simulate", "-n", "-5"], "games"),
    (["play", "--seed", "1", "-p", "random,random", "--set", "turns.2=1"], "turns.2"),
    (["rules", "--set", "card.Villa.colour=3"], "colour"),
    (["rules", "--rules", "/no/such/rules.toml"], "rules.toml"),
])
def test_user_errors_in_process(capsys, args, words):
    assert main(args + (["--no-progress"] if args[0] == "simulate" else [])) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert words in err


@pytest.mark.slow
def test_bad_set_subprocess():
    r = run_cli("simulate", "--games", 10, "--set", "start_coins=-3", "--no-progress")
    assert r.returncode == 2
    assert_one_error_line(r.stderr)
    assert "start_coins" in r.stderr


def test_malformed_rules_file(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("start_coins = [\n", encoding="utf-8")
    assert main(["simulate", "-n", "10", "--rules", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert "bad.toml" in err
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('start_coins = "seven"\n', encoding="utf-8")
    r = run_cli("rules", "--rules", wrong)
    assert r.returncode == 2
    assert_one_error_line(r.stderr)
    assert "start_coins" in r.stderr


@pytest.mark.parametrize("text, game, says", [
    ("start_coins = 8\nbogus_key = 3\n", None, "unknown rules parameter 'bogus_key'"),
    ("start_coins = -5\n", None, "start_coins: must be >= 0"),
    ("[card.Villa]\ncost = -1\n", None, "card.Villa.cost"),
    ("[range]\nno_such = [1, 2]\n", None, "no_such"),
    (None, "macao", "holds rules of the game 'cargo_noir', not of 'macao'"),
])
def test_every_rules_file_error_names_the_file(tmp_path, capsys, text, game, says):
    """One line naming the file; Cargo Noir's full rules given to Macao: one short
    line naming both games (not every parameter Macao does not have)."""
    f = tmp_path / "mine.toml"
    if text is None:
        assert main(["rules", "--toml"]) == 0
        text = capsys.readouterr().out
    f.write_text(text, encoding="utf-8")
    argv = ["rules", "--rules", str(f)] + (["--game", game] if game else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert f"rules file {f}" in err and says in err, err
    assert len(err) < 400, len(err)


def test_a_rules_file_of_another_game_without_its_game_entry_is_one_short_line(tmp_path, capsys):
    assert main(["rules", "--toml"]) == 0
    text = "\n".join(ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("game"))
    f = tmp_path / "noir.toml"
    f.write_text(text, encoding="utf-8")
    assert main(["rules", "--game", "macao", "--rules", str(f)]) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert str(f) in err and "unknown rules parameter" in err and "more" in err and len(err) < 400


def test_rules_file_applies(tmp_path, capsys):
    f = tmp_path / "mine.toml"
    f.write_text("start_coins = 9\n[card.Villa]\ncost = 22\n", encoding="utf-8")
    assert main(["rules", "--rules", str(f), "--set", "turns.4=12"]) == 0
    out = capsys.readouterr().out
    row = {l.split()[0]: l.split() for l in out.splitlines() if l.split()}
    assert row["start_coins"][1:4] == ["9", "user", "mine.toml"]     # the file's value: the user's
    assert row["turns.4"][1:3] == ["12", "override"]


def test_out_is_a_file(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["simulate", "-n", "10", "--out", str(f), "--no-progress"]) == 2
    assert_one_error_line(capsys.readouterr().err)


def test_usage_error_exit_2(capsys):
    assert main(["simulate", "--games", "many"]) == 2
    assert main([]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Ctrl-C
def test_interrupted_run_saves_finished_chunks_and_resumes(tmp_path, capsys, monkeypatch,
                                                           interrupt_on):
    from cargo_sim.runners.runs import write as runs
    real = runs._play_chunk
    monkeypatch.setattr(runs, "_play_chunk", interrupt_on(real, 3))
    out = tmp_path / "part"
    args = ["simulate", "-n", "200", "--chunk-games", "50", "--out", str(out), "--no-progress"]
    assert main(args) == 130
    err = capsys.readouterr().err
    assert "interrupted after 100 of 200" in err and "--resume" in err
    assert len(cargo_sim.load_results(out).games) == 100      # (warns: not finished)
    monkeypatch.setattr(runs, "_play_chunk", real)
    assert main(args + ["--resume"]) == 0
    res = cargo_sim.load_results(out)
    ref = cargo_sim.simulate(200, PLAYERS.split(","), seed=0, progress=False)
    pd.testing.assert_frame_equal(res.games, ref.games)


def test_plain_run_interrupt_message_suggests_out(capsys, monkeypatch):
    real = cargo_sim.simulate

    def partial(n_games, players, **kw):
        res = real(40, players, **kw)
        res.interrupted = True
        return res

    monkeypatch.setattr(cargo_sim, "simulate", partial)
    assert main(["simulate", "-n", "200", "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert "--out" in err and "--resume" not in err


@pytest.mark.parametrize("args, word", [
    (["--out", ""], "folder name"),
    (["--aggregate", "--out", "X", "--chunk-games", "0"], "--chunk-games"),
    (["--chunk-games", "10"], "needs --out"),
    (["--resume"], "needs --out"),
    (["--resume", "--dask", "local"], "needs --out"),
    (["--dask", "local", "-j", "2"], "--workers"),
    (["--dask", "local", "--aggregate", "--out", "X"], "drop --out"),
    (["--out", "X", "--format", "csv", "--layout", "chunks"], "Parquet"),
    (["--out", "X", "--start", "5"], "--start"),
])
def test_refused_option_combinations(tmp_path, capsys, monkeypatch, args, word):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "-n", "10", "--no-progress"] + args) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert word in err
    assert not (tmp_path / "X").exists()


def test_keyboard_interrupt_exit_130(capsys, monkeypatch):
    def boom(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(cargo_sim, "simulate", boom)
    assert main(["simulate", "-n", "10", "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "x.json"

    class Boom(Exception):
        pass

    def bad(tmp):
        open(tmp, "w").write("half")
        raise Boom

    from cargo_sim.cli.main import atomic_write
    with pytest.raises(Boom):
        atomic_write(target, bad)
    assert list(tmp_path.iterdir()) == []
    atomic_write_text(target, "{}")
    assert target.read_text() == "{}"
    assert list(tmp_path.iterdir()) == [target]


# ---------------------------------------------------------------------------
# play / rules / bots
def test_play_prints_turns_and_scores(tmp_path, capsys):
    ev = tmp_path / "events.csv"
    assert main(["play", "--seed", "11", "--players", PLAYERS, "--events", str(ev)]) == 0
    out = capsys.readouterr().out
    assert "-- turn 1, seat 0" in out and "-- turn 2, seat 2" in out
    assert "Final scores:" in out and "WINNER" in out
    events = pd.read_csv(ev)
    assert (events["action"] == "score").sum() == 3


@pytest.mark.slow
def test_play_subprocess_replays_game_of_run():
    res = cargo_sim.simulate(5, ["random", "random"], seed=4, progress=False)
    r = run_cli("play", "--seed", 4, "--game", 2, "--players", "random,random")
    assert r.returncode == 0, r.stderr
    assert f"game seed {int(res.games.seed[2])}" in r.stdout
    vps = res.players[res.players.game == 2]["vp"].tolist()
    for seat, vp in enumerate(vps):
        assert f"seat {seat} (random): {vp} VP" in r.stdout
    r2 = run_cli("play", "--seed", int(res.games.seed[2]), "--players", "random,random")
    assert r2.stdout.split("\n", 1)[1] == r.stdout.split("\n", 1)[1]   # same game
    assert "now spelled --index 2" in r.stderr          # the old spelling of the game index
    r3 = run_cli("play", "--seed", 4, "--index", 2, "--players", "random,random")
    assert r3.returncode == 0 and r3.stdout == r.stdout and r3.stderr == ""


def test_rules_estimated_lists_port_slots(capsys):
    assert main(["rules", "--estimated"]) == 0
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if l.startswith("port.")]
    assert any(l.startswith("port.Tanger.slots") and "ESTIMATED" in l for l in lines)
    assert not any(l.startswith("port.Rio.slots") for l in lines)     # review, medium confidence
    assert "start_coins" not in out                     # a rulebook value is not listed
    assert main(["rules"]) == 0
    full = capsys.readouterr().out
    assert any(l.startswith("start_coins") and "rulebook" in l for l in full.splitlines())


def test_rules_toml_round_trips(tmp_path, capsys):
    assert main(["rules", "--toml", "--set", "start_coins=9"]) == 0
    f = tmp_path / "r.toml"
    f.write_text(capsys.readouterr().out, encoding="utf-8")
    assert cargo_sim.Rules.from_file(f)["start_coins"] == 9


def test_bots_lists_names(capsys):
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    for name in cargo_sim.bot_names():
        assert name in out


# ---------------------------------------------------------------------------
# helpers
def test_parse_set_values():
    got = parse_set(["start_coins=8", "card.Villa.cost = 22", "turns.4=11",
                     "port.Rio.players=[3, 4]", "unlimited_coins=true", "card.X.kind=edge",
                     'name="my variant"'])
    assert got == {"start_coins": 8, "card.Villa.cost": 22, "turns.4": 11,
                   "port.Rio.players": [3, 4], "unlimited_coins": True, "card.X.kind": "edge",
                   "name": "my variant"}


def test_wilson_interval():
    from cargo_sim.core.stats import wilson_interval
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35
    assert all(x != x for x in wilson_interval(0, 0))          # NaN: no games


def test_one_wilson_formula():
    """The CLI's, the analyses' and the core's intervals are one function."""
    import analyses.stats
    import cargo_sim.cli.common
    from cargo_sim.core.stats import wilson_interval
    assert analyses.stats.wilson_ci is wilson_interval
    assert not hasattr(cargo_sim.cli.common, "wilson")


def test_tournament_command_writes_standings(tmp_path, capsys):
    from cargo_sim.cli import main
    rc = main(["tournament", "--players", "greedy,random", "--seats", "2", "--games", "40",
               "--no-progress", "--out", str(tmp_path)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "head to head" in out and "design balanced" in out
    import json
    import pandas as pd
    st = pd.read_csv(tmp_path / "standings.csv", index_col=0)
    assert st.loc["greedy", "games"] == 40 and st.loc["greedy", "win_rate"] > 0.9
    assert (tmp_path / "win_rates.png").stat().st_size > 1000
    meta = json.loads((tmp_path / "run.json").read_text())
    assert meta["design"] == "balanced" and meta["games_played"] == 40
    assert meta["command"].startswith("cargo-sim tournament --players greedy,random")
    # the old spelling: --players as a seat count gets a one-line hint
    assert main(["tournament", "--bots", "greedy,random", "--players", "2", "--games", "4",
                 "--no-progress"]) == 2
    assert "--seats 2" in capsys.readouterr().err


def test_tournament_focus_option(tmp_path, capsys):
    from cargo_sim.cli import main
    rc = main(["tournament", "--players", "greedy,random", "--focus", "greedy", "--seats", "3",
               "--games", "9", "--no-progress", "--out", str(tmp_path)])
    assert rc == 0
    assert "greedy against the field" in capsys.readouterr().out
    f = pd.read_csv(tmp_path / "focus.csv", index_col=0)
    assert f.loc["greedy", "games"] == 9 and f.loc["greedy", "deals"] == 3
    # a focus that is not an entrant: one line, before any game or folder
    out = tmp_path / "never"
    assert main(["tournament", "--players", "greedy,random", "--focus", "expert", "--seats", "3",
                 "--games", "9", "--no-progress", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert_one_error_line(err)
    assert "--focus names one of --players" in err
    assert not out.exists()


def test_internal_fault_is_one_line_not_a_traceback(capsys, monkeypatch):
    import cargo_sim.runners.tournament as tm
    from cargo_sim.cli import main

    def broken(*a, **k):
        raise RuntimeError("Bradley-Terry fit did not converge")
    monkeypatch.setattr(tm, "tournament", broken)
    rc = main(["tournament", "--players", "random,greedy", "--seats", "2", "--games", "4",
               "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "internal error: RuntimeError: Bradley-Terry" in err


def test_delegated_commands_reach_their_module(capsys):
    from cargo_sim.cli import main
    assert main(["sweep", "--help"]) == 0
    assert "--set" in capsys.readouterr().out
    assert main(["tune", "--set-nothing"]) == 2
@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """Two run folders and two --layout files folders: other bots, seeds and seat counts."""
    from cargo_sim.cli import main
    base = tmp_path_factory.mktemp("two")
    for layout in ("chunks", "files"):
        for name, players, seed in (("a", "random,random,random", 1), ("b", "greedy,random", 2)):
            assert main(["simulate", "--games", "30", "--players", players, "--seed", str(seed),
                         "--out", str(base / layout / name), "--layout", layout, "--chunk-games",
                         "20", "--no-progress"]) == 0
    return base


def run_tags(df) -> dict:
    """{run_id: (run_seed, n_players, rows)} of a combined table."""
    g = df.groupby(["run_id", "run_seed", "n_players"], observed=True).size()
    return {str(k[0]): (int(k[1]), int(k[2]), int(n)) for k, n in g.items()}


@pytest.mark.parametrize("layout", ["chunks", "files"])
def test_two_runs_read_as_one_with_no_options_and_stay_apart(two_runs, layout):
    """A run folder keeps each table in a folder of its own (games/,
    players/; markers and records outside), so pyarrow.dataset and pandas read a
    table with no options; every row carries its run's run_id, run_seed and
    n_players, so runs read together stay apart. Column types are fixed whatever
    the data (docs/output_files.md), so runs with other bots combine."""
    import pyarrow.dataset as ds
    a, b = two_runs / layout / "a", two_runs / layout / "b"
    ids = {json.loads((f / "run.json").read_text())["run_id"]: f for f in (a, b)}
    want = {"games": {1: (1, 3, 30), 2: (2, 2, 30)}, "players": {1: (1, 3, 90), 2: (2, 2, 60)}}
    for table in ("games", "players"):
        src = {f: (f / table if layout == "chunks" else f / f"{table}.parquet") for f in (a, b)}
        if layout == "chunks":
            assert sorted(p.name for p in src[a].iterdir()) == ["part-00000.parquet",
                                                               "part-00001.parquet"]
        one = ds.dataset(src[a]).to_table().to_pandas()          # no options
        assert len(one) == want[table][1][2]
        both = ds.dataset([ds.dataset(src[a]), ds.dataset(src[b])]).to_table().to_pandas()
        pandas_both = pd.concat([pd.read_parquet(src[f]) for f in (a, b)], ignore_index=True)
        for df in (both, pandas_both):
            tags = run_tags(df)
            assert {seed: (n, rows) for seed, n, rows in tags.values()} \
                == {s: (n, rows) for s, n, rows in want[table].values()}
            assert {ids[r].name for r in tags} == {"a", "b"}        # the ids in run.json
        assert both.columns[:2].tolist() == ["run_id", "run_seed"]
        sa, sb = ds.dataset(src[a]).schema, ds.dataset(src[b]).schema
        assert sa.remove_metadata() == sb.remove_metadata(), table
    res = cargo_sim.load_results(a) if layout == "chunks" else None
    if res is not None:                   # one folder loads as simulate() gives it: no run columns
        ref = cargo_sim.simulate(30, ["random"] * 3, seed=1, progress=False)
        pd.testing.assert_frame_equal(res.players, ref.players)


def test_duckdb_reads_many_run_folders_with_one_glob(two_runs):
    import duckdb  # a test dependency (not the library's): the tool users read runs with
    base = (two_runs / "chunks").as_posix()
    rows = duckdb.sql(f"SELECT run_seed, n_players, count(*), count(DISTINCT run_id), max(game) "
                      f"FROM read_parquet('{base}/*/players/*.parquet') GROUP BY ALL ORDER BY 1"
                      ).fetchall()
    assert rows == [(1, 3, 90, 1, 29), (2, 2, 60, 1, 29)]


def test_a_tiny_tournament_prints_no_raw_warning_nor_infinite_rating(capsys, recwarn):
    """10 games leave ratings not estimable: said in words (n/a), never
    +-inf/NaN or numpy's RuntimeWarning; counts print as integers, tiny p readably."""
    import re
    assert main(["tournament", "-p", "greedy,random", "--seats", "2", "-n", "10",
                 "--no-progress"]) == 0
    cap = capsys.readouterr()
    assert "Warning" not in cap.err and not [w for w in recwarn if w.category is RuntimeWarning]
    assert not re.search(r"\b(inf|nan|NaN)\b", cap.out), cap.out
    assert "n/a: not estimable" in cap.out
    greedy = next(ln for ln in cap.out.splitlines() if ln.startswith("greedy "))
    assert greedy.split()[1:3] == ["10", "10"]            # games, wins: integers
    assert "< 1e-16" in cap.out and not re.search(r"\de-(1[7-9]|[2-9]\d|\d{3})", cap.out)


def test_a_refused_command_leaves_no_folder_it_created(tmp_path, capsys):
    """sweep claims --out (creating it and its parents) before it checks its players: the
    refusal removes what it created, and never a folder that was there before."""
    out = tmp_path / "new" / "deeper" / "sweep"
    args = ["sweep", "--vary", "start_coins=6,7", "-p", "nosuchbot,random", "--games", "4",
            "--no-progress", "--out", str(out)]
    assert main(args) == 2
    assert "nosuchbot" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "mine").mkdir()                  # the user's own (empty) folder stays
    assert main(args[:-1] + [str(tmp_path / "mine")]) == 2
    assert (tmp_path / "mine").is_dir()
