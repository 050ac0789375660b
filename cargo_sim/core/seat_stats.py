"""Tables every seat game's analyses build the same way from its result tables (a
Tables-like bundle: ``games``, ``players``, optional ``events``, each with an
``n_players`` column): the event log's rows of one action and its subsample of
players, a clustered mean as a table row, and the seat balance, measured only where
one bot holds every seat (then seats are exchangeable and a seat difference is the
seat's); the holders of a trait against the other players of their games, each table's
basis for the figures' titles, and the robustness study's seat, source and field
headlines (the winners' largest source of points, the ranking of a seat-rotated
field). Each game's own tables live in its ``analyses.py``; these are the shared ones.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import chi2_equal, clustered_diff, clustered_mean, proportion


def events_of(t, action: str, columns=("game", "round", "seat", "a", "b", "c", "n_players")) -> pd.DataFrame:
    """The event log's rows of ``action`` (an empty frame of ``columns`` without a log)."""
    ev = t.events
    if ev is None or not len(ev):
        return pd.DataFrame(columns=list(columns))
    return ev[ev["action"] == action]


def event_players(t) -> pd.DataFrame:
    """The players of the games that kept an event log (the subsample)."""
    if t.events is None or not len(t.events):
        return t.players.iloc[:0]
    return t.players[t.players["game"].isin(t.events["game"].unique())]


def cm_row(values, clusters, name: str = "mean", **extra) -> dict:
    """The clustered mean of ``values`` as a row: ``extra``, n, ``name``, ci_lo, ci_hi."""
    r = clustered_mean(values, clusters)
    return {**extra, "n": r["n"], name: r["mean"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"]}


def same_bot_counts(players: pd.DataFrame) -> set:
    """Player counts whose every seat holds the same bot (seats exchangeable)."""
    k = players.groupby("n_players", observed=True)["bot"].nunique()
    return {int(n) for n, v in k.items() if v == 1}


def win_rate_by_seat(t) -> pd.DataFrame:
    """Per player count and seat: the win rate (shared wins split; Wilson interval,
    one observation per game and seat), only where one bot holds every seat."""
    p = t.players[t.players["n_players"].isin(same_bot_counts(t.players))]
    rows = []
    for (n, seat), d in p.groupby(["n_players", "seat"], observed=True):
        pr = proportion(d["win_share"].sum(), len(d), "win_rate")
        rows.append({"n_players": int(n), "seat": int(seat), "bot": str(d["bot"].iloc[0]),
                     "n": int(pr["n"]), "win_rate": float(pr["win_rate"]),
                     "ci_lo": float(pr["ci_lo"]), "ci_hi": float(pr["ci_hi"]), "expected": 1 / n})
    return pd.DataFrame(rows)


def seat_chi2(seats: pd.DataFrame) -> pd.DataFrame:
    """Per player count: the chi-square test of equal win chances of ``win_rate_by_seat``."""
    rows = []
    for n, d in seats.groupby("n_players"):
        wins = (d["win_rate"] * d["n"]).to_numpy()
        rows.append({"n_players": int(n), "n": int(d["n"].iloc[0]), **chi2_equal(wins)})
    return pd.DataFrame(rows)


def win_rate_by_bot(t) -> pd.DataFrame:
    """Per player count and bot over all its seats: win rate, interval clustered by game."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = cm_row(d["win_share"], d["game"], "win_rate", n_players=int(n), bot=str(bot))
        rows.append({**r, "mean_vp": float(d["vp"].mean())})
    return pd.DataFrame(rows)


def win_rate_by(players: pd.DataFrame, col: str, top: int, label: str | None = None) -> pd.DataFrame:
    """Per player count: the win rate by the whole-number column ``col``, values above
    ``top`` pooled as ``top+`` (interval clustered by game), and the column's mean."""
    rows = []
    for n, d in players.groupby("n_players"):
        k = d[col].clip(upper=top)
        for v, e in d.groupby(k):
            name = f"{int(v)}+" if v == top and (d[col] > top).any() else str(int(v))
            r = cm_row(e["win_share"], e["game"], "win_rate", n_players=int(n), **{label or col: name})
            rows.append({**r, "value": int(v)})
    return pd.DataFrame(rows)


def holders_vs_others(players: pd.DataFrame, held: pd.DataFrame, key: str = "a") -> list[dict]:
    """For each value of ``held[key]`` (rows: game, seat, key; a player may hold a value
    several times): the win rate of the players holding it against the other players of
    the same ``players`` (one player count), the difference's interval clustered by game.
    Observational: holding goes with the rest of the holder's game."""
    p = players.sort_values(["game", "seat"])
    gcode = pd.factorize(p["game"])[0]
    row_of = pd.Series(np.arange(len(p)), index=pd.MultiIndex.from_arrays([p["game"], p["seat"]]))
    win = p["win_share"].to_numpy(dtype=float)
    rows = row_of.reindex(pd.MultiIndex.from_arrays([held["game"], held["seat"]])).to_numpy()
    held = held.assign(row=rows).dropna(subset=["row"])
    out = []
    for value, h in held.groupby(key):
        mark = np.zeros(len(p), bool)
        mark[h["row"].to_numpy(dtype=np.int64)] = True
        d = clustered_diff(win, mark, gcode)
        out.append({key: value, "count": len(h), "n_holders": d["n1"],
                    "holder_win_rate": float(win[mark].mean()), "n_others": d["n0"],
                    "other_win_rate": float(win[~mark].mean()) if d["n0"] else np.nan,
                    "diff": d["diff"], "diff_ci_lo": d["ci_lo"], "diff_ci_hi": d["ci_hi"]})
    return out


def label_games(out: dict, t, event_tables: set) -> dict:
    """Each table's basis, for the figures' titles: a ``games`` column with the games (per
    player count) its rows come from, the event subsample's for ``event_tables``."""
    every = t.games.groupby("n_players")["game"].nunique()
    logged = event_players(t).groupby("n_players")["game"].nunique()
    for name, df in out.items():
        if len(df) and "n_players" in df.columns:
            df["games"] = df["n_players"].map(logged if name in event_tables else every).astype("int64")
    return out


# ---- the robustness study's headlines (a game's ROBUSTNESS["measure"]; analyses.robustness)
def half_width(p, n) -> float:
    """Half-width of the normal 95 % interval of a proportion p of n (analyses.stats.half_width)."""
    return 1.96 * float(np.sqrt(max(p * (1 - p), 1e-12) / max(n, 1)))


def seat_headline(players: pd.DataFrame, games: int) -> tuple:
    """(the seat that wins most, win rate by seat, half-widths) of a mirror table."""
    wr = players.groupby("seat")["win_share"].mean()
    return (f"seat {int(wr.idxmax())}", {f"seat {s}": float(x) for s, x in wr.items()},
            {f"seat {s}": half_width(x, games) for s, x in wr.items()})


def winners_largest_source(players: pd.DataFrame, sources) -> tuple:
    """(largest, means, 95 % half-widths) of the winners' mean points from each source
    (``sources``: (players column, label) pairs) in a players table."""
    w = players[players["won"] > 0]
    means = {label: float(w[col].mean()) for col, label in sources}
    hws = {label: 1.96 * float(w[col].std(ddof=1)) / np.sqrt(max(len(w), 1)) for col, label in sources}
    return max(means, key=means.get), means, hws


def rotated_ranking(simulate, games: int, field, **kw) -> dict:
    """``ranking`` (the bots of ``field`` by win share, " > "-joined) and ``leader`` (its
    first), each with the shares and their 95 % half-widths, from one table of
    len(field) seats per rotation: every bot in every seat once, ``games`` each."""
    share = dict.fromkeys(field, 0.0)
    for k in range(len(field)):
        seats = list(field[k:] + field[:k])
        wr = simulate(games, seats, **kw).players.groupby("seat")["win_share"].mean()
        for bot, x in zip(seats, wr):
            share[bot] += x / len(field)
    order = sorted(field, key=lambda b: -share[b])
    hws = {b: half_width(x, len(field) * games) for b, x in share.items()}
    return {"ranking": (" > ".join(order), share, hws), "leader": (order[0], share, hws)}


def score_breakdown(players: pd.DataFrame, sources) -> pd.DataFrame:
    """Mean points per player-game from each source (``sources``: (players column,
    label) pairs that sum to the score) and the total, winners and the others apart,
    per player count; intervals clustered by game."""
    p = players.assign(who=np.where(players["won"] > 0, "winners", "others"))
    rows = []
    for (n, who), d in p.groupby(["n_players", "who"], observed=True):
        for col, label in sources:
            rows.append(cm_row(d[col], d["game"], n_players=int(n), who=who, source=label))
        rows.append(cm_row(d["vp"], d["game"], n_players=int(n), who=who, source="total"))
    return pd.DataFrame(rows)


# ---- the report highlights every seat game shares (a game's report.highlights) -------------
def pct(x) -> str:
    return f"{100 * x:.1f}%"


def seat_highlights(w) -> list[str]:
    """A line per player count from a ``win_rate_by_seat`` table (mirrors only): the best
    seat's win rate, its interval and the games."""
    out = []
    if w is None or not len(w):
        return out
    for n, d in w.groupby("n_players"):
        top = d.sort_values("win_rate").iloc[-1]
        out.append(f"{n} players ({top['bot']} in every seat): best seat {int(top['seat'])} wins "
                   f"{pct(top['win_rate'])} [{pct(top['ci_lo'])}, {pct(top['ci_hi'])}] of "
                   f"{int(top['n']):,} games (equal share {pct(1 / n)})")
    return out


def source_highlights(s) -> list[str]:
    """The winners' largest source of points per player count, from a ``score_breakdown``
    table (one line, or none without the table)."""
    if s is None or not len(s):
        return []
    parts = []
    for n, d in s[(s["who"] == "winners") & (s["source"] != "total")].groupby("n_players"):
        top = d.sort_values("mean").iloc[-1]
        parts.append(f"{int(n)}p {top['source']} {top['mean']:.1f} [{top['ci_lo']:.1f}, {top['ci_hi']:.1f}]")
    return ["Winners' largest source of points (mean per game): " + ", ".join(parts)]
