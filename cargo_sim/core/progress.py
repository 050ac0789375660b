"""The library's one progress bar (tqdm): a widget in a notebook, a text bar
on stderr in a terminal. Each bar names its work: "<label>, 2,000 games"."""
from __future__ import annotations

import sys
import time


def _bar_class(stream):
    """tqdm's notebook widget when running in a notebook kernel with ipywidgets
    (and no explicit stream), else the text bar."""
    from tqdm.std import tqdm as text_bar
    if stream is not None:
        return text_bar
    try:
        from tqdm.auto import tqdm as auto_bar
        if auto_bar is not text_bar:
            import ipywidgets  # noqa: F401  (tqdm's notebook bar fails without it)
        return auto_bar
    except ImportError:
        return text_bar


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
