"""Tournament statistics on a ``players`` table: standings, head to head,
Bradley-Terry ratings and the top-two tests, with intervals clustered by deal.

A ``players`` table has one row per game and seat with columns game,
entrant, rank, vp, win_share and, from a tournament, ``deal_id``: the games
of one deal (same shuffle and dice, every seating) are correlated, so every
standard error here treats the deal as the independent unit (the game when
there is no ``deal_id``). docs/tournaments.md explains each interval.
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
from scipy import stats
from scipy.sparse.csgraph import connected_components

from .errors import ConfigError
from .stats import clustered_mean, t_quantile, wilson_interval

ELO_PER_NAT = 400.0 / math.log(10.0)
RTOL = 1e-10          # Bradley-Terry: converged when every score is this small per meeting
MAX_NEWTON = 200

__all__ = ["pairwise_counts", "meetings", "head_to_head", "bradley_terry", "standings_table",
           "significance", "focus_table", "cluster_column", "ELO_PER_NAT"]


def _order(players: pd.DataFrame) -> list:
    e = players["entrant"]
    if isinstance(e.dtype, pd.CategoricalDtype):
        return [c for c in e.cat.categories if (e == c).any()]
    return list(dict.fromkeys(e))


def cluster_column(players: pd.DataFrame) -> str:
    """The independent unit: ``deal_id`` when the table has it, else ``game``."""
    return "deal_id" if "deal_id" in players.columns else "game"


def meetings(players: pd.DataFrame, entrants=None) -> pd.DataFrame:
    """One row per meeting (a pair of seats of one game held by different
    entrants): ``i``, ``j`` (entrant codes in ``entrants`` order), ``score``
    (1 if i finished ahead, 1/2 for a tie, 0 if behind) and ``cluster``
    (code of the game's deal, or of the game)."""
    names = list(entrants) if entrants is not None else _order(players)
    code = pd.Categorical(players["entrant"], categories=names).codes.astype(np.int64)
    unit = players[cluster_column(players)].to_numpy()
    df = pd.DataFrame({"game": players["game"].to_numpy(), "e": code,
                       "rank": players["rank"].to_numpy().astype(np.int64),
                       "cluster": pd.factorize(unit, sort=True)[0].astype(np.int64)})
    df = df[df["e"] >= 0].sort_values(["game"], kind="stable")
    df["size"] = df["game"].map(df.groupby("game", sort=False).size()).to_numpy()
    parts = []
    for size, part in df.groupby("size", sort=False):
        if size < 2:
            continue
        e = part["e"].to_numpy().reshape(-1, size)
        rk = part["rank"].to_numpy().reshape(-1, size)
        cl = part["cluster"].to_numpy().reshape(-1, size)[:, 0]
        for a, b in itertools.combinations(range(size), 2):
            diff = e[:, a] != e[:, b]
            parts.append(pd.DataFrame({
                "i": e[diff, a], "j": e[diff, b],
                "score": 0.5 * (np.sign(rk[diff, b] - rk[diff, a]) + 1.0),
                "cluster": cl[diff]}))
    if not parts:
        return pd.DataFrame({"i": [], "j": [], "score": [], "cluster": []}).astype(
            {"i": np.int64, "j": np.int64, "cluster": np.int64})
    return pd.concat(parts, ignore_index=True)


def _counts(m: pd.DataFrame, k: int):
    wins = np.zeros((k, k))
    n = np.zeros((k, k))
    i, j, s = m["i"].to_numpy(), m["j"].to_numpy(), m["score"].to_numpy()
    np.add.at(wins, (i, j), s)
    np.add.at(wins, (j, i), 1.0 - s)
    np.add.at(n, (i, j), 1.0)
    np.add.at(n, (j, i), 1.0)
    return wins, n


def pairwise_counts(players: pd.DataFrame, entrants=None):
    """``(wins, n)``: square DataFrames over the entrants.

    ``n[i][j]``: meetings of i and j (pairs of seats of one game held by i and
    j; same-entrant pairs are ignored). ``wins[i][j]``: meetings in which i
    finished ahead of j (lower rank), ties counting 1/2. ``wins + wins.T == n``.
    """
    names = list(entrants) if entrants is not None else _order(players)
    wins, n = _counts(meetings(players, names), len(names))
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


# ---------------------------------------------------------------------------
# Bradley-Terry
def _fisher(theta, n):
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))      # P(i ahead of j)
    v = n * p * (1.0 - p)
    h = -v
    np.fill_diagonal(h, v.sum(axis=1) - np.diag(v))
    return h, p


def _fit(w, n):
    """Maximum-likelihood log-strengths (mean 0) of a strongly connected
    record by Newton's method with step halving on the concave
    log-likelihood; ``None`` if it does not converge."""
    k = len(w)
    theta = np.zeros(k)
    won = w.sum(axis=1)
    scale = np.maximum(n.sum(axis=1), 1.0)

    def loglik(t):
        d = t[:, None] - t[None, :]
        return -float(np.sum(w * np.logaddexp(0.0, -d)))

    ll = loglik(theta)
    for _ in range(MAX_NEWTON):
        h, p = _fisher(theta, n)
        g = won - (n * p).sum(axis=1)
        if np.max(np.abs(g) / scale) < RTOL:
            return theta - theta.mean()
        step = np.linalg.lstsq(h[1:, 1:], g[1:], rcond=None)[0]
        step = np.concatenate([[0.0], step])
        for _half in range(60):
            new = theta + step
            new_ll = loglik(new)
            if new_ll >= ll - 1e-12 * abs(ll):
                break
            step = step / 2
        if np.max(np.abs(new - theta)) < 1e-13:    # no progress left: at the optimum to rounding
            g_rel = np.max(np.abs(g) / scale)
            return theta - theta.mean() if g_rel < 1e-6 else None
        theta, ll = new, new_ll
    return None


def _degenerate(w, names):
    """(codes of entrants never ahead, never behind, note) for a record whose
    maximum-likelihood strengths are not all finite."""
    k = len(names)
    never_won = [i for i in range(k) if w[i].sum() == 0]
    never_lost = [i for i in range(k) if w[:, i].sum() == 0]
    parts = []
    if never_won:
        parts.append("never ahead: " + ", ".join(str(names[i]) for i in never_won))
    if never_lost:
        parts.append("never behind: " + ", ".join(str(names[i]) for i in never_lost))
    return never_won, never_lost, "; ".join(parts)


def _finite_count(what: str, x) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        v = float("nan")
    if isinstance(x, bool) or not math.isfinite(v) or v < 0:
        raise ConfigError(f"Bradley-Terry: {what} must be a finite number >= 0, got {x!r}")
    return v


def _wins_matrix(wins) -> tuple[np.ndarray, list]:
    """``wins`` checked: a square DataFrame whose columns are its index (the same
    entrants, each once), every entry a finite count >= 0 (the diagonal is ignored).
    Returns (the float matrix in the index's order, diagonal 0; the names)."""
    if not isinstance(wins, pd.DataFrame):
        raise ConfigError(f"Bradley-Terry takes a DataFrame of wins (entrants x entrants), "
                          f"got {type(wins).__name__}")
    names = list(wins.index)
    if len(names) < 2:
        raise ConfigError("Bradley-Terry needs at least 2 entrants")
    if wins.index.has_duplicates or wins.columns.has_duplicates or set(names) != set(wins.columns):
        raise ConfigError(f"Bradley-Terry takes a square wins matrix whose columns are its rows "
                          f"(the same entrants, each once); got {wins.shape[0]} rows and "
                          f"{wins.shape[1]} columns")
    try:
        w = wins.loc[names, names].to_numpy(dtype=float).copy()
    except (TypeError, ValueError):
        raise ConfigError("Bradley-Terry: the wins matrix must hold numbers") from None
    np.fill_diagonal(w, 0.0)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i, j = (int(x[0]) for x in np.nonzero(bad))
        raise ConfigError(f"Bradley-Terry: wins must be finite counts >= 0; wins[{names[i]!r}]"
                          f"[{names[j]!r}] is {w[i, j]}")
    return w, names


def bradley_terry(wins: pd.DataFrame, pseudo: float | None = None,
                  meetings: pd.DataFrame | None = None) -> pd.DataFrame:
    """Bradley-Terry maximum-likelihood fit of a square ``wins`` matrix
    (``wins[i][j]``: times i finished ahead of j, ties as halves).

    One row per entrant, strongest first: ``log_strength`` (mean 0 over the
    finite ones), ``se``, ``elo`` (= log_strength * 400 / ln 10),
    ``elo_se``, ``meetings`` and ``note`` (why a value is not finite).

    Never raises for the data: an entrant never ahead gets -inf, one never
    behind +inf, strengths that cannot be separated (entrants not connected
    by games; groups that always beat other groups) NaN, each with a
    RuntimeWarning and a note. ``pseudo``: wins added each way to every pair
    that met (a regularised finite fit instead). ``meetings``: the rows of
    ``meetings(players)`` behind ``wins``; given, the standard errors are
    clustered by their ``cluster`` (sandwich), else they assume independent
    meetings (Fisher information). ``attrs``: pseudo, se (which kind), note.
    """
    w, names = _wins_matrix(wins)
    k = len(names)
    total = (w + w.T).sum(axis=1)
    pseudo = 0.0 if pseudo is None else _finite_count("pseudo", pseudo)
    met = (w + w.T) > 0
    if pseudo:
        w = w + pseudo * met
    n = w + w.T
    theta = np.full(k, np.nan)
    note = [""] * k
    reason = ""
    if connected_components(met, directed=False)[0] > 1:
        reason = "the entrants are not all connected by games played"
        note = [reason] * k
    elif connected_components(w > 0, directed=True, connection="strong")[0] > 1:
        lo, hi, reason = _degenerate(w, names)
        for i in lo:
            theta[i], note[i] = -np.inf, "never ahead"
        for i in hi:
            theta[i], note[i] = np.inf, "never behind"
        rest = [i for i in range(k) if i not in lo and i not in hi]
        sub = np.ix_(rest, rest)
        if len(rest) == 1:
            theta[rest[0]] = 0.0
        elif rest and connected_components(w[sub] > 0, directed=True, connection="strong")[0] == 1:
            fit = _fit(w[sub], n[sub])
            if fit is not None:
                theta[rest] = fit
        if rest and np.isnan(theta[rest]).any():
            for i in rest:
                note[i] = "not separable: groups of entrants always finished ahead of others"
            reason = (reason + "; " if reason else "") + note[rest[0]]
    else:
        fit = _fit(w, n)
        if fit is None:
            reason = "the fit did not converge"
            note = [reason] * k
        else:
            theta = fit
    finite = np.isfinite(theta)
    se = np.full(k, np.nan)
    kind = "none"
    if finite.sum() >= 2:
        f = np.flatnonzero(finite)
        h, p = _fisher(theta[f], n[np.ix_(f, f)])
        bread = np.linalg.pinv(h)
        kind = "model"
        if meetings is not None and len(meetings):
            meat, c = _cluster_scores(meetings, f, theta, p)
            if c >= 2:
                cov = bread @ meat @ bread
                kind = "clustered"
            else:
                cov = bread
        else:
            cov = bread
        se[f] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    if reason:
        warnings.warn(f"Bradley-Terry: {reason}; those ratings are +-inf or NaN "
                      f"(pass pseudo=0.5 for a regularised finite fit)", RuntimeWarning,
                      stacklevel=2)
    out = pd.DataFrame({"log_strength": theta, "se": se, "elo": theta * ELO_PER_NAT,
                        "elo_se": se * ELO_PER_NAT, "meetings": total, "note": note},
                       index=pd.Index(names, name="entrant"))
    out = out.sort_values("log_strength", ascending=False, kind="stable", na_position="last")
    out.attrs.update(pseudo=pseudo, se=kind, note=reason)
    return out


def _cluster_scores(m: pd.DataFrame, f, theta, p_f):
    """The sandwich's meat: sum over clusters of the outer product of each
    cluster's score vector (entrants ``f`` only), with the small-sample
    factor C/(C-1); and C, the number of clusters."""
    pos = np.full(len(theta), -1)
    pos[f] = np.arange(len(f))
    i, j = pos[m["i"].to_numpy()], pos[m["j"].to_numpy()]
    keep = (i >= 0) & (j >= 0)
    i, j = i[keep], j[keep]
    r = m["score"].to_numpy()[keep] - p_f[i, j]          # residual of i's finish vs j
    cl = pd.factorize(m["cluster"].to_numpy()[keep])[0]
    c = int(cl.max()) + 1 if len(cl) else 0
    s = np.zeros((c, len(f)))
    np.add.at(s, (cl, i), r)
    np.add.at(s, (cl, j), -r)
    factor = c / (c - 1) if c > 1 else 1.0
    return factor * (s.T @ s), c


# ---------------------------------------------------------------------------
# standings
def _clustered_mean(values: np.ndarray, cluster: np.ndarray):
    """(mean, standard error, clusters) of a ratio mean of ``values`` whose
    rows are clustered; the se is the linearised (sandwich) one with C/(C-1)."""
    codes, _ = pd.factorize(cluster)
    c = int(codes.max()) + 1 if len(codes) else 0
    if c == 0:
        return np.nan, np.nan, 0
    tot = np.bincount(codes, weights=values, minlength=c)
    cnt = np.bincount(codes, minlength=c).astype(float)
    mean = tot.sum() / cnt.sum()
    if c < 2:
        return mean, np.nan, c
    resid = tot - mean * cnt
    se = math.sqrt(c / (c - 1) * float(np.sum(resid ** 2))) / cnt.sum()
    return mean, se, c


def standings_table(players: pd.DataFrame, ratings: pd.DataFrame | None = None,
                    entrants=None) -> pd.DataFrame:
    """Per entrant: games (seat appearances), wins (sum of win_share),
    win_rate with a 95% interval (win_lo, win_hi), mean_vp with a 95%
    interval (vp_lo, vp_hi), mean_rank, ``clusters`` (deals, or games, it
    played) and, given ``ratings``, ``rating`` (Elo-like points). Sorted by
    win rate, then rating.

    The win-rate interval is Wilson's with the effective sample size
    games / design effect (the clustered variance over the binomial one);
    the VP interval is mean +- t(clusters - 1) * clustered se, NaN with
    fewer than 2 clusters.
    """
    names = list(entrants) if entrants is not None else _order(players)
    unit = players[cluster_column(players)].to_numpy()
    ent = pd.Categorical(players["entrant"], categories=names).codes
    ws = players["win_share"].to_numpy(dtype=float)
    vp = players["vp"].to_numpy(dtype=float)
    rank = players["rank"].to_numpy(dtype=float)
    rows = []
    for e in range(len(names)):
        sel = ent == e
        n = int(sel.sum())
        wins = float(ws[sel].sum())
        rate, rate_se, c = _clustered_mean(ws[sel], unit[sel])
        n_eff = float(n)
        if n and 0 < rate < 1 and rate_se > 0:
            n_eff = min(float(n), rate * (1 - rate) / rate_se ** 2) if np.isfinite(rate_se) else n
        lo, hi = wilson_interval(rate * n_eff, n_eff) if n else (np.nan, np.nan)
        mvp, vp_se, _ = _clustered_mean(vp[sel], unit[sel])
        half = t_quantile(c) * vp_se
        rows.append((n, wins, wins / n if n else np.nan, lo, hi, mvp, mvp - half, mvp + half,
                     float(rank[sel].mean()) if n else np.nan, c))
    out = pd.DataFrame(rows, columns=["games", "wins", "win_rate", "win_lo", "win_hi", "mean_vp",
                                      "vp_lo", "vp_hi", "mean_rank", "clusters"],
                       index=pd.Index(names, name="entrant"))
    sort = ["win_rate"]
    if ratings is not None:
        out["rating"] = ratings["elo"].reindex(out.index)
        sort.append("rating")
    return out.sort_values(sort, ascending=False, kind="stable")


# ---------------------------------------------------------------------------
# one bot against a field
def focus_table(players: pd.DataFrame, focus) -> pd.DataFrame:
    """One row for the entrant ``focus`` (one seat of every game): games, deals,
    ``share`` (its mean win share, shared wins split; fair share 1/seats) and
    ``margin`` (its VP minus the best other seat's VP, per game), each with the
    95 % interval of ``stats.clustered_mean`` clustered by deal: with every deal
    played in the same seatings, the t interval over the deal means (the share's
    kept within [0, 1])."""
    unit = players[cluster_column(players)].to_numpy()
    mine = (players["entrant"] == focus).to_numpy()
    if not mine.any():
        raise ConfigError(f"focus {focus!r} sat at no table")
    game = players["game"].to_numpy()
    if len(np.unique(game[mine])) != int(mine.sum()):
        raise ConfigError(f"focus {focus!r} holds more than one seat of a game: a focus has one seat")
    vp = players["vp"].to_numpy(dtype=float)
    others = pd.Series(np.where(mine, -np.inf, vp)).groupby(game).max()
    margin = vp[mine] - others.reindex(game[mine]).to_numpy()
    share = clustered_mean(players["win_share"].to_numpy(dtype=float)[mine], unit[mine])
    marg = clustered_mean(margin, unit[mine])
    n_players = int(len(players) // players["game"].nunique())
    return pd.DataFrame([{"games": share["n"], "deals": share["clusters"], "fair": 1.0 / n_players,
                          "share": share["mean"], "share_lo": max(share["ci_lo"], 0.0),
                          "share_hi": min(share["ci_hi"], 1.0),
                          "margin": marg["mean"], "margin_lo": marg["ci_lo"], "margin_hi": marg["ci_hi"]}],
                        index=pd.Index([focus], name="entrant"))


# ---------------------------------------------------------------------------
# the top two
def _per_unit(players: pd.DataFrame, a, b, unit: str) -> pd.DataFrame:
    """Per unit (game or deal) where both sat: ``net`` (meetings a finished
    ahead of b minus meetings b did; ties 0) and a's minus b's mean
    ``win_share`` and mean ``vp``."""
    df = players.loc[players["entrant"].isin([a, b]), ["game", "entrant", "rank", "vp",
                                                        "win_share"]].copy()
    df["unit"] = players.loc[df.index, unit].to_numpy()
    ea, eb = df[df["entrant"] == a], df[df["entrant"] == b]
    m = ea.merge(eb, on="game", suffixes=("_a", "_b"))
    net = np.sign(m["rank_b"].astype(int) - m["rank_a"].astype(int)).groupby(m["unit_a"]).sum()
    both = set(ea["unit"]) & set(eb["unit"])
    ma = ea[ea["unit"].isin(both)].groupby("unit")[["win_share", "vp"]].mean()
    mb = eb[eb["unit"].isin(both)].groupby("unit")[["win_share", "vp"]].mean()
    d = (ma - mb).reindex(net.index.union(ma.index))
    d["net"] = net.reindex(d.index).fillna(0)
    return d


def _paired_t(d: pd.Series):
    """(n, mean, t, p, lo, hi) of a one-sample t-test of the differences ``d``."""
    d = d.dropna()
    n = len(d)
    if n < 2:
        return n, float(d.mean()) if n else np.nan, np.nan, np.nan, np.nan, np.nan
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0:
        t, p = (0.0, 1.0) if mean == 0 else (math.copysign(math.inf, mean), 0.0)
        return n, mean, t, p, mean, mean
    se = sd / math.sqrt(n)
    t = mean / se
    q = float(t_quantile(n))
    return n, mean, t, float(2 * stats.t.sf(abs(t), n - 1)), mean - q * se, mean + q * se


def significance(players: pd.DataFrame, a=None, b=None, standings: pd.DataFrame | None = None,
                 deal: str | None = "deal_id") -> pd.DataFrame:
    """Tests of whether entrants ``a`` and ``b`` differ (default: the top two
    of ``standings``, computed if not given). One row per test with columns
    test, a, b, n (units used), estimate, statistic, p_value (two-sided),
    ci_lo, ci_hi (95%, for the paired tests). The unit is the deal (the
    ``deal`` column; the game when absent): every unit where both sat.

    * ``sign test (games)``: games where one finished ahead on net (over seat
      pairs when an entrant holds several seats; ties dropped); estimate =
      share won by ``a``; statistic = count; exact binomial p against 1/2.
    * ``sign test (deals)``: the same with the seatings of each deal summed.
    * ``paired t-test (win rate)``: per unit, a's mean win share minus b's;
      estimate = mean difference (the win-rate difference), t-test over units.
    * ``paired t-test (VP)``: the same for mean VP.
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
    unit = deal if deal is not None and deal in players.columns else "game"
    rows = []

    def sign_row(name, net):
        net = net[net != 0]
        k, m = int((net > 0).sum()), int(len(net))
        p = stats.binomtest(k, m, 0.5).pvalue if m else np.nan
        rows.append((name, a, b, m, k / m if m else np.nan, float(k), float(p), np.nan, np.nan))

    sign_row("sign test (games)", _per_unit(players, a, b, "game")["net"])
    per = _per_unit(players, a, b, unit)
    if unit != "game":
        sign_row("sign test (deals)", per["net"])
    for name, col in (("paired t-test (win rate)", "win_share"), ("paired t-test (VP)", "vp")):
        rows.append((name, a, b) + _paired_t(per[col]))
    return pd.DataFrame(rows, columns=["test", "a", "b", "n", "estimate", "statistic", "p_value",
                                       "ci_lo", "ci_hi"])
