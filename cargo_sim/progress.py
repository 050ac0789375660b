"""A dependency-free progress line: games done, rate, ETA (on stderr)."""
from __future__ import annotations

import sys
import time


def _fmt_secs(s: float) -> str:
    if s != s or s == float("inf"):
        return "?"
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """Prints `label: done/total games (pct) rate games/s ETA m:ss` at most every `every` s."""

    def __init__(self, total: int, label: str = "games", enabled: bool = True,
                 stream=None, every: float = 0.5):
        self.total, self.label, self.enabled = total, label, enabled
        self.stream = stream or sys.stderr
        self.every = every
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last >= self.every or self.done >= self.total):
            self._last = now
            self._print(now, end="")

    def _print(self, now: float, end: str) -> None:
        el = max(now - self.start, 1e-9)
        rate = self.done / el
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        pct = 100.0 * self.done / self.total if self.total else 100.0
        self.stream.write(f"\r{self.label}: {self.done:,}/{self.total:,} ({pct:5.1f}%) "
                          f"{rate:,.0f} games/s, ETA {_fmt_secs(eta)}, elapsed {_fmt_secs(el)}  ")
        self.stream.write(end)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    @property
    def rate(self) -> float:
        return self.done / max(time.perf_counter() - self.start, 1e-9)
