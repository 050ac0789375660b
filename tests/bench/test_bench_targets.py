"""``make bench``'s long-run targets run end to end (a small size): the CLI run to
disk is timed through the game's chunk kernel, which the measuring code has to
wrap on the game's class (it is a property there)."""
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_targets_only_runs_and_reports_each_target():
    r = subprocess.run([sys.executable, "-m", "cargo_sim.bench", "--targets-only",
                        "--cli-out-games", "3000", "--target-memory-games", "3000", "--repeat", "1"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout
    assert "cargo-sim simulate --out, 3,000 4-player random games" in out
    assert "CPU of the run / CPU of its kernel calls" in out
    assert "in-memory simulate, 3,000 4-player random games" in out
