"""Reading the checkout's git state (the report's and the ladder's ``source``, the
bench's ``commit``) takes no lock in the library's checkout: a plain ``git status``
refreshes the index and holds .git/index.lock meanwhile, which makes a commit or
rebase running there at the same time fail."""
import subprocess

from analyses.report import source_state
from cargo_sim.bench.main import _machine


def test_git_is_asked_read_only(monkeypatch):
    calls = []
    real = subprocess.run

    def record(args, *a, **kw):
        calls.append(list(args))
        return real(args, *a, **kw)

    monkeypatch.setattr(subprocess, "run", record)
    source_state()
    _machine()
    git = [c for c in calls if c and c[0] == "git"]
    statuses = [c for c in git if "status" in c]
    assert len(statuses) == 2, git
    for c in statuses:      # the option must come before the subcommand
        assert "--no-optional-locks" in c[:c.index("status")], c
