"""Trading cargo for victory cards.

Trade events: the tokens sold (positive cargo columns), ``value`` = their
smuggling value, ``amount`` = coins added on the final turn. Buy events: the
``card`` and ``count`` taken in the same phase 2 (same game, seat, turn).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyses import stats
from analyses.data import as_tables
from .data import card_cost, token_columns

# what run_all reads (a Tables / SimResults): the report runs the pipelines of a game's
# Game.analyses that read results (analyses.games.pipelines)
READS = "results"


def _action(events, name):
    return events[(events["action"] == name).to_numpy()]


def trades(events: pd.DataFrame, rules) -> pd.DataFrame:
    """One row per trade: n_players, game, seat, bot, turn, tokens sold, wilds,
    value, coins (final turn), budget = value + coins, cost and VP of the cards
    bought in the same phase, lost = budget - cost (no change), vp_per_token."""
    tok = token_columns(rules, events)
    t = _action(events, "trade").copy()
    t["tokens"] = t[tok].clip(lower=0).sum(axis=1)
    t["wilds"] = t["wild"].clip(lower=0) if "wild" in t.columns else 0
    t["coins_used"] = t["amount"]
    t["budget"] = t["value"] + t["amount"]
    b = _action(events, "buy").copy()
    costs = card_cost(rules) if rules is not None else {}
    b["cost"] = b["card"].map(costs).fillna(0) * b["count"]
    b["vp"] = b["value"]
    key = ["game", "seat", "turn"]
    spent = b.groupby(key)[["cost", "vp", "count"]].sum().rename(columns={"count": "cards"})
    t = t.join(spent, on=key)
    t[["cost", "vp", "cards"]] = t[["cost", "vp", "cards"]].fillna(0)
    t["lost"] = t["budget"] - t["cost"]
    with np.errstate(invalid="ignore", divide="ignore"):
        t["vp_per_token"] = np.where(t["tokens"] > 0, t["vp"] / t["tokens"], np.nan)
        t["value_per_token"] = np.where(t["tokens"] > 0, t["value"] / t["tokens"], np.nan)
    cols = ["n_players", "game", "seat"] + (["bot"] if "bot" in t.columns else []) + \
        ["turn", "tokens", "wilds", "value", "coins_used", "budget", "cost", "vp", "cards", "lost",
         "vp_per_token", "value_per_token"] + tok
    return t[cols].reset_index(drop=True)


def trade_summary(tr: pd.DataFrame, by=("n_players",)) -> pd.DataFrame:
    """Per group of trades (n = trades): mean value, tokens, VP bought, value
    lost to no change, VP per token (t CIs: columns <name>, <name>_ci_lo,
    <name>_ci_hi), share of trades using a Wild and share losing value
    (Wilson CIs)."""
    by = list(by)
    out = None
    for col in ("value", "tokens", "vp", "lost", "vp_per_token", "value_per_token"):
        m = stats.grouped_mean(tr, by, col)
        keep = by + ["mean", "ci_lo", "ci_hi"] + (["n"] if out is None else [])
        m = m[keep].rename(columns={"mean": col, "ci_lo": f"{col}_ci_lo", "ci_hi": f"{col}_ci_hi"})
        out = m if out is None else out.merge(m, on=by, how="outer")
    for flag, name in (((tr["wilds"] > 0), "wild_share"), ((tr["lost"] > 0), "lossy_share")):
        p = stats.grouped_proportion(tr.assign(f=flag.astype(int)), by, "f", name)
        p = p[by + [name, "ci_lo", "ci_hi"]].rename(columns={"ci_lo": f"{name}_ci_lo",
                                                              "ci_hi": f"{name}_ci_hi"})
        out = out.merge(p, on=by, how="left")
    return out


def value_distribution(tr: pd.DataFrame) -> pd.DataFrame:
    """Share of trades per realised smuggling value, per player count."""
    return stats.value_counts_frame(tr, "n_players", "value")


def combination_mix(tr: pd.DataFrame, rules, sample: int = 1000, seed: int = 0) -> tuple:
    """Split the tokens of (a random sample of ``sample`` per player count) trades optimally with
    cargo_sim.best_split. Returns (combos, summary):

    combos: one row per combination: n_players, trade, kind (same/different),
    size (tokens incl. Wilds), wilds, value.
    summary per player count: n trades, share of value from same-type
    combinations (t CI over trades of the per-trade share), mean combinations
    per trade, share of Wilds used in same-type combinations."""
    from ..trade.api import best_split
    tok = token_columns(rules, tr)
    d = tr[tr["tokens"] > 0]
    d = d.sample(frac=1.0, random_state=seed).groupby("n_players", sort=False).head(sample)
    tables = rules.trade_tables() if rules is not None else None
    rows = []
    for i, (np_, counts, wild) in enumerate(zip(d["n_players"], d[tok[:-1]].to_numpy(),
                                                d[tok[-1]].to_numpy())):
        for kind, types, wilds, value in best_split([int(c) for c in counts], int(wild), tables):
            rows.append({"n_players": np_, "trade": i, "kind": kind,
                         "size": int(sum(types.values()) + wilds), "wilds": int(wilds),
                         "value": int(value)})
    combos = pd.DataFrame(rows, columns=["n_players", "trade", "kind", "size", "wilds", "value"])
    if len(combos) == 0:
        return combos, pd.DataFrame()
    per = combos.assign(same_value=np.where(combos["kind"] == "same", combos["value"], 0),
                        same_wilds=np.where(combos["kind"] == "same", combos["wilds"], 0))
    per = per.groupby(["n_players", "trade"]).agg(value=("value", "sum"), same_value=("same_value", "sum"),
                                                  combos=("kind", "size"), wilds=("wilds", "sum"),
                                                  same_wilds=("same_wilds", "sum")).reset_index()
    per["same_share"] = per["same_value"] / per["value"].where(per["value"] > 0)
    out = stats.grouped_mean(per, "n_players", "same_share")
    out = out.rename(columns={"mean": "same_value_share"})
    c = stats.grouped_mean(per, "n_players", "combos")[["n_players", "mean", "ci_lo", "ci_hi"]]
    out = out.merge(c.rename(columns={"mean": "combos_per_trade", "ci_lo": "combos_ci_lo",
                                      "ci_hi": "combos_ci_hi"}), on="n_players")
    w = per.groupby("n_players")[["wilds", "same_wilds"]].sum().reset_index()
    wp = stats.proportion_frame(w["same_wilds"], w["wilds"], "wilds_in_same_share")
    w["wilds_in_same_share"], w["wilds_ci_lo"], w["wilds_ci_hi"] = (
        wp["wilds_in_same_share"].to_numpy(), wp["ci_lo"].to_numpy(), wp["ci_hi"].to_numpy())
    out = out.merge(w.rename(columns={"wilds": "wilds_sold"}).drop(columns="same_wilds"), on="n_players")
    return combos, out


def combo_sizes(combos: pd.DataFrame) -> pd.DataFrame:
    """Share of combinations per kind and size, per player count (n =
    combinations in the sample)."""
    if len(combos) == 0:
        return pd.DataFrame()
    c = combos.assign(kind_size=combos["kind"] + " " + combos["size"].astype(str))
    out = stats.value_counts_frame(c, "n_players", "kind_size")
    out[["kind", "size"]] = out["kind_size"].str.split(" ", expand=True)
    out["size"] = out["size"].astype(int)
    return out.drop(columns="kind_size")


def value_lost(players: pd.DataFrame, by=("n_players", "bot")) -> pd.DataFrame:
    """Value lost to no change per player-game (players.value_lost; n =
    player-games; t CI), with trade value for scale."""
    by = list(by)
    out = stats.grouped_mean(players, by, "value_lost")
    tv = stats.grouped_mean(players, by, "trade_value")[by + ["mean"]]
    out = out.merge(tv.rename(columns={"mean": "mean_trade_value"}), on=by)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["lost_share"] = out["mean"] / out["mean_trade_value"]
    return out


def vp_per_token_players(players: pd.DataFrame, by=("n_players", "bot")) -> pd.DataFrame:
    """Final VP per cargo token sold, per player-game with at least one token
    sold (n = such player-games; t CI of the per-player ratio)."""
    d = players[players["cargo_traded"] > 0]
    d = d.assign(vp_per_token=d["vp"] / d["cargo_traded"])
    return stats.grouped_mean(d, list(by), "vp_per_token")


def purchases_by_turn(events: pd.DataFrame, rules=None) -> pd.DataFrame:
    """Copies of each card bought per game, by player count and turn: n =
    games with events, copies, per_game = copies / n with its t CI (per-game
    counts, games without a purchase counting 0). Cards in the rules' order."""
    b = _action(events, "buy")
    games = events.groupby("n_players")["game"].nunique()
    per_game = b.groupby(["n_players", "turn", "card", "game"], observed=True)["count"].sum()
    g = per_game.groupby(level=["n_players", "turn", "card"], observed=True)
    out = pd.DataFrame({"copies": g.sum(), "sq": (per_game ** 2).groupby(
        level=["n_players", "turn", "card"], observed=True).sum()}).reset_index()
    out["n"] = out["n_players"].map(games)
    m = stats.mean_from_sums(out["n"].to_numpy(), out["copies"].to_numpy(), out["sq"].to_numpy())
    out["per_game"], out["ci_lo"], out["ci_hi"] = m["mean"], m["ci_lo"], m["ci_hi"]
    out = out.drop(columns="sq")
    if rules is not None:
        order = {c: i for i, c in enumerate(rules.card_names)}
        out = out.assign(_o=out["card"].astype(str).map(order)).sort_values(
            ["n_players", "turn", "_o"]).drop(columns="_o").reset_index(drop=True)
    return out[["n_players", "turn", "card", "n", "copies", "per_game", "ci_lo", "ci_hi"]]


def purchases_by_card(events: pd.DataFrame, rules=None) -> pd.DataFrame:
    """Copies of each card bought per game over the whole game, per player
    count (n = games with events; t CI of the per-game count)."""
    e = events.assign(turn=0)
    out = purchases_by_turn(e, rules).drop(columns="turn")
    return out


def holder_win_rates(players: pd.DataFrame, rules=None) -> pd.DataFrame:
    """Per player count and card: win rate of players holding at least one copy
    at the end vs the others (Wilson CIs; n_holders / n_others = player-games),
    and the difference with Newcombe's 95% interval. Observational."""
    cards = [c[5:] for c in players.columns if c.startswith("card_")]
    if rules is not None:
        cards = [c for c in rules.card_names if f"card_{c}" in players.columns]
    rows = []
    for n, d in players.groupby("n_players", sort=True):
        for card in cards:
            h = d[f"card_{card}"] > 0
            x1, n1 = float(d.loc[h, "win_share"].sum()), int(h.sum())
            x0, n0 = float(d.loc[~h, "win_share"].sum()), int((~h).sum())
            lo1, hi1 = stats.wilson_ci(x1, n1)
            lo0, hi0 = stats.wilson_ci(x0, n0)
            diff, dlo, dhi = stats.newcombe_diff_ci(x1, n1, x0, n0)
            rows.append({"n_players": n, "card": card, "n_holders": n1,
                         "holder_win_rate": x1 / n1 if n1 else np.nan, "holder_ci_lo": lo1,
                         "holder_ci_hi": hi1, "n_others": n0,
                         "other_win_rate": x0 / n0 if n0 else np.nan, "other_ci_lo": lo0,
                         "other_ci_hi": hi0, "diff": float(diff), "diff_ci_lo": float(dlo),
                         "diff_ci_hi": float(dhi)})
    return pd.DataFrame(rows)


def run_all(res, combo_sample: int = 1000, seed: int = 0) -> dict[str, pd.DataFrame]:
    t = as_tables(res)
    out = {
        "value_lost": value_lost(t.players),
        "vp_per_token_players": vp_per_token_players(t.players),
        "holder_win_rates": holder_win_rates(t.players, t.rules),
    }
    if t.has_events:
        tr = trades(t.events, t.rules)
        combos, mix = combination_mix(tr, t.rules, combo_sample, seed)
        out.update({
            "trades": tr,
            "trade_summary": trade_summary(tr),
            "trade_value_distribution": value_distribution(tr),
            "combination_mix": mix,
            "combo_sizes": combo_sizes(combos),
            "purchases_by_turn": purchases_by_turn(t.events, t.rules),
            "purchases_by_card": purchases_by_card(t.events, t.rules),
        })
    return out
