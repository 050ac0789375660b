"""Python API over the compiled engine: simulate many games, play one with its log.

Games are played in chunks by the nogil kernel ``run_games_nb`` on a pool of
threads. Game i's random stream comes from (seed, i) alone, so the tables are
identical for any number of workers, and game i of a run is game i of any
longer run with the same seed.
"""
from __future__ import annotations

import os
import sys
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import re

import numpy as np
import pandas as pd
from numba import njit

from ..checks import check_games, check_number, check_seed
from ..errors import BotError, ConfigError, IllegalDecisionError
from ..progress import Progress
from ..rng_nb import game_seed_nb
from .bots.registry import Player, decision_table, model_rows, parse_player, search_mask
from .engine_nb import run_games_nb
from .trade_nb import exact_value_fn
from .enums import (ACTION_NAMES, BOT_FAULT, BOTS, N_PARAMS, PARAM_SCALE, PARAMS, R_N_PLAYERS,
                    R_MODELS, R_N_MODELS, R_SEARCH, R_SEARCH_FN, D_DISCARD, D_RAISE, D_SEND, D_TRADE, DECISION_NAMES,
                    E, EVENT_FIELDS, GAME_FIELDS, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0,
                    M_ERR_AUX, M_ERR_KIND, M_ERR_SEAT, M_ERR_VALUE, M_N_EVENTS, M_TURN, MAX_TOK,
                    N_EVENT_FIELDS, N_GAME_FIELDS, PLAYER_FIELDS, ERR_NEED_SOLVER)
from .rules import Rules

DEFAULT_CHUNK = 2048


@njit(cache=True)
def game_seeds_nb(run_seed, start, n):
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = game_seed_nb(run_seed, start + i)
    return out


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
    if rules is None:
        rules = Rules.default()
    if not isinstance(rules, Rules):
        raise ConfigError("rules must be a cargo_sim.Rules")
    if isinstance(players, str):
        players = [p for p in players.split(",") if p]
    try:
        players = list(players)
    except TypeError:
        raise ConfigError("players must be a list of bot names, one per seat") from None
    rules.check_players(len(players))
    if not isinstance(n_games, (int, np.integer)) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"number of games must be a whole number >= 0, got {n_games!r}")
    seated = [parse_player(p) for p in players]
    return seated, rules


def _illegal_error(players: list[Player], kind, seat, value, aux, turn, index, seed, rules):
    bot = players[seat].label if 0 <= seat < len(players) else "?"
    what = DECISION_NAMES[kind] if 0 <= kind < len(DECISION_NAMES) else f"decision {kind}"
    if value == BOT_FAULT:
        return BotError(
            f"bot {bot!r} (seat {seat}) raised an exception in its {what} decision; turn {turn} "
            f"of game {index} (game seed {seed}; play_one({seed}, players) replays it); with "
            "check_bots=True (--check-bots) an index out of bounds also stops here instead of "
            "crashing the process")
    detail = f"answer {value}"
    if kind == D_TRADE:
        detail = (f"sold {value} tokens but took no card (rules option trade_without_card)"
                  if aux == -1 else
                  f"card count {value} for card #{aux - 100}" if 100 <= aux < 1000 else
                  f"cards costing {value} but the tokens sold are worth {aux - 1000}"
                  if aux >= 1000 else f"{value} tokens of type #{aux} (more than held or negative)")
    elif kind == D_SEND:
        detail = f"destination {value} with bid {aux}"
    elif kind == D_RAISE:
        detail = f"raise of {value} coins (needs 0 to abandon, or {aux} up to the coins in the safe)"
    elif kind == D_DISCARD:
        detail = f"discard total {value} (must discard exactly {aux})" if aux >= 0 else detail
    return IllegalDecisionError(
        f"bot {bot!r} (seat {seat}) made an illegal {what} decision: {detail}; "
        f"turn {turn} of game {index} (game seed {seed})")


# public name for the layers above (the forward model); the underscored one is older
illegal_error = _illegal_error


def table_template(rules: Rules, players: list[Player], check_bots: bool = False):
    """(template state array, decide) for a table: the rules header, each seat's
    bot and parameters, the packed trade-value tables after the state and the
    bots' workspace (Rules.state_template). check_bots: user bots with bounds
    checking (registry.checked)."""
    n = len(players)
    decide, bot_idx = decision_table(players, check_bots)
    template = rules.state_template(n)
    template[BOTS:BOTS + n] = bot_idx
    for seat, p in enumerate(players):
        at = PARAMS + seat * N_PARAMS
        template[at:at + N_PARAMS] = np.round(p.param_vector() * PARAM_SCALE).astype(np.int64)
    mask = search_mask(players)
    if mask:
        # search bots: their kernel's address (this process only) and their models' rows
        from .bots.search_nb import search_fn
        rows = model_rows()
        template = np.concatenate([template, rows])
        template[R_MODELS] = len(template) - len(rows)
        template[R_N_MODELS] = len(rows) // N_PARAMS
        template[R_SEARCH] = mask
        template[R_SEARCH_FN] = search_fn()
    return template, decide


EVENTS_PER_GAME = 160     # first guess of event rows per game and seat (grown on overflow)


_SOLVER = [0]


def solver_address() -> int:
    """Address of the exact trade solver for the kernels, 0 until a game has
    needed it (load_solver): most rule sets never do, and runs start sooner."""
    return _SOLVER[0]


def load_solver() -> None:
    _SOLVER[0] = exact_value_fn()


def _run_chunk(template, decide, seeds, n_fields_p, log=None, events=False):
    """Play a chunk of games. With events=True, returns the chunk's event rows
    as a 4th item (the chunk is replayed with a larger log if it overflows:
    games are deterministic, so the replay is the same games)."""
    n = len(seeds)
    n_seats = int(template[R_N_PLAYERS])
    per_game = EVENTS_PER_GAME * n_seats
    while True:
        games = np.zeros((n, N_GAME_FIELDS), dtype=np.int64)
        pl = np.zeros((n, n_seats, n_fields_p), dtype=np.int32)
        err = np.full(8, -1, dtype=np.int64)
        if events:
            log = np.zeros((max(n * per_game, 1), N_EVENT_FIELDS), dtype=np.int64)
        elif log is None:
            log = np.zeros((0, N_EVENT_FIELDS), dtype=np.int64)
        ok = run_games_nb(template, decide, solver_address(), seeds, games, pl, log, err)
        if not ok and err[1] == ERR_NEED_SOLVER:
            load_solver()       # games are deterministic: the replay plays the same games
            continue
        if not events:
            return games, pl, (None if ok else err)
        if not ok or err[6] < log.shape[0]:
            return games, pl, (None if ok else err), log[:max(int(err[6]), 0)]
        per_game *= 2


_NUMBA_NOISE = ("Failed in ", "During:", "File ", "<source", "^", "Enable logging", "For more")


def numba_first_message(text: str) -> str:
    """The first line of a numba error that says what is wrong (``NameError:
    name 'X' is not defined``), not the pipeline's boilerplate around it."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    real = [ln for ln in lines if not ln.startswith(_NUMBA_NOISE)]
    for ln in real:
        if re.match(r"\w+(Error|Exception)\b", ln) or any(
                k in ln for k in ("No implementation", "Cannot", "Unknown", "Untyped", "nvalid")):
            return ln
    return real[0] if real else (lines[0] if lines else "")


def first_compile(decide) -> bool:
    """True when the table's decide function is neither compiled in this
    process nor in numba's disk cache (so the next game compiles it)."""
    if getattr(decide, "signatures", None):
        return False
    path = getattr(getattr(getattr(decide, "_cache", None), "_cache_file", None), "_index_path", None)
    return path is None or not os.path.exists(path)


def _compile_table(template, decide, seeds, n_fields_p, players, progress: bool = False) -> None:
    """Play one game to compile the table's bots; a bot that numba cannot
    compile gets a BotError naming it (the bots of the table when numba does
    not say which) with numba's first real message, not a numba traceback.
    With ``progress``, a first compile says so on stderr first."""
    from numba.core.errors import NumbaError
    if progress and first_compile(decide):
        names = ", ".join(sorted({p.spec.name for p in players}))
        print(f"compiling the bots ({names}) for their first use: about 1-3 minutes, "
              f"cached afterwards", file=sys.stderr, flush=True)
    try:
        _run_chunk(template, decide, seeds, n_fields_p)
    except (NumbaError, TypeError) as exc:   # numba reports typing failures of FT args as TypeError
        text = str(exc)
        names = sorted({p.spec.name for p in players})
        named = [n for n in names if re.search(rf"<function {re.escape(n)}\b", text)
                 or re.search(rf"\bfunction {re.escape(n)}\b", text)]
        where = re.search(r'File "([^"]+)", line (\d+)', text)
        at = f" ({where.group(1)}, line {where.group(2)})" if where and "<" not in where.group(1) else ""
        who = f"bot {', '.join(named)}" if named else f"a bot of this table ({', '.join(names)})"
        raise BotError(f"{who} does not compile with numba: {numba_first_message(text)}{at}") from None


def narrowest(col: np.ndarray) -> np.ndarray:
    """``col`` at the smallest signed integer width that holds its values."""
    lo, hi = (int(col.min()), int(col.max())) if len(col) else (0, 0)
    for t in (np.int8, np.int16, np.int32, np.int64):
        if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max:
            return col if col.dtype == t else col.astype(t)
    return col


def table_columns(games_arr, players_arr, seeds, start, players: list[Player], rules: Rules):
    """The ``games`` and ``players`` tables from the kernel's arrays, as dicts of
    columns in table order (numpy arrays at their smallest width; ``bot`` a
    Categorical): cheap per chunk, no DataFrame on the way."""
    n_games, n_seats, _ = players_arr.shape
    gidx = np.arange(start, start + n_games, dtype=np.int64)
    mask = games_arr[:, GAME_FIELDS.index("winners_mask")]
    bits = (mask[:, None] >> np.arange(n_seats)[None, :]) & 1
    nw = bits.sum(axis=1)
    g = {"game": gidx, "seed": seeds}
    for k, name in enumerate(GAME_FIELDS):
        col = games_arr[:, k]
        g[name] = col.astype(bool) if name == "tie" else narrowest(col)
    g["n_winners"] = narrowest(nw)
    g["winner"] = narrowest(np.argmax(bits, axis=1))

    labels = [pl.label for pl in players]
    uniq = list(dict.fromkeys(labels))
    codes = np.tile(np.asarray([uniq.index(l) for l in labels], dtype=np.int8), n_games)
    p = {"game": np.repeat(gidx, n_seats),
         "seat": np.tile(np.arange(n_seats, dtype=np.int8), n_games),
         "bot": pd.Categorical.from_codes(codes, categories=uniq)}
    flat = players_arr.reshape(n_games * n_seats, players_arr.shape[2])
    names = list(PLAYER_FIELDS) + [f"card_{c}" for c in rules.card_names]
    for k, name in enumerate(names):
        p[name] = narrowest(flat[:, k])
    vp = players_arr[:, :, PLAYER_FIELDS.index("vp")].astype(np.int64)
    top = players_arr[:, :, PLAYER_FIELDS.index("max_card_vp")].astype(np.int64)
    if rules["tie_break"] == "cost":     # the engine's tie_key_nb: highest-cost card held
        held = players_arr[:, :, len(PLAYER_FIELDS):].astype(np.int64) > 0
        cost = np.asarray([rules[f"card.{c}.cost"] for c in rules.card_names], dtype=np.int64)
        top = np.where(held, cost, 0).max(axis=2)
    key = vp * 2**31 + top            # lexicographic (VP, top card) for any int32 values
    p["rank"] = narrowest((1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)).reshape(-1))
    p["win_share"] = (bits / np.maximum(nw, 1)[:, None]).reshape(-1).astype(np.float32)
    return g, p


def build_tables(games_arr, players_arr, seeds, start, players: list[Player], rules: Rules):
    """The ``games`` and ``players`` DataFrames from the kernel's arrays."""
    g, p = table_columns(games_arr, players_arr, seeds, start, players, rules)
    return pd.DataFrame(g, copy=False), pd.DataFrame(p, copy=False)


def simulate(n_games: int, players, seed: int = 0, rules: Rules | None = None,
             workers: int | None = None, progress: bool = True, start: int = 0,
             chunk_size: int = DEFAULT_CHUNK, events: bool = False,
             check_bots: bool = False) -> SimResults:
    """Play ``n_games`` games of Cargo Noir and return their statistics.

    ``players``: one bot per seat, 2 to 5 (names such as ``"random"`` or
    ``"greedy?bid_margin=2"``); seat 0 is the first player. ``seed``: the run's
    seed (game i's own seed is derived from (seed, i)). ``workers``: threads
    (default: all cores); results do not depend on it. ``start``: index of the
    first game (to extend a run). ``events``: also record every event of every
    game in ``.events`` (one row per event: game, turn, seat, phase, action,
    loc, coins, amount, value, card, count and cargo columns; see
    ``events_frame``) -- a few hundred rows per game, for small runs.
    ``check_bots``: compile user bots with bounds checking, so a bot reading or
    writing outside an array stops the run with a BotError naming bot, decision
    and game instead of crashing the process (slower; docs/safety.md). Ctrl-C
    stops early and returns the games finished so far (``interrupted=True``).
    See ``SimResults`` for the columns.
    """
    seated, rules = check_request(n_games, players, rules)
    n = len(seated)
    if workers is None:
        workers = os.cpu_count() or 1
    check_number("workers", workers, 1)
    seed = check_seed(seed)
    check_games(start, n_games)
    check_number("chunk_size", chunk_size, 1)
    check_fits(n_games, n)
    template, decide = table_template(rules, seated, bool(check_bots))
    seeds = game_seeds_nb(np.uint64(seed % 2**64), start, n_games)
    n_fields_p = len(PLAYER_FIELDS) + len(rules.card_names)
    n_chunks = -(-n_games // chunk_size)
    if n_games > 0:
        # compile the table's bots (first use only) before the clock starts
        _compile_table(template, decide, seeds[:1], n_fields_p, seated, progress)
    # Each finished chunk's tables are built at once (narrowed, derived columns
    # added) and copied into the run's final columns; its raw kernel arrays are
    # freed. Peak memory: the final tables plus a few chunks.
    sinks = (ColumnSink(n_games), ColumnSink(n_games * n))
    logs = []
    bar = Progress(n_games, label=f"simulate: {len(seated)} players ({', '.join(p.label for p in seated)})",
                   enabled=progress and n_games > 0)
    interrupted = False
    error = None
    pool = ThreadPoolExecutor(max_workers=workers)
    window = deque()                  # chunks in flight, in game order (bounded)
    nxt = 0
    try:
        while nxt < n_chunks or window:
            while nxt < n_chunks and len(window) < 2 * workers + 2:
                lo, hi = nxt * chunk_size, min((nxt + 1) * chunk_size, n_games)
                window.append((lo, hi, pool.submit(_run_chunk, template, decide, seeds[lo:hi],
                                                   n_fields_p, None, events)))
                nxt += 1
            lo, hi, fut = window.popleft()
            games, pl, err, *ev = fut.result()
            if err is not None:
                gi = lo + int(err[0])
                error = _illegal_error(seated, int(err[1]), int(err[2]), int(err[3]), int(err[4]),
                                       int(err[5]), start + gi, int(seeds[gi]), rules)
                break
            g, p = table_columns(games, pl, seeds[lo:hi], start + lo, seated, rules)
            del games, pl
            if events:
                logs.append(_offset_log(ev[0], start + lo))
            sinks[0].add(g)
            sinks[1].add(p)
            bar.update(hi - lo)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for _, _, f in window:
            f.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        if bar.done:
            bar.close()
    if error is not None:
        raise error
    n_done = min(sinks[0].filled, sinks[1].filled // n)    # a Ctrl-C between the two adds
    if n_done:
        g, p = sinks[0].frame(n_done), sinks[1].frame(n_done * n)
    else:
        g, p = build_tables(np.zeros((0, N_GAME_FIELDS), np.int64),
                            np.zeros((0, n, n_fields_p), np.int32), seeds[:0], start, seated, rules)
    config = {"n_games": n_games, "players": [pl.label for pl in seated], "seed": seed,
              "start": start, "rules_digest": rules.digest}
    ev_frame = None
    if events:
        all_ev = np.concatenate(logs) if logs else np.zeros((0, N_EVENT_FIELDS), np.int64)
        all_ev = all_ev[all_ev[:, E.game] < start + n_done]
        ev_frame = events_frame(all_ev, rules, n, [pl.label for pl in seated])
    return SimResults(g, p, rules, config, interrupted, ev_frame)


def _offset_log(log, first_game):
    log = log.copy()
    log[:, E.game] += first_game
    return log


class ColumnSink:
    """A table's final columns, filled chunk by chunk in place: each column is
    allocated once for the whole run at the width of the first chunk and
    widened (rarely: at most three times) when a chunk needs more, so the
    columns end at the smallest width that holds the run, as one table built
    at once would. No per-chunk pieces are kept, so memory is the final table."""

    def __init__(self, n_rows: int):
        self.n, self.filled, self.cols, self.cats = n_rows, 0, {}, {}

    def add(self, cols: dict) -> None:
        """Append a chunk's columns (``table_columns``)."""
        m, at = len(next(iter(cols.values()))), self.filled
        for c, col in cols.items():
            if isinstance(col, pd.Categorical):
                self.cats[c] = col.categories
                vals = col.codes
            else:
                vals = col
            arr = self.cols.get(c)
            if arr is None:
                arr = self.cols[c] = np.empty(self.n, vals.dtype)
            elif np.result_type(arr.dtype, vals.dtype) != arr.dtype:
                wider = np.empty(self.n, np.result_type(arr.dtype, vals.dtype))
                wider[:at] = arr[:at]
                arr = self.cols[c] = wider
            arr[at:at + m] = vals
        self.filled += m                 # last: an interrupted add leaves no partial rows

    def frame(self, rows: int) -> pd.DataFrame:
        """The first ``rows`` rows (all of them unless the run was interrupted)."""
        out = {}
        for c, arr in self.cols.items():
            arr = arr if rows == self.n else arr[:rows].copy()
            out[c] = pd.Categorical.from_codes(arr, categories=self.cats[c]) if c in self.cats else arr
        return pd.DataFrame(out, copy=False)


BYTES_PER_GAME_ROW = 28      # games table, measured (bench: memory)
BYTES_PER_PLAYER_ROW = 57    # players table with the default cards, measured


def table_bytes(n_games: int, n_players: int) -> int:
    """Estimated size of simulate()'s tables for a run."""
    return int(n_games) * (BYTES_PER_GAME_ROW + BYTES_PER_PLAYER_ROW * n_players)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux MemAvailable; None elsewhere)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_fits(n_games: int, n_players: int) -> None:
    """Refuse up front a run whose tables cannot fit in the memory available
    (with the ways to run it that keep memory flat)."""
    need = table_bytes(n_games, n_players) * 1.5 + n_games * 8
    avail = available_memory()
    if avail is not None and need > avail:
        raise ConfigError(
            f"{n_games:,} games need about {need / 2**30:.1f} GiB in memory and "
            f"{avail / 2**30:.1f} GiB is available: write the games to disk chunk by chunk "
            "(cargo-sim simulate --out DIR, or cargo_sim.runs.run_to_dir) or keep counters only "
            "(--aggregate, cargo_sim.aggregate)")


# ---------------------------------------------------------------------------
def play_one(seed: int, players, rules: Rules | None = None, max_events: int = 20000,
             check_bots: bool = False):
    """Play one game with the given game seed and return ``(events, text)``:
    a DataFrame of every event (turn, seat, phase, action, loc, port, coins, amount,
    value, card, count, cargo...) and a readable move-by-move rendering.
    ``play_one(results.games.seed[i], players)`` replays game i of a run;
    ``check_bots`` as in ``simulate``."""
    seated, rules = check_request(1, players, rules)
    seed = check_seed(seed, "a game seed")   # numpy uint64 from games.seed included
    n = len(seated)
    template, decide = table_template(rules, seated, bool(check_bots))
    log = np.full((max_events, N_EVENT_FIELDS), -1, dtype=np.int64)
    seeds = np.asarray([seed % 2**64], dtype=np.uint64)
    _compile_table(template, decide, seeds, len(PLAYER_FIELDS) + len(rules.card_names), seated)
    games, pl, err = _run_chunk(template, decide, seeds, len(PLAYER_FIELDS) + len(rules.card_names), log)[:3]
    if err is not None:
        raise _illegal_error(seated, int(err[1]), int(err[2]), int(err[3]), int(err[4]),
                             int(err[5]), 0, seed, rules)
    n_events = int(np.count_nonzero(log[:, E.action] >= 0))
    events = events_frame(log[:n_events], rules, n, [p.label for p in seated])
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


def _cargo_text(row, tok_names) -> str:
    parts = []
    for t in tok_names:
        v = row[t]
        if v:
            parts.append(f"{'' if v > 0 else '-'}{abs(v)} {t}" if abs(v) > 1 or v < 0 else f"{t}")
    return ", ".join(parts) if parts else "nothing"


def render_events(events: pd.DataFrame, rules: Rules) -> str:
    """A readable text rendering of a game's event log."""
    tok_names = rules.cargo_types + ["wild"]
    lines = []
    last = None
    for r in events.itertuples(index=False):
        row = r._asdict()
        head = (row["turn"], row["seat"])
        if head != last and row["seat"] >= 0:
            who = row.get("bot", "")
            lines.append(f"-- turn {row['turn']}, seat {row['seat']}" + (f" ({who})" if who else ""))
            last = head
        a, loc = row["action"], row["loc"]
        cargo = _cargo_text(row, tok_names)
        msg = {
            "send casino": "sends a ship to the Casino",
            "send black market": "sends a ship to the Black Market",
            "send port": f"sends a ship to {loc} on {row['amount']} coins",
            "casino": f"Casino: {row['count']} ship(s), +{row['amount']} coins",
            "black market swap": f"Black Market swap: {cargo}",
            "black market draw": f"Black Market draw: {cargo}",
            "port win": f"wins {loc} for {row['amount']} coins: {cargo}",
            "raise": f"raises at {loc} by {row['amount']} to {row['value']}",
            "abandon": f"abandons {loc}, takes back {row['amount']} coins",
            "syndicate": f"Syndicate pays {row['amount']} coins",
            "trade": f"sells {cargo} for {row['value']} points"
                     + (f" + {row['amount']} coins" if row["amount"] else ""),
            "buy": f"takes {row['count']} x {row['card']} ({row['value']} VP)",
            "discard": f"discards {cargo}",
            "bag refill": f"discard pile ({row['count']} tokens) goes back into the bag",
            "bank shortfall": f"the bank is {row['amount']} coins short",
            "score": f"final score {row['value']} VP" + (" - WINNER" if row["count"] else ""),
        }[a]
        coins = f"  [safe {row['coins']}]" if row["seat"] >= 0 and a != "score" else ""
        lines.append(f"   {msg}{coins}")
    return "\n".join(lines)
