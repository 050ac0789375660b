"""Writes ``rules_default.toml`` from the data here (``HEADER``, ``SCALARS``, ``PROVENANCE``,
the board's rules, ``CARDS``): the rulebook values plus every estimate, each made by a
stated rule (docs/rules_macao.md), so the estimates are reproducible.

    python -m cargo_sim.games.macao.gen_defaults > cargo_sim/games/macao/rules_default.toml

A test checks the committed file is this script's output. Edit a value here (or
the rule that makes it) and run the script again; a study that wants other
values overrides them (``Rules.replace``, a rules file), it does not edit this.
Not imported by the game at run time.
"""
from __future__ import annotations

import json

from .effects import EFFECTS, cost_from_worth, worth

COLOURS = ["green", "grey", "blue", "black", "purple", "red"]   # the office colours, seed 003 237-512
GOODS = ["spice", "jade", "lacquer", "paper", "porcelain", "rice", "silk", "tea"]
PORTS = ["Lisboa", "Barcelona", "Marseille", "Genova", "London", "Antwerpen", "Amsterdam", "Hamburg"]
ROWS, COLS = 5, 6
# cells (row, col) of the 5x6 grid whose "\" diagonal is left out: a four-way corner of streets
NO_DIAGONAL = [(0, 2), (1, 0), (1, 4), (2, 2), (3, 0), (3, 3)]
DARK = [2, 5, 15, 18, 26, 29]
DARK_ALTERNATIVES = [[6, 12, 18, 23, 24, 30],      # "the black districts on the right" (seed 003 line 53)
                     [8, 9, 14, 15, 20, 21]]       # a dark centre, all six touching
LIGHT_COSTS = [2, 3, 3, 4]                          # cubes, cycled over the light quarters
DARK_COST = 3

G, GR, B, BK, PU, R = range(6)
O, BU, PE = range(3)        # kinds: office, building, person

# name: (kind, effect, args, seed 003 line of the card's text)
CARDS = {
    "Bau": ("office", "PAY_CUBE_FOR_COINS", [G, 1, 1], 239),
    "Finanzen": ("office", "PAY_CUBE_FOR_COINS", [GR, 1, 1], 275),
    "Justiz": ("office", "PAY_CUBE_FOR_COINS", [B, 1, 1], 332),
    "Militärwesen": ("office", "PAY_CUBE_FOR_COINS", [BK, 1, 1], 383),
    "Verwaltung": ("office", "PAY_CUBE_FOR_COINS", [PU, 1, 1], 494),
    "Zoll": ("office", "PAY_CUBE_FOR_COINS", [R, 1, 1], 512),
    "Abt": ("person", "END_NO_TABLEAU_PENALTY", [], 212),
    "Amtsdiener": ("person", "COINS_PER_OFFICE_COLOUR_ACTIVATED", [1], 215),
    "Amtsleiter": ("person", "COINS_IF_COMPLETED", [O, 3, 1], 218),
    "Amtsstube": ("building", "POINTS_IF_OFFICE_ACTIVATED", [1], 221),
    "Archiv": ("building", "COMPLETE_DISCOUNT", [O, 1], 224),
    "Bank": ("building", "GAIN_COINS", [2], 227),
    "Baronesa Dois": ("person", "END_SET_POINTS", [3, 4, 5, 1], 230),
    "Baronesa Tres": ("person", "END_SET_POINTS", [3, 4, 5, 1], 233),
    "Baronesa Um": ("person", "END_SET_POINTS", [3, 4, 5, 1], 236),
    "Baumeister": ("person", "COINS_ON_COMPLETE", [BU, 2], 242),
    "Bettler": ("person", "CUBE_IF_ALONE_LOWEST", [1], 245),
    "Bischof": ("person", "PAY_COINS_FOR_POINTS", [1, 2], 248),
    "Botschaft": ("building", "POINTS_ON_TRIBUTE", [2], 251),
    "Böttcherei": ("building", "DELIVERY_BONUS", [1, 0], 254),
    "Brunnen": ("building", "WALL_STEPS_ON_GOODS", [1], 257),
    "Diplomat": ("person", "EXTRA_TRIBUTE", [1], 260),
    "Donna Blu": ("person", "GAIN_CUBE", [B, 1], 263),
    "Edler": ("person", "PAY_COINS_FOR_ANY_CUBE", [2, 1], 266),
    "Exerzierplatz": ("building", "COINS_ON_OFFICE_ACTIVATE", [BK, 1], 269),
    "Festung": ("building", "POINTS_PER_OFFICE", [BK, 1], 272),
    "Forscher": ("person", "DICE_EXTRA_CUBE", [1], 278),
    "Frau Rot": ("person", "GAIN_CUBE", [R, 1], 281),
    "Gaukler": ("person", "JOKER_REUSE", [2], 284),
    "Geldverleiher": ("person", "GAIN_COINS_POINTS", [1, 1], 287),
    "Gelehrter": ("person", "GAIN_ANY_CUBE", [1], 290),
    "Gericht": ("building", "POINTS_PER_OFFICE", [B, 1], 293),
    "Gesandter": ("person", "CUBE_IF_TRIBUTE_PAID", [1], 296),
    "Gewürzlager": ("building", "DELIVERY_MULTIPLIER", [0, 2], 299),
    "Goldschmied": ("person", "PAY_CUBES_FOR_COINS", [1, 1, 0], 302),
    "Goldsucher": ("person", "PAY_CUBES_FOR_COINS", [3, 1, 1], 305),
    "Gouverneur": ("person", "END_POINTS", [7], 308),
    "Graf": ("person", "PAY_COINS_COMPLETE_CARD", [4], 311),
    "Grenzposten": ("building", "COINS_ON_OFFICE_ACTIVATE", [R, 1], 314),
    "Handwerker": ("person", "COMPLETE_REFUND", [1], 317),
    "Hebamme": ("person", "END_POINTS_PER_COMPLETED", [PE, 1], 320),
    "Heiler": ("person", "COMPLETE_DISCOUNT", [PE, 1], 323),
    "Herold": ("person", "GOODS_FOR_COINS", [3], 326),
    "Jadelager": ("building", "DELIVERY_MULTIPLIER", [1, 2], 329),
    "Kämmerer": ("person", "COINS_ON_COMPLETE", [O, 1], 335),
    "Kanonier": ("person", "COINS_IF_ALONE_LAST_ON_WALL", [1], 338),
    "Kapelle": ("building", "POINTS_IF_SCORED", [1], 341),
    "Kapitän": ("person", "POINTS_IF_SAILED", [2, 1], 344),
    "Kathedrale": ("building", "PAY_DISTINCT_CUBES_FOR_POINTS", [1], 347),
    "Kloster": ("building", "POINTS_IF_ALONE_LEADING", [1], 350),
    "Kran": ("building", "COMPLETE_DISCOUNT", [BU, 1], 353),
    "Kutscher": ("person", "COINS_IF_COMPLETED", [BU, 3, 1], 356),
    "Lackwarenlager": ("building", "DELIVERY_MULTIPLIER", [2, 2], 359),
    "Laden": ("building", "PAY_CUBES_FOR_ANY_CUBE", [2, 1], 362),
    "Lady Black": ("person", "GAIN_CUBE", [BK, 1], 365),
    "Leuchtturm": ("building", "DELIVERY_BONUS", [0, 1], 368),
    "Madame Vert": ("person", "GAIN_CUBE", [G, 1], 371),
    "Magistrat": ("person", "COINS_ON_OFFICE_ACTIVATE", [PU, 1], 374),
    "Meister": ("person", "DICE_SHIFT_SIDE", [1], 377),
    "Mik's Tavern": ("building", "COINS_IF_COMPLETED", [PE, 3, 1], 380),
    "Miss Grey": ("person", "GAIN_CUBE", [GR, 1], 386),
    "Müßiggänger": ("person", "MAY_SKIP_CARD", [], 389),
    "Nachtwächter": ("person", "EXTRA_GOODS", [1], 392),
    "Palast": ("building", "END_POINTS_PER_SCORING_CARD", [2], 395),
    "Papierlager": ("building", "DELIVERY_MULTIPLIER", [3, 2], 398),
    "Pfandleihe": ("building", "COINS_IF_GAINED_COINS", [1], 401),
    "Porzellanlager": ("building", "DELIVERY_MULTIPLIER", [4, 2], 404),
    "Präfektur": ("building", "END_POINTS_PER_COMPLETED", [O, 1], 407),
    "Professor": ("person", "DICE_COINS_PER_ONE", [1], 410),
    "Rathaus": ("building", "POINTS_PER_OFFICE", [PU, 1], 413),
    "Ratsherr": ("person", "END_POINTS_PER_OFFICE_SET", [3, 6], 416),
    "Reislager": ("building", "DELIVERY_MULTIPLIER", [5, 2], 419),
    "Residenz": ("building", "END_POINTS_PER_COMPLETED", [BU, 1], 422),
    "Richter": ("person", "COINS_ON_OFFICE_ACTIVATE", [B, 1], 425),
    "Schatzkammer": ("building", "POINTS_PER_OFFICE", [GR, 1], 428),
    "Schatzmeister": ("person", "COINS_ON_OFFICE_ACTIVATE", [GR, 1], 431),
    "Schiffsjunge": ("person", "POINTS_IF_GOODS_HELD", [1, 0, 2], 434),
    "Schmiede": ("building", "END_POINTS_PER_CITY_MARKER", [1], 437),
    "Schreiber": ("person", "EXTRA_OFFICE_ACTIVATION", [1], 440),
    "Schule": ("building", "IF_EMPTY_SPACES", [2, 1, 0], 443),
    "Segelmacherei": ("building", "SAIL", [2], 446),
    "Seidenlager": ("building", "DELIVERY_MULTIPLIER", [6, 2], 449),
    "Señora Violeta": ("person", "GAIN_CUBE", [PU, 1], 452),
    "Sitzungssaal": ("building", "END_POINTS_PER_OFFICE_KIND", [2], 455),
    "Soldat": ("person", "COINS_PER_CITY_MARKERS", [4, 1], 458),
    "Spekulant": ("person", "GOODS_DISCOUNT", [1], 461),
    "Spital": ("building", "COINS_ON_COMPLETE", [PE, 1], 464),
    "Statue": ("building", "END_POINTS_PER_DARK_MARKER", [3], 467),
    "Steinbruch": ("building", "POINTS_PER_OFFICE", [G, 1], 470),
    "Steuermann": ("person", "PAY_COINS_SAIL", [1, 4], 473),
    "Teelager": ("building", "DELIVERY_MULTIPLIER", [7, 2], 476),
    "Tor": ("building", "POINTS_IF_FIRST_ON_WALL", [1], 479),
    "Totengräber": ("person", "DISCARD_PERSON_FOR_COINS", [2], 482),
    "Turm": ("building", "WALL_TO_TOP", [], 485),
    "Universität": ("building", "IF_EMPTY_SPACES", [2, 0, 1], 488),
    "Vermesser": ("person", "COINS_ON_OFFICE_ACTIVATE", [G, 1], 491),
    "Vizegouverneur": ("person", "END_POINTS", [4], 497),
    "Wachposten": ("building", "WALL_STEP_IF_NOT_FIRST", [1], 500),
    "Wirt": ("person", "GAIN_COINS_PAIR", [1, 3, 1], 503),
    "Wirtshaus": ("building", "GAIN_COINS_PAIR", [1, 3, 1], 506),
    "Zimmermann": ("person", "COINS_ON_GOODS", [1], 509),
    "Zollstation": ("building", "POINTS_PER_OFFICE", [R, 1], 515),
}


def q(r: int, c: int) -> int:
    return r * COLS + c + 1


def adjacency() -> dict[int, list[int]]:
    """The default city: a 5x6 grid, each cell's "\\" diagonal kept except in NO_DIAGONAL."""
    adj = {q(r, c): set() for r in range(ROWS) for c in range(COLS)}

    def link(a, b):
        adj[a].add(b)
        adj[b].add(a)
    for r in range(ROWS):
        for c in range(COLS):
            if c + 1 < COLS:
                link(q(r, c), q(r, c + 1))
            if r + 1 < ROWS:
                link(q(r, c), q(r + 1, c))
            if r + 1 < ROWS and c + 1 < COLS and (r, c) not in NO_DIAGONAL:
                link(q(r, c), q(r + 1, c + 1))
    return {k: sorted(v) for k, v in adj.items()}


def split_cost(n: int, primary: int) -> list[int]:
    """n cubes: ceil(n/2) of colour ``primary``, the rest of colour primary+2 (mod 6)."""
    cost = [0] * 6
    cost[primary % 6] += -(-n // 2)
    cost[(primary + 2) % 6] += n // 2
    return cost


def cost_alternatives(cost: list[int], primary: int, lo: int, hi: int) -> list[list[int]]:
    """One cube fewer and one more of the primary colour, within lo..hi cubes in all."""
    out = []
    for d in (-1, 1):
        alt = list(cost)
        alt[primary % 6] += d
        if alt[primary % 6] >= 0 and lo <= sum(alt) <= hi:
            out.append(alt)
    return out


def port_goods(i: int) -> list[str]:
    """Port i takes goods i, i+1 and i+3 (mod 8): 3 goods a port, each good at 3 ports."""
    return [GOODS[(i + d) % 8] for d in (0, 1, 3)]


def v(x) -> str:
    return json.dumps(x, ensure_ascii=False)


def key(name: str) -> str:
    return name if name.replace("_", "").replace("-", "").isalnum() and name.isascii() else v(name)


HEADER = """\
# Macao (Stefan Feld, alea 2009): the default rules data for cargo_sim.
#
# Written by gen_defaults.py (python -m cargo_sim.games.macao.gen_defaults): the
# estimates are made by stated rules there, so change them there. [provenance]
# says where each value comes from (rulebook = the rule texts: seed 003, the
# Chinese summary of the German rules, by line, or a source of macao_data.md;
# review; estimated; decision); [range] gives the plausible values of every
# estimate and decision. The rules as implemented: docs/rules_macao.md.
"""

SCALARS = [     # the top-level values: (name, value, comment), None a blank line, a str a comment line
    ('game', 'macao', ''),
    ('name', 'Macao (default rules)', ''),
    None,
    ('min_players', 2, ''),
    ('max_players', 4, ''),
    ('rounds', 12, ''),
    None,
    ("colours", COLOURS, "cube, die and office colours"),
    ("goods", GOODS, ""),
    ('tiles_per_good', 3, ''),
    ('jokers', 6, "'any cube or 3 coins' tiles, on the dark quarters"),
    ('joker_cubes', 1, ''),
    ('joker_coins', 3, ''),
    None,
    ('start_coins', 5, ''),
    ('start_cubes', [1, 2], 'cubes on rose side 1 (any colour) and side 2 (one colour)'),
    ('start_extra_cards', 2, 'players + 2 cards offered at setup'),
    ('total_coins', 36, ''),
    ('unlimited_coins', True, ''),
    ('cubes_per_colour', 50, ''),
    ('unlimited_cubes', False, 'a colour that runs out gives what is left'),
    ('markers_per_player', 12, ''),
    None,
    ('rose_sides', 6, 'numbered sides 1-6 (plus the arrow)'),
    ('dice_sides', 6, ''),
    ('dice_chosen', 2, 'different dice per player per round'),
    ('late_die_value', 1, 'a die whose cubes would land after the last round counts as this'),
    None,
    ('tableau_spaces', 5, ''),
    ('office_per_round', 2, ''),
    ('deck_per_round', 4, ''),
    ('tribute_track_max', 12, "the tribute's price and reward are each at most this"),
    None,
    ('wall_spaces', 16, ''),
    ('wall_step_costs', [1, 2], "cubes: the round's first step, each further step"),
    None,
    ('delivery_points', [5, 3, 2], '1st, 2nd, 3rd delivery (see delivery_scoring)'),
    ('group_points', 2, 'per quarter of the largest connected group'),
    ('tableau_penalty', 3, 'per card still on the tableau at the end'),
    ('marker_penalty', 3, 'per penalty marker'),
    None,
    '# Rulings and estimates that are options (docs/rules_macao.md):',
    ('deliveries', 'chosen', 'the player picks the tiles it delivers ("all": every one, forced)'),
    ('delivery_scoring', 'per_port', '5/3/2 count deliveries to a port ("per_good": of one good to a port)'),
    ('zero_cube_penalty', True, 'a player who gains no cubes in phase 2 takes a penalty marker'),
    ('tie_break', 'wall', 'equal points: further on the wall wins ("coins", "shared")'),
    ('set_scoring', 'each_card', 'Baronesas: each card scores 3/4/5 ("per_set": the set once)'),
    ('refund_scope', 'one_card', 'Handwerker: refund one completion a round ("every_card")'),
    ('deliver_passing', True, 'a ship passing a port may deliver there (false: only where it stops)'),
    ('ship_can_return', False, 'ships sail forward along the route only'),
    ('penalty_without_marker', True, 'a penalty counts even when the player has no marker left'),
    ('ones_counted', 'as_shown', 'Professor: a late die turned to 1 counts as a 1 ("as_rolled")'),
    ('palace_counts', 'scoring_cards', 'Palast: end cards that score points ("end_cards": every one)'),
    ('discount_colour', 'chosen', '"a cube less": off the colour named ("largest": the one the cost has most of)'),
    ('any_cubes', 'mixed', '"any cubes" paid in any mix of colours ("one_colour": all of one colour)'),
    ('wall_rank', 'order', 'first/last on the wall: the turn order ("space": the space alone)'),
    ('city_diagonals', True, "the map's diagonal links count (false: only row/column neighbours)"),
    ("dark_quarters", DARK, ""),
    None,
]


PROVENANCE = {     # where each top-level value comes from ([provenance])
    "min_players": "rulebook: macao_data.md R-BO, R-SK, S-GR (2-4 players)",
    "max_players": "rulebook: macao_data.md R-BO, R-SK, S-GR (2-4 players)",
    "rounds": "rulebook: seed 003 line 40; S-EN, R-SK, R-BO",
    "colours": "rulebook: seed 003 line 27 (6 colours); the office colours, seed 003 lines 239-512",
    "goods": "rulebook: seed 003 line 24; S-EN, R-CH (8 goods)",
    "tiles_per_good": "rulebook: seed 003 line 24 (8 goods x 3)",
    "jokers": "rulebook: seed 003 line 24 (6 'any cube / 3 coins' tiles)",
    "joker_cubes": "rulebook: seed 003 lines 143-145",
    "joker_coins": "rulebook: seed 003 lines 143-145",
    "start_coins": "rulebook: seed 003 line 68; R-SF, S-GR, R-BO",
    "start_cubes": "rulebook: seed 003 lines 64-67 (medium: the seed only)",
    "start_extra_cards": "rulebook: seed 003 line 69; R-CE",
    "total_coins": "rulebook: seed 003 line 25 (36 one-coin tokens)",
    "unlimited_coins": "decision: the texts never say what happens when the 36 coins run out; most of them are in players' hands, a shortfall is rare. Alternative: a finite bank of total_coins",
    "cubes_per_colour": "rulebook: seed 003 line 27 (300 cubes, 50 a colour)",
    "unlimited_cubes": "decision: seed 003 line 27 has 300 cubes, 50 a colour, so the supply is finite by default; the texts are silent on a colour running out: a seat takes what is left of it (the physical reading: no cube can be taken that is not there, and no other colour replaces it; seats take in turn order). Alternative: an unlimited supply",
    "markers_per_player": "rulebook: seed 003 line 21 (12 a player; the back a -3 penalty)",
    "rose_sides": "rulebook: seed 003 lines 18, 64-67, 110-125 (7 sides: the arrow and 1-6)",
    "dice_sides": "rulebook: seed 003 line 23",
    "dice_chosen": "rulebook: seed 003 lines 107-109",
    "late_die_value": "rulebook: seed 003 lines 186-193 (from round 8, dice that would land after round 12 count as 1)",
    "tableau_spaces": "rulebook: seed 003 line 100; R-BO, R-KE",
    "office_per_round": "rulebook: seed 003 lines 49-50, 86",
    "deck_per_round": "rulebook: seed 003 line 87",
    "tribute_track_max": "review: S-ES, S-FR, R-SF, S-GR (the tribute track runs 0-12); capping a larger sum at 12 is our reading",
    "wall_spaces": "review: S-FR, S-ES (16 spaces)",
    "wall_step_costs": "rulebook: seed 003 lines 149-154 (medium: the seed only)",
    "delivery_points": "rulebook: seed 003 lines 163-164 (medium: the seed only)",
    "group_points": "rulebook: seed 003 lines 146-147; R-BGG",
    "tableau_penalty": "rulebook: seed 003 lines 180-182",
    "marker_penalty": "rulebook: seed 003 lines 101-103, 127-129",
    "deliveries": "rulebook: seed 003 lines 159-162 (a player whose ship reaches a port 'may' put the tiles the port takes there to score): each tile is the player's choice, one answer a tile, while the ship is at the port (it stays there until it sails on); passing a port delivers nothing, a card's move chooses where to stop. Alternative (decision): every matching tile delivered on arrival, forced, where the ship stops (and at ports passed: deliver_passing)",
    "delivery_scoring": "decision: seed 003 lines 163-164 ('the first goods delivered to a port 5, the second 3, the third 2') can be read per port or per good at a port. Per port by default: 8 ports x 3 scoring places = the 24 goods tiles, and the delivered tile is put on the port (line 166). Alternative: per_good",
    "zero_cube_penalty": "decision: seed 003 lines 127-129 give the penalty (R-SJ's text breaks off at 'If ever you collect zero'); medium. Alternative: no penalty",
    "tie_break": "decision: no source gives the tie-break. Further on the wall (the game's own order) by default. Alternatives: more coins left, a shared win",
    "set_scoring": "decision: each Baronesa's text (seed 003 lines 230-236) says '3 points; 4 if you have 2 Baronesas, 5 if 3', per card or for the set is unclear. Each card by default (the text is on each card). Alternative: per_set",
    "refund_scope": "decision: Handwerker (seed 003 line 317) 'take back the cubes paid when completing cards'; literally every completion would be free, so once a round (one card) by default. Alternative: every_card",
    "deliver_passing": "decision: with deliveries = all, seed 003 lines 157-162 say a port counts as a space and a ship 'reaching' it delivers; passing through counts as reaching by default. Alternative: only where the ship stops",
    "ship_can_return": "decision: the route is sailed 'along its marks' (seed 003 line 157); forward only by default. Alternative: ships may sail back",
    "penalty_without_marker": "decision: penalty markers are the city markers' backs (seed 003 line 21), the texts do not say what a player with none left does; the -3 counts anyway by default. Alternative: no marker, no penalty",
    "ones_counted": "decision: Professor (seed 003 line 410) pays a coin per chosen die 'showing 1'; from round 8 the dice whose cubes would arrive after round 12 are turned to 1 (lines 186-193), so they count by default. Alternative: as rolled",
    "palace_counts": "decision: Palast (seed 003 line 395) scores 2 per card 'that gives points at this time': the other end cards that score more than 0 by default (Palast itself excluded). Alternative: every other end card but Abt",
    "discount_colour": "rulebook: Archiv, Heiler, Kran (seed 003 lines 224, 323, 353: 'may pay 1 cube less') and Spekulant (line 461) leave the cube to the player: the answer names the colour it comes off. Alternative (decision): always off the colour the cost has most of",
    "any_cubes": "decision: Goldschmied, Goldsucher and Laden (seed 003 lines 302, 305, 362: '付...個任意資源', pay ... cubes of any kind) name no colour, so a payment may mix colours (the answer names the multiset paid). Alternative: the cubes paid are all of one colour (the library's earlier rule)",
    "wall_rank": "decision: Tor (seed 003 line 479: 'first in the wall order') and Kanonier (line 338: 'the only one last in the wall order') both name the wall's order, the turn order (further on, then on top), by default. Alternative: by space alone (Tor: no disc further on; Kanonier: every other disc further on)",
    "city_diagonals": "estimated: the map's shape is unknown; our map's diagonal links (three quarters meeting at a corner) count by default. Alternative: a plain grid (row/column neighbours only), the least connected plausible city",
    "dark_quarters": "estimated: which 6 quarters are dark is unknown (seed 003 line 53: 'the black districts on the right' of the board, i.e. in the city); spread out, none touching, by default. Alternatives: the right edge, a dark centre",
    "removed_cards.*": "rulebook: seed 003 lines 93-97; R-BO, R-KK, R-PK",
    "port.*.space": "estimated: the route's length and the ports' places are unknown (macao_data.md); one line with a port every 3 spaces (2 sea spaces, then the port): the last port costs 24 cubes of sailing. Range: +-1 space each",
    "port.*.goods": "estimated: which goods each port takes is unknown; 3 goods a port, each good at 3 ports (port i: goods i, i+1, i+3 mod 8), so every good has 3 ports and each port's 3 scoring places can fill. Range: the third good replaced by the next one",
    "quarter.*.row": "decision: the drawing of our map (a 5 x 6 grid); not a rule, used to check the map is planar",
    "quarter.*.col": "decision: the drawing of our map (a 5 x 6 grid); not a rule, used to check the map is planar",
    "quarter.*.adjacent": "estimated: the city's map is unknown; a 5 x 6 grid with each cell's '\\' diagonal (three quarters meet at a corner, as in a map of irregular quarters), 6 diagonals left out (four-way corners). The map varies as a whole (city_diagonals): one quarter's list cannot vary alone (adjacency is symmetric)",
    "quarter.*.cost": "estimated: each quarter's cost is unknown (only that it is cubes of several colours, R-LU, seed 003 line 139); light quarters 2, 3, 3, 4 cubes in turn, dark 3; half (rounded up) in one colour, the rest in the colour two further on. Range: one cube less or more",
    "card.*.kind": "estimated: building or person inferred from the German name (macao_data.md: gives exactly 44 buildings and 52 persons, the rulebook's counts). Range: the other kind",
    "card.*.copies": "review: 96 other card names for the rulebook's 96 building and person cards, so one copy each (macao_data.md, inference, medium)",
    "card.*.cost": "estimated: no card's cost is transcribed; 1 cube plus half the effect's estimated worth in points (rounded up), 2-6 cubes (effects.py); half (rounded up) in one colour, the rest two colours on; offices in their own colour. Range: one cube less or more",
    "card.*.tribute_coins": "estimated: not transcribed (one photo shows 0, 0, 1, 2, 1: R-KK); 0, 1, 2 in turn over the card list. Range: 0-2",
    "card.*.tribute_points": "estimated: not transcribed; the card's tribute coins, plus 1 on every other card (a tribute returns about 1.5 points a coin). Range: 0-3",
    "card.*.effect": "rulebook: seed 003 lines 210-515, each card's text (the line is in its args row)",
}


def scalar_lines(items) -> list[str]:
    """SCALARS as TOML lines, the comments lined up."""
    out = []
    for item in items:
        if item is None:
            out.append("")
        elif isinstance(item, str):
            out.append(item)
        else:
            name, value, comment = item
            text = f"{name} = {v(value)}"
            out.append(f"{text:<31} # {comment}" if comment else text)
    return out


def main() -> str:
    L = HEADER.split("\n") + scalar_lines(SCALARS)
    w = L.append
    w("# Cards revealed in phase 1 that are removed before the draft, per player count.")
    w("[removed_cards]")
    w("2 = 2")
    w("3 = 1")
    w("4 = 0")
    w("")
    w("# The sea route: one line of spaces from the start (0); a port is a space.")
    for i, p in enumerate(PORTS):
        w(f"[port.{key(p)}]")
        w(f"space = {3 * (i + 1)}")
        w(f"goods = {v(port_goods(i))}")
        w("")
    w("# The city: quarter number -> grid position (row, col), cube cost per colour")
    w("# (in the order of `colours`), and the quarters it touches.")
    adj = adjacency()
    light_i = 0
    q_costs = {}
    for n in range(1, ROWS * COLS + 1):
        r, c = divmod(n - 1, COLS)
        if n in DARK:
            total = DARK_COST
        else:
            total = LIGHT_COSTS[light_i % len(LIGHT_COSTS)]
            light_i += 1
        q_costs[n] = split_cost(total, n - 1)
        w(f"[quarter.{n}]")
        w(f"row = {r}")
        w(f"col = {c}")
        w(f"cost = {v(q_costs[n])}")
        w(f"adjacent = {v(adj[n])}")
        w("")
    w("# Cards: kind (office/building/person), copies, cube cost per colour (top left),")
    w("# tribute_coins (lower left), tribute_points (lower right), effect code + args")
    w("# (effects.py). Effects: seed 003; every number printed on a card: estimated.")
    card_costs = {}
    for i, (name, (kind, code, args, line)) in enumerate(CARDS.items()):
        n = cost_from_worth(worth(code, args))
        primary = args[0] if kind == "office" else i
        card_costs[name] = (split_cost(n, primary) if kind != "office" else
                            [n if c == primary else 0 for c in range(6)], primary)
        tc = i % 3
        tp = tc + (1 if i % 2 == 0 else 0)
        w(f"[card.{key(name)}]")
        w(f'kind = "{kind}"')
        w(f"copies = {4 if kind == 'office' else 1}")
        w(f"cost = {v(card_costs[name][0])}")
        w(f"tribute_coins = {tc}")
        w(f"tribute_points = {tp}")
        w(f'effect = "{code}"')
        w(f"args = {v(args)}")
        w("")
    # ---- provenance --------------------------------------------------------------
    w("[provenance]")
    P = dict(PROVENANCE)
    for code in ("Bau", "Finanzen", "Justiz", "Militärwesen", "Verwaltung", "Zoll"):
        P[f"card.{code}.copies"] = ("estimated: 24 office cards in 6 kinds (rulebook: seed 003 line 26); "
                                    "4 of each assumes an even split (macao_data.md: low). Range: 4-5 (one kind alone with 3 would leave "
                                    "23 offices for the 24 office places of 12 rounds)")
        P[f"card.{code}.kind"] = "rulebook: seed 003 line 26 (24 office cards), the six '(契約)' cards"
    for name, (kind, code, args, line) in CARDS.items():
        P[f"card.{name}.args"] = f"rulebook: seed 003 line {line}"
    P["card.Handwerker.args"] = ("decision: seed 003 line 317; the refund's scope is a ruling (refund_scope); "
                                 "cards = 1 completion refunded a round")
    for k, s in P.items():
        w(f"{v(k)} = {v(s)}")
    w("")
    # ---- ranges --------------------------------------------------------------------
    w("[range]")
    R_ = {
        "unlimited_coins": [False], "unlimited_cubes": [True],
        "ones_counted": ["as_rolled"], "deliveries": ["all"], "discount_colour": ["largest"], "any_cubes": ["one_colour"], "palace_counts": ["end_cards"], "wall_rank": ["space"],
        "delivery_scoring": ["per_good"], "zero_cube_penalty": [False],
        "tie_break": ["coins", "shared"], "set_scoring": ["per_set"], "refund_scope": ["every_card"],
        "deliver_passing": [False], "ship_can_return": [True], "penalty_without_marker": [False],
        "city_diagonals": [False], "dark_quarters": DARK_ALTERNATIVES,
    }
    for i, p in enumerate(PORTS):
        s = 3 * (i + 1)
        R_[f"port.{p}.space"] = [s - 1, s + 1]
        g = port_goods(i)
        nxt = next(GOODS[(i + d) % 8] for d in range(4, 12) if GOODS[(i + d) % 8] not in g)
        R_[f"port.{p}.goods"] = [g[:2] + [nxt]]
    for n, cost in q_costs.items():
        R_[f"quarter.{n}.cost"] = cost_alternatives(cost, n - 1, 1, 6)
    for name, (kind, code, args, line) in CARDS.items():
        cost, primary = card_costs[name]
        if kind == "office":
            R_[f"card.{name}.copies"] = [4, 5]
        else:
            R_[f"card.{name}.kind"] = ["person" if kind == "building" else "building"]
        R_[f"card.{name}.cost"] = cost_alternatives(cost, primary, 1, 7)
        R_[f"card.{name}.tribute_coins"] = [0, 2]
        R_[f"card.{name}.tribute_points"] = [0, 3]
    R_["card.Handwerker.args"] = [[2]]
    for k, s in R_.items():
        w(f"{v(k)} = {v(s)}")
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    import sys
    sys.stdout.write(main())
