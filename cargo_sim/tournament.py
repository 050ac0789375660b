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
(which entrants sit at a table) times their *rotations* (who sits where):

* ``len(bots) >= n_players``: every combination of ``n_players`` distinct
  entrants (a round robin over combinations, in ``itertools.combinations``
  order);
* ``len(bots) < n_players``: the tables are filled by repeating entrants in a
  balanced way. With ``q, r = divmod(n_players, len(bots))`` each table holds
  every entrant ``q`` times plus one more copy of each entrant of an
  ``r``-combination, and the round robin runs over all those ``r``-combinations
  (so over the tournament every entrant fills the same number of seats). The
  copies are interleaved (``A B A`` rather than ``A A B``). When ``r == 0``
  there is one composition (``A B A B`` for 2 entrants at 4 seats).

  (Both cases are the same rule: with ``q = 0`` it is the plain round robin.)

Each composition ``c = (c_0 ... c_{n-1})`` is played in every cyclic rotation
``k``: seat ``s`` gets ``c[(s + k) % n]``, so each entrant of the composition
sits once in each seat (rotations that give an identical seating, as for
``A B A B``, are played once). A *table* is one (composition, rotation); each
table is one ``simulate`` call and all tables play the same number of games:
``games`` is split evenly and rounded **up** to a multiple of the number of
tables.

**Common random numbers.** All rotations of a composition use the same run
seed, derived from ``(seed, composition index)`` by ``numpy.random.SeedSequence``.
Game ``d`` (the *deal*) of each rotation therefore has the same shuffle and
the same dice; only the seating changes. Seat advantage and the luck of the
deal cancel out within a deal, which sharpens every comparison between the
entrants of a composition. Results depend only on ``seed``, never on
``workers``: every table (split in pieces with ``simulate(start=...)``) is
fully determined by its seed and game indices.

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
  (ties dropped); the same sign test on deals (the rotations of one deal
  summed: the honest unit under common random numbers); a paired t-test of
  the VP difference; and a two-proportion z-test of the win rates (which
  treats the two samples as independent: a rough check, they are not).

Confidence intervals treat appearances as independent. Under common random
numbers the rotations of one deal are correlated, so the intervals are
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
from .cargo_noir.simulate import simulate
from .errors import ConfigError
from .progress import Progress

Z95 = float(stats.norm.ppf(0.975))
ELO_PER_NAT = 400.0 / math.log(10.0)
PIECE = 2048          # games per simulate call (the unit of parallel work)

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


def seating_plan(n_entrants: int, n_players: int) -> pd.DataFrame:
    """The tables of a tournament: one row per (composition, rotation).

    Columns: table, combo (composition index: tables with the same combo
    share their game seeds), rotation, and ``seats``: a tuple of entrant
    indices, one per seat. See the module docstring for the rule.
    """
    if n_entrants < 1 or n_players < 1:
        raise ConfigError("seating_plan needs at least one entrant and one seat")
    q, r = divmod(n_players, n_entrants)
    rows = []
    for ci, extra in enumerate(itertools.combinations(range(n_entrants), r)):
        comp = list(range(n_entrants)) * q + list(extra)
        seen = set()
        for k in range(n_players):
            seats = tuple(comp[(s + k) % n_players] for s in range(n_players))
            if seats in seen:
                continue
            seen.add(seats)
            rows.append((len(rows), ci, k, seats))
    return pd.DataFrame(rows, columns=["table", "combo", "rotation", "seats"])


def _combo_seed(seed: int, combo: int) -> int:
    state = np.random.SeedSequence([int(seed), int(combo)]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) | (int(state[1]) >> 1)      # 63 bits, >= 0


def _whole(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


# ---------------------------------------------------------------------------
# statistics on a players table (columns game, entrant, vp, rank, win_share)
def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval ``(lo, hi)`` for a proportion ``successes / n``.

    Works elementwise on arrays; fractional successes (shared wins) are
    allowed. ``n == 0`` gives NaN.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        z2 = z * z
        den = 1.0 + z2 / n
        centre = (p + z2 / (2 * n)) / den
        half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / den
        lo, hi = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


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
            warnings.warn("Bradley-Terry: some entrant never lost (or never won) against the "
                          "others, so the exact strengths are infinite; added half a win each "
                          "way to every pair that met", RuntimeWarning, stacklevel=3)
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
    out.attrs["covariance"] = pd.DataFrame(cov, index=names, columns=names)
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
    * ``sign test (deals)``: the same with the rotations of each deal summed
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
        game (unique in the tournament), table, combo, rotation, deal (game
        index within the table: equal (combo, deal) = same shuffle and dice),
        deal_id (unique per (combo, deal)), entrant (name), bot (label).
    ``games`` — one row per game: game, table, combo, rotation, deal,
        deal_id, seating (entrant names by seat, " | "-joined),
        winner_entrant (entrant in the lowest winning seat) and simulate's
        game columns.
    ``tables`` — the seating plan (table, combo, rotation, seats, seed,
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
        err = np.vstack([s["win_rate"] - s["win_lo"], s["win_hi"] - s["win_rate"]])
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
               progress: bool = True) -> TournamentResults:
    """Play a seat-balanced round robin between ``bots`` at tables of ``n_players``.

    ``bots``: a list of bot specs (names such as ``"greedy?bid_margin=2"``)
    or a dict ``{entrant name: spec}``; at least 2 entrants. ``games``: total
    games, split evenly across the tables (rounded up to a multiple of the
    number of tables, ``seating_plan(len(bots), n_players)``). ``seed``: all
    game seeds derive from it; results do not depend on ``workers`` (threads,
    default all cores). See the module docstring for the seating, common
    random numbers and statistics; ``TournamentResults`` for the tables.
    """
    if rules is None:
        rules = Rules.default()
    if not isinstance(rules, Rules):
        raise ConfigError("rules must be a cargo_sim.Rules")
    names, players = _entrants(bots)
    rules.check_players(n_players)
    n_players = int(n_players)
    if not _whole(games) or games < 1:
        raise ConfigError(f"games must be a whole number >= 1, got {games!r}")
    if not _whole(seed) or seed < 0:
        raise ConfigError(f"seed must be a whole number >= 0, got {seed!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if not _whole(workers) or workers < 1:
        raise ConfigError(f"workers must be a whole number >= 1, got {workers!r}")

    plan = seating_plan(len(names), n_players)
    n_tables = len(plan)
    per_table = -(-int(games) // n_tables)
    plan["seed"] = [_combo_seed(seed, c) for c in plan["combo"]]
    plan["games"] = per_table

    jobs = [(t, lo, min(lo + PIECE, per_table)) for t in range(n_tables)
            for lo in range(0, per_table, PIECE)]
    bar = Progress(per_table * n_tables, label="tournament games", enabled=progress)

    def run(job):
        t, lo, hi = job
        seats = [players[i] for i in plan.at[t, "seats"]]
        return simulate(hi - lo, seats, seed=int(plan.at[t, "seed"]), rules=rules, workers=1,
                        progress=False, start=lo)

    results = [None] * len(jobs)
    pool = ThreadPoolExecutor(max_workers=min(workers, len(jobs)))
    try:
        futures = [pool.submit(run, j) for j in jobs]
        for i, fut in enumerate(futures):
            results[i] = fut.result()
            bar.update(len(results[i].games))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    bar.close()

    entrant_cat = pd.CategoricalDtype(names)
    g_parts, p_parts = [], []
    for (t, lo, hi), res in zip(jobs, results):
        combo, rot, seats = plan.at[t, "combo"], plan.at[t, "rotation"], plan.at[t, "seats"]
        deal = res.games["game"].to_numpy()
        gid = t * per_table + deal
        g = res.games.drop(columns=["game"])
        seat_names = [names[i] for i in seats]
        front = pd.DataFrame({"game": gid, "table": t, "combo": combo, "rotation": rot,
                              "deal": deal, "deal_id": combo * per_table + deal,
                              "seating": " | ".join(seat_names)})
        front["winner_entrant"] = pd.Categorical.from_codes(
            np.asarray(seats, dtype=np.int64)[g["winner"].to_numpy()], dtype=entrant_cat)
        g_parts.append(pd.concat([front, g.reset_index(drop=True)], axis=1))

        p = res.players
        pdeal = p["game"].to_numpy()
        seat = p["seat"].to_numpy()
        pfront = pd.DataFrame({"game": t * per_table + pdeal, "table": t, "combo": combo,
                               "rotation": rot, "deal": pdeal,
                               "deal_id": combo * per_table + pdeal, "seat": seat,
                               "entrant": pd.Categorical.from_codes(
                                   np.asarray(seats, dtype=np.int64)[seat], dtype=entrant_cat),
                               "bot": p["bot"].astype(str).to_numpy()})
        p_parts.append(pd.concat([pfront, p.drop(columns=["game", "seat", "bot"])
                                  .reset_index(drop=True)], axis=1))
    games_df = pd.concat(g_parts, ignore_index=True)
    players_df = pd.concat(p_parts, ignore_index=True)
    players_df["bot"] = players_df["bot"].astype("category")
    for df in (games_df, players_df):
        for c in ("table", "combo", "rotation"):
            df[c] = df[c].astype(np.int32)
    config = {"bots": names, "labels": [p.label for p in players], "n_players": n_players,
              "games": int(games), "games_played": per_table * n_tables,
              "games_per_table": per_table, "tables": n_tables, "seed": seed,
              "rules_digest": rules.digest}
    return TournamentResults(names, n_players, players_df, games_df, plan, rules, config)
