"""Macao through the core's runner: the table template (the rules compiled into the
state), the chunk kernel (ask, check, answer: the engine's loop), results as tables,
the event log as a frame and as text."""
from __future__ import annotations

import numpy as np

from ...core import seat_tables
from ...core.errors import ConfigError
from ...core.layout import R_LEN, R_N_PLAYERS
from . import enums as E
from .rules import Rules


# ---- the rules into the state ----------------------------------------------------------
def compile_rules(rules: Rules, n_players: int) -> np.ndarray:
    """A state array with the rules' words filled (enums.K_*), for n players."""
    rules.check_players(n_players)
    d, a = rules._data, rules.arrays()
    s = np.zeros(E.STATE_SIZE, np.int64)
    s[R_N_PLAYERS], s[R_LEN] = n_players, E.STATE_SIZE
    nq, nct = len(a["quarter_cost"]), len(a["card_kind"])
    n_ports, n_goods = len(a["port_space"]), len(d["goods"])
    office = [i for i in range(nct) for _ in range(a["card_copies"][i]) if a["card_kind"][i] == 0]
    deck = [i for i in range(nct) for _ in range(a["card_copies"][i]) if a["card_kind"][i] != 0]
    limits = [(nq, E.MAX_Q, "quarters"), (n_ports, E.MAX_PORTS, "ports"), (n_goods, E.MAX_GOODS, "goods"),
              (nct, E.MAX_CT, "card names"), (len(office), E.MAX_OFFICE, "office cards"),
              (len(deck), E.MAX_DECK, "building and person cards"),
              (len(d["delivery_points"]), E.MAX_DP, "delivery_points"),
              (d["rose_sides"], E.MAX_ROSE, "rose_sides"), (d["tableau_spaces"], E.MAX_TAB - 2, "tableau_spaces"),
              (d["office_per_round"] + d["deck_per_round"], E.MAX_OFFER, "cards shown a round"),
              (max(d["wall_step_costs"]), 2, "wall_step_costs"), (d["dice_chosen"], 2, "dice_chosen"),
              (int(a["adjacency"].sum(1).max()), E.MAX_ADJ, "quarters touching one quarter"),
              (int(a["quarter_cost"].max(initial=0)), E.COST_CAP, "cubes of one colour in a quarter's cost"),
              (int(a["card_cost"].max(initial=0)), E.COST_CAP, "cubes of one colour in a card's cost")]
    for v, hi, what in limits:
        if v > hi:
            raise ConfigError(f"Macao's kernels hold at most {hi} {what}, the rules have {v}")
    if d["dice_chosen"] != 2:
        raise ConfigError(f"Macao's kernels play dice_chosen = 2 only, got {d['dice_chosen']}")
    if d["dice_sides"] > 15:
        raise ConfigError(f"Macao's kernels roll dice of at most 15 sides, got {d['dice_sides']}")
    st = d["start_cubes"]
    s[E.K_ROUNDS], s[E.K_START_COINS], s[E.K_N_START] = d["rounds"], d["start_coins"], len(st)
    s[E.K_START:E.K_START + len(st)] = st
    s[E.K_DICE_SIDES], s[E.K_LATE_DIE], s[E.K_ROSE_SIDES] = d["dice_sides"], d["late_die_value"], d["rose_sides"]
    s[E.K_TAB_SPACES], s[E.K_OFFICE_ROUND], s[E.K_DECK_ROUND] = (d["tableau_spaces"], d["office_per_round"],
                                                                 d["deck_per_round"])
    s[E.K_REMOVED], s[E.K_START_EXTRA] = rules.removed_cards(n_players), d["start_extra_cards"]
    s[E.K_WALL_SPACES], (s[E.K_WALL_COST1], s[E.K_WALL_COST2]) = d["wall_spaces"], d["wall_step_costs"]
    dp = d["delivery_points"]
    s[E.K_N_DP] = len(dp)
    s[E.K_DP:E.K_DP + len(dp)] = dp
    s[E.K_GROUP_PTS], s[E.K_TAB_PEN], s[E.K_MARK_PEN] = d["group_points"], d["tableau_penalty"], d["marker_penalty"]
    s[E.K_MARKERS] = d["markers_per_player"]
    s[E.K_PER_GOOD] = d["delivery_scoring"] == "per_good"
    s[E.K_ZERO_PEN] = d["zero_cube_penalty"]
    s[E.K_TIE] = ("wall", "coins", "shared").index(d["tie_break"])
    s[E.K_PER_SET] = d["set_scoring"] == "per_set"
    s[E.K_REFUND_ALL] = d["refund_scope"] == "every_card"
    s[E.K_PASSING], s[E.K_RETURN] = d["deliver_passing"], d["ship_can_return"]
    s[E.K_PEN_NO_MARKER] = d["penalty_without_marker"]
    s[E.K_ONES_ROLLED] = d["ones_counted"] == "as_rolled"
    s[E.K_PALACE_ALL] = d["palace_counts"] == "end_cards"
    s[E.K_WALL_BY_SPACE] = d["wall_rank"] == "space"
    s[E.K_CHOSEN] = d["deliveries"] == "chosen"
    s[E.K_OFF_CHOSEN] = d["discount_colour"] == "chosen"
    s[E.K_MIXED] = d["any_cubes"] == "mixed"
    s[E.K_JOKER_CUBES], s[E.K_JOKER_COINS] = d["joker_cubes"], d["joker_coins"]
    s[E.K_TRIB_MAX] = d["tribute_track_max"]
    s[E.K_LIMIT_COINS], s[E.K_TOTAL_COINS] = not d["unlimited_coins"], d["total_coins"]
    s[E.K_LIMIT_CUBES], s[E.K_CUBES_PER] = not d["unlimited_cubes"], d["cubes_per_colour"]
    s[E.K_NQ], s[E.K_N_PORTS], s[E.K_N_GOODS] = nq, n_ports, n_goods
    s[E.K_TILES_PER_GOOD], s[E.K_N_JOKERS] = d["tiles_per_good"], d["jokers"]
    s[E.K_N_CT], s[E.K_N_OFFICE], s[E.K_N_DECK] = nct, len(office), len(deck)
    s[E.K_ROUTE_END] = int(a["port_space"].max())
    s[E.K_Q_COST:E.K_Q_COST + nq * E.NC] = a["quarter_cost"].reshape(-1)
    s[E.K_Q_AFFORD:E.K_Q_AFFORD + E.NC * (E.COST_CAP + 2)] = afford_masks(a["quarter_cost"])
    adj = np.full((E.MAX_Q, E.MAX_ADJ), -1, np.int64)
    for q in range(nq):
        nb = np.flatnonzero(a["adjacency"][q])
        adj[q, :len(nb)] = nb
    s[E.K_Q_ADJ:E.K_Q_ADJ + E.MAX_Q * E.MAX_ADJ] = adj.reshape(-1)
    s[E.K_Q_DARK:E.K_Q_DARK + nq] = a["dark"]
    s[E.K_PORT_SPACE:E.K_PORT_SPACE + n_ports] = a["port_space"]
    pg = np.zeros((E.MAX_PORTS, E.MAX_GOODS), np.int64)
    pg[:n_ports, :n_goods] = a["port_goods"]
    s[E.K_PORT_GOODS:E.K_PORT_GOODS + pg.size] = pg.reshape(-1)
    s[E.K_C_KIND:E.K_C_KIND + nct] = a["card_kind"]
    s[E.K_C_COST:E.K_C_COST + nct * E.NC] = a["card_cost"].reshape(-1)
    s[E.K_C_PACK:E.K_C_PACK + nct] = [sum((int(x) + 1) << (8 * c) for c, x in enumerate(row))
                                      for row in a["card_cost"]]
    s[E.K_C_TRIB_COINS:E.K_C_TRIB_COINS + nct] = a["card_tribute"][:, 0]
    s[E.K_C_TRIB_POINTS:E.K_C_TRIB_POINTS + nct] = a["card_tribute"][:, 1]
    s[E.K_C_EFFECT:E.K_C_EFFECT + nct] = a["card_effect"]
    s[E.K_C_TIMING:E.K_C_TIMING + nct] = a["card_timing"]
    s[E.K_C_ARGS:E.K_C_ARGS + nct * 4] = a["card_args"].reshape(-1)
    colour = np.where(a["card_kind"] == 0, a["card_args"][:, 0], -1)
    s[E.K_C_COLOUR:E.K_C_COLOUR + nct] = colour
    s[E.K_OFFICE_BOX:E.K_OFFICE_BOX + len(office)] = office
    s[E.K_DECK_BOX:E.K_DECK_BOX + len(deck)] = deck
    return s


def afford_masks(cost):
    """K_Q_AFFORD's words: for each colour c and count r = -1..COST_CAP, the quarters
    (bit x, as a signed int64) that cost at most r cubes of colour c."""
    out = []
    for c in range(E.NC):
        for r in range(-1, E.COST_CAP + 1):
            m = sum(1 << x for x in range(len(cost)) if cost[x][c] <= r)
            out.append(m - (1 << 64) if m >= 1 << 63 else m)
    return np.array(out, np.int64)


def table_template(rules, players, check_bots: bool = True):
    """(template state, decide) with the table's bots and parameters filled."""
    from .bots.registry import REGISTRY
    s = compile_rules(rules, len(players))
    decide = seat_tables.seat_bots(s, REGISTRY, players, check_bots, "Macao", _search_fn,
                                   E.K_MODELS, E.MAX_MODELS)
    return s, decide


def _search_fn():
    from .bots.search_nb import search_fn
    return search_fn()


def chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool:
    """The contract's chunk kernel: the compiled loop of chunk_nb (any table kernel)."""
    from .chunk_nb import run_games_nb
    return run_games_nb(template, decide, seeds, out_games, out_players, log, err)


# ---- tables -----------------------------------------------------------------------------
class MacaoResults(seat_tables.SeatResults):
    """A Macao run's tables (core.seat_tables.SeatResults)."""


def describe_error(players, err, game, game_seed, rules):
    return seat_tables.decision_error(players, err, game, game_seed, E.DECISIONS, "round")


def table_columns(games, players_arr, seeds, start, players, rules, narrow=True):
    return seat_tables.seat_columns(games, players_arr, seeds, start, players, E.GAME_FIELDS,
                                    E.PLAYER_FIELDS)


def events_frame(log, rules, n_players, labels=None):
    return seat_tables.events_frame(log, E.EVENT_FIELDS, E.EVENT_NAMES)
