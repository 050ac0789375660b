"""The opponent models' posterior read from a game in Python (``GameState``): which
candidate explains each seat's public answers so far (docs/forward.md, "Opponent
models"). The counts are kept only at a table with a search seat."""
from __future__ import annotations

import numpy as np

from ....core.errors import ConfigError
from ....core.search.belief_nb import MISS, posterior_nb
from ..enums import BELIEF, MAX_CAND
from . import registry

FIRST = 1   # candidates are the search models from row 1 (row 0 is `random`)


def candidates() -> list[str]:
    """The candidate policies, in model-row order (each non-search built-in but `random`)."""
    names = [b for b in registry.BUILTIN_ORDER if not registry.BUILTIN[b].search]
    return names[FIRST:MAX_CAND]


def misses(state, seat: int) -> dict:
    """{candidate: (misses, near misses)} counted at `seat`'s answers so far."""
    s = np.asarray(getattr(state, "s", state))
    row = s[BELIEF + seat * MAX_CAND: BELIEF + (seat + 1) * MAX_CAND]
    return {name: (int(row[FIRST + i] // MISS), int(row[FIRST + i] % MISS))
            for i, name in enumerate(candidates())}


def posterior(state, seat: int, opponent: str = "expert", prior: float = 0.5,
              tremble: float = 0.1) -> dict:
    """{candidate: probability} for `seat` (a GameState or its state array), as a
    search with these `opponent`, `prior` and `tremble` parameters models it."""
    names = candidates()
    if opponent not in names:
        raise ConfigError(f"opponent {opponent!r} is not a candidate; candidates: {', '.join(names)}")
    if not (0.0 <= prior <= 1.0 and 0.0 < tremble < 1.0):
        raise ConfigError(f"need 0 <= prior <= 1 and 0 < tremble < 1 (got {prior}, {tremble})")
    s = np.ascontiguousarray(np.asarray(getattr(state, "s", state)), dtype=np.int64)
    out = np.zeros(MAX_CAND)
    posterior_nb(s, BELIEF + seat * MAX_CAND, FIRST, FIRST + len(names),
                 FIRST + names.index(opponent), float(prior), float(tremble), out)
    return {name: float(out[FIRST + i]) for i, name in enumerate(names)}
