"""Macao's rulings where the texts leave a choice, each side of each option scenario-tested
(docs/rules_macao.md): the finite cube supply, the Professor's late dice, Palast's
scoring cards, the wall's order for Tor and Kanonier; and the narration of what the
engine pays."""
import re

import numpy as np
import pandas as pd
import pytest

from cargo_sim.core import runner
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao import engine_nb as eng
from cargo_sim.games.macao import simulate
from cargo_sim.games.macao.bots.registry import REGISTRY
from cargo_sim.games.macao.narrate import render
from cargo_sim.games.macao.testing import invariants

from .test_engine import (
    BLACK, BLUE, CARDS, FINAL, GREEN, GREY, LEGAL, PURPLE, R, RED, act, activation, at_actions, avail, begin, call, cubes,
    dice_state, done, ok, p,
)


def table(rules, n=2, seed=1):
    s, _ = simulate.table_template(rules, [REGISTRY.parse("random")] * n)
    begin(s, seed)
    return s


# ---- the cube supply ---------------------------------------------------------------------
def test_the_supply_is_finite_by_default_and_unlimited_is_the_option():
    assert R["unlimited_cubes"] is False and R["cubes_per_colour"] == 50
    assert R.source_of("unlimited_cubes").startswith("decision") and True in R.ranges["unlimited_cubes"]


@pytest.mark.parametrize("unlimited, got", [(False, 2), (True, 5)])
def test_a_colour_that_runs_out_gives_what_is_left(unlimited, got):
    s = dice_state(2, [5, 3, 1, 1, 1, 1])
    s[E.K_LIMIT_CUBES] = not unlimited            # (dice_state's table: the default rules)
    s[E.G_SUPPLY + GREEN] = 2                     # two green cubes left in the supply
    before = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42].copy()
    act(s, GREEN * 6 + GREY)                      # green 5, grey 3
    rose = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42] - before
    assert rose[5 * 6 + GREEN] == got and rose[3 * 6 + GREY] == 3
    assert s[E.G_SUPPLY + GREEN] == 2 - got       # finite: empty; unlimited: a balance below 0


def test_a_card_gaining_cubes_of_an_empty_colour_gains_none():
    s = at_actions(table(R))
    i = done(s, 0, "Frau Rot")                    # gain 1 red cube
    cubes(s, 1, RED, int(s[E.G_SUPPLY + RED]))    # seat 1 holds every red cube left
    assert s[E.G_SUPPLY + RED] == 0
    k0 = avail(s, 0)
    act(s, activation(s, 0, i))
    assert avail(s, 0) == k0 and s[E.G_SUPPLY + RED] == 0
    assert invariants(s, R) == []


def test_cubes_paid_go_back_to_the_supply():
    s = at_actions(table(R))
    cubes(s, 0, BLACK, 1)
    left = int(s[E.G_SUPPLY + BLACK])
    act(s, E.A_WALL + BLACK * 6 + BLACK)          # the round's first step: one black cube
    assert s[E.G_SUPPLY + BLACK] == left + 1


# ---- Professor: dice showing 1 -------------------------------------------------------------
@pytest.mark.parametrize("reading, coins", [("as_shown", 2), ("as_rolled", 1)])
def test_professor_counts_a_late_die_turned_to_one(reading, coins):
    s = dice_state(8, [6, 1, 2, 2, 2, 2])         # round 8: the green 6 counts as 1
    s[E.K_ONES_ROLLED] = reading == "as_rolled"
    assert R.replace(ones_counted=reading)["ones_counted"] == reading
    done(s, 0, "Professor")
    c0 = p(s, 0, E.P_COINS)
    act(s, GREEN * 6 + GREY)
    assert p(s, 0, E.P_COINS) - c0 == coins


# ---- Palast: the cards that give points -----------------------------------------------
@pytest.mark.parametrize("reading, palast", [("scoring_cards", 2), ("end_cards", 4)])
def test_palast_counts_the_end_cards_that_score(reading, palast):
    s = table(R.replace(palace_counts=reading))
    for q in range(30):
        s[E.G_Q_OWNER + q] = -1
    done(s, 0, "Gouverneur")                      # 7 points
    done(s, 0, "Präfektur")                       # 1 a completed office: none, 0 points
    done(s, 0, "Palast")
    call(s, FINAL)
    assert p(s, 0, E.P_END_PTS) == 7 + 0 + palast


# ---- Tor and Kanonier: the wall's order ----------------------------------------------------
@pytest.mark.parametrize("reading", ["order", "space"])
def test_tor_and_kanonier_judge_the_wall_alike(reading):
    rules = R.replace(wall_rank=reading)
    legal = {}
    for seat in (0, 1):
        for name in ("Tor", "Kanonier"):
            s = at_actions(table(rules), seat=seat)
            for q in (0, 1):
                s[eng.pb(q) + E.P_WALL] = 3           # one space, seat 0's disc on top
            s[eng.pb(0) + E.P_STAMP], s[eng.pb(1) + E.P_STAMP] = 9, 8
            i = done(s, seat, name)
            legal[seat, name] = ok(s, activation(s, seat, i))
    if reading == "order":   # the turn order: seat 0 first, seat 1 alone last
        assert legal == {(0, "Tor"): True, (1, "Tor"): False, (0, "Kanonier"): False, (1, "Kanonier"): True}
    else:                    # by space: both first, neither alone last
        assert legal == {(0, "Tor"): True, (1, "Tor"): True, (0, "Kanonier"): False, (1, "Kanonier"): False}


def test_an_unknown_reading_is_one_rules_error():
    from cargo_sim.core.errors import RulesError
    for name in ("ones_counted", "palace_counts", "wall_rank"):
        with pytest.raises(RulesError, match=name):
            R.replace({name: "sometimes"})


# ---- the narration says what the engine pays ------------------------------------------
def test_the_offer_shows_the_tribute_capped_as_paid():
    rules = R.replace(tribute_track_max=4)          # six cards' sums pass 4 in most rounds
    res = runner.simulate("macao", 3, ["random", "random"], seed=2, events=True, progress=False, rules=rules)
    ev = res.events
    offer, paid = ev[ev.action == "offer"], ev[ev.action == "tribute"]
    assert len(offer) and offer.b.max() == 4 and offer.c.max() == 4
    assert len(paid) and paid.a.max() <= 4 and paid.points.max() <= 4
    shown = [int(x) for x in re.findall(r"tribute (\d+) coins -> (\d+) points", render(ev, rules)) for x in x]
    assert shown and max(shown) == 4


def test_totengraeber_names_the_card_it_discards():
    a = CARDS.index("Totengräber")
    gone = CARDS.index("Gelehrter")
    ev = pd.DataFrame([dict(game=0, round=3, seat=0, action="activate", a=a, b=1, c=gone, points=0, coins=2)])
    assert "activates Totengräber, discarding Gelehrter" in render(ev, R)


@pytest.mark.parametrize("reading", ["mixed", "one_colour"])
def test_an_activation_names_the_colours_paid_and_gained(reading):
    """Laden's answer x is (cubes paid) * 6 + colour gained; under "mixed" the cubes paid
    are multiset number x // 6 (lexicographic: {0,0}=0, {0,1}=1, ... {0,5}=5, {1,1}=6)."""
    rules, laden = R.replace(any_cubes=reading), CARDS.index("Laden")
    paid, gain = rules["card.Laden.args"]
    colours = rules.colours
    x = 1 * E.NC + 3                                 # mixed: {0, 1}; one colour: two of colour 1
    ev = pd.DataFrame([dict(game=0, round=3, seat=0, action="activate", a=laden, b=x, c=0,
                            points=0, coins=0)])
    want = (f"1 {colours[0]} + 1 {colours[1]}" if reading == "mixed" else f"{paid} {colours[1]}")
    assert f"activates Laden: pays {want}, gains {gain} {colours[3]}" in render(ev, rules)


def test_played_activations_are_told_in_colours_not_numbers():
    res = runner.simulate("macao", 40, ["expert", "greedy"], seed=5, events=True, progress=False)
    text = render(res.events, R)
    assert "activates" in text and "(option" not in text
    laden = [ln for ln in text.splitlines() if "activates Goldschmied" in ln or "activates Goldsucher" in ln]
    assert laden and all(": pays " in ln for ln in laden)


# ---- deliveries: the player's choice -----------------------------------------------------
def at_port(rules, held):
    """Seat 0 acting, its ship at the first port, holding ``held`` tiles of each good named."""
    s = at_actions(table(rules))
    port = R.port_names[0]
    b = eng.pb(0)
    for g, k in held.items():
        s[b + E.P_GOODS + R.goods.index(g)] = k
        s[b + E.P_DELIVERED_TILES] -= k           # (tiles from outside the city: the ledger)
    s[b + E.P_SHIP] = R[f"port.{port}.space"] - 1
    cubes(s, 0, GREEN, 1)
    return s, port


def test_chosen_deliveries_are_one_answer_a_tile_and_tiles_may_be_kept():
    port = R.port_names[0]
    takes = R[f"port.{port}.goods"]
    other = next(g for g in R.goods if g not in takes)
    s, _ = at_port(R, {takes[0]: 2, takes[1]: 1, other: 1})
    act(s, E.A_SAIL + GREEN)                      # arrives: nothing delivered by itself
    assert p(s, 0, E.P_DELIV) == 0 and p(s, 0, E.P_VP) == 0
    out = np.empty(E.MAX_LEGAL, np.int64)
    legal = list(out[:call(s, LEGAL, out=out)])
    delivers = [a - E.A_DELIVER for a in legal if E.A_DELIVER <= a < E.A_DELIVER + 16]
    assert sorted(delivers) == sorted({R.goods.index(takes[0]), R.goods.index(takes[1])})
    assert not ok(s, E.A_DELIVER + R.goods.index(other))     # the port does not take it
    act(s, E.A_DELIVER + R.goods.index(takes[1]))            # 1st delivery there: 5
    assert p(s, 0, E.P_VP) == 5 and p(s, 0, E.P_GOODS + R.goods.index(takes[1])) == 0
    assert not ok(s, E.A_DELIVER + R.goods.index(takes[1]))  # none of it left
    act(s, E.A_END)                                          # the rest kept
    assert p(s, 0, E.P_GOODS + R.goods.index(takes[0])) == 2
    assert invariants(s, R) == []


def test_the_choice_lasts_while_the_ship_stays_and_ends_when_it_sails_on():
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    s, _ = at_port(R, {R.goods[g]: 1})
    act(s, E.A_SAIL + GREEN)
    at_actions(s, seat=0, rnd=4)                  # a later round, the ship still there
    assert ok(s, E.A_DELIVER + g)
    cubes(s, 0, GREEN, 1)
    act(s, E.A_SAIL + GREEN)                      # one space on: no port
    assert not ok(s, E.A_DELIVER + g)


def test_forced_deliveries_are_the_option():
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    s, _ = at_port(R.replace(deliveries="all"), {R.goods[g]: 2})
    act(s, E.A_SAIL + GREEN)
    assert p(s, 0, E.P_DELIV) == 2 and p(s, 0, E.P_VP) == 5 + 3
    assert not ok(s, E.A_DELIVER + g)


def test_a_card_sailing_past_a_port_delivers_only_where_it_stops():
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    s, _ = at_port(R, {R.goods[g]: 1})
    i = done(s, 0, "Segelmacherei")               # sail up to 2 spaces: past the port
    act(s, activation(s, 0, i, 2))
    assert p(s, 0, E.P_DELIV) == 0 and not ok(s, E.A_DELIVER + g)


def test_the_heuristic_delivers_what_scores_and_keeps_what_does_not():
    """expert's answer at a port: a tile that scores is delivered, one that would score
    nothing (the port's three places taken) is kept."""
    from cargo_sim.games.macao.bots import greedy_nb
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    for filled, want in ((0, E.A_DELIVER + g), (3, None)):
        s, _ = at_port(R, {R.goods[g]: 1})
        act(s, E.A_SAIL + GREEN)
        s[E.G_PORT_DELIV + 0] = filled
        got = int(greedy_nb.scoring_delivery_nb(s, 0))
        assert got == (want if want is not None else -1)


# ---- "one cube less": the colour the player names ---------------------------------------
def test_spekulant_takes_the_cube_off_the_colour_named():
    s = at_actions(table(R))
    done(s, 0, "Spekulant")                       # quarters cost one cube less
    cost = [int(x) for x in R.arrays()["quarter_cost"][0]]   # quarter 1: [1, 0, 1, 0, 0, 0]
    assert cost[GREEN] == 1 and cost[BLUE] == 1 and sum(cost) == 2
    cubes(s, 0, GREEN, 1)
    assert not ok(s, E.A_GOODS + 0)               # the plain answer: the colour must be named
    assert ok(s, E.A_GOODS_OFF + 0 * 6 + BLUE)    # off blue: pay the green cube
    assert not ok(s, E.A_GOODS_OFF + 0 * 6 + GREEN)   # off green: a blue cube it has not
    assert not ok(s, E.A_GOODS_OFF + 0 * 6 + RED)     # the cost has no red cube
    act(s, E.A_GOODS_OFF + 0 * 6 + BLUE)
    assert avail(s, 0)[GREEN] == 0 and s[E.G_Q_OWNER + 0] == 0
    assert invariants(s, R) == []


@pytest.mark.parametrize("reading", ["chosen", "largest"])
def test_archiv_discount_colour_reading(reading):
    """An office costing cubes of one colour: one less either way; the largest reading
    takes it off by itself, the chosen one names it (only that colour can be named)."""
    s = at_actions(table(R.replace(discount_colour=reading)))
    done(s, 0, "Archiv")                          # offices cost one cube less
    b = eng.pb(0)
    s[b + E.P_TAB] = CARDS.index("Bau")
    s[b + E.P_N_TAB] = 1
    s[E.G_DISCARDED] -= 1
    cost = [int(x) for x in R.arrays()["card_cost"][CARDS.index("Bau")]]
    colour = int(np.argmax(cost))
    cubes(s, 0, colour, cost[colour] - 1)
    off = E.A_COMPLETE_OFF + 0 * 6 + colour
    if reading == "largest":
        assert ok(s, E.A_COMPLETE + 0) and not ok(s, off)
        act(s, E.A_COMPLETE + 0)
    else:
        assert not ok(s, E.A_COMPLETE + 0) and ok(s, off)
        assert not any(ok(s, E.A_COMPLETE_OFF + c) for c in range(6) if c != colour)
        act(s, off)
    assert p(s, 0, E.P_N_TAB) == 0 and avail(s, 0)[colour] == 0
    assert invariants(s, R) == []


def test_the_heuristic_names_a_colour_that_pays():
    from cargo_sim.games.macao.bots import greedy_nb
    s = at_actions(table(R))
    done(s, 0, "Spekulant")
    cubes(s, 0, GREEN, 1)
    assert int(greedy_nb.named_colour_nb(s, 0, E.A_GOODS + 0)) == E.A_GOODS_OFF + 0 * 6 + BLUE
    assert int(greedy_nb.named_colour_nb(s, 0, E.A_SAIL + GREEN)) == E.A_SAIL + GREEN


def test_legal_answers_with_discounts_and_a_port_are_the_codes_the_engine_accepts():
    """legal_nb against ok_nb for every code below the activations, with the four discount
    cards, tableau cards of every kind and the ship at a port with goods aboard."""
    port = R.port_names[0]
    takes = R[f"port.{port}.goods"]
    s, _ = at_port(R, {takes[0]: 1, takes[2]: 2})
    act(s, E.A_SAIL + GREEN)
    for name in ("Spekulant", "Archiv", "Kran", "Heiler"):
        done(s, 0, name)
    b = eng.pb(0)
    for t, name in enumerate(("Bau", "Tor", "Kanonier", "Zoll")):
        s[b + E.P_TAB + t] = CARDS.index(name)
    s[b + E.P_N_TAB] = 4
    s[E.G_DISCARDED] -= 4
    out = np.empty(E.MAX_LEGAL, np.int64)
    for colour, k in [(None, 0), (GREEN, 2), (BLUE, 1), (RED, 2), (GREY, 1), (PURPLE, 3), (BLACK, 2)]:
        if colour is not None:
            cubes(s, 0, colour, k)
        n = call(s, LEGAL, out=out)
        got = out[:n].tolist()
        assert got == sorted(got) and got == [a for a in range(E.A_ACT) if ok(s, a)]
    assert any(E.A_COMPLETE_OFF <= a < E.A_GOODS_OFF for a in got)
    assert any(E.A_GOODS_OFF <= a < E.A_ACT for a in got)
    assert any(E.A_DELIVER <= a < E.A_DELIVER + 16 for a in got)


# ---- "any cubes": Goldschmied, Goldsucher, Laden ---------------------------------------------
def acts_of(s, i):
    """The legal answers of completed card i's activation, as options x."""
    out = np.empty(E.MAX_LEGAL, np.int64)
    at = E.A_ACT + i * E.ACT_BLOCK
    return [a - at for a in out[:call(s, LEGAL, out=out)].tolist() if at <= a < at + E.ACT_BLOCK]


def test_any_cubes_is_a_decision_with_the_one_colour_reading_as_its_range():
    assert R["any_cubes"] == "mixed" and R.source_of("any_cubes").startswith("decision")
    assert R.ranges["any_cubes"] == ["mixed", "one_colour"]     # (ranges list the default too)


def test_the_multiset_numbering_round_trips_in_lexicographic_order():
    from cargo_sim.games.macao import table_nb as T
    for n, ways in [(1, 6), (2, 21), (3, 56), (4, 126)]:
        assert T.multisets_nb(n, 6) == ways
        seen = [int(T.multiset_nb(x, n)) for x in range(ways)]
        assert len(set(seen)) == ways
        assert all(sum((m >> (8 * c)) & 255 for c in range(6)) == n for m in seen)
        assert [int(T.multiset_rank_nb(m, n)) for m in seen] == list(range(ways))
        # sorted colours, lexicographic: {0,0,..}, then the next cube's colour goes up
        cols = [sorted(c for c in range(6) for _ in range((m >> (8 * c)) & 255)) for m in seen]
        assert cols == sorted(cols)
    assert int(T.multiset_nb(1, 2)) == (1 << 0) + (1 << 8)      # {green, grey}


@pytest.mark.parametrize("reading", ["mixed", "one_colour"])
def test_goldsucher_pays_three_cubes_of_any_colours(reading):
    """Goldsucher: 'pay 3 cubes of any kind, gain 1 coin' (seed 003 line 305): with two green
    and one blue cube only the mixed reading can pay, and only with exactly those cubes."""
    s = at_actions(table(R.replace(any_cubes=reading)))
    i = done(s, 0, "Goldsucher")
    k0 = avail(s, 0)
    cubes(s, 0, GREEN, 2 - k0[GREEN])
    cubes(s, 0, BLUE, 1 - k0[BLUE])
    for c in (GREY, BLACK, PURPLE, RED):
        cubes(s, 0, c, -k0[c])
    assert avail(s, 0) == [2, 0, 1, 0, 0, 0]
    got = acts_of(s, i)
    if reading == "one_colour":
        assert got == []                          # no colour has 3 cubes
        return
    from cargo_sim.games.macao import table_nb as T
    x = int(T.multiset_rank_nb(2 + (1 << (8 * BLUE)), 3))    # {green, green, blue}
    assert got == [x]
    coins0 = p(s, 0, E.P_COINS)
    act(s, activation(s, 0, i, x))
    assert avail(s, 0) == [0, 0, 0, 0, 0, 0] and p(s, 0, E.P_COINS) == coins0 + 1
    assert invariants(s, R.replace(any_cubes=reading)) == []


@pytest.mark.parametrize("reading", ["mixed", "one_colour"])
def test_laden_pays_two_cubes_of_any_colours_for_one_of_any_colour(reading):
    """Laden: 'pay 2 cubes of any kind, gain 1 cube of any kind' (seed 003 line 362): one
    green and one red cube pay under the mixed reading only, for each colour gained."""
    rules = R.replace(any_cubes=reading)
    s = at_actions(table(rules))
    i = done(s, 0, "Laden")
    k0 = avail(s, 0)
    for c, want in enumerate([1, 0, 0, 0, 0, 1]):
        cubes(s, 0, c, want - k0[c])
    got = acts_of(s, i)
    if reading == "one_colour":
        assert got == []
        cubes(s, 0, RED, 1)                       # two red: one colour pays, 6 colours gained
        assert acts_of(s, i) == [RED * 6 + g for g in range(6)]
        return
    from cargo_sim.games.macao import table_nb as T
    y = int(T.multiset_rank_nb(1 + (1 << (8 * RED)), 2))     # {green, red}
    assert got == [y * 6 + g for g in range(6)]
    act(s, activation(s, 0, i, y * 6 + BLUE))
    assert avail(s, 0) == [0, 0, 1, 0, 0, 0]
    assert invariants(s, rules) == []


def test_goldschmied_one_cube_is_the_same_answer_under_either_reading():
    for reading in ("mixed", "one_colour"):
        s = at_actions(table(R.replace(any_cubes=reading)))
        i = done(s, 0, "Goldschmied")
        k0 = avail(s, 0)
        for c, want in enumerate([0, 1, 0, 1, 0, 0]):
            cubes(s, 0, c, want - k0[c])
        assert acts_of(s, i) == [GREY, BLACK]


def test_a_mixed_payment_larger_than_an_answer_block_is_refused():
    from cargo_sim.core.errors import RulesError
    with pytest.raises(RulesError, match="Laden.args: PAY_CUBES_FOR_ANY_CUBE pays 3 cubes"):
        R.replace({"card.Laden.args": [3, 1]})
    with pytest.raises(RulesError, match="Goldsucher.args: PAY_CUBES_FOR_COINS pays 5 cubes"):
        R.replace({"card.Goldsucher.args": [5, 1, 1]})
    assert R.replace({"card.Laden.args": [3, 1]}, any_cubes="one_colour")["card.Laden.args"] == [3, 1]
    with pytest.raises(RulesError, match="any_cubes: must be one of mixed, one_colour"):
        R.replace(any_cubes="mix")


def test_the_heuristic_pays_any_cubes_with_the_colours_it_has_most_of():
    from cargo_sim.games.macao.bots import greedy_nb
    from cargo_sim.games.macao import table_nb as T
    s = at_actions(table(R))
    k0 = avail(s, 0)
    for c, want in enumerate([1, 3, 0, 2, 0, 0]):
        cubes(s, 0, c, want - k0[c])
    paid = int(greedy_nb.plentiful_nb(s, 0, 3))   # grey (3), grey (2 left, black's 2 tie: the first), black
    assert [(paid >> (8 * c)) & 255 for c in range(6)] == [0, 2, 0, 1, 0, 0]
    assert int(greedy_nb.plentiful_nb(s, 0, 7)) == -1
    assert int(T.multiset_rank_nb(paid, 3)) >= 0


def test_the_heuristic_tries_goldsucher_and_laden_with_the_plentiful_mix():
    from cargo_sim.games.macao.bots import greedy_nb
    from cargo_sim.games.macao import table_nb as T
    s = at_actions(table(R))                      # the finite supply: Laden tries each colour gained
    i = done(s, 0, "Goldsucher")
    j = done(s, 0, "Laden")
    k0 = avail(s, 0)
    for c, want in enumerate([1, 3, 0, 2, 0, 0]):
        cubes(s, 0, c, want - k0[c])
    out = np.empty(E.MAX_LEGAL, np.int64)
    tries = out[:greedy_nb.card_tries_nb(s, 0, out, 0)].tolist()
    three = int(T.multiset_rank_nb(2 << 8 | 1 << 24, 3))      # grey, grey, black
    two = int(T.multiset_rank_nb(2 << 8, 2))                  # grey, grey (black's 2 ties: grey first)
    assert [a for a in tries if a >= E.A_ACT] == [activation(s, 0, i, three)] + [
        activation(s, 0, j, two * 6 + g) for g in range(6)]
    assert all(ok(s, a) for a in tries)
