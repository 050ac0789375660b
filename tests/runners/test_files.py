"""Negative tests of everything the library reads from and writes to disk
(docs/safety.md "Files"): no user file is overwritten
or deleted, run folders are bound to their run, every fault is one line.

Each case ends as a CargoSimError (API) or ``cargo-sim: error: ...`` with exit
status 2 (CLI) -- or as a correct result."""
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import cargo_sim
from cargo_sim import ConfigError, RulesError, Rules
from cargo_sim.runners import runs
from cargo_sim.cli import main
from cargo_sim.core.fileio import claim_folder, read_json, read_text
from cargo_sim.core.runner import Table
from cargo_sim.runners.runs.folder import LOCK, RunLock, temp_tag

PLAYERS = ["random", "random", "random"]
N, CHUNK, SEED = 600, 200, 5


@pytest.fixture(autouse=True)
def no_hang():
    """A read that blocks (a FIFO, /dev/zero) fails the test instead of hanging it."""
    def hung(*_):
        raise TimeoutError("hung")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def files(folder: Path) -> dict:
    """Every file under ``folder`` by its path there (``games/part-00000.parquet``)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def cli_error(capsys, argv, *words) -> str:
    """Run the CLI in-process: exit 2 and one ``cargo-sim: error:`` line naming ``words``."""
    rc = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip()
    assert rc == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("cargo-sim: error: "), err
    for w in words:
        assert w in err, err
    return err


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test (the CLI turns it into exit 1, not 2)."""
    def played(*a, **kw):
        raise AssertionError("a game was played before the output was checked")
    monkeypatch.setattr(Table, "build", classmethod(played))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref") / "run"
    runs.run_to_dir(folder, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, progress=False)
    return folder, files(folder)


def copy_of(reference, tmp_path, name="run") -> Path:
    run = tmp_path / name
    shutil.copytree(reference[0], run)
    return run


def resume(run, **kw):
    return runs.run_to_dir(run, N, kw.pop("players", PLAYERS), seed=SEED, chunk_games=CHUNK,
                           workers=2, resume=True, progress=False, **kw)


# ---------------------------------------------------------------------------
# data loss: a user's files are never overwritten or deleted
USER = {"run.json": b'{"mine": true}\n', "games.csv": b"my,own\n1,2\n"}


def user_folder(tmp_path, extra=None) -> Path:
    d = tmp_path / "mine"
    d.mkdir()
    for name, b in {**USER, **(extra or {})}.items():
        (d / name).write_bytes(b)
    return d


@pytest.mark.parametrize("layout", ["files", "chunks"])
def test_simulate_out_keeps_a_users_files(tmp_path, capsys, no_games, layout):
    d = user_folder(tmp_path)
    before = files(d)
    cli_error(capsys, ["simulate", "-n", 50, "--out", d, "--layout", layout, "--no-progress"],
              "not a cargo_sim", "new or empty folder")
    assert files(d) == before
    cli_error(capsys, ["simulate", "-n", 50, "--out", d, "--resume", "--no-progress"], "not a cargo_sim")
    assert files(d) == before


def test_files_layout_rerun_into_its_own_folder_and_no_temps(tmp_path, capsys):
    out = tmp_path / "f"
    for _ in range(2):                       # the second run replaces the first one's files
        assert main(["simulate", "-n", "60", "--out", str(out), "--layout", "files",
                     "--chunk-games", "25", "--no-progress"]) == 0
    assert sorted(os.listdir(out)) == ["games.parquet", "players.parquet", "run.json"]
    assert json.loads((out / "run.json").read_text())["kind"] == "cargo_sim.files/1"
    (out / "notes.txt").write_text("mine")   # now it holds a user's file: refused, untouched
    capsys.readouterr()
    cli_error(capsys, ["simulate", "-n", 60, "--out", out, "--layout", "files"], "notes.txt")
    assert (out / "notes.txt").read_text() == "mine"


def test_a_second_writer_of_a_files_layout_folder_is_refused(tmp_path, capsys):
    """--layout files takes run.lock as a run folder does: while another writer holds
    it, a second one is refused and touches nothing; the lock goes with its writer."""
    out = tmp_path / "f"
    args = ["simulate", "-n", "20", "--out", str(out), "--layout", "files", "--no-progress"]
    assert main(args) == 0
    before = files(out)
    lock = RunLock(out).acquire()                  # a writer at work (this live process)
    try:
        cli_error(capsys, args, "is in use by process")
        assert files(out) == {**before, LOCK: (out / LOCK).read_bytes()}
    finally:
        lock.release()
    assert main(args) == 0
    assert sorted(os.listdir(out)) == ["games.parquet", "players.parquet", "run.json"]


def test_tournament_out_keeps_a_users_files(tmp_path, capsys, no_games):
    d = user_folder(tmp_path)
    before = files(d)
    cli_error(capsys, ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 10, "--out", d],
              "not a cargo_sim tournament output")
    assert files(d) == before


def test_second_tournament_writer_refused(tmp_path, capsys, no_games):
    out = tmp_path / "t"
    out.mkdir()
    with RunLock(out):                       # a tournament is writing there
        cli_error(capsys, ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 10,
                           "--out", out, "--no-progress"], "in use by process")
    assert os.listdir(out) == []


def test_robustness_out_keeps_a_users_folder_and_file(tmp_path, capsys, no_games):
    from analyses.robustness_report import claim_report_folder
    d = user_folder(tmp_path)
    before = files(d)
    argv = ["robustness", "--games", 20, "--trajectories", 0, "--players", 2, "--param", "start_coins"]
    cli_error(capsys, argv + ["--out", d], "not a cargo_sim robustness report")
    assert files(d) == before
    f = tmp_path / "report.md"
    f.write_text("my report")
    cli_error(capsys, argv + ["--out", f], "not a folder")
    assert f.read_text() == "my report"
    with pytest.raises(ConfigError, match="not a cargo_sim robustness report"):
        claim_report_folder(d)
    # the committed report (written before its folder carried a kind) is recognised as one
    committed = Path(__file__).resolve().parents[2] / "reports" / "robustness"
    if committed.is_dir():
        copy = tmp_path / "old_report"
        shutil.copytree(committed, copy)
        assert claim_report_folder(copy) == copy
        (copy / "figures" / "mine.txt").write_text("x")      # plus a user's file: refused
        with pytest.raises(ConfigError, match="not a cargo_sim robustness report"):
            claim_report_folder(copy)


def test_output_files_are_never_replaced(tmp_path, capsys, no_games):
    mine = tmp_path / "events.csv"
    mine.write_text("mine")
    cli_error(capsys, ["play", "--seed", 1, "--events", mine], "already exists")
    from cargo_sim.cli.tune import tune_main
    with pytest.raises(ConfigError, match="already exists"):
        tune_main(["--bot", "greedy", "--out", str(mine)])
    assert mine.read_text() == "mine"


def test_resume_sweeps_only_its_own_temp_files(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    for name in ("chunk-00002.done", "games/part-00002.parquet", "players/part-00002.parquet"):
        (run / name).unlink()
    tag = temp_tag(json.loads((run / "manifest.json").read_text()))
    ours = run / "players" / f".part-00002.parquet.{tag}.ab_12c.tmp"
    ours.write_bytes(b"half")
    theirs = {".games-00002.parquet.999.tmp": b"x", ".notes.tmp": b"y",
              f".notes.{tag}.ab_12c.tmp": b"z"}      # our tag but not one of our names
    for name, b in theirs.items():
        (run / name).write_bytes(b)
    info = resume(run)
    assert info.complete and not ours.exists()
    assert {k: v for k, v in files(run).items() if k in theirs} == theirs


def test_aggregate_resume_sweeps_its_own_temp_files(tmp_path):
    out = tmp_path / "agg"
    runs.aggregate_to_dir(out, 40, ["random"] * 3, seed=1, chunk_games=20, progress=False)
    (out / "agg-00001.done").unlink()
    tag = temp_tag(json.loads((out / "manifest.json").read_text()))
    ours, theirs = out / f".agg-00001.npz.{tag}.x1y2z3.tmp", out / ".agg-00001.npz.x1y2z3.tmp"
    ours.write_bytes(b"PK half")
    theirs.write_bytes(b"not ours")
    info = runs.aggregate_to_dir(out, 40, ["random"] * 3, seed=1, chunk_games=20, progress=False,
                                 resume=True)
    assert info.games_played == 20 and not ours.exists() and theirs.read_bytes() == b"not ours"


# ---------------------------------------------------------------------------
# output folders checked before any game, for every command with --out
PROC = "/proc/cargo_sim_no_such_dir"


@pytest.mark.parametrize("argv", [
    ["simulate", "-n", 10, "--out", PROC],
    ["simulate", "-n", 10, "--out", PROC, "--layout", "files"],
    ["simulate", "-n", 10, "--out", PROC, "--format", "csv"],
    ["simulate", "-n", 10, "--aggregate", "--out", PROC],
    ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 10, "--out", PROC],
    ["robustness", "--games", 20, "--trajectories", 0, "--players", 2, "--out", PROC],
    ["sweep", "--set", "start_coins=6,7", "--games", 10, "--out", PROC],
    ["ladder", "--bots", "random", "--seats", 2, "--budgets", 10, "--games", 2, "--out", PROC],
    ["report", "--out", PROC, "--games", 10],
    ["tune", "--bot", "greedy", "--out", PROC + "/h.csv"],
    ["play", "--seed", 1, "--events", PROC + "/e.csv"],
], ids=lambda a: " ".join(map(str, a[:1] + a[-4:])))
def test_unusable_out_fails_before_any_game(capsys, no_games, argv):
    cli_error(capsys, argv, "cargo_sim_no_such_dir")


@pytest.mark.parametrize("argv", [
    ["simulate", "-n", 10, "--out"],
    ["simulate", "-n", 10, "--layout", "files", "--out"],
    ["simulate", "-n", 10, "--aggregate", "--out"],
    ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 10, "--out"],
    ["robustness", "--games", 20, "--trajectories", 0, "--players", 2, "--out"],
    ["sweep", "--set", "start_coins=6,7", "--games", 10, "--out"],
    ["ladder", "--bots", "random", "--seats", 2, "--budgets", 10, "--games", 2, "--out"],
    ["report", "--games", 10, "--out"],
    ["tune", "--bot", "greedy", "--out"],
    ["play", "--seed", 1, "--events"],
], ids=lambda a: " ".join(map(str, a[:1] + a[-2:])))
def test_a_users_file_as_out_is_refused_and_kept(tmp_path, capsys, no_games, argv):
    f = tmp_path / "mine.csv"
    f.write_text("my data")
    cli_error(capsys, argv + [f], "mine.csv")
    assert f.read_text() == "my data"


def test_out_on_a_read_only_folder(tmp_path, capsys, no_games):
    """A folder this user cannot write: mode 0555, or for root (who writes through
    modes, as CI does) a file system mounted read-only."""
    ro = tmp_path / "ro"
    ro.mkdir()
    mounted = False
    if os.geteuid() == 0:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(ro)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"root writes through folder modes and cannot mount a read-only tmpfs "
                        f"here ({r.stderr.strip() or r.returncode})")
        mounted = True
    else:
        ro.chmod(0o555)
    try:
        cli_error(capsys, ["simulate", "-n", 10, "--out", ro / "x"], "cannot")
        assert not (ro / "x").exists()
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(ro)], capture_output=True)
        else:
            ro.chmod(0o755)


# ---------------------------------------------------------------------------
# run folders bound to their run
def test_manifest_and_markers_carry_the_run_binding(reference):
    folder, data = reference
    m = json.loads(data["manifest.json"])
    assert len(m["run_id"]) == 32
    d = json.loads(data["chunk-00001.done"])
    assert {k: d[k] for k in ("run_id", "seed", "players", "rules_digest", "first_game", "n_games")} \
        == {"run_id": m["run_id"], "seed": SEED, "players": PLAYERS,
            "rules_digest": m["rules_digest"], "first_game": CHUNK, "n_games": CHUNK}


def other_run(tmp_path, name, players=PLAYERS, rules=None, n_games=N):
    folder = tmp_path / name
    runs.run_to_dir(folder, n_games, players, seed=SEED, rules=rules, chunk_games=CHUNK, workers=2,
                    progress=False)
    return folder


@pytest.mark.parametrize("what", ["players", "rules", "games"])
def test_chunk_of_another_run_refused_on_load_and_replayed_on_resume(reference, tmp_path, what):
    """A chunk (files and marker) copied from a run with the same seed and chunk
    size but other players / rules -- or only more games: its chunk 1 holds the
    same games, but another run (another run id in its rows and marker)."""
    kw = {"players": ["random", "random", "greedy"]} if what == "players" else \
        {"rules": Rules.default().replace(start_coins=9)} if what == "rules" else \
        {"n_games": N + CHUNK}
    src = other_run(tmp_path, "src", **kw)
    run = copy_of(reference, tmp_path)
    for name in ("chunk-00001.done", "games/part-00001.parquet", "players/part-00001.parquet"):
        shutil.copy(src / name, run / name)
    with pytest.raises(ConfigError, match="chunk 1 is damaged.*belongs to another run"):
        cargo_sim.load_results(run)
    with pytest.warns(UserWarning, match="chunk 1 is damaged"):
        info = resume(run)
    assert info.games_played == CHUNK
    assert files(run) == reference[1]


@pytest.mark.parametrize("stray", ["games/notes.parquet", "players/part-00009.parquet",
                                   "games/part-000001.parquet", "players/sub/part-00000.parquet",
                                   "games"])
def test_stray_file_in_a_table_folder_refused(reference, tmp_path, stray):
    """pyarrow, DuckDB and pandas read every file in games/ or players/ as rows:
    a file this run did not write there (or a table folder that is a file) is
    refused on load and on resume in one line, and left where it is."""
    run = copy_of(reference, tmp_path)
    (run / "chunk-00002.done").unlink()        # resume would have a chunk to play
    if stray == "games":
        shutil.rmtree(run / "games")
        (run / "games").write_text("mine")
        why = "games is not a folder"
    else:
        (run / stray).parent.mkdir(exist_ok=True)
        shutil.copy(run / "players" / "part-00000.parquet", run / stray)
        why = f"{stray.split('/')[0]}/{stray.split('/')[1]} is not a file this run wrote"
    before = files(run)
    for call in (cargo_sim.load_results, resume):
        with pytest.raises(ConfigError, match=why):
            call(run)
    assert files(run) == before


def test_names_readers_skip_are_allowed_in_a_table_folder(reference, tmp_path):
    import pyarrow.dataset as ds
    run = copy_of(reference, tmp_path)
    (run / "games" / "_SUCCESS").write_bytes(b"")
    (run / "players" / ".DS_Store").write_bytes(b"x")
    assert len(cargo_sim.load_results(run).games) == N
    assert ds.dataset(run / "games").count_rows() == N and ds.dataset(run / "players").count_rows() == 3 * N


def test_a_newer_run_format_is_one_line(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m["format"] = "cargo_sim.run/3"
    (run / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ConfigError, match="cargo_sim.run/3.*newer cargo_sim"):
        cargo_sim.load_results(run)
    with pytest.raises(ConfigError, match="another kind"):
        resume(run)


def test_aggregate_chunk_of_another_start_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    runs.aggregate_to_dir(a, 200, ["random"] * 4, seed=3, chunk_games=100, progress=False)
    runs.aggregate_to_dir(b, 200, ["random"] * 4, seed=3, chunk_games=100, progress=False, start=100)
    for name in ("agg-00001.npz", "agg-00001.done"):
        shutil.copy(b / name, a / name)
    with pytest.raises(ConfigError, match="chunk 1 is damaged.*another run"):
        cargo_sim.load_aggregates(a)


@pytest.mark.parametrize("name, why", [("chunk-000001.done", "a second marker for chunk 1"),
                                       ("chunk-00007.done", "beyond the run's 3 chunks")])
def test_duplicated_or_stray_marker_refused(reference, tmp_path, name, why):
    run = copy_of(reference, tmp_path)
    (run / "chunk-00002.done").unlink()       # unfinished: must not be called complete
    shutil.copy(run / "chunk-00001.done", run / name)
    before = files(run)
    for call in (cargo_sim.load_results, resume):
        with pytest.raises(ConfigError, match=why):
            call(run)
    assert files(run) == before


def test_swapped_rules_toml_refused(reference, tmp_path, capsys):
    run = copy_of(reference, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m["rules_toml"] = Rules.default().replace(start_coins=9).to_toml()
    (run / "manifest.json").write_text(json.dumps(m))
    before = files(run)
    for call in (cargo_sim.load_results, resume):
        with pytest.raises(ConfigError, match="rebuilds with digest .* not the recorded"):
            call(run)
    cli_error(capsys, ["simulate", "-n", N, "-p", ",".join(PLAYERS), "--seed", SEED, "--chunk-games",
                       CHUNK, "--out", run, "--resume", "--no-progress"], "not the recorded")
    assert files(run) == before


V1 = Path(__file__).parent / "data" / "run_folder_v1"


@pytest.mark.filterwarnings("ignore:.*another version of the engine source")
def test_folder_from_before_run_ids_loads_and_checks_what_its_markers_hold(tmp_path):
    run = tmp_path / "v1"
    shutil.copytree(V1, run)
    assert "run_id" not in json.loads((run / "manifest.json").read_text())
    assert len(cargo_sim.load_results(run).games) == 30
    d = json.loads((run / "chunk-00001.done").read_text())
    d["seed"] = 6                             # a chunk of another seed: still caught
    (run / "chunk-00001.done").write_text(json.dumps(d))
    with pytest.raises(ConfigError, match="chunk 1 is damaged.*seed"):
        cargo_sim.load_results(run)


def test_counts_stay_whole_with_a_duplicate(reference, tmp_path):
    """The duplicate is refused, never counted: games equal one simulate() call."""
    run = copy_of(reference, tmp_path)
    res = cargo_sim.load_results(run)
    assert len(res.games) == N and res.games["game"].is_unique and not res.interrupted


# ---------------------------------------------------------------------------
# aggregate files: whole, finite, consistent counts; damaged metadata is one line
@pytest.fixture(scope="module")
def agg_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("agg") / "a.npz"
    cargo_sim.aggregate(40, ["random"] * 3, seed=2, progress=False).save(path)
    return path


def rewrite(src: Path, dst: Path, counts=None, meta=None, toml=None) -> Path:
    with np.load(src) as z:
        c, m, t = z["counts"], json.loads(str(z["meta"])), str(z["rules_toml"])
    c = c if counts is None else counts(c)
    m = m if meta is None else meta(m)
    t = t if toml is None else toml
    with open(dst, "wb") as f:
        np.savez(f, counts=c, meta=np.array(json.dumps(m)), rules_toml=np.array(t))
    return dst


def _set(d, path, v):
    d = json.loads(json.dumps(d))
    x = d
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = v
    return d


def _nan(c):
    c = c.astype(np.float64)
    c[0] = np.nan
    return c


@pytest.mark.parametrize("change, words", [
    ({"counts": _nan}, "not whole numbers"),
    ({"counts": lambda c: c.astype(np.float64)}, "not whole numbers"),
    ({"counts": lambda c: np.where(np.arange(len(c)) == 0, c + 1, c)}, "games counted"),
    ({"counts": lambda c: -c}, "games counted"),
    ({"meta": lambda m: [m]}, "another format"),
    ({"meta": lambda m: {k: v for k, v in m.items() if k != "config"}}, "another format"),
    ({"meta": lambda m: _set(m, ["config", "parts"], "all")}, "parts"),
    ({"meta": lambda m: _set(m, ["config", "parts"], [[2, 0, 1e300]])}, "parts"),
    ({"meta": lambda m: _set(m, ["config", "n_games"], float("nan"))}, "n_games"),
    ({"meta": lambda m: _set(m, ["config", "players"], None)}, "players"),
    ({"meta": lambda m: _set(m, ["config", "n_players"], 7)}, "n_players"),
    ({"toml": Rules.default().replace(start_coins=9).to_toml()}, "not the recorded"),
    ({"toml": "x = " + "[" * 100_000}, "nested too deeply"),
    ({"toml": "x = 1\nx = 2"}, "not valid TOML"),
])
def test_damaged_aggregate_file_is_one_line(agg_file, tmp_path, change, words):
    bad = rewrite(agg_file, tmp_path / "bad.npz", **change)
    with pytest.raises(ConfigError, match=words):
        cargo_sim.load_aggregates(bad)
    assert cargo_sim.load_aggregates(agg_file).n_games == 40       # the intact one loads


def test_aggregate_file_meta_nested_deeply(agg_file, tmp_path):
    bad = tmp_path / "deep.npz"
    with np.load(agg_file) as z:
        with open(bad, "wb") as f:
            np.savez(f, counts=z["counts"], meta=np.array("[" * 100_000 + "]" * 100_000),
                     rules_toml=z["rules_toml"])
    with pytest.raises(ConfigError, match="not a cargo_sim aggregates file"):
        cargo_sim.load_aggregates(bad)


# ---------------------------------------------------------------------------
# reading: regular files only, capped, UTF-8; FIFOs and devices never hang
def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def special_files(tmp_path):
    """(name, path) of files that are not regular files, or not readable as text."""
    zero_link = tmp_path / "zero.toml"
    zero_link.symlink_to("/dev/zero")
    return [("fifo", fifo(tmp_path / "pipe.toml")), ("dev-zero", Path("/dev/zero")),
            ("dev-urandom", Path("/dev/urandom")), ("symlink-to-dev-zero", zero_link),
            ("folder", tmp_path)]


def test_rules_file_that_is_not_a_regular_file(tmp_path, capsys):
    for name, path in special_files(tmp_path):
        t0 = time.monotonic()
        with pytest.raises(RulesError, match="not a regular file"):
            Rules.from_file(path)
        cli_error(capsys, ["rules", "--rules", path], "not a regular file")
        assert time.monotonic() - t0 < 10, name


@pytest.mark.parametrize("data, words", [
    ("start_coins = 8\n".encode("utf-16"), "UTF-16"),
    (b"start_coins = 8\nname = \"caf\xe9\"\n", "not UTF-8"),
    (b"start_coins = 8\n" + b"#" * (5 * 2**20), "too large"),
])
def test_rules_file_encoding_and_size(tmp_path, capsys, data, words):
    f = tmp_path / "r.toml"
    f.write_bytes(data)
    with pytest.raises(RulesError, match=words):
        Rules.from_file(f)
    cli_error(capsys, ["rules", "--rules", f], words)


def test_utf8_rules_file_with_bom_reads(tmp_path):
    f = tmp_path / "r.toml"
    f.write_bytes(b"\xef\xbb\xbfstart_coins = 9\n")
    assert Rules.from_file(f)["start_coins"] == 9


@pytest.mark.parametrize("which", ["fifo", "dev-zero", "symlink-to-dev-zero", "folder"])
def test_manifest_that_is_not_a_regular_file(reference, tmp_path, capsys, which):
    run = copy_of(reference, tmp_path, "r")
    (run / "manifest.json").unlink()
    target = dict(special_files(tmp_path))[which]
    if which == "fifo":
        fifo(run / "manifest.json")
    elif which == "folder":
        (run / "manifest.json").mkdir()
    else:
        (run / "manifest.json").symlink_to(target)
    with pytest.raises(ConfigError, match="not a regular file"):
        cargo_sim.load_results(run)
    with pytest.raises(ConfigError, match="not a regular file"):
        resume(run)


@pytest.mark.parametrize("marker", ["fifo", "nested", "dev-zero", "data-fifo", "huge"])
def test_marker_that_is_a_fifo_or_nested_deeply(reference, tmp_path, marker):
    run = copy_of(reference, tmp_path)
    m = run / "chunk-00001.done"
    if marker == "data-fifo":                # the chunk's data file, not its marker
        m = run / "players/part-00001.parquet"
    m.unlink()
    if marker == "huge":
        m.write_bytes(b" " * (2 * 2**20))
    elif marker in ("fifo", "data-fifo"):
        fifo(m)
    elif marker == "dev-zero":
        m.symlink_to("/dev/zero")
    else:
        m.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError, match="chunk 1 is damaged"):
        cargo_sim.load_results(run)
    with pytest.warns(UserWarning, match="chunk 1 is damaged"):
        info = resume(run)                   # its own marker's name: replayed
    assert info.games_played == CHUNK and files(run) == reference[1]


def test_manifest_too_large(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    with open(run / "manifest.json", "ab") as f:
        f.write(b" " * (17 * 2**20))
    with pytest.raises(ConfigError, match="too large"):
        cargo_sim.load_results(run)


def test_lock_path_that_is_a_folder(reference, tmp_path, capsys):
    run = copy_of(reference, tmp_path)
    (run / LOCK).mkdir()
    with pytest.raises(ConfigError, match="lock file .* is not a regular file"):
        resume(run)
    assert (run / LOCK).is_dir()
    cli_error(capsys, ["simulate", "-n", N, "-p", ",".join(PLAYERS), "--seed", SEED,
                       "--chunk-games", CHUNK, "--out", run, "--resume"], "not a regular file")


def test_read_helpers_directly(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{"a": 1}')
    assert read_json(f, 100) == {"a": 1}
    with pytest.raises(ConfigError, match="too large"):
        read_text(f, 3)
    with pytest.raises(ConfigError, match="does not exist"):
        read_text(tmp_path / "none", 3)
    with pytest.raises(ConfigError, match="nested too deeply"):
        f.write_text("[" * 100_000)
        read_json(f, 10**6)


# ---------------------------------------------------------------------------
# ladder --report-only on damaged files
@pytest.fixture(scope="module")
def ladder_folder(tmp_path_factory):
    from cargo_sim.runners.ladder import ladder
    out = tmp_path_factory.mktemp("ladder") / "l"
    ladder(["random"], "greedy", [1.0], [2], games=4, seed=1, budget_param="bid_margin",
           progress=False, out=out, rate_decisions=2)
    return out


@pytest.mark.parametrize("name, data, words", [
    ("run.json", b"[1, 2]", "not a ladder's run.json"),
    ("run.json", b'{"yardstick": 1}', "not a ladder's run.json"),
    ("run.json", b"[" * 100_000, "nested too deeply"),
    ("run.json", b"\xff\xfe{", "UTF-16"),
    ("cells.csv", b"\x00\x01garbage\n\"", "not a CSV table"),
    ("cells.csv", b"a,b\n1,2\n", "lacks the columns"),
    ("cells.csv", None, "finite number"),
    ("rates.csv", b"budget\n1\n", "lacks the columns"),
])
def test_ladder_report_only_on_damaged_files(ladder_folder, tmp_path, capsys, name, data, words):
    out = tmp_path / "l"
    shutil.copytree(ladder_folder, out)
    if data is None:                         # a NaN win rate in an otherwise good table
        text = (out / name).read_text().splitlines()
        cols = text[0].split(",")
        row = text[1].split(",")
        row[cols.index("win_rate")] = "nan"
        data = "\n".join([text[0], ",".join(row)] + text[2:]).encode()
    (out / name).write_bytes(data)
    cli_error(capsys, ["ladder", "--report-only", "--out", out], words)


def test_ladder_report_only_on_a_fifo_and_on_the_intact_folder(ladder_folder, tmp_path, capsys):
    out = tmp_path / "l"
    shutil.copytree(ladder_folder, out)
    assert main(["ladder", "--report-only", "--out", str(out)]) == 0
    (out / "cells.csv").unlink()
    fifo(out / "cells.csv")
    capsys.readouterr()
    cli_error(capsys, ["ladder", "--report-only", "--out", out], "not a regular file")


# ---------------------------------------------------------------------------
# a full disk: one line, no final-named partial file
def enospc(*a, **kw):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def assert_no_partial(folder: Path) -> None:
    """Every final-named file in a run folder is complete: the finished chunks load."""
    names = os.listdir(folder)
    assert not [p for p in folder.rglob("*.tmp")], names
    if "manifest.json" in names:
        cargo_sim.load_results(folder) if any(n.endswith(".done") for n in names) else None


def test_disk_full_in_a_run_folder_fault_injected(tmp_path, capsys, monkeypatch):
    import pyarrow.parquet as pq
    real, calls = pq.write_table, {"n": 0}

    def fills_up(table, where, **kw):
        calls["n"] += 1
        if calls["n"] == 3:                  # chunk 1's games table
            with open(where, "wb") as f:
                f.write(b"PAR1 half")        # a partial temp file, then the error
            enospc()
        return real(table, where, **kw)

    monkeypatch.setattr(pq, "write_table", fills_up)
    out = tmp_path / "run"
    cli_error(capsys, ["simulate", "-n", N, "--chunk-games", CHUNK, "--out", out, "--no-progress"],
              "No space left on device")
    assert sorted(files(out)) == ["chunk-00000.done", "games/part-00000.parquet", "manifest.json",
                                  "players/part-00000.parquet"]
    with pytest.warns(UserWarning, match="1 of 3 chunks"):
        assert len(cargo_sim.load_results(out).games) == CHUNK


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_disk_full_in_the_files_layout_fault_injected(tmp_path, capsys, monkeypatch, fmt):
    from cargo_sim.cli import runs as cli_runs
    real, calls = cli_runs._FilesSink.__call__, {"n": 0}

    def fills_up(self, *a):
        calls["n"] += 1
        if calls["n"] == 2:
            enospc()
        return real(self, *a)

    monkeypatch.setattr(cli_runs._FilesSink, "__call__", fills_up)
    out = tmp_path / "f"
    cli_error(capsys, ["simulate", "-n", 90, "--chunk-games", 30, "--out", out, "--layout", "files",
                       "--format", fmt, "--no-progress"], "No space left on device")
    assert not out.exists()                  # nothing final-named, no temp: the folder it made goes too


def test_disk_full_in_an_aggregate_run_fault_injected(tmp_path, capsys, monkeypatch):
    real, calls = np.savez_compressed, {"n": 0}

    def fills_up(f, **arrays):
        calls["n"] += 1
        if calls["n"] == 2:                  # chunk 1's counters
            f.write(b"PK half")
            enospc()
        return real(f, **arrays)

    monkeypatch.setattr(np, "savez_compressed", fills_up)
    out = tmp_path / "agg"
    cli_error(capsys, ["simulate", "-n", 60, "--chunk-games", 20, "--aggregate", "--out", out,
                       "--no-progress"], "No space left on device")
    assert sorted(os.listdir(out)) == ["agg-00000.done", "agg-00000.npz", "manifest.json"]
    monkeypatch.setattr(np, "savez_compressed", real)
    assert cargo_sim.load_aggregates(out).n_games == 20      # the finished chunk, complete


def test_disk_full_for_the_tournament_fault_injected(tmp_path, capsys, monkeypatch):
    import matplotlib.figure
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", enospc)
    out = tmp_path / "t"
    cli_error(capsys, ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 8, "--out", out,
                       "--no-progress"], "No space left on device")
    assert not out.exists()                  # the six files together or none (and no folder it made)


@pytest.fixture
def small_fs(tmp_path):
    """A 300 KB tmpfs (needs root and mount permission; skipped otherwise)."""
    d = tmp_path / "small"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(d)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({r.stderr.strip() or r.returncode}); "
                    "the fault-injected tests above cover a full disk")
    yield d
    subprocess.run(["umount", "-l", str(d)], capture_output=True)


def test_disk_full_on_a_real_small_file_system(small_fs, capsys):
    for layout in ("files", "chunks"):
        out = small_fs / layout
        cli_error(capsys, ["simulate", "-n", 20_000, "--chunk-games", 2000, "--out", out,
                           "--layout", layout, "--no-progress"], "No space left on device")
        if layout == "files":
            assert not out.exists()          # nothing written: the folder it made goes too
        else:                                # every final-named chunk is complete
            names = set(os.listdir(out))
            assert not list(out.rglob("*.tmp"))
            done = [n for n in names if n.endswith(".done")]
            assert done
            with pytest.warns(UserWarning, match="run not finished"):
                res = cargo_sim.load_results(out)
            assert len(res.games) == 2000 * len(done)
            shutil.rmtree(out)
    # fill what is free now (a fixed 298 KB once met a file system not yet given back its
    # space); a fill that itself runs out leaves the disk just as full, which is the point
    try:
        (small_fs / "fill").write_bytes(b"\0" * shutil.disk_usage(small_fs).free)
    except OSError as e:
        assert e.errno == errno.ENOSPC, e
    out = small_fs / "t"                     # no room even for the probe: refused before play
    cli_error(capsys, ["tournament", "-p", "random,greedy", "--seats", 2, "-n", 8, "--out", out],
              "No space left on device")


@pytest.mark.slow
def test_sigkill_in_the_files_layout_leaves_no_partial_final_file(tmp_path):
    out = tmp_path / "f"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen([sys.executable, "-m", "cargo_sim.cli", "simulate", "-n", "400000",
                             "--chunk-games", "2000", "--out", str(out), "--layout", "files",
                             "-j", "2", "--no-progress"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.time()
    while not any(n.endswith(".tmp") and os.path.getsize(out / n) > 0
                  for n in (os.listdir(out) if out.exists() else [])):
        assert proc.poll() is None, proc.stderr.read()
        assert time.time() - t0 < 120
        time.sleep(0.05)
    time.sleep(0.5)
    proc.kill()
    proc.wait()
    names = os.listdir(out)
    assert not {"games.parquet", "players.parquet", "run.json"} & set(names), names
    assert any(n.endswith(".tmp") for n in names)        # the partial tables: temp names only
    # the killed writer's temp files are not ours to delete: the next run goes ahead beside them
    assert main(["simulate", "-n", "50", "--out", str(out), "--layout", "files", "--no-progress"]) == 0
    assert len(__import__("pandas").read_parquet(out / "games.parquet")) == 50
    after = set(os.listdir(out))                         # its lock (ours) was taken over and released
    assert set(names) - {LOCK} <= after and LOCK not in after


# ---------------------------------------------------------------------------
# memory of an interrupted tournament
def test_interrupted_tournament_does_not_keep_its_games(monkeypatch):
    """The KeyboardInterrupt's traceback (sys.last_traceback, a notebook) used to
    hold every game played: ~33 MB here, several GB for a long tournament."""
    import gc
    import tracemalloc
    import cargo_sim.runners.tournament as T
    real = T.run_jobs

    def stop_after_16_jobs(jobs, work, take, workers, interruptible=True):
        n = {"k": 0}

        def take_then_stop(job, out):
            take(job, out)
            n["k"] += 1
            if n["k"] == 16:
                raise KeyboardInterrupt
        return real(jobs, work, take_then_stop, workers, interruptible)

    T.tournament(["random", "random"], 4, games=100, progress=False, workers=2)    # compiled
    monkeypatch.setattr(T, "run_jobs", stop_after_16_jobs)
    tracemalloc.start()
    try:
        with pytest.raises(KeyboardInterrupt) as kept:        # the exception, kept alive
            T.tournament(["random", "random"], 4, games=10**6, progress=False, workers=2)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept.value is not None
    assert held < 16 * 2**20, held     # 16 jobs of 2048 games: ~24 MB of results, + ~9 in flight


def test_tournament_that_cannot_fit_in_memory_is_refused_up_front(no_games):
    with pytest.raises(ConfigError, match="GiB in memory"):
        cargo_sim.tournament(["random", "random"], 4, games=10**12, progress=False)


def test_claim_folder_refusals(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ConfigError, match="not a folder"):
        claim_folder(f)
    link = tmp_path / "broken"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(ConfigError, match="broken symlink"):
        claim_folder(link)
    assert claim_folder(tmp_path / "new" / "deep") == (tmp_path / "new" / "deep", False)
    assert f.read_text() == "x" and link.is_symlink()


def test_a_folder_in_place_of_a_run_file_is_refused_and_left_alone(tmp_path):
    """A chunk's data file replaced by a folder: load and resume say so in one line
    and leave the folder; a folder where a chunk still to play will be written is
    refused when its file is written (never replaced); moved away, resume finishes."""
    from cargo_sim.runners.runs import run_to_dir
    out = tmp_path / "run"
    run_to_dir(out, 40, ["random"] * 2, seed=1, chunk_games=20, progress=False)
    victim = out / "games" / "part-00000.parquet"
    victim.unlink()
    victim.mkdir()
    (victim / "mine.txt").write_text("mine")
    for call in (lambda: cargo_sim.load_results(out),
                 lambda: run_to_dir(out, 40, ["random"] * 2, seed=1, chunk_games=20, progress=False,
                                    resume=True)):
        with pytest.raises(ConfigError, match=r"games/part-00000.parquet is a folder.*move it away") as e:
            call()
        assert "\n" not in str(e.value) and (victim / "mine.txt").read_text() == "mine"
    shutil.move(victim, tmp_path / "moved")
    (out / "chunk-00001.done").unlink()              # chunk 1 to play again, its file a folder now
    (out / "players" / "part-00001.parquet").unlink()
    (out / "players" / "part-00001.parquet").mkdir()
    with pytest.raises(ConfigError, match=r"part-00001.parquet: a folder is in its place"), \
            pytest.warns(UserWarning, match="chunk 0 is damaged .*missing.*playing it again"):
        run_to_dir(out, 40, ["random"] * 2, seed=1, chunk_games=20, progress=False, resume=True)
    assert (out / "players" / "part-00001.parquet").is_dir()
    (out / "players" / "part-00001.parquet").rmdir()
    run_to_dir(out, 40, ["random"] * 2, seed=1, chunk_games=20, progress=False, resume=True)
    assert len(cargo_sim.load_results(out).games) == 40
