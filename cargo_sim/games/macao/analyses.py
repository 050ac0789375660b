"""Macao's analyses: pandas tables from the result tables and the event log.

``run_all(t)`` takes a Tables-like bundle (``games``, ``players``, optional
``events``, ``rules``; an ``n_players`` column on each, as ``analyses.data.combine``
makes) and returns ``{name: DataFrame}``; the report (``report.py`` here) lays
them out and ``figures.py`` draws them. Nothing here draws.

Statistics match the design: a seat's advantage is measured only where every seat
holds the same bot (then seats are exchangeable and a seat difference is the seat's);
with different bots in fixed seats, seat and bot are confounded, so only the bots
are compared. Rates over several players of one game (holders of a card, winners'
dice) have intervals clustered by game (``core.stats.clustered_mean`` / ``_diff``):
the players of one game share its deal, and exactly one of them wins.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.seat_stats import (cm_row, event_players, events_of, seat_chi2, win_rate_by_bot,
                               win_rate_by_seat)
from ...core.stats import clustered_diff
from . import enums as E

READS = "results"            # analyses.games.pipelines: this pipeline reads result tables

# the score's sources, as the players table records them (vp is their sum)
SOURCES = (("delivery_vp", "deliveries"), ("tribute_vp", "tribute"), ("card_vp", "card effects"),
           ("end_vp", "end-game cards"), ("group_vp", "city group"), ("penalty", "penalties"))


_EVENT_COLUMNS = ("game", "round", "seat", "a", "b", "c", "points", "coins", "n_players")


def _events(t, action: str) -> pd.DataFrame:
    return events_of(t, action, _EVENT_COLUMNS)


_event_players, _cm = event_players, cm_row


# ---- balance (the seats' and bots' tables are core.seat_stats's) -----------------------
def score_breakdown(t, group_points: int) -> pd.DataFrame:
    """Mean points per player-game from each source, winners and the others apart
    (penalties negative); the sources sum to the final score."""
    p = t.players.assign(group_vp=t.players["group"] * group_points, penalty=-t.players["penalty_vp"],
                         who=np.where(t.players["won"] > 0, "winners", "others"))
    rows = []
    for (n, who), d in p.groupby(["n_players", "who"], observed=True):
        for col, label in SOURCES:
            rows.append(_cm(d[col], d["game"], n_players=int(n), who=who, source=label))
        rows.append(_cm(d["vp"], d["game"], n_players=int(n), who=who, source="total"))
    return pd.DataFrame(rows)


# ---- cards ---------------------------------------------------------------------------
def cards(t) -> pd.DataFrame:
    """Per player count and card: copies drafted per game, the share completed, and the
    win rate of the players who drafted it against the others of the same games
    (event subsample; the difference's interval clustered by game). Observational:
    a card goes with the game its drafter played."""
    dr = _events(t, "draft")
    dr = dr[dr["a"] >= 0]
    comp = _events(t, "complete")
    ep = _event_players(t)
    names = t.rules.card_names if t.rules is not None else []
    rows = []
    for n, pn in ep.groupby("n_players"):
        games = pn["game"].nunique()
        dn, cn = dr[dr["n_players"] == n], comp[comp["n_players"] == n]
        held = dn.groupby(["a", "game", "seat"]).size().rename("k").reset_index()
        done = cn.groupby("a").size()
        pn = pn.sort_values(["game", "seat"])
        gcode = pd.factorize(pn["game"])[0]
        row_of = pd.Series(np.arange(len(pn)), index=pd.MultiIndex.from_arrays([pn["game"], pn["seat"]]))
        win = pn["win_share"].to_numpy(dtype=float)
        held["row"] = row_of.reindex(pd.MultiIndex.from_arrays([held["game"], held["seat"]])).to_numpy()
        for card, h in held.groupby("a"):
            mark = np.zeros(len(pn), bool)
            mark[h["row"].to_numpy(dtype=np.int64)] = True
            d = clustered_diff(win, mark, gcode)
            rows.append({"n_players": int(n), "card": names[card] if card < len(names) else str(card),
                         "kind": _kind(t.rules, card), "n": games, "drafted": int(h["k"].sum()),
                         "per_game": h["k"].sum() / games,            # copies (an office has several)
                         "completed_share": float(done.get(card, 0)) / h["k"].sum(),
                         "n_holders": d["n1"], "holder_win_rate": float(win[mark].mean()),
                         "n_others": d["n0"], "other_win_rate": float(win[~mark].mean()),
                         "diff": d["diff"], "diff_ci_lo": d["ci_lo"], "diff_ci_hi": d["ci_hi"]})
    out = pd.DataFrame(rows)
    return out.sort_values(["n_players", "diff"], ascending=[True, False]) if len(out) else out


def _kind(rules, card: int) -> str:
    if rules is None:
        return ""
    names = rules.card_names
    return str(rules["card." + names[card] + ".kind"]) if card < len(names) else ""


# ---- dice and the wind rose ----------------------------------------------------------
def _lots(t) -> pd.DataFrame:
    """Every die chosen (two a player per round): colour, pips (the rose side its cubes
    land on), cubes, and whether the chooser won."""
    lots = _events(t, "lot")
    ep = _event_players(t)[["game", "seat", "won"]]
    return lots.merge(ep, on=["game", "seat"], how="inner").rename(
        columns={"a": "colour", "b": "pips", "c": "cubes"})


def dice_by_round(t) -> pd.DataFrame:
    """Mean pips of the dice chosen, by round, winners and the others apart
    (interval clustered by game)."""
    lots = _lots(t)
    rows = []
    for (n, rnd, won), d in lots.groupby(["n_players", "round", "won"]):
        rows.append(_cm(d["pips"], d["game"], n_players=int(n), round=int(rnd),
                        who="winners" if won else "others"))
    return pd.DataFrame(rows)


def dice_colours(t) -> pd.DataFrame:
    """Per colour: the share of dice chosen of that colour, winners and the others
    apart, and the mean pips chosen of it (interval clustered by game)."""
    lots = _lots(t)
    colours = t.rules.colours if t.rules is not None else []
    rows = []
    for (n, won), d in lots.groupby(["n_players", "won"]):
        for c in range(E.NC):
            r = _cm((d["colour"] == c).astype(float), d["game"], "share", n_players=int(n),
                    who="winners" if won else "others",
                    colour=colours[c] if c < len(colours) else str(c))
            r["mean_pips"] = float(d.loc[d["colour"] == c, "pips"].mean())
            rows.append(r)
    return pd.DataFrame(rows)


def rose_waste(t) -> pd.DataFrame:
    """Per player count and bot: cubes gained, cubes lost unspent at a round's end, the
    share lost, rounds with no cube at the arrow (each a penalty marker) and the final
    penalty points, per player-game (interval clustered by game)."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = _cm(d["wasted"], d["game"], n_players=int(n), bot=str(bot))
        rows.append({**r, "cubes": float(d["cubes"].mean()),
                     "wasted_share": float(d["wasted"].sum() / max(d["cubes"].sum(), 1)),
                     "zero_cube": float(d["zero_cube"].mean()), "markers": float(d["markers"].mean()),
                     "penalty_vp": float(d["penalty_vp"].mean())})
    return pd.DataFrame(rows)


def waste_by_round(t) -> pd.DataFrame:
    """Cubes lost unspent per player by round, and the share of players with no cube
    at the arrow (event subsample; interval clustered by game)."""
    ep = _event_players(t)
    if not len(ep):
        return pd.DataFrame()
    rounds = int(t.rules["rounds"]) if t.rules is not None else 12
    rows = []
    for n, pn in ep.groupby("n_players"):
        base = pn[["game", "seat"]]
        for what, action, col in (("wasted", "wasted", "a"), ("zero_cube", "zero_cubes", None)):
            ev = _events(t, action)
            ev = ev[ev["n_players"] == n]
            for rnd in range(1, rounds + 1):
                e = ev[ev["round"] == rnd]
                v = e.groupby(["game", "seat"])[col].sum() if col else e.groupby(["game", "seat"]).size()
                vals = base.join(v.rename("v"), on=["game", "seat"])["v"].fillna(0)
                rows.append(_cm(vals, base["game"], n_players=int(n), round=rnd, measure=what))
    return pd.DataFrame(rows)


def waste_vs_win(t) -> pd.DataFrame:
    """Win rate by cubes wasted in the game (tertile bins per player count)."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        try:
            bins = pd.qcut(d["wasted"], 3, duplicates="drop")
        except ValueError:
            continue
        for b, e in d.groupby(bins, observed=True):
            r = _cm(e["win_share"], e["game"], "win_rate", n_players=int(n),
                    wasted=f"{int(np.ceil(b.left + 1e-9))}-{int(b.right)}")
            rows.append(r)
    return pd.DataFrame(rows)


# ---- wall and turn order -------------------------------------------------------------
def wall_rank_win(t) -> pd.DataFrame:
    """Win rate by the player's place on the city wall at the end (1 = furthest; equal
    positions share the better place), interval clustered by game."""
    p = t.players.assign(wall_place=t.players.groupby("game")["wall"].rank(ascending=False, method="min"))
    rows = []
    for (n, w), d in p.groupby(["n_players", "wall_place"]):
        r = _cm(d["win_share"], d["game"], "win_rate", n_players=int(n), wall_place=int(w))
        rows.append({**r, "mean_wall": float(d["wall"].mean())})
    return pd.DataFrame(rows)


def turn_order_win(t) -> pd.DataFrame:
    """Win rate by rounds played first in turn order (the wall sets the order; read from
    the order of the dice choices in each round's log; event subsample)."""
    lots = _events(t, "lot")
    if not len(lots):
        return pd.DataFrame()
    first = lots.drop_duplicates(["game", "round"])           # the log keeps turn order
    firsts = first.groupby(["game", "seat"]).size().rename("first_rounds")
    ep = _event_players(t).join(firsts, on=["game", "seat"])
    ep["first_rounds"] = ep["first_rounds"].fillna(0).astype(int)
    rows = []
    for n, d in ep.groupby("n_players"):
        bins = pd.cut(d["first_rounds"], [-1, 0, 2, 4, 6, 100], labels=["0", "1-2", "3-4", "5-6", "7+"])
        for b, e in d.groupby(bins, observed=True):
            r = _cm(e["win_share"], e["game"], "win_rate", n_players=int(n), first_rounds=str(b))
            rows.append(r)
    return pd.DataFrame(rows)


# ---- the city ------------------------------------------------------------------------
def city(t, group_points: int) -> pd.DataFrame:
    """Per player count and bot: quarters taken, the largest connected group and its
    points, per player-game (interval of the group clustered by game)."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = _cm(d["group"], d["game"], n_players=int(n), bot=str(bot))
        rows.append({**r, "quarters": float(d["quarters"].mean()),
                     "group_share": float(d["group"].sum() / max(d["quarters"].sum(), 1)),
                     "group_vp": float(d["group"].mean() * group_points)})
    return pd.DataFrame(rows)


def group_win(t) -> pd.DataFrame:
    """Win rate by the size of the player's largest connected group."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        top = max(int(d["group"].quantile(0.95)), 1)
        g = d["group"].clip(upper=top)
        for v, e in d.groupby(g):
            r = _cm(e["win_share"], e["game"], "win_rate", n_players=int(n),
                    group=f"{int(v)}+" if v == top and (d["group"] > top).any() else str(int(v)))
            rows.append({**r, "size": int(v)})
    return pd.DataFrame(rows)


# ---- ship, deliveries, tribute ---------------------------------------------------------
def deliveries(t) -> pd.DataFrame:
    """Deliveries per game by port and good, and their mean points (event subsample)."""
    ev = _events(t, "deliver")
    ep = _event_players(t)
    if not len(ev):
        return pd.DataFrame()
    ports = t.rules.port_names if t.rules is not None else []
    goods = t.rules.goods if t.rules is not None else []
    rows = []
    for (n, port, good), d in ev.groupby(["n_players", "a", "b"]):
        games = ep[ep["n_players"] == n]["game"].nunique()
        rows.append({"n_players": int(n), "port": ports[port] if port < len(ports) else str(port),
                     "good": goods[good] if good < len(goods) else str(good), "n": games,
                     "count": len(d), "per_game": len(d) / games, "mean_points": float(d["points"].mean())})
    return pd.DataFrame(rows)


def tribute(t) -> pd.DataFrame:
    """Per player count and bot: tributes bought per player-game, coins paid for them
    and points they brought (event subsample), points per coin."""
    ev = _events(t, "tribute")
    ep = _event_players(t)
    rows = []
    for (n, bot), d in ep.groupby(["n_players", "bot"], observed=True):
        e = ev[ev["n_players"] == n].merge(d[["game", "seat"]], on=["game", "seat"])
        coins, pts = float(e["a"].sum()), float(e["b"].sum())
        r = _cm(d["tribute_paid"], d["game"], n_players=int(n), bot=str(bot))
        rows.append({**r, "coins_per_tribute": coins / len(e) if len(e) else np.nan,
                     "points_per_tribute": pts / len(e) if len(e) else np.nan,
                     "points_per_coin": pts / coins if coins else np.nan})
    return pd.DataFrame(rows)


def tribute_win(t) -> pd.DataFrame:
    """Win rate by tributes bought in the game (all games; clustered by game)."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        k = d["tribute_paid"].clip(upper=3)
        for v, e in d.groupby(k):
            r = _cm(e["win_share"], e["game"], "win_rate", n_players=int(n), tributes=f"{int(v)}+" if v == 3 else str(int(v)))
            rows.append({**r, "mean_tribute_vp": float(e["tribute_vp"].mean())})
    return pd.DataFrame(rows)


def run_all(t) -> dict:
    """Every table of the Macao report (names as in report.SECTIONS)."""
    gp = int(t.rules["group_points"]) if t.rules is not None else 2
    seats = win_rate_by_seat(t)
    out = {"win_rate_by_seat": seats, "seat_chi2": seat_chi2(seats) if len(seats) else pd.DataFrame(),
           "win_rate_by_bot": win_rate_by_bot(t), "score_breakdown": score_breakdown(t, gp),
           "rose_waste": rose_waste(t), "waste_vs_win": waste_vs_win(t), "wall_rank_win": wall_rank_win(t),
           "city": city(t, gp), "group_win": group_win(t), "tribute_win": tribute_win(t)}
    if t.events is not None and len(t.events):
        out.update({"cards": cards(t), "dice_by_round": dice_by_round(t), "dice_colours": dice_colours(t),
                    "waste_by_round": waste_by_round(t), "turn_order_win": turn_order_win(t),
                    "deliveries": deliveries(t), "tribute": tribute(t)})
    # each table's basis: the games (per player count) its rows come from, for the figures' titles
    every = t.games.groupby("n_players")["game"].nunique()
    logged = _event_players(t).groupby("n_players")["game"].nunique()
    for name, df in out.items():
        if len(df) and "n_players" in df.columns:
            df["games"] = df["n_players"].map(logged if name in EVENT_TABLES else every).astype("int64")
    return out


EVENT_TABLES = {"cards", "dice_by_round", "dice_colours", "waste_by_round", "turn_order_win", "deliveries",
                "tribute"}


# ---- the robustness study's headlines (analyses.robustness.study_hooks) ------------------
def robustness_measure(rules, games: int, design) -> dict:
    """Headline -> (conclusion, values, 95 % half-widths) for one rules variant, all on the
    same seed (common random numbers): ``seat.N`` the seat that wins most among N
    ``expert`` bots; ``source.N`` the winners' largest source of points there; ``ranking``
    the order of ROBUSTNESS["field"] in a seat-rotated 4-player field, ``leader`` its first."""
    from ...core.seat_stats import field_headlines, seat_headline, source_headline
    from ...runners.api import simulate
    kw = dict(seed=design.seed, rules=rules, workers=design.workers, progress=False, game="macao")
    out = {}
    for n in design.player_counts:
        p = simulate(games, [ROBUSTNESS["mirror"]] * n, **kw).players
        out[f"seat.{n}"] = seat_headline(p, games)
        w = p[p["won"] > 0].assign(group_vp=lambda d: d["group"] * int(rules["group_points"]))
        out[f"source.{n}"] = source_headline(w, [(c, label) for c, label in SOURCES if c != "penalty"])
    # every strategy in every seat once
    out.update(field_headlines(lambda seats: simulate(games, seats, **kw).players, ROBUSTNESS["field"], games))
    return out


ROBUSTNESS = {
    "measure": robustness_measure, "mirror": "expert", "field": ("expert", "greedy", "builder", "shipper"),
    "headlines": "Headlines: `seat.N` — the seat that wins most among N identical `expert` bots; "
                 "`source.N` — the winners' largest source of points in those games; `ranking` — the "
                 "order of expert, greedy, builder, shipper in a seat-rotated 4-player field (each "
                 "strategy in each seat once); `leader` — the first of that order.",
}
