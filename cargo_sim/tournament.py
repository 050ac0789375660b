"""Tournaments: seat-balanced round robins between bots, with ratings and tests.

Design
------
**Entrants.** ``bots`` lists the entrants: bot specs (``"greedy"``,
``"greedy?bid_margin=2"``, or ``Player`` objects) or a dict ``{name: spec}``.
Each item is one entrant, named by its dict key or by its bot label; equal
labels in a list get ``#1``, ``#2``... (so ``["random", "random"]`` is an A/A
test of the machinery).

**Seat rotation.** The turn order matters in Cargo Noir, so every entrant sits
in every seat equally often. The tournament is a set of *compositions*
(which entrants sit at a table) times their *seatings* (who sits where):

* ``len(bots) >= n_players``: every combination of ``n_players`` distinct
  entrants (a round robin over combinations, in ``itertools.combinations``
  order);
* ``len(bots) < n_players``: the tables are filled by repeating entrants in a
  balanced way. With ``q, r = divmod(n_players, len(bots))`` each table holds
  every entrant ``q`` times plus one more copy of each entrant of an
  ``r``-combination, and the round robin runs over all those ``r``-combinations
  (so over the tournament every entrant fills the same number of seats). The
  copies are interleaved (``A B A`` rather than ``A A B``); when ``r == 0``
  there is one composition (``A B A B`` for 2 entrants at 4 seats). Meetings
  of an entrant with itself are left out of the pairwise statistics.

  (Both cases are one rule: with ``q = 0`` it is the plain round robin.)

Each composition ``c = (c_0 ... c_{n-1})`` is played in every cyclic rotation
``k`` (seat ``s`` gets ``c[(s + k) % n]``) and, with ``mirror=True`` (the
default), every rotation of its mirror image ``c[::-1]``; seatings that repeat
(``A B A B``; the mirror of a 2-seat table) are played once. Rotations put
each entrant in each seat once per copy it has at the table. Mirroring
balances the *pairs*: rotations alone keep the cyclic order, so at 3 seats A
would always play just before B, and the head-to-head would measure that
position as much as the bots; with the mirror images, whenever A sits in seat
i and B in seat j there is a game of the same deal with A in j and B in i.
(3 seats: all 6 orders; 4 seats: 8 of 24; 5 seats: 10 of 120.)

A *table* is one (composition, seating); its games are exactly those of
``simulate(table games, seating, seed=table seed)`` (``.tables`` lists
seatings, seeds and games). Every composition plays the same number of
games, split evenly between its distinct seatings (a composition whose mirror
image is one of its rotations, like ``A B A C``, has half as many seatings,
each playing twice as many games); ``games`` is rounded **up** to fit.

**Common random numbers.** All seatings of a composition use the same run
seed, derived from ``(seed, composition index)`` by ``numpy.random.SeedSequence``.
Game ``d`` (the *deal*) of each seating therefore has the same shuffle and
the same dice; only the seating changes. Seat advantage and the luck of the
deal cancel out within a deal, which sharpens every comparison between the
entrants of a composition (identical bots tie exactly). Results depend only
on ``seed``, never on ``workers``: every table (played in pieces of 2048
games on a thread pool) is fully determined by its seed and game indices.

**Statistics.** All statistics are per *seat appearance* (one row of
``.players``): with ``len(bots) >= n_players`` that is one per game played.

* ``standings``: appearances, wins (sum of ``win_share``: a shared win counts
  ``1/n_winners``), win rate with a 95% Wilson interval, mean VP with a 95%
  Student-t interval, mean rank, and the Elo-like rating below. The fair win
  rate is ``1/n_players``.
* ``head_to_head``: for every ordered pair of entrants, the share of their
  meetings (pairs of seats at one table) in which the row entrant finished
  ahead of the column entrant (better rank: VP then the tie-break card);
  ties count one half. ``head_to_head_n`` holds the numbers of meetings.
* ``ratings``: a Bradley-Terry model, P(i ahead of j) = 1 / (1 + exp(b_j - b_i)),
  fitted by maximum likelihood (``scipy.optimize``) to all pairwise finishes
  (every pair of seats in every game, ties as half a win each way). The
  log-strengths ``b`` are anchored at mean 0; standard errors come from the
  Fisher information (its pseudo-inverse, which is the covariance under the
  mean-zero constraint). ``elo = b * 400 / ln 10``: a difference of 400 points
  means 10:1 odds of finishing ahead. If an entrant was never (or always)
  beaten the maximum-likelihood strengths are infinite; then half a win is
  added each way for every pair that met, with a ``RuntimeWarning``.
* ``significance``: do the top two of the standings differ? A sign test
  (exact binomial) on the games where both sat, counting who finished ahead
  (ties dropped); the same sign test on deals (the seatings of one deal
  summed: the honest unit under common random numbers); a paired t-test of
  the VP difference; and a two-proportion z-test of the win rates (which
  treats the two samples as independent: a rough check, they are not).

Confidence intervals treat appearances as independent. Under common random
numbers the seatings of one deal are correlated, so the intervals are
approximate; the deal-level sign test is the robust comparison.
"""
from __future__ import annotations

import itertools
import math
import os
import warnings
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, stats
from scipy.sparse.csgraph import connected_components

from .cargo_noir.bots.registry import Player, parse_player
from .cargo_noir.rules import Rules
from .cargo_noir.enums import PLAYER_FIELDS
# simulate()'s building blocks: a tournament is many small tables, and one
# simulate() call per table would spend most of its time building DataFrames.
from .cargo_noir.simulate import _illegal_error, _run_chunk, build_tables, game_seeds_nb, table_template
from .checks import check_seed, whole
from .errors import ConfigError, IllegalDecisionError
from .stats import wilson_interval  # noqa: F401  (re-exported: part of this API)
from .progress import Progress

Z95 = float(stats.norm.ppf(0.975))
ELO_PER_NAT = 400.0 / math.log(10.0)
PIECE = 2048          # games per job on the thread pool (the unit of parallel work)

__all__ = ["tournament", "TournamentResults", "seating_plan", "wilson_interval",
           "standings_table", "pairwise_counts", "head_to_head", "bradley_terry",
           "significance", "ELO_PER_NAT"]


# ---------------------------------------------------------------------------
# entrants and seating
def _entrants(bots) -> tuple[list[str], list[Player]]:
    """(names, players) of the entrants; BotError for unknown bots."""
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


def seating_plan(n_entrants: int, n_players: int, mirror: bool = True) -> pd.DataFrame:
    """The tables of a tournament: one row per (composition, seating).

    Columns: table, combo (composition index: tables with the same combo
    share their game seeds), rotation (seat ``s`` gets ``comp[(s + k) % n]``,
    of the mirrored composition when ``mirrored``), mirrored, ``seats``: a
    tuple of entrant indices, one per seat, and ``weight``: the table's
    relative number of games (every composition gets the same total weight,
    shared by its distinct seatings). See the module docstring.
    """
    if n_entrants < 1 or n_players < 1:
        raise ConfigError("seating_plan needs at least one entrant and one seat")
    q, r = divmod(n_players, n_entrants)
    rows = []
    for ci, extra in enumerate(itertools.combinations(range(n_entrants), r)):
        comp = list(range(n_entrants)) * q + list(extra)
        seen = set()
        for mirrored, base in ((False, comp), (True, comp[::-1]))[:2 if mirror else 1]:
            for k in range(n_players):
                seats = tuple(base[(s + k) % n_players] for s in range(n_players))
                if seats in seen:
                    continue
                seen.add(seats)
                rows.append((len(rows), ci, k, mirrored, seats))
    plan = pd.DataFrame(rows, columns=["table", "combo", "rotation", "mirrored", "seats"])
    per_combo = plan.groupby("combo")["table"].transform("size").to_numpy()
    plan["weight"] = math.lcm(*per_combo.tolist()) // per_combo
    return plan


def _combo_seed(seed: int, combo: int) -> int:
    state = np.random.SeedSequence([int(seed), int(combo)]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) | (int(state[1]) >> 1)      # 63 bits, >= 0


# ---------------------------------------------------------------------------
# statistics on a players table (columns game, entrant, vp, rank, win_share)
def _order(players: pd.DataFrame) -> list:
    e = players["entrant"]
    if isinstance(e.dtype, pd.CategoricalDtype):
        return [c for c in e.cat.categories if (e == c).any()]
    return list(dict.fromkeys(e))


def pairwise_counts(players: pd.DataFrame, entrants=None):
    """``(wins, n)``: square DataFrames over the entrants.

    ``n[i][j]``: meetings of i and j (pairs of seats of one game held by i and
    j; same-entrant pairs are ignored). ``wins[i][j]``: meetings in which i
    finished ahead of j (lower rank), ties counting 1/2. ``wins + wins.T == n``.
    """
    names = list(entrants) if entrants is not None else _order(players)
    k = len(names)
    code = pd.Categorical(players["entrant"], categories=names).codes.astype(np.int64)
    df = pd.DataFrame({"game": players["game"].to_numpy(), "e": code,
                       "rank": players["rank"].to_numpy().astype(np.int64)})
    df = df[df["e"] >= 0].sort_values(["game"], kind="stable")
    wins = np.zeros((k, k))
    n = np.zeros((k, k))
    sizes = df.groupby("game", sort=False).size()
    df["size"] = df["game"].map(sizes).to_numpy()
    for size, part in df.groupby("size", sort=False):
        if size < 2:
            continue
        e = part["e"].to_numpy().reshape(-1, size)
        rk = part["rank"].to_numpy().reshape(-1, size)
        for a, b in itertools.combinations(range(size), 2):
            ea, eb = e[:, a], e[:, b]
            diff = ea != eb
            ea, eb = ea[diff], eb[diff]
            score = 0.5 * (np.sign(rk[diff, b] - rk[diff, a]) + 1.0)   # 1: a ahead
            np.add.at(wins, (ea, eb), score)
            np.add.at(wins, (eb, ea), 1.0 - score)
            np.add.at(n, (ea, eb), 1.0)
            np.add.at(n, (eb, ea), 1.0)
    return (pd.DataFrame(wins, index=names, columns=names),
            pd.DataFrame(n, index=names, columns=names).astype(np.int64))


def head_to_head(players: pd.DataFrame, entrants=None) -> pd.DataFrame:
    """Share of meetings in which the row entrant finished ahead of the
    column entrant (ties 1/2); NaN on the diagonal and for pairs that never met.
    The numbers of meetings are ``pairwise_counts(players)[1]``."""
    wins, n = pairwise_counts(players, entrants)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = wins.to_numpy() / n.to_numpy()
    share[n.to_numpy() == 0] = np.nan
    return pd.DataFrame(share, index=wins.index, columns=wins.columns)


def bradley_terry(wins: pd.DataFrame, pseudo: float | None = None) -> pd.DataFrame:
    """Bradley-Terry maximum-likelihood fit of a square ``wins`` matrix
    (``wins[i][j]``: times i finished ahead of j, ties as halves).

    Returns one row per entrant, strongest first: ``log_strength`` (mean 0),
    ``se``, ``elo`` (= log_strength * 400 / ln 10) and ``elo_se``, plus
    ``meetings``. ``pseudo``: wins added each way to every pair that met;
    ``None`` = 0 if the maximum-likelihood estimate exists, else 0.5 with a
    RuntimeWarning. ``attrs["pseudo"]`` records the value used.
    """
    names = list(wins.index)
    w = wins.loc[names, names].to_numpy(dtype=float).copy()
    np.fill_diagonal(w, 0.0)
    k = len(names)
    if k < 2:
        raise ConfigError("Bradley-Terry needs at least 2 entrants")
    n = w + w.T
    met = n > 0
    n_comp, _ = connected_components(met, directed=False)
    if n_comp > 1:
        raise ConfigError("cannot rate entrants that are not all connected by games played")
    if pseudo is None:
        strong, _ = connected_components(w > 0, directed=True, connection="strong")
        pseudo = 0.0 if strong == 1 else 0.5
        if pseudo:
            parts = []
            never_won = [str(names[i]) for i in range(k) if w[i].sum() == 0]
            never_lost = [str(names[i]) for i in range(k) if w[:, i].sum() == 0]
            if never_won:
                parts.append(f"never ahead: {', '.join(never_won)}")
            if never_lost:
                parts.append(f"never behind: {', '.join(never_lost)}")
            detail = "; ".join(parts) or "a group of entrants never finished behind the others"
            warnings.warn(f"Bradley-Terry: the exact strengths are infinite ({detail}); added "
                          f"half a win each way to every pair that met", RuntimeWarning,
                          stacklevel=3)
    if pseudo:
        w = w + pseudo * met
        n = w + w.T

    def full(x):
        return np.concatenate([[0.0], x])

    def nll(x):
        t = full(x)
        d = t[:, None] - t[None, :]
        # -sum W_ij log sigma(d_ij) = sum W_ij log(1 + exp(-d_ij))
        f = float(np.sum(w * np.logaddexp(0.0, -d)))
        p = 1.0 / (1.0 + np.exp(-d))
        g = -(w - n * p).sum(axis=1)
        return f, g[1:]

    def hess_full(t):
        d = t[:, None] - t[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        v = n * p * (1.0 - p)
        h = -v
        np.fill_diagonal(h, v.sum(axis=1) - np.diag(v))
        return h

    res = optimize.minimize(nll, np.zeros(k - 1), jac=True, method="trust-exact",
                            hess=lambda x: hess_full(full(x))[1:, 1:],
                            options={"gtol": 1e-10})
    if not res.success and np.max(np.abs(res.jac)) > 1e-6:   # pragma: no cover
        raise RuntimeError(f"Bradley-Terry fit did not converge: {res.message}")
    theta = full(res.x)
    theta -= theta.mean()
    cov = np.linalg.pinv(hess_full(theta))
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    out = pd.DataFrame({"log_strength": theta, "se": se, "elo": theta * ELO_PER_NAT,
                        "elo_se": se * ELO_PER_NAT,
                        "meetings": (wins.loc[names, names].to_numpy() +
                                     wins.loc[names, names].to_numpy().T).sum(axis=1)},
                       index=pd.Index(names, name="entrant"))
    out = out.sort_values("log_strength", ascending=False, kind="stable")
    out.attrs["pseudo"] = pseudo
    return out


def standings_table(players: pd.DataFrame, ratings: pd.DataFrame | None = None,
                    entrants=None) -> pd.DataFrame:
    """Per entrant: games (seat appearances), wins (sum of win_share),
    win_rate with 95% Wilson interval (win_lo, win_hi), mean_vp with 95%
    t interval (vp_lo, vp_hi), mean_rank and, given ``ratings``, ``rating``
    (Elo-like points). Sorted by win rate, then rating."""
    names = list(entrants) if entrants is not None else _order(players)
    e = pd.Categorical(players["entrant"], categories=names)
    g = players.assign(entrant=e).groupby("entrant", observed=False)
    n = g.size().astype(np.int64)
    wins = g["win_share"].sum().astype(float)
    vp_mean = g["vp"].mean()
    vp_sd = g["vp"].std(ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tq = stats.t.ppf(0.975, np.maximum(n.to_numpy() - 1, 1))
        half = np.where(n.to_numpy() > 1, tq * vp_sd.to_numpy() / np.sqrt(n.to_numpy()), np.nan)
    lo, hi = wilson_interval(wins.to_numpy(), n.to_numpy())
    out = pd.DataFrame({"games": n, "wins": wins, "win_rate": wins / n,
                        "win_lo": lo, "win_hi": hi, "mean_vp": vp_mean,
                        "vp_lo": vp_mean - half, "vp_hi": vp_mean + half,
                        "mean_rank": g["rank"].mean()})
    out.index = pd.Index(names, name="entrant")
    sort = ["win_rate"]
    if ratings is not None:
        out["rating"] = ratings["elo"].reindex(out.index)
        sort.append("rating")
    return out.sort_values(sort, ascending=False, kind="stable")


def _per_unit_net(players: pd.DataFrame, a, b, unit: str) -> pd.Series:
    """Per unit (game or deal): meetings a won minus meetings b won (ties 0),
    over units where both sat."""
    df = players[players["entrant"].isin([a, b])]
    cols = ["game", "entrant", "rank"] + ([unit] if unit != "game" else [])
    df = df[cols]
    m = df[df["entrant"] == a].merge(df[df["entrant"] == b], on="game", suffixes=("_a", "_b"))
    if unit != "game":
        m[unit] = m[unit + "_a"]
    net = np.sign(m["rank_b"].astype(int) - m["rank_a"].astype(int))
    return net.groupby(m[unit]).sum()


def significance(players: pd.DataFrame, a=None, b=None, standings: pd.DataFrame | None = None,
                 deal: str | None = "deal_id") -> pd.DataFrame:
    """Tests of whether entrants ``a`` and ``b`` differ (default: the top two
    of ``standings``, computed if not given). One row per test with columns
    test, a, b, n (units used), estimate, statistic, p_value (two-sided):

    * ``sign test (games)``: games where both sat and one finished ahead
      (net over seat pairs when an entrant holds several seats; ties
      dropped); estimate = share of those won by ``a``; statistic = count;
      exact binomial p-value against 1/2.
    * ``sign test (deals)``: the same with the seatings of each deal summed
      (only when the ``deal`` column exists).
    * ``paired t-test (VP)``: per game where both sat, mean VP of a minus
      mean VP of b; estimate = mean difference; statistic = t.
    * ``two-proportion z-test (win rate)``: estimate = win rate a - b over
      all their appearances; statistic = z (pooled); treats the samples as
      independent, which they are not (a rough check).
    """
    if a is None or b is None:
        if standings is None:
            standings = standings_table(players)
        if len(standings) < 2:
            raise ConfigError("significance needs at least 2 entrants")
        top = list(standings.index)
        if a is None:
            a = next(e for e in top if e != b)
        if b is None:
            b = next(e for e in top if e != a)
    if a == b:
        raise ConfigError(f"significance compares two different entrants, got {a!r} twice")
    rows = []

    def sign_row(name, net):
        net = net[net != 0]
        k, m = int((net > 0).sum()), int(len(net))
        p = stats.binomtest(k, m, 0.5).pvalue if m else np.nan
        rows.append((name, a, b, m, k / m if m else np.nan, float(k), float(p)))

    sign_row("sign test (games)", _per_unit_net(players, a, b, "game"))
    if deal is not None and deal in players.columns:
        sign_row("sign test (deals)", _per_unit_net(players, a, b, deal))

    both = players[players["entrant"].isin([a, b])]
    vp = both.pivot_table(index="game", columns="entrant", values="vp", aggfunc="mean",
                          observed=True)
    if a in vp.columns and b in vp.columns:
        d = (vp[a] - vp[b]).dropna()
    else:
        d = pd.Series([], dtype=float)
    if len(d) >= 2 and d.std(ddof=1) > 0:
        t = float(d.mean() / (d.std(ddof=1) / math.sqrt(len(d))))
        p = float(2 * stats.t.sf(abs(t), len(d) - 1))
    elif len(d) >= 2:      # all differences equal
        t, p = (0.0, 1.0) if d.iloc[0] == 0 else (math.copysign(math.inf, d.iloc[0]), 0.0)
    else:
        t = p = np.nan
    rows.append(("paired t-test (VP)", a, b, int(len(d)),
                 float(d.mean()) if len(d) else np.nan, t, p))

    sa = players.loc[players["entrant"] == a, "win_share"]
    sb = players.loc[players["entrant"] == b, "win_share"]
    n1, n2 = len(sa), len(sb)
    if n1 and n2:
        p1, p2 = float(sa.sum()) / n1, float(sb.sum()) / n2
        pool = (float(sa.sum()) + float(sb.sum())) / (n1 + n2)
        se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
        z = (p1 - p2) / se if se > 0 else (0.0 if p1 == p2 else math.copysign(math.inf, p1 - p2))
        pz = float(2 * stats.norm.sf(abs(z)))
        rows.append(("two-proportion z-test (win rate)", a, b, n1 + n2, p1 - p2, z, pz))
    else:
        rows.append(("two-proportion z-test (win rate)", a, b, n1 + n2, np.nan, np.nan, np.nan))
    return pd.DataFrame(rows, columns=["test", "a", "b", "n", "estimate", "statistic", "p_value"])


# ---------------------------------------------------------------------------
@dataclass
class TournamentResults:
    """Results of ``tournament`` (see the module docstring for the design).

    ``standings``, ``head_to_head`` (+ ``head_to_head_n``), ``ratings`` and
    ``significance`` are DataFrames computed from ``players``:

    ``players`` — one row per game and seat, simulate's columns plus:
        game (unique in the tournament), table, combo, rotation, mirrored, deal (game
        index within the table: equal (combo, deal) = same shuffle and dice),
        deal_id (unique per (combo, deal)), entrant (name), bot (label).
    ``games`` — one row per game: game, table, combo, rotation, mirrored, deal,
        deal_id, seating (entrant names by seat, " | "-joined),
        winner_entrant (entrant in the lowest winning seat) and simulate's
        game columns.
    ``tables`` — the seating plan (table, combo, rotation, mirrored, seats, seed,
        games).
    """
    entrants: list
    n_players: int
    players: pd.DataFrame
    games: pd.DataFrame
    tables: pd.DataFrame
    rules: Rules
    config: dict = field(default_factory=dict)
    standings: pd.DataFrame = field(init=False)
    head_to_head: pd.DataFrame = field(init=False)
    head_to_head_n: pd.DataFrame = field(init=False)
    ratings: pd.DataFrame = field(init=False)
    significance: pd.DataFrame = field(init=False)

    def __post_init__(self):
        self.analyze()

    def analyze(self) -> None:
        """(Re)compute the statistics from ``players``."""
        p = self.players
        wins, n = pairwise_counts(p, self.entrants)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = wins.to_numpy() / n.to_numpy()
        share[n.to_numpy() == 0] = np.nan
        self.head_to_head = pd.DataFrame(share, index=wins.index, columns=wins.columns)
        self.head_to_head_n = n
        self.ratings = bradley_terry(wins)
        self.standings = standings_table(p, self.ratings, self.entrants)
        self.significance = significance(p, standings=self.standings)

    def plot_win_rates(self, ax=None):
        """Horizontal bars of win rate with 95% Wilson intervals; a dashed line
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
        ax.set_xlabel("win rate (shared wins split), 95% Wilson interval")
        ax.set_ylabel("entrant")
        n_games = len(self.games)
        ax.set_title(f"Tournament win rates: {self.n_players} players, {n_games:,} games")
        ax.set_xlim(0, min(1.0, max(float(s["win_hi"].max()) * 1.15, 1.5 / self.n_players)))
        ax.legend(loc="lower right", fontsize="small")
        return ax

    def __repr__(self) -> str:
        return (f"TournamentResults({len(self.entrants)} entrants, {self.n_players} players, "
                f"{len(self.tables)} tables, {len(self.games):,} games, "
                f"seed={self.config.get('seed')})")


def tournament(bots, n_players: int, games: int = 12_000, seed: int = 0,
               rules: Rules | None = None, workers: int | None = None,
               progress: bool = True, mirror: bool = True) -> TournamentResults:
    """Play a seat-balanced round robin between ``bots`` at tables of ``n_players``.

    ``bots``: a list of bot specs (names such as ``"greedy?bid_margin=2"``,
    or a comma-separated string) or a dict ``{entrant name: spec}``; at least
    2 entrants. ``games``: total games, split over the tables of
    ``seating_plan(len(bots), n_players, mirror)`` by their weights and
    rounded up (``config["games_played"]``). ``mirror``: also play the mirror
    image of every seating, so every pair of entrants also meets in swapped
    seats (default; else rotations only). ``seed``: all game seeds derive from
    it; results do not depend on ``workers`` (threads, default all cores).
    Ctrl-C stops the tournament (KeyboardInterrupt: a partial tournament
    would not be balanced). See the module docstring for the seating, common
    random numbers and statistics, and ``TournamentResults`` for the tables.

    >>> r = tournament(["greedy", "banker", "collector"], 3, games=6000)  # doctest: +SKIP
    >>> r.standings; r.head_to_head; r.ratings; r.significance  # doctest: +SKIP
    >>> r.plot_win_rates()  # doctest: +SKIP
    """
    if rules is None:
        rules = Rules.default()
    if not isinstance(rules, Rules):
        raise ConfigError("rules must be a cargo_sim.Rules")
    names, players = _entrants(bots)
    rules.check_players(n_players)
    n_players = int(n_players)
    if not whole(games) or games < 1:
        raise ConfigError(f"games must be a whole number >= 1, got {games!r}")
    check_seed(seed)
    if workers is None:
        workers = os.cpu_count() or 1
    if not whole(workers) or workers < 1:
        raise ConfigError(f"workers must be a whole number >= 1, got {workers!r}")

    plan = seating_plan(len(names), n_players, bool(mirror))
    n_tables = len(plan)
    weight = plan["weight"].to_numpy(np.int64)
    n_combos = int(plan["combo"].nunique())
    per_combo_weight = int(weight.sum()) // n_combos
    scale = -(-int(games) // int(weight.sum()))          # round up
    gpt = weight * scale                                 # games per table
    plan["seed"] = [_combo_seed(seed, c) for c in plan["combo"]]
    plan["games"] = gpt

    seatings = np.array(plan["seats"].tolist(), dtype=np.int64)          # (tables, seats)
    seated = [[players[e] for e in row] for row in seatings]
    templates = [table_template(rules, sp) for sp in seated]
    n_fields_p = len(PLAYER_FIELDS) + len(rules.card_names)
    jobs = [(t, lo, min(lo + PIECE, int(gpt[t]))) for t in range(n_tables)
            for lo in range(0, int(gpt[t]), PIECE)]

    def run(job):
        # exactly simulate(gpt[t], seated[t], seed=table seed), split with start=lo
        t, lo, hi = job
        seeds = game_seeds_nb(np.uint64(plan.at[t, "seed"]), lo, hi - lo)
        template, decide = templates[t]
        g, pl, err = _run_chunk(template, decide, seeds, n_fields_p)[:3]
        if err is not None:
            gi = int(err[0])
            e = _illegal_error(seated[t], int(err[1]), int(err[2]), int(err[3]), int(err[4]),
                               int(err[5]), lo + gi, int(seeds[gi]), rules)
            who = " | ".join(names[i] for i in seatings[t])
            raise IllegalDecisionError(f"{e} [tournament table {t}: {who}; replay with "
                                       f"play_one(seed, players)]")
        return g, pl, seeds

    results: list = [None] * len(jobs)
    bar = Progress(int(gpt.sum()), label="tournament games", enabled=progress)
    pool = ThreadPoolExecutor(max_workers=min(workers, len(jobs)))
    try:
        futures = [pool.submit(run, j) for j in jobs]
        for i, fut in enumerate(futures):
            results[i] = fut.result()
            bar.update(len(results[i][0]))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    bar.close()

    # jobs are in (table, deal) order, so row i of the arrays is game i of the tournament
    games_arr = np.concatenate([r[0] for r in results])
    players_arr = np.concatenate([r[1] for r in results])
    seeds_all = np.concatenate([r[2] for r in results])
    g, p = build_tables(games_arr, players_arr, seeds_all, 0, seated[0], rules)
    n_games = len(g)
    table_of = np.repeat(np.arange(n_tables, dtype=np.int64), gpt)
    deal = np.arange(len(g), dtype=np.int64) - np.repeat(np.cumsum(gpt) - gpt, gpt)
    combo_deals = plan.groupby("combo")["games"].first().to_numpy(np.int64)
    combo_base = np.cumsum(combo_deals) - combo_deals
    combo = plan["combo"].to_numpy(np.int64)[table_of]
    rot = plan["rotation"].to_numpy(np.int64)[table_of]
    entrant_cat = pd.CategoricalDtype(names)
    front = pd.DataFrame({"game": g["game"].to_numpy(), "table": table_of.astype(np.int32),
                          "combo": combo.astype(np.int32), "rotation": rot.astype(np.int32),
                          "mirrored": plan["mirrored"].to_numpy(bool)[table_of],
                          "deal": deal, "deal_id": combo_base[combo] + deal})
    seating_text = np.array([" | ".join(names[e] for e in row) for row in seatings], dtype=object)
    front["seating"] = seating_text[table_of]
    front["winner_entrant"] = pd.Categorical.from_codes(
        seatings[table_of, g["winner"].to_numpy().astype(np.int64)], dtype=entrant_cat)
    games_df = pd.concat([front, g.drop(columns=["game"])], axis=1)

    seat = p["seat"].to_numpy().astype(np.int64)
    p_table = np.repeat(table_of, n_players)
    ent = seatings[p_table, seat]
    labels = [pl.label for pl in players]
    bot_cats = list(dict.fromkeys(labels))
    bot_code = np.asarray([bot_cats.index(l) for l in labels], dtype=np.int64)[ent]
    pfront = pd.DataFrame({"game": p["game"].to_numpy(), "table": front["table"].to_numpy().repeat(n_players),
                           "combo": front["combo"].to_numpy().repeat(n_players),
                           "rotation": front["rotation"].to_numpy().repeat(n_players),
                           "mirrored": front["mirrored"].to_numpy().repeat(n_players),
                           "deal": deal.repeat(n_players),
                           "deal_id": front["deal_id"].to_numpy().repeat(n_players),
                           "seat": p["seat"].to_numpy(),
                           "entrant": pd.Categorical.from_codes(ent, dtype=entrant_cat),
                           "bot": pd.Categorical.from_codes(bot_code, categories=bot_cats)})
    players_df = pd.concat([pfront, p.drop(columns=["game", "seat", "bot"])], axis=1)
    config = {"bots": names, "labels": [p.label for p in players], "n_players": n_players,
              "games": int(games), "games_played": int(gpt.sum()),
              "games_per_composition": per_combo_weight * scale, "compositions": n_combos,
              "tables": n_tables, "mirror": bool(mirror), "seed": seed,
              "rules_digest": rules.digest}
    return TournamentResults(names, n_players, players_df, games_df, plan, rules, config)
