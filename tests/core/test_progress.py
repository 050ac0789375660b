"""Progress bars name their work; the first import of a source version says it compiles."""
import io

from cargo_sim.core import cache as _cache
from cargo_sim.core.progress import Progress


def test_bar_names_its_work_and_counts_games():
    out = io.StringIO()
    bar = Progress(2000, label="simulate: 2 players (random, random)", stream=out, every=0)
    for _ in range(4):
        bar.update(500)
    bar.close()
    text = out.getvalue()
    assert "simulate: 2 players (random, random), 2,000 games" in text
    assert "2000/2000" in text and "100%" in text
    assert bar.done == 2000 and bar.rate > 0


def test_disabled_bar_writes_nothing():
    out = io.StringIO()
    bar = Progress(10, label="x", enabled=False, stream=out)
    bar.update(10)
    bar.close()
    assert out.getvalue() == "" and bar.done == 10


def test_compile_notice_only_for_an_empty_cache(tmp_path):
    err = io.StringIO()
    assert _cache.announce_first_compile(tmp_path, err)
    line = err.getvalue()
    assert line.count("\n") == 1 and "compiling the engine" in line and "once" in line
    kernels = tmp_path / "cargo_noir_abc"
    kernels.mkdir()
    (kernels / "engine_nb.run_games_nb-1.py311.nbi").write_text("x")
    err = io.StringIO()
    assert not _cache.announce_first_compile(tmp_path, err)
    assert err.getvalue() == ""


def test_default_bar_writes_to_stderr(capsys):
    bar = Progress(5, label="aggregate: 3 players")
    bar.update(5)
    bar.close()
    assert "aggregate: 3 players, 5 games" in capsys.readouterr().err


def test_notebook_without_ipywidgets_gets_two_lines_and_no_warning(monkeypatch, capsys):
    """In a Jupyter kernel without ipywidgets: no TqdmWarning, no refreshes saved
    into the notebook, one line at the start and one at the end."""
    import sys
    import warnings
    from cargo_sim.core import progress
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(progress, "has_widgets", lambda: False)
    monkeypatch.delitem(sys.modules, "tqdm.auto", raising=False)
    monkeypatch.delitem(sys.modules, "tqdm.autonotebook", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bar = progress.Progress(2000, label="simulate: 2 players (random, random)", every=0)
        for _ in range(20):
            bar.update(100)
        bar.close()
    err = capsys.readouterr().err
    assert "\r" not in err and err.count("\n") == 2
    first, last = err.splitlines()
    assert first == "simulate: 2 players (random, random), 2,000 games: started"
    assert last.startswith("simulate: 2 players (random, random), 2,000 games: 2,000 done in ")
    assert "tqdm.auto" not in sys.modules           # never imported: that import is what warns


def test_in_notebook_is_false_outside_a_kernel():
    from cargo_sim.core import progress
    assert progress.in_notebook() is False
