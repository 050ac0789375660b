"""Shipwrights' rules, scenario by scenario: an explicit state (testing.afternoon/dress),
one rule applied through the engine, the numbers checked by hand from the seed's rules
(docs/rules_shipwrights.md, each rule with its line of the seed)."""
import pytest

from cargo_sim.games.shipwrights import enums as E
from cargo_sim.games.shipwrights import testing as T
from cargo_sim.games.shipwrights.rules import Rules

R = Rules.default()
HAND = E.HAND_REF
G = dict(zip(R["goods"], range(3)))


def state(n=2, seed=3, seat=0, **kw):
    s, _ = T.new_state(n, seed=seed)
    return T.afternoon(s, R, seat, **kw)


def w(s, q, word):
    return T.seat_word(s, q, word)


def ok(s):
    assert T.invariants(s, R) == []


# ---- setup and the morning ---------------------------------------------------------------
def test_setup_gives_5_gold_3_workers_and_two_chosen_goods():
    s, _ = T.new_state(3, seed=1)
    assert s[E.G_ASK] == E.D_START and s[E.G_DECK_N] == 128
    first = int(s[E.G_FIRST])
    for q in range(3):
        assert (w(s, q, E.P_GOLD), w(s, q, E.P_WORKERS)) == (5, 3)
    for _ in range(6):                      # two goods each, from the first player on
        T.step(s, 2)
    assert [w(s, q, E.P_GOODS + 2) for q in range(3)] == [2, 2, 2]
    assert s[E.G_ASK] == E.D_DRAFT and s[E.G_SEAT] == first and s[E.G_PACKET_N] == 4
    ok(s)


def test_the_draft_passes_players_plus_one_and_the_last_card_goes_face_down():
    s, _ = T.new_state(3, seed=2)
    for _ in range(6):
        T.step(s, 0)
    first = int(s[E.G_FIRST])
    for r in range(3):
        for i in range(3):
            assert s[E.G_ASK] == E.D_DRAFT and s[E.G_SEAT] == (first + i) % 3
            assert s[E.G_PACKET_N] == 4 - i           # players + 1, one fewer each pick
            T.step(s, 0)
        assert s[E.G_FD_N] == r + 1                   # the last card, face down
    assert s[E.G_ASK] == E.D_ACTION and s[E.G_SEAT] == first
    assert [w(s, q, E.P_HAND_N) for q in range(3)] == [3, 3, 3]
    disc = int(s[E.G_DISC_N])
    for _ in range(3):                                # every afternoon ends: hands discarded
        T.step(s, E.A_END)
    assert s[E.G_DISC_N] == disc + 9 + 3              # and the face-down cards go face up
    ok(s)


# ---- the afternoon -------------------------------------------------------------------------
def test_buying_goods_costs_2_gold_2_workers_and_gives_the_top_backs_amount():
    s = state(gold=5, workers=3, goods=[0, 0, 0])
    back = int(s[E.G_TOP_BACK])
    amount = R.arrays()["back"][back][G["wool"]]
    T.step(s, E.A_GOODS + G["wool"])
    assert (w(s, 0, E.P_GOLD), w(s, 0, E.P_WORKERS), w(s, 0, E.P_GOODS + 1)) == (3, 1, amount)
    assert E.A_GOODS not in T.legal(s)                # one worker left: no second purchase
    ok(s)


def test_the_cart_adds_one_of_the_bought_kind_and_goes_when_empty():
    s = state(gold=12, workers=8, goods=[0, 0, 0], tool="Handcart")
    for g in range(3):
        amount = R.arrays()["back"][int(s[E.G_TOP_BACK])][g]
        T.step(s, E.A_GOODS + g)
        assert w(s, 0, E.P_GOODS + g) == amount + 1
    assert w(s, 0, E.P_TOOL) == -1                    # discarded once its 3 goods are taken
    ok(s)


def test_a_tool_costs_its_price_and_replaces_the_old_one():
    s = state(hand=["Bow Saw"], gold=5, tool="Spindle Whorl")
    old = w(s, 0, E.P_TOOL)
    T.step(s, E.A_PLAY + 0)
    assert w(s, 0, E.P_GOLD) == 5 - R["tool.Bow Saw.price"]
    assert old in s[E.G_DISC:E.G_DISC + s[E.G_DISC_N]]
    s = state(hand=["Smelting Furnace"], gold=R["tool.Smelting Furnace.price"] - 1)
    assert E.A_PLAY not in T.legal(s)                 # too little gold: only discarding it
    ok(s)


def test_hire_up_to_four_craftsmen():
    s = state(hand=["Carpenter"], craftsmen=["Caulker"] * 3)
    T.step(s, E.A_PLAY)
    assert w(s, 0, E.P_CRAFT_N) == 4
    s = state(hand=["Carpenter"], craftsmen=["Caulker"] * 4)
    assert E.A_PLAY not in T.legal(s) and E.A_DISCARD in T.legal(s)
    ok(s)


def test_two_shipyards_start_for_free():
    s = state(hand=["Karfi", "Ferje", "Knarr"], gold=0, workers=0)
    T.step(s, E.A_PLAY)
    T.step(s, E.A_PLAY)
    assert w(s, 0, E.P_YARD) >= 0 and w(s, 0, E.P_YARD + 1) >= 0 and w(s, 0, E.P_GOLD) == 0
    assert E.A_PLAY not in T.legal(s)                 # both yards full: the Knarr is discarded
    ok(s)


def test_completing_a_ship_pays_and_uses_its_craftsmen_from_hand_or_board():
    s = state(hand=["Carpenter"], yards=["Ferje"], gold=1, workers=0, goods=[2, 0, 0])
    code = T.complete_code(0, HAND + 0)
    assert code in T.legal(s)
    T.step(s, code)
    assert w(s, 0, E.P_N_DONE) == 1 and w(s, 0, E.P_HAND_N) == 0 and w(s, 0, E.P_YARD) == -1
    assert (w(s, 0, E.P_GOLD), sum(w(s, 0, E.P_GOODS + g) for g in range(3))) == (0, 0)
    assert w(s, 0, E.P_GICON) == R["ship.Ferje.gold_icon"]
    ok(s)


def test_a_ship_needs_a_craftsman_that_builds_it_and_its_full_cost():
    s = state(craftsmen=["Woodcarver"], yards=["Ferje"], gold=5, workers=5, goods=[5, 5, 5])
    assert not [a for a in T.legal(s) if a >= E.A_COMPLETE]
    s = state(craftsmen=["Carpenter"], yards=["Ferje"], gold=0, workers=5, goods=[5, 5, 5])
    assert not [a for a in T.legal(s) if a >= E.A_COMPLETE]       # no gold
    s = state(craftsmen=["Carpenter"], yards=["Knarr"], gold=5, workers=5, goods=[5, 5, 5])
    assert not [a for a in T.legal(s) if a >= E.A_COMPLETE]       # the Knarr needs two
    s = state(craftsmen=["Carpenter", "Sailmaker"], yards=["Knarr"], gold=5, workers=5, goods=[5, 5, 5])
    T.step(s, T.complete_code(0, 0, 1))
    assert w(s, 0, E.P_CRAFT_N) == 0 and w(s, 0, E.P_MICON) == R["ship.Knarr.mill_icon"]
    ok(s)


def test_an_ignore_tool_saves_one_goods_kind_and_is_discarded():
    s = state(craftsmen=["Carpenter", "Shipwright"], yards=["Knarr"], gold=3, workers=1,
              goods=[0, 1, 1], tool="Bow Saw")
    assert T.complete_code(0, 0, 1) not in T.legal(s)             # no oak
    T.step(s, T.complete_code(0, 0, 1, tool=1))
    assert w(s, 0, E.P_TOOL) == -1 and w(s, 0, E.P_N_DONE) == 1
    assert [w(s, 0, E.P_GOODS + g) for g in range(3)] == [0, 0, 0]
    ok(s)


def test_one_building_of_each_kind_for_its_gold_and_workers():
    s = state(hand=["Fortress"], gold=5, workers=2)
    T.step(s, E.A_PLAY)
    assert (w(s, 0, E.P_GOLD), w(s, 0, E.P_WORKERS), w(s, 0, E.P_N_BLD)) == (0, 0, 1)
    s = state(hand=["Church"], buildings=["Church"], gold=12, workers=8)
    assert E.A_PLAY not in T.legal(s)
    ok(s)


def test_ending_the_afternoon_discards_the_hand():
    s = state(hand=["Karfi", "King"])
    disc = int(s[E.G_DISC_N])
    T.step(s, E.A_END)
    assert w(s, 0, E.P_HAND_N) == 0 and s[E.G_DISC_N] == disc + 2
    ok(s)


# ---- townsfolk ------------------------------------------------------------------------------
def test_assassin_removes_a_craftsman_from_any_board_own_included():
    s = state(hand=["Assassin"], craftsmen=["Carpenter"])
    T.dress(s, R, 1, craftsmen=["Caulker", "Sailmaker"])
    assert T.town_code(0, 0 * 8 + 0) in T.legal(s)
    T.step(s, T.town_code(0, 1 * 8 + 1))
    assert w(s, 1, E.P_CRAFT_N) == 1 and w(s, 0, E.P_ATTACKS) == 1
    ok(s)


def test_the_watchman_shields_from_attacks_but_not_from_the_berserker():
    s = state(hand=["Assassin", "Berserker", "Thief"], gold=6)
    T.dress(s, R, 1, craftsmen=["Caulker"], tool="Bow Saw", goods=[1, 1, 1])
    s[T.pb(1) + E.P_PROTECTED] = 1
    codes = T.legal(s)
    assert T.town_code(0, 8) not in codes and not [a for a in codes if E.A_TOWN + 512 <= a < E.A_TOWN + 768]
    T.step(s, T.town_code(1, 1))                     # Berserker: 5 gold, the tool goes
    assert w(s, 1, E.P_TOOL) == -1 and w(s, 0, E.P_GOLD) == 1
    ok(s)


def test_barbarian_removes_an_unfinished_ship():
    s = state(hand=["Barbarian"])
    T.dress(s, R, 1, yards=["Drakkar"])
    T.step(s, T.town_code(0, 1 * 8 + 0))
    assert w(s, 1, E.P_YARD) == -1 and w(s, 1, E.P_LOST_SHIPS) == 1
    ok(s)


def test_conspirator_takes_a_craftsman_if_there_is_room():
    s = state(hand=["Conspirator"], craftsmen=["Caulker"] * 3)
    T.dress(s, R, 1, craftsmen=["Carpenter"])
    T.step(s, T.town_code(0, 8))
    assert (w(s, 0, E.P_CRAFT_N), w(s, 1, E.P_CRAFT_N)) == (4, 0)
    s = state(hand=["Conspirator"], craftsmen=["Caulker"] * 4)
    T.dress(s, R, 1, craftsmen=["Carpenter"])
    assert T.town_code(0, 8) not in T.legal(s)


def test_mercenary_gains_2_to_at_most_12_and_others_lose_2_or_what_they_have():
    s, _ = T.new_state(3, seed=3)
    T.afternoon(s, R, 0, hand=["Mercenary"], gold=11)
    T.set_gold(s, 1, 1)
    T.set_gold(s, 2, 7)
    T.step(s, T.town_code(0))
    assert [w(s, q, E.P_GOLD) for q in range(3)] == [12, 0, 5]
    ok(s)


def test_raider_takes_a_gold_per_goods_and_thief_a_goods():
    s = state(hand=["Raider", "Thief"], goods=[0, 0, 0])
    T.dress(s, R, 1, gold=5, goods=[2, 1, 0])
    T.step(s, T.town_code(0, 1))
    assert w(s, 1, E.P_GOLD) == 2
    T.step(s, T.town_code(0, 1 * 8 + 1))             # the Thief is slot 0 now: seat 1's wool
    assert (w(s, 1, E.P_GOODS + 1), w(s, 0, E.P_GOODS + 1)) == (0, 1)
    ok(s)


def test_pioneer_makes_the_next_first_player_and_stays_until_tomorrow():
    s, _ = T.new_state(2, seed=5)
    first = int(s[E.G_FIRST])
    last = 1 - first
    T.afternoon(s, R, last, hand=["Pioneer"])
    T.step(s, T.town_code(0))
    assert w(s, last, E.P_FRONT_N) == 1
    T.step(s, E.A_END)                               # the last seat: the evening, a new day
    assert s[E.G_FIRST] == last and w(s, last, E.P_FRONT_N) == 0
    ok(s)


def test_the_first_player_passes_clockwise_without_a_pioneer():
    s, _ = T.new_state(3, seed=5)
    first = int(s[E.G_FIRST])
    T.afternoon(s, R, (first + 2) % 3)
    T.step(s, E.A_END)
    assert s[E.G_FIRST] == (first + 1) % 3 and s[E.G_DAY] == 1


def test_gold_townsfolk_and_the_navigator():
    s, _ = T.new_state(3, seed=5)
    first = int(s[E.G_FIRST])
    seat = (first + 2) % 3                            # two seats acted before
    T.afternoon(s, R, seat, hand=["King", "Queen", "Navigator"], gold=0)
    T.step(s, T.town_code(2))
    assert w(s, seat, E.P_GOLD) == R["townsfolk.Navigator.args"][0] + 2 * R["townsfolk.Navigator.args"][1]
    T.step(s, T.town_code(0))
    T.step(s, T.town_code(0))
    assert w(s, seat, E.P_GOLD) == 3 + R["townsfolk.King.args"][0] + R["townsfolk.Queen.args"][0]


def test_chieftain_and_sage_draw_cards_for_today():
    s = state(hand=["Chieftain", "Karfi", "Sage"])
    T.step(s, T.town_code(0))
    assert w(s, 0, E.P_HAND_N) == 2 + R["townsfolk.Chieftain.args"][0]
    s = state(hand=["Karfi", "Sage", "Ferje"])
    T.step(s, T.town_code(1, 0 * 16 + 2))            # discard the Karfi and the Ferje, draw 2 + 1
    assert w(s, 0, E.P_HAND_N) == 3
    assert all(w(s, 0, E.P_SRC + i) == E.ROUND_DRAWN for i in range(3))
    ok(s)


def test_goods_and_workers_townsfolk():
    s = state(hand=["Beggar", "Labourer", "Merchant", "Trader"], workers=0, goods=[2, 0, 0])
    T.step(s, T.town_code(0))
    assert w(s, 0, E.P_WORKERS) == R["townsfolk.Beggar.args"][0]
    T.step(s, T.town_code(0, G["iron"]))
    assert w(s, 0, E.P_GOODS + 2) == 1
    T.step(s, T.town_code(0, G["oak"] * 4 + G["wool"]))
    assert [w(s, 0, E.P_GOODS + g) for g in range(3)] == [1, 2, 1]
    T.step(s, T.town_code(0, G["oak"]))
    assert w(s, 0, E.P_GOODS) == 0 and w(s, 0, E.P_WORKERS) == 4
    ok(s)


# ---- the evening and the end --------------------------------------------------------------
def last_seat_evening(n=2, seed=7, **by_seat):
    s, _ = T.new_state(n, seed=seed)
    first = int(s[E.G_FIRST])
    last = (first + n - 1) % n
    T.afternoon(s, R, last)
    for q, kw in by_seat.items():
        T.dress(s, R, int(q[1:]), **kw)
    return s, last


def test_evening_gold_from_workers_and_ships_capped_at_12_and_new_workers():
    s, last = last_seat_evening(s0=dict(gold=3, workers=4, ships=["Ferje", "Karve"]),
                                s1=dict(gold=10, workers=8, ships=["Skeid", "Drakkar"]))
    T.step(s, E.A_END)
    assert w(s, 0, E.P_GOLD) == 3 + 4 + 2                      # two gold icons
    assert w(s, 1, E.P_GOLD) == 12                             # 10 + 8 + 2, capped
    assert w(s, 0, E.P_WORKERS) == 4 + 1                       # 1 + no arrows
    assert w(s, 1, E.P_WORKERS) == 8                           # 1 - 2 arrows: at least 1; village 8
    ok(s)


def test_the_mill_is_cut_to_capacity_overnight_the_player_choosing():
    s, last = last_seat_evening(s0=dict(goods=[5, 5, 0]), s1=dict(goods=[10, 0, 0], ships=["Karve"]))
    T.step(s, E.A_END)
    first = int(s[E.G_FIRST]) if s[E.G_ASK] != E.D_RETURN else None
    assert s[E.G_ASK] == E.D_RETURN and s[E.G_SEAT] == 0 or first is not None
    while s[E.G_ASK] == E.D_RETURN:
        T.step(s, 1 if s[E.G_SEAT] == 0 else 0)
    assert [w(s, 0, E.P_GOODS + g) for g in range(3)] == [5, 3, 0]
    assert w(s, 1, E.P_GOODS) == 7                              # the Karve's down arrow: 7
    ok(s)


def test_the_game_ends_after_the_day_of_a_fourth_ship_with_the_military_token():
    s, last = last_seat_evening(
        s0=dict(ships=["Karfi", "Ferje", "Byrding"], yards=["Ferje"], craftsmen=["Carpenter"], gold=1, goods=[2, 0, 0]),
        s1=dict(ships=["Drakkar"]))
    s[E.G_ASK], s[E.G_SEAT] = E.D_ACTION, 0
    s[E.G_IDX] = (0 - s[E.G_FIRST]) % 2
    T.step(s, T.complete_code(0, 0))
    assert s[E.G_ENDING] == 1 and s[E.G_PHASE] == E.PH_AFTERNOON
    while s[E.G_ASK] >= 0:
        T.step(s, E.A_END if s[E.G_ASK] == E.D_ACTION else T.legal(s)[0])
    assert s[E.G_PHASE] == E.PH_OVER
    assert w(s, 0, E.P_VP) == 2 + 2 + 3 + 2 + 0                # ships; no flags beat the Drakkar's 3
    assert w(s, 1, E.P_MIL_PTS) == 3 and w(s, 1, E.P_VP) == 7 + 3
    assert (w(s, 1, E.P_RANK), w(s, 0, E.P_RANK)) == (1, 2)


@pytest.mark.parametrize("tie_break, ranks", [("gold", (1, 2)), ("shared", (1, 1))])
def test_equal_points_go_to_more_gold_or_are_shared(tie_break, ranks):
    rules = R.replace(tie_break=tie_break)
    s, _ = T.new_state(2, seed=7, rules=rules)
    first = int(s[E.G_FIRST])
    T.afternoon(s, rules, (first + 1) % 2)
    T.dress(s, rules, 0, ships=["Ferje"], gold=9, workers=0)
    T.dress(s, rules, 1, ships=["Ferje"], gold=2, workers=0)
    s[E.G_ENDING] = 1
    T.step(s, E.A_END)
    assert s[E.G_PHASE] == E.PH_OVER
    assert (w(s, 0, E.P_RANK), w(s, 1, E.P_RANK)) == ranks


def test_buildings_score_at_the_end():
    s, _ = T.new_state(2, seed=7)
    T.afternoon(s, R, (int(s[E.G_FIRST]) + 1) % 2)
    T.dress(s, R, 0, buildings=["Treasury", "Boat House", "Market Hall", "Fortress"],
            ships=["Ferje", "Knarr", "Knarr"], gold=0, workers=0)
    s[E.G_ENDING] = 1
    T.step(s, E.A_END)                                  # evening: 0 + 0 gold
    assert w(s, 0, E.P_BLD_PTS) == 0 // 4 + 2 * 3 + (8 + 2 * 2 - 8) + R["building.Fortress.arg"]
