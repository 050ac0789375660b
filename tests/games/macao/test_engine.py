"""Macao's rules, scenario by scenario: a scripted state, one rule or card effect applied
through the engine's own kernels, the numbers checked by hand from the rules text
(docs/rules_macao.md). Plus invariants over random games walked answer by answer, the
score recomputed from the event log, and illegal answers as one clear error."""
import numpy as np
import pytest
from numba import njit

from cargo_sim.core import runner
from cargo_sim.core.borrow_nb import keep_nb, state_ptr_nb
from cargo_sim.core.layout import R_N_PLAYERS
from cargo_sim.core.errors import IllegalDecisionError, BotError
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao import engine_nb as eng
from cargo_sim.games.macao import forward_nb as fwd
from cargo_sim.games.macao import simulate
from cargo_sim.games.macao.bots.registry import REGISTRY
from cargo_sim.games.macao.rules import Rules
from cargo_sim.games.macao.testing import invariants

# The engine's kernels are called on a pointer to the state, as the chunk kernel calls them:
# the tests link the specialisations the simulations compile (and cache) anyway, instead of
# compiling the whole engine a second time for array arguments. One small kernel does it.
OK, ANSWER, BEGIN_ROUND, ROTATE, DELIVER, FINAL, ORDER, BEFORE, COINS, CUBES, LEGAL = range(11)


@njit(cache=True)
def engine_call_nb(s, what, x, y, z, out):
    p = state_ptr_nb(s)
    log = np.zeros(E.N_EVENT_FIELDS, np.int64)     # G_LOG_CAP is 0: no row is written
    lp = state_ptr_nb(log)
    r = 0
    if what == OK:
        r = 1 if eng.ok_nb(p, x) else 0
    elif what == ANSWER:
        eng.answer_nb(p, x, lp)
    elif what == BEGIN_ROUND:
        eng.begin_round_nb(p, lp)
    elif what == ROTATE:
        eng.rotate_nb(p, lp)
    elif what == DELIVER:
        eng.deliver_nb(p, x, lp)
    elif what == FINAL:
        eng.final_nb(p, lp)
    elif what == ORDER:
        eng.order_nb(p)
    elif what == BEFORE:
        r = 1 if eng.before_nb(p, x, y) else 0
    elif what == COINS:
        r = eng.gain_coins_nb(p, x, y)
    elif what == CUBES:
        r = eng.gain_cubes_nb(p, x, y, z)
    elif what == LEGAL:
        r = eng.legal_nb(p, out)
    keep_nb(log)
    return r


NO_OUT = np.zeros(1, np.int64)


def call(s, what, x=0, y=0, z=0, out=NO_OUT):
    return int(engine_call_nb(s, what, x, y, z, out))


def begin(s, seed):
    fwd.begin_nb(s, np.uint64(seed), 0)


def ok(s, a):
    return call(s, OK, a) == 1
R = Rules.default()
CARDS = R.card_names
GREEN, GREY, BLUE, BLACK, PURPLE, RED = range(6)


def new(n=2, rules=R, seed=1):
    s, _ = simulate.table_template(rules, [REGISTRY.parse("random")] * n)
    begin(s, seed)
    return s


def at_actions(s, seat=0, rnd=3):
    """The state as if ``seat`` were first to act in phase 3 of round ``rnd``."""
    b = eng.pb(seat)
    s[E.G_PHASE], s[E.G_IDX], s[E.G_ROUND] = E.PH_ACTIONS, 0, rnd
    n = int(s[R_N_PLAYERS])
    s[E.G_ORDER:E.G_ORDER + n] = [seat] + [q for q in range(n) if q != seat]
    s[E.G_ASK], s[E.G_SEAT] = E.D_ACTION, seat
    s[b + E.P_TRIB_MAX], s[b + E.P_GOODS_MAX] = 1, 1
    return s


def cubes(s, q, colour, k):
    """Give seat q k cubes of a colour for this round (from the supply, on the ledger)."""
    call(s, CUBES, q, colour, k)


def coins(s, q, k):
    call(s, COINS, q, k)


def done(s, q, name):
    """Seat q has card ``name`` completed (active)."""
    b = eng.pb(q)
    n = s[b + E.P_N_DONE]
    s[b + E.P_DONE + n] = CARDS.index(name)
    s[b + E.P_N_DONE] = n + 1
    s[E.G_DISCARDED] -= 1          # (as if taken from the discards: keeps the card count whole)
    return n


def act(s, a):
    assert ok(s, a), a
    call(s, ANSWER, a)


def p(s, q, field):
    return int(s[eng.pb(q) + field])


def avail(s, q):
    return [int(x) for x in s[eng.pb(q) + E.P_ROSE:eng.pb(q) + E.P_ROSE + 6]]


def activation(s, q, i, x=0):
    return E.A_ACT + i * E.ACT_BLOCK + x


# ---- setup and phase 1 --------------------------------------------------------------------
def test_setup_asks_start_cubes_then_the_start_draft_in_reverse_order():
    s = new(3)
    order = [int(x) for x in s[E.G_ORDER:E.G_ORDER + 3]]
    assert eng.pending_nb(s) == (E.D_COLOUR, order[0])
    for q in range(3):                       # side 1 then side 2 for each seat in turn order
        act(s, RED)
        act(s, BLUE)
    for q in range(3):
        b = eng.pb(q)
        assert s[b + E.P_ROSE + 1 * 6 + RED] == 1 and s[b + E.P_ROSE + 2 * 6 + BLUE] == 2
    assert eng.pending_nb(s) == (E.D_CARD, order[2])      # reverse turn order
    assert s[E.G_N_OFFER] == 3 + 2                         # players + 2 cards
    for _ in range(3):
        act(s, int(np.flatnonzero(s[E.G_OFFER:E.G_OFFER + 5] >= 0)[0]))
    # round 1: 2 offices + 4 deck cards, the last removed at 3 players; tribute over all 6
    assert s[E.G_ROUND] == 1 and s[E.G_N_OFFER] == 5
    assert invariants(s, R) == []


@pytest.mark.parametrize("n, offered", [(2, 4), (3, 5), (4, 6)])
def test_cards_offered_and_tribute_sum_all_six(n, offered):
    s = new(n)
    s[E.G_N_OFFER] = 0
    top, otop = int(s[E.G_DECK_TOP]), int(s[E.G_OFF_TOP])
    six = [int(s[E.G_OFFICES + otop]), int(s[E.G_OFFICES + otop + 1])] + \
          [int(s[E.G_DECK + top + i]) for i in range(4)]
    call(s, BEGIN_ROUND)
    a = R.arrays()
    assert s[E.G_N_OFFER] == offered
    assert s[E.G_TRIB_PRICE] == min(12, sum(a["card_tribute"][c, 0] for c in six))
    assert s[E.G_TRIB_REWARD] == min(12, sum(a["card_tribute"][c, 1] for c in six))
    assert [int(x) for x in s[E.G_OFFER:E.G_OFFER + offered]] == six[:offered]


def test_a_sixth_tableau_card_is_discarded_with_a_penalty_marker():
    s = new(2)
    b = eng.pb(0)
    for t in range(5):
        s[b + E.P_TAB + t] = CARDS.index("Bank")
    s[b + E.P_N_TAB] = 5
    s[E.G_DISCARDED] -= 5
    call(s, BEGIN_ROUND)
    s[E.G_ORDER], s[E.G_ASK], s[E.G_SEAT], s[E.G_IDX] = 0, E.D_CARD, 0, 0
    act(s, 0)
    assert eng.pending_nb(s) == (E.D_DISCARD, 0) and p(s, 0, E.P_N_TAB) == 6
    act(s, 2)
    assert p(s, 0, E.P_N_TAB) == 5 and p(s, 0, E.P_MARK_PEN) == 1 and p(s, 0, E.P_OVERFLOW) == 1


# ---- phase 2: dice and the wind rose --------------------------------------------------------
def dice_state(rnd, dice):
    s = new(2)
    s[E.G_PHASE], s[E.G_IDX], s[E.G_SUB], s[E.G_ROUND] = E.PH_DICE, 0, 0, rnd
    s[E.G_ORDER], s[E.G_ORDER + 1], s[E.G_ASK], s[E.G_SEAT] = 0, 1, E.D_DICE, 0
    s[E.G_DICE:E.G_DICE + 6] = dice
    return s


def test_a_die_puts_its_pips_in_cubes_on_the_side_of_that_number():
    s = dice_state(2, [3, 5, 1, 1, 1, 1])
    before = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42].copy()
    act(s, GREEN * 6 + GREY)                # green 3, grey 5
    rose = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42] - before
    assert rose[3 * 6 + GREEN] == 3 and rose[5 * 6 + GREY] == 5 and rose.sum() == 8


def test_late_dice_count_as_one_cube_on_side_one():
    s = dice_state(8, [6, 5, 1, 1, 1, 1])    # round 8: a 6 would land in round 13
    before = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42].copy()
    act(s, GREEN * 6 + GREY)
    rose = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42] - before
    assert rose[1 * 6 + GREEN] == 1 and rose[5 * 6 + GREY] == 5 and rose.sum() == 6


@pytest.mark.parametrize("penalty", [True, False])
def test_the_rose_turns_and_a_seat_without_cubes_takes_a_marker(penalty):
    rules = R.replace(zero_cube_penalty=penalty)
    s, _ = simulate.table_template(rules, [REGISTRY.parse("random")] * 2)
    begin(s, 1)
    for q in range(2):                       # wipe the start cubes: seat 1 gets 2 on side 1
        b = eng.pb(q) + E.P_ROSE
        s[E.G_SUPPLY:E.G_SUPPLY + 6] += s[b:b + 42].reshape(7, 6).sum(0)
        s[eng.pb(q) + E.P_CUBES_IN] -= s[b:b + 42].sum()
        s[b:b + 42] = 0
    s[eng.pb(1) + E.P_ROSE + 6 + RED] = 2
    s[eng.pb(1) + E.P_ROSE + 2 * 6 + RED] = 4
    call(s, ROTATE)
    assert avail(s, 1)[RED] == 2 and s[eng.pb(1) + E.P_ROSE + 6 + RED] == 4
    assert p(s, 0, E.P_MARK_PEN) == (1 if penalty else 0) and p(s, 1, E.P_MARK_PEN) == 0


# ---- phase 3 ------------------------------------------------------------------------
def test_tribute_once_a_round_price_in_coins_reward_in_points():
    s = at_actions(new(2))
    s[E.G_TRIB_PRICE], s[E.G_TRIB_REWARD] = 4, 7
    coins(s, 0, 10)
    c0 = p(s, 0, E.P_COINS)
    act(s, E.A_TRIBUTE)
    assert p(s, 0, E.P_COINS) == c0 - 4 and p(s, 0, E.P_VP) == 7
    assert not ok(s, E.A_TRIBUTE)
    s[E.G_TRIB_PRICE] = 10**6
    s[eng.pb(0) + E.P_TRIB_N] = 0
    assert not ok(s, E.A_TRIBUTE)     # not without the coins


def test_diplomat_pays_the_tribute_again_and_botschaft_adds_points():
    s = at_actions(new(2))
    s[E.G_TRIB_PRICE], s[E.G_TRIB_REWARD] = 1, 3
    coins(s, 0, 5)
    i = done(s, 0, "Diplomat")
    done(s, 0, "Botschaft")                   # +2 per tribute
    act(s, E.A_TRIBUTE)
    act(s, activation(s, 0, i))
    act(s, E.A_TRIBUTE)
    assert p(s, 0, E.P_VP) == 2 * (3 + 2) and not ok(s, E.A_TRIBUTE)


def test_wall_first_step_one_cube_then_two_and_a_disc_lands_on_top():
    s = at_actions(new(2))
    cubes(s, 0, RED, 3)
    s[eng.pb(1) + E.P_WALL] = 1
    s[eng.pb(1) + E.P_STAMP] = 50
    s[E.G_STAMP] = 50
    assert not ok(s, E.A_WALL + RED * 6 + BLUE)      # one cube the first step
    act(s, E.A_WALL + RED * 7)
    assert avail(s, 0)[RED] == 2 and p(s, 0, E.P_WALL) == 1
    assert (call(s, BEFORE, 0, 1) == 1)                        # on top of seat 1's disc
    act(s, E.A_WALL + RED * 6 + RED)                     # a further step: two cubes
    assert avail(s, 0)[RED] == 0 and p(s, 0, E.P_WALL) == 2
    call(s, ORDER)
    assert list(s[E.G_ORDER:E.G_ORDER + 2]) == [0, 1]


@pytest.mark.parametrize("deliveries", ["all", "chosen"])
def test_sailing_delivers_at_a_port_five_three_two_per_port(deliveries):
    s = at_actions(new(3, rules=R.replace(deliveries=deliveries)))
    lisboa = R.port_names[0]
    space = R[f"port.{lisboa}.space"]
    g0, g1 = (R.goods.index(g) for g in R[f"port.{lisboa}.goods"][:2])
    tiles = list(s[E.G_Q_TILE:E.G_Q_TILE + 30])
    for quarter in [i for i, g in enumerate(tiles) if g == g0][:2] + [tiles.index(g1)]:
        s[E.G_Q_OWNER + quarter] = 0          # taken from the city earlier
        s[eng.pb(0) + E.P_CITY] += 1
        s[eng.pb(0) + E.P_GOODS + tiles[quarter]] += 1
    cubes(s, 0, GREEN, space)
    for _ in range(space):
        act(s, E.A_SAIL + GREEN)
    if deliveries == "chosen":                # nothing delivered until the seat says so
        assert p(s, 0, E.P_DELIV) == 0
        for g in (g0, g0, g1):
            act(s, E.A_DELIVER + g)
    # three tiles delivered: deliveries 1-3 to the port score 5, 3, 2
    assert p(s, 0, E.P_SHIP) == space and p(s, 0, E.P_DELIV) == 3
    assert p(s, 0, E.P_VP) == 10 and p(s, 0, E.P_DELIV_PTS) == 10
    assert s[E.G_PORT_DELIV] == 3 and invariants(s, R) == []


@pytest.mark.parametrize("scoring, points", [("per_port", 5 + 3), ("per_good", 5 + 5)])
def test_delivery_scoring_ruling(scoring, points):
    rules = R.replace(delivery_scoring=scoring)
    s, _ = simulate.table_template(rules, [REGISTRY.parse("random")] * 2)
    begin(s, 1)
    at_actions(s)
    port = R.port_names[0]
    ga, gb = (R.goods.index(g) for g in R[f"port.{port}.goods"][:2])
    b = eng.pb(0)
    s[b + E.P_GOODS + ga] = 1
    s[b + E.P_GOODS + gb] = 1
    s[b + E.P_SHIP] = R[f"port.{port}.space"]
    s[b + E.P_DELIVERED_TILES] -= 2           # (two tiles from outside the city)
    call(s, DELIVER, 0)
    assert p(s, 0, E.P_VP) == points


def test_goods_pay_the_quarters_cubes_once_a_round_and_mark_it():
    s = at_actions(new(2))
    q = 0                                      # quarter 1: cost [1, 0, 1, 0, 0, 0]
    cubes(s, 0, GREEN, 2)
    cubes(s, 0, BLUE, 2)
    act(s, E.A_GOODS + q)
    assert avail(s, 0)[:3] == [1, 0, 1] and s[E.G_Q_OWNER + q] == 0 and p(s, 0, E.P_CITY) == 1
    assert not ok(s, E.A_GOODS + 6)        # one tile a round
    assert invariants(s, R) == []


def test_nachtwaechter_takes_a_second_tile_and_spekulant_pays_one_cube_less():
    s = at_actions(new(2, rules=R.replace(discount_colour="largest")))
    i = done(s, 0, "Nachtwächter")
    done(s, 0, "Spekulant")
    cubes(s, 0, GREEN, 1)
    cubes(s, 0, BLUE, 1)
    act(s, E.A_GOODS + 0)           # [1, 0, 1] less one cube off the first largest (green): 1 blue
    assert avail(s, 0)[GREEN] == 1 and avail(s, 0)[BLUE] == 0
    assert not ok(s, E.A_GOODS + 2)      # one tile a round ...
    act(s, activation(s, 0, i))                 # ... Nachtwächter: one more
    cubes(s, 0, BLUE, 1)
    cubes(s, 0, PURPLE, 1)
    assert ok(s, E.A_GOODS + 2)          # quarter 3: [0, 0, 2, 0, 1, 0] less one blue


def test_largest_connected_group_scores_two_a_quarter():
    s = new(2)
    for q in (0, 1, 7, 20):                    # quarters 1, 2, 8 touch (1-2, 1-8, 2-8); 21 alone
        s[E.G_Q_OWNER + q] = 0
    assert eng.largest_group_nb(s, 0) == 3
    no_diag = R.replace(city_diagonals=False)
    t, _ = simulate.table_template(no_diag, [REGISTRY.parse("random")] * 2)
    for q in (0, 8):                           # quarters 1 and 9 touch only diagonally
        t[E.G_Q_OWNER + q] = 0
    for q in range(30):
        if q not in (0, 8):
            t[E.G_Q_OWNER + q] = -1
    assert eng.largest_group_nb(t, 0) == 1


def test_completing_a_card_pays_its_cubes_and_the_end_counts_the_tableau():
    s = at_actions(new(2))
    b = eng.pb(0)
    card = CARDS.index("Bank")
    cost = [int(x) for x in R.arrays()["card_cost"][card]]
    s[b + E.P_TAB + s[b + E.P_N_TAB]] = card
    s[b + E.P_N_TAB] += 1
    s[E.G_DISCARDED] -= 1
    for c in range(6):
        cubes(s, 0, c, cost[c])
    slot = p(s, 0, E.P_N_TAB) - 1
    act(s, E.A_COMPLETE + slot)
    assert avail(s, 0) == [0] * 6 and s[b + E.P_DONE + p(s, 0, E.P_N_DONE) - 1] == card
    left = p(s, 0, E.P_N_TAB)
    vp = p(s, 0, E.P_VP)
    call(s, FINAL)
    assert p(s, 0, E.P_PEN_PTS) == 3 * left + 3 * p(s, 0, E.P_MARK_PEN)
    assert p(s, 0, E.P_VP) == vp - 3 * left - 3 * p(s, 0, E.P_MARK_PEN) + 2 * p(s, 0, E.P_GROUP)


# ---- card effects: (card, setup, answer option, expected change of coins, points, cubes) ------
def _office(s):
    s[eng.pb(0) + E.P_OFF_MASK] = 1


ACTIVATE = [
    # card, setup, option, d_coins, d_points, d_cubes (per colour)
    ("Bau", lambda s: cubes(s, 0, GREEN, 1), 0, 1, 0, [-1, 0, 0, 0, 0, 0]),
    ("Bank", None, 0, 2, 0, [0] * 6),
    ("Frau Rot", None, 0, 0, 0, [0, 0, 0, 0, 0, 1]),
    ("Gelehrter", None, BLACK, 0, 0, [0, 0, 0, 1, 0, 0]),
    ("Geldverleiher", None, 0, 1, 1, [0] * 6),
    ("Goldschmied", lambda s: cubes(s, 0, RED, 2), RED, 1, 0, [0, 0, 0, 0, 0, -1]),
    ("Bischof", lambda s: coins(s, 0, 3), 0, -1, 2, [0] * 6),
    ("Edler", lambda s: coins(s, 0, 3), GREY, -2, 0, [0, 1, 0, 0, 0, 0]),
    # Laden's option: the multiset paid * 6 + the colour gained; {blue, blue} is multiset 11
    # of two cubes (6 pairs from green, 5 from grey before it: table_nb.multiset_nb)
    ("Laden", lambda s: cubes(s, 0, BLUE, 2), 11 * 6 + RED, 0, 0, [0, 0, -2, 0, 0, 1]),
    ("Kathedrale", lambda s: (cubes(s, 0, GREEN, 1), cubes(s, 0, RED, 1)), 1 | 32, 0, 2,
     [-1, 0, 0, 0, 0, -1]),
    ("Amtsdiener", lambda s: _office(s), 0, 1, 0, [0] * 6),
    ("Amtsstube", lambda s: _office(s), 0, 0, 1, [0] * 6),
    ("Gesandter", lambda s: s.__setitem__(eng.pb(0) + E.P_TRIB_N, 1), PURPLE, 0, 0, [0, 0, 0, 0, 1, 0]),
    ("Kapelle", lambda s: s.__setitem__(eng.pb(0) + E.P_SCORED, 1), 0, 0, 1, [0] * 6),
    ("Kapitän", lambda s: s.__setitem__(eng.pb(0) + E.P_SAILED, 2), 0, 0, 1, [0] * 6),
    ("Pfandleihe", lambda s: s.__setitem__(eng.pb(0) + E.P_GOT_COINS, 1), 0, 1, 0, [0] * 6),
    ("Kloster", lambda s: s.__setitem__(eng.pb(0) + E.P_VP, 5), 0, 0, 1, [0] * 6),
    ("Bettler", lambda s: s.__setitem__(eng.pb(1) + E.P_VP, 5), GREEN, 0, 0, [1, 0, 0, 0, 0, 0]),
    ("Schule", None, 0, 1, 0, [0] * 6),                 # 5 empty tableau spaces >= 2
    ("Universität", None, 0, 0, 1, [0] * 6),
    ("Tor", lambda s: s.__setitem__(eng.pb(0) + E.P_WALL, 3), 0, 0, 1, [0] * 6),
    ("Kanonier", lambda s: s.__setitem__(eng.pb(1) + E.P_WALL, 3), 0, 1, 0, [0] * 6),
    ("Schiffsjunge", None, 0, 0, 1, [0] * 6),           # holds 0 goods tiles: 0 or 2
]


@pytest.mark.parametrize("name, setup, x, d_coins, d_points, d_cubes", ACTIVATE, ids=[a[0] for a in ACTIVATE])
def test_activated_card_effects(name, setup, x, d_coins, d_points, d_cubes):
    s = at_actions(new(2))
    i = done(s, 0, name)
    if setup:
        setup(s)
    c0, v0, k0 = p(s, 0, E.P_COINS), p(s, 0, E.P_VP), avail(s, 0)
    act(s, activation(s, 0, i, x))
    assert p(s, 0, E.P_COINS) - c0 == d_coins
    assert p(s, 0, E.P_VP) - v0 == d_points
    assert [a - b for a, b in zip(avail(s, 0), k0)] == d_cubes
    assert not ok(s, activation(s, 0, i, x))       # once a round
    assert invariants(s, R) == []


def test_conditions_unmet_make_an_activation_illegal():
    s = at_actions(new(2))
    for name in ("Amtsstube", "Kapelle", "Gesandter", "Pfandleihe", "Tor", "Bettler", "Kapitän"):
        i = done(s, 0, name)
        s[eng.pb(1) + E.P_WALL] = 5            # seat 1 ahead on the wall
        assert not any(ok(s, activation(s, 0, i, x)) for x in range(E.ACT_BLOCK)), name


def test_legal_answers_are_exactly_the_codes_the_engine_accepts():
    """legal_nb's phase-3 list (each kind of action listed apart, the cards of many options
    without a check per option) against ok_nb asked for every code, with every activated
    card completed, as cubes, coins and the cards' uses change."""
    s = at_actions(new(2))
    for name in [a[0] for a in ACTIVATE]:
        done(s, 0, name)
    coins(s, 0, 4)
    out = np.empty(E.MAX_LEGAL, np.int64)
    n_done = p(s, 0, E.P_N_DONE)
    codes = list(range(E.A_ACT)) + [activation(s, 0, i, x) for i in range(n_done) for x in range(E.ACT_BLOCK)]
    for step, (colour, k) in enumerate([(None, 0), (GREEN, 1), (RED, 1), (BLUE, 2), (GREY, 3),
                                        (BLACK, 1), (PURPLE, 2)]):
        if colour is not None:
            cubes(s, 0, colour, k)
        k = call(s, LEGAL, out=out)
        assert sorted(out[:k].tolist()) == [a for a in codes if ok(s, a)], step
        assert out[:k].tolist() == sorted(out[:k].tolist())       # in increasing order
    acts = [a for a in out[:k].tolist() if a >= E.A_ACT]
    for a in acts[::7]:                    # some cards used this round: their answers go
        if ok(s, a):
            act(s, a)
            k = call(s, LEGAL, out=out)
            assert out[:k].tolist() == [c for c in codes if ok(s, c)]


def test_office_activation_triggers_and_extra_activation():
    s = at_actions(new(2))
    i = done(s, 0, "Bau")
    done(s, 0, "Vermesser")                   # +1 coin when a green office is activated
    done(s, 0, "Schreiber")                   # one office of each colour once more a round
    call(s, BEGIN_ROUND)
    at_actions(s, rnd=int(s[E.G_ROUND]))
    cubes(s, 0, GREEN, 2)
    c0 = p(s, 0, E.P_COINS)
    act(s, activation(s, 0, i))
    act(s, activation(s, 0, i))
    assert p(s, 0, E.P_COINS) - c0 == 4 and not ok(s, activation(s, 0, i))


def test_goldsucher_repeats_and_totengraeber_discards_a_person():
    s = at_actions(new(2))
    i = done(s, 0, "Goldsucher")              # pay 3 cubes of any colours, gain 1 coin, repeatable
    cubes(s, 0, RED, 6)
    reds = 55                                 # {red, red, red}: the last of the 56 multisets of 3
    act(s, activation(s, 0, i, reds))
    act(s, activation(s, 0, i, reds))
    assert avail(s, 0)[RED] == 0 and not ok(s, activation(s, 0, i, reds))
    j = done(s, 0, "Totengräber")
    c0 = p(s, 0, E.P_COINS)
    act(s, activation(s, 0, j, i))            # discard Goldsucher (a person): 2 coins
    assert p(s, 0, E.P_COINS) - c0 == 2 and p(s, 0, E.P_N_DONE) == 1


def test_sail_cards_and_graf_and_handwerker():
    s = at_actions(new(2))
    i = done(s, 0, "Segelmacherei")           # sail up to 2 spaces
    act(s, activation(s, 0, i, 2))
    assert p(s, 0, E.P_SHIP) == 2
    j = done(s, 0, "Steuermann")              # pay 1 coin, sail up to 4
    coins(s, 0, 1)
    act(s, activation(s, 0, j, 4))
    assert p(s, 0, E.P_SHIP) == 6
    g = done(s, 0, "Graf")                    # 4 coins instead of the cubes
    b = eng.pb(0)
    s[b + E.P_TAB] = CARDS.index("Bank")
    s[b + E.P_N_TAB] = 1
    s[E.G_DISCARDED] -= 1
    coins(s, 0, 4)
    c0 = p(s, 0, E.P_COINS)
    act(s, E.A_COMPLETE_COINS + 0)
    assert p(s, 0, E.P_COINS) == c0 - 4 and s[b + E.P_USED + g] == 1 and p(s, 0, E.P_N_TAB) == 0
    h = done(s, 0, "Handwerker")              # the cubes of a completion this round back
    s[b + E.P_TAB] = CARDS.index("Tor")
    s[b + E.P_N_TAB] = 1
    s[E.G_DISCARDED] -= 1
    cost = [int(x) for x in R.arrays()["card_cost"][CARDS.index("Tor")]]
    for c in range(6):
        cubes(s, 0, c, cost[c])
    act(s, E.A_COMPLETE + 0)
    assert avail(s, 0) == [0] * 6
    act(s, activation(s, 0, h, 0))
    assert avail(s, 0) == cost


def test_triggers_on_goods_and_delivery():
    s = at_actions(new(2))
    done(s, 0, "Brunnen")                     # +1 wall space per tile taken
    done(s, 0, "Zimmermann")                  # +1 coin per tile taken
    cubes(s, 0, GREEN, 1)
    cubes(s, 0, BLUE, 1)
    c0 = p(s, 0, E.P_COINS)
    act(s, E.A_GOODS + 0)
    assert p(s, 0, E.P_WALL) == 1 and p(s, 0, E.P_COINS) == c0 + 1
    t = at_actions(new(2))
    done(t, 0, "Leuchtturm")                  # +1 coin per scoring delivery
    done(t, 0, "Böttcherei")                  # +1 point per scoring delivery
    port = R.port_names[0]
    good = R.goods.index(R[f"port.{port}.goods"][0])
    done(t, 0, ["Gewürzlager", "Jadelager", "Lackwarenlager", "Papierlager", "Porzellanlager",
                "Reislager", "Seidenlager", "Teelager"][good])   # this good scores double
    b = eng.pb(0)
    t[b + E.P_GOODS + good] = 1
    t[b + E.P_DELIVERED_TILES] -= 1
    t[b + E.P_SHIP] = R[f"port.{port}.space"]
    c0 = p(t, 0, E.P_COINS)
    call(t, DELIVER, 0)
    assert p(t, 0, E.P_VP) == 5 * 2 + 1 and p(t, 0, E.P_COINS) == c0 + 1


def test_dice_triggers_professor_forscher_meister():
    s = dice_state(2, [1, 4, 1, 1, 1, 1])
    done(s, 0, "Professor")                   # 1 coin per chosen die showing 1
    done(s, 0, "Forscher")                    # 1 more cube on one lot
    done(s, 0, "Meister")                     # one lot 1 side off
    c0 = p(s, 0, E.P_COINS)
    before = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42].copy()
    act(s, GREEN * 6 + GREY)                  # green 1, grey 4
    assert p(s, 0, E.P_COINS) == c0 + 1 and eng.pending_nb(s) == (E.D_DICE_EXTRA, 0)
    act(s, 1)                                 # the extra cube on the grey lot: 5 cubes
    assert eng.pending_nb(s) == (E.D_DICE_SHIFT, 0)
    assert not ok(s, 0 * 16 + 8 - 1)   # green lot to side 0: off the rose
    act(s, 1 * 16 + 8 - 1)                    # grey lot to side 3
    rose = s[eng.pb(0) + E.P_ROSE:eng.pb(0) + E.P_ROSE + 42] - before
    assert rose[1 * 6 + GREEN] == 1 and rose[3 * 6 + GREY] == 5 and rose.sum() == 6


def test_end_cards_score_by_hand():
    s = new(2)
    b = eng.pb(0)
    for name in ("Gouverneur", "Baronesa Um", "Baronesa Dois", "Präfektur", "Palast", "Abt"):
        done(s, 0, name)
    for _ in range(3):
        done(s, 0, "Bau")                      # three green offices
    s[b + E.P_TAB] = CARDS.index("Bank")
    s[b + E.P_N_TAB] = 1
    s[E.G_DISCARDED] -= 1
    for q in range(30):
        s[E.G_Q_OWNER + q] = -1
    vp = p(s, 0, E.P_VP)
    call(s, FINAL)
    # Gouverneur 7; Baronesas 2 of a set: 4 each; Präfektur 1 per office: 3; Palast 2 per
    # other end card (Gouverneur, 2 Baronesas, Präfektur): 8; Abt: no tableau penalty
    assert p(s, 0, E.P_END_PTS) == 7 + 8 + 3 + 8
    assert p(s, 0, E.P_VP) - vp == 26 - 3 * p(s, 0, E.P_MARK_PEN)
    per_set = R.replace(set_scoring="per_set")
    t, _ = simulate.table_template(per_set, [REGISTRY.parse("random")] * 2)
    begin(t, 1)
    for name in ("Baronesa Um", "Baronesa Dois"):
        done(t, 0, name)
    call(t, FINAL)
    assert p(t, 0, E.P_END_PTS) == 4


@pytest.mark.parametrize("tie, winners", [("wall", 1), ("coins", 1), ("shared", 2)])
def test_tie_break_ruling(tie, winners):
    rules = R.replace(tie_break=tie)
    s, _ = simulate.table_template(rules, [REGISTRY.parse("random")] * 2)
    begin(s, 1)
    for q in range(30):
        s[E.G_Q_OWNER + q] = -1
    s[eng.pb(1) + E.P_WALL] = 2                 # seat 1 ahead on the wall
    coins(s, 0, 3)                              # seat 0 richer
    call(s, FINAL)
    assert s[E.G_WINNERS] == winners
    if tie == "wall":
        assert p(s, 1, E.P_WON) == 1
    if tie == "coins":
        assert p(s, 0, E.P_WON) == 1


# ---- whole games ---------------------------------------------------------------------------
def test_random_games_keep_the_invariants_after_every_answer():
    out = np.empty(E.MAX_LEGAL, np.int64)
    rng = np.random.default_rng(3)
    steps = 0
    for g, n in enumerate((2, 3, 4)):
        s = new(n, seed=100 + g)
        while s[E.G_ASK] >= 0:
            if s[E.G_PHASE] == E.PH_CARDS and s[E.G_IDX] == 0 and s[E.G_SUB] == 0:
                walls = [(s[eng.pb(q) + E.P_WALL], s[eng.pb(q) + E.P_STAMP]) for q in range(n)]
                order = sorted(range(n), key=lambda q: walls[q], reverse=True)
                assert list(s[E.G_ORDER:E.G_ORDER + n]) == order      # turn order = the wall
            k = call(s, LEGAL, out=out)
            assert k > 0 and all(ok(s, a) for a in out[:k])
            call(s, ANSWER, int(out[rng.integers(k)]))
            steps += 1
            assert invariants(s, R) == [], steps
        assert s[E.G_ROUND] == 12
    assert steps > 300
    s[eng.pb(0) + E.P_COINS] += 1
    assert invariants(s, R) != []


def test_scores_recompute_from_the_event_log():
    res = runner.simulate("macao", 6, ["random", "greedy", "random"], seed=7, events=True, progress=False)
    ev = res.events
    pts = ev.groupby(["game", "seat"])["points"].sum()
    for r in res.players.itertuples():
        assert pts.get((r.game, r.seat), 0) == r.vp
    won = res.players.groupby("game")["win_share"].sum()
    assert np.allclose(won, 1.0)


def test_an_illegal_answer_and_a_raising_bot_are_one_line_errors():
    from cargo_sim.core import userbots

    @userbots.bot("macao_late_cheat", game="macao")
    def late_cheat(kind, s, seat):
        return 99 if kind == 3 else 0      # an illegal dice answer; else the first option

    try:
        with pytest.raises(IllegalDecisionError, match=r"'macao_late_cheat' \(seat 1\) made an illegal "
                                                          r"(start colour|card|dice) decision"):
            runner.simulate("macao", 3, ["random", "macao_late_cheat"], seed=1, progress=False)
    finally:
        userbots.unregister("macao_late_cheat", game="macao")

    @userbots.bot("macao_raiser", game="macao")
    def raiser(kind, s, seat):
        if kind == 3:
            raise ValueError("no")
        return 0

    try:
        with pytest.raises(BotError, match="'macao_raiser' .* failed"):
            runner.simulate("macao", 2, ["macao_raiser", "random"], seed=1, progress=False)
    finally:
        userbots.unregister("macao_raiser", game="macao")


def test_the_error_slots_are_the_cores():
    from cargo_sim.core import contract
    assert (E.ERR_GAME, E.ERR_EVENTS) == (contract.ERR_GAME, contract.ERR_EVENTS)
