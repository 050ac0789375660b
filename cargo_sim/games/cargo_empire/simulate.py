"""Cargo Empire through the core's runner: the rules compiled into the table template,
the chunk kernel, results as tables, the event log as a frame."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import seat_tables
from ...core.errors import ConfigError
from ...core.layout import R_LEN, R_N_PLAYERS
from . import enums as E
from .rules import ORDER_BONUS, Rules


def compile_rules(rules: Rules, n_players: int) -> np.ndarray:
    """A state array with the rules' words filled (enums.K_*), for n players."""
    rules.check_players(n_players)
    d, c = rules.to_dict(), rules.compiled()
    nc, ntiles, ndev, nmiss = len(c["names"]), len(c["tiles"]), len(c["dev"]), len(c["missions"])
    limits = [(nc, E.MAXC, "cities"), (ntiles, E.MAX_TILES, "city tiles"), (ndev, E.MAX_DEV, "development tile sides"),
              (len(c["pay"]), E.MAX_PAY, "payment options"), (int(c["pay_count"].max()), E.MAX_OPT,
                                                              "payment options of one route"),
              (nmiss, E.MAX_MISSIONS, "missions"), (len(d["score_track"]), E.MAX_SCORE, "score spaces"),
              (len(d["colours"]), E.MAX_COL, "colours"), (d["public_cards"], E.MAX_PUBLIC, "public cards"),
              (d["dev_tiles_used"], E.MAX_SLOTS, "development tiles used"),
              (d["mission_draw"], 4, "missions drawn")]
    for v, hi, what in limits:
        if v > hi:
            raise ConfigError(f"Cargo Empire's kernels hold at most {hi} {what}, the rules have {v}")
    s = np.zeros(E.STATE_SIZE, np.int64)
    s[R_N_PLAYERS], s[R_LEN] = n_players, E.STATE_SIZE
    s[E.K_ROUNDS], s[E.K_TURNS], s[E.K_NCOL] = d["rounds"], rules.turns(n_players), len(d["colours"])
    s[E.K_PROD], s[E.K_NC], s[E.K_NTILES], s[E.K_NDEV] = d["production"], nc, ntiles, ndev
    s[E.K_NSLOTS] = d["dev_tiles_used"]
    s[E.K_START_HAND:E.K_START_HAND + 3] = d["start_trucks"], d["start_trains"], d["start_ships"]
    s[E.K_ICONS:E.K_ICONS + 3] = d["truck_icons"], d["train_icons"], d["ship_icons"]
    s[E.K_LV3_VP], s[E.K_CARD_VP], s[E.K_NPUB] = d["lv3_post_vp"], d["city_card_vp"], d["public_cards"]
    s[E.K_MDRAW], s[E.K_NMISS] = d["mission_draw"], nmiss
    st = d["score_track"]
    s[E.K_NSCORE] = len(st)
    s[E.K_SCORE:E.K_SCORE + len(st)] = st
    s[E.K_ORDER_BONUS:E.K_ORDER_BONUS + n_players] = [ORDER_BONUS.index(b) for b in d["order_bonus"][:n_players]]
    s[E.K_PORT:E.K_PORT + nc] = c["port"]
    s[E.K_PAY_AT:E.K_PAY_AT + E.MAXC * E.MAXC] = _square(c["pay_start"]).reshape(-1)
    s[E.K_PAY_N:E.K_PAY_N + E.MAXC * E.MAXC] = _square(c["pay_count"]).reshape(-1)
    s[E.K_PAY:E.K_PAY + len(c["pay"])] = c["pay"]
    s[E.K_PAY_MIN:E.K_PAY_MIN + E.MAXC * E.MAXC] = _square(_least(c)).reshape(-1)
    s[E.K_TILE:E.K_TILE + ntiles * 6] = c["tiles"].reshape(-1)
    for i, (up, lo, fork) in enumerate(c["dev"]):
        for p, path in enumerate((up, lo)):
            s[E.K_DEV_N + 2 * i + p] = len(path)
            at = E.K_DEV + (2 * i + p) * E.MAX_PATH
            s[at:at + len(path)] = path
        s[E.K_DEV_FORK + i] = fork
    s[E.K_MISS:E.K_MISS + nmiss * 4] = c["missions"].reshape(-1)
    return s


def _least(c):
    """Per pair, the packed componentwise least of its payment options (0: no option):
    a hand short of it pays none of them (engine_nb.scan_nb skips the pair)."""
    start, count, pay = c["pay_start"], c["pay_count"], c["pay"]
    out = np.zeros(start.shape, np.int64)
    for i, j in zip(*np.nonzero(count)):
        w = pay[start[i, j]:start[i, j] + count[i, j]]
        out[i, j] = (w & 255).min() | (((w >> 8) & 255).min() << 8) | ((w >> 16).min() << 16)
    return out


def _square(a):
    out = np.zeros((E.MAXC, E.MAXC), np.int64)
    out[:a.shape[0], :a.shape[1]] = a
    return out


def table_template(rules, players, check_bots: bool = True):
    """(template state, decide) with the table's bots and parameters filled."""
    from .bots.registry import REGISTRY
    s = compile_rules(rules, len(players))
    decide = seat_tables.seat_bots(s, REGISTRY, players, check_bots, "Cargo Empire", _search_fn,
                                   E.K_MODELS, E.MAX_MODELS)
    return s, decide


def _search_fn():
    from .bots.search_nb import search_fn
    return search_fn()


def chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool:
    """run_games_nb, or run_random_games_nb for a table of `random` only (the same games)."""
    from .bots.dispatch_nb import random_table_nb
    from .chunk_nb import run_games_nb, run_random_games_nb
    if decide is random_table_nb:
        return run_random_games_nb(template, seeds, out_games, out_players, log, err)
    return run_games_nb(template, decide, seeds, out_games, out_players, log, err)


class EmpireResults(seat_tables.SeatResults):
    """A Cargo Empire run's tables (core.seat_tables.SeatResults)."""


def describe_error(players, err, game, game_seed, rules):
    return seat_tables.decision_error(players, err, game, game_seed, E.DECISIONS, "round")


def table_columns(games, players_arr, seeds, start, players, rules, narrow=True):
    n, k, _ = players_arr.shape
    idx = np.arange(start, start + n, dtype=np.int64)
    g = {"game": idx, "seed": seeds}
    for i, f in enumerate(E.GAME_FIELDS):
        g[f] = games[:, i]
    labels = [p.label for p in players]
    p = {"game": np.repeat(idx, k), "seat": np.tile(np.arange(k), n),
         "bot": pd.Categorical(np.tile(labels, n), categories=list(dict.fromkeys(labels)))}
    flat = players_arr.reshape(n * k, -1)
    for i, f in enumerate(E.PLAYER_FIELDS):
        p[f] = flat[:, i]
    p["win_share"] = (flat[:, 2] > 0).astype(np.float32)     # the tie-break leaves one winner
    return g, p


def events_frame(log, rules, n_players, labels=None):
    return seat_tables.events_frame(log, E.EVENT_FIELDS, E.EVENT_NAMES)
