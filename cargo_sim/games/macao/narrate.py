"""Macao's event log as a readable move-by-move text (``cargo-sim play --game macao``)."""
from __future__ import annotations

from .enums import A_JOKER, NC


def cubes_text(packed: int, colours) -> str:
    """Packed cube counts (one byte a colour) as '2 red + 1 green'."""
    parts = [f"{(packed >> (8 * c)) & 255} {colours[c]}" for c in range(NC) if (packed >> (8 * c)) & 255]
    return " + ".join(parts) or "no cubes"


def option_text(effect: str, x: int, args, colours, mixed: bool) -> str:
    """What an activation's answer x chose, in words ('' when it chose nothing): the colours
    paid and gained, the spaces sailed. The numbering is the engine's (docs/rules_macao.md,
    "Card effects"); the packed multiset decoder is the engine's own."""
    from .table_nb import multiset_nb
    one = lambda c, n: f"{n} {colours[c]}"                          # noqa: E731
    if effect == "PAY_CUBES_FOR_COINS":
        return "pays " + (cubes_text(multiset_nb(x, args[0]), colours) if mixed else one(x, args[0]))
    if effect == "PAY_CUBES_FOR_ANY_CUBE":
        paid = cubes_text(multiset_nb(x // NC, args[0]), colours) if mixed else one(x // NC, args[0])
        return f"pays {paid}, gains {one(x % NC, args[1])}"
    if effect in ("GAIN_ANY_CUBE", "CUBE_IF_ALONE_LOWEST", "CUBE_IF_TRIBUTE_PAID"):
        return f"gains {one(x, args[0])}"
    if effect == "PAY_COINS_FOR_ANY_CUBE":
        return f"gains {one(x, args[1])}"
    if effect == "PAY_DISTINCT_CUBES_FOR_POINTS":
        return "pays 1 " + ", 1 ".join(colours[c] for c in range(NC) if (x >> c) & 1)
    if effect in ("SAIL", "PAY_COINS_SAIL"):
        return f"sails {x} space(s)"
    return f"option {x}" if x else ""


def render(events, rules) -> str:
    cards, colours, goods = rules.card_names, rules.colours, rules.goods
    ports = rules.port_names

    def card(i):
        return cards[i] if 0 <= i < len(cards) else "?"

    lines, last_round = [], None
    for r in events.itertuples():
        if r.round != last_round:
            lines.append(f"-- round {r.round}" if r.round else "-- setup")
            last_round = r.round
        who = f"seat {r.seat}" if r.seat >= 0 else "table"
        pts = f"  [{r.points:+d} points]" if r.points else ""
        coins = f"  [{r.coins:+d} coins]" if r.coins else ""
        a, b, c = int(r.a), int(r.b), int(r.c)
        act = str(r.action)
        if act == "start_cubes":
            text = f"puts {c} {colours[a]} cube(s) on rose side {b}"
        elif act == "offer":
            text = f"offers {card(a)} (tribute {b} coins -> {c} points)"
        elif act == "draft":
            text = "takes no card" if a < 0 else f"takes {card(a)}"
        elif act == "discard":
            text = f"discards {card(a)} from a full tableau (penalty marker)"
        elif act == "roll":
            dice = [(a >> (4 * (NC - 1 - i))) & 15 for i in range(NC)]
            text = "rolls " + ", ".join(f"{colours[i]} {v}" for i, v in enumerate(dice))
        elif act == "lot":
            text = f"puts {c} {colours[a]} cube(s) on rose side {b}"
        elif act == "arrive":
            text = f"receives {a} cube(s) this round"
        elif act == "zero_cubes":
            text = "receives no cubes: penalty marker"
        elif act == "tribute":
            text = f"pays the tribute, {a} coins"
        elif act == "goods":
            tile = goods[b] if b >= 0 else "a joker tile"
            text = f"takes quarter {a + 1} and its tile ({tile})"
        elif act == "wall":
            text = f"moves up the wall to space {a} ({b} cube(s))"
        elif act == "sail":
            text = f"sails to space {a}"
        elif act == "deliver":
            text = f"delivers {goods[b]} to {ports[a]} (delivery {c + 1} there)"
        elif act == "complete":
            text = f"completes {card(a)} ({b} cube(s))"
        elif act == "activate":
            effect = rules[f"card.{card(a)}.effect"]
            chose = option_text(effect, b, rules[f"card.{card(a)}.args"], colours,
                                rules["any_cubes"] == "mixed")
            text = f"activates {card(a)}" + (f": {chose}" if chose else "")
            if effect == "DISCARD_PERSON_FOR_COINS":
                text = f"activates {card(a)}, discarding {card(c)}"
        elif act == "trigger":
            text = f"{card(a)} acts" if a >= 0 else "a card acts"
        elif act == "joker":
            text = "turns a joker into " + ("coins" if a == NC else f"a {colours[a]} cube") \
                if a <= A_JOKER else "uses a joker"
        elif act == "wasted":
            text = f"loses {a} unspent cube(s)"
        elif act == "end_card":
            text = f"scores {card(a)} at the end"
        elif act == "city":
            text = f"largest connected group: {a} of {b} quarters"
        elif act == "tableau":
            text = f"{a} card(s) left on the tableau"
        elif act == "markers":
            text = f"{a} penalty marker(s)"
        elif act == "rank":
            text = f"finishes with {b} points, rank {a}"
        else:
            text = act
        lines.append(f"{who} {text}{pts}{coins}")
    return "\n".join(lines)
