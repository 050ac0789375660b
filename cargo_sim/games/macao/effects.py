"""Macao's card effects as data: an effect code plus integer arguments.

Every card of the rules data names one code of ``EFFECTS`` and gives its
arguments (``card.Bank.effect = "GAIN_COINS"``, ``card.Bank.args = [2]``), so
the kernels implement each code once and a variant can change any number.

Each code says *when* it acts (``timing``):

* ``"activate"``: once per round in the owner's phase 3, if the owner chooses
  (the seed's "啟動", activate; seed 003 lines 173-177);
* ``"trigger"``: by itself, whenever the named event happens to the owner (a
  delivery, a completion, a dice choice, ...) or as a standing change of a rule;
* ``"end"``: at the end of the game only (seed 003 line 178).

and the meaning and domain of each argument: ``colour`` (an index into the
rules' ``colours``), ``good`` (into ``goods``), ``kind`` (0 office, 1 building,
2 person: ``KINDS``), ``id`` (a set or pair number shared by cards that count
each other), or ``n`` (a whole number >= 0).

``worth`` is our estimate of what the effect is worth over a game, in prestige
points (1 coin = 1 cube = 1 point; a once-per-round effect is counted over the
6 rounds a card completed mid-game is active, times how often its condition
holds). It is not a rule of the game: it sets the estimated cube cost of each
card (``cost_from_worth``; docs/rules_macao.md, "Card costs").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

KINDS = ("office", "building", "person")
ARG_DOMAINS = ("colour", "good", "kind", "id", "n")
TIMINGS = ("activate", "trigger", "end")


@dataclass(frozen=True)
class Effect:
    timing: str
    args: tuple             # (name, domain) per argument
    text: str               # what it does, in our words ({name} = the argument; "[s]": plural
                            # unless the number before is 1; ``describe`` fills it in)
    worth: Callable         # args -> estimated worth in points over a game (see module doc)


def _e(timing, args, text, worth):
    return Effect(timing, tuple(tuple(a.split(":")) for a in args), text, worth)


EFFECTS: dict[str, Effect] = {
    # ---- once per round (activate) --------------------------------------------
    "PAY_CUBE_FOR_COINS": _e("activate", ["colour:colour", "cubes:n", "coins:n"],
                             "pay {cubes} cube[s] of {colour}, gain {coins} coin[s]",
                             lambda a: 3 * a[2]),
    "GAIN_COINS": _e("activate", ["coins:n"], "gain {coins} coin[s]", lambda a: 6 * a[0]),
    "GAIN_CUBE": _e("activate", ["colour:colour", "cubes:n"], "gain {cubes} cube[s] of {colour}",
                    lambda a: 6 * a[1]),
    "GAIN_ANY_CUBE": _e("activate", ["cubes:n"], "gain {cubes} cube[s] of any colour",
                        lambda a: 7 * a[0]),
    "GAIN_COINS_POINTS": _e("activate", ["coins:n", "points:n"], "gain {coins} coin[s] and {points} point[s]",
                            lambda a: 6 * (a[0] + a[1])),
    "GAIN_COINS_PAIR": _e("activate", ["coins:n", "paired:n", "pair:id"],
                          "gain {coins} coin[s], or {paired} if you also have the completed card of pair {pair}",
                          lambda a: 6 * a[0] + 2 * (a[1] - a[0])),
    "PAY_CUBES_FOR_COINS": _e("activate", ["cubes:n", "coins:n", "repeat:n"],
                              "pay {cubes} cube[s] of any colour, gain {coins} coin[s]; "
                              "any number of times if repeat is 1",
                              lambda a: 6 * a[1] // max(a[0], 1) + 2 * a[2]),
    "PAY_COINS_FOR_POINTS": _e("activate", ["coins:n", "points:n"], "pay {coins} coin[s], gain {points} point[s]",
                               lambda a: 6 * (a[1] - a[0])),
    "PAY_COINS_FOR_ANY_CUBE": _e("activate", ["coins:n", "cubes:n"],
                                 "pay {coins} coin[s], gain {cubes} cube[s] of any colour", lambda a: 3 * a[1]),
    "PAY_CUBES_FOR_ANY_CUBE": _e("activate", ["pay:n", "cubes:n"],
                                 "pay {pay} cube[s] of any colour, gain {cubes} cube[s] of any colour",
                                 lambda a: 3 * a[1]),
    "PAY_DISTINCT_CUBES_FOR_POINTS": _e("activate", ["points:n"],
                                        "pay cubes of different colours (one each), gain {points} point[s] per cube",
                                        lambda a: 6 * a[0]),
    "PAY_COINS_COMPLETE_CARD": _e("activate", ["coins:n"], "pay {coins} coin[s] instead of the cubes to complete a card",
                                  lambda a: 8),
    "PAY_COINS_SAIL": _e("activate", ["coins:n", "spaces:n"], "pay {coins} coin[s], sail up to {spaces} space[s]",
                         lambda a: 3 * (a[1] - a[0])),
    "SAIL": _e("activate", ["spaces:n"], "sail up to {spaces} space[s]", lambda a: 3 * a[0]),
    "COINS_PER_OFFICE_COLOUR_ACTIVATED": _e("activate", ["coins:n"],
                                            "gain {coins} coin[s] per office colour you activated this round",
                                            lambda a: 8 * a[0]),
    "COINS_IF_COMPLETED": _e("activate", ["kind:kind", "min:n", "coins:n"],
                             "if you have at least {min} completed {kind} card[s]: gain {coins} coin[s]",
                             lambda a: 3 * a[2]),
    "POINTS_IF_OFFICE_ACTIVATED": _e("activate", ["points:n"],
                                     "if you activated an office card this round: gain {points} point[s]",
                                     lambda a: 4 * a[0]),
    "CUBE_IF_ALONE_LOWEST": _e("activate", ["cubes:n"],
                               "if you alone have the lowest score: gain {cubes} cube[s] of any colour",
                               lambda a: 2 * a[0]),
    "POINTS_PER_OFFICE": _e("activate", ["colour:colour", "points:n"],
                            "gain {points} point[s] per completed office card of {colour}", lambda a: 4 * a[1]),
    "CUBE_IF_TRIBUTE_PAID": _e("activate", ["cubes:n"],
                               "if you paid the tribute this round: gain {cubes} cube[s] of any colour",
                               lambda a: 4 * a[0]),
    "EXTRA_TRIBUTE": _e("activate", ["times:n"], "pay the tribute {times} more time[s] this round",
                        lambda a: 6 * a[0]),
    "COINS_IF_ALONE_LAST_ON_WALL": _e("activate", ["coins:n"],
                                      "if you alone are last on the wall: gain {coins} coin[s]", lambda a: 3 * a[0]),
    "POINTS_IF_SCORED": _e("activate", ["points:n"], "if you scored points this round: gain {points} point[s]",
                           lambda a: 5 * a[0]),
    "POINTS_IF_SAILED": _e("activate", ["spaces:n", "points:n"],
                           "if you sailed at least {spaces} space[s] this round: gain {points} point[s]",
                           lambda a: 4 * a[1]),
    "POINTS_IF_ALONE_LEADING": _e("activate", ["points:n"], "if you alone lead the score: gain {points} point[s]",
                                  lambda a: 2 * a[0]),
    "COINS_IF_GAINED_COINS": _e("activate", ["coins:n"], "if you gained coins this round: gain {coins} coin[s]",
                                lambda a: 4 * a[0]),
    "POINTS_IF_GOODS_HELD": _e("activate", ["points:n", "count_a:n", "count_b:n"],
                               "if you hold exactly {count_a} or {count_b} goods tiles (jokers not counted): "
                               "gain {points} point[s]", lambda a: 3 * a[0]),
    "IF_EMPTY_SPACES": _e("activate", ["min:n", "coins:n", "points:n"],
                          "if your tableau has at least {min} empty space[s]: gain {coins} coin[s] and "
                          "{points} point[s]", lambda a: 3 * (a[1] + a[2])),
    "COINS_PER_CITY_MARKERS": _e("activate", ["per:n", "coins:n"],
                                 "gain {coins} coin[s] per {per} of your markers in the city", lambda a: 3 * a[1]),
    "EXTRA_GOODS": _e("activate", ["tiles:n"], "take {tiles} more goods tile[s] from the city this round "
                      "(paying its cubes)", lambda a: 8 * a[0]),
    "DISCARD_PERSON_FOR_COINS": _e("activate", ["coins:n"], "discard one of your completed person cards, "
                                   "gain {coins} coin[s]", lambda a: a[0]),
    "WALL_TO_TOP": _e("activate", [], "if your wall disc is covered: move it to the top of its stack", lambda a: 2),
    "WALL_STEP_IF_NOT_FIRST": _e("activate", ["steps:n"],
                                 "if you are not first on the wall: move your wall disc {steps} space[s]",
                                 lambda a: 5 * a[0]),
    "POINTS_IF_FIRST_ON_WALL": _e("activate", ["points:n"], "if you are first on the wall: gain {points} point[s]",
                                  lambda a: 3 * a[0]),
    "COMPLETE_REFUND": _e("activate", ["cards:n"], "take back the cubes paid to complete {cards} card[s] "
                          "this round (ruling: refund_scope)", lambda a: 8),
    # ---- standing effects and triggers ----------------------------------------
    "COINS_ON_OFFICE_ACTIVATE": _e("trigger", ["colour:colour", "coins:n"],
                                   "when you activate an office card of {colour}: gain {coins} coin[s]",
                                   lambda a: 3 * a[1]),
    "COINS_ON_COMPLETE": _e("trigger", ["kind:kind", "coins:n"],
                            "when you complete a {kind} card: gain {coins} coin[s]", lambda a: 2 * a[1]),
    "POINTS_ON_TRIBUTE": _e("trigger", ["points:n"], "when you pay the tribute: gain {points} more point[s]",
                            lambda a: 4 * a[0]),
    "DELIVERY_BONUS": _e("trigger", ["points:n", "coins:n"],
                         "each goods delivery that scores: gain {points} point[s] and {coins} coin[s] more",
                         lambda a: 4 * (a[0] + a[1])),
    "DELIVERY_MULTIPLIER": _e("trigger", ["good:good", "factor:n"],
                              "deliveries of {good} score {factor} time[s] their points",
                              lambda a: 5 * (a[1] - 1)),
    "WALL_STEPS_ON_GOODS": _e("trigger", ["steps:n"],
                              "each time you take a goods tile from the city: move your wall disc {steps} space[s]",
                              lambda a: 5 * a[0]),
    "COINS_ON_GOODS": _e("trigger", ["coins:n"], "each time you take a goods tile from the city: gain "
                         "{coins} coin[s]", lambda a: 5 * a[0]),
    "DICE_EXTRA_CUBE": _e("trigger", ["cubes:n"], "when you choose dice: {cubes} more cube[s] on one of the two",
                          lambda a: 6 * a[0]),
    "DICE_SHIFT_SIDE": _e("trigger", ["sides:n"], "when you choose dice: one lot may go up to {sides} side[s] "
                          "off its number (never 6 cubes on side 1)", lambda a: 4 * a[0]),
    "DICE_COINS_PER_ONE": _e("trigger", ["coins:n"], "when you choose dice: {coins} coin[s] per chosen die "
                             "showing 1", lambda a: 3 * a[0]),
    "JOKER_REUSE": _e("trigger", ["uses:n"], "each of your joker tiles can be used {uses} time[s]",
                      lambda a: 3 * (a[0] - 1)),
    "COMPLETE_DISCOUNT": _e("trigger", ["kind:kind", "cubes:n"], "completing a {kind} card costs {cubes} cube[s] "
                            "less", lambda a: 3 * a[1]),
    "GOODS_FOR_COINS": _e("trigger", ["coins:n"], "you may take a goods tile paying {coins} coin[s] instead of "
                          "its cubes", lambda a: 4),
    "GOODS_DISCOUNT": _e("trigger", ["cubes:n"], "taking a goods tile costs {cubes} cube[s] less",
                         lambda a: 5 * a[0]),
    "MAY_SKIP_CARD": _e("trigger", [], "you may take no card in phase 1", lambda a: 3),
    "EXTRA_OFFICE_ACTIVATION": _e("trigger", ["times:n"], "one office card of each colour can be activated "
                                  "{times} more time[s] per round", lambda a: 4 * a[0]),
    # ---- end of the game -------------------------------------------------------------
    "END_POINTS": _e("end", ["points:n"], "{points} point[s]", lambda a: a[0]),
    "END_NO_TABLEAU_PENALTY": _e("end", [], "cards still on your tableau cost you nothing", lambda a: 4),
    "END_SET_POINTS": _e("end", ["one:n", "two:n", "three:n", "set:id"],
                         "{one} point[s]; {two} if you have 2 completed cards of set {set}, {three} if 3 "
                         "(ruling: set_scoring)", lambda a: a[0]),
    "END_POINTS_PER_COMPLETED": _e("end", ["kind:kind", "points:n"], "{points} point[s] per completed {kind} card",
                                   lambda a: 4 * a[1]),
    "END_POINTS_PER_SCORING_CARD": _e("end", ["points:n"], "{points} point[s] per card of yours that scores at "
                                      "the end", lambda a: 2 * a[0]),
    "END_POINTS_PER_OFFICE_SET": _e("end", ["size:n", "points:n"], "{points} point[s] per {size} completed "
                                    "office card[s] of one colour", lambda a: a[1] // 2),
    "END_POINTS_PER_CITY_MARKER": _e("end", ["points:n"], "{points} point[s] per marker of yours in the city",
                                     lambda a: 6 * a[0]),
    "END_POINTS_PER_OFFICE_KIND": _e("end", ["points:n"], "{points} point[s] per colour of office card you "
                                     "completed", lambda a: 2 * a[0]),
    "END_POINTS_PER_DARK_MARKER": _e("end", ["points:n"], "{points} point[s] per marker of yours on a dark quarter",
                                     lambda a: a[0]),
}

_TOKENS = re.compile(r"(\{\w+\}|\[s\])")


def describe(code: str, args, colours=None, goods=None) -> str:
    """The effect's words with these arguments: ``[s]`` after a number's noun is "s"
    unless that number is 1 ("gain 1 coin", "gain 2 coins"); colours and goods by name
    when their names are given, kinds always."""
    spec = EFFECTS[code]
    value = {}
    for (arg, dom), v in zip(spec.args, args):
        names = {"colour": colours, "good": goods, "kind": KINDS}.get(dom)
        value[arg] = (dom, v, names[v] if names is not None and 0 <= v < len(names) else v)
    out, last = [], None
    for tok in _TOKENS.split(spec.text):
        if tok == "[s]":
            out.append("" if last == 1 else "s")
        elif tok.startswith("{") and tok[1:-1] in value:
            dom, v, shown = value[tok[1:-1]]
            last = v if dom == "n" else last       # "[s]" follows the last count, not a kind
            out.append(str(shown))
        else:
            out.append(tok)
    return re.sub(r"\ba (?=[aeiou])", "an ", "".join(out))      # "an office card"


MIN_COST, MAX_COST = 2, 6       # cubes to complete a card (the estimate's bounds)


def worth(code: str, args) -> int:
    """Our estimate of an effect's worth in points over a game (module doc)."""
    return int(EFFECTS[code].worth(list(args)))


def cost_from_worth(w: int) -> int:
    """The estimated cube cost of a card whose effect is worth ``w`` points: 1
    cube plus half its worth (rounded up), within 2..6 (docs/rules_macao.md,
    "Card costs")."""
    return max(MIN_COST, min(MAX_COST, 1 - (-w // 2)))


def arg_problems(name: str, code, args, n_colours: int, n_goods: int) -> list[str]:
    """The effect of card ``name``: a known code, the right number of arguments,
    each in its domain. One message per problem."""
    if code not in EFFECTS:
        near = sorted(EFFECTS, key=lambda c: -len(set(c.split("_")) & set(str(code).split("_"))))[:3]
        return [f"card.{name}.effect: unknown effect code {code!r} (e.g. {', '.join(near)}; "
                f"all codes: cargo_sim.games.macao.effects.EFFECTS)"]
    spec = EFFECTS[code].args
    if len(args) != len(spec):
        want = ", ".join(a for a, _ in spec) or "none"
        return [f"card.{name}.args: {code} takes {len(spec)} argument{'' if len(spec) == 1 else 's'} ({want}), got {args}"]
    hi = {"colour": n_colours - 1, "good": n_goods - 1, "kind": len(KINDS) - 1}
    p = []
    for (arg, dom), v in zip(spec, args):
        lo = 1 if dom == "id" else 0
        if v < lo or (dom in hi and v > hi[dom]):
            rng = f"{lo}..{hi[dom]}" if dom in hi else f">= {lo}"
            p.append(f"card.{name}.args: {code}'s {arg} ({dom}) must be {rng}, got {v}")
    return p
