"""Readable names of the state array's words (for errors: "coins of seat 1")."""
from __future__ import annotations

from . import enums as e

_MISC = {getattr(e, n): n for n in dir(e) if n.startswith("M_") and isinstance(getattr(e, n), int)}
_HEADER = {getattr(e, n): n for n in dir(e) if n.startswith("R_") and isinstance(getattr(e, n), int)
           and getattr(e, n) < e.PORT_SLOTS}
_WORDS = {"M_TURN": "turn counter", "M_SEAT": "seat to play", "M_BANK": "bank",
          "M_RNG": "game's chance stream", "M_BOT_SEED": "bots' seed", "M_STEP": "game's step",
          "M_ASK": "pending decision", "M_ERR_KIND": "error record", "M_DECISIONS": "decision counter",
          "M_SEAT_KEY": "search seat's key", "M_TABLE_SUM": "tables' checksum",
          "R_N_PLAYERS": "number of players", "R_N_TURNS": "number of turns", "R_LEN": "state length"}
_PLAYER = ("coins", "ships", "ships in hand", "ships at the Casino", "ships at the Black Market",
           "warehouse")


def _block(i: int, start: int, width: int, per: int):
    """(row, column) of word i in a block of `width` rows of `per` words, else None."""
    if start <= i < start + width * per:
        return divmod(i - start, per)
    return None


def slot_name(i: int) -> str:
    """What word i of a Cargo Noir state holds, in words."""
    i = int(i)
    if i in _MISC:
        n = _MISC[i]
        return f"the {_WORDS.get(n, n)} ({n})"
    if i in _HEADER:
        n = _HEADER[i]
        return f"the rules header's {_WORDS.get(n, n)} ({n})"
    tables = [
        (e.PLAYER, e.MAX_SEATS, e.PLAYER_W,
         lambda r, c: f"{_PLAYER[c] if c < len(_PLAYER) else 'player word %d' % c} of seat {r}"),
        (e.HAND, e.MAX_SEATS, e.MAX_TOK, lambda r, c: f"seat {r}'s hand (token type {c})"),
        (e.CARDS, e.MAX_SEATS, e.MAX_CARDS, lambda r, c: f"seat {r}'s victory cards (card {c})"),
        (e.STATS, e.MAX_SEATS, e.STATS_W, lambda r, c: f"seat {r}'s statistics"
         + (f" ({e.PLAYER_FIELDS[c]})" if c < len(e.PLAYER_FIELDS) else "")),
        (e.PARAMS, e.MAX_SEATS, e.N_PARAMS, lambda r, c: f"parameter {c} of seat {r}"),
        (e.PORT_TOK, e.MAX_PORTS, e.MAX_TOK, lambda r, c: f"the cargo of port {r} (token type {c})"),
        (e.PORT_BID, e.MAX_PORTS, e.MAX_SEATS, lambda r, c: f"seat {c}'s stack at port {r}"),
        (e.CARD, e.MAX_CARDS, e.CARD_W, lambda r, c: f"the rules' data of card {r}"),
    ]
    for start, rows, per, name in tables:
        at = _block(i, start, rows, per)
        if at is not None:
            return name(*at)
    single = [(e.BOTS, e.MAX_SEATS, "the bot of seat {}"), (e.BAG, e.MAX_TOK, "the bag (token type {})"),
              (e.DISCARD, e.MAX_TOK, "the discard pile (token type {})"),
              (e.BLACK_MARKET, e.MAX_TOK, "the Black Market (token type {})"),
              (e.ABANDONED, e.MAX_PORTS, "port {}'s abandoned mark"),
              (e.PORT_TOP, e.MAX_PORTS, "port {}'s top stack"), (e.SUPPLY, e.MAX_CARDS, "the supply of card {}"),
              (e.PORT_SLOTS, e.MAX_PORTS, "the slots of port {}"), (e.CTX, e.CTX_W, "the decision context (word {})")]
    for start, n, text in single:
        if start <= i < start + n:
            return text.format(i - start)
    if 0 <= i < e.PORT_SLOTS:
        return f"the rules header (word {i})"
    if e.MISC <= i < e.MISC + e.N_MISC:
        return f"the game's bookkeeping (word {i - e.MISC})"
    return f"word {i} of the state"
