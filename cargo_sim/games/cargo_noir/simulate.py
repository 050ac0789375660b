"""Python API over the compiled engine: simulate many games, play one with its log.

Games are played in chunks by the nogil kernel ``run_games_nb`` on a pool of
threads. Game i's random stream comes from (seed, i) alone, so the tables are
identical for any number of workers, and game i of a run is game i of any
longer run with the same seed.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core import runner
from ...core.checks import check_number, check_seed
from ...core.columns import narrowest
from ...core.contract import get_game
from ...core.errors import BotError, ConfigError, IllegalDecisionError
from ...core.runner import (DEFAULT_CHUNK, Table, first_compile,  # noqa: F401  (old homes)
                            numba_first_message, seat_players)
from ...core.seeds_nb import game_seeds_nb  # noqa: F401  (its old home)
from .bots.registry import (BUILTIN_ORDER, REGISTRY, Player, decision_table, model_rows,  # noqa: F401
                            parse_player, search_mask)
from .bots.dispatch_nb import builtin_fn, random_table_decide_nb
from .chunk_nb import run_games_nb, run_random_games_nb
from .trade.packed_nb import exact_value_fn
from .slots import slot_name
from .enums import (FAULT_BUDGET, FAULT_INDEX, FAULT_KIND, FAULT_PARAM, FAULT_RAND, FAULT_TABLES,
                    FAULT_WRITE)
from .enums import (ACTION_NAMES, BOT_FAULT, BOTS, M_TABLE_SUM, N_PARAMS, PARAM_SCALE, PARAMS,
                    R_BUILTIN_FN, R_MODELS, R_N_MODELS, R_SEARCH, R_SEARCH_FN, R_SHARED_LEN, R_USER_BASE,
                    R_USER_FN, D_DISCARD, D_RAISE, D_SEND, D_TRADE, DECISION_NAMES,
                    E, EVENT_FIELDS, GAME_FIELDS, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0,
                    MAX_TOK, N_EVENT_FIELDS, PLAYER_FIELDS, ERR_NEED_SOLVER)
from . import narrate
from .rules import Rules

NAME = "cargo_noir"          # this game's key in the game registry (game.py)


@dataclass
class SimResults:
    """Results of ``simulate``.

    ``games`` — one row per game:
        game (index in the run), seed (the game's own seed: ``play_one(seed, ...)``
        replays it), n_players, turns, winner (lowest winning seat), n_winners,
        winners_mask (bit s set = seat s won), tie (win shared), shortfalls (bank
        payments not made in full), shortfall_coins, bag_refills (discard pile put
        back in the bag), empty_slots (draws that found bag and discard empty),
        minted_coins (coins paid beyond the box with unlimited_coins), bank_end.
    ``players`` — one row per game and seat:
        game, seat, bot (label with parameters), vp, won (1 if among the winners),
        win_share (1/n_winners if won, else 0), rank (1 = best; ties share),
        coins (left in the safe), ships (owned at the end), warehouse (capacity),
        max_card_vp (highest single card, the tie-break), ports_won, coins_paid
        (for cargo won), cargo_won (tokens from ports), bids (ships sent to ports),
        bid_coins (coins stacked when sending), raises, raise_coins, abandons,
        syndicate_coins, casino_visits (ships), casino_coins, bm_swaps, bm_draws,
        trades, cargo_traded (tokens sold, Wilds included), wilds_traded,
        trade_value (smuggling value of the tokens sold), value_lost (trade value
        and final-turn coins not covered by cards: lost to "no change"),
        final_coins_spent, cards_bought, cargo_discarded, cargo_held (at the end),
        and ``card_<name>`` — copies held of each victory card.
    """
    games: pd.DataFrame
    players: pd.DataFrame
    rules: Rules
    config: dict = field(default_factory=dict)
    interrupted: bool = False
    events: pd.DataFrame | None = None

    def summary(self) -> pd.DataFrame:
        """Win rate (shared wins split) and mean VP by seat, and the share of
        games in which the finite bank ran short (``bank_short_games``, the same
        on every row: it decides many games, so every summary shows it)."""
        g = self.players.groupby("seat", observed=True)
        out = pd.DataFrame({"bot": g["bot"].first().astype(str), "games": g.size(),
                            "win_rate": g["win_share"].mean(), "mean_vp": g["vp"].mean(),
                            "mean_rank": g["rank"].mean()})
        out["bank_short_games"] = self.bank_short_share()
        return out

    def bank_short_share(self) -> float:
        """Share of games with at least one bank payment not made in full."""
        return float((self.games["shortfalls"] > 0).mean()) if len(self.games) else float("nan")

    def __repr__(self) -> str:
        return (f"SimResults({len(self.games):,} games, players={self.config.get('players')}, "
                f"seed={self.config.get('seed')})")


def check_request(n_games, players, rules):
    """(seated players, rules) of a Cargo Noir request, checked."""
    return seat_players(get_game(NAME), n_games, players, rules)


def fault_error(players: list[Player], kind, seat, aux, turn, index, seed) -> BotError:
    """The one-line error for a bot fault: what the bot did (enums.FAULT_*, in
    the low 8 bits of aux, the value at fault above them), its seat, decision and game."""
    reason, arg = aux & 255, aux >> 8
    bot = players[seat].label if 0 <= seat < len(players) else "?"
    what = DECISION_NAMES[kind] if 0 <= kind < len(DECISION_NAMES) else f"decision {kind}"
    where = f"turn {turn} of game {index} (game seed {seed}; play_one({seed}, players) replays it)"
    if reason == FAULT_TABLES:
        users = sorted({p.label for p in players if p.spec.name in REGISTRY.user})
        return BotError(f"a user bot at this table ({', '.join(users)}) wrote into the trade tables "
                        f"or the search models (the table's shared data) during game {index} (game seed "
                        f"{seed}; found by check_bots at the game's end)")
    head = f"bot {bot!r} (seat {seat})"
    if reason == FAULT_PARAM:
        return BotError(f"{head} asked for the parameters of seat {arg} in its {what} decision: a bot "
                        f"reads only its own seat's (param_nb(s, seat, i) with the seat it is asked "
                        f"for); {where}")
    if reason == FAULT_INDEX:
        return BotError(f"{head} called a botkit function with an index out of range ({arg}) in its "
                        f"{what} decision; {where}")
    if reason == FAULT_RAND:
        return BotError(f"{head} called rand_below_nb(s, n) with n = {arg} in its {what} decision "
                        f"(n must be 1 to 2**32 - 1); {where}")
    if reason == FAULT_KIND:
        return BotError(f"{head} handed a built-in bot decision kind {arg} (0 to 5) in its {what} "
                        f"decision; {where}")
    if reason == FAULT_BUDGET:
        return BotError(f"{head} ran more than {arg:,} loop steps in its {what} decision (a runaway "
                        f"loop?) and was stopped by check_bots; {where}")
    if reason == FAULT_WRITE:
        return BotError(f"{head} wrote to {slot_name(arg)} (state word {arg}) in its {what} decision: "
                        f"a bot may write only its answer (OUT...), its notes (SCRATCH...) and the "
                        f"workspace; {where}")
    return BotError(
        f"{head} raised an exception in its {what} decision; {where}; an index out of bounds "
        "stops here too unless the run trusts its bots (check_bots=False, --fast-bots: then it "
        "can crash the process)")


def illegal_error(players: list[Player], kind, seat, value, aux, turn, index, seed, rules,
                  by_caller: bool = False):
    """The one-line error for an illegal answer or a bot fault (the kernel's err slots);
    by_caller: the answer came from the caller (GameState.step), not the seat's bot."""
    bot = players[seat].label if 0 <= seat < len(players) else "?"
    what = DECISION_NAMES[kind] if 0 <= kind < len(DECISION_NAMES) else f"decision {kind}"
    if value == BOT_FAULT:       # a bot's fault (no caller's answer can be BOT_FAULT: forward.ANSWER_MAX)
        return fault_error(players, kind, seat, aux, turn, index, seed)
    detail = f"answer {value}"
    if kind == D_TRADE:
        detail = (f"sold {value} tokens but took no card (rules option trade_without_card)"
                  if aux == -1 else
                  f"answer {value} (1 to trade, 0 for none)" if aux == -2 else
                  f"card count {value} for card #{aux - 100}" if 100 <= aux < 1000 else
                  f"cards costing {value} but the tokens sold are worth {aux - 1000}"
                  if aux >= 1000 else f"{value} tokens of type #{aux} (more than held or negative)")
    elif kind == D_SEND:
        detail = f"destination {value} with bid {aux}"
    elif kind == D_RAISE:
        detail = f"raise of {value} coins (needs 0 to abandon, or {aux} up to the coins in the safe)"
    elif kind == D_DISCARD:
        detail = f"discard total {value} (must discard exactly {aux})" if aux >= 0 else detail
    if by_caller:
        return IllegalDecisionError(
            f"illegal answer to the {what} decision of seat {seat}: {detail}; "
            f"turn {turn} of game {index} (game seed {seed}); the state is unchanged")
    return IllegalDecisionError(
        f"bot {bot!r} (seat {seat}) made an illegal {what} decision: {detail}; "
        f"turn {turn} of game {index} (game seed {seed})")


def describe_error(players, err, game: int, game_seed: int, rules):
    """The contract's describe_error: ``err`` as run_games_nb leaves it."""
    return illegal_error(players, int(err[1]), int(err[2]), int(err[3]), int(err[4]), int(err[5]),
                         game, game_seed, rules)


def table_template(rules: Rules, players: list[Player], check_bots: bool = True):
    """(template state array, decide) for a table: the rules header, each seat's
    bot and parameters, pointing at the table's shared array (the packed
    trade-value tables and the search models) and the bots' workspace
    (Rules.state_template; the array keeps them alive: hold it while its copies play). check_bots: user bots run checked
    (registry.checked; built-in bots never are)."""
    n = len(players)
    decide, bot_idx, users = decision_table(players, check_bots)
    mask = search_mask(players)
    rows = model_rows() if mask else None
    # a checked table of user bots gets a shared array of its own (its checksum)
    template = rules.state_template(n, rows, private=bool(check_bots) and users is not None)
    template[BOTS:BOTS + n] = bot_idx
    if users is not None:
        # user bots: their kernel's address (this process only; registry.user_table)
        template[R_USER_FN] = users.address
        template[R_USER_BASE] = len(BUILTIN_ORDER)
    for seat, p in enumerate(players):
        at = PARAMS + seat * N_PARAMS
        template[at:at + N_PARAMS] = np.round(p.param_vector(N_PARAMS) * PARAM_SCALE).astype(np.int64)
    if mask:
        # search bots: their kernel's address (this process only) and their models'
        # rows (in the shared array, after the trade tables)
        from .bots.search_nb import search_fn
        template[R_MODELS] = template[R_SHARED_LEN] - len(rows)
        template[R_N_MODELS] = len(rows) // N_PARAMS
        template[R_SEARCH] = mask
        template[R_SEARCH_FN] = search_fn()
    if mask or users is not None:
        # the built-ins as a kernel called by address (dispatch_nb.builtin_fn): the
        # search's models and user bots delegating to the heuristic call it
        template[R_BUILTIN_FN] = builtin_fn()
    if check_bots and users is not None:
        # the tables' checksum once per table, not at each game's first user call (its
        # 6 MB pass is most of what checking costs); each game's end compares it
        from .engine_nb import tables_sum_nb
        template[M_TABLE_SUM] = tables_sum_nb(template)
    return template, decide


EVENT_ROWS_PER_SEAT = 160     # first guess of event rows per game and seat (grown on overflow)


_SOLVER = [0]


def solver_address() -> int:
    """Address of the exact trade solver for the kernels, 0 until a game has
    needed it (load_solver): most rule sets never do, and runs start sooner."""
    return _SOLVER[0]


def load_solver() -> None:
    _SOLVER[0] = exact_value_fn()


def direct_kernel(template, decide):
    """The chunk kernel that calls the table's bots directly (chunk_nb: the same
    games, without a first-class call per decision: tables of `random` only), or None
    for run_games_nb (every other table)."""
    if decide is random_table_decide_nb:
        return run_random_games_nb
    return None


def chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool:
    """The contract's chunk kernel: run_games_nb with the exact trade solver's
    address; a chunk that needed the solver before it was loaded is replayed
    with it (games are deterministic: the replay plays the same games)."""
    direct = direct_kernel(template, decide)
    while True:
        if direct is not None:
            ok = direct(template, solver_address(), seeds, out_games, out_players, log, err)
        else:
            ok = run_games_nb(template, decide, solver_address(), seeds, out_games, out_players, log,
                              err)
        if ok or err[1] != ERR_NEED_SOLVER:
            return ok
        load_solver()
        out_games[:] = 0
        out_players[:] = 0
        err[:] = -1


def _columns(arr: np.ndarray, narrow: bool):
    """Each column of the 2-D ``arr``: at its narrowest width (``narrow``; the min
    and max of all columns in one pass over the rows, cheaper than one strided
    pass each) or at the kernel's width."""
    if not narrow:       # a copy: one contiguous row per column, cheaper to copy on than strided views
        return list(np.ascontiguousarray(arr.T))
    if not len(arr):
        return [narrowest(arr[:, k]) for k in range(arr.shape[1])]
    lo, hi = arr.min(axis=0).tolist(), arr.max(axis=0).tolist()
    return [narrowest(arr[:, k], lo[k], hi[k]) for k in range(arr.shape[1])]


@functools.lru_cache(maxsize=64)
def bot_dtype(labels: tuple) -> pd.CategoricalDtype:
    """The ``bot`` column's dtype for these labels, built once: building it is most
    of the cost of a chunk's Categorical (~0.2 ms per chunk)."""
    return pd.CategoricalDtype(list(labels))


def table_columns(games_arr, players_arr, seeds, start, players: list[Player], rules: Rules,
                  narrow: bool = True):
    """The ``games`` and ``players`` tables from the kernel's arrays, as dicts of
    columns in table order (``bot`` a Categorical): cheap per chunk, no DataFrame
    on the way. Integer columns at their smallest width, or with ``narrow=False``
    at the kernel's widths (games int64, players int32: the file widths, so a
    chunk goes to Parquet without a narrow-then-widen round trip)."""
    n_games, n_seats, _ = players_arr.shape
    g_int, p_int = games_arr.dtype, players_arr.dtype

    def fit(col, wide):
        return narrowest(col) if narrow else col.astype(wide, copy=False)

    gidx = np.arange(start, start + n_games, dtype=np.int64)
    mask = games_arr[:, GAME_FIELDS.index("winners_mask")]
    bits = (mask[:, None] >> np.arange(n_seats)[None, :]) & 1
    nw = bits.sum(axis=1)
    g = {"game": gidx, "seed": seeds}
    for k, (name, col) in enumerate(zip(GAME_FIELDS, _columns(games_arr, narrow))):
        g[name] = games_arr[:, k].astype(bool) if name == "tie" else col
    g["n_winners"] = fit(nw, g_int)
    g["winner"] = fit(np.argmax(bits, axis=1), g_int)

    labels = [pl.label for pl in players]
    uniq = list(dict.fromkeys(labels))
    codes = np.tile(np.asarray([uniq.index(l) for l in labels], dtype=np.int8), n_games)
    p = {"game": np.repeat(gidx, n_seats),
         "seat": np.tile(np.arange(n_seats, dtype=np.int8 if narrow else p_int), n_games),
         "bot": pd.Categorical.from_codes(codes, dtype=bot_dtype(tuple(uniq)))}
    flat = players_arr.reshape(n_games * n_seats, players_arr.shape[2])
    names = list(PLAYER_FIELDS) + [f"card_{c}" for c in rules.card_names]
    p.update(zip(names, _columns(flat, narrow)))
    vp = players_arr[:, :, PLAYER_FIELDS.index("vp")].astype(np.int64)
    top = players_arr[:, :, PLAYER_FIELDS.index("max_card_vp")].astype(np.int64)
    if rules["tie_break"] == "cost":     # the engine's tie_key_nb: highest-cost card held
        held = players_arr[:, :, len(PLAYER_FIELDS):].astype(np.int64) > 0
        cost = np.asarray([rules[f"card.{c}.cost"] for c in rules.card_names], dtype=np.int64)
        top = np.where(held, cost, 0).max(axis=2)
    key = vp * 2**31 + top            # lexicographic (VP, top card) for any int32 values
    rank = np.ones(key.shape, np.int32)      # 1 + the seats ahead (ties share a rank)
    for seat in range(n_seats):              # (a loop over seats: 4x cheaper than an (n, s, s) array)
        rank += key[:, seat, None] > key
    p["rank"] = fit(rank.reshape(-1), p_int)
    p["win_share"] = (bits / np.maximum(nw, 1)[:, None]).reshape(-1).astype(np.float32)
    return g, p


def simulate(n_games: int, players, seed: int = 0, rules: Rules | None = None,
             workers: int | None = None, progress: bool = True, start: int = 0,
             chunk_size: int = DEFAULT_CHUNK, events: bool = False,
             check_bots: bool = True) -> SimResults:
    """Play ``n_games`` games of Cargo Noir and return their statistics.

    ``players``: one bot per seat, 2 to 5 (names such as ``"random"`` or
    ``"greedy?bid_margin=2"``); seat 0 is the first player. ``seed``: the run's
    seed (game i's own seed is derived from (seed, i)). ``workers``: threads
    (default: all cores); results do not depend on it. ``start``: index of the
    first game (to extend a run). ``events``: also record every event of every
    game in ``.events`` (one row per event: game, turn, seat, phase, action,
    loc, coins, amount, value, card, count and cargo columns; see
    ``events_frame``) -- a few hundred rows per game, for small runs.
    ``check_bots`` (default True): user bots run checked, so a bot indexing out
    of bounds, writing the game state or looping for ever stops the run with a
    BotError naming bot, decision and game instead of crashing the process;
    False trusts them for speed (docs/safety.md). Ctrl-C
    stops early and returns the games finished so far (``interrupted=True``).
    See ``SimResults`` for the columns.
    """
    return runner.simulate(get_game(NAME), n_games, players, seed=seed, rules=rules,
                           workers=workers, progress=progress, start=start,
                           chunk_size=chunk_size, events=events, check_bots=check_bots)


BYTES_PER_GAME_ROW = 28      # games table, measured (bench: memory)
BYTES_PER_PLAYER_ROW = 57    # players table with the default cards, measured


def table_bytes(n_games: int, n_players: int) -> int:
    """Estimated size of simulate()'s tables for a run."""
    return int(n_games) * (BYTES_PER_GAME_ROW + BYTES_PER_PLAYER_ROW * n_players)


# ---------------------------------------------------------------------------
MAX_EVENTS = 1_000_000     # play_one's log: 216 MB of int64 rows; a game at the rules' limits logs ~42,000
FIRST_LOG = 20_000         # play_one's first log; a longer game is replayed with a larger one


def play_one(seed: int, players, rules: Rules | None = None, max_events: int | None = None,
             check_bots: bool = True):
    """Play one game with the given game seed and return ``(events, text)``:
    a DataFrame of every event (turn, seat, phase, action, loc, port, coins, amount,
    value, card, count, cargo...) and a readable move-by-move rendering.
    ``play_one(results.games.seed[i], players)`` replays game i of a run;
    ``check_bots`` as in ``simulate``. ``max_events``: refuse (ConfigError) a
    game with more events, 1 to MAX_EVENTS; None: the whole game, whatever its
    length up to MAX_EVENTS. The log is never cut short silently."""
    seated, rules = check_request(1, players, rules)
    seed = check_seed(seed, "a game seed")   # numpy uint64 from games.seed included
    if max_events is not None:
        max_events = check_number("max_events", max_events, 1, MAX_EVENTS)
    cap = MAX_EVENTS if max_events is None else max_events
    table = Table.build(get_game(NAME), rules, seated, check_bots)
    seeds = np.asarray([seed % 2**64], dtype=np.uint64)
    table.compile(seeds)
    rows = min(FIRST_LOG, cap) + 1
    while True:         # a full log may have dropped events: replay (games are deterministic)
        log = np.full((rows, N_EVENT_FIELDS), -1, dtype=np.int64)
        table.play(seeds, 0, log)
        n_events = int(np.count_nonzero(log[:, E.action] >= 0))
        if n_events < rows:
            break
        if rows > cap:
            raise ConfigError(f"this game has more than {cap:,} events"
                              + (f" (max_events); pass a larger max_events (up to {MAX_EVENTS:,})"
                                 " or None" if max_events is not None else
                                 "; play_one cannot show it"))
        rows = min(rows * 4, cap + 1)
    events = events_frame(log[:n_events], rules, len(seated), table.labels)
    return events, render_events(events, rules)


def events_frame(log: np.ndarray, rules: Rules, n_players: int, labels=None) -> pd.DataFrame:
    """The event log array as a DataFrame with readable action, location and cargo."""
    nt = len(rules.cargo_types) + 1
    df = pd.DataFrame(log, columns=list(EVENT_FIELDS))
    df = df.drop(columns=[f"tok{i}" for i in range(nt, MAX_TOK)])
    tok_names = rules.cargo_types + ["wild"]
    df = df.rename(columns={f"tok{i}": tok_names[i] for i in range(nt)})
    df["action"] = pd.Categorical([ACTION_NAMES[a] for a in df["action"]], categories=ACTION_NAMES)
    open_ports = rules.open_ports(n_players)
    locs = {LOC_CASINO: "Casino", LOC_BLACK_MARKET: "Black Market", -1: ""}
    locs.update({LOC_PORT0 + i: name for i, name in enumerate(open_ports)})
    df["loc"] = [locs.get(l, str(l)) for l in df["loc"]]
    cards = rules.card_names
    df["card"] = [cards[c] if c >= 0 else "" for c in df["card"]]
    if labels is not None:
        df.insert(2, "bot", [labels[s] if s >= 0 else "" for s in df["seat"]])
    return df


def render_events(events: pd.DataFrame, rules: Rules) -> str:
    """A game's event log in plain English, then the final scores (narrate.render)."""
    return narrate.render(events, rules.cargo_types + ["wild"])
