"""Cargo Empire's event log as text (`cargo-sim play --game cargo_empire`)."""
from __future__ import annotations

from . import enums as E
from .rules import REWARDS


def render(events, rules) -> str:
    names = list(rules.compiled()["names"])
    cols = rules["colours"]

    def city(c):
        return names[c] if 0 <= c < len(names) else ("a blank card" if c == E.BLANK else "-")

    lines = []
    for r in events.itertuples():
        who = f"round {r.round} seat {r.seat}"
        act, a, b, c, d = str(r.action), int(r.a), int(r.b), int(r.c), int(r.d)
        if act == "order":
            bonus = ("truck", "train", "ship", "any card")[b] if 0 <= b < 4 else "?"
            text = f"takes order space {a + 1} ({bonus})"
        elif act == "card":
            text = f"gains {b} {E.VEHICLES[a]} card(s)"
        elif act == "mission":
            text = f"keeps mission {list(rules.to_dict()['mission'])[a]}"
        elif act == "start":
            text = f"starts in {city(a)} ({'first' if c == 1 else 'second'} start city)"
        elif act == "deliver":
            pay = ", ".join(f"{(c >> (8 * v)) & 255} {E.VEHICLES[v]}" for v in range(3) if (c >> (8 * v)) & 255)
            text = f"delivers {cols[d]} from {city(a)} to {city(b)}, paying {pay}"
        elif act == "upgrade":
            text = f"{city(a)} upgrades to LV{b}{' (perfect)' if c else ''}"
        elif act == "pass":
            text = "passes: takes a truck, a train and a ship" if a == 0 else f"passes: refills {city(a - 1)}"
        elif act == "step":
            text = f"{E.VEHICLES[a]} steps on" + (f", reward: {REWARDS[b]}" if b else "")
        elif act == "take":
            text = f"takes the city card {city(a)}"
        elif act == "score":
            text = f"scores {a} VP (development {b}, LV3 posts {c}, missions {d})"
        else:
            text = f"{act} {a} {b} {c} {d}"
        lines.append(f"{who}: {text}")
    return "\n".join(lines)
