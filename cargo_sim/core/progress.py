"""The library's one progress bar (tqdm): a widget in a notebook, a text bar
on stderr in a terminal. Each bar names its work: "<label>, 2,000 games"."""
from __future__ import annotations

import sys
import time


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython's kernel app), as tqdm.auto decides."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:                            # an IPython without a shell or config
        return False


def has_widgets() -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec("ipywidgets") is not None
    except (ImportError, ValueError):
        return False


class LineBar:
    """A bar for a notebook without ipywidgets: one line when the work starts
    and one when it ends. A text bar there is saved as every refresh it drew,
    and tqdm.auto warns "IProgress not found" on import."""

    def __init__(self, total, desc, file, **_):
        self.desc, self.file, self.n = desc, file, 0
        self.start = time.perf_counter()
        print(f"{desc}: started", file=file, flush=True)

    def update(self, n):
        self.n += n

    def close(self):
        took = time.perf_counter() - self.start
        print(f"{self.desc}: {self.n:,} done in {took:.1f} s ({self.n / max(took, 1e-9):,.0f} games/s)",
              file=self.file, flush=True)


def _bar_class(stream):
    """The text bar in a terminal or for an explicit stream; in a notebook
    tqdm's widget when ipywidgets is installed, else LineBar (ipywidgets is
    looked for before tqdm.auto is imported: that import is what warns)."""
    from tqdm.std import tqdm as text_bar
    if stream is not None or not in_notebook():
        return text_bar
    if not has_widgets():
        return LineBar
    try:
        from tqdm.auto import tqdm as auto_bar
        return auto_bar
    except ImportError:
        return LineBar


class Progress:
    """A bar over ``total`` games labelled ``"<label>, <total> games"``,
    refreshed at most every ``every`` seconds; nothing at all when not
    ``enabled``. ``stream`` (default stderr) selects the text bar."""

    def __init__(self, total: int, label: str = "games", enabled: bool = True,
                 stream=None, every: float = 0.5):
        self.total, self.label, self.enabled = total, label, enabled
        self.done = 0
        self.start = time.perf_counter()
        self.description = f"{label}, {total:,} games"
        self._bar = None
        if enabled:
            self._bar = _bar_class(stream)(
                total=total, desc=self.description, unit=" games", file=stream or sys.stderr,
                mininterval=every, dynamic_ncols=True, leave=True)

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    @property
    def rate(self) -> float:
        return self.done / max(time.perf_counter() - self.start, 1e-9)
