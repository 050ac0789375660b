"""Shipwrights' event log as a readable move-by-move text (``cargo-sim play --game shipwrights``)."""
from __future__ import annotations


def render(events, rules) -> str:
    cards, goods = rules.card_names, rules["goods"]
    backs = list(rules._data["back"])

    def card(i):
        return cards[i] if 0 <= i < len(cards) else "a card"

    def good(g):
        return goods[g] if 0 <= g < len(goods) else "?"

    lines, last_day = [], None
    for r in events.itertuples():
        if r.day != last_day:
            lines.append(f"-- day {r.day}" if r.day else "-- setup")
            last_day = r.day
        who = f"seat {r.seat}" if r.seat >= 0 else "table"
        pts = f"  [{r.points:+d} points]" if r.points and str(r.action) != "score" else ""
        gold = f"  [{r.gold:+d} gold]" if r.gold else ""
        a, b, c = int(r.a), int(r.b), int(r.c)
        act = str(r.action)
        text = {
            "first_player": lambda: "is the first player",
            "start_goods": lambda: f"puts 1 {good(a)} in the mill",
            "draft": lambda: f"keeps {card(a)} (draft round {b + 1})",
            "facedown": lambda: f"lays the last card of round {b + 1} face down",
            "buy_goods": lambda: f"buys {b} {good(a)} (back {backs[c] if 0 <= c < len(backs) else '?'})",
            "tool": lambda: f"buys the tool {card(a)}",
            "hire": lambda: f"hires {card(a)}",
            "start_ship": lambda: f"starts a {card(a)} in shipyard {b + 1}",
            "complete": lambda: f"completes the {card(a)}" + (f" (tool: no {good(c)})" if c >= 0 else ""),
            "build": lambda: f"constructs the {card(a)}",
            "townsfolk": lambda: f"plays the {card(a)}" + (f" (choice {b})" if b else ""),
            "discard": lambda: f"discards {card(a)}",
            "income": lambda: f"earns {a} gold and {b} worker(s)",
            "return": lambda: f"gives back {b} {good(a)} (mill full)",
            "reshuffle": lambda: f"the discard pile ({a} cards) becomes the deck",
            "military": lambda: f"takes the military token ({a} flags)",
            "score": lambda: f"scores {a} (ships) + {b} (buildings) + {c} (military) = {r.points} points",
            "rank": lambda: f"finishes with {b} points, rank {a}",
            "lose_gold": lambda: f"loses gold to seat {a}",
            "lose_card": lambda: f"loses {card(a)}",
            "draw": lambda: f"draws {card(a)}",
        }.get(act, lambda: act)()
        lines.append(f"{who} {text}{pts}{gold}")
    return "\n".join(lines)
