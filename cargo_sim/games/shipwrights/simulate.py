"""Shipwrights through the core's runner: the table template (the rules compiled into
the state), the chunk kernel, results as tables, the event log as a frame."""
from __future__ import annotations

import numpy as np

from ...core import seat_tables
from ...core.layout import R_LEN, R_N_PLAYERS
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
    decide = seat_tables.seat_bots(s, REGISTRY, players, check_bots, "Shipwrights", _search_fn,
                                   E.K_MODELS, E.MAX_MODELS)
    return s, decide


def _search_fn():
    from .bots.search_nb import search_fn
    return search_fn()


def chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool:
    """run_games_nb, or run_random_games_nb for a table whose every seat is `random`
    (its decide is the registry's first_only_decide): the same games."""
    from .bots.dispatch_nb import random_table_nb
    from .chunk_nb import run_games_nb, run_random_games_nb
    if decide is random_table_nb:
        return run_random_games_nb(template, seeds, out_games, out_players, log, err)
    return run_games_nb(template, decide, seeds, out_games, out_players, log, err)


class ShipwrightsResults(seat_tables.SeatResults):
    """A Shipwrights run's tables (core.seat_tables.SeatResults)."""


def describe_error(players, err, game, game_seed, rules):
    return seat_tables.decision_error(players, err, game, game_seed, E.DECISIONS, "day")


def table_columns(games, players_arr, seeds, start, players, rules, narrow=True):
    return seat_tables.seat_columns(games, players_arr, seeds, start, players, E.GAME_FIELDS,
                                    E.PLAYER_FIELDS)


def events_frame(log, rules, n_players, labels=None):
    return seat_tables.events_frame(log, E.EVENT_FIELDS, E.EVENT_NAMES)
