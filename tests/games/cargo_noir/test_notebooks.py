"""The notebooks in examples/ run as written, in a Jupyter kernel, each in
seconds (once the engine is compiled): no error, no progress-bar warning, no
stray ``<Axes ...>`` line, and what they say they write is written."""
import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))

pytestmark = pytest.mark.slow


def test_the_three_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == ["01_quick_start.ipynb", "02_balance_study.ipynb",
                                           "03_writing_a_bot.ipynb"]
    for p in NOTEBOOKS:            # committed without outputs: the test run makes them
        nb = json.loads(p.read_text())
        assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), p.name


def _texts(nb):
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield out["name"], out["text"]
            for key in ("text/plain",):
                if key in out.get("data", {}):
                    yield "data", out["data"][key]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path):
    import nbclient  # declared test dependencies (with ipykernel): missing is a failure
    import nbformat
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()           # raises CellExecutionError naming the cell on any error
    texts = list(_texts(nb))
    everything = "\n".join(t for _, t in texts)
    assert "TqdmWarning" not in everything and "IProgress" not in everything
    assert "<Axes" not in everything and "Traceback" not in everything
    assert "\r" not in everything             # no bar refreshes saved into the notebook
    if path.stem == "01_quick_start":
        page = tmp_path / "game_17.html"
        assert page.exists() and "cargo-sim replay" in page.read_text()[:4096]
        assert "Final scores:" in everything
    if path.stem == "02_balance_study":
        assert "paired games" in everything
