"""The Casino and the flow of coins.

``destination_shares`` and ``coins_by_turn`` need events; the rest reads
``games``/``players`` only.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyses import stats
from analyses.data import as_tables
from .data import SEND_ACTIONS

# what run_all reads (a Tables / SimResults): the report runs the pipelines of a game's
# Game.analyses that read results (analyses.games.pipelines)
READS = "results"

DEST = {"send casino": "Casino", "send black market": "Black Market", "send port": "port"}


def destination_shares(events: pd.DataFrame, by=("n_players", "turn")) -> pd.DataFrame:
    """Share of ship sends (phase 3) going to the Casino, the Black Market and
    the outer ports, per group; n = ships sent in the group, Wilson CIs."""
    d = events[events["action"].isin(SEND_ACTIONS).to_numpy()]
    d = d.assign(dest=np.asarray(d["action"].astype(object).map(DEST)))
    by = list(by)
    if len(d) == 0:
        return stats.empty_frame(by + ["dest"], ["count", "n", "share", "ci_lo", "ci_hi"])
    out = stats.value_counts_frame(d, by, "dest")
    # keep destinations that never occur in a group as explicit zeros
    full = out.set_index(by + ["dest"])["count"].unstack("dest", fill_value=0).stack().rename("count")
    full = full.reset_index()
    n = d.groupby(by, observed=True).size().rename("n").reset_index()
    full = full.merge(n, on=by)
    pf = stats.proportion_frame(full["count"], full["n"], "share")
    full["share"], full["se"], full["ci_lo"], full["ci_hi"] = (
        pf["share"].to_numpy(), pf["se"].to_numpy(), pf["ci_lo"].to_numpy(), pf["ci_hi"].to_numpy())
    return full


def casino_share(events: pd.DataFrame, by=("n_players", "turn")) -> pd.DataFrame:
    """Share of ship sends that go to the Casino per group (see destination_shares)."""
    d = destination_shares(events, by)
    return d[d["dest"] == "Casino"].drop(columns="dest").reset_index(drop=True)


def safe_coins_at_turn_end(events: pd.DataFrame) -> pd.DataFrame:
    """One row per game, seat and turn: coins in the player's safe after the
    last event of that turn (a player's coins change only on their own turn;
    score rows and rows without a seat are ignored)."""
    d = events[(events["seat"] >= 0).to_numpy() & (events["action"] != "score").to_numpy()]
    cols = ["n_players", "game", "seat", "turn"] + (["bot"] if "bot" in d.columns else [])
    last = d.groupby(["game", "seat", "turn"], sort=True).tail(1)
    return last[cols + ["coins"]].reset_index(drop=True)


def coins_by_turn(events: pd.DataFrame, by=("n_players", "turn")) -> pd.DataFrame:
    """Mean coins in a player's safe at the end of their turn, per group
    (n = player-turns; t CI)."""
    c = safe_coins_at_turn_end(events)
    return stats.grouped_mean(c, list(by), "coins")


def casino_use_vs_win(players: pd.DataFrame, bins=(0, 3, 6, 9, 12, 15, 20, 1000)) -> pd.DataFrame:
    """Win rate (shared wins split) and mean VP by ships sent to the Casino in
    the game (binned: [lo, hi) ), per player count; n = player-games,
    Wilson CI for the win rate, t CI for the VP."""
    b = np.asarray(bins)
    labels = [f"{lo}-{hi - 1}" if hi < 1000 else f"{lo}+" for lo, hi in zip(b[:-1], b[1:])]
    d = players.assign(casino_bin=pd.cut(players["casino_visits"], b, right=False, labels=labels))
    w = stats.grouped_proportion(d, ["n_players", "casino_bin"], "win_share", "win_rate")
    v = stats.grouped_mean(d, ["n_players", "casino_bin"], "vp")[["n_players", "casino_bin", "mean",
                                                                  "ci_lo", "ci_hi"]]
    v = v.rename(columns={"mean": "mean_vp", "ci_lo": "vp_ci_lo", "ci_hi": "vp_ci_hi"})
    out = w.merge(v, on=["n_players", "casino_bin"])
    out["casino_bin"] = out["casino_bin"].astype(str)
    out["bin_lo"] = out["casino_bin"].map(dict(zip(labels, b[:-1])))
    return out


def casino_income(players: pd.DataFrame, by=("n_players", "bot")) -> pd.DataFrame:
    """Casino ships and coins per player-game (n = player-games; t CIs)."""
    by = list(by)
    v = stats.grouped_mean(players, by, "casino_visits")
    c = stats.grouped_mean(players, by, "casino_coins")[by + ["mean", "ci_lo", "ci_hi"]]
    c = c.rename(columns={"mean": "mean_coins", "ci_lo": "coins_ci_lo", "ci_hi": "coins_ci_hi"})
    return v.merge(c, on=by)


def bank_shortfall_rate(games: pd.DataFrame) -> pd.DataFrame:
    """Share of games with at least one bank payment not made in full, per
    player count (n = games, Wilson CI), and mean coins short per game."""
    g = games.assign(short=(games["shortfalls"] > 0).astype(int))
    out = stats.grouped_proportion(g, "n_players", "short", "shortfall_rate")
    m = g.groupby("n_players")[["shortfall_coins", "bank_end"]].mean().reset_index()
    m = m.rename(columns={"shortfall_coins": "mean_coins_short", "bank_end": "mean_bank_end"})
    return out.merge(m, on="n_players")


def run_all(res) -> dict[str, pd.DataFrame]:
    t = as_tables(res)
    out = {
        "casino_use_vs_win": casino_use_vs_win(t.players),
        "casino_income": casino_income(t.players),
        "bank_shortfall": bank_shortfall_rate(t.games),
    }
    if t.has_events:
        out["destinations_by_turn"] = destination_shares(t.events, ("n_players", "turn"))
        out["casino_share_by_turn_bot"] = casino_share(t.events, ("n_players", "bot", "turn"))
        out["casino_share_by_bot"] = casino_share(t.events, ("n_players", "bot"))
        out["coins_by_turn"] = coins_by_turn(t.events)
    return out
