"""run_to_dir / load_results: a chunked run on disk equals one simulate() call;
resume after a crash gives exactly the files of an uninterrupted run; a folder
of another run is refused; writes are atomic."""
import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from pandas.testing import assert_frame_equal

import cargo_sim
from cargo_sim import ConfigError, Rules
from cargo_sim.runners import runs
from cargo_sim.runners.runs import load_results, run_to_dir
from cargo_sim.runners.runs import write as runs_write
from cargo_sim.runners.runs.folder import RUN_ID_FIELDS, RUN_ID_RX, run_id_of, temp_tag

PLAYERS = ["random", "random", "random"]
N, CHUNK, SEED = 1000, 300, 7          # 4 chunks, the last one short


def files(folder: Path) -> dict:
    """Every file under ``folder`` by its path there (``games/part-00000.parquet``)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def twin(run: Path, dest: Path, **kw) -> dict:
    """The files of ``run``'s request played uninterrupted into a new folder: its
    run id derives from the request, so a run interrupted and resumed any number
    of times, or played elsewhere (Dask), must equal it byte for byte."""
    m = json.loads((run / "manifest.json").read_text())
    info = run_to_dir(dest, m["n_games"], m["players"], seed=m["seed"], chunk_games=m["chunk_games"],
                      progress=False, **kw)
    assert info.games_played == m["n_games"] and info.config["run_id"] == m["run_id"]
    return files(dest)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref") / "run"
    info = run_to_dir(folder, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, progress=False)
    assert info.complete and not info.interrupted and info.games_done == N
    return folder, files(folder)


def test_chunked_run_equals_one_simulate(reference):
    folder, _ = reference
    one = cargo_sim.simulate(N, PLAYERS, seed=SEED, progress=False)
    res = load_results(folder)
    assert_frame_equal(res.games, one.games)
    assert_frame_equal(res.players, one.players)
    assert res.rules == Rules.default()
    assert res.config["n_games"] == N and res.config["players"] == PLAYERS
    assert not res.interrupted


def test_files_and_no_temps(reference):
    folder, data = reference
    names = set(data)
    want = {"manifest.json"} | {f"{t}/part-{k:05d}.parquet" for t in ("games", "players")
                                for k in range(4)} | {f"chunk-{k:05d}.done" for k in range(4)}
    assert names == want                     # nothing else: no temp files left
    m = json.loads(data["manifest.json"])
    assert m["n_chunks"] == 4 and m["chunk_games"] == CHUNK and m["seed"] == SEED
    assert m["rules_digest"] == Rules.default().digest and "version" in m


def test_resume_after_deleting_last_chunk(reference, tmp_path):
    folder, data = reference
    run = tmp_path / "run"
    shutil.copytree(folder, run)
    for name in ("chunk-00003.done", "games/part-00003.parquet", "players/part-00003.parquet"):
        (run / name).unlink()
    tag = temp_tag(json.loads(data["manifest.json"]))
    for half in (f".games-00003.parquet.{tag}.k2x_9q.tmp", f"games/.part-00003.parquet.{tag}.k2x.tmp"):
        (run / half).write_bytes(b"half a file")      # a crash mid-write (in either layout)
    users = {".games-00003.parquet.999.tmp": b"not ours", ".notes.tmp": b"the user's",
             "players/.part-00003.parquet.999.tmp": b"not ours", "games/_SUCCESS": b""}
    for name, b in users.items():                # temp-looking files of someone else: kept
        (run / name).write_bytes(b)
    info = run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, resume=True,
                      progress=False)
    assert info.games_played == N - 3 * CHUNK and info.complete
    assert files(run) == {**data, **users}


def test_crash_then_resume(reference, tmp_path, monkeypatch):
    folder, data = reference
    run = tmp_path / "run"
    real = runs_write._write_parquet
    calls = {"n": 0}

    def crashing(path, *table):
        calls["n"] += 1
        if calls["n"] == 4:                  # chunk 1's players table: crash mid-chunk
            raise RuntimeError("disk full")
        real(path, *table)

    monkeypatch.setattr(runs_write, "_write_parquet", crashing)
    with pytest.raises(RuntimeError, match="disk full"):
        run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, progress=False)
    assert sorted(p.name for p in run.glob("chunk-*.done")) == ["chunk-00000.done"]
    assert not list(run.rglob(".*tmp"))
    monkeypatch.setattr(runs_write, "_write_parquet", real)
    res = load_results(run)                  # a partial run loads its finished chunks
    assert res.interrupted and len(res.games) == CHUNK
    info = run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, resume=True,
                      progress=False)
    assert info.games_played == N - CHUNK
    assert files(run) == data                # the uninterrupted run's bytes, run id and all


def raise_interrupt():
    raise KeyboardInterrupt


def send_ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.parametrize("at_call, action", [
    (3, raise_interrupt),   # KeyboardInterrupt while chunk 2 plays: chunk 2 is dropped
    (2, send_ctrl_c),       # Ctrl-C while chunk 1 plays: a flag; chunk 1 is finished and saved
])
def test_interrupt_keeps_finished_chunks_then_resume(reference, tmp_path, monkeypatch, capsys,
                                                     at_call, action):
    folder, data = reference
    run = tmp_path / "run"
    real = runs_write._play_chunk
    calls = {"n": 0}

    def interrupted(*a, **kw):
        calls["n"] += 1
        if calls["n"] == at_call:
            action()
        return real(*a, **kw)

    monkeypatch.setattr(runs_write, "_play_chunk", interrupted)
    before = signal.getsignal(signal.SIGINT)      # SIG_IGN when pytest runs in the background
    info = run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, progress=False)
    assert info.interrupted and info.chunks_done == 2 and info.games_done == 2 * CHUNK
    assert calls["n"] == at_call                              # no chunk started after it
    assert signal.getsignal(signal.SIGINT) is before                     # handler restored
    assert "resume" in capsys.readouterr().err
    monkeypatch.setattr(runs_write, "_play_chunk", real)
    run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=2, resume=True, progress=False)
    assert files(run) == data                # the uninterrupted run's bytes, run id and all


# ---------------------------------------------------------------------------
# run ids derive from the request: the same command writes the same bytes
def test_same_request_twice_writes_the_same_bytes(reference, tmp_path):
    folder, data = reference
    run_to_dir(tmp_path / "again", N, PLAYERS, seed=SEED, chunk_games=CHUNK, workers=1,
               progress=False)
    assert files(tmp_path / "again") == data     # every file: manifest, markers, chunks


def test_aggregate_run_twice_writes_the_same_bytes(tmp_path):
    for name in ("a", "b"):
        runs.aggregate_to_dir(tmp_path / name, 200, ["random"] * 4, seed=3, chunk_games=100,
                              progress=False)
    assert files(tmp_path / "a") == files(tmp_path / "b")


@pytest.mark.parametrize("change", [{"seed": SEED + 1}, {"n_games": N + 1},
                                    {"chunk_games": CHUNK + 1},
                                    {"players": ["random", "random", "greedy"]},
                                    {"rules": Rules.default().replace(start_coins=9)}],
                         ids=["seed", "games", "chunk", "players", "rules"])
def test_runs_that_differ_never_share_an_id(change):
    request = {"n_games": N, "players": PLAYERS, "seed": SEED, "rules": None, "chunk_games": CHUNK}
    m, _ = runs.plan(**request)
    other, _ = runs.plan(**{**request, **change})
    assert RUN_ID_RX.fullmatch(m["run_id"]) and RUN_ID_RX.fullmatch(other["run_id"])
    assert other["run_id"] != m["run_id"]
    assert runs.plan(**request)[0]["run_id"] == m["run_id"]       # the same request: the same id


def test_every_defining_field_is_in_the_id():
    m, _ = runs.plan(N, PLAYERS, SEED, None, CHUNK)
    assert run_id_of(m) == m["run_id"]
    for k in RUN_ID_FIELDS:                # (start and layout: aggregate runs')
        assert run_id_of({**m, k: [m.get(k)]}) != m["run_id"], k
    for k in ("version", "n_chunks", "rules_toml"):       # records, or implied by the fields
        assert run_id_of({**m, k: "other"}) == m["run_id"], k


def test_the_same_run_in_two_folders_is_not_loaded_twice(reference, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(reference[0], copy)
    with pytest.raises(ConfigError, match="hold the same run.*count twice"):
        load_results([reference[0], copy])


def encodings(path: Path) -> dict:
    import pyarrow.parquet as pq
    rg = pq.ParquetFile(path).metadata.row_group(0)
    return {rg.column(i).path_in_schema: (rg.column(i).compression, rg.column(i).encodings)
            for i in range(rg.num_columns)}


def test_codec_of_new_folders(reference):
    import pyarrow.parquet as pq
    folder, _ = reference
    assert json.loads((folder / "manifest.json").read_text())["codec"] == "zstd-delta-required"
    path = folder / "players" / "part-00000.parquet"
    enc = encodings(path)
    assert all(c == "ZSTD" for c, _ in enc.values())
    assert "DELTA_BINARY_PACKED" in enc["vp"][1] and "DELTA_BINARY_PACKED" in enc["game"][1]
    assert "RLE_DICTIONARY" in enc["bot"][1] and "RLE_DICTIONARY" not in enc["vp"][1]
    f = pq.ParquetFile(path)
    assert not any(field.nullable for field in f.schema_arrow)        # required columns
    rg = f.metadata.row_group(0)
    stats = {rg.column(i).path_in_schema: rg.column(i).statistics for i in range(rg.num_columns)}
    assert (stats["game"].min, stats["game"].max) == (0, CHUNK - 1)   # readers skip files by game
    assert all(s is None or not s.has_min_max for c, s in stats.items() if c != "game")


def test_chunk_columns_at_file_widths():
    """A run folder's chunk columns (table_columns, narrow=False) hold the values of
    simulate()'s narrowed ones at the file widths (games int64, players int32),
    whatever the tie-break; a chunk played in two parts and joined is the same."""
    import numpy as np
    from cargo_sim.core.columns import concat_columns
    from cargo_sim.core.runner import play_columns
    for rules in (Rules.default(), Rules.default().replace(tie_break="cost")):
        kw = dict(seed=SEED, rules=rules, progress=False, workers=2)
        wide = play_columns("cargo_noir", 40, PLAYERS, start=17, narrow=False, chunk_size=16, **kw)
        small = play_columns("cargo_noir", 40, PLAYERS, start=17, **kw)
        halves = [play_columns("cargo_noir", 20, PLAYERS, start=a, narrow=False, **kw)
                  for a in (17, 37)]
        for t, width in (("games", np.int64), ("players", np.int32)):
            w, s = getattr(wide, t), getattr(small, t)
            joined = concat_columns([getattr(h, t) for h in halves])
            assert list(w) == list(s) == list(joined)
            for c in w:
                np.testing.assert_array_equal(np.asarray(w[c]), np.asarray(s[c]))
                np.testing.assert_array_equal(np.asarray(joined[c]), np.asarray(s[c]))
                if np.asarray(s[c]).dtype.kind == "i":
                    assert w[c].dtype == (np.int64 if c == "game" else width), (t, c)
                else:
                    assert w[c].dtype == s[c].dtype, (t, c)
        assert small.players["vp"].dtype == np.int8                   # in memory: narrowed


# written by cargo_sim at commit 151cc32, before the manifest named a codec; its chunks were
# played again in that codec when the random bot got its own stream (the manifest is the original)
V0 = Path(__file__).parent / "data" / "run_folder_v0"


def saved_rules(folder):
    """The rules a run folder was played under, read back as saved (its digest checked)."""
    return runs.manifest_rules(folder, json.loads((folder / "manifest.json").read_text()))


def pandas_metadata(path) -> dict:
    """A Parquet file's pandas metadata without the writer's pandas version."""
    import pyarrow.parquet as pq
    meta = json.loads(pq.read_schema(path).metadata[b"pandas"])
    meta.pop("pandas_version")
    return meta


@pytest.mark.filterwarnings("ignore:.*another version of the engine source")
def test_folder_from_before_the_codec_field_loads_and_resumes_in_its_codec(tmp_path):
    import pyarrow.parquet as pq
    run = tmp_path / "run"
    shutil.copytree(V0, run)
    assert "codec" not in json.loads((run / "manifest.json").read_text())
    saved = saved_rules(run)          # a Cargo Ship at 12: the defaults before issue 27
    one = cargo_sim.simulate(30, ["random", "random"], seed=5, progress=False, rules=saved)
    res = load_results(run)
    assert_frame_equal(res.games, one.games)
    assert_frame_equal(res.players, one.players)
    for name in ("chunk-00001.done", "games-00001.parquet", "players-00001.parquet"):
        (run / name).unlink()
    info = run_to_dir(run, 30, ["random", "random"], seed=5, chunk_games=10, workers=2,
                      resume=True, progress=False, rules=saved)
    assert info.games_played == 10 and info.complete
    assert_frame_equal(load_results(run).players, one.players)
    for t in runs.TABLES:                # chunk 1 again in the old codec, schema and all
        old, new = (run / runs.chunk_file(t, k, runs.FLAT_FORMAT) for k in (0, 1))
        assert pq.read_schema(new).equals(pq.read_schema(old))
        assert pandas_metadata(new) == pandas_metadata(old)
        assert encodings(new) == encodings(old)


# written by cargo_sim at commit 52f9787 (codec zstd-delta); its chunks were played again
# in that codec when the random bot got its own stream (the manifest is the original)
V1 = Path(__file__).parent / "data" / "run_folder_v1"


@pytest.mark.filterwarnings("ignore:.*another version of the engine source")
def test_zstd_delta_folder_resumes_byte_identical(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(V1, run)
    assert json.loads((run / "manifest.json").read_text())["codec"] == "zstd-delta"
    data = files(run)
    saved = saved_rules(run)
    one = cargo_sim.simulate(30, ["random", "random"], seed=5, progress=False, rules=saved)
    assert_frame_equal(load_results(run).players, one.players)
    for name in ("chunk-00001.done", "games-00001.parquet", "players-00001.parquet"):
        (run / name).unlink()
    info = run_to_dir(run, 30, ["random", "random"], seed=5, chunk_games=10, workers=2,
                      resume=True, progress=False, rules=saved)
    assert info.games_played == 10 and info.complete
    assert files(run) == data                     # chunk 1 again, bytes and all
    assert not (run / "games").exists()          # in its own flat layout

@pytest.mark.filterwarnings("ignore:.*another version of the engine source")
def test_flat_and_table_folder_runs_load_as_one(reference, tmp_path):
    """A run/1 folder (flat: games-00000.parquet) and a run/2 folder (games/part-...)
    load together; the flat one's rows are tagged from its manifest (its path: it
    has no run id), the new one's from its own; games keeps its one n_players."""
    folder, _ = reference
    old = tmp_path / "old"
    shutil.copytree(V1, old)
    both = load_results([old, folder], mixed_rules=True)
    for t, per in (("games", 1), ("players", None)):
        df = getattr(both, t)
        assert list(df.columns).count("n_players") == 1
        size = df.groupby(["run_id", "run_seed", "n_players"], observed=True).size()
        m = json.loads((folder / "manifest.json").read_text())
        assert size.to_dict() == {(str(old), 5, 2): 30 * (per or 2), (m["run_id"], SEED, 3): N * (per or 3)}


def test_unknown_codec_refused_on_resume(reference, tmp_path):
    folder, data = reference
    run = tmp_path / "run"
    shutil.copytree(folder, run)
    m = json.loads((run / "manifest.json").read_text())
    m["codec"] = "brotli-9"
    (run / "manifest.json").write_text(json.dumps(m))
    (run / "chunk-00003.done").unlink()
    with pytest.raises(ConfigError, match="codec 'brotli-9'"):
        run_to_dir(run, N, PLAYERS, seed=SEED, chunk_games=CHUNK, resume=True, progress=False)
    with pytest.warns(UserWarning, match="not finished"):
        assert len(load_results(run).games) == 3 * CHUNK        # reading needs no codec


@pytest.mark.parametrize("change, word", [
    ({"players": ["random"] * 4}, "players"),
    ({"seed": SEED + 1}, "seed"),
    ({"rules": Rules.default().replace(start_coins=9)}, "rules_digest"),
    ({"chunk_games": 200}, "chunk_games"),
    ({"n_games": 2 * N}, "n_games"),
])
def test_different_config_refused(reference, tmp_path, change, word):
    folder, data = reference
    run = tmp_path / "run"
    shutil.copytree(folder, run)
    kw = dict(n_games=N, players=PLAYERS, seed=SEED, chunk_games=CHUNK, progress=False)
    kw.update(change)
    with pytest.raises(ConfigError, match=word):
        run_to_dir(run, resume=True, **kw)
    assert files(run) == data


def test_non_empty_folder_needs_resume(reference, tmp_path):
    folder, _ = reference
    with pytest.raises(ConfigError, match="resume"):
        run_to_dir(folder, N, PLAYERS, seed=SEED, chunk_games=CHUNK, progress=False)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    for resume in (False, True):             # not a run: refused, with or without resume
        with pytest.raises(ConfigError, match="not a cargo_sim run folder.*notes.txt"):
            run_to_dir(other, N, PLAYERS, seed=SEED, chunk_games=CHUNK, progress=False,
                       resume=resume)
    assert files(other) == {"notes.txt": b"mine"}
    # resume on a finished run plays nothing and changes nothing
    before = files(folder)
    info = run_to_dir(folder, N, PLAYERS, seed=SEED, chunk_games=CHUNK, progress=False, resume=True)
    assert info.games_played == 0 and info.complete and files(folder) == before


def test_load_results_columns_lazy_and_rules(tmp_path):
    rules = Rules.default().replace(start_coins=9)
    run = tmp_path / "run"
    run_to_dir(run, 400, ["random", "random"], seed=3, rules=rules, chunk_games=150, progress=False)
    res = load_results(run)
    assert res.rules == rules and res.rules.digest == rules.digest
    one = cargo_sim.simulate(400, ["random", "random"], seed=3, rules=rules, progress=False)
    assert_frame_equal(res.players, one.players)
    part = load_results(run, columns=["game", "vp", "turns"])
    assert list(part.games.columns) == ["game", "turns"]
    assert list(part.players.columns) == ["game", "vp"]
    assert_frame_equal(part.players, one.players[["game", "vp"]])
    with pytest.raises(ConfigError, match="unknown columns"):
        load_results(run, columns=["game", "nope"])
    lazy = load_results(run, lazy=True)
    assert lazy.players.count_rows() == 800 and lazy.games.count_rows() == 400
    t = lazy.players.to_table(columns=["game", "vp"]).to_pandas()
    assert (t["vp"].to_numpy() == one.players["vp"].to_numpy()).all()


def test_bad_requests(tmp_path):
    with pytest.raises(ConfigError):
        run_to_dir(tmp_path / "a", 10, PLAYERS, chunk_games=0, progress=False)
    with pytest.raises(ConfigError):
        run_to_dir(tmp_path / "b", 10, PLAYERS, seed=-1, progress=False)
    with pytest.raises(ConfigError, match="not a cargo_sim run folder"):
        load_results(tmp_path)
