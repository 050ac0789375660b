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

from ...core import seat_stats
from ...core.seat_stats import (cm_row, event_players, events_of, rotated_ranking, seat_chi2,
                               win_rate_by_bot, win_rate_by_seat, winners_largest_source)
from ...core.stats import clustered_diff, t_quantile
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
    p = t.players.assign(group_vp=t.players["group"] * group_points, penalty=-t.players["penalty_vp"])
    return seat_stats.score_breakdown(p, SOURCES)


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


# ---- the tribute's weight and the penalties' causes ------------------------------------
def _ratio(x, y, clusters) -> dict:
    """sum(x) / sum(y) with rows in ``clusters`` (the players of a game): the linearised
    se sqrt(C/(C-1) sum_c (X_c - r Y_c)^2) / sum(y) over the C clusters' sums, t(0.975, C-1)
    (core.stats.clustered_mean with y in place of the row count)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    codes = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
    c = int(codes.max()) + 1 if len(codes) else 0
    if c == 0 or y.sum() <= 0:
        return {"share": np.nan, "ci_lo": np.nan, "ci_hi": np.nan}
    r = float(x.sum() / y.sum())
    if c < 2:
        return {"share": r, "ci_lo": np.nan, "ci_hi": np.nan}
    X, Y = np.bincount(codes, x, c), np.bincount(codes, y, c)
    half = float(t_quantile(c)) * float(np.sqrt(c / (c - 1) * np.sum((X - r * Y) ** 2)) / y.sum())
    return {"share": r, "ci_lo": r - half, "ci_hi": r + half}


def tribute_share(t) -> pd.DataFrame:
    """Per player count and bot: the share of the final score (points after penalties,
    summed over the players) that came from the tribute, whose numbers (every card's
    tribute coins and points) are estimates; winners and every player."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        for who, e in (("winners", d[d["won"] > 0]), ("all", d)):
            if len(e):
                rows.append({"n_players": int(n), "bot": str(bot), "who": who, "n": len(e),
                             "tribute_vp": float(e["tribute_vp"].mean()), "vp": float(e["vp"].mean()),
                             **_ratio(e["tribute_vp"], e["vp"], e["game"])})
    return pd.DataFrame(rows)


# the causes of penalty points (players columns; they sum to penalty_vp): a penalty marker
# for each round without a cube and each 6th tableau card, markers that did not count (none
# left, penalty_without_marker false: negative), tableau_penalty per card left at the end
PENALTY_CAUSES = ("zero-cube rounds", "6th tableau card", "markers not counted", "tableau cards left")


def penalty_causes(players: pd.DataFrame, marker_penalty: int, sample: str) -> pd.DataFrame:
    """Per player count and bot: penalty points lost per player-game by cause (positive:
    points lost; the causes sum to ``total``), how often each happened per player-game
    and its share of the total."""
    mp = marker_penalty
    rows = []
    for (n, bot), d in players.groupby(["n_players", "bot"], observed=True):
        counted = d["markers"] - d["zero_cube"] - d["overflow"]
        causes = {"zero-cube rounds": (d["zero_cube"] * mp, d["zero_cube"]),
                  "6th tableau card": (d["overflow"] * mp, d["overflow"]),
                  "markers not counted": (counted * mp, counted),
                  "tableau cards left": (d["penalty_vp"] - d["markers"] * mp, d["tableau_left"]),
                  "total": (d["penalty_vp"], d["markers"] + d["tableau_left"])}
        total = float(d["penalty_vp"].mean())
        for cause, (pts, k) in causes.items():
            rows.append({**_cm(pts, d["game"], n_players=int(n), bot=str(bot), sample=sample, cause=cause),
                         "per_game": float(k.mean()), "share": float(pts.mean()) / total if total else np.nan,
                         "games": int(d["game"].nunique())})
    return pd.DataFrame(rows)


def penalty_play(players: pd.DataFrame, bot: str, marker_penalty: int) -> pd.DataFrame:
    """Per player count and cause, in the same games: ``bot``'s penalty points per
    player-game minus its opponents' (interval clustered by game): a cause a stronger
    player avoids comes from weak play, one it takes as well from the rules."""
    mp = marker_penalty
    rows = []
    for n, d in players.groupby("n_players"):
        mine = d["bot"].astype(str).isin({bot, bot.split("?")[0]}).to_numpy()   # (players name the family)
        won = float(d.loc[mine, "win_share"].mean())      # stronger only if it wins the most
        causes = {"zero-cube rounds": d["zero_cube"] * mp, "6th tableau card": d["overflow"] * mp,
                  "markers not counted": (d["markers"] - d["zero_cube"] - d["overflow"]) * mp,
                  "tableau cards left": d["penalty_vp"] - d["markers"] * mp, "total": d["penalty_vp"]}
        for cause, pts in causes.items():
            r = clustered_diff(pts.to_numpy(float), mine, d["game"].to_numpy())
            rows.append({"n_players": int(n), "cause": cause, "bot": bot, "n": int(mine.sum()),
                         "bot_mean": float(pts[mine].mean()), "others_mean": float(pts[~mine].mean()),
                         "diff": r["diff"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"],
                         "win_share": won,
                         "reading": _reading(float(pts[mine].mean()), float(pts[~mine].mean()), r)
                         if won > 1 / n else "no reading (it did not win more than its share here)",
                         "games": int(d["game"].nunique())})
    return pd.DataFrame(rows)


def _reading(mine: float, others: float, r: dict) -> str:
    """Where a cause's penalty comes from, by the stronger player's difference."""
    if max(mine, others) < 0.05:
        return "rare"
    if r["ci_hi"] < 0:
        return "weak play (the stronger player avoids some)"
    if r["ci_lo"] > 0:
        return "the stronger player's choice (it takes more)"
    if mine >= 0.5 * others:
        return "the rules (the stronger player takes it too)"
    return "undecided (too few games)"


# The search sample the report plays itself (the penalties of a stronger player than the
# report's bots): 2 players, the searcher against expert, seat-rotated, on the report's rules.
# About 3 minutes on one core (docs/macao_study.md), so only a report of at least
# min_report_games games plays it (a smaller one would spend most of its time there);
# games = 0 leaves it out.
SEARCH_SAMPLE = {"bot": "ismcts?iterations=1000", "against": "expert", "games": 12, "min_report_games": 1000}


def search_sample(rules, seed: int, games: int | None = None) -> pd.DataFrame:
    """The players of SEARCH_SAMPLE's games (half in each seating), with n_players."""
    from ...runners.api import simulate
    games = SEARCH_SAMPLE["games"] if games is None else games
    bot, other = SEARCH_SAMPLE["bot"], SEARCH_SAMPLE["against"]
    parts = []
    for k, seats in enumerate(([bot, other], [other, bot])):
        g = games // 2 + (games % 2 if k == 0 else 0)
        if g:
            p = simulate(g, seats, seed=seed + 7919 + k, rules=rules, workers=1, progress=False,
                         game="macao").players
            parts.append(p.assign(game=p["game"].astype("int64") + k * (1 << 32), n_players=2))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def run_all(t, seed: int = 0) -> dict:
    """Every table of the Macao report (names as in report.SECTIONS); ``seed`` plays the
    search sample (SEARCH_SAMPLE)."""
    gp = int(t.rules["group_points"]) if t.rules is not None else 2
    seats = win_rate_by_seat(t)
    out = {"win_rate_by_seat": seats, "seat_chi2": seat_chi2(seats) if len(seats) else pd.DataFrame(),
           "win_rate_by_bot": win_rate_by_bot(t), "score_breakdown": score_breakdown(t, gp),
           "rose_waste": rose_waste(t), "waste_vs_win": waste_vs_win(t), "wall_rank_win": wall_rank_win(t),
           "city": city(t, gp), "group_win": group_win(t), "tribute_win": tribute_win(t),
           "tribute_share": tribute_share(t)}
    mp = int(t.rules["marker_penalty"]) if t.rules is not None else 3
    pen = [penalty_causes(t.players, mp, "report games")]
    if t.rules is not None and SEARCH_SAMPLE["games"] > 0 and len(t.games) >= SEARCH_SAMPLE["min_report_games"]:
        sample = search_sample(t.rules, seed)
        pen.append(penalty_causes(sample, mp, f"search sample ({SEARCH_SAMPLE['games']} games)"))
        out["penalty_play"] = penalty_play(sample, SEARCH_SAMPLE["bot"], mp)
    out["penalties"] = pd.concat(pen, ignore_index=True)
    if t.events is not None and len(t.events):
        out.update({"cards": cards(t), "dice_by_round": dice_by_round(t), "dice_colours": dice_colours(t),
                    "waste_by_round": waste_by_round(t), "turn_order_win": turn_order_win(t),
                    "deliveries": deliveries(t), "tribute": tribute(t)})
    # each table's basis: the games (per player count) its rows come from, for the figures' titles
    every = t.games.groupby("n_players")["game"].nunique()
    logged = _event_players(t).groupby("n_players")["game"].nunique()
    for name, df in out.items():
        if len(df) and "n_players" in df.columns and "games" not in df.columns:   # (the penalties' own)
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
    from ...core.seat_stats import seat_headline
    from ...runners.api import simulate
    kw = dict(seed=design.seed, rules=rules, workers=design.workers, progress=False, game="macao")
    out = {}
    for n in design.player_counts:
        p = simulate(games, [ROBUSTNESS["mirror"]] * n, **kw).players
        out[f"seat.{n}"] = seat_headline(p, games)
        w = p.assign(group_vp=lambda d: d["group"] * int(rules["group_points"]))
        out[f"source.{n}"] = winners_largest_source(w, [(c, lab) for c, lab in SOURCES if c != "penalty"])
    out.update(rotated_ranking(simulate, games, ROBUSTNESS["field"], **kw))   # every strategy in every seat once
    return out


# the unknowns the robustness report names (analyses.robustness_report: ROBUSTNESS["notes"]):
# the cube supply's option and the tribute's estimates, a parameter or a --group of them
DEPENDENCE = (
    ("The cube supply", "a colour can run out, or (its range) the supply is unlimited",
     lambda p: p == "unlimited_cubes"),
    ("The tribute's estimates", "every card's tribute coins and points",
     lambda p: p in ("tribute_coins", "tribute_points") or p.endswith((".tribute_coins", ".tribute_points"))),
)


def robustness_notes(res) -> list[str]:
    """Which headlines depend on the cube supply option and on the tribute estimates, read
    from the study's one-at-a-time table (``res["oat"]``) and its defaults (``res["base"]``)."""
    oat, base = res["oat"], res["base"]
    out = []
    for title, what, match in DEPENDENCE:
        rows = oat[oat["parameter"].map(match)] if len(oat) else oat
        if not len(rows):
            out.append(f"- **{title}** ({what}): not varied by this study (no factor of it), so it "
                       "does not say whether a conclusion depends on it.")
            continue
        factors = ", ".join(f"`{p}` = {', '.join(sorted(d['value'].astype(str).unique()))}"
                            for p, d in rows.groupby("parameter"))
        clear = rows[rows["flipped"] & rows["clear"]]
        near = rows[rows["flipped"] & ~rows["clear"]]
        dep = list(dict.fromkeys(clear["headline"]))
        close = [h for h in dict.fromkeys(near["headline"]) if h not in dep]
        kept = [h for h in base if h not in dep and h not in close]
        line = f"- **{title}** ({what}; varied: {factors}): "
        line += ("depends: " + "; ".join(f"`{r.headline}` {r.base_conclusion} -> {r.conclusion} "
                                          f"({r.parameter} = {r.value})" for r in clear.itertuples())
                 if dep else "no headline flips beyond the noise")
        if close:
            line += "; flips within the noise: " + ", ".join(f"`{h}`" for h in close)
        line += "; unchanged: " + (", ".join(f"`{h}`" for h in kept) if kept else "none") + "."
        out.append(line)
    tribute = [h for h, (c, *_) in base.items() if h.startswith("source.") and c == "tribute"]
    if tribute:
        out.append("- " + ", ".join(f"`{h}`" for h in tribute) + ": at the defaults the winners' largest "
                   "source of points is the tribute, whose numbers are estimates: that conclusion is "
                   "about estimated values whatever the sweep says (the Macao report gives the tribute's "
                   "share of the score).")
    return out


ROBUSTNESS = {
    "measure": robustness_measure, "notes": robustness_notes, "mirror": "expert", "field": ("expert", "greedy", "builder", "shipper"),
    "headlines": "Headlines: `seat.N` — the seat that wins most among N identical `expert` bots; "
                 "`source.N` — the winners' largest source of points in those games; `ranking` — the "
                 "order of expert, greedy, builder, shipper in a seat-rotated 4-player field (each "
                 "strategy in each seat once); `leader` — the first of that order.",
}
