"""Shipwrights' analyses: pandas tables from the result tables and the event log.

``run_all(t)`` takes a Tables-like bundle (``games``, ``players``, optional ``events``,
``rules``; an ``n_players`` column on each, as ``analyses.data.combine`` makes) and
returns ``{name: DataFrame}``; ``report.py`` lays them out and ``figures.py`` draws
them. Nothing here draws.

A seat's advantage is measured only where every seat holds the same bot; rates over
several players of one game have intervals clustered by game (``core.seat_stats``).
Relations between a choice (a card drafted, a townsfolk played, a building) and winning
are observational: they describe these bots' games.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.seat_stats import (cm_row, event_players, events_of, holders_vs_others, label_games,
                                same_bot_counts, seat_chi2, win_rate_by_bot, win_rate_by_seat)
from ...core.stats import clustered_diff

READS = "results"            # analyses.games.pipelines: this pipeline reads result tables

# the score's sources, as the players table records them (vp is their sum)
SOURCES = (("ship_vp", "ships"), ("building_vp", "buildings"), ("military_vp", "military token"))
KIND_NAMES = ("ship", "craftsman", "tool", "building", "townsfolk")
# the townsfolk effects that hit another seat (the Watchman stops all but the Berserker)
ATTACKS = ("remove_craftsman", "remove_ship", "steal_craftsman", "gold_all", "raid", "destroy_tool",
           "steal_goods")


def _names(t) -> list:
    return t.rules.card_names if t.rules is not None else []


def _kinds(t) -> list:
    if t.rules is None:
        return []
    return [KIND_NAMES[k] for k in t.rules.arrays()["kind"]]


def _face(names, i) -> str:
    return names[i] if 0 <= i < len(names) else str(i)


def _who(p: pd.DataFrame) -> np.ndarray:
    return np.where(p["won"] > 0, "winners", "others")


# ---- balance -------------------------------------------------------------------------
def score_breakdown(t) -> pd.DataFrame:
    """Mean points per player-game from each source, winners and the others apart; the
    sources sum to the final score."""
    p = t.players.assign(who=_who(t.players))
    rows = []
    for (n, who), d in p.groupby(["n_players", "who"], observed=True):
        for col, label in SOURCES:
            rows.append(cm_row(d[col], d["game"], n_players=int(n), who=who, source=label))
        rows.append(cm_row(d["vp"], d["game"], n_players=int(n), who=who, source="total"))
    return pd.DataFrame(rows)


# ---- the draft ---------------------------------------------------------------------------
def drafts(t) -> pd.DataFrame:
    """Per player count and card face: copies drafted per game, the share of them kept in
    the first draft round, and the win rate of the players who drafted it against the
    other players of the same games (event subsample; difference clustered by game)."""
    dr = events_of(t, "draft")
    ep = event_players(t)
    names, kinds = _names(t), _kinds(t)
    rows = []
    for n, pn in ep.groupby("n_players"):
        games = pn["game"].nunique()
        dn = dr[dr["n_players"] == n]
        first = dn[dn["b"] == 0].groupby("a").size()
        for r in holders_vs_others(pn, dn[["game", "seat", "a"]]):
            face = int(r.pop("a"))
            k = r.pop("count")
            rows.append({"n_players": int(n), "card": _face(names, face),
                         "kind": kinds[face] if face < len(kinds) else "", "n": games,
                         "drafted": k, "per_game": k / games,
                         "first_round_share": float(first.get(face, 0)) / k, **r})
    out = pd.DataFrame(rows)
    return out.sort_values(["n_players", "diff"], ascending=[True, False]) if len(out) else out


def draft_kinds(t) -> pd.DataFrame:
    """Share of the cards drafted of each kind, winners and the others apart (event
    subsample; n = cards drafted, interval clustered by game)."""
    dr = events_of(t, "draft")
    if not len(dr):
        return pd.DataFrame()
    kinds = np.array(_kinds(t) or ["?"] * (int(dr["a"].max()) + 1))
    dr = dr.merge(event_players(t)[["game", "seat", "won"]], on=["game", "seat"])
    dr = dr.assign(kind=kinds[dr["a"].to_numpy()], who=_who(dr))
    rows = []
    for (n, who), d in dr.groupby(["n_players", "who"]):
        for kind in KIND_NAMES:
            rows.append(cm_row((d["kind"] == kind).astype(float), d["game"], "share",
                                      n_players=int(n), who=who, kind=kind))
    return pd.DataFrame(rows)


# ---- the ship race and the game's length -------------------------------------------------------
def ships_by_day(t) -> pd.DataFrame:
    """Ships completed per player by the end of each day, winners and the others apart, over
    the games still running that day (event subsample; interval clustered by game)."""
    comp = events_of(t, "complete")
    ep = event_players(t)
    if not len(ep):
        return pd.DataFrame()
    days = t.games.set_index("game")["days"]
    rows = []
    for n, pn in ep.groupby("n_players"):
        c = comp[comp["n_players"] == n].groupby(["game", "seat", "day"]).size().rename("k").reset_index()
        wide = c.pivot_table(index=["game", "seat"], columns="day", values="k", fill_value=0)
        last = int(days.loc[pn["game"].unique()].max())
        wide = wide.reindex(columns=range(1, last + 1), fill_value=0).cumsum(axis=1)
        base = pn[["game", "seat", "won"]].set_index(["game", "seat"])
        wide = wide.reindex(base.index, fill_value=0)
        length = days.reindex(base.index.get_level_values("game")).to_numpy()
        who = _who(base)
        for d in range(1, last + 1):
            running = length >= d
            for w in ("winners", "others"):
                m = running & (who == w)
                if m.sum() == 0:
                    continue
                rows.append(cm_row(wide[d].to_numpy()[m], base.index.get_level_values("game")[m],
                                          n_players=int(n), day=d, who=w))
    return pd.DataFrame(rows)


def game_length(t) -> pd.DataFrame:
    """Days per game: the share of games of each length, per player count (n = games)."""
    rows = []
    for n, g in t.games.groupby("n_players"):
        counts = g["days"].value_counts().sort_index()
        for d, k in counts.items():
            rows.append({"n_players": int(n), "days": int(d), "n": len(g), "games_ended": int(k),
                         "share": k / len(g)})
    return pd.DataFrame(rows)


def length_summary(t) -> pd.DataFrame:
    """Per player count: the mean days per game (interval: one observation per game), the
    median, the ships completed per player, and the share of players reaching the goal
    (the ship that ends the game) with their win rate against the others (clustered)."""
    goal = int(t.rules["ship_goal"]) if t.rules is not None else 4
    rows = []
    for n, g in t.games.groupby("n_players"):
        p = t.players[t.players["n_players"] == n]
        r = cm_row(g["days"], g["game"], "mean_days", n_players=int(n))
        reach = (p["ships"] >= goal).to_numpy()
        d = clustered_diff(p["win_share"], reach, p["game"])
        rows.append({**r, "median_days": float(g["days"].median()), "ships": float(p["ships"].mean()),
                     "reached_goal": float(reach.mean()),
                     "reached_win_rate": float(p["win_share"][reach].mean()) if reach.any() else np.nan,
                     "other_win_rate": float(p["win_share"][~reach].mean()) if (~reach).any() else np.nan,
                     "diff": d["diff"], "diff_ci_lo": d["ci_lo"], "diff_ci_hi": d["ci_hi"]})
    return pd.DataFrame(rows)


def ships_win(t) -> pd.DataFrame:
    """Win rate and mean points by ships completed (n = player-games; clustered)."""
    rows = []
    for (n, k), d in t.players.groupby(["n_players", "ships"]):
        r = cm_row(d["win_share"], d["game"], "win_rate", n_players=int(n), ships=int(k))
        rows.append({**r, "mean_vp": float(d["vp"].mean())})
    return pd.DataFrame(rows)


# ---- attacks -----------------------------------------------------------------------------------
def attacks(t) -> pd.DataFrame:
    """Per player count and townsfolk that hits another seat: plays per game and the win
    rate of the players who played it against the other players of the same games
    (event subsample; difference clustered by game)."""
    tf = events_of(t, "townsfolk")
    ep = event_players(t)
    names = _names(t)
    hit = {i for i, nm in enumerate(names) if t.rules is not None and nm in t.rules.names("townsfolk")
           and t.rules[f"townsfolk.{nm}.effect"] in ATTACKS}
    tf = tf[tf["a"].isin(hit)]
    rows = []
    for n, pn in ep.groupby("n_players"):
        games = pn["game"].nunique()
        for r in holders_vs_others(pn, tf[tf["n_players"] == n][["game", "seat", "a"]]):
            face = int(r.pop("a"))
            k = r.pop("count")
            rows.append({"n_players": int(n), "townsfolk": _face(names, face),
                         "effect": t.rules[f"townsfolk.{names[face]}.effect"], "n": games,
                         "played": k, "per_game": k / games, **r})
    return pd.DataFrame(rows)


def attacked_win(t) -> pd.DataFrame:
    """Win rate and mean points by the times a player was attacked in the game (thirds of
    the player count's distribution; n = player-games, interval clustered by game)."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        try:
            bins = pd.qcut(d["attacked"], 3, duplicates="drop")
        except ValueError:
            continue
        for b, e in d.groupby(bins, observed=True):
            r = cm_row(e["win_share"], e["game"], "win_rate", n_players=int(n),
                              attacked=f"{int(np.ceil(b.left + 1e-9))}-{int(b.right)}")
            rows.append({**r, "mean_vp": float(e["vp"].mean()), "mean_attacks": float(e["attacks"].mean())})
    return pd.DataFrame(rows)


def attack_balance(t) -> pd.DataFrame:
    """Per player count and bot: attacks made and suffered per player-game (interval of the
    suffered clustered by game), ships lost to the Barbarian."""
    rows = []
    for (n, bot), d in t.players.groupby(["n_players", "bot"], observed=True):
        r = cm_row(d["attacked"], d["game"], "attacked", n_players=int(n), bot=str(bot))
        rows.append({**r, "attacks": float(d["attacks"].mean()), "townsfolk": float(d["townsfolk"].mean()),
                     "lost_ships": float(d["lost_ships"].mean())})
    return pd.DataFrame(rows)


def attacks_by_seat(t) -> pd.DataFrame:
    """Where one bot holds every seat: attacks suffered per game by seat (interval clustered
    by game), unfinished ships lost and the seat's win rate; the first player is drawn at
    random, so a seat difference here is the bots' choice of targets."""
    p = t.players[t.players["n_players"].isin(same_bot_counts(t.players))]
    rows = []
    for (n, seat), d in p.groupby(["n_players", "seat"], observed=True):
        r = cm_row(d["attacked"], d["game"], "attacked", n_players=int(n), seat=int(seat))
        rows.append({**r, "lost_ships": float(d["lost_ships"].mean()), "win_rate": float(d["win_share"].mean())})
    return pd.DataFrame(rows)


# ---- buildings and military -----------------------------------------------------------------
def military(t) -> pd.DataFrame:
    """Per player count: the share of players holding the military token (ties: every tied
    seat) and their win rate against the others (difference clustered by game), the
    holders' and the others' mean red flags."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        hold = (d["military_vp"] > 0).to_numpy()
        r = clustered_diff(d["win_share"], hold, d["game"])
        rows.append({"n_players": int(n), "n": len(d), "holders": float(hold.mean()),
                     "holder_win_rate": float(d["win_share"][hold].mean()) if hold.any() else np.nan,
                     "other_win_rate": float(d["win_share"][~hold].mean()) if (~hold).any() else np.nan,
                     "diff": r["diff"], "diff_ci_lo": r["ci_lo"], "diff_ci_hi": r["ci_hi"],
                     "holder_flags": float(d["military"][hold].mean()) if hold.any() else np.nan,
                     "other_flags": float(d["military"][~hold].mean()) if (~hold).any() else np.nan})
    return pd.DataFrame(rows)


def buildings(t) -> pd.DataFrame:
    """Per player count and building: built per game and the builders' win rate against the
    other players of the same games (event subsample; difference clustered by game)."""
    bl = events_of(t, "build")
    ep = event_players(t)
    names = _names(t)
    rows = []
    for n, pn in ep.groupby("n_players"):
        games = pn["game"].nunique()
        for r in holders_vs_others(pn, bl[bl["n_players"] == n][["game", "seat", "a"]]):
            face = int(r.pop("a"))
            k = r.pop("count")
            rows.append({"n_players": int(n), "building": _face(names, face), "n": games,
                         "built": k, "per_game": k / games, **r})
    return pd.DataFrame(rows)


def buildings_win(t) -> pd.DataFrame:
    """Win rate and building points by buildings bought (n = player-games; clustered)."""
    rows = []
    for n, d in t.players.groupby("n_players"):
        k = d["buildings"].clip(upper=3)
        for v, e in d.groupby(k):
            r = cm_row(e["win_share"], e["game"], "win_rate", n_players=int(n),
                              buildings=f"{int(v)}+" if v == 3 else str(int(v)))
            rows.append({**r, "mean_building_vp": float(e["building_vp"].mean())})
    return pd.DataFrame(rows)


def run_all(t) -> dict:
    """Every table of the Shipwrights report (names as in report.SECTIONS)."""
    seats = win_rate_by_seat(t)
    out = {"win_rate_by_seat": seats, "seat_chi2": seat_chi2(seats) if len(seats) else pd.DataFrame(),
           "win_rate_by_bot": win_rate_by_bot(t), "score_breakdown": score_breakdown(t),
           "game_length": game_length(t), "length_summary": length_summary(t), "ships_win": ships_win(t),
           "attacked_win": attacked_win(t), "attack_balance": attack_balance(t),
           "attacks_by_seat": attacks_by_seat(t),
           "military": military(t), "buildings_win": buildings_win(t)}
    if t.events is not None and len(t.events):
        out.update({"drafts": drafts(t), "draft_kinds": draft_kinds(t), "ships_by_day": ships_by_day(t),
                    "attacks": attacks(t), "buildings": buildings(t)})
    return label_games(out, t, EVENT_TABLES)


EVENT_TABLES = {"drafts", "draft_kinds", "ships_by_day", "attacks", "buildings"}


# ---- the robustness study's headlines (analyses.robustness.study_hooks) ------------------
def robustness_measure(rules, games: int, design) -> dict:
    """Headline -> (conclusion, values, 95 % half-widths) for one rules variant, all on the
    same seed (common random numbers): ``seat.N`` the seat that wins most among N ``expert``
    bots; ``source.N`` the winners' largest source of points there; ``military.N`` whether
    the military token's holders win more often than the others there; ``ranking`` the order
    of ROBUSTNESS["field"] in a seat-rotated 4-player field, ``leader`` its first."""
    from ...core.seat_stats import half_width, rotated_ranking, seat_headline, winners_largest_source
    from ...runners.api import simulate
    kw = dict(seed=design.seed, rules=rules, workers=design.workers, progress=False, game="shipwrights")
    out = {}
    for n in design.player_counts:
        p = simulate(games, [ROBUSTNESS["mirror"]] * n, **kw).players
        out[f"seat.{n}"] = seat_headline(p, games)
        out[f"source.{n}"] = winners_largest_source(p, SOURCES)
        hold = p["military_vp"] > 0
        rates = {"holders": float(p["win_share"][hold].mean()) if hold.any() else 0.0,
                 "others": float(p["win_share"][~hold].mean()) if (~hold).any() else 0.0}
        hws = {"holders": half_width(rates["holders"], int(hold.sum())),
               "others": half_width(rates["others"], int((~hold).sum()))}
        out[f"military.{n}"] = (max(rates, key=rates.get), rates, hws)
    out.update(rotated_ranking(simulate, games, ROBUSTNESS["field"], **kw))
    return out


ROBUSTNESS = {
    "measure": robustness_measure, "mirror": "expert", "field": ("expert", "military", "attacker", "boathouse"),
    "headlines": "Headlines: `seat.N` — the seat that wins most among N identical `expert` bots; "
                 "`source.N` — the winners' largest source of points in those games (ships, buildings, "
                 "military token); `military.N` — who wins more often in those games, the military "
                 "token's holders or the others; `ranking` — the order of expert, military, attacker, "
                 "boathouse in a seat-rotated 4-player field (each strategy in each seat once); "
                 "`leader` — the first of that order.",
}
