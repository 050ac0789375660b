"""The runner plumbing of a game whose results are a row per game and a row per seat
and whose state keeps the shared header (core.layout): the table's bots written into
the template, a stopped game's error, the tables' columns, the event frame and the
results class. A game binds these with its own names (its enums' fields, its title,
its turn's word)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import userbots
from .bots import Player
from .errors import BotError, IllegalDecisionError
from .layout import (BOTS, N_PARAMS, PARAM_SCALE, PARAMS, R_N_MODELS, R_SEARCH, R_SEARCH_FN,
                     R_USER_BASE, R_USER_FN)

__all__ = ["seat_bots", "decision_error", "seat_columns", "events_frame", "SeatResults"]


def seat_bots(s, registry, players, check_bots, title, search_fn, models_at, max_models):
    """Fill template ``s`` with the table's bots (indices, parameters, the search bots'
    seats, the user bots' table) and the rows of the built-in bots the search bots can
    model (at ``models_at``, at most ``max_models``); returns ``decide``.
    ``search_fn()``: the address of the game's search kernel (asked only when a seat
    searches). The game's search bots run one thread (``title`` names the game)."""
    decide, idx, users = userbots.decision_table(registry, players, check_bots)
    s[BOTS:BOTS + len(players)] = idx
    for q, p in enumerate(players):
        s[PARAMS + q * N_PARAMS:][:N_PARAMS] = np.round(p.param_vector(N_PARAMS) * PARAM_SCALE)
        if p.spec.search:
            if dict(zip(p.spec.params, p.values)).get("threads", 1.0) > 1:
                raise BotError(f"bot {p.label!r}: {title}'s search bots run one thread (threads=1)")
            s[R_SEARCH] |= p.spec.search << (2 * q)
    if users is not None:
        s[R_USER_FN], s[R_USER_BASE] = users.address, len(registry.builtin_order)
    if s[R_SEARCH]:
        s[R_SEARCH_FN] = search_fn()
    models = [m for m in registry.builtin_order if not registry.builtin[m].search]
    for i, m in enumerate(models[:max_models]):
        spec = registry.builtin[m]
        row = Player(spec, tuple(spec.params.values())).param_vector(N_PARAMS)
        s[models_at + i * N_PARAMS:][:N_PARAMS] = np.round(row * PARAM_SCALE)
    s[R_N_MODELS] = min(len(models), max_models)
    return decide


def decision_error(players, err, game, game_seed, decisions, turn_word):
    """The one-line error of a chunk's stopped game: ``err`` is the kernel's error row
    (.., kind, seat, answer, turn, raised); ``decisions`` the decision kinds' names."""
    seat, kind, answer = int(err[2]), int(err[1]), int(err[3])
    what = decisions[kind] if 0 <= kind < len(decisions) else f"kind {kind}"
    where = f"{turn_word} {int(err[4])} of game {game} (game seed {game_seed})"
    if err[5]:
        return BotError(f"bot {players[seat].label!r} (seat {seat}) failed (raised) at a {what} decision; {where}")
    return IllegalDecisionError(f"bot {players[seat].label!r} (seat {seat}) made an illegal {what} "
                                f"decision: answer {answer}; {where}")


def seat_columns(games, players_arr, seeds, start, players, game_fields, player_fields):
    """The games' and the seats' columns of a chunk (``game_fields`` name ``games``'
    columns, among them ``n_winners``; ``player_fields`` name the seats', among them
    ``won``), with the seats' bots and their share of the win (shared wins split)."""
    n, k, _ = players_arr.shape
    idx = np.arange(start, start + n, dtype=np.int64)
    g = {"game": idx, "seed": seeds}
    for i, f in enumerate(game_fields):
        g[f] = games[:, i]
    labels = [p.label for p in players]
    p = {"game": np.repeat(idx, k), "seat": np.tile(np.arange(k), n),
         "bot": pd.Categorical(np.tile(labels, n), categories=list(dict.fromkeys(labels)))}
    flat = players_arr.reshape(n * k, -1)
    for i, f in enumerate(player_fields):
        p[f] = flat[:, i]
    winners = np.repeat(games[:, game_fields.index("n_winners")], k).astype(np.float64)
    won = flat[:, player_fields.index("won")]
    p["win_share"] = np.where(won > 0, 1.0 / np.maximum(winners, 1), 0.0).astype(np.float32)
    return g, p


def events_frame(log, event_fields, event_names):
    """The event log as a frame, its ``action`` column named (``event_names``)."""
    df = pd.DataFrame(log, columns=list(event_fields))
    df["action"] = pd.Categorical.from_codes(df["action"].astype(np.int64), categories=list(event_names))
    return df


@dataclass
class SeatResults:
    """A run's tables (``games``, ``players``: columns ``vp``, ``rank``, ``win_share``),
    rules, configuration and, when asked, events."""
    games: pd.DataFrame
    players: pd.DataFrame
    rules: object
    config: dict
    interrupted: bool = False
    events: pd.DataFrame | None = None

    def summary(self) -> pd.DataFrame:
        """Per seat: bot, games, win rate (shared wins split), mean points and rank."""
        p = self.players
        return (p.groupby("seat", observed=True)
                 .agg(bot=("bot", "first"), games=("game", "size"), win_rate=("win_share", "mean"),
                      mean_vp=("vp", "mean"), mean_rank=("rank", "mean")).reset_index())
