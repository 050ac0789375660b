"""Bidding for the outer ports, from the event log.

An *episode* is the life of one auction at one port of one game: it starts
with the first ship sent to the port after its previous win (or the start of
the game) and ends when a ship takes the cargo (``port win``). Episodes still
open when the game ends are kept with ``complete = False`` (a raise on the last
turn leaves a ship that is never resolved).

* Stacks: ``send port`` amount = the stack put down, ``raise`` value = the new
  stack, ``abandon`` amount = the stack taken back, ``port win`` amount = the
  price paid.
* The runner-up's stack is the largest LAST stack of any other player in the
  episode (whether they abandoned or not); overpayment = price - that stack.
* A send "met another ship" when its episode has two or more sends: a port is
  never empty between an episode's first send and its win (a ship only leaves
  by abandoning, which needs a higher ship there, or by winning, which ends the
  episode), so every send of such an episode shared the port with another.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyses import stats
from analyses.data import as_tables
from .data import PORT_ACTIONS, event_order, port_slots, token_columns

# what run_all reads (a Tables / SimResults): the report runs the pipelines of a game's
# Game.analyses that read results (analyses.games.pipelines)
READS = "results"


def cargo_values(events: pd.DataFrame, rules, cols: list[str] | None = None) -> np.ndarray:
    """Smuggling value (cargo_sim.trade_value with the rules' tables) of the
    tokens in each row; computed once per distinct cargo vector."""
    from ..trade.api import trade_value
    cols = cols or token_columns(rules, events)
    if len(events) == 0:
        return np.zeros(0, dtype=np.int64)
    tables = rules.trade_tables() if rules is not None else None
    arr = np.clip(events[cols].to_numpy(dtype=np.int64), 0, None)
    if arr.max(initial=0) < 64 and len(cols) <= 10:      # one int64 key per cargo vector
        key = (arr << (6 * np.arange(len(cols), dtype=np.int64))).sum(axis=1)
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        uniq = arr[first]
    else:
        uniq, inv = np.unique(arr, axis=0, return_inverse=True)
    vals = np.array([trade_value(u[:-1], int(u[-1]), tables) for u in uniq], dtype=np.int64)
    return vals[np.asarray(inv).reshape(-1)]


def episodes(events: pd.DataFrame, rules) -> pd.DataFrame:
    """One row per port auction: n_players, game, port, slots, first_turn,
    win_turn, winner seat and bot, price, tokens, value (smuggling value of the
    cargo won), sends, seats (distinct players who sent), raises, abandons,
    contested (sends >= 2), runner_up (largest last stack of another player,
    NaN if none), overpay (price - runner_up), complete."""
    ev = event_order(events)
    e = ev[ev["action"].isin(PORT_ACTIONS).to_numpy()].copy()
    if len(e) == 0:
        return pd.DataFrame(columns=["n_players", "game", "port", "slots", "first_turn", "win_turn",
                                     "seat", "bot", "price", "tokens", "value", "sends", "seats",
                                     "raises", "abandons", "contested", "runner_up", "overpay",
                                     "complete"])
    e["act"] = e["action"]
    e = e.sort_values(["game", "loc", "order"], kind="stable")
    is_win = (e["act"] == "port win").astype(np.int64)
    e["ep"] = is_win.groupby([e["game"], e["loc"]], sort=False).cumsum() - is_win
    e["stack"] = np.where(e["act"] == "raise", e["value"], e["amount"])
    key = ["game", "loc", "ep"]
    if "n_players" not in e.columns:
        e["n_players"] = 0
    e["is_send"] = (e["act"] == "send port").astype(np.int64)
    e["is_raise"] = (e["act"] == "raise").astype(np.int64)
    e["is_abandon"] = (e["act"] == "abandon").astype(np.int64)
    g = e.groupby(key, sort=False)
    base = g.agg(n_players=("n_players", "first"), first_turn=("turn", "min"),
                 sends=("is_send", "sum"), raises=("is_raise", "sum"),
                 abandons=("is_abandon", "sum"))
    base["seats"] = e[e["is_send"] == 1].groupby(key, sort=False)["seat"].nunique()
    wins = e[e["act"] == "port win"].set_index(key)
    tok = token_columns(rules, events)
    win_cols = wins[["turn", "seat", "amount", "count"] + (["bot"] if "bot" in wins.columns else [])]
    win_cols = win_cols.rename(columns={"turn": "win_turn", "amount": "price", "count": "tokens"})
    win_cols["value"] = cargo_values(wins, rules, tok)
    out = base.join(win_cols, how="left")
    out["complete"] = out["price"].notna()
    # runner-up: largest last stack among the other seats of the episode
    last = (e[e["act"] != "port win"].groupby(key + ["seat"], sort=False)["stack"].last()
            .reset_index())
    last = last.merge(out[["seat"]].rename(columns={"seat": "win_seat"}).reset_index(), on=key, how="left")
    last = last[last["seat"] != last["win_seat"]]
    ru = last.groupby(key, sort=False)["stack"].max()
    out["runner_up"] = ru.reindex(out.index)
    out["overpay"] = out["price"] - out["runner_up"]
    out["contested"] = out["sends"] >= 2
    out["seats"] = out["seats"].fillna(0).astype(int)
    out = out.reset_index().rename(columns={"loc": "port"})
    slots = port_slots(rules) if rules is not None else {}
    out["slots"] = out["port"].map(slots)
    cols = ["n_players", "game", "port", "slots", "ep", "first_turn", "win_turn", "seat"] + \
           (["bot"] if "bot" in out.columns else []) + \
           ["price", "tokens", "value", "sends", "seats", "raises", "abandons", "contested",
            "runner_up", "overpay", "complete"]
    out = out[cols].sort_values(["game", "first_turn", "port"], ignore_index=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["price_per_token"] = np.where(out["tokens"] > 0, out["price"] / out["tokens"], np.nan)
        out["price_per_value"] = np.where(out["value"] > 0, out["price"] / out["value"], np.nan)
    return out


def winning_price(ep: pd.DataFrame, by) -> pd.DataFrame:
    """Mean winning price (coins) per group of completed auctions, with mean
    price per token and per point of smuggling value (means of the per-win
    ratios) and their t CIs; n = port wins."""
    w = ep[ep["complete"]]
    out = stats.grouped_mean(w, by, "price")
    by = stats.as_list(by)
    for col, pre in (("price_per_token", "per_token"), ("price_per_value", "per_value")):
        m = stats.grouped_mean(w, by, col)[by + ["mean", "ci_lo", "ci_hi"]]
        m = m.rename(columns={"mean": f"{pre}", "ci_lo": f"{pre}_ci_lo", "ci_hi": f"{pre}_ci_hi"})
        out = out.merge(m, on=by, how="left")
    tv = stats.grouped_mean(w, by, "value")[by + ["mean"]].rename(columns={"mean": "mean_value"})
    tk = stats.grouped_mean(w, by, "tokens")[by + ["mean"]].rename(columns={"mean": "mean_tokens"})
    return out.merge(tk, on=by, how="left").merge(tv, on=by, how="left")


def bidding_rates(events: pd.DataFrame, ep: pd.DataFrame | None = None, rules=None,
                  by=("n_players",)) -> pd.DataFrame:
    """Per group: port sends (n), contest rate (share of port sends that met
    another ship), outbid decisions (raises + abandons), raise rate and abandon
    rate among them, share of sends that ended in a win; Wilson CIs."""
    if ep is None:
        ep = episodes(events, rules)
    by = list(by)
    ep = ep.assign(contested_sends=np.where(ep["contested"], ep["sends"], 0),
                   wins=ep["complete"].astype(int),
                   outbid=ep["raises"] + ep["abandons"])
    g = ep.groupby(by, observed=True, sort=True)[["sends", "contested_sends", "raises", "abandons",
                                                    "outbid", "wins"]].sum()
    out = g.reset_index()
    c = stats.proportion_frame(g["contested_sends"], g["sends"], "contest_rate")
    out["contest_rate"], out["contest_ci_lo"], out["contest_ci_hi"] = \
        c["contest_rate"].to_numpy(), c["ci_lo"].to_numpy(), c["ci_hi"].to_numpy()
    r = stats.proportion_frame(g["raises"], g["outbid"], "raise_rate")
    out["raise_rate"], out["raise_ci_lo"], out["raise_ci_hi"] = \
        r["raise_rate"].to_numpy(), r["ci_lo"].to_numpy(), r["ci_hi"].to_numpy()
    a = stats.proportion_frame(g["abandons"], g["outbid"], "abandon_rate")
    out["abandon_rate"], out["abandon_ci_lo"], out["abandon_ci_hi"] = \
        a["abandon_rate"].to_numpy(), a["ci_lo"].to_numpy(), a["ci_hi"].to_numpy()
    w = stats.proportion_frame(g["wins"], g["sends"], "win_per_send")
    out["win_per_send"], out["win_ci_lo"], out["win_ci_hi"] = \
        w["win_per_send"].to_numpy(), w["ci_lo"].to_numpy(), w["ci_hi"].to_numpy()
    out = out.rename(columns={"sends": "n"})
    return out


def rates_by_bot(events: pd.DataFrame) -> pd.DataFrame:
    """Per player count and bot: raise and abandon rates of its outbid
    decisions (n = raises + abandons, Wilson CIs)."""
    d = events[events["action"].isin(["raise", "abandon"]).to_numpy()]
    d = d.assign(raised=(d["action"] == "raise").to_numpy().astype(int))
    return stats.grouped_proportion(d, ["n_players", "bot"], "raised", "raise_rate")


def overpayment(ep: pd.DataFrame, by=("n_players",)) -> pd.DataFrame:
    """Overpayment (price - runner-up's last stack) of contested completed
    auctions with a runner-up: n, mean with t CI, median with bootstrap CI,
    share of wins at the minimum (overpay == 1, Wilson CI)."""
    by = list(by)
    d = ep[ep["complete"] & ep["runner_up"].notna()].copy()
    out = stats.grouped_mean(d, by, "overpay")
    med = stats.grouped_median(d, by, "overpay").drop(columns="n").rename(
        columns={"ci_lo": "median_ci_lo", "ci_hi": "median_ci_hi"})
    d["at_min"] = (d["overpay"] <= 1).astype(int)
    mn = stats.grouped_proportion(d, by, "at_min", "share_min")[by + ["share_min"]]
    return out.merge(med, on=by, how="left").merge(mn, on=by, how="left")


def overpay_distribution(ep: pd.DataFrame) -> pd.DataFrame:
    d = ep[ep["complete"] & ep["runner_up"].notna()]
    return stats.value_counts_frame(d.assign(overpay=d["overpay"].astype(int)), "n_players", "overpay")


def syndicate_income(players: pd.DataFrame, rules=None) -> pd.DataFrame:
    """Syndicate coins per player-game by Syndicate cards held at the end
    (players table; n = player-games), with abandons for context."""
    col = "card_Syndicate"
    if col not in players.columns:
        cards = [c for c in players.columns if c.startswith("card_") and "yndicate" in c]
        if not cards:
            return pd.DataFrame()
        col = cards[0]
    d = players.assign(held=players[col].astype(int))
    out = stats.grouped_mean(d, ["n_players", "held"], "syndicate_coins")
    ab = stats.grouped_mean(d, ["n_players", "held"], "abandons")[["n_players", "held", "mean"]]
    return out.merge(ab.rename(columns={"mean": "mean_abandons"}), on=["n_players", "held"])


def syndicate_events(events: pd.DataFrame) -> pd.DataFrame:
    """From events: Syndicate payments per player count (n = payments; mean
    coins with t CI) and payments per game."""
    d = events[(events["action"] == "syndicate").to_numpy()]
    out = stats.grouped_mean(d, "n_players", "amount")
    games = events.groupby("n_players")["game"].nunique()
    out["games"] = out["n_players"].map(games)
    out["payments_per_game"] = out["n"] / out["games"]
    return out


def run_all(res) -> dict[str, pd.DataFrame]:
    t = as_tables(res)
    out = {"syndicate_income": syndicate_income(t.players, t.rules)}
    if not t.has_events:
        return out
    ep = episodes(t.events, t.rules)
    out.update({
        "episodes": ep,
        "price_by_port": winning_price(ep, ["n_players", "port", "slots"]),
        "price_by_slots": winning_price(ep, ["n_players", "slots"]),
        "price_by_turn": winning_price(ep, ["n_players", "win_turn"]),
        "price_by_players": winning_price(ep, ["n_players"]),
        "bidding_rates": bidding_rates(t.events, ep),
        "bidding_rates_by_turn": bidding_rates(t.events, ep, by=("n_players", "first_turn")),
        "raise_rate_by_bot": rates_by_bot(t.events),
        "overpayment": overpayment(ep),
        "overpay_distribution": overpay_distribution(ep),
        "syndicate_events": syndicate_events(t.events),
    })
    return out
