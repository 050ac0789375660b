"""The ranges the engine can hold: rules beyond them are refused, never played.

The per-player table is int32 and the engine loops over sizes (a port's slots,
the Black Market, ships, card effects), so a huge rule value would wrap into
silently wrong numbers or make a game run for hours. Each check bounds what a
game could ever reach under these rules; docs/safety.md lists the limits.
"""
from __future__ import annotations

from ...core.checks import whole
from .enums import MAX_PORTS

INT_MAX = 2**31 - 1       # per-player table cells are int32
MAX_TURNS = 1000
MAX_TOKENS_PER_TYPE = 1000
MAX_WILDS = 30            # the trade tables cover at most 30 Wilds
MAX_SHIPS = 20            # the heuristic bots' game time grows steeply beyond (30: > 30 s)
MAX_TAKE = 24             # cargo a player can win in one turn (hands beyond need the slow exact solver)
MAX_COPIES = 1000
MAX_HAND_VALUE = 12_000    # tokens in play x top combination value (default rules: 10,611; 20,000: 20 s games)
MAX_COIN_WORTH = 100_000   # coins in play x final_coin_value (default rules: 60)
MAX_WAREHOUSE = 24        # tokens a player can keep between turns (default rules: 22)


def tokens_in_play(d: dict) -> int:
    return len(d["cargo_types"]) * d["tokens_per_type"] + d["wilds_total"]


def _ints(d: dict):
    """(flat name, value) of every integer in the rules data."""
    for k, v in d.items():
        if whole(v, numpy=False):
            yield k, v
    for k in ("value_same", "value_different"):
        for i, v in enumerate(d[k]):
            yield f"{k}[{i}]", v
    for n, t in d.get("turns", {}).items():
        yield f"turns.{n}", t
    for sect in ("port", "card"):
        for name, fields in d.get(sect, {}).items():
            for f, v in fields.items():
                if whole(v, numpy=False):
                    yield f"{sect}.{name}.{f}", v


def _worst(terms: dict) -> str:
    """The parameter contributing most to a sum, for the error message."""
    return max(terms, key=terms.get)


def limit_problems(d: dict) -> list[str]:
    """Every rule value beyond what the engine can hold or use (d is otherwise valid)."""
    p = []
    for name, v in _ints(d):
        if v > INT_MAX:
            p.append(f"{name}: at most {INT_MAX} (the engine's int32 range), got {v}")
    if p:
        return p

    def cap(name, v, hi, why):
        if v > hi:
            p.append(f"{name}: at most {hi} ({why}), got {v}")

    turns = {f"turns.{n}": t for n, t in d["turns"].items()}
    for name, t in turns.items():
        cap(name, t, MAX_TURNS, "longer games are not supported")
    cap("tokens_per_type", d["tokens_per_type"], MAX_TOKENS_PER_TYPE, "a bigger bag is not supported")
    cap("wilds_total", d["wilds_total"], MAX_WILDS, "the trade tables cover that many Wilds")
    cap("wilds_per_player", d["wilds_per_player"], MAX_WILDS, "the trade tables cover that many Wilds")
    cap("ships_per_player", d["ships_per_player"], MAX_SHIPS, "more ships are not supported")
    cap("edge_limit_per_type", d["edge_limit_per_type"], MAX_COPIES, "no card has more copies")
    if p:
        return p
    tok = tokens_in_play(d)
    why = f"the {tok} tokens in play"
    cap("black_market_slots", d["black_market_slots"], tok, why)
    cap("start_warehouse", d["start_warehouse"], tok, why)
    cap("max_combo", d["max_combo"], tok, why)
    for name, port in d["port"].items():
        cap(f"port.{name}.slots", port["slots"], tok, why)
    for name, card in d["card"].items():
        cap(f"card.{name}.copies", card["copies"], MAX_COPIES, "more copies are not supported")
        cap(f"card.{name}.ships", card["ships"], d["ships_per_player"], "ships_per_player")
        cap(f"card.{name}.warehouse", card["warehouse"], tok, why)
    if p:
        return p
    keep = {f"card.{n}.warehouse": c["copies"] * c["warehouse"] for n, c in d["card"].items()}
    keep["start_warehouse"] = d["start_warehouse"]
    if sum(keep.values()) > MAX_WAREHOUSE:
        p.append(f"{_worst(keep)}: too large, a player could keep {sum(keep.values())} tokens "
                 f"(start_warehouse + sum of copies x warehouse), beyond {MAX_WAREHOUSE} (bigger "
                 f"hands make a trade's value take seconds to compute)")
    for k in range(d["min_players"], d["max_players"] + 1):
        slots = sorted((port["slots"] for port in d["port"].values() if k in port["players"]),
                       reverse=True)
        take = sum(slots[:d["ships_per_player"]])     # a ship wins at most one port
        if take > MAX_TAKE:
            p.append(f"port.*.slots: too large, a player could win {take} cargo tokens in one turn "
                     f"at {k} players (its ships_per_player ships on the largest ports), beyond "
                     f"{MAX_TAKE} (bigger hands make a trade's value take seconds to compute)")
            break
    if p:
        return p

    def total(what, terms, base=0):
        s = base + sum(terms.values())
        if s > INT_MAX:
            p.append(f"{_worst(terms)}: too large, {what} could reach {s}, beyond the engine's "
                     f"int32 range ({INT_MAX})")

    cards = d["card"]
    total("a player's VP (sum of copies x vp)",
          {f"card.{n}.vp": c["copies"] * c["vp"] for n, c in cards.items()})
    total("a player's warehouse (start_warehouse + sum of copies x warehouse)",
          {f"card.{n}.warehouse": c["copies"] * c["warehouse"] for n, c in cards.items()},
          d["start_warehouse"])
    n = d["max_players"]
    T = max(d["turns"][str(k)] for k in range(d["min_players"], n + 1))
    if d["unlimited_coins"]:
        per_turn = {"casino_payout": d["ships_per_player"] * d["casino_payout"]}
        per_turn.update({f"card.{k}.syndicate": c["copies"] * c["syndicate"] for k, c in cards.items()})
        coins = {"start_coins": n * d["start_coins"]}
        coins.update({k: T * n * v for k, v in per_turn.items()})
    else:
        coins = {"total_coins": d["total_coins"]}
    # a coin can be bid, raised, paid and won back at every port and location each turn
    flow = T * (MAX_PORTS + 2)
    total("the coins a player moves in a game", {k: flow * v for k, v in coins.items()})
    vmax = max(d["value_same"][-1], d["value_different"][-1])
    trade = {"value_same" if d["value_same"][-1] >= d["value_different"][-1] else "value_different":
             T * tok * vmax,
             "final_coin_value": sum(coins.values()) * d["final_coin_value"]}
    total("a player's trade value", trade)
    if p:
        return p
    # a bot's trade planner runs a knapsack over every budget up to the hand's
    # trade value plus (last turn) its coins' worth: int64 rows of ~70 x budget,
    # each cell visited per plan. The hand's part is the costly one (with big
    # hands, 20,000 made 20 s games); coins count on the last turn only.
    vname = "value_same" if d["value_same"][-1] >= d["value_different"][-1] else "value_different"
    if tok * vmax > MAX_HAND_VALUE:
        p.append(f"{vname}: too large, a hand's trade value (tokens in play x top combination "
                 f"value) could reach {tok * vmax}, beyond {MAX_HAND_VALUE:,} (the trade "
                 f"planner's time and memory grow with it)")
    worth = sum(coins.values()) * d["final_coin_value"]
    if worth > MAX_COIN_WORTH:
        p.append(f"final_coin_value: too large, a player's coins could be worth {worth} in a "
                 f"trade (coins in play x final_coin_value), beyond {MAX_COIN_WORTH:,} (the "
                 f"trade planner's memory grows with it)")
    return p
