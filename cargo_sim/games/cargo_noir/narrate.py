"""A game's event log in plain English (``play_one``'s text, ``cargo-sim play``,
the replay page): one sentence per event, singular and plural right, and the
final scores once, at the end."""
from __future__ import annotations

import pandas as pd


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 coin``, ``2 coins``, ``0 coins``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def join_and(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def cargo_phrase(counts: dict[str, int]) -> str:
    """Tokens as words: ``art``, ``2 gold``, ``a Wild``; ``nothing`` when empty.
    Cargo names are mass nouns (``weapons``, ``art``), so one token is its bare
    name and more get a count."""
    parts = []
    for name, n in counts.items():
        if n <= 0:
            continue
        if name == "wild":
            parts.append("a Wild" if n == 1 else f"{n} Wilds")
        else:
            parts.append(name if n == 1 else f"{n} {name}")
    return join_and(parts) if parts else "nothing"


def _tokens(row: dict, tok_names: list[str], sign: int = 1) -> dict[str, int]:
    return {t: sign * int(row[t]) for t in tok_names if sign * int(row[t]) > 0}


def event_sentence(row: dict, tok_names: list[str]) -> str:
    """One event (a row of ``events_frame`` as a dict) as a sentence without its subject."""
    a, loc = row["action"], row["loc"]
    amount, value, count = int(row["amount"]), int(row["value"]), int(row["count"])
    cargo = cargo_phrase(_tokens(row, tok_names))
    if a == "send casino":
        return "sends a ship to the Casino"
    if a == "send black market":
        return "sends a ship to the Black Market"
    if a == "send port":
        return f"sends a ship to {loc}, bidding {plural(amount, 'coin')}"
    if a == "casino":
        return f"collects {plural(amount, 'coin')} at the Casino with {plural(count, 'ship')}"
    if a == "black market swap":
        given = cargo_phrase(_tokens(row, tok_names, -1))
        if given == cargo == "nothing":     # a token for one of its own kind: the row nets to zero
            return "swaps a token for one of the same kind at the Black Market (no change)"
        return f"swaps {given} for {cargo} at the Black Market"
    if a == "black market draw":
        if cargo == "nothing":
            return "draws nothing at the Black Market: the bag is empty"
        return f"draws {cargo} from the bag at the Black Market"
    if a == "port win":
        return f"wins {loc} for {plural(amount, 'coin')} and takes {cargo}"
    if a == "raise":
        return f"raises at {loc} by {plural(amount, 'coin')} to {plural(value, 'coin')}"
    if a == "abandon":
        return f"leaves {loc} and takes back {plural(amount, 'coin')}"
    if a == "syndicate":
        return f"is paid {plural(amount, 'coin')} by the Syndicate"
    if a == "trade":
        extra = f" plus {plural(amount, 'coin')}" if amount else ""
        return f"sells {cargo} for a smuggling value of {value}{extra}"
    if a == "buy":
        card = row["card"]
        what = f"a {card} card" if count == 1 else f"{count} {card} cards"
        return f"takes {what} ({plural(value, 'VP', 'VP')})"
    if a == "discard":
        return f"discards {cargo} (warehouse full)"
    if a == "bag refill":
        return f"the discard pile ({plural(count, 'token')}) goes back into the bag"
    if a == "bank shortfall":
        return f"the bank is {plural(amount, 'coin')} short"
    if a == "score":
        return f"scores {plural(value, 'VP', 'VP')}" + (", the winner" if count else "")
    return str(a)


def final_scores(events: pd.DataFrame) -> list[str]:
    """``seat 0 (random): 34 VP  WINNER`` per seat, from the score events."""
    out = []
    for r in events[events["action"] == "score"].itertuples(index=False):
        who = getattr(r, "bot", "")
        out.append(f"  seat {r.seat}" + (f" ({who})" if who else "")
                   + f": {plural(int(r.value), 'VP', 'VP')}" + ("  WINNER" if r.count else ""))
    return out


def render(events: pd.DataFrame, tok_names: list[str]) -> str:
    """The whole game: a heading per seat's turn, one line per event with the
    seat's coins after it, then the final scores."""
    lines, last = [], None
    for r in events.itertuples(index=False):
        row = r._asdict()
        if row["action"] == "score":
            continue
        seat = int(row["seat"])
        head = (int(row["turn"]), seat)
        if head != last and seat >= 0:
            who = row.get("bot", "")
            lines.append(f"-- turn {head[0]}, seat {seat}" + (f" ({who})" if who else ""))
            last = head
        coins = f"  [now {plural(int(row['coins']), 'coin')}]" if seat >= 0 else ""
        lines.append(f"   {event_sentence(row, tok_names)}{coins}")
    scores = final_scores(events)
    if scores:
        lines += ["", "Final scores:"] + scores
    return "\n".join(lines)
