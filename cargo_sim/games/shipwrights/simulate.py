"""Shipwrights through the core's runner: the table template (the rules compiled into
the state), the chunk kernel, results as tables, the event log as a frame."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core import userbots
from ...core.bots import Player
from ...core.errors import BotError, IllegalDecisionError
from ...core.layout import (BOTS, N_PARAMS, PARAM_SCALE, PARAMS, R_LEN, R_N_MODELS, R_N_PLAYERS,
                             R_SEARCH, R_SEARCH_FN, R_USER_BASE, R_USER_FN)
from . import enums as E
from .rules import Rules


def compile_rules(rules: Rules, n_players: int) -> np.ndarray:
    """A state array with the rules' words filled (enums.K_*), for n players."""
    rules.check_players(n_players)
    d, a = rules._data, rules.arrays()
    s = np.zeros(E.STATE_LEN, np.int64)
    s[R_N_PLAYERS], s[R_LEN] = n_players, E.STATE_LEN
    words = {E.K_GOLD_MAX: "gold_max", E.K_MILL_CAP: "mill_capacity", E.K_VILLAGE_CAP: "village_capacity",
             E.K_EVE_WORKERS: "evening_workers", E.K_MIN_EVE: "min_evening_workers",
             E.K_MAX_CRAFT: "max_craftsmen", E.K_YARDS: "shipyards", E.K_ROUNDS: "draft_rounds",
             E.K_GOAL: "ship_goal", E.K_MIL_PTS: "military_points", E.K_GOODS_GOLD: "goods_gold",
             E.K_GOODS_WORK: "goods_workers", E.K_MAX_DAYS: "max_days", E.K_START_GOLD: "start_gold",
             E.K_START_WORK: "start_workers", E.K_START_GOODS: "start_goods", E.K_N_CARDS: "deck_size"}
    for k, name in words.items():
        s[k] = d[name]
    s[E.K_TIE] = ("gold", "shared").index(d["tie_break"])
    s[E.K_MIL_TIE] = ("all", "none").index(d["military_tie"])
    s[E.K_TAKE_CART] = d["take_cart"]
    kinds = a["kind"]
    s[E.K_N_FACES], s[E.K_N_SHIPS] = len(kinds), len(a["ship"])
    s[E.K_KIND:E.K_KIND + len(kinds)] = kinds
    s[E.K_IDX:E.K_IDX + len(kinds)] = [int((kinds[:i] == kinds[i]).sum()) for i in range(len(kinds))]
    s[E.K_SHIP:E.K_SHIP + a["ship"].size] = a["ship"].reshape(-1)
    builds = np.zeros((E.MAX_CRAFT, E.MAX_SHIPS), np.int64)
    builds[:a["builds"].shape[0], :a["builds"].shape[1]] = a["builds"]
    s[E.K_BUILDS:E.K_BUILDS + builds.size] = builds.reshape(-1)
    s[E.K_TOOL:E.K_TOOL + a["tool"].size] = a["tool"].reshape(-1)
    s[E.K_BLD:E.K_BLD + a["building"].size] = a["building"].reshape(-1)
    s[E.K_TOWN:E.K_TOWN + a["townsfolk"].size] = a["townsfolk"].reshape(-1)
    s[E.K_BACK:E.K_BACK + a["back"].size] = a["back"].reshape(-1)
    s[E.K_BOX:E.K_BOX + len(a["box"])] = a["box"]
    s[E.K_BOX_BACK:E.K_BOX_BACK + len(a["box"])] = a["box_back"]
    return s


def table_template(rules, players, check_bots: bool = True):
    """(template state, decide) with the table's bots and parameters filled."""
    from .bots.registry import REGISTRY
    s = compile_rules(rules, len(players))
    decide, idx, users = userbots.decision_table(REGISTRY, players, check_bots)
    s[BOTS:BOTS + len(players)] = idx
    for q, p in enumerate(players):
        s[PARAMS + q * N_PARAMS:][:N_PARAMS] = np.round(p.param_vector(N_PARAMS) * PARAM_SCALE)
        if p.spec.search:
            if dict(zip(p.spec.params, p.values)).get("threads", 1.0) > 1:
                raise BotError(f"bot {p.label!r}: Shipwrights' search bots run one thread (threads=1)")
            s[R_SEARCH] |= p.spec.search << (2 * q)
    if users is not None:
        s[R_USER_FN], s[R_USER_BASE] = users.address, len(REGISTRY.builtin_order)
    if s[R_SEARCH]:
        from .bots.search_nb import search_fn
        s[R_SEARCH_FN] = search_fn()
    models = [m for m in REGISTRY.builtin_order if not REGISTRY.builtin[m].search]
    for i, m in enumerate(models[:E.MAX_MODELS]):
        spec = REGISTRY.builtin[m]
        row = Player(spec, tuple(spec.params.values())).param_vector(N_PARAMS)
        s[E.K_MODELS + i * N_PARAMS:][:N_PARAMS] = np.round(row * PARAM_SCALE)
    s[R_N_MODELS] = min(len(models), E.MAX_MODELS)
    return s, decide


def chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool:
    from .chunk_nb import run_games_nb
    return run_games_nb(template, decide, seeds, out_games, out_players, log, err)


@dataclass
class ShipwrightsResults:
    games: pd.DataFrame
    players: pd.DataFrame
    rules: Rules
    config: dict
    interrupted: bool = False
    events: pd.DataFrame | None = None

    def summary(self) -> pd.DataFrame:
        """Per seat: bot, games, win rate (shared wins split), mean points and rank."""
        p = self.players
        return (p.groupby("seat", observed=True)
                 .agg(bot=("bot", "first"), games=("game", "size"), win_rate=("win_share", "mean"),
                      mean_vp=("vp", "mean"), mean_rank=("rank", "mean")).reset_index())


def describe_error(players, err, game, game_seed, rules):
    seat, kind, answer = int(err[2]), int(err[1]), int(err[3])
    what = E.DECISIONS[kind] if 0 <= kind < len(E.DECISIONS) else f"kind {kind}"
    where = f"day {int(err[4])} of game {game} (game seed {game_seed})"
    if err[5]:
        return BotError(f"bot {players[seat].label!r} (seat {seat}) failed (raised) at a {what} decision; {where}")
    return IllegalDecisionError(f"bot {players[seat].label!r} (seat {seat}) made an illegal {what} "
                                f"decision: answer {answer}; {where}")


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
    winners = np.repeat(games[:, 3], k).astype(np.float64)
    p["win_share"] = np.where(flat[:, 2] > 0, 1.0 / np.maximum(winners, 1), 0.0).astype(np.float32)
    return g, p


def events_frame(log, rules, n_players, labels=None):
    df = pd.DataFrame(log, columns=list(E.EVENT_FIELDS))
    df["action"] = pd.Categorical.from_codes(df["action"].astype(np.int64), categories=list(E.EVENT_NAMES))
    return df
