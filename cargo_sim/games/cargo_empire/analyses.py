"""Cargo Empire's analyses: pandas tables from the result tables and the event log.

``run_all(t)`` takes a Tables-like bundle (``games``, ``players``, optional ``events``,
``rules``; an ``n_players`` column on each, as ``analyses.data.combine`` makes) and
returns ``{name: DataFrame}``; ``report.py`` lays them out and ``figures.py`` draws
them. Nothing here draws.

A seat's advantage is measured only where every seat holds the same bot (seats
exchangeable); the start player is drawn at random, so the first round's order place
is a randomised treatment and its effect on winning is causal, unlike the later
rounds' order (earned at the cleanup). Rates over the players of one game have
intervals clustered by game (``core.stats.clustered_mean``): they share its deal, and
exactly one of them wins.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import seat_stats
from ...core.seat_stats import (cm_row, event_players, events_of, half_width, rotated_ranking, seat_chi2,
                                win_rate_by, win_rate_by_bot, win_rate_by_seat, winners_largest_source)
from . import enums as E
from . import maps

READS = "results"            # analyses.games.pipelines: this pipeline reads result tables

# the score's sources, as the players table records them (vp is their sum)
SOURCES = (("dev_vp", "development"), ("lv3_vp", "LV3 posts"), ("card_vp", "city cards"),
           ("mission_vp", "missions"))
BONUSES = ("truck", "train", "ship", "any card")       # rules.ORDER_BONUS, as the log codes them
_COLS = ("game", "round", "seat", "a", "b", "c", "d", "n_players")


def _events(t, action: str) -> pd.DataFrame:
    return events_of(t, action, _COLS)


# ---- balance -------------------------------------------------------------------------
def score_breakdown(t) -> pd.DataFrame:
    """Mean points per player-game from each source, winners and the others apart; the
    sources sum to the final score."""
    return seat_stats.score_breakdown(t.players, SOURCES)


def first_player(t) -> pd.DataFrame:
    """Win rate by the place in the first round's order (1 = start player, drawn at
    random: a causal effect), interval clustered by game (event subsample)."""
    o = _events(t, "order")
    o = o[o["round"] == 0]
    ep = event_players(t).merge(o[["game", "seat", "a"]], on=["game", "seat"], how="inner")
    rows = []
    for (n, place), d in ep.groupby(["n_players", "a"]):
        r = cm_row(d["win_share"], d["game"], "win_rate", n_players=int(n), place=int(place) + 1)
        rows.append({**r, "expected": 1 / n, "mean_vp": float(d["vp"].mean())})
    return pd.DataFrame(rows)


def turn_order(t) -> pd.DataFrame:
    """The cleanup's order bonuses: per player count, order place (1 = first) of the
    rounds after the first, the share taking each bonus, and the win rate of the
    players by the rounds they played first after the start (event subsample)."""
    o = _events(t, "order")
    later = o[o["round"] > 0]
    if not len(later):
        return pd.DataFrame()
    ep = event_players(t)
    firsts = later[later["a"] == 0].groupby(["game", "seat"]).size().rename("first_rounds")
    ep = ep.join(firsts, on=["game", "seat"])
    ep["first_rounds"] = ep["first_rounds"].fillna(0).astype(int)
    rows = []
    for n, d in ep.groupby("n_players"):
        for k, e in d.groupby("first_rounds"):
            r = cm_row(e["win_share"], e["game"], "win_rate", n_players=int(n), first_rounds=int(k))
            rows.append({**r, "mean_vp": float(e["vp"].mean())})
    return pd.DataFrame(rows)


def order_bonus(t) -> pd.DataFrame:
    """Per player count and order place after the first round (earned at the cleanup by
    the development leaders, so observational): the bonus its space gives and the win
    rate and mean final score of its takers (event subsample)."""
    o = _events(t, "order")
    later = o[o["round"] > 0].merge(event_players(t)[["game", "seat", "vp", "win_share"]],
                                    on=["game", "seat"])
    rows = []
    for (n, place), d in later.groupby(["n_players", "a"]):
        r = cm_row(d["win_share"], d["game"], "win_rate", n_players=int(n), place=int(place) + 1)
        bonus = int(d["b"].mode().iloc[0])
        rows.append({**r, "bonus": BONUSES[bonus] if 0 <= bonus < len(BONUSES) else str(bonus),
                     "mean_vp": float(d["vp"].mean()), "expected": 1 / n})
    return pd.DataFrame(rows)


# ---- deliveries ------------------------------------------------------------------------
def _route_lengths(rules, pairs) -> dict:
    """(supply, target) -> the length of the shortest route (a crossing counts
    ``sea_hop_length``), from the map in play."""
    b, sea = rules.board(), int(rules["sea_hop_length"])
    return {(s, d): maps.shapes(b, s, d, sea)[0] for s, d in pairs}


def _deliveries(t) -> pd.DataFrame:
    ev = _events(t, "deliver")
    if not len(ev):
        return ev
    w = ev["c"].to_numpy(dtype=np.int64)
    out = ev.assign(trucks=w & 255, trains=(w >> 8) & 255, ships=(w >> 16) & 255)
    out["cards"] = out["trucks"] + out["trains"] + out["ships"]
    if t.rules is not None:
        pairs = set(zip(out["a"].astype(int), out["b"].astype(int)))
        lengths = _route_lengths(t.rules, pairs)
        out["length"] = [lengths[p] for p in zip(out["a"].astype(int), out["b"].astype(int))]
    else:
        out["length"] = np.nan
    return out


def delivery_lengths(t) -> pd.DataFrame:
    """Per player count and route length (segments; a crossing counts
    ``sea_hop_length``): the share of deliveries, and the cards paid per delivery of
    that length, by vehicle (event subsample; intervals clustered by game)."""
    dv = _deliveries(t)
    rows = []
    for n, dn in dv.groupby("n_players"):
        for length, d in dn.groupby("length"):
            r = cm_row(d["cards"], d["game"], "cards", n_players=int(n), length=int(length))
            rows.append({**r, "share": len(d) / len(dn), **{v + "s": float(d[v + "s"].mean())
                                                           for v in E.VEHICLES}})
    return pd.DataFrame(rows)


def delivery_costs(t) -> pd.DataFrame:
    """Per player count and vehicle: its cards paid per delivery, the share of
    deliveries using it, and the mean route length (event subsample; clustered by game).
    The row ``all`` is every card paid per delivery."""
    dv = _deliveries(t)
    rows = []
    for n, d in dv.groupby("n_players"):
        for v in (*E.VEHICLES, "all"):
            col = "cards" if v == "all" else v + "s"
            r = cm_row(d[col], d["game"], "per_delivery", n_players=int(n), vehicle=v)
            rows.append({**r, "share_using": float((d[col] > 0).mean()),
                         "mean_length": float(d["length"].mean())})
    return pd.DataFrame(rows)


# ---- transport cards and development ----------------------------------------------------
def card_use(t) -> pd.DataFrame:
    """Per player count, bot and vehicle: cards played per player-game (all games;
    clustered by game), cards gained beyond the starting hand (event subsample) and the
    hand left at the end."""
    gained = _events(t, "card").groupby(["game", "seat", "a"])["b"].sum()
    ep = event_players(t)
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        e = ep[(ep["n_players"] == n) & (ep["bot"] == bot)]
        for k, v in enumerate(E.VEHICLES):
            r = cm_row(d[v + "s_played"], d["game"], "played", n_players=int(n), bot=str(bot), vehicle=v)
            g = (gained.xs(k, level="a").reindex(pd.MultiIndex.from_frame(e[["game", "seat"]])).fillna(0)
                 if len(gained) and len(e) else pd.Series(dtype=float))
            rows.append({**r, "gained": float(g.mean()) if len(g) else np.nan})
        total = sum(d[v + "s_played"] for v in E.VEHICLES)
        r = cm_row(total, d["game"], "played", n_players=int(n), bot=str(bot), vehicle="all")
        rows.append({**r, "gained": np.nan, "hand_left": float(d["hand_left"].mean())})
    return pd.DataFrame(rows)


def _markers(t):
    """(game, seat, vehicle) -> its marker's last tile (0-based; ``dev_tiles_used`` = past
    the last tile) and whether it scores (on a score space: past the last tile and one
    step further, engine_nb.move_nb), from the last step in the event log."""
    st = _events(t, "step")
    slots = int(t.rules["dev_tiles_used"]) if t.rules is not None else 3
    last = st.groupby(["game", "seat", "a"])[["c", "d"]].last()
    return last["c"], (last["c"] >= slots) & (last["d"] >= 0), slots


def development(t) -> pd.DataFrame:
    """Per player count and vehicle: the share of players whose marker scores at the end
    (on the score spaces; interval clustered by game), the share ending on each
    development tile (``tile_1`` ...) and the mean tile reached (``dev_tiles_used`` + 1 =
    past the last tile), from the last step of each vehicle (event subsample)."""
    ep = event_players(t)
    if t.events is None or not len(ep):
        return pd.DataFrame()
    tiles, scoring, slots = _markers(t)
    rows = []
    for n, pn in ep.groupby("n_players"):
        base = pn[["game", "seat"]]
        for k, v in enumerate(E.VEHICLES):
            tile = base.join(tiles.xs(k, level="a").rename("tile"), on=["game", "seat"])["tile"].fillna(0)
            sc = base.join(scoring.xs(k, level="a").rename("s"), on=["game", "seat"])["s"].fillna(False)
            r = cm_row(sc.astype(float), base["game"], "scoring", n_players=int(n), vehicle=v)
            rows.append({**r, "mean_tile": float(tile.mean() + 1),
                         **{f"tile_{i + 1}": float((tile == i).mean()) for i in range(slots)}})
    return pd.DataFrame(rows)


def scoring_vehicles_win(t) -> pd.DataFrame:
    """Win rate by the number of vehicles on the score spaces at the end (event subsample)."""
    ep = event_players(t)
    if t.events is None or not len(ep):
        return pd.DataFrame()
    k = _markers(t)[1].groupby(["game", "seat"]).sum().rename("scoring")
    p = ep.join(k, on=["game", "seat"])
    p["scoring"] = p["scoring"].fillna(0).astype(int)
    return win_rate_by(p, "scoring", 3, "vehicles")


# ---- cities, missions, passes ------------------------------------------------------------
def upgrades(t) -> pd.DataFrame:
    """Per player count and level reached (LV2, LV3): upgrades caused per player-game and
    the share perfect (no cube left), perfect interval clustered by game (event subsample)."""
    up = _events(t, "upgrade")
    ep = event_players(t)
    rows = []
    for (n, lv), d in up.groupby(["n_players", "b"]):
        games = ep[ep["n_players"] == n]
        r = cm_row((d["c"] > 0).astype(float), d["game"], "perfect_share", n_players=int(n), level=f"LV{int(lv)}")
        rows.append({**r, "per_player_game": len(d) / max(len(games), 1)})
    return pd.DataFrame(rows)


def upgrade_players(t) -> pd.DataFrame:
    """Per player count and bot: upgrades caused and perfect upgrades per player-game
    (all games; clustered by game) and the share of upgrades perfect."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = cm_row(d["perfect"], d["game"], "perfect", n_players=int(n), bot=str(bot))
        rows.append({**r, "upgrades": float(d["upgrades"].mean()),
                     "imperfect": float((d["upgrades"] - d["perfect"]).mean()),
                     "perfect_share": float(d["perfect"].sum() / max(d["upgrades"].sum(), 1))})
    return pd.DataFrame(rows)


def missions(t) -> pd.DataFrame:
    """Per player count and bot: missions kept and completed per player-game (clustered
    by game), the share completed and their points."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = cm_row(d["missions_done"], d["game"], "done", n_players=int(n), bot=str(bot))
        rows.append({**r, "kept": float(d["missions"].mean()),
                     "done_share": float(d["missions_done"].sum() / max(d["missions"].sum(), 1)),
                     "mission_vp": float(d["mission_vp"].mean())})
    return pd.DataFrame(rows)


def passes(t) -> pd.DataFrame:
    """Per player count and bot: forced passes per player-game (clustered by game), the
    share of players with at least one, and the share of passes that took cards rather
    than refilling a city (event subsample)."""
    pv = _events(t, "pass")
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = cm_row(d["passes"], d["game"], "passes", n_players=int(n), bot=str(bot))
        e = pv[pv["n_players"] == n].merge(event_players(t)[["game", "seat", "bot"]], on=["game", "seat"])
        e = e[e["bot"] == bot]
        rows.append({**r, "any_pass": float((d["passes"] > 0).mean()),
                     "took_cards": float((e["a"] == 0).mean()) if len(e) else np.nan})
    return pd.DataFrame(rows)


def run_all(t) -> dict:
    """Every table of the Cargo Empire report (names as in report.SECTIONS)."""
    seats = win_rate_by_seat(t)
    p = t.players
    out = {"win_rate_by_seat": seats, "seat_chi2": seat_chi2(seats) if len(seats) else pd.DataFrame(),
           "win_rate_by_bot": win_rate_by_bot(t), "score_breakdown": score_breakdown(t),
           "card_use": card_use(t), "upgrade_players": upgrade_players(t),
           "perfect_win": win_rate_by(p, "perfect", 4, "perfect"), "missions": missions(t),
           "mission_win": win_rate_by(p, "missions_done", 4, "missions_done"), "passes": passes(t),
           "pass_win": win_rate_by(p, "passes", 3, "passes")}
    if t.events is not None and len(t.events):
        out.update({"first_player": first_player(t), "turn_order": turn_order(t),
                    "order_bonus": order_bonus(t), "delivery_lengths": delivery_lengths(t),
                    "delivery_costs": delivery_costs(t), "development": development(t),
                    "scoring_vehicles_win": scoring_vehicles_win(t), "upgrades": upgrades(t)})
    # each table's basis: the games (per player count) its rows come from, for the figures' titles
    every = t.games.groupby("n_players")["game"].nunique()
    logged = event_players(t).groupby("n_players")["game"].nunique()
    for name, df in out.items():
        if len(df) and "n_players" in df.columns:
            df["games"] = df["n_players"].map(logged if name in EVENT_TABLES else every).astype("int64")
    return out


EVENT_TABLES = {"first_player", "turn_order", "order_bonus", "delivery_lengths", "delivery_costs",
                "development", "scoring_vehicles_win", "upgrades"}


# ---- the robustness study's headlines (analyses.robustness.study_hooks) ------------------
def robustness_measure(rules, games: int, design) -> dict:
    """Headline -> (conclusion, values, 95 % half-widths) for one rules variant, all on the
    same seed (common random numbers): ``start.N`` whether the start player (drawn at random)
    wins more than the equal share 1/N among N ``expert`` bots (values: the lead over 1/N
    and its opposite, so a flip is clear when the lead changes sign beyond the noise; the
    study's margin is twice the lead);
    ``source.N`` the
    winners' largest source of points there; ``ranking`` the order of ROBUSTNESS["field"]
    in a seat-rotated 4-player field, ``leader`` its first."""
    from ...runners.api import simulate
    kw = dict(seed=design.seed, rules=rules, workers=design.workers, progress=False, game="cargo_empire")
    field, out = ROBUSTNESS["field"], {}
    for n in design.player_counts:
        r = simulate(games, [ROBUSTNESS["mirror"]] * n, events=True, **kw)
        o = r.events[(r.events["action"] == "order") & (r.events["round"] == 0) & (r.events["a"] == 0)]
        wr = float(r.players.merge(o[["game", "seat"]], on=["game", "seat"])["win_share"].mean())
        # one estimate against a constant: "ahead" and "behind" differ by twice the lead, so
        # each gets sqrt(2) half-widths and a flip is clear when the lead changes sign by more
        # than the start player's own half-width (analyses.robustness.clear_flip)
        hw = np.sqrt(2) * half_width(wr, games)
        out[f"start.{n}"] = ("ahead" if wr >= 1 / n else "behind", {"ahead": wr - 1 / n, "behind": 1 / n - wr},
                             {"ahead": hw, "behind": hw})
        out[f"source.{n}"] = winners_largest_source(r.players, SOURCES)
    out.update(rotated_ranking(simulate, games, field, **kw))
    return out


# The map family: the printed map is not public, so each headline is also measured on the
# 12-city Europe map and on generated maps (maps.generate) of other sizes, port shares and
# rail densities; the study reports each headline as holding on every map or not.
MAPS = {
    "default": "Europe-24",
    "levels": {
        "Europe-12": {"map_cities": 12},
        "gen-12": {"map_seed": 1, "gen_cities": 12},
        "gen-24": {"map_seed": 1},
        "gen-24 seed 2": {"map_seed": 2},
        "gen-24 ports 20 %": {"map_seed": 1, "gen_port_share": 20},
        "gen-24 ports 60 %": {"map_seed": 1, "gen_port_share": 60},
        "gen-24 degree 1.8": {"map_seed": 1, "gen_degree": 18},
        "gen-24 degree 3.6": {"map_seed": 1, "gen_degree": 36},
    },
}

ROBUSTNESS = {
    "measure": robustness_measure, "mirror": "expert", "field": ("expert", "greedy", "upgrader", "missioner"),
    "factors": {"map": MAPS},
    "headlines": "Headlines: `start.N` — whether the start player (drawn at random) wins more (ahead) "
                 "or less (behind) than the equal share 1/N among N identical `expert` bots; `source.N` — the winners' "
                 "largest source of points in those games; `ranking` — the order of expert, greedy, "
                 "upgrader, missioner in a seat-rotated 4-player field (each strategy in each seat once); "
                 "`leader` — the first of that order. Maps: Europe-24 / Europe-12 the default map's 24 or "
                 "12 cities; gen-N a generated map of N cities (maps.generate, seed 1 unless named), "
                 "40 % ports and mean rail degree 2.4 unless the level says otherwise.",
}
