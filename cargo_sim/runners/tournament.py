"""Tournaments: seat-fair round robins between bots, with ratings and tests.

**Entrants.** ``bots`` lists the entrants: bot specs (``"greedy"``,
``"greedy?bid_margin=2"``, or ``Player`` objects) or a dict ``{name: spec}``.
Each item is one entrant, named by its dict key or by its bot label; equal
labels in a list get ``#1``, ``#2``... (so ``["random", "random"]`` is an A/A
test of the machinery).

**Compositions.** With at least as many entrants as seats, every combination
of ``n_players`` entrants (``itertools.combinations`` order). With fewer, each
table holds every entrant ``q`` times plus one more copy of each entrant of an
``r``-combination (``q, r = divmod(n_players, len(bots))``), over all those
``r``-combinations; meetings of an entrant with itself are left out of the
pairwise statistics.

**Seatings (the design).** Every *deal* (shuffle and dice) of a composition
is played in every seating of the design, with common random numbers: all
seatings of a composition use the same run seed, derived from ``(seed,
composition index)`` by ``numpy.random.SeedSequence``, so game ``d`` of each
seating has the same deal. ``design="balanced"`` (default) is every seat order
at 2-4 seats (2, 6, 24) and at 5 seats the 20 orders of ``seat_maps``
(each entrant in each seat, before and after each other entrant equally
often); ``design="all"`` plays all 120 at 5 seats. Repeated seatings of a
composition with repeated entrants are played once.

A *table* is one (composition, seating); its games are exactly those of
``simulate(deals, seating, seed=table seed)`` (``.tables`` lists seatings,
seeds and games). ``games`` is rounded **up** to a whole number of deals per
table. Results depend only on ``seed``, never on ``workers``.

**Statistics** come from ``cargo_sim.core.ratings``; every interval is clustered
by deal (docs/tournaments.md says what each one means).
"""
from __future__ import annotations

import itertools
import os
import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

# simulate()'s building blocks: a tournament is many small tables, and one
# simulate() call per table would spend most of its time building DataFrames.
from ..core.checks import check_seed, whole
from ..core.contract import get_game
from ..core.errors import BotError, ConfigError, IllegalDecisionError
from ..core.progress import Progress
from ..core.ratings import (ELO_PER_NAT, bradley_terry, focus_table, head_to_head, meetings,
                            pairwise_counts, significance, standings_table)
from ..core.runner import Table, available_memory, run_jobs
from ..core.seeds_nb import game_seeds
from ..core.stats import wilson_interval

PIECE = 2048          # games per job on the thread pool (the unit of parallel work)

__all__ = ["tournament", "TournamentResults", "seating_plan", "seat_maps", "DESIGNS", "wilson_interval",
           "standings_table", "pairwise_counts", "head_to_head", "bradley_terry",
           "significance", "ELO_PER_NAT"]


# ---------------------------------------------------------------------------
# entrants and seating
def _entrants(bots, parse_player) -> tuple[list, list]:
    """(names, players) of the entrants (``parse_player``: the game's bot parser);
    BotError for unknown bots."""
    if isinstance(bots, str):
        bots = [b for b in bots.split(",") if b.strip()]
    if isinstance(bots, dict):
        names = [str(k) for k in bots]
        players = [parse_player(v) for v in bots.values()]
    else:
        try:
            items = list(bots)
        except TypeError:
            raise ConfigError("bots must be a list of bot names or a dict {name: bot}") from None
        players = [parse_player(b) for b in items]
        labels = [p.label for p in players]
        count = Counter(labels)
        seen: Counter = Counter()
        names = []
        for lab in labels:
            if count[lab] > 1:
                seen[lab] += 1
                names.append(f"{lab}#{seen[lab]}")
            else:
                names.append(lab)
    if len(players) < 2:
        raise ConfigError(f"a tournament needs at least 2 entrants, got {len(players)}")
    if len(set(names)) != len(names):
        raise ConfigError(f"entrant names must be distinct, got {names}")
    return names, players


DESIGNS = ("balanced", "all")


def seat_maps(n_players: int, design: str = "balanced") -> list[tuple]:
    """The seat orders of a design: tuples ``g`` where seat ``s`` gets the
    entrant at position ``g[s]`` of the composition.

    ``"all"``: every order (2, 6, 24, 120 at 2-5 seats). ``"balanced"``: the
    same at 2-4 seats; at 5 the 20 maps ``s -> a*s + b (mod 5)``, ``a != 0``:
    for every pair of seats and every ordered pair of entrants exactly one map
    puts them there, so each entrant sits in each seat 4 times and follows
    (and precedes) each other entrant equally often, in the turn order and
    across the table.
    """
    if design not in DESIGNS:
        raise ConfigError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    if design == "balanced" and n_players == 5:
        return [tuple((a * s + b) % 5 for s in range(5)) for a in range(1, 5) for b in range(5)]
    return list(itertools.permutations(range(n_players)))


def seating_plan(n_entrants: int, n_players: int, design: str = "balanced",
                 focus: int | None = None) -> pd.DataFrame:
    """The tables of a tournament: one row per (composition, seating).

    Columns: table, combo (composition index: tables with the same combo
    share their game seeds, deal by deal), order (index of the seat map in
    ``seat_maps(n_players, design)`` that first gave this seating), ``seats``:
    a tuple of entrant indices, one per seat,. Every seating plays every
    deal of its composition once. A
    composition with repeated entrants keeps its distinct seatings only;
    the seat maps form a group, so every distinct seating stands for equally
    many maps and the balance holds. See the module docstring.

    ``focus`` (an entrant index): one bot against a field. Every table holds
    the focus entrant once and fills the other ``n_players - 1`` seats from
    the other entrants as above (each ``q`` times plus an ``r``-combination).
    """
    if n_entrants < 1 or n_players < 1:
        raise ConfigError("seating_plan needs at least one entrant and one seat")
    maps = seat_maps(n_players, design)
    if focus is None:
        field, head, slots = list(range(n_entrants)), [], n_players
    else:
        if not 0 <= focus < n_entrants or n_entrants < 2 or n_players < 2:
            raise ConfigError("a focus entrant needs a field of at least one other entrant "
                              "and at least 2 seats")
        field, head, slots = [e for e in range(n_entrants) if e != focus], [focus], n_players - 1
    q, r = divmod(slots, len(field))
    rows = []
    for ci, extra in enumerate(itertools.combinations(field, r)):
        comp = head + field * q + list(extra)
        seen = set()
        for oi, g in enumerate(maps):
            seats = tuple(comp[g[s]] for s in range(n_players))
            if seats not in seen:
                seen.add(seats)
                rows.append((len(rows), ci, oi, seats))
    plan = pd.DataFrame(rows, columns=["table", "combo", "order", "seats"])
    return plan


# A tournament keeps every game in memory (its players and games tables) and
# its statistics pair up seats: peak memory measured at ~1.1 KB per seat and
# game (60,000 games at 3 seats: 200 MB above the interpreter's own).
BYTES_PER_SEAT_GAME = 1200


def check_size(n_games: int, n_players: int) -> None:
    """ConfigError up front for a tournament too big for the memory available."""
    need = int(n_games) * int(n_players) * BYTES_PER_SEAT_GAME
    avail = available_memory()
    if avail is not None and need > avail:
        raise ConfigError(f"a tournament of {n_games:,} games at {n_players} seats needs about "
                          f"{need / 2**30:,.1f} GiB in memory and {avail / 2**30:.1f} GiB is "
                          f"available: play fewer games")


def _combo_seed(seed: int, combo: int) -> int:
    state = np.random.SeedSequence([int(seed), int(combo)]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) | (int(state[1]) >> 1)      # 63 bits, >= 0


# ---------------------------------------------------------------------------
@dataclass
class TournamentResults:
    """Results of ``tournament`` (see the module docstring for the design).

    ``standings``, ``head_to_head`` (+ ``head_to_head_n``), ``ratings`` and
    ``significance`` are DataFrames computed from ``players``:

    ``players`` — one row per game and seat, simulate's columns plus:
        game (unique in the tournament), table, combo, order, deal (game
        index within the table: equal (combo, deal) = same shuffle and dice),
        deal_id (unique per (combo, deal)), entrant (name), bot (label).
    ``games`` — one row per game: game, table, combo, order, deal,
        deal_id, seating (entrant names by seat, " | "-joined),
        winner_entrant (entrant in the lowest winning seat) and simulate's
        game columns.
    ``tables`` — the seating plan (table, combo, order, seats, seed, games).
    ``config["design"]`` names the seating design.

    If an analysis fails, the games stay: a RuntimeWarning says so, the
    statistics are None, and ``analyze()`` can be called again.
    """
    entrants: list
    n_players: int
    players: pd.DataFrame
    games: pd.DataFrame
    tables: pd.DataFrame
    rules: object                  # the game's Rules
    config: dict = field(default_factory=dict)
    standings: pd.DataFrame = field(init=False)
    head_to_head: pd.DataFrame = field(init=False)
    head_to_head_n: pd.DataFrame = field(init=False)
    ratings: pd.DataFrame = field(init=False)
    significance: pd.DataFrame = field(init=False)
    focus: pd.DataFrame | None = field(init=False, default=None)

    def __post_init__(self):
        try:
            self.analyze()
        except Exception as e:          # the games were played: never lose them to a statistic
            self.standings = self.head_to_head = self.head_to_head_n = None
            self.ratings = self.significance = self.focus = None
            warnings.warn(f"tournament analysis failed ({type(e).__name__}: {e}); the games "
                          f"are kept in .players and .games", RuntimeWarning, stacklevel=3)

    def analyze(self) -> None:
        """(Re)compute the statistics from ``players``."""
        p = self.players
        m = meetings(p, self.entrants)
        wins, n = pairwise_counts(p, self.entrants)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = wins.to_numpy() / n.to_numpy()
        share[n.to_numpy() == 0] = np.nan
        self.head_to_head = pd.DataFrame(share, index=wins.index, columns=wins.columns)
        self.head_to_head_n = n
        self.ratings = bradley_terry(wins, meetings=m)
        self.standings = standings_table(p, self.ratings, self.entrants)
        self.significance = significance(p, standings=self.standings)
        focus = self.config.get("focus")
        self.focus = focus_table(p, focus) if focus is not None else None

    def plot_win_rates(self, ax=None):
        """Horizontal bars of win rate with 95% deal-clustered intervals; a dashed line
        marks the fair share 1/n_players. Returns the axes."""
        import matplotlib.pyplot as plt
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 0.45 * len(self.standings) + 1.4))
        s = self.standings.iloc[::-1]            # best on top
        y = np.arange(len(s))
        err = np.clip(np.vstack([s["win_rate"] - s["win_lo"], s["win_hi"] - s["win_rate"]]), 0, None)
        ax.barh(y, s["win_rate"], xerr=err, color="tab:blue", alpha=0.8,
                error_kw={"capsize": 3, "ecolor": "black", "lw": 1})
        ax.axvline(1.0 / self.n_players, color="grey", ls="--", lw=1,
                   label=f"fair share 1/{self.n_players}")
        ax.set_yticks(y, [str(i) for i in s.index])
        ax.set_xlabel("win rate (shared wins split), 95% interval clustered by deal")
        ax.set_ylabel("entrant")
        n_games = len(self.games)
        ax.set_title(f"Tournament win rates: {self.n_players} players, {n_games:,} games")
        ax.set_xlim(0, min(1.0, max(float(s["win_hi"].max()) * 1.15, 1.5 / self.n_players)))
        # outside the axes, so it never covers a bar; tight_layout keeps it and
        # the x label inside the canvas
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize="small")
        ax.figure.tight_layout()
        return ax

    def __repr__(self) -> str:
        return (f"TournamentResults({len(self.entrants)} entrants, {self.n_players} players, "
                f"{len(self.tables)} tables, {len(self.games):,} games, "
                f"seed={self.config.get('seed')})")


def tournament(bots, n_players: int, games: int = 12_000, seed: int = 0,
               rules=None, workers: int | None = None,
               progress: bool = True, design: str = "balanced",
               check_bots: bool = True, game=None,
               first_deal: int = 0, focus: str | None = None) -> TournamentResults:
    """Play a seat-fair round robin between ``bots`` at tables of ``n_players``.

    ``bots``: a list of bot specs (names such as ``"greedy?bid_margin=2"``,
    or a comma-separated string) or a dict ``{entrant name: spec}``; at least
    2 entrants. ``games``: total games, split evenly over the tables of
    ``seating_plan(len(bots), n_players, design)`` and rounded up to whole
    deals (``config["games_played"]``). ``design``: ``"balanced"`` (every
    seat order at 2-4 seats, 20 balanced orders at 5) or ``"all"`` (every
    order, 120 at 5 seats). ``seed``: all game seeds derive from
    it; results do not depend on ``workers`` (threads, default all cores).
    Ctrl-C stops the tournament (KeyboardInterrupt: a partial tournament
    would not be balanced). See the module docstring for the seating, common
    random numbers and statistics, and ``TournamentResults`` for the tables.
    ``check_bots``: user bots in the checked mode (the default; docs/safety.md: a
    user bot cannot win by writing the state, and a bad index or a runaway loop is
    a BotError); False trusts them for speed.
    ``game``: the game played (a registered name or a Game; default Cargo Noir).
    ``first_deal``: play deals ``first_deal ..`` of every table's fixed deal
    sequence (the ``deal`` column counts from it), so a later call continues an
    earlier one with fresh deals (the ladder's rounds); 0 by default.
    ``focus``: an entrant's name (or its spec as listed in ``bots``): one bot against a field. Every table seats it
    once and the other entrants in the other seats (``seating_plan``), and
    ``.focus`` gives its win share and VP margin over the best other seat, with
    intervals clustered by deal (``core.ratings.focus_table``).

    >>> r = tournament(["greedy", "banker", "collector"], 3, games=6000)  # doctest: +SKIP
    >>> r.standings; r.head_to_head; r.ratings; r.significance  # doctest: +SKIP
    >>> r.plot_win_rates()  # doctest: +SKIP
    """
    game = get_game(game)
    if rules is None:
        rules = game.Rules.default()
    if not isinstance(rules, game.Rules):
        raise ConfigError(f"rules must be a {game.rules_type_name}")
    names, players = _entrants(bots, game.bots.parse)
    rules.check_players(n_players)
    n_players = int(n_players)
    if not whole(games) or games < 1:
        raise ConfigError(f"games must be a whole number >= 1, got {games!r}")
    check_seed(seed)
    if not whole(first_deal) or first_deal < 0:
        raise ConfigError(f"first_deal must be a whole number >= 0, got {first_deal!r}")
    first_deal = int(first_deal)
    if workers is None:
        workers = os.cpu_count() or 1
    if not whole(workers) or workers < 1:
        raise ConfigError(f"workers must be a whole number >= 1, got {workers!r}")

    if focus is not None and focus not in names:
        specs = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else (
            list(bots) if not isinstance(bots, dict) else [])
        if specs.count(focus) != 1:
            raise ConfigError(f"focus must be one of the entrants ({', '.join(names)}), got {focus!r}")
        focus = names[specs.index(focus)]          # the spec as given: its entrant's name
    plan = seating_plan(len(names), n_players, design,
                        focus=None if focus is None else names.index(focus))
    n_tables = len(plan)
    n_combos = int(plan["combo"].nunique())
    deals = -(-int(games) // n_tables)                   # round up
    check_size(deals * n_tables, n_players)
    gpt = np.full(n_tables, deals, dtype=np.int64)       # games per table
    plan["seed"] = [_combo_seed(seed, c) for c in plan["combo"]]
    plan["games"] = gpt

    seatings = np.array(plan["seats"].tolist(), dtype=np.int64)          # (tables, seats)
    seated = [[players[e] for e in row] for row in seatings]
    jobs = [(t, lo, min(lo + PIECE, int(gpt[t]))) for t in range(n_tables)
            for lo in range(0, int(gpt[t]), PIECE)]

    def work(job):
        # exactly simulate(gpt[t], seated[t], seed=table seed), split with start=lo
        t, lo, hi = job
        seeds = game_seeds(int(plan.at[t, "seed"]), first_deal + lo, hi - lo)
        table = Table.build(game, rules, seated[t], bool(check_bots))   # per job: ~6 MB each, never all at once
        try:
            g, pl, _ = table.play(seeds, first_deal + lo)
        except (IllegalDecisionError, BotError) as e:   # a bot fault too: named as before
            who = " | ".join(names[i] for i in seatings[t])
            raise type(e)(f"{e} [tournament table {t}: {who}; replay with "
                                       f"play_one(seed, players)]") from None
        return g, pl, seeds

    results: list = []
    bar = Progress(int(gpt.sum()), label=f"tournament of {len(names)} entrants at {n_players} seats",
                   enabled=progress)

    def take(job, out):
        results.append(out)
        bar.update(len(out[0]))

    try:
        run_jobs(jobs, work, take, min(workers, len(jobs)), interruptible=False)
    except BaseException:
        # Ctrl-C (or a fault) ends the tournament: drop the games played so far at
        # once. The traceback keeps this frame alive (sys.last_traceback, a notebook's
        # history), and with it every game played: repeated interrupted tournaments
        # held several GB.
        results.clear()
        raise
    finally:
        bar.close()

    # jobs are in (table, deal) order, so row i of the arrays is game i of the tournament
    games_arr = np.concatenate([r[0] for r in results])
    players_arr = np.concatenate([r[1] for r in results])
    seeds_all = np.concatenate([r[2] for r in results])
    g, p = game.table_columns(games_arr, players_arr, seeds_all, 0, seated[0], rules)
    g, p = pd.DataFrame(g, copy=False), pd.DataFrame(p, copy=False)
    n_games = len(g)
    # the lowest winning seat of each game, from the core column win_share
    winner = np.argmax(p["win_share"].to_numpy().reshape(n_games, n_players) > 0, axis=1)
    table_of = np.repeat(np.arange(n_tables, dtype=np.int64), gpt)
    deal = np.arange(len(g), dtype=np.int64) - np.repeat(np.cumsum(gpt) - gpt, gpt)
    combo_deals = plan.groupby("combo")["games"].first().to_numpy(np.int64)
    combo_base = np.cumsum(combo_deals) - combo_deals
    combo = plan["combo"].to_numpy(np.int64)[table_of]
    order = plan["order"].to_numpy(np.int64)[table_of]
    entrant_cat = pd.CategoricalDtype(names)
    front = pd.DataFrame({"game": g["game"].to_numpy(), "table": table_of.astype(np.int32),
                          "combo": combo.astype(np.int32), "order": order.astype(np.int32),
                          "deal": first_deal + deal, "deal_id": combo_base[combo] + deal})
    seating_text = np.array([" | ".join(names[e] for e in row) for row in seatings], dtype=object)
    front["seating"] = seating_text[table_of]
    front["winner_entrant"] = pd.Categorical.from_codes(
        seatings[table_of, winner], dtype=entrant_cat)
    games_df = pd.concat([front, g.drop(columns=["game"])], axis=1)

    seat = p["seat"].to_numpy().astype(np.int64)
    p_table = np.repeat(table_of, n_players)
    ent = seatings[p_table, seat]
    labels = [pl.label for pl in players]
    bot_cats = list(dict.fromkeys(labels))
    bot_code = np.asarray([bot_cats.index(l) for l in labels], dtype=np.int64)[ent]
    pfront = pd.DataFrame({"game": p["game"].to_numpy(), "table": front["table"].to_numpy().repeat(n_players),
                           "combo": front["combo"].to_numpy().repeat(n_players),
                           "order": front["order"].to_numpy().repeat(n_players),
                           "deal": (first_deal + deal).repeat(n_players),
                           "deal_id": front["deal_id"].to_numpy().repeat(n_players),
                           "seat": p["seat"].to_numpy(),
                           "entrant": pd.Categorical.from_codes(ent, dtype=entrant_cat),
                           "bot": pd.Categorical.from_codes(bot_code, categories=bot_cats)})
    players_df = pd.concat([pfront, p.drop(columns=["game", "seat", "bot"])], axis=1)
    config = {"bots": names, "labels": [p.label for p in players], "n_players": n_players,
              "games": int(games), "games_played": int(gpt.sum()),
              "games_per_composition": int(gpt.sum()) // n_combos, "compositions": n_combos,
              "tables": n_tables, "design": design, "deals_per_table": deals, "seed": seed,
              **({"first_deal": first_deal} if first_deal else {}),
              **({"focus": focus} if focus is not None else {}),
              "rules_digest": rules.digest, "game": game.name}
    return TournamentResults(names, n_players, players_df, games_df, plan, rules, config)


# ---------------------------------------------------------------------------
# printing
def format_p(p) -> str:
    """A p-value as printed: 3 significant digits, "< 1e-16" below double precision's
    resolution of 1 - p (a smaller p means only "very small"), "" if not defined."""
    if p is None or not np.isfinite(p):
        return ""
    return "< 1e-16" if p < 1e-16 else f"{p:.3g}"


def _num(x, digits: int = 3) -> str:
    """A number as printed: whole numbers without a decimal point, others rounded;
    "n/a" for one that is not finite (a rating not estimable: the note says why)."""
    if x is None or (isinstance(x, float) and not np.isfinite(x)):
        return "n/a"
    x = float(x)
    return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else f"{x:,.{digits}f}"


def _text(df: pd.DataFrame, ints=(), fmt=None) -> str:
    fmt = fmt or {}
    out = pd.DataFrame(index=df.index)
    for c in df.columns:
        col = df[c]
        if c in fmt:
            out[c] = [fmt[c](v) for v in col]
        elif c in ints or pd.api.types.is_integer_dtype(col):
            out[c] = [_num(v) for v in col]
        elif pd.api.types.is_float_dtype(col):
            out[c] = [_num(v) if float(v).is_integer() and c in ints else
                      ("n/a" if not np.isfinite(v) else f"{v:,.3f}") for v in col]
        else:
            out[c] = col.astype(str)
    return out.to_string()


def format_results(res: "TournamentResults") -> str:
    """The tables ``cargo-sim tournament`` prints: counts as whole numbers,
    p-values as ``format_p``, ratings that cannot be estimated as "n/a" with
    the reason below the table (never inf or NaN)."""
    st, r = res.standings, res.ratings
    lines = [f"{len(res.games):,} games, design {res.config['design']}: "
             f"{res.config['tables']} seatings, {res.config['deals_per_table']:,} deals each",
             _text(st, ints=("games", "wins", "clusters"), fmt={"wins": _num}),
             "", "head to head (share of meetings the row bot finished ahead):",
             _text(res.head_to_head, fmt={c: (lambda v: "" if not np.isfinite(v) else f"{v:.3f}")
                                          for c in res.head_to_head.columns}),
             "", "ratings (Bradley-Terry, standard errors clustered by deal):",
             _text(r, fmt={"meetings": _num})]
    why = r.attrs.get("note") or ""
    if not np.isfinite(r[["log_strength", "elo"]].to_numpy(float)).all() or why:
        lines.append(f"n/a: not estimable from these games ({why or 'too few games'}); more "
                     f"games, or bradley_terry(..., pseudo=0.5) for a regularised fit")
    lines += ["", "top two (paired by deal):",
              _text(res.significance.set_index("test"), ints=("n",),
                    fmt={"p_value": format_p, "statistic": lambda v: _num(v, 3),
                         "estimate": lambda v: "" if not np.isfinite(v) else f"{v:.3f}",
                         "ci_lo": lambda v: "" if not np.isfinite(v) else f"{v:.3f}",
                         "ci_hi": lambda v: "" if not np.isfinite(v) else f"{v:.3f}"})]
    if res.focus is not None:
        f = res.focus.iloc[0]
        lines += ["", f"{res.focus.index[0]} against the field (one seat of every game, 95 % "
                      f"intervals clustered by deal): win share {f['share']:.3f} "
                      f"[{f['share_lo']:.3f}, {f['share_hi']:.3f}] (fair {f['fair']:.3f}), "
                      f"VP margin over the best other seat {f['margin']:+.1f} "
                      f"[{f['margin_lo']:+.1f}, {f['margin_hi']:+.1f}]; "
                      f"{int(f['deals']):,} deals, {int(f['games']):,} games"]
    return "\n".join(lines)


class _CallableModule(type(os)):
    """``cargo_sim.tournament`` is this module; calling it runs ``tournament``."""

    def __call__(self, *args, **kwargs):
        return tournament(*args, **kwargs)


import sys as _sys  # noqa: E402  (the module object, at the end where tournament exists)
_sys.modules[__name__].__class__ = _CallableModule
