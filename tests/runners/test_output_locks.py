"""Every command that writes an output folder holds ``run.lock`` there while it
writes (docs/safety.md "Files"): a second writer of the folder is refused in one
line and touches nothing, a lock left by a dead process is taken over, and the
lock goes with its writer (also when it reruns into its own earlier output)."""
import json
import os
import socket
import subprocess
import sys

import pytest

from cargo_sim import ConfigError
from cargo_sim.cli import main
from cargo_sim.runners.runs.folder import LOCK

from .test_files import cli_error, files, no_games  # noqa: F401 (no_games: a fixture)

# each command at its smallest (random/greedy bots, a handful of games)
COMMANDS = {
    "ladder": ["ladder", "--yardstick", "greedy", "--budget-param", "bid_margin", "--budgets", "0",
               "--seats", "2", "--bots", "random", "--games", "2"],
    "sweep": ["sweep", "--vary", "start_coins=7,8", "--players", "random,random", "--games", "10"],
    "tune": ["tune", "--bot", "greedy", "--opponents", "random", "--seats", "2", "--evals", "2",
             "--games-per-eval", "4", "--fresh-games", "4", "--method", "random",
             "--space", "coin_value=0.5:6"],
    "report": ["report", "--games", "20", "--seats", "2", "--events-games", "10", "--no-svg"],
    "robustness": ["robustness", "--games", "20", "--trajectories", "0", "--players", "2",
                   "--param", "turns.2"],
}


def write_lock(folder, pid: int):
    """A lock as RunLock writes it, naming ``pid`` on this host."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / LOCK).write_text(json.dumps({"pid": pid, "host": socket.gethostname(), "since": 0.0}) + "\n")


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def run(command, out) -> int:
    return main(COMMANDS[command] + ["--out", str(out), "--no-progress"])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_live_writers_folder_is_refused_and_untouched(command, tmp_path, capsys, no_games):
    out = tmp_path / "out"
    write_lock(out, os.getpid())                  # a writer at work: this live process
    before = files(out)
    cli_error(capsys, COMMANDS[command] + ["--out", out, "--no-progress"],
              f"in use by process {os.getpid()}", LOCK)
    assert files(out) == before and sorted(os.listdir(out)) == [LOCK]


@pytest.fixture
def one_figure(monkeypatch):
    """The report draws one figure (drawing them all is most of its time)."""
    from analyses import plots
    monkeypatch.setattr(plots, "FIGURES", {"win_rate_by_seat": plots.FIGURES["win_rate_by_seat"]})


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_dead_writers_lock_is_taken_over_and_released(command, tmp_path, capsys, one_figure):
    out = tmp_path / "out"
    write_lock(out, dead_pid())                   # a writer that died before writing anything
    assert run(command, out) == 0, capsys.readouterr().err
    names = set(os.listdir(out))
    assert LOCK not in names and len(names) >= 2
    write_lock(out, dead_pid())                   # one that died rerunning into its output
    assert run(command, out) == 0, capsys.readouterr().err
    assert set(os.listdir(out)) == names          # the same files again, and no lock


def test_the_api_writers_lock_too(tmp_path, no_games):
    import cargo_sim.runners.ladder as lad
    from analyses.report import build_report
    for name in ("ladder", "report"):
        write_lock(tmp_path / name, os.getpid())
    with pytest.raises(ConfigError, match="in use by process"):
        lad.ladder(["random"], yardstick="greedy", budget_param="bid_margin", budgets=[0], seats=[2],
                   games=2, progress=False, out=tmp_path / "ladder")
    with pytest.raises(ConfigError, match="in use by process"):
        build_report(tmp_path / "report", n_games=20, player_counts=(2,))
    assert sorted(os.listdir(tmp_path / "ladder")) == sorted(os.listdir(tmp_path / "report")) == [LOCK]


def test_a_users_lock_named_folder_stays_refused(tmp_path, capsys, no_games):
    """run.lock beside a user's file does not make the folder ours."""
    out = tmp_path / "out"
    write_lock(out, dead_pid())
    (out / "notes.txt").write_text("mine")
    before = files(out)
    cli_error(capsys, COMMANDS["sweep"] + ["--out", out, "--no-progress"], "notes.txt")
    assert files(out) == before


def test_robustness_keeps_its_lock_across_the_folder_swap(tmp_path, monkeypatch):
    """write_report replaces the folder whole: the new folder carries the writer's lock."""
    import analyses.robustness_report as rr
    held = []

    def write_and_look(res, out, command=""):
        path = rr_write(res, out, command)
        held.append(json.loads((path.parent / LOCK).read_text())["pid"])
        return path
    rr_write = rr.write_report
    monkeypatch.setattr(rr, "write_report", write_and_look)
    assert run("robustness", tmp_path / "out") == 0
    assert held == [os.getpid()] and not (tmp_path / "out" / LOCK).exists()
