"""Faults on run folders: a second writer, damaged, truncated or swapped chunks,
crafted manifests, runs of 10^12 games, and kill -9 / Ctrl-C of the CLI at
several points then --resume (byte-identical to an uninterrupted run)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim import ConfigError
from cargo_sim.runners import runs
from cargo_sim.runners.runs.folder import LOCK, RunLock

PLAYERS = ["random", "random", "random"]
N, CHUNK, SEED = 900, 300, 5


from .test_runs import files, twin  # noqa: E402  (sibling test module)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref") / "run"
    runs.run_to_dir(folder, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, progress=False)
    return folder, files(folder)


def copy_of(reference, tmp_path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(reference[0], run)
    return run


def resume(run):
    return runs.run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, resume=True,
                           progress=False)


# ---------------------------------------------------------------------------
# lock
def test_second_writer_refused(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    with RunLock(run):                               # a writer holds the folder
        with pytest.raises(ConfigError, match="in use by process"):
            resume(run)
    assert not (run / LOCK).exists()                 # released by its owner


def test_lock_of_a_live_process_refused_and_stale_lock_taken_over(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (run / LOCK).write_text(json.dumps({"pid": sleeper.pid, "host": socket.gethostname()}))
        with pytest.raises(ConfigError, match=f"process {sleeper.pid}"):
            resume(run)
    finally:
        sleeper.kill()
        sleeper.wait()
    info = resume(run)                                # its owner is gone: the lock is stale
    assert info.complete and files(run) == reference[1]
    (run / LOCK).write_text(json.dumps({"pid": 1, "host": "another-host"}))
    with pytest.raises(ConfigError, match="another-host"):   # cannot see that host: trust it
        resume(run)


def test_two_runs_with_different_seeds_in_one_folder(tmp_path):
    """The second process is refused (it would mix chunks of two runs)."""
    run = tmp_path / "run"
    run.mkdir()
    lock = RunLock(run).acquire()
    try:
        with pytest.raises(ConfigError, match="in use"):
            runs.run_to_dir(run, 100, PLAYERS, seed=2, chunk_games=50, progress=False)
    finally:
        lock.release()


# ---------------------------------------------------------------------------
# damaged chunks: never read as data; resume plays them again
def damage_truncate(run):
    p = run / "players/part-00001.parquet"
    p.write_bytes(p.read_bytes()[:-100])


def damage_swap(run):                              # a valid chunk copied over another
    for t in ("games", "players"):
        shutil.copy(run / t / "part-00000.parquet", run / t / "part-00001.parquet")


def damage_swap_with_marker(run):                  # ... with its marker
    damage_swap(run)
    shutil.copy(run / "chunk-00000.done", run / "chunk-00001.done")


def damage_flip_byte(run):
    p = run / "games/part-00001.parquet"
    b = bytearray(p.read_bytes())
    b[len(b) // 2] ^= 0xFF
    p.write_bytes(bytes(b))


def damage_marker(run):
    (run / "chunk-00001.done").write_text("{not json")


@pytest.mark.parametrize("damage", [damage_truncate, damage_swap, damage_swap_with_marker,
                                    damage_flip_byte, damage_marker])
def test_damaged_chunk_refused_on_load_and_replayed_on_resume(reference, tmp_path, damage):
    run = copy_of(reference, tmp_path)
    damage(run)
    with pytest.raises(ConfigError, match="chunk 1 is damaged"):
        cargo_sim.load_results(run)
    with pytest.warns(UserWarning, match="chunk 1 is damaged"):
        info = resume(run)
    assert info.games_played == CHUNK
    assert files(run) == reference[1]
    one = cargo_sim.simulate(N, PLAYERS, seed=SEED, progress=False)
    assert_frame_equal(cargo_sim.load_results(run).games, one.games)


def test_truncation_caught_without_checksums(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    damage_truncate(run)
    with pytest.raises(ConfigError, match="truncated"):
        cargo_sim.load_results(run, verify=False)


# ---------------------------------------------------------------------------
# manifests
@pytest.mark.parametrize("change, word", [
    ({"n_games": "many"}, "n_games"),
    ({"n_chunks": 7}, "n_chunks"),
    ({"chunk_games": 0}, "chunk_games"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"players": [1, 2]}, "players"),
    ({"rules_toml": None}, "rules_toml"),
])
def test_crafted_manifest_is_a_clear_error(reference, tmp_path, change, word):
    run = copy_of(reference, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m.update(change)
    (run / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ConfigError, match=word):
        cargo_sim.load_results(run)
    (run / "manifest.json").write_text("[1, 2]")
    with pytest.raises(ConfigError, match="not a JSON object"):
        cargo_sim.load_results(run)


def test_manifest_claiming_10_12_chunks_is_checked_against_files(reference, tmp_path):
    run = copy_of(reference, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m.update(n_games=10**12 * CHUNK, n_chunks=10**12)
    (run / "manifest.json").write_text(json.dumps(m))
    t0 = time.perf_counter()
    with pytest.warns(UserWarning, match="3 of 1000000000000 chunks"):
        res = cargo_sim.load_results(run)
    assert time.perf_counter() - t0 < 5
    assert res.interrupted and len(res.games) == N


# ---------------------------------------------------------------------------
# aggregates on disk
def test_aggregate_chunks_damaged_or_from_another_seed(tmp_path):
    players = ["random"] * 4
    a = tmp_path / "a"
    b = tmp_path / "b"
    runs.aggregate_to_dir(a, 200, players, seed=3, chunk_games=100, progress=False)
    runs.aggregate_to_dir(b, 200, players, seed=4, chunk_games=100, progress=False)
    ref = files(a)
    for name in ("agg-00001.npz", "agg-00001.done"):       # a chunk of another seed
        shutil.copy(b / name, a / name)
    with pytest.raises(ConfigError, match="chunk 1 is damaged.*belongs to another run"):
        cargo_sim.load_aggregates(a)
    (a / "agg-00000.npz").write_bytes(b"PK\x03\x04 not a zip")   # a damaged .npz
    with pytest.warns(UserWarning, match="damaged"):
        info = runs.aggregate_to_dir(a, 200, players, seed=3, chunk_games=100, progress=False,
                                     resume=True)
    assert info.games_played == 200
    assert {k: v for k, v in files(a).items()} == ref
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(ConfigError, match="damaged"):
        cargo_sim.load_aggregates(bad)


def test_aggregate_of_10_12_games_takes_no_memory_before_play(tmp_path, monkeypatch):
    from cargo_sim.games.cargo_noir import aggregates as A
    def stop_at_once(*a, **kw):
        raise KeyboardInterrupt

    cargo_sim.aggregate(10, ["random"] * 4, seed=1, progress=False)   # compiled before measuring
    monkeypatch.setattr(A, "run_chunk", stop_at_once)
    tracemalloc.start()
    try:
        part = cargo_sim.aggregate(10**12, ["random"] * 4, seed=1, progress=False, workers=1)
        info = runs.aggregate_to_dir(tmp_path / "big", 10**12, ["random"] * 4, seed=1,
                                     progress=False, workers=1, quiet=True, chunk_games=10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert part.interrupted and info.interrupted and info.n_chunks == 10**6
    assert peak < 50 * 2**20, peak


def test_in_memory_run_that_cannot_fit_is_refused_up_front():
    with pytest.raises(ConfigError, match="--out DIR.*run_to_dir.*aggregate"):
        cargo_sim.simulate(10**12, ["random"] * 4, progress=False)


# ---------------------------------------------------------------------------
# the CLI killed at several points, then resumed
def cli(*args):
    return [sys.executable, "-m", "cargo_sim.cli", "simulate", *map(str, args)]


def wait_for_markers(folder: Path, k: int, proc, timeout=120) -> None:
    t0 = time.time()
    while len(list(folder.glob("chunk-*.done"))) < k:
        if proc.poll() is not None or time.time() - t0 > timeout:
            pytest.fail(f"run ended or stalled before {k} chunks: {proc.poll()}")
        time.sleep(0.02)


@pytest.mark.slow
def test_cli_killed_at_several_points_then_resumed_is_byte_identical(tmp_path):
    n, chunk = 3000, 300
    run = tmp_path / "run"
    args = ["-n", n, "-p", ",".join(PLAYERS), "--seed", SEED, "--chunk-games", chunk, "--out", run,
            "-j", 2, "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    # kill -9 after 1 chunk, then after 4, then Ctrl-C after 7; each time --resume
    for k, sig, extra in ((1, signal.SIGKILL, []), (4, signal.SIGKILL, ["--resume"]),
                          (7, signal.SIGINT, ["--resume"])):
        proc = subprocess.Popen(cli(*args, *extra), env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        wait_for_markers(run, k, proc)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        if sig == signal.SIGINT:
            assert proc.returncode in (130, 0), err
            assert "Traceback" not in err and "Exception ignored" not in err, err
            if proc.returncode == 130:              # one line: what is saved, how to go on
                assert len(err.strip().splitlines()) == 1 and "--resume" in err, err
                # the chunk in flight at Ctrl-C was finished and saved
                assert len(list(run.glob("chunk-*.done"))) > k
    r = subprocess.run(cli(*args, "--resume"), env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    record = json.loads((run / "run.json").read_text())     # the CLI's record of its last call
    assert record["n_games"] == n and record["command"].endswith("--resume")
    got = {k: v for k, v in files(run).items() if k != "run.json"}
    assert got == twin(run, tmp_path / "twin")      # an uninterrupted run of this run id
