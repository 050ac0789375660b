"""Balance: seats, bots, VP, margins, ties, Smuggler's Edge cards, ports.

Everything except ``port_popularity`` reads only ``games`` and ``players``
(so it works for runs of millions of games simulated without events). The
``players`` table needs an ``n_players`` column, or ``games`` to add it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyses import stats
from analyses.data import as_tables, with_n_players
from .data import edge_cards, port_slots

# what run_all reads (a Tables / SimResults): the report runs the pipelines of a game's
# Game.analyses that read results (analyses.games.pipelines)
READS = "results"


def _players(players, games=None):
    if "n_players" not in players.columns:
        if games is None:
            raise ValueError("players has no n_players column: pass games too")
        players = with_n_players(players, games)
    return players


def win_rate_by_seat(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Win rate per player count and seat (and bot label), a shared win counting
    1/k. n = games; successes = wins; expected = 1/n_players; 95% Wilson CI."""
    p = _players(players, games)
    out = stats.grouped_proportion(p, ["n_players", "seat", "bot"], "win_share", "win_rate")
    out["expected"] = 1.0 / out["n_players"]
    return out


def win_rate_by_bot(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Win rate per player count and bot label over all the seats it played
    (n = player-games)."""
    p = _players(players, games)
    return stats.grouped_proportion(p, ["n_players", "bot"], "win_share", "win_rate")


def seat_chi2(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per player count: Pearson chi-square test that every seat wins equally
    often (observed = wins by seat, shared wins split; expected = games / seats).
    With different bots in the seats this tests seat and bot together."""
    p = _players(players, games)
    rows = []
    for n, d in p.groupby("n_players", sort=True):
        wins = d.groupby("seat")["win_share"].sum().sort_index()
        n_games = d["game"].nunique()
        t = stats.chi2_equal(wins.to_numpy())
        rates = wins.to_numpy() / max(n_games, 1)
        rows.append({"n_players": n, "n": n_games, **t,
                     "max_abs_dev": float(np.max(np.abs(rates - 1.0 / n))) if n_games else np.nan,
                     "bots": ",".join(d.drop_duplicates("seat").sort_values("seat")["bot"].astype(str))})
    return pd.DataFrame(rows)


def vp_summary(players: pd.DataFrame, games: pd.DataFrame | None = None,
               by=("n_players", "seat", "bot")) -> pd.DataFrame:
    """Final VP per group: n (player-games), mean with 95% t CI, sd and the
    10/25/50/75/90th percentiles."""
    p = _players(players, games)
    by = list(by)
    out = stats.grouped_mean(p, by, "vp")
    q = (p.groupby(by, observed=True, sort=True)["vp"]
         .quantile([0.1, 0.25, 0.5, 0.75, 0.9]).unstack())
    q.columns = ["p10", "p25", "median", "p75", "p90"]
    return out.merge(q.reset_index(), on=by)


def vp_distribution(players: pd.DataFrame, games: pd.DataFrame | None = None,
                    by=("n_players", "seat")) -> pd.DataFrame:
    """Share of players finishing with each VP total, per group (Wilson CIs)."""
    p = _players(players, games)
    return stats.value_counts_frame(p, list(by), "vp")


def game_margins(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per game: n_players, winner's VP, runner-up's VP, margin
    (0 when the top VP is tied)."""
    p = _players(players, games)
    vp = p[["game", "n_players", "vp"]].sort_values(["game", "vp"], ascending=[True, False])
    first = vp.groupby("game", sort=True).nth(0).set_index("game")
    second = vp.groupby("game", sort=True).nth(1).set_index("game")
    out = pd.DataFrame({"n_players": first["n_players"], "winner_vp": first["vp"].astype(int),
                        "runner_up_vp": second["vp"].reindex(first.index).astype(int)})
    out["margin"] = out["winner_vp"] - out["runner_up_vp"]
    return out.reset_index()


def margin_summary(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Margin of victory (winner VP - runner-up VP) per player count: n games,
    mean with t CI, median with bootstrap CI, share of games decided by <= 3 VP."""
    m = game_margins(players, games)
    out = stats.grouped_mean(m, "n_players", "margin")
    med = stats.grouped_median(m, "n_players", "margin").rename(
        columns={"ci_lo": "median_ci_lo", "ci_hi": "median_ci_hi", "n": "n_med"})
    close = stats.grouped_proportion(m.assign(close=(m["margin"] <= 3).astype(int)),
                                     "n_players", "close", "share_le3")
    out = out.merge(med.drop(columns="n_med"), on="n_players")
    out = out.merge(close[["n_players", "share_le3"]].rename(columns={}), on="n_players")
    return out


def margin_distribution(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of games per margin of victory, per player count."""
    return stats.value_counts_frame(game_margins(players, games), "n_players", "margin")


def tie_rate(games: pd.DataFrame) -> pd.DataFrame:
    """Share of games whose win is shared (after the highest-card tie-break),
    and share with a top-VP tie broken by the highest card; n = games."""
    g = games.assign(tie=games["tie"].astype(int))
    return stats.grouped_proportion(g, "n_players", "tie", "tie_rate")


def top_vp_ties(players: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of games where two or more players share the top VP (before the
    highest-card tie-break); n = games."""
    m = game_margins(players, games)
    m["top_tie"] = (m["margin"] == 0).astype(int)
    return stats.grouped_proportion(m, "n_players", "top_tie", "top_vp_tie_rate")


def edge_card_effect(players: pd.DataFrame, rules, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """For each Smuggler's Edge card (rules kind 'edge'): win rate and mean VP of
    players holding 0, 1, 2... copies at the end, per player count.
    n = player-games in the cell; Wilson CI for the win rate, t CI for VP.
    Observational: holders differ from non-holders in more than the card."""
    p = _players(players, games)
    rows = []
    for card in edge_cards(rules):
        col = f"card_{card}"
        if col not in p.columns:
            continue
        d = p.assign(held=p[col].astype(int))
        w = stats.grouped_proportion(d, ["n_players", "held"], "win_share", "win_rate")
        v = stats.grouped_mean(d, ["n_players", "held"], "vp")[["n_players", "held", "mean", "ci_lo", "ci_hi"]]
        v = v.rename(columns={"mean": "mean_vp", "ci_lo": "vp_ci_lo", "ci_hi": "vp_ci_hi"})
        w = w.merge(v, on=["n_players", "held"])
        w.insert(0, "card", card)
        rows.append(w)
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def port_popularity(events: pd.DataFrame, rules) -> pd.DataFrame:
    """Ships sent to each outer port per player count: sends, share of all port
    sends (Wilson CI; n = port sends), sends per game, the port's slots."""
    if events is None or len(events) == 0:
        return pd.DataFrame()
    e = events[(events["action"] == "send port").to_numpy()]
    n_games = events.groupby("n_players")["game"].nunique()
    cnt = e.groupby(["n_players", "loc"], observed=True).size().rename("sends").reset_index()
    tot = e.groupby("n_players").size().rename("n").reset_index()
    out = cnt.merge(tot, on="n_players")
    pf = stats.proportion_frame(out["sends"], out["n"], "share")
    out["share"], out["ci_lo"], out["ci_hi"] = pf["share"], pf["ci_lo"], pf["ci_hi"]
    out["games"] = out["n_players"].map(n_games)
    out["sends_per_game"] = out["sends"] / out["games"]
    slots = port_slots(rules) if rules is not None else {}
    out["slots"] = out["loc"].map(slots)
    return out.rename(columns={"loc": "port"}).sort_values(["n_players", "sends"], ascending=[True, False],
                                                           ignore_index=True)


def run_all(res) -> dict[str, pd.DataFrame]:
    """Every balance table of a SimResults/Tables, by name."""
    t = as_tables(res)
    p, g = t.players, t.games
    out = {
        "win_rate_by_seat": win_rate_by_seat(p),
        "seat_chi2": seat_chi2(p),
        "win_rate_by_bot": win_rate_by_bot(p),
        "vp_by_seat": vp_summary(p),
        "vp_distribution": vp_distribution(p, by=("n_players", "seat", "bot")),
        "margin_summary": margin_summary(p),
        "margin_distribution": margin_distribution(p),
        "tie_rate": tie_rate(g).merge(top_vp_ties(p)[["n_players", "top_vp_tie_rate"]], on="n_players"),
    }
    if t.rules is not None:
        out["edge_card_effect"] = edge_card_effect(p, t.rules)
    if t.has_events:
        out["port_popularity"] = port_popularity(t.events, t.rules)
    return out
