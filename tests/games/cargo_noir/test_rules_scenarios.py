"""Rule scenarios on explicit game states (ScriptedGame), one rule per test.

Every test builds a state by hand, runs one phase of one seat's turn with the
answers that seat gives, and checks the exact numbers the rules
(docs/rules.md, the rules as implemented) imply: coins in safes and bank, cargo in
hands, ports, bag and discard pile, ships, cards, statistics and events.
Illegal answers must be refused by the engine itself (IllegalDecisionError).
"""
import numpy as np
import pytest

import cargo_sim
from cargo_sim import IllegalDecisionError, Rules
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.testing import ScriptedGame, ScriptError

RULES = Rules.default()
ALL_TYPES = RULES.cargo_types                       # 9 cargo types


def game(n=2, rules=None, turn=2):
    """A fresh n-player game on `turn` with every ship in hand (no ship out)."""
    g = ScriptedGame(n, rules=rules)
    g.set_turn(turn)
    return g


def hand_ships(g, seat):
    return g.player(seat, e.PL_HAND_SHIPS)


def ships(g, seat):
    return g.player(seat, e.PL_SHIPS)


def actions(g, name):
    ev = g.events()
    return ev[ev["action"] == name]


def sum_tokens(d):
    return sum(d.values())


# ---------------------------------------------------------------------------
# Phase 2: trading
# ---------------------------------------------------------------------------
EXAMPLE = {"jewels": 4, "wild": 1, "cars": 3, "weapons": 1}     # rulebook: 25 + 9 + 1 = 35


def test_rulebook_trade_example_buys_cards_worth_exactly_35():
    g = game(4)
    g.set_hand(0, **EXAMPLE)
    disc0 = g.discard
    g.run_phase(0, 2, [("trade", EXAMPLE, {"Night Club": 1, "Dive Bar": 2})])
    assert g.hand(0) == {}
    assert g.cards(0) == {"Night Club": 1, "Dive Bar": 2}
    assert g.supply("Night Club") == 5 and g.supply("Dive Bar") == 4
    assert g.stat(0, "trade_value") == 35
    assert g.stat(0, "value_lost") == 0
    assert g.stat(0, "cards_bought") == 3
    assert g.stat(0, "cargo_traded") == 9 and g.stat(0, "wilds_traded") == 1
    # the sold tokens go to the discard pile
    for t, k in EXAMPLE.items():
        assert g.discard.get(t, 0) == disc0.get(t, 0) + k
    tr = actions(g, "trade")
    assert len(tr) == 1 and int(tr["value"].iloc[0]) == 35 and int(tr["count"].iloc[0]) == 9
    buys = actions(g, "buy")
    assert dict(zip(buys["card"], buys["count"].astype(int))) == {"Night Club": 1, "Dive Bar": 2}
    # a trade is not a coin transaction on a normal turn
    assert g.coins(0) == 7


def test_trade_beyond_the_value_table_is_valued_exactly():
    """A holding with more tokens than the precomputed table (32) takes the
    exact solver the kernels call by address: same value as trade_value()."""
    g = game(4)
    big = {"alcohol": 9, "weapons": 9, "art": 9, "cars": 8, "cigars": 4, "wild": 1}   # 40 tokens
    assert sum(big.values()) > g.rules.trade_tables().table_max_total
    counts = [big.get(t, 0) for t in g.rules.cargo_types]
    value = cargo_sim.trade_value(counts, wilds=1)
    g.set_hand(0, **big)
    g.run_phase(0, 2, [("trade", big, {"Dive Bar": 1})])
    assert g.stat(0, "trade_value") == value
    assert g.stat(0, "value_lost") == value - 10
    assert g.cards(0) == {"Dive Bar": 1}


def test_rulebook_example_part_sale_keeps_the_rest():
    g = game(4)
    g.set_hand(0, **EXAMPLE)
    g.run_phase(0, 2, [("trade", {"jewels": 4, "wild": 1}, {"Villa": 1})])  # 5 "jewels" = 25
    assert g.hand(0) == {"cars": 3, "weapons": 1}
    assert g.cards(0) == {"Villa": 1}
    assert g.stat(0, "trade_value") == 25 and g.stat(0, "value_lost") == 0


@pytest.mark.parametrize("buy", [{"Yacht": 2},                   # 40 > 35
                                 {"Villa": 1, "Cargo Ship": 1},  # 37 > 35
                                 {"Militia": 1}])                # 40 > 35
def test_trade_costing_more_than_the_value_is_refused(buy):
    g = game(4)
    g.set_hand(0, **EXAMPLE)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", EXAMPLE, buy)])
    # nothing happened
    assert g.hand(0) == EXAMPLE
    assert g.cards(0) == {}
    assert all(g.supply(c) == RULES[f"card.{c}.copies"] for c in buy)


def test_no_change_is_given_value_lost_recorded():
    g = game(4)
    g.set_hand(0, **EXAMPLE)
    g.run_phase(0, 2, [("trade", EXAMPLE, {"Night Club": 2})])      # 30 of 35
    assert g.hand(0) == {}
    assert g.cards(0) == {"Night Club": 2}
    assert g.stat(0, "value_lost") == 5
    assert g.coins(0) == 7          # no change in coins either


def test_selling_tokens_not_held_is_refused():
    g = game(2)
    g.set_hand(0, jewels=2)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", {"jewels": 3}, {})])
    assert g.hand(0) == {"jewels": 2}


# ---------------------------------------------------------------------------
# Phase 1: Casino
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n_casino", [1, 2, 3])
def test_casino_pays_two_per_ship_from_bank_and_ships_return(n_casino):
    g = game(3)
    g.set_player(0, hand_ships=3 - n_casino, casino=n_casino)
    bank0, total0 = g.bank, g.total_coins()
    g.run_phase(0, 1, [])
    assert g.coins(0) == 7 + 2 * n_casino
    assert g.bank == bank0 - 2 * n_casino
    assert g.total_coins() == total0
    assert hand_ships(g, 0) == 3
    assert g.player(0, e.PL_CASINO_SHIPS) == 0
    assert g.stat(0, "casino_visits") == n_casino and g.stat(0, "casino_coins") == 2 * n_casino
    ev = actions(g, "casino")
    assert len(ev) == 1 and int(ev["amount"].iloc[0]) == 2 * n_casino


def test_casino_coins_can_pay_a_raise_in_the_same_phase():
    g = game(2)
    # seat 0: 1 coin in the safe, 2 ships at the Casino, outbid at Rio (1 vs 3): needs 3 to raise
    g.set_player(0, coins=1, hand_ships=0, casino=2)
    g.set_player(1, coins=4)
    g.set_bid("Rio", 0, 1)
    g.set_bid("Rio", 1, 3)
    g.run_phase(0, 1, [("order", "Casino"), ("raise", 3)])
    assert g.coins(0) == 1 + 4 - 3
    assert g.bid("Rio", 0) == 4
    assert hand_ships(g, 0) == 2


@pytest.mark.parametrize("where", ["Black Market", "Bombay"])
def test_resolution_order_must_name_a_pending_ship(where):
    g = game(2)
    g.set_player(0, hand_ships=1, casino=1)
    g.set_bid("Rio", 0, 1)
    g.set_player(0, coins=6)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 1, [("order", where)])


# ---------------------------------------------------------------------------
# Phase 1: winning a port alone
# ---------------------------------------------------------------------------
def test_port_alone_pays_stack_to_bank_takes_all_cargo_and_refills():
    g = game(2)
    g.set_port("Rio", jewels=2, gold=1)
    g.set_bag(uranium=10)                         # refill is deterministic
    g.set_bid("Rio", 0, 3)
    g.set_player(0, coins=4, hand_ships=2)
    hk0 = g.port_cargo("Hong Kong")
    bank0, total0 = g.bank, g.total_coins()
    g.run_phase(0, 1, [])
    assert g.hand(0) == {"jewels": 2, "gold": 1}
    assert g.coins(0) == 4                        # the stack was already off the safe
    assert g.bank == bank0 + 3
    assert g.total_coins() == total0
    assert g.bid("Rio", 0) == 0
    assert hand_ships(g, 0) == 3
    assert g.port_cargo("Rio") == {"uranium": 3}  # refilled at once to its 3 slots
    assert g.bag == {"uranium": 7}
    assert g.port_cargo("Hong Kong") == hk0
    assert g.stat(0, "ports_won") == 1
    assert g.stat(0, "coins_paid") == 3
    assert g.stat(0, "cargo_won") == 3
    win = actions(g, "port win")
    assert len(win) == 1 and win["loc"].iloc[0] == "Rio" and int(win["amount"].iloc[0]) == 3


def test_port_cargo_may_exceed_warehouse_until_end_of_phase_2():
    g = game(2)
    g.set_hand(0, alcohol=5)
    g.set_port("Hong Kong", art=2, cars=2)
    g.set_bid("Hong Kong", 0, 1)
    g.set_player(0, coins=6, hand_ships=2)
    g.run_phase(0, 1, [])                         # no discard asked in phase 1
    assert sum_tokens(g.hand(0)) == 9
    g.run_phase(0, 2, [("trade", None), ("discard", {"alcohol": 3})])
    assert g.hand(0) == {"alcohol": 2, "art": 2, "cars": 2}
    assert g.stat(0, "cargo_discarded") == 3


def test_each_port_resolves_separately_in_chosen_order():
    g = game(5)                                   # Tanger (1 slot) opens at 5 players
    g.set_bag(gold=20)
    g.set_port("Rio", art=3)
    g.set_port("Tanger", ivory=1)
    g.set_bid("Rio", 0, 2)
    g.set_bid("Tanger", 0, 1)
    g.set_player(0, coins=4, hand_ships=1)
    bank0 = g.bank
    g.run_phase(0, 1, [("order", "Tanger")])      # Rio is then the only one left
    assert g.hand(0) == {"art": 3, "ivory": 1}
    assert g.bank == bank0 + 3
    assert g.port_cargo("Rio") == {"gold": 3} and g.port_cargo("Tanger") == {"gold": 1}
    wins = actions(g, "port win")
    assert list(wins["loc"]) == ["Tanger", "Rio"]


# ---------------------------------------------------------------------------
# Phase 1: contested ports
# ---------------------------------------------------------------------------
def test_contested_port_over_three_turns():
    g = game(2)
    A, B = 0, 1
    g.set_player(A, ships=2, hand_ships=2)
    g.set_player(B, ships=1, hand_ships=1)
    g.set_port("Rio", jewels=1, art=1, gold=1)
    assert g.total_coins() == 60
    # turn 2: A bids 2 at Rio (other ship to the Casino); B outbids with 3
    g.set_turn(2)
    g.run_phase(A, 3, [("send", "Rio", 2), ("send", "Casino")])
    assert g.coins(A) == 5 and g.bid("Rio", A) == 2
    with pytest.raises(IllegalDecisionError):                # 2 does not beat 2
        g.run_phase(B, 3, [("send", "Rio", 2)])
    g.run_phase(B, 3, [("send", "Rio", 3)])
    assert g.coins(B) == 4 and g.bid("Rio", B) == 3
    # turn 3: A is outbid and raises by 2 (stack 4); the ship stays
    g.set_turn(3)
    g.run_phase(A, 1, [("order", "Rio"), ("raise", 2)])      # then the Casino (only one left)
    assert g.bid("Rio", A) == 4
    assert g.coins(A) == 5 - 2 + 2
    assert hand_ships(g, A) == 1                              # only the Casino ship came back
    assert g.stat(A, "raises") == 1 and g.stat(A, "raise_coins") == 2
    g.run_phase(A, 2, [])
    with pytest.raises(IllegalDecisionError):                # its ship is still at Rio
        g.run_phase(A, 3, [("send", "Rio", 5)])
    g.run_phase(A, 3, [("send", "Casino")])
    assert g.total_coins() == 60
    # B is outbid (4 > 3) and abandons: coins back, ship back, Rio closed to B this turn
    g.run_phase(B, 1, [("raise", 0)])
    assert g.coins(B) == 7 and g.bid("Rio", B) == 0
    assert hand_ships(g, B) == 1
    assert g.stat(B, "abandons") == 1
    g.run_phase(B, 2, [])
    with pytest.raises(IllegalDecisionError):
        g.run_phase(B, 3, [("send", "Rio", 5)])
    assert g.coins(B) == 7 and hand_ships(g, B) == 1
    g.run_phase(B, 3, [("send", "Casino")])
    # turn 4: A is alone at Rio and wins it for its stack of 4
    g.set_turn(4)
    bank0 = g.bank
    g.set_bag(cigars=30)
    g.run_phase(A, 1, [("order", "Rio")])
    assert g.hand(A) == {"jewels": 1, "art": 1, "gold": 1}
    assert g.bank == bank0 + 4 - 2                            # stack in, Casino payout out
    assert g.coins(A) == 5 + 2
    assert g.port_cargo("Rio") == {"cigars": 3}
    assert g.stat(A, "coins_paid") == 4
    g.run_phase(A, 2, [("trade", None)])
    g.run_phase(A, 3, [("send", "Casino"), ("send", "Casino")])
    # B may go back to Rio on this (later) turn
    g.run_phase(B, 1, [])
    assert g.coins(B) == 9
    g.run_phase(B, 2, [])
    g.run_phase(B, 3, [("send", "Rio", 1)])
    assert g.bid("Rio", B) == 1 and g.coins(B) == 8
    assert g.total_coins() == 60


def outbid_state(coins_a, bid_a=2, bid_b=3, **kw):
    g = game(2, **kw)
    g.set_bid("Rio", 0, bid_a)
    g.set_bid("Rio", 1, bid_b)
    g.set_player(0, coins=coins_a, hand_ships=2)
    g.set_player(1, coins=7 - bid_b, hand_ships=2)
    return g


@pytest.mark.parametrize("add", [1, 6, -1])
def test_raise_must_exceed_top_stack_and_be_paid(add):
    g = outbid_state(coins_a=5)                    # need 2 more (stack 4 > 3); 5 coins
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 1, [("raise", add)])


@pytest.mark.parametrize("add", [2, 5])
def test_raise_at_least_one_above_top_stack(add):
    g = outbid_state(coins_a=5)
    g.run_phase(0, 1, [("raise", add)])
    assert g.bid("Rio", 0) == 2 + add
    assert g.coins(0) == 5 - add
    assert hand_ships(g, 0) == 2


def test_raise_with_too_few_coins_forces_abandon_without_asking():
    g = outbid_state(coins_a=3, bid_a=2, bid_b=5)  # needs 4, has 3
    bank0 = g.bank
    g.run_phase(0, 1, [])                          # no decision asked
    assert g.coins(0) == 5
    assert g.bid("Rio", 0) == 0
    assert hand_ships(g, 0) == 3
    assert g.stat(0, "abandons") == 1 and g.stat(0, "raises") == 0
    assert g.bank == bank0
    # and the abandoned port is closed to this player for the rest of the turn
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 3, [("send", "Rio", 5)])


def test_raise_with_exactly_enough_coins_is_asked():
    g = outbid_state(coins_a=4, bid_a=2, bid_b=5)  # needs 4, has 4
    with pytest.raises(ScriptError):
        g.run_phase(0, 1, [])


def test_raise_order_matters_when_coins_cover_one_raise():
    """Outbid at Rio and Bombay (2 more needed at each) with 3 coins: after
    raising at Rio the player cannot pay at Bombay and abandons it unasked."""
    g = game(2)
    for p in ("Rio", "Bombay"):
        g.set_bid(p, 0, 1)
        g.set_bid(p, 1, 2)
    g.set_player(0, coins=3, hand_ships=1)
    g.set_player(1, coins=3)
    g.run_phase(0, 1, [("order", "Rio"), ("raise", 2)])     # no question for Bombay
    assert g.bid("Rio", 0) == 3 and g.bid("Bombay", 0) == 0
    assert g.coins(0) == 3 - 2 + 1
    assert hand_ships(g, 0) == 2
    assert g.stat(0, "raises") == 1 and g.stat(0, "abandons") == 1


def test_coins_from_an_abandon_can_pay_a_raise_later_in_the_phase():
    g = game(2)
    g.set_bid("Rio", 0, 4)
    g.set_bid("Rio", 1, 5)
    g.set_bid("Bombay", 0, 1)
    g.set_bid("Bombay", 1, 2)
    g.set_player(0, coins=0, hand_ships=1)
    g.set_player(1, coins=0)
    total0 = g.total_coins()
    # Rio: needs 2 more with an empty safe -> abandoned unasked (+4 coins);
    # Bombay: needs 2 more -> now affordable, so the player is asked
    g.run_phase(0, 1, [("order", "Rio"), ("raise", 2)])
    assert g.bid("Rio", 0) == 0
    assert g.bid("Bombay", 0) == 3 and g.coins(0) == 2
    assert g.total_coins() == total0
    ev = g.events()
    assert list(ev["action"].astype(str)) == ["abandon", "raise"]
    assert ev["amount"].astype(int).tolist() == [4, 2]
    assert ev["coins"].astype(int).tolist() == [4, 2]        # safe after each event


@pytest.mark.parametrize("n_syndicate, ports, bonus", [
    (0, ["Rio", "Bombay"], 0),
    (1, ["Rio"], 2),
    (1, ["Rio", "Bombay"], 2),
    (2, ["Rio"], 2),
    (2, ["Rio", "Bombay"], 4),
    (2, ["Rio", "Bombay", "Panama"], 4),
])
def test_syndicate_pays_two_per_card_per_abandoned_port(n_syndicate, ports, bonus):
    g = game(2)
    for p in ports:
        g.set_bid(p, 0, 1)
        g.set_bid(p, 1, 2)
    g.set_player(0, coins=7 - len(ports), hand_ships=3 - len(ports))
    g.set_player(1, coins=7 - 2 * len(ports))
    if n_syndicate:
        g.set_cards(0, {"Syndicate": n_syndicate})
    bank0, total0 = g.bank, g.total_coins()
    answers = []
    for i, p in enumerate(ports):
        if i < len(ports) - 1:
            answers.append(("order", p))
        answers.append(("raise", 0))
    g.run_phase(0, 1, answers)
    assert g.coins(0) == 7 + bonus
    assert g.bank == bank0 - bonus
    assert g.total_coins() == total0
    assert g.stat(0, "syndicate_coins") == bonus
    assert g.stat(0, "abandons") == len(ports)
    assert hand_ships(g, 0) == 3
    assert int(actions(g, "syndicate")["amount"].sum()) == bonus


def test_syndicate_also_pays_on_forced_abandon():
    g = outbid_state(coins_a=0, bid_a=1, bid_b=2)
    g.set_cards(0, {"Syndicate": 1})
    g.run_phase(0, 1, [])
    assert g.coins(0) == 1 + 2


def test_no_return_to_abandoned_port_this_turn_but_next_turn():
    g = game(2)
    g.set_bid("Rio", 0, 1)
    g.set_bid("Rio", 1, 2)
    g.set_player(0, coins=6, hand_ships=2)
    g.set_player(1, coins=5, hand_ships=2)
    g.run_phase(0, 1, [("raise", 0)])
    g.run_phase(0, 2, [])
    for bid in (3, 6):
        with pytest.raises(IllegalDecisionError):
            g.run_phase(0, 3, [("send", "Rio", bid)])
    g.run_phase(0, 3, [("send", "Bombay", 1), ("send", "Casino"), ("send", "Casino")])
    # seat 1 is alone at Rio on its turn: wins it
    g.run_phase(1, 1, [])
    assert g.bid("Rio", 1) == 0
    g.run_phase(1, 2, [("trade", None)] if g.hand(1) else [])
    g.run_phase(1, 3, [("send", "Casino")] * 3)
    # next turn seat 0 may go back to Rio
    g.set_turn(3)
    g.run_phase(0, 1, [("order", "Bombay")])       # Bombay won, then the Casino
    g.run_phase(0, 2, [("trade", None)] if g.hand(0) else [])
    g.run_phase(0, 3, [("send", "Rio", 1), ("send", "Casino"), ("send", "Casino")])
    assert g.bid("Rio", 0) == 1


# ---------------------------------------------------------------------------
# Phase 3: sending ships
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("others, bid, legal", [
    (0, 0, False),      # an empty port needs at least 1
    (0, 1, True),
    (0, 7, True),       # every coin in the safe
    (0, 8, False),      # more than the safe
    (3, 3, False),      # must beat the highest stack by 1
    (3, 4, True),
    (6, 7, True),
    (7, 8, False),      # cannot pay the least bid
])
def test_phase3_bid_limits(others, bid, legal):
    g = game(3)
    g.set_player(0, hand_ships=1)
    if others:
        g.set_bid("Rio", 1, others - 1 if others > 1 else others)
        g.set_bid("Rio", 2, others)
    bank0 = g.bank
    if legal:
        g.run_phase(0, 3, [("send", "Rio", bid)])
        assert g.bid("Rio", 0) == bid
        assert g.coins(0) == 7 - bid
        assert g.bank == bank0              # bids stay on the port
        assert g.stat(0, "bids") == 1 and g.stat(0, "bid_coins") == bid
        assert hand_ships(g, 0) == 0
    else:
        with pytest.raises(IllegalDecisionError):
            g.run_phase(0, 3, [("send", "Rio", bid)])
        assert g.coins(0) == 7 and g.bid("Rio", 0) == 0


def test_phase3_one_ship_per_player_per_port():
    g = game(2)
    g.set_player(0, hand_ships=2)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 3, [("send", "Rio", 1), ("send", "Rio", 2)])


def test_phase3_two_players_can_stack_the_same_port():
    g = game(3)
    g.set_player(0, hand_ships=1)
    g.set_player(1, hand_ships=1)
    g.set_player(2, hand_ships=1)
    g.run_phase(0, 3, [("send", "Panama", 1)])
    g.run_phase(1, 3, [("send", "Panama", 2)])
    g.run_phase(2, 3, [("send", "Panama", 3)])
    assert [g.bid("Panama", s) for s in range(3)] == [1, 2, 3]


def test_phase3_casino_and_black_market_take_any_number_of_ships_free():
    g = game(2)
    g.set_player(0, ships=5, hand_ships=5)
    g.run_phase(0, 3, [("send", "Casino")] * 3 + [("send", "Black Market")] * 2)
    assert g.player(0, e.PL_CASINO_SHIPS) == 3
    assert g.player(0, e.PL_BM_SHIPS) == 2
    assert g.coins(0) == 7
    assert hand_ships(g, 0) == 0
    # the other player can also send ships there
    g.run_phase(1, 3, [("send", "Casino")] * 3)
    assert g.player(1, e.PL_CASINO_SHIPS) == 3


def test_phase3_every_ship_must_be_sent():
    g = game(2)
    g.set_player(0, hand_ships=3)
    with pytest.raises(ScriptError):               # asked for a 3rd destination
        g.run_phase(0, 3, [("send", "Casino"), ("send", "Casino")])


def test_phase3_no_coins_only_macao():
    g = game(2)
    g.set_player(0, coins=0, hand_ships=1)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 3, [("send", "Panama", 0)])
    g.run_phase(0, 3, [("send", "Casino")])


# ---------------------------------------------------------------------------
# Phase 1: Black Market
# ---------------------------------------------------------------------------
def test_black_market_swap_one_token():
    g = game(2)
    g.set_black_market(gold=3, art=5)
    g.set_hand(0, jewels=1, cars=1)
    g.set_player(0, hand_ships=2, black_market=1)
    tok0 = g.total_tokens()
    g.run_phase(0, 1, [("bm", ("jewels", "gold"))])
    assert g.hand(0) == {"gold": 1, "cars": 1}
    assert g.black_market == {"gold": 2, "art": 5, "jewels": 1}
    assert sum_tokens(g.black_market) == 8
    assert g.total_tokens() == tok0
    assert hand_ships(g, 0) == 3 and g.player(0, e.PL_BM_SHIPS) == 0
    assert g.stat(0, "bm_swaps") == 1 and g.stat(0, "bm_draws") == 0


@pytest.mark.parametrize("swap", [("uranium", "gold"),     # not held
                                  ("jewels", "uranium")])  # not in the market
def test_black_market_swap_needs_both_tokens(swap):
    g = game(2)
    g.set_black_market(gold=3, art=5)
    g.set_hand(0, jewels=1)
    g.set_player(0, hand_ships=2, black_market=1)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 1, [("bm", swap)])


def test_black_market_draw_and_swap_one_per_ship():
    g = game(2)
    g.set_black_market(gold=8)
    g.set_bag(ivory=5)
    g.set_hand(0, art=1)
    g.set_player(0, hand_ships=1, black_market=2)
    g.run_phase(0, 1, [("bm", "draw"), ("bm", ("art", "gold"))])
    assert g.hand(0) == {"ivory": 1, "gold": 1}
    assert g.bag == {"ivory": 4}
    assert g.black_market == {"gold": 7, "art": 1}
    assert g.stat(0, "bm_draws") == 1 and g.stat(0, "bm_swaps") == 1
    assert hand_ships(g, 0) == 3


def test_black_market_draw_is_random_from_bag():
    # the drawn token's type is distributed like the bag (3 art : 1 gold)
    counts = {"art": 0, "gold": 0}
    g = game(2)
    for _ in range(400):
        g.set_bag(art=3, gold=1)
        g.set_hand(0)
        g.set_player(0, hand_ships=2, black_market=1)
        g.run_phase(0, 1, [("bm", "draw")])
        (t, k), = g.hand(0).items()
        counts[t] += k
    assert counts["art"] + counts["gold"] == 400
    assert 260 <= counts["art"] <= 340          # 300 expected, sd 8.7


# ---------------------------------------------------------------------------
# Bag and discard pile
# ---------------------------------------------------------------------------
def test_port_refill_from_discard_when_bag_runs_dry():
    g = game(5)                                   # Tanger (1 slot) opens at 5 players
    g.set_bag()
    g.set_discard(art=5)
    g.set_port("Tanger", gold=1)
    g.set_bid("Tanger", 0, 1)
    g.set_player(0, coins=6, hand_ships=2)
    g.run_phase(0, 1, [])
    assert g.hand(0) == {"gold": 1}
    assert g.port_cargo("Tanger") == {"art": 1}
    assert g.bag == {"art": 4}
    assert g.discard == {}
    assert g.misc(e.M_BAG_REFILLS) == 1
    ev = actions(g, "bag refill")
    assert len(ev) == 1 and int(ev["count"].iloc[0]) == 5


def test_refill_mid_port_switches_to_discard():
    # the bag holds 1 token, Rio has 3 slots: 1 from the bag, then the discard pile
    g = game(2)
    g.set_bag(uranium=1)
    g.set_discard(cigars=4)
    g.set_port("Rio", art=3)
    g.set_bid("Rio", 0, 1)
    g.set_player(0, coins=6, hand_ships=2)
    g.run_phase(0, 1, [])
    assert g.port_cargo("Rio") == {"uranium": 1, "cigars": 2}
    assert g.bag == {"cigars": 2} and g.discard == {}
    assert g.misc(e.M_BAG_REFILLS) == 1


def test_black_market_draw_refills_from_discard():
    g = game(2)
    g.set_bag()
    g.set_discard(cigars=2)
    g.set_player(0, hand_ships=2, black_market=1)
    g.run_phase(0, 1, [("bm", "draw")])
    assert g.hand(0) == {"cigars": 1}
    assert g.bag == {"cigars": 1} and g.discard == {}


def test_bag_and_discard_empty_slot_stays_empty():
    g = game(2)
    g.set_bag()
    g.set_discard()
    g.set_port("Rio", art=1, cars=2)
    g.set_bid("Rio", 0, 2)
    g.set_player(0, coins=5, hand_ships=1, black_market=1)
    bank0 = g.bank
    g.run_phase(0, 1, [("order", "Rio"), ("bm", "draw")])
    assert g.hand(0) == {"art": 1, "cars": 2}     # the draw found nothing
    assert g.port_cargo("Rio") == {}
    assert g.bank == bank0 + 2
    assert g.misc(e.M_EMPTY_SLOTS) == 4            # 3 port slots + 1 draw
    assert g.misc(e.M_BAG_REFILLS) == 0


# ---------------------------------------------------------------------------
# Warehouse capacity
# ---------------------------------------------------------------------------
def test_overflow_discarded_at_end_of_phase2_player_chooses():
    g = game(2)
    g.set_hand(0, alcohol=3, weapons=3, art=2)     # 8 > 6
    disc0 = g.discard
    g.run_phase(0, 2, [("trade", None), ("discard", {"art": 2})])
    assert g.hand(0) == {"alcohol": 3, "weapons": 3}
    assert g.discard.get("art", 0) == disc0.get("art", 0) + 2
    assert g.stat(0, "cargo_discarded") == 2
    ev = actions(g, "discard")
    assert len(ev) == 1 and int(ev["count"].iloc[0]) == 2


@pytest.mark.parametrize("discard", [{"art": 1}, {"art": 2, "alcohol": 1}, {"gold": 2},
                                     {"art": 3}])
def test_discarding_the_wrong_tokens_is_illegal(discard):
    g = game(2)
    g.set_hand(0, alcohol=3, weapons=3, art=2)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", None), ("discard", discard)])


def test_no_discard_at_capacity():
    g = game(2)
    g.set_hand(0, alcohol=3, weapons=3)            # exactly 6
    g.run_phase(0, 2, [("trade", None)])           # no discard asked
    assert sum_tokens(g.hand(0)) == 6


def test_warehouses_card_raises_capacity_in_the_same_phase():
    g = game(2)
    g.set_hand(0, jewels=4, alcohol=2, weapons=2, art=2, cars=2)   # 12 tokens
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Warehouses": 1})])  # no discard: 8 <= 8
    assert g.player(0, e.PL_WAREHOUSE) == 8
    assert sum_tokens(g.hand(0)) == 8
    assert g.stat(0, "value_lost") == 16 - 10
    assert g.stat(0, "cargo_discarded") == 0


def test_warehouses_card_saves_cargo_then_discard_down_to_new_capacity():
    g = game(2)
    g.set_hand(0, jewels=4, alcohol=3, weapons=3, art=3)           # 13 tokens
    with pytest.raises(IllegalDecisionError):                      # 3 is the old excess
        g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Warehouses": 1}),
                           ("discard", {"art": 3})])
    g = game(2)
    g.set_hand(0, jewels=4, alcohol=3, weapons=3, art=3)
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Warehouses": 1}), ("discard", {"art": 1})])
    assert g.hand(0) == {"alcohol": 3, "weapons": 3, "art": 2}


def test_two_warehouses_cards_give_ten_spaces():
    g = game(2)
    g.set_hand(0, jewels=5, alcohol=3, weapons=3, art=3, cars=2)   # 16 tokens
    g.run_phase(0, 2, [("trade", {"jewels": 5}, {"Warehouses": 2}), ("discard", {"cars": 1})])
    assert g.player(0, e.PL_WAREHOUSE) == 10
    assert sum_tokens(g.hand(0)) == 10


# ---------------------------------------------------------------------------
# Cargo Ship cards
# ---------------------------------------------------------------------------
def test_cargo_ship_card_gives_a_ship_for_this_turns_phase3():
    g = game(2)
    g.set_hand(0, jewels=4)                         # 16 >= 12
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Cargo Ship": 1})])
    assert ships(g, 0) == 4 and hand_ships(g, 0) == 4
    with pytest.raises(ScriptError):                # 4 ships to send, not 3
        g.run_phase(0, 3, [("send", "Casino")] * 3)
    g = game(2)
    g.set_hand(0, jewels=4)
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Cargo Ship": 1})])
    g.run_phase(0, 3, [("send", "Casino")] * 4)
    assert g.player(0, e.PL_CASINO_SHIPS) == 4


def test_two_cargo_ship_cards_make_five_ships():
    g = game(2)
    g.set_hand(0, jewels=6)                         # 36 >= 30
    g.run_phase(0, 2, [("trade", {"jewels": 6}, {"Cargo Ship": 2})])
    assert ships(g, 0) == 5 and hand_ships(g, 0) == 5


def test_cargo_ship_card_never_exceeds_ships_per_player():
    rules = RULES.replace(start_ships=4)            # 4 + 2 cards would be 6
    g = game(2, rules=rules)
    assert ships(g, 0) == 4
    g.set_hand(0, jewels=6)
    g.run_phase(0, 2, [("trade", {"jewels": 6}, {"Cargo Ship": 2})])
    assert g.cards(0) == {"Cargo Ship": 2}
    assert ships(g, 0) == 5 and hand_ships(g, 0) == 5


def test_cargo_ship_with_ships_out_joins_the_hand():
    g = game(2)
    g.set_player(0, hand_ships=1)                   # 2 ships still on ports
    g.set_bid("Rio", 0, 3)
    g.set_bid("Bombay", 0, 1)
    g.set_hand(0, jewels=4)
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Cargo Ship": 1})])
    assert ships(g, 0) == 4 and hand_ships(g, 0) == 2


# ---------------------------------------------------------------------------
# Smuggler's Edge limit and supply
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["Cargo Ship", "Warehouses", "Syndicate"])
def test_third_edge_card_of_a_type_is_refused(card):
    g = game(2)
    g.set_cards(0, {card: 2})
    g.set_hand(0, jewels=4)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", {"jewels": 4}, {card: 1})])
    assert g.cards(0) == {card: 2}


def test_two_edge_cards_at_once_when_one_is_held_is_refused():
    g = game(2)
    g.set_cards(0, {"Syndicate": 1})
    g.set_hand(0, jewels=5)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", {"jewels": 5}, {"Syndicate": 2})])
    g.run_phase(0, 2, [("trade", {"jewels": 5}, {"Syndicate": 1, "Warehouses": 1})])
    assert g.cards(0) == {"Syndicate": 2, "Warehouses": 1}


def test_edge_limit_is_a_rules_parameter():
    g = game(2, rules=RULES.replace(edge_limit_per_type=3))
    g.set_cards(0, {"Syndicate": 2})
    g.set_hand(0, jewels=4)
    g.run_phase(0, 2, [("trade", {"jewels": 4}, {"Syndicate": 1})])
    assert g.cards(0) == {"Syndicate": 3}


def test_edge_limit_is_per_player():
    g = game(2)
    g.set_cards(1, {"Syndicate": 2})
    g.set_hand(0, jewels=5)
    g.run_phase(0, 2, [("trade", {"jewels": 5}, {"Syndicate": 2})])
    assert g.cards(0) == {"Syndicate": 2}
    assert g.supply("Syndicate") == 6


@pytest.mark.parametrize("card, supply, buy", [
    ("Villa", 0, 1),
    ("Villa", 1, 2),
    ("Show Business", 1, 2),      # unique: one copy
    ("Warehouses", 1, 2),         # edge: allowed 2, but only 1 left
])
def test_supply_limits(card, supply, buy):
    g = game(2)
    g.set_supply(card, supply)
    g.set_hand(0, jewels=8)                         # 64
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", {"jewels": 8}, {card: buy})])
    assert g.supply(card) == supply and g.cards(0) == {}


def test_last_copy_can_be_bought_then_none():
    g = game(2)
    g.set_hand(0, jewels=6)                         # 36
    g.run_phase(0, 2, [("trade", {"jewels": 6}, {"Show Business": 1})])
    assert g.supply("Show Business") == 0
    g.set_hand(1, jewels=6)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(1, 2, [("trade", {"jewels": 6}, {"Show Business": 1})])


# ---------------------------------------------------------------------------
# Final turn: coins count toward cards
# ---------------------------------------------------------------------------
NINE = {t: 1 for t in ALL_TYPES}                    # 45


# a Cargo Ship at 12 (an earlier estimate; 15 now): 12 + 12 + 25 spends
# the rulebook's 49 exactly
SHIP12 = RULES.replace({"card.Cargo Ship.cost": 12})


def final_game(coins=4, rules=None):
    g = game(2, rules=rules)
    g.set_turn(RULES.turns(2))
    g.set_hand(0, **NINE)
    g.set_player(0, coins=coins)
    return g


def test_final_turn_coins_count_one_each_rulebook_49():
    g = final_game(4, SHIP12)
    bank0 = g.bank
    g.run_phase(0, 2, [("trade", NINE, {"Cargo Ship": 2, "Villa": 1})])   # 12+12+25 = 49
    assert g.cards(0) == {"Cargo Ship": 2, "Villa": 1}
    assert g.coins(0) == 0
    assert g.bank == bank0 + 4
    assert g.stat(0, "final_coins_spent") == 4
    assert g.stat(0, "value_lost") == 0
    assert int(actions(g, "trade")["amount"].iloc[0]) == 4


def test_final_turn_only_needed_coins_are_spent():
    g = final_game(4, SHIP12)
    bank0 = g.bank
    g.run_phase(0, 2, [("trade", NINE, {"Cargo Ship": 1, "Villa": 1, "Dive Bar": 1})])  # 47
    assert g.coins(0) == 2 and g.bank == bank0 + 2
    assert g.stat(0, "final_coins_spent") == 2 and g.stat(0, "value_lost") == 0


def test_final_turn_coins_not_enough_refused():
    g = final_game(4)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", NINE, {"Bank": 1})])                   # 50 > 49
    assert g.coins(0) == 4 and g.cards(0) == {}


def test_final_turn_coins_only_purchase():
    g = game(2)
    g.set_turn(RULES.turns(2))
    g.set_player(0, coins=10)
    g.run_phase(0, 2, [("trade", {}, {"Dive Bar": 1})])
    assert g.cards(0) == {"Dive Bar": 1} and g.coins(0) == 0


def test_coins_do_not_count_before_the_final_turn():
    g = final_game(4)
    g.set_turn(RULES.turns(2) - 1)
    with pytest.raises(IllegalDecisionError):
        g.run_phase(0, 2, [("trade", NINE, {"Cargo Ship": 2, "Villa": 1})])
    g.run_phase(0, 2, [("trade", NINE, {"Cronies": 1})])                  # 45 is fine
    assert g.coins(0) == 4 and g.stat(0, "final_coins_spent") == 0


def test_no_trade_asked_without_tokens_before_final_turn():
    g = game(2)
    g.set_player(0, coins=30)
    g.run_phase(0, 2, [])                            # nothing to sell, coins don't count
    assert g.coins(0) == 30 and g.cards(0) == {} and g.stat(0, "trades") == 0


# ---------------------------------------------------------------------------
# Scoring and tie-break
# ---------------------------------------------------------------------------
def score(g):
    g.run_phase(0, 4)
    return ([g.stat(s, "vp") for s in range(g.n)], [g.stat(s, "won") for s in range(g.n)])


def test_vp_is_sum_of_cards_including_smugglers_edge():
    g = game(3)
    g.set_cards(0, {"Cargo Ship": 2, "Warehouses": 2, "Syndicate": 2})     # 8 + 6 + 6
    g.set_cards(1, {"Principality": 1, "Dive Bar": 3})                     # 70 + 30
    g.set_player(2, coins=60)                                              # coins are worth 0
    g.set_hand(2, jewels=9)                                                # cargo too
    vp, won = score(g)
    assert vp == [20, 100, 0]
    assert won == [0, 1, 0]
    assert g.stat(1, "max_card_vp") == 70


def test_tie_broken_by_single_highest_card():
    g = game(3)
    g.set_cards(0, {"Villa": 1})                        # 25, top 25
    g.set_cards(1, {"Dive Bar": 1, "Night Club": 1})   # 25, top 15
    g.set_cards(2, {"Yacht": 1})                        # 20
    vp, won = score(g)
    assert vp == [25, 25, 20]
    assert won == [1, 0, 0]
    ev = actions(g, "score")
    assert list(ev["value"].astype(int)) == [25, 25, 20]
    assert list(ev["count"].astype(int)) == [1, 0, 0]


def test_tie_break_only_among_tied_players():
    g = game(3)
    g.set_cards(0, {"Dive Bar": 2, "Night Club": 1})   # 35, top 15
    g.set_cards(1, {"Villa": 1, "Dive Bar": 1})        # 35, top 25
    g.set_cards(2, {"Show Business": 1})               # 34, top 34: not tied
    vp, won = score(g)
    assert vp == [35, 35, 34]
    assert won == [0, 1, 0]


def test_still_tied_is_a_shared_win():
    g = game(4)
    g.set_cards(0, {"Villa": 1, "Dive Bar": 1})
    g.set_cards(2, {"Villa": 1, "Warehouses": 1})                                     # 28
    g.set_cards(3, {"Villa": 1, "Dive Bar": 1})
    vp, won = score(g)
    assert vp == [35, 0, 28, 35]
    assert won == [1, 0, 0, 1]


def test_everyone_zero_shares_the_win():
    g = game(2)
    vp, won = score(g)
    assert vp == [0, 0] and won == [1, 1]


# ---------------------------------------------------------------------------
# Bank shortfall
# ---------------------------------------------------------------------------
def test_bank_shortfall_pays_what_it_has():
    g = game(2)
    g.set_bank(3)
    g.set_player(0, hand_ships=1, casino=2)
    g.run_phase(0, 1, [])
    assert g.coins(0) == 7 + 3
    assert g.bank == 0
    assert g.misc(e.M_SHORTFALLS) == 1
    assert g.misc(e.M_SHORTFALL_COINS) == 1
    assert g.stat(0, "casino_coins") == 3
    ev = actions(g, "bank shortfall")
    assert len(ev) == 1 and int(ev["amount"].iloc[0]) == 1


def test_bank_shortfall_syndicate_with_empty_bank():
    g = outbid_state(coins_a=0, bid_a=1, bid_b=2)
    g.set_cards(0, {"Syndicate": 1})
    g.set_bank(0)
    g.run_phase(0, 1, [])
    assert g.coins(0) == 1
    assert g.misc(e.M_SHORTFALLS) == 1 and g.misc(e.M_SHORTFALL_COINS) == 2
    assert g.stat(0, "syndicate_coins") == 0


def test_unlimited_coins_pays_in_full():
    g = game(2, rules=RULES.replace(unlimited_coins=True))
    g.set_bank(3)
    g.set_player(0, hand_ships=1, casino=2)
    g.run_phase(0, 1, [])
    assert g.coins(0) == 7 + 4
    assert g.misc(e.M_SHORTFALLS) == 0 and g.misc(e.M_SHORTFALL_COINS) == 0
    assert g.misc(e.M_MINTED) == 1
    assert g.bank == 0


def test_casino_payout_is_a_rules_parameter():
    g = game(2, rules=RULES.replace(casino_payout=5))
    g.set_player(0, hand_ships=1, casino=2)
    g.run_phase(0, 1, [])
    assert g.coins(0) == 17


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_numbers(n):
    g = ScriptedGame(n)
    ports = RULES.open_ports(n)
    assert len(ports) == {2: 4, 3: 5, 4: 7, 5: 8}[n]      # 4 players: the session report's 7
    for p in ports:
        assert sum_tokens(g.port_cargo(p)) == RULES[f"port.{p}.slots"]
    assert sum_tokens(g.black_market) == 8
    assert g.total_tokens() == 126 + n
    assert g.bag.get("wild", 0) + g.black_market.get("wild", 0) + sum(
        g.port_cargo(p).get("wild", 0) for p in ports) == n
    assert g.bank == 60 - 7 * n
    for s in range(n):
        assert g.coins(s) == 7 and ships(g, s) == 3 and hand_ships(g, s) == 3
        assert g.player(s, e.PL_WAREHOUSE) == 6
        assert g.hand(s) == {}
    assert g.total_coins() == 60


# ---------------------------------------------------------------------------
# Turn structure (whole games through play_one)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n, turns", [(2, 11), (3, 11), (4, 10), (5, 10)])
@pytest.mark.parametrize("seed", [1, 2])
def test_turn_structure_from_event_log(n, turns, seed):
    ev, text = cargo_sim.play_one(seed, ["random"] * n)
    assert isinstance(text, str) and "turn 1, seat 0" in text
    assert int(ev["turn"].min()) == 1 and int(ev["turn"].max()) == turns
    play = ev[ev["phase"].isin([1, 2, 3])]
    # turn 1: phase 3 only; last turn: phases 1 and 2 only
    assert set(play.loc[play["turn"] == 1, "phase"]) == {3}
    assert 3 not in set(play.loc[play["turn"] == turns, "phase"])
    assert set(play.loc[play["turn"] == turns, "phase"]) <= {1, 2}
    # every middle turn has phase-3 events
    for t in range(1, turns):
        assert 3 in set(play.loc[play["turn"] == t, "phase"])
    # seat order: (turn, seat) blocks in order, seat 0 first every turn
    acted = play[play["seat"] >= 0]
    blocks = [k for k, _ in __import__("itertools").groupby(
        zip(acted["turn"].astype(int), acted["seat"].astype(int)))]
    assert blocks == [(t, s) for t in range(1, turns + 1) for s in range(n)]
    # phases in order inside a seat's turn
    for (t, s), grp in acted.groupby(["turn", "seat"]):
        ph = list(grp["phase"].astype(int))
        assert ph == sorted(ph)
    # every ship of turn 1 is sent: 3 per seat
    sends = play[(play["turn"] == 1)]
    assert sends.groupby("seat").size().tolist() == [3] * n
    # scoring: one score event per seat after the last turn
    sc = ev[ev["action"] == "score"]
    assert list(sc["seat"].astype(int)) == list(range(n))
    assert set(sc["phase"].astype(int)) == {4} and set(sc["turn"].astype(int)) == {turns}
    assert sc["count"].astype(int).sum() >= 1


def test_whole_turn_one_is_phase3_only():
    g = ScriptedGame(2)
    g.set_turn(1)
    g.set_hand(0, jewels=9)                 # would be traded or discarded in phase 2
    g.set_player(0, casino=1, hand_ships=2, ships=3)
    g.run_phase(0, 0, [("send", "Casino"), ("send", "Rio", 2)])
    assert g.hand(0) == {"jewels": 9}       # no phase 2
    assert g.coins(0) == 5                  # no phase 1 (the Casino ship is not paid)
    assert g.player(0, e.PL_CASINO_SHIPS) == 2


def test_whole_last_turn_has_no_phase3():
    g = ScriptedGame(2)
    g.set_turn(RULES.turns(2))
    g.set_player(0, casino=3, hand_ships=0)
    # phase 1: +6 coins; phase 2: 13 coins buy a Dive Bar; no phase 3 (no send asked)
    g.run_phase(0, 0, [("trade", {}, {"Dive Bar": 1})])
    assert g.cards(0) == {"Dive Bar": 1}
    assert g.coins(0) == 3
    assert hand_ships(g, 0) == 3


def test_whole_middle_turn_runs_phases_1_2_3():
    g = ScriptedGame(2)
    g.set_turn(5)
    g.set_hand(0, alcohol=7)
    g.set_player(0, casino=1, hand_ships=2)
    g.run_phase(0, 0, [("trade", None), ("discard", {"alcohol": 1}),
                       ("send", "Casino"), ("send", "Casino"), ("send", "Rio", 9)])
    assert g.coins(0) == 0 and g.bid("Rio", 0) == 9
    assert g.hand(0) == {"alcohol": 6}


def test_turn_counts_follow_rules():
    rules = RULES.replace({"turns.3": 6})
    ev, _ = cargo_sim.play_one(3, ["random"] * 3, rules=rules)
    assert int(ev["turn"].max()) == 6
    assert 3 not in set(ev.loc[ev["turn"] == 6, "phase"])
