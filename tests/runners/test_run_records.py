"""Runs that describe themselves: every folder a command writes has a
run.json with its command line, overrides, rules digest, game, seed and versions;
several run folders load as one, each row tagged with its run."""
import json

import pytest

import cargo_sim
from cargo_sim import ConfigError
from cargo_sim.cli import main

P3 = "random,random,random"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("records")
    a, b, c = base / "a", base / "b", base / "c"
    for out, extra in ((a, ["--seed", "1"]), (b, ["--seed", "2", "-p", "random,random"]),
                       (c, ["--seed", "3", "--set", "start_coins=8"])):
        assert main(["simulate", "-n", "30", "-p", P3, "--out", str(out), "--no-progress",
                     "--chunk-games", "20", *extra]) == 0
    return a, b, c


def test_a_run_folder_has_a_run_json_that_describes_the_call(two_runs):
    c = two_runs[2]
    rec = json.loads((c / "run.json").read_text())
    manifest = json.loads((c / "manifest.json").read_text())
    assert rec["command"].startswith("cargo-sim simulate -n 30") and "--set start_coins=8" in rec["command"]
    assert rec["rules_overrides"] == {"start_coins": 8} and rec["seed"] == 3
    assert rec["rules_digest"] == manifest["rules_digest"] == \
        cargo_sim.Rules.default().replace(start_coins=8).digest
    assert rec["run_id"] == manifest["run_id"] and rec["game"] == "cargo_noir"
    assert rec["n_games"] == 30 and rec["interrupted"] is False
    assert {"cargo_sim", "python", "numpy", "numba", "pandas", "scipy", "pyarrow"} <= set(rec["versions"])


def test_several_run_folders_load_as_one_each_row_tagged(two_runs):
    a, b, _ = two_runs
    one, two = cargo_sim.load_results(a), cargo_sim.load_results(b)
    both = cargo_sim.load_results([a, b])
    assert len(both.games) == 60 and len(both.players) == 30 * 3 + 30 * 2
    ids = both.games.groupby("run_id", observed=True).size()
    assert sorted(ids.index) == sorted([one.config["run_id"], two.config["run_id"]])
    assert both.players.groupby("n_players").size().to_dict() == {2: 60, 3: 90}
    assert both.games["run_seed"].tolist() == [1] * 30 + [2] * 30
    # the rows are the runs' own (game numbers restart in each run: run_id tells them apart)
    assert both.games["seed"].tolist() == one.games["seed"].tolist() + two.games["seed"].tolist()
    assert [r["seed"] for r in both.config["runs"]] == [1, 2]


def test_mixed_rules_are_refused_unless_asked(two_runs):
    a, _, c = two_runs
    with pytest.raises(ConfigError, match="different rules.*mixed_rules=True"):
        cargo_sim.load_results([a, c])
    both = cargo_sim.load_results([a, c], mixed_rules=True)
    assert len(both.games) == 60 and len(both.config["rules_digest"]) == 2
    with pytest.raises(ConfigError, match="given twice"):
        cargo_sim.load_results([a, a])
    with pytest.raises(ConfigError, match="at least one"):
        cargo_sim.load_results([])


def test_a_folder_without_run_json_still_loads(two_runs, tmp_path):
    import shutil
    old = tmp_path / "old"
    shutil.copytree(two_runs[0], old)
    (old / "run.json").unlink()                      # as written before run.json
    assert len(cargo_sim.load_results(old).games) == 30
    assert len(cargo_sim.load_results([old, two_runs[1]]).games) == 60


def test_tournament_and_sweep_records_name_their_versions(tmp_path, capsys):
    t, s = tmp_path / "t", tmp_path / "s"
    assert main(["tournament", "-p", "random,greedy", "--seats", "2", "-n", "4", "--out", str(t),
                 "--no-progress"]) == 0
    assert main(["sweep", "--vary", "start_coins=7,8", "-p", "random,random", "-n", "20",
                 "--out", str(s), "--no-progress"]) == 0
    for folder, kind in ((t, "cargo_sim.tournament/1"), (s, "cargo_sim.sweep/1")):
        rec = json.loads((folder / "run.json").read_text())
        assert rec["kind"] == kind and rec["command"].startswith("cargo-sim ")
        assert "numpy" in rec["versions"] and rec["game"] == "cargo_noir" and "rules_digest" in rec
    assert main(["sweep", "--vary", "start_coins=7,8", "-p", "random,random", "-n", "20",
                 "--out", str(s), "--no-progress"]) == 0       # its own folder: rerun replaces


def test_tune_out_is_a_folder_checked_before_the_search(tmp_path, capsys):
    """tune --out DIR (history.csv, finalists.csv, run.json): a folder holding
    anything else is refused in one line before any game, its file kept."""
    d = tmp_path / "t"
    d.mkdir()
    (d / "mine.txt").write_text("mine")
    assert main(["tune", "--opponents", "random", "--seats", "2", "--evals", "2",
                 "--out", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cargo-sim: error: ")
    assert "not a cargo_sim tune output" in err[0] and "mine.txt" in err[0]
    assert (d / "mine.txt").read_text() == "mine" and sorted(p.name for p in d.iterdir()) == ["mine.txt"]


def test_the_same_command_twice_writes_the_same_files_but_run_json(two_runs, tmp_path):
    """The run id derives from the settings (docs/runs.md "Run ids"): only run.json,
    the record of the call (time, seconds), differs between two calls."""
    def data(folder):
        return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
                if p.is_file() and p.name != "run.json"}
    again = tmp_path / "again"
    assert main(["simulate", "-n", "30", "-p", P3, "--out", str(again), "--no-progress",
                 "--chunk-games", "20", "--seed", "1", "-j", "1"]) == 0
    assert data(again) == data(two_runs[0]) and len(data(again)) == 7
    files = [tmp_path / f"files{i}" for i in (1, 2)]
    for out in files:
        assert main(["simulate", "-n", "30", "-p", P3, "--out", str(out), "--no-progress",
                     "--layout", "files", "--seed", "1"]) == 0
    assert data(files[0]) == data(files[1]) and len(data(files[0])) == 2
    ids = [json.loads((f / "run.json").read_text())["run_id"] for f in files]
    assert ids[0] == ids[1]
