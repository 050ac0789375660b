"""Cargo Empire's rules, scenario by scenario (explicit states from testing.py): setup,
a delivery and its payment, posts and upgrades (perfect or not, LV1 -> LV2 -> LV3),
the development steps and their rewards, the forced pass, the cleanup's new order,
scoring and the tie-break. Each test names the seed's lines it checks."""
import numpy as np
import pytest

from cargo_sim.core.layout import R_N_PLAYERS
from cargo_sim.games.cargo_empire import enums as E
from cargo_sim.games.cargo_empire.engine_nb import end_nb, move_nb, pb, rank_order_nb
from cargo_sim.games.cargo_empire.forward_nb import resume_nb, step_nb
from cargo_sim.games.cargo_empire.rules import Rules
from cargo_sim.games.cargo_empire.testing import (city, clean_board, deliver_code, legal, match,
                                                   new_state, play_until, set_city, set_hand, step,
                                                   tile_of)

RULES = Rules.default()


@pytest.fixture
def turn():
    """A 2-seat game at its first delivery, on a blank map (every city LV1, full, no post)."""
    s = play_until(new_state(RULES, 2, seed=3), E.D_DELIVER)
    clean_board(s)
    return s


def seat_of(s):
    return int(s[E.G_SEAT])


def ready(s, src="Lisbon", dst="Madrid", hand=(1, 1, 1)):
    """The seat to move has a post in src, dst demands src's colour, and a hand."""
    q = seat_of(s)
    i, j = city(RULES, src), city(RULES, dst)
    set_city(s, i, posts=(q,))
    slot = match(s, i, j)
    set_hand(s, q, *hand)
    return q, i, j, slot


# ---- setup (lines 44-86) ---------------------------------------------------------------
def test_setup_tiles_cards_hands_and_two_start_cities_each():
    s = play_until(new_state(RULES, 4, seed=5), E.D_DELIVER)
    n = 4
    assert all(s[E.G_LV + c] == 1 and s[E.G_CUBES + c] == 2 for c in range(24))
    assert len({int(s[E.G_TILE + c]) for c in range(24)}) == 24          # one tile a city, from the bag
    assert len({int(x) for x in s[E.G_PUBLIC:E.G_PUBLIC + 4]}) == 4
    firsts = [int(s[E.G_FIRST_CITY + q]) for q in range(n)]
    assert len(set(firsts)) == n                                        # different first cities (line 84)
    for q in range(n):
        b = pb(q)
        assert int(s[E.G_PRESENT + q:E.G_PRESENT + 24 * E.MAX_SEATS:E.MAX_SEATS].sum()) == 2
        assert bin(int(s[b + E.P_CARDS])).count("1") == 1               # the secret card, revealed
        assert s[b + E.P_NMISS] == 1                                    # one mission of two kept
    # hands: 1 of each, plus the order bonus: truck, train, ship, any (lines 59, 69-71)
    order = [int(x) for x in s[E.G_ORDER:E.G_ORDER + n]]
    for i, q in enumerate(order[:3]):
        hand = [int(x) for x in s[pb(q) + E.P_HAND:pb(q) + E.P_HAND + 3]]
        assert hand[i] == 2 and sum(hand) == 4


def test_the_last_in_order_chooses_the_first_start_city_first():
    s = play_until(new_state(RULES, 3, seed=2), E.D_START_CITY)
    order = [int(x) for x in s[E.G_ORDER:E.G_ORDER + 3]]
    assert seat_of(s) == order[2]                                       # line 77
    step(s, 0)
    assert seat_of(s) == order[1]
    c = int(s[E.G_PUBLIC])
    assert 0 not in legal(s) and 1 not in legal(s)                      # that city is taken


def test_at_five_players_the_rounds_have_three_turns():
    s = new_state(RULES, 5, seed=1)
    assert s[E.K_TURNS] == 3 and new_state(RULES, 4, seed=1)[E.K_TURNS] == 4


# ---- a delivery (lines 108-135) --------------------------------------------------------
def test_a_delivery_pays_moves_the_cube_places_the_post_and_steps_on(turn):
    s = turn
    q, i, j, slot = ready(s)
    step(s, deliver_code(RULES, "Lisbon", "Madrid", (1, 0, 0)))
    assert s[pb(q) + E.P_HAND] == 0 and s[pb(q) + E.P_PLAYED] == 1
    assert s[E.G_CUBES + i] == 1 and s[E.G_DEMAND + 2 * j + slot] == q + 1
    assert s[E.G_ASK] == E.D_PATH                                       # the truck's icon: a step
    step(s, 0)
    assert s[pb(q) + E.P_DIST + E.TRUCK] >= 1


def test_only_legal_routes_and_unused_cards_are_refused(turn):
    s = turn
    q, i, j, _ = ready(s, hand=(2, 1, 1))
    codes = legal(s)
    pair = (i * E.MAXC + j) * E.MAX_OPT
    assert {a for a in codes if pair <= a < pair + E.MAX_OPT} == {pair, pair + 1}   # a truck or a train
    # a city without the demanded colour is no target; a supply without cubes is none
    s[E.G_CUBES + i] = 0
    assert not any(pair <= a < pair + E.MAX_OPT for a in legal(s))


def test_the_listed_deliveries_are_exactly_the_answers_the_engine_accepts():
    """Lines 108-126: the delivery scan (demand masks, packed payments, a pair skipped when
    the hand is short of its least option) against every code the engine's check accepts,
    on states of a random game and with hands of 0, 1 and more than a packed byte holds."""
    s = new_state(RULES, 3, seed=4)
    seen, rng = 0, np.random.default_rng(1)
    nc = int(s[E.K_NC])
    codes_of_map = [(src * E.MAXC + dst) * E.MAX_OPT + k for src in range(nc) for dst in range(nc)
                    for k in range(E.MAX_OPT)]
    while s[E.G_ASK] >= 0 and seen < 4:
        codes = legal(s)
        if s[E.G_ASK] == E.D_DELIVER:
            q = seat_of(s)
            for hand in ((0, 1, 0), (1, 1, 1), (300, 2, 140)):
                t = s.copy()
                set_hand(t, q, *hand)
                listed = legal(t)
                accepted = [a for a in codes_of_map if accepts(t, a)]
                assert listed == accepted, (seen, hand)
            seen += 1
        step_nb(s, np.int64(codes[rng.integers(len(codes))]))
    assert seen == 4


def accepts(s, a):
    from cargo_sim.games.cargo_empire.forward_nb import ok_nb
    return ok_nb(s, np.int64(a))


def test_a_hand_that_cannot_pay_forces_another_target_or_a_pass(turn):
    s = turn
    q, i, j, _ = ready(s, hand=(0, 0, 0))
    for c in range(24):
        if c != i:
            set_city(s, c)
    s[E.G_PRESENT + q:E.G_PRESENT + 24 * E.MAX_SEATS:E.MAX_SEATS] = 0
    set_city(s, i, posts=(q,))
    s[E.G_PHASE] = E.PH_TURN
    resume_nb(s)
    assert s[E.G_ASK] == E.D_PASS and s[E.G_SEAT] == q                   # line 128


def test_the_forced_pass_removes_a_post_and_gives_cards_or_a_refill(turn):
    s = turn
    q, i, j, _ = ready(s, hand=(0, 0, 0))
    s[E.G_PHASE] = E.PH_TURN
    resume_nb(s)
    assert s[E.G_ASK] == E.D_PASS and legal(s) == [0]                    # Lisbon is full: no refill
    s[E.G_CUBES + i] = 0
    assert legal(s) == [0, 1 + i]
    t = s.copy()
    step(s, 0)
    assert list(s[pb(q) + E.P_HAND:pb(q) + E.P_HAND + 3]) == [1, 1, 1] and s[pb(q) + E.P_REMOVED] == 1
    step(t, 1 + i)
    assert t[E.G_CUBES + i] == 2 and t[pb(q) + E.P_HAND:pb(q) + E.P_HAND + 3].sum() == 0


# ---- upgrades (lines 137-147) -----------------------------------------------------------
def test_a_perfect_upgrade_flips_the_tile_refills_and_gives_a_step(turn):
    s = turn
    q, i, j, slot = ready(s)
    o = 1 - q
    set_city(s, j, cubes=0, demand=(o + 1, 0) if slot == 1 else (0, o + 1))
    match(s, i, j)
    lv2 = tile_of(s, j)
    step(s, deliver_code(RULES, "Lisbon", "Madrid", (1, 0, 0)))
    while s[E.G_ASK] in (E.D_PATH, E.D_TAKE_CARD, E.D_MISSION):
        step(s, 0)
    assert s[E.G_LV + j] == 2 and s[E.G_CUBES + j] == 2 and s[pb(q) + E.P_PERFECT] == 1
    assert s[E.G_DEMAND + 2 * j] == 0 and s[E.G_DEMAND + 2 * j + 1] == 0
    assert s[E.G_PRESENT + j * E.MAX_SEATS + q] == 1 and s[E.G_PRESENT + j * E.MAX_SEATS + o] == 1
    assert tile_of(s, j) != lv2
    # a truck (1 icon) and the perfect step (bonus on the one vehicle used)
    assert s[pb(q) + E.P_DIST + E.TRUCK] == 2 + _city_steps(s, q, i, j)


def _city_steps(s, q, i, j):
    pub = [int(x) for x in s[E.G_PUBLIC:E.G_PUBLIC + 4]]
    return sum(1 for c in (i, j) if c in pub or (s[pb(q) + E.P_CARDS] >> c) & 1)


def test_an_upgrade_with_cubes_left_is_not_perfect(turn):
    s = turn
    q, i, j, slot = ready(s)
    set_city(s, j, cubes=1, demand=(2 - q, 0) if slot == 1 else (0, 2 - q))
    match(s, i, j)
    step(s, deliver_code(RULES, "Lisbon", "Madrid", (1, 0, 0)))
    assert s[E.G_LV + j] == 2 and s[E.G_CUBES + j] == 2 and s[pb(q) + E.P_PERFECT] == 0


def test_an_lv2_upgrade_removes_the_tile_and_replaces_its_public_card(turn):
    s = turn
    q, i, j, slot = ready(s)
    set_city(s, j, lv=2, cubes=0, demand=(2 - q, 0) if slot == 1 else (0, 2 - q), posts=(0, 1))
    # at LV2 the tile's other side: find its demanded colour again
    col = tile_of(s, i)[0]
    for t in range(int(s[E.K_NTILES])):
        if col in [int(x) for x in s[E.K_TILE + 6 * t + 4:][:2]]:
            s[E.G_TILE + j] = t
            slot = [int(x) for x in s[E.K_TILE + 6 * t + 4:][:2]].index(col)
            break
    s[E.G_DEMAND + 2 * j:E.G_DEMAND + 2 * j + 2] = 0
    s[E.G_DEMAND + 2 * j + 1 - slot] = 2 - q
    s[E.G_PUBLIC] = j
    step(s, deliver_code(RULES, "Lisbon", "Madrid", (1, 0, 0)))
    assert s[E.G_LV + j] == 3 and s[E.G_TILE + j] == -1 and s[E.G_CUBES + j] == 0
    assert j not in [int(x) for x in s[E.G_PUBLIC:E.G_PUBLIC + 4]]      # line 146
    # an LV3 city is neither supply nor target (line 116)
    set_city(s, i, posts=(seat_of(s),))
    assert all(((a // E.MAX_OPT) % E.MAXC) != j and (a // E.MAX_OPT) // E.MAXC != j for a in legal(s)) \
        if s[E.G_ASK] == E.D_DELIVER else True


# ---- the development board (lines 149-194) ------------------------------------------------
def test_the_first_step_asks_the_path_and_rewards_are_taken_on_the_way(turn):
    s = turn
    q, i, j, _ = ready(s, src="Lisbon", dst="Madrid", hand=(0, 1, 0))
    s[E.G_PUBLIC:E.G_PUBLIC + 4] = [k for k in range(24) if k not in (i, j)][:4]
    s[pb(q) + E.P_CARDS] = 0
    step(s, deliver_code(RULES, "Lisbon", "Madrid", (0, 1, 0)))
    assert s[E.G_ASK] == E.D_PATH and s[E.G_CURV] == E.TRAIN              # line 158
    side = int(s[E.G_DEVSIDE])
    first = int(s[E.K_DEV + (side * 2 + 1) * E.MAX_PATH])
    hand = s[pb(q) + E.P_HAND:pb(q) + E.P_HAND + 3].copy()
    step(s, 1)                                                          # the lower path
    assert s[pb(q) + E.P_PATH + E.TRAIN] == 1 and s[pb(q) + E.P_IDX + E.TRAIN] == 0
    if E.R_TRUCK <= first <= E.R_SHIP:
        assert s[pb(q) + E.P_HAND + first - 1] == hand[first - 1] + 1


def test_city_steps_go_only_to_vehicles_used_this_turn(turn):
    s = turn
    q, i, j, _ = ready(s, src="Lisbon", dst="Barcelona", hand=(2, 0, 1))
    s[E.G_PUBLIC] = i                                                   # a city bonus (line 164)
    step(s, deliver_code(RULES, "Lisbon", "Barcelona", (2, 0, 0)))
    while s[E.G_ASK] in (E.D_PATH, E.D_TAKE_CARD, E.D_MISSION):
        step(s, 0)
    assert s[pb(q) + E.P_DIST + E.TRUCK] == 2 + 1 + ((s[pb(q) + E.P_CARDS] >> (city(RULES, "Barcelona"))) & 1)
    assert s[pb(q) + E.P_DIST + E.SHIP] == 0


def test_a_bonus_step_with_two_vehicles_used_is_the_players_choice():
    rules = RULES.replace(land_exception=True)
    s = play_until(new_state(rules, 2, seed=3), E.D_DELIVER)
    clean_board(s)
    q = seat_of(s)
    i, j = city(rules, "London"), city(rules, "Paris")
    set_city(s, i, posts=(q,))
    match(s, i, j)
    set_hand(s, q, 1, 0, 1)
    s[E.G_PUBLIC] = i
    step(s, deliver_code(rules, "London", "Paris", (1, 0, 1)))
    seen = set()
    while s[E.G_ASK] in (E.D_PATH, E.D_TAKE_CARD, E.D_MISSION, E.D_BONUS):
        seen.add(int(s[E.G_ASK]))
        if s[E.G_ASK] == E.D_BONUS:
            assert legal(s) == [E.TRUCK, E.SHIP]                        # line 172
        step(s, legal(s)[-1])
    assert E.D_BONUS in seen


def test_markers_reach_the_score_spaces_after_the_last_tile():
    s = new_state(RULES, 2, seed=4)
    q = 0
    b = pb(q)
    steps = 0
    while s[b + E.P_TILE] < s[E.K_NSLOTS] or s[b + E.P_PATH] < 0:
        if s[b + E.P_PATH] < 0 and s[b + E.P_TILE] < s[E.K_NSLOTS]:
            s[b + E.P_PATH] = 0
        move_nb(s, q, 0)
        steps += 1
    assert s[b + E.P_IDX] == 0 and s[E.K_SCORE] == 2                   # "2VP" first (line 160)
    for _ in range(40):
        move_nb(s, q, 0)
    assert s[b + E.P_IDX] == s[E.K_NSCORE] - 1 and s[b + E.P_DIST] == steps + 40


# ---- cleanup and the end (lines 196-232) ---------------------------------------------------
def test_the_new_order_goes_by_truck_then_train_then_ship_ties_to_the_earlier():
    s = new_state(RULES, 4, seed=1)
    s[E.G_ORDER:E.G_ORDER + 4] = [0, 1, 2, 3]
    dist = {0: (1, 5, 0), 1: (3, 0, 9), 2: (3, 4, 0), 3: (0, 5, 1)}
    for q, d in dist.items():
        s[pb(q) + E.P_DIST:pb(q) + E.P_DIST + 3] = d
    rank_order_nb(s)
    # truck: 1 and 2 tie at 3, 1 earlier; train among 0, 2, 3: 0 and 3 tie, 0 earlier; ship: 3
    assert list(s[E.G_ORDER:E.G_ORDER + 4]) == [1, 0, 3, 2]
    assert list(s[E.G_BONUS_OF:E.G_BONUS_OF + 4]) == [E.TRUCK, E.TRAIN, E.SHIP, E.B_ANY]


def test_two_players_compare_trucks_only_and_the_other_takes_the_train_space():
    s = new_state(RULES, 2, seed=1)
    s[E.G_ORDER:E.G_ORDER + 2] = [0, 1]
    s[pb(0) + E.P_DIST:pb(0) + E.P_DIST + 3] = (1, 9, 9)
    s[pb(1) + E.P_DIST:pb(1) + E.P_DIST + 3] = (2, 0, 0)
    rank_order_nb(s)
    assert list(s[E.G_ORDER:E.G_ORDER + 2]) == [1, 0]


def test_scoring_and_the_tie_break():
    s = play_until(new_state(RULES, 2, seed=6), E.D_DELIVER)
    clean_board(s)
    s[pb(0) + E.P_CARDS] = 0b11
    s[pb(1) + E.P_CARDS] = 0b100
    s[pb(1) + E.P_BLANKS] = 1
    s[pb(0) + E.P_NMISS] = 0
    s[pb(1) + E.P_NMISS] = 0
    set_city(s, 5, lv=3, posts=(0, 0, 1, 1))
    s[E.G_ORDER:E.G_ORDER + 2] = [1, 0]
    end_nb(s, np.zeros(E.N_EVENT_FIELDS, np.int64))
    for q in range(2):                        # 2 cards x 5 + 2 LV3 posts x 3 (lines 228-229)
        assert s[pb(q) + E.P_VP] == 16 and s[pb(q) + E.P_LV3_VP] == 6 and s[pb(q) + E.P_CARD_VP] == 10
    assert s[E.G_WINNER] == 1 and s[pb(1) + E.P_RANK] == 1 and s[pb(0) + E.P_RANK] == 2   # earlier in order
    s[pb(0) + E.P_TILE] = s[E.K_NSLOTS]
    s[pb(0) + E.P_PATH], s[pb(0) + E.P_IDX] = 0, 0
    end_nb(s, np.zeros(E.N_EVENT_FIELDS, np.int64))
    assert s[pb(0) + E.P_DEV_VP] == 2 and s[E.G_WINNER] == 0


def test_a_game_lasts_three_rounds_of_four_turns():
    s = new_state(RULES, 3, seed=9)
    turns = 0
    while s[E.G_ASK] >= 0:
        if s[E.G_ASK] in (E.D_DELIVER, E.D_PASS):
            turns += 1
        step(s, legal(s)[0])
    assert turns == 3 * 4 * 3 and s[E.G_PHASE] == E.PH_OVER and s[E.G_ROUND] == 3
