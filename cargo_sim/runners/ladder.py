"""The strength ladder: every bot against one yardstick bot at several budgets.

A *cell* is (yardstick budget, seat count, bot): a seat-rotated tournament
(``tournament``, ``design="balanced"``) between the bot and the yardstick
with its budget parameter (``iterations`` for ``ismcts``) set to the budget,
so the bot's win rate and its interval are clustered by deal. Every cell of a
seat count plays the same deals (same seed): the bots are compared on common
random numbers. The yardstick's speed (its decisions per second, timed one
decision at a time through the forward model) is measured per budget and
seat count. docs/tournaments.md (ladder section) says how to read it.
"""
from __future__ import annotations

import json
import math
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.bots import short_repr
from ..core.checks import check_seed, whole
from ..core.contract import get_game, require
from ..core.errors import ConfigError
from ..core.fileio import (atomic_write, atomic_write_text, claim_folder, decode_text, own_output,
                          read_bytes, read_json)
from ..core.ratings import significance, standings_table
from .runs.folder import LOCK, RunLock, lock_only
from .tournament import check_size, seating_plan, tournament

__all__ = ["ladder", "load_ladder", "LadderResults", "search_rate", "default_ladder_bots", "BUDGET_PARAMS"]

# the yardstick's budget parameter, by the first of these names it has
BUDGET_PARAMS = ("iterations", "rollouts")
CELL_KEY = ["budget", "seats", "bot"]


def default_ladder_bots(yardstick: str, game=None) -> list[str]:
    """Every built-in bot of ``game`` except the yardstick's own family and the search bots."""
    bots = get_game(game).bots
    name = bots.parse(yardstick).spec.name
    return [b for b in bots.builtin_order if b != name and not bots.builtin[b].search]


def _budget_param(yardstick: str, budget_param: str | None, game=None) -> str:
    spec = get_game(game).bots.parse(yardstick).spec
    if budget_param is None:
        budget_param = next((k for k in BUDGET_PARAMS if k in spec.params), None)
        if budget_param is None:
            raise ConfigError(f"yardstick {spec.name!r} has no budget parameter "
                              f"({' or '.join(BUDGET_PARAMS)}); name one with budget_param "
                              f"(--budget-param), e.g. one of: {', '.join(spec.params) or 'none'}")
    if budget_param not in spec.params:
        raise ConfigError(f"yardstick {spec.name!r} has no parameter {budget_param!r} "
                          f"(parameters: {', '.join(spec.params) or 'none'})")
    return budget_param


def _check_budgets(budgets, budget_param: str) -> list[float]:
    """The budgets, ascending (pruning looks back): distinct finite numbers,
    whole numbers > 0 for an iteration or rollout count."""
    if isinstance(budgets, str):
        budgets = [b for b in budgets.split(",") if b.strip()]
    try:
        vals = [float(b) for b in budgets]
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"budgets must be numbers, got {short_repr(budgets)}") from None
    if not vals:
        raise ConfigError("the ladder needs at least one budget")
    counts = budget_param in BUDGET_PARAMS       # iterations, rollouts: whole and > 0
    for b in vals:
        if not math.isfinite(b) or (counts and not (b > 0 and b.is_integer())):
            kind = f"whole numbers of {budget_param} > 0" if counts else "finite numbers"
            raise ConfigError(f"budgets must be {kind}, got {b:g}")
    dup = sorted({b for b in vals if vals.count(b) > 1})
    if dup:
        raise ConfigError(f"budgets must be distinct, got {', '.join(f'{b:g}' for b in dup)} twice")
    return sorted(vals)


def _check_seats(seats) -> list[int]:
    if isinstance(seats, str):
        seats = [n for n in seats.split(",") if n.strip()]
    try:
        vals = [int(n) if not isinstance(n, float) or n.is_integer() else None for n in seats]
    except (TypeError, ValueError):
        raise ConfigError(f"seats must be whole numbers, got {short_repr(seats)}") from None
    if not vals or None in vals:
        raise ConfigError(f"seats must be whole numbers (at least one), got {seats!r}")
    if len(set(vals)) != len(vals):
        raise ConfigError(f"seats must be distinct, got {vals}")
    return vals


def bots_digest(bots, game=None) -> str:
    """A digest of the parameter values of every built-in bot (the yardstick's
    models included) and of ``bots``: a ladder resumes only onto the same bots."""
    import hashlib
    parse_player = get_game(game).bots.parse
    vals = {name: list(spec.params.values()) for name, spec in get_game(game).bots.builtin.items()}
    vals.update({f"bot:{parse_player(b).label}": list(parse_player(b).values) for b in bots})
    return hashlib.sha256(json.dumps(vals, sort_keys=True).encode()).hexdigest()[:16]


def yardstick_at(yardstick: str, budget_param: str, budget: float) -> str:
    """The yardstick spec with its budget parameter set (other parameters kept)."""
    spec = yardstick.strip()
    sep = "&" if "?" in spec else "?"
    return f"{spec}{sep}{budget_param}={budget:g}"


def search_rate(yardstick: str, n_players: int, decisions: int = 30, seed: int = 0,
                opponent: str = "greedy", rules=None,
                max_seconds: float = 60.0, game=None, check_bots: bool = True) -> dict:
    """The yardstick's speed: decisions per second of its own answers
    (``GameState.bot_answer`` timed one decision at a time, every decision
    kind), at seat 0 of ``n_players`` with ``opponent`` at the other seats,
    over at most ``decisions`` decisions or ``max_seconds``; its first
    decision is answered once untimed (first use: loading or compiling).
    ``game``: whose forward model (the contract's ``GameState``; default Cargo Noir)."""
    GameState = require(get_game(game), "forward")
    players = [yardstick] + [opponent] * (n_players - 1)
    spent = 0.0
    n = 0
    game = 0
    warm = False
    while n < decisions and spent < max_seconds:
        st = GameState(players, seed=seed, game=game, rules=rules, check_bots=check_bots)
        while not st.is_over and n < decisions and spent < max_seconds:
            d = st.decision
            if d.seat == 0 and not warm:
                warm = True
                st.clone().bot_answer()
            t = time.perf_counter()
            answer = st.bot_answer()
            if d.seat == 0:
                spent += time.perf_counter() - t
                n += 1
            st.apply(answer)
        game += 1
    return {"decisions": n, "seconds": spent, "per_second": n / spent if spent > 0 else float("nan")}


@dataclass
class LadderResults:
    """``cells``: one row per (budget, seats, bot): games, deals, the bot's
    win rate with its deal-clustered 95% interval (win_lo, win_hi), the
    yardstick's, the paired (by deal) difference bot - yardstick with its 95%
    interval (diff, diff_lo, diff_hi), mean VPs, seconds. ``rates``: the
    yardstick's decisions per second by budget and seats. ``complete``:
    False when interrupted (the finished cells are kept). ``pruned``: the
    cells that ``prune`` skipped."""
    cells: pd.DataFrame
    rates: pd.DataFrame
    config: dict = field(default_factory=dict)
    complete: bool = True

    @property
    def pruned(self) -> pd.DataFrame:
        """The cells not played because of ``prune``: budget, seats, bot, and
        the smaller budget (``by_budget``) whose win rate (``by_rate``) stopped it."""
        return pruned_cells(self.cells, self.config)

    def table(self, value: str = "win_rate") -> pd.DataFrame:
        """Bots by rows, (seats, budget) by columns."""
        if self.cells.empty:
            return pd.DataFrame()
        return self.cells.pivot_table(index="bot", columns=["seats", "budget"], values=value,
                                      sort=False)

    def __repr__(self) -> str:
        state = "complete" if self.complete else "interrupted"
        return (f"LadderResults({len(self.cells)} cells, yardstick {self.config.get('yardstick')!r}, "
                f"{state})")


def _prune_limit(config: dict, n_players: int) -> float | None:
    """The win rate at or below which a bot stops climbing at ``n_players``
    seats: ``prune`` times the fair share 1/seats (None: never)."""
    p = config.get("prune")
    return None if p is None else float(p) / n_players


def _stopped_by(rows, config: dict, budget: float, n_players: int, bot: str):
    """The finished cell of a smaller budget that prunes (budget, seats, bot), or None."""
    limit = _prune_limit(config, n_players)
    if limit is None:
        return None
    for r in sorted(rows, key=lambda r: float(r["budget"])):
        if (int(r["seats"]) == n_players and str(r["bot"]) == bot
                and float(r["budget"]) < budget and float(r["win_rate"]) <= limit + 1e-12):
            return r
    return None


def pruned_cells(cells: pd.DataFrame, config: dict) -> pd.DataFrame:
    """The (budget, seats, bot) cells of ``config`` that its ``prune`` skips,
    given the finished ``cells`` (docs/tournaments.md, ladder section)."""
    rows = cells.to_dict("records") if not cells.empty else []
    out = []
    for n in config.get("seats", []):
        for b in sorted(config.get("budgets", [])):
            for bot in config.get("bots", []):
                r = _stopped_by(rows, config, float(b), int(n), bot)
                if r is not None:
                    out.append({"budget": float(b), "seats": int(n), "bot": bot,
                                "by_budget": float(r["budget"]), "by_rate": float(r["win_rate"])})
    return pd.DataFrame(out, columns=["budget", "seats", "bot", "by_budget", "by_rate"])


def _cell_row(players: pd.DataFrame, bot_name: str, budget, n_players: int, seconds: float,
              rounds: int, stop: str) -> dict:
    """A cell's statistics from the games of all its rounds (``players``: one row
    per game and seat with game, deal_id, entrant, win_share, vp, rank)."""
    st = standings_table(players, entrants=["bot", "yardstick"])
    sig = significance(players, "bot", "yardstick")
    t = sig.set_index("test").loc["paired t-test (win rate)"]
    lo, hi = float(st.loc["bot", "win_lo"]), float(st.loc["bot", "win_hi"])
    return {"budget": budget, "seats": n_players, "bot": bot_name,
            "games": int(players["game"].nunique()), "deals": int(st.loc["bot", "clusters"]),
            "win_rate": float(st.loc["bot", "win_rate"]), "win_lo": lo, "win_hi": hi,
            "yardstick_win_rate": float(st.loc["yardstick", "win_rate"]),
            "diff": float(t["estimate"]), "diff_lo": float(t["ci_lo"]), "diff_hi": float(t["ci_hi"]),
            "mean_vp": float(st.loc["bot", "mean_vp"]),
            "yardstick_mean_vp": float(st.loc["yardstick", "mean_vp"]),
            "seconds": round(seconds, 2), "half_width": (hi - lo) / 2, "rounds": int(rounds),
            "stop": stop}


# the games of a cell's rounds, kept in partial.csv while the cell is unfinished
ROUND_COLUMNS = ("budget", "seats", "bot", "round", "seconds", "game", "deal_id", "entrant",
                 "win_share", "vp", "rank")
DEAL_BASE = 10**9        # deal_id = combo * DEAL_BASE + deal: unique across rounds


def _round_frame(res, budget: float, n: int, lab: str, rnd: int, seconds: float,
                 game0: int) -> pd.DataFrame:
    """What the cell's statistics need of one round's games."""
    p = res.players
    return pd.DataFrame({
        "budget": budget, "seats": n, "bot": lab, "round": rnd, "seconds": round(seconds, 2),
        "game": p["game"].to_numpy(np.int64) + game0,
        "deal_id": p["combo"].to_numpy(np.int64) * DEAL_BASE + p["deal"].to_numpy(np.int64),
        "entrant": p["entrant"].astype(str).to_numpy(), "win_share": p["win_share"].to_numpy(float),
        "vp": p["vp"].to_numpy(float), "rank": p["rank"].to_numpy(np.int64)})


def _load_partial(out: Path | None, key, tables: int, round_deals: int) -> list[pd.DataFrame]:
    """The rounds already played of the unfinished cell ``key`` (budget, seats,
    bot), if partial.csv holds whole rounds of exactly it; else none."""
    if out is None or not (out / "partial.csv").exists():
        return []
    try:
        df = _read_csv(out / "partial.csv", ROUND_COLUMNS, ("bot", "entrant"))
    except ConfigError:
        return []
    if df.empty or {(float(b), int(n), str(x)) for b, n, x in
                    zip(df["budget"], df["seats"], df["bot"])} != {key}:
        return []
    rounds = [g for _, g in df.groupby("round", sort=True)]
    deals = sorted(set(df["deal_id"].astype(np.int64) % DEAL_BASE))
    n_games = int(df["game"].nunique())
    if (deals != list(range(len(deals))) or n_games != len(deals) * tables
            or [int(g["round"].iloc[0]) for g in rounds] != list(range(len(rounds)))
            or any(g["game"].nunique() != round_deals * tables for g in rounds[:-1])):
        return []                   # not whole rounds of this design: play the cell afresh
    return [g.reset_index(drop=True) for g in rounds]


def _load_done(out: Path | None, config: dict) -> tuple[pd.DataFrame, pd.DataFrame, bool]:
    """Finished cells and rates of an earlier run of the same ladder in ``out``,
    and whether there was one (its unfinished cell may continue)."""
    empty = pd.DataFrame(), pd.DataFrame(), False
    if out is None or not (out / "run.json").exists():
        return empty
    try:
        old = load_ladder(out)
    except ConfigError:
        return empty
    keys = ("yardstick", "budget_param", "games", "seed", "design", "rules_digest", "rate_decisions",
            "bots_digest", "half_width", "max_games")
    if any(old.config.get(k) != config.get(k) for k in keys):
        return empty
    if old.config.get("game", get_game().name) != config["game"]:    # before games were recorded
        return empty
    return old.cells, old.rates, True


# what a report needs of run.json and of the tables (numbers finite, seats whole)
CONFIG_KEYS = {"yardstick": str, "budget_param": str, "design": str, "rules_digest": str,
               "bots": list, "budgets": list, "seats": list, "games": int, "seed": int}
CELL_COLUMNS = ("budget", "seats", "bot", "games", "deals", "win_rate", "win_lo", "win_hi",
                "diff", "diff_lo", "diff_hi", "seconds")
RATE_COLUMNS = ("budget", "seats", "decisions", "per_second")
FILE_LIMIT = 64 * 2**20


LADDER_FILES = ("run.json", "cells.csv", "rates.csv", "index.md", "ladder.png", "partial.csv")


def claim_ladder_folder(out) -> Path:
    """``out`` of a ladder, checked before it plays: new, empty, or a ladder's
    own folder (only its files; its run.json says so), which a rerun continues."""
    own = own_output(LADDER_FILES + (LOCK,), "run.json", lambda d: "yardstick" in d and "bots_digest" in d)
    folder, _ = claim_folder(out, "ladder output", lambda f: lock_only(f) or own(f))
    return folder


def load_ladder(out) -> LadderResults:
    """The results a ladder wrote to the folder ``out``, checked: a missing,
    damaged or foreign file is one ConfigError line, never a traceback."""
    out = Path(out)
    config = read_json(out / "run.json", FILE_LIMIT, "ladder run.json")
    bad = _config_problem(config)
    if bad:
        raise ConfigError(f"{out / 'run.json'} is not a ladder's run.json: {bad}")
    cells = _read_csv(out / "cells.csv", CELL_COLUMNS, ("bot",))
    rates = _read_csv(out / "rates.csv", RATE_COLUMNS)
    if not cells.empty and (cells["seats"] < 1).any():
        raise ConfigError(f"{out / 'cells.csv'}: seats must be at least 1")
    cells = _order(cells, config)
    return LadderResults(cells, rates, config, bool(config.pop("complete", True)))


def _config_problem(config) -> str | None:
    if not isinstance(config, dict):
        return "not a JSON object"
    for key, kind in CONFIG_KEYS.items():
        v = config.get(key)
        if not isinstance(v, kind) or isinstance(v, bool):
            return f"{key} {v!r}"
    if not all(isinstance(b, str) for b in config["bots"]):
        return "bots"
    for key in ("prune", "half_width", "max_games"):
        v = config.get(key)
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool)):
            return f"{key} {v!r}"
    return None


def _read_csv(path: Path, columns=(), text=()) -> pd.DataFrame:
    """A CSV the ladder wrote (a regular file, at most FILE_LIMIT bytes); an empty
    table for an empty file (nothing finished). Every column in ``columns`` must
    be there, numeric and finite where not in ``text`` (NaN allowed in diff_lo/hi)."""
    import io
    data = decode_text(read_bytes(path, FILE_LIMIT, "ladder table"), path, "ladder table")
    if len(data.strip()) == 0:
        return pd.DataFrame()
    try:
        df = pd.read_csv(io.StringIO(data))
    except (ValueError, pd.errors.ParserError) as e:
        raise ConfigError(f"ladder table {path} is not a CSV table the ladder wrote: "
                          f"{' '.join(str(e).split())}") from None
    if df.empty:
        return pd.DataFrame()
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ConfigError(f"ladder table {path} lacks the columns {', '.join(missing)}")
    for c in columns:
        if c in text:
            df[c] = df[c].astype(str)
            continue
        v = pd.to_numeric(df[c], errors="coerce")
        bad = v.isna() if c not in ("diff_lo", "diff_hi") else v.isna() & df[c].notna()
        if bad.any() or np.isinf(v).any():
            raise ConfigError(f"ladder table {path}: column {c} holds a value that is not a "
                              f"finite number (row {int(np.argmax(bad | np.isinf(v)))})")
        df[c] = v
    return df


def _save(out: Path, cells: pd.DataFrame, rates: pd.DataFrame, config: dict, complete: bool,
          partial: list | None = None) -> None:
    """The finished cells, the rates and run.json; ``partial``: the rounds of the
    unfinished cell (partial.csv, removed once no cell is unfinished)."""
    if partial:
        atomic_write(out / "partial.csv", lambda f: pd.concat(partial).to_csv(f, index=False))
    atomic_write(out / "cells.csv", lambda f: cells.to_csv(f, index=False))
    atomic_write(out / "rates.csv", lambda f: rates.to_csv(f, index=False))
    atomic_write_text(out / "run.json", json.dumps(dict(config, complete=complete), indent=2) + "\n")
    if not partial and (out / "partial.csv").is_file():     # ours: the folder was claimed
        (out / "partial.csv").unlink()


def ladder(bots=None, yardstick: str = "ismcts", budgets=(100, 1000, 10000), seats=(2, 4),
           games: int = 48, seed: int = 0, budget_param: str | None = None,
           rules=None, workers: int | None = None, progress: bool = True,
           out=None, design: str = "balanced", rate_decisions: int = 30,
           prune: float | None = None, extra: dict | None = None, game=None,
           opponent: str | None = None, half_width: float | None = None,
           max_games: int | None = None, check_bots: bool = True) -> LadderResults:
    """Place ``bots`` (default: every built-in but the yardstick and the search
    bots) against ``yardstick`` at each of ``budgets`` (values of its budget
    parameter: ``budget_param``, default ``iterations`` or ``rollouts``) and
    each seat count of ``seats``: one seat-rotated tournament of ``games``
    games per cell (bot and yardstick each in half the seats; rounded up to
    whole deals). ``half_width``: the sequential design: a cell plays rounds of
    ``games`` games (the next deals of its fixed deal sequence) until the bot's
    95% interval has half-width at most ``half_width`` or it has played
    ``max_games`` (default 10 x games); None plays one round. ``out``: a
    folder for cells.csv, rates.csv and run.json, rewritten after every cell
    (and partial.csv, the rounds of the unfinished cell, after every round); a
    rerun with the same settings and ``out`` skips the finished cells and
    continues the unfinished one. Ctrl-C stops after keeping the finished
    cells and rounds (``complete`` False, with a warning). ``rate_decisions``:
    yardstick decisions timed per budget and seat count (``search_rate``).
    ``prune``: a bot whose win rate at a budget is at most ``prune`` x its
    fair share (1/seats) is not placed at the larger budgets of that seat
    count (the yardstick is assumed no weaker with budget;
    ``LadderResults.pruned`` lists the skipped cells); None plays every cell.
    ``extra``: more entries for the config and run.json (e.g. the command).
    ``game``: the game (default Cargo Noir); ``opponent``: the other seats
    while the yardstick is timed (default: the game's first default bot,
    ``bots.default_players(1)``: greedy in both games). ``check_bots``: user bots run
    checked (the default; False trusts them, docs/safety.md)."""
    game = get_game(game)
    parse_player = game.bots.parse
    rules = rules or game.Rules.default()
    if not isinstance(yardstick, str) or not yardstick.strip():
        raise ConfigError("yardstick must be a bot spec such as 'ismcts'")
    budget_param = _budget_param(yardstick, budget_param, game)
    bots = default_ladder_bots(yardstick, game) if bots is None else (
        [b for b in bots.split(",") if b.strip()] if isinstance(bots, str) else list(bots))
    if not bots:
        raise ConfigError("the ladder needs at least one bot")
    labels = [parse_player(b).label for b in bots]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"ladder bots must be distinct, got {labels}")
    ys_name = parse_player(yardstick).spec.name
    same = [lab for b, lab in zip(bots, labels) if parse_player(b).spec.name == ys_name]
    if same:      # a cell would be the yardstick against itself at another budget
        raise ConfigError(f"ladder bots must not include the yardstick's own bot {ys_name!r}, "
                          f"got {', '.join(same)}")
    budgets, seats = _check_budgets(budgets, budget_param), _check_seats(seats)
    try:
        prune = None if prune is None else float(prune)
    except (TypeError, ValueError):
        raise ConfigError(f"prune must be a number, got {prune!r}") from None
    for n in seats:
        rules.check_players(n)
    for b in budgets:
        parse_player(yardstick_at(yardstick, budget_param, b))
    if not whole(games) or games < 1:
        raise ConfigError(f"games must be a whole number >= 1, got {games!r}")
    half_width, max_games = _check_sequential(half_width, max_games, int(games))
    for n in seats:           # every cell is a tournament of bot and yardstick: refused before any plays
        t = len(seating_plan(2, n, design))
        check_size(-(-int(max_games or games) // t) * t, n)
    if prune is not None and not 0 <= prune < 1:
        raise ConfigError(f"prune must be a fraction of the fair share in [0, 1), got {prune:g}")
    check_seed(seed)
    if opponent is None:
        opponent = game.bots.default_players(1)[0]
    parse_player(opponent)
    out = claim_ladder_folder(out) if out is not None else None      # before any game
    lock = RunLock(out).acquire() if out is not None else None       # one writer at a time
    try:
        config = {"yardstick": yardstick, "budget_param": budget_param, "budgets": budgets,
                  "seats": seats, "bots": labels, "games": int(games), "seed": int(seed),
                  "design": design, "rules_digest": rules.digest, "rate_decisions": int(rate_decisions),
                  "bots_digest": bots_digest(bots, game), "prune": prune, "game": game.name,
                  "half_width": half_width, "max_games": max_games, "rate_opponent": opponent}
        config.update(extra or {})
        done_cells, done_rates, resumed = _load_done(out, config)
        rows = done_cells.to_dict("records") if not done_cells.empty else []
        rate_rows = done_rates.to_dict("records") if not done_rates.empty else []
        have = {(float(r["budget"]), int(r["seats"]), str(r["bot"])) for r in rows}
        have_rate = {(float(r["budget"]), int(r["seats"])) for r in rate_rows}
        todo = [(b, n, lab, bot) for n in seats for b in budgets for lab, bot in zip(labels, bots)]
        complete = True
        partial: list = []
        t0 = time.time()
        try:
            for i, (b, n, lab, bot) in enumerate(todo):
                if (b, n, lab) in have or _stopped_by(rows, config, b, n, lab) is not None:
                    continue
                ys = yardstick_at(yardstick, budget_param, b)
                if (b, n) not in have_rate:       # timed once a cell of (b, n) is to be played
                    r = search_rate(ys, n, decisions=rate_decisions, seed=seed, rules=rules,
                                    opponent=opponent, game=game, check_bots=check_bots)
                    rate_rows.append({"budget": b, "seats": n, **r})
                    have_rate.add((b, n))
                tables = len(seating_plan(2, n, design))
                round_deals = -(-int(games) // tables)
                max_deals = -(-int(max_games or games) // tables)
                partial = _load_partial(out, (b, n, lab), tables, round_deals) if resumed else []
                row = _play_cell(partial, {"bot": bot, "yardstick": ys}, lab, b, n, tables, round_deals,
                                 max_deals, half_width,
                                 dict(seed=seed, rules=rules, workers=workers, design=design, game=game,
                                      check_bots=check_bots),
                                 lambda: _save(out, pd.DataFrame(rows), pd.DataFrame(rate_rows), config,
                                               False, partial) if out is not None else None,
                                 (lambda k, d: print(f"[ladder {i + 1}/{len(todo)}] {lab} vs {ys} at {n} "
                                                     f"seats, round {k + 1} from deal {d} "
                                                     f"({time.time() - t0:.0f} s)", file=sys.stderr,
                                                     flush=True)) if progress else None)
                rows.append(row)
                have.add((b, n, lab))
                partial = []
                if out is not None:
                    _save(out, pd.DataFrame(rows), pd.DataFrame(rate_rows), config, False)
        except KeyboardInterrupt:
            complete = False
            warnings.warn(f"ladder interrupted: {len(rows)} of {len(todo)} cells kept"
                          + (f" (and {len(partial)} rounds of the next)" if partial else ""),
                          RuntimeWarning, stacklevel=2)
        cells = _order(pd.DataFrame(rows), config)
        rates = pd.DataFrame(rate_rows)
        if out is not None:
            _save(out, cells, rates, config, complete, partial)
        return LadderResults(cells, rates, config, complete)
    finally:
        if lock is not None:
            lock.release()


def _check_sequential(half_width, max_games, games: int):
    """(half_width, max_games) of the sequential design, checked; (None, None)
    for one round per cell."""
    if half_width is None:
        if max_games is not None:
            raise ConfigError("max_games (--max-games) needs half_width (--half-width): "
                              "without it every cell plays its games once")
        return None, None
    try:
        h = float(half_width)
    except (TypeError, ValueError):
        raise ConfigError(f"half_width must be a number, got {short_repr(half_width)}") from None
    if not (0 < h <= 0.5):          # a win rate's interval is at most [0, 1]
        raise ConfigError(f"half_width must be in (0, 0.5] (half the width of a win rate's "
                          f"95% interval), got {h:g}")
    m = 10 * games if max_games is None else max_games
    if not whole(m) or isinstance(m, bool) or m < games:
        raise ConfigError(f"max_games must be a whole number >= games ({games}), got {m!r}")
    return h, int(m)


def _play_cell(rounds: list, entrants: dict, lab: str, budget: float, n: int, tables: int,
               round_deals: int, max_deals: int, half_width, kw: dict, save, say) -> dict:
    """Play a cell's rounds (appended to ``rounds``, after those already there;
    ``save()`` after each) until its stopping rule holds; returns its row. Round
    k plays the next deals of the cell's fixed deal sequence, so the rounds and
    the stop depend on the seed alone (not on workers, nor on a resume)."""
    row = None
    while True:
        if rounds:
            played = pd.concat(rounds, ignore_index=True)
            deals = len(set(played["deal_id"].astype(np.int64) % DEAL_BASE))
            seconds = float(sum(g["seconds"].iloc[0] for g in rounds))
            row = _cell_row(played, lab, budget, n, seconds, len(rounds), "games")
            if half_width is None:
                return row
            if row["half_width"] <= half_width + 1e-12:
                return dict(row, stop="width")
            if deals >= max_deals:
                return dict(row, stop="max_games")
        else:
            deals = 0
        k = min(round_deals, max_deals - deals)
        if say is not None:
            say(len(rounds), deals)
        t = time.time()
        with warnings.catch_warnings():     # a lopsided cell has no finite rating; unused here
            warnings.filterwarnings("ignore", message="Bradley-Terry", category=RuntimeWarning)
            res = tournament(entrants, n, games=k * tables, progress=False, first_deal=deals, **kw)
        if res.standings is None:
            raise ConfigError(f"the ladder cell {lab} vs {entrants['yardstick']} at {n} seats was "
                              f"played but its analysis failed (see the warning)")
        game0 = int(rounds[-1]["game"].max()) + 1 if rounds else 0
        rounds.append(_round_frame(res, budget, n, lab, len(rounds), time.time() - t, game0))
        save()


def _order(cells: pd.DataFrame, config: dict) -> pd.DataFrame:
    """Cells in (seats, budget, bot) order of the config."""
    if cells.empty:
        return cells
    rank = {b: i for i, b in enumerate(config["bots"])}
    key = cells["bot"].map(rank).fillna(len(rank))
    return (cells.assign(_k=key).sort_values(["seats", "budget", "_k"]).drop(columns="_k")
            .reset_index(drop=True))
