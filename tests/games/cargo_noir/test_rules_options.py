"""The rulings the texts leave open are rules options (docs/rules.md): each side
of each option on an explicit game state, plus the data's ranges and the
new port evidence."""
import numpy as np
import pytest

import cargo_sim
from cargo_sim import IllegalDecisionError, Rules
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.testing import ScriptedGame
from cargo_sim.core.errors import RulesError

RULES = Rules.default()


# ---- final turn: phase 3 or not ------------------------------------------------
def final_turn_outbid(rules):
    """Seat 1 sits alone on Rio (stack 2) into the last turn; seat 0 has coins
    and a ship in hand. Returns the game after both seats' whole last turn."""
    g = ScriptedGame(2, rules=rules)
    g.set_turn(rules.turns(2))
    g.set_port("Rio", jewels=3)
    g.set_player(0, coins=5, hand_ships=1, ships=3)
    g.set_player(1, coins=0, hand_ships=2, ships=3)
    g.set_bid("Rio", 1, 2)
    return g


def test_final_phase3_option_lets_an_earlier_seat_outbid_with_worthless_coins():
    rules = RULES.replace(final_turn_phase3=True)
    g = final_turn_outbid(rules)
    # seat 0: phase 2 with 5 coins buys nothing, then a final phase 3: 3 coins on Rio
    g.run_phase(0, 0, [("trade", None), ("send", "Rio", 3)])
    assert g.bid("Rio", 0) == 3 and g.coins(0) == 2
    # seat 1, outbid and broke, must abandon Rio in its final phase 1: no cargo
    g.run_phase(1, 1)
    assert g.hand(1) == {} and g.bid("Rio", 1) == 0 and g.coins(1) == 2
    assert g.stat(1, "abandons") == 1 and g.stat(1, "ports_won") == 0


def test_without_the_option_the_same_seat_takes_the_cargo():
    g = final_turn_outbid(RULES)
    g.run_phase(0, 0, [("trade", None)])             # no send: no phase 3 on the last turn
    assert g.bid("Rio", 0) == 0 and g.coins(0) == 5
    g.run_phase(1, 1)                                # alone on Rio: pays 2, takes the jewels
    assert g.hand(1) == {"jewels": 3} and g.stat(1, "ports_won") == 1


# ---- a trade that takes no card --------------------------------------------------
def test_selling_tokens_for_no_card_is_an_illegal_answer_by_default():
    g = ScriptedGame(2)
    g.set_turn(3)
    g.set_hand(0, jewels=2, cars=1)
    with pytest.raises(IllegalDecisionError, match="trade"):
        g.run_phase(0, 2, [("trade", {"jewels": 2}, {})])
    assert g.hand(0) == {"jewels": 2, "cars": 1} and g.stat(0, "trades") == 0


def test_selling_tokens_for_no_card_is_allowed_by_the_option():
    g = ScriptedGame(2, rules=RULES.replace(trade_without_card=True))
    g.set_turn(3)
    g.set_hand(0, jewels=2, cars=1)
    disc0 = g.discard.get("jewels", 0)
    g.run_phase(0, 2, [("trade", {"jewels": 2}, {})])
    assert g.hand(0) == {"cars": 1} and g.discard.get("jewels", 0) == disc0 + 2
    assert g.stat(0, "trade_value") == 4 and g.stat(0, "value_lost") == 4


def test_simulate_names_the_option_when_a_bot_sells_for_nothing():
    from cargo_sim.games.cargo_noir.simulate import illegal_error, parse_player
    err = illegal_error([parse_player("random")] * 2, e.D_TRADE, 0, 3, -1, 4, 7, 99, RULES)
    assert "took no card" in str(err) and "trade_without_card" in str(err)


# ---- tie-break: highest card by VP or by cost --------------------------------------
# Both have 13 VP. Seat 0's highest card is a Dive Bar (VP 10, cost 10); seat 1's
# a Cargo Ship (VP 4, cost 12): VP picks seat 0, cost picks seat 1.
TIED = ({"Dive Bar": 1, "Warehouses": 1},
        {"Cargo Ship": 1, "Warehouses": 2, "Syndicate": 1})


@pytest.mark.parametrize("tie_break, winner", [("vp", 0), ("cost", 1)])
def test_tie_break_by_vp_or_cost(tie_break, winner):
    g = ScriptedGame(2, rules=RULES.replace(tie_break=tie_break))
    for seat, cards in enumerate(TIED):
        g.set_cards(seat, cards)
    g.run_phase(0, 4)
    assert [g.stat(s, "vp") for s in (0, 1)] == [13, 13]
    assert [g.stat(s, "won") for s in (0, 1)] == [int(winner == 0), int(winner == 1)]


def test_tie_break_must_be_vp_or_cost():
    with pytest.raises(RulesError, match="tie_break"):
        RULES.replace(tie_break="coins")


def test_simulate_ranks_follow_the_cost_tie_break():
    res = cargo_sim.simulate(400, ["random"] * 2, seed=3, rules=RULES.replace(tie_break="cost"),
                             progress=False)
    pl = res.players
    assert ((pl["rank"] == 1) == (pl["won"] == 1)).all()


# ---- the bank shortfall share in every summary ------------------------------------
def test_summary_states_the_share_of_games_with_a_bank_shortfall():
    res = cargo_sim.simulate(200, ["random"] * 2, seed=5, progress=False)
    share = float((res.games["shortfalls"] > 0).mean())
    s = res.summary()
    assert (s["bank_short_games"] == share).all()
    unl = cargo_sim.simulate(200, ["random"] * 2, seed=5, progress=False,
                             rules=RULES.replace(unlimited_coins=True))
    assert (unl.summary()["bank_short_games"] == 0).all()


# ---- the new port evidence and the ranges ------------------------------------------
def test_four_player_board_is_the_session_reports():
    slots = {p: RULES[f"port.{p}.slots"] for p in RULES.open_ports(4)}
    assert slots == {"Rotterdam": 4, "Cape Town": 1, "New York": 3, "Panama": 2,
                     "Bombay": 3, "Hong Kong": 2, "Rio": 3}
    assert set(RULES.open_ports(5)) == set(RULES.port_names)
    assert RULES.source_of("port.Rio.slots").startswith("review: medium confidence")
    assert RULES.source_of("port.Tanger.slots").startswith("estimated")


def test_every_estimate_and_decision_has_a_range_containing_the_default():
    ranges = RULES.ranges
    flat = RULES.flat()
    tied = RULES.tied
    for name in RULES.estimated:
        if name in tied:                   # moves with its leader, which has the range
            assert tied[name] in ranges and name not in ranges, name
            continue
        assert name in ranges, name        # every estimate, port openings included
    for name, values in ranges.items():
        assert flat[name] in values and len(values) >= 2, name
    decisions = [n for n in flat if RULES.source_of(n).startswith("decision")]
    assert set(decisions) <= set(ranges)
    # card VP ranges keep each ladder's order with the neighbours at their defaults
    # (a common card's VP is its cost: its cost range is its VP range)
    for kind in ("common", "unique"):
        cards = [c for c in RULES.card_names if RULES[f"card.{c}.kind"] == kind]
        vp = {c: ranges.get(f"card.{c}.vp") or ranges[tied[f"card.{c}.vp"]] for c in cards}
        for a, b in zip(cards, cards[1:]):
            assert max(vp[a]) < RULES[f"card.{b}.vp"]
            assert RULES[f"card.{a}.vp"] < min(vp[b])


@pytest.mark.parametrize("spec, msg", [({"turns.4": [11, 9]}, "lo <= hi"),
                                       ({"nonsense": [1, 2]}, "unknown"),
                                       ({"tie_break": [3]}, "type")])
def test_bad_ranges_are_refused(spec, msg):
    data = RULES.to_dict()
    data["range"] = spec
    with pytest.raises(RulesError, match=msg):
        Rules(data)
