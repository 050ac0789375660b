"""The engine against the reference kernel (part of ``make bench``).

The reference (``shared/tools/refsim.py`` next to the repository, or the file named by
``$CARGO_SIM_REFSIM``) is a minimal numba kernel of the same rules that keeps each game's
state in small local arrays and plays random answers with a simple trade rule: a
measuring stick, not part of the library. 4-player random games on one thread, the
library's kernel (``bench.kernel_rate``, as ``simulate`` runs its chunks) and the
reference timed in alternation in this process; the ratio of each round, then their
median and spread (target: >= 0.75).
"""
from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path


def reference_path() -> Path | None:
    env = os.environ.get("CARGO_SIM_REFSIM")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent          # the repository (editable install)
    for cand in (here.parent / "shared" / "tools" / "refsim.py",
                 here.parent.parent / "shared" / "tools" / "refsim.py"):
        if cand.is_file():
            return cand
    return None


def load_reference(path: Path):
    spec = importlib.util.spec_from_file_location("cargo_sim_refsim", path)
    mod = importlib.util.module_from_spec(spec)
    # registered first: numba's cache names a kernel's module, and a module missing from
    # sys.modules is saved as "<dynamic>", which the next process cannot load
    # (ModuleNotFoundError from the reference's cached kernels)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def engine_vs_reference(kernel_rate, rounds: int = 5, seconds: float = 1.0,
                        n_players: int = 4) -> dict | None:
    """{"ratios": [...], "median", "min", "max", "library", "reference"} (games/s of each
    round), or None without the reference. ``kernel_rate(n_players, n_games, workers,
    seed)``: cargo_sim.bench's."""
    path = reference_path()
    if path is None:
        return None
    ref = load_reference(path)

    def ref_rate(n, seed):
        t0 = time.perf_counter()
        ref.run(n, n_players, seed, False)
        return n / (time.perf_counter() - t0)

    kernel_rate(n_players, 64, 1)                 # load (or compile) both first
    ref_rate(64, 1)
    n_lib = max(256, int(kernel_rate(n_players, 2048, 1) * seconds))
    n_ref = max(256, int(ref_rate(4096, 2) * seconds))
    lib, rs = [], []
    for r in range(max(1, rounds)):
        lib.append(kernel_rate(n_players, n_lib, 1, 10 + r))
        rs.append(ref_rate(n_ref, 10 + r))
    ratios = [a / b for a, b in zip(lib, rs)]
    return {"path": str(path), "library": lib, "reference": rs, "ratios": ratios,
            "median": statistics.median(ratios), "min": min(ratios), "max": max(ratios)}
