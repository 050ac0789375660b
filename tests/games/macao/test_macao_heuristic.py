"""Macao's heuristic family (bots/greedy_nb.py): a tried action is undone word for word,
and each of the family's later rules (``fade``, ``delivery_weight``, ``keep``,
``need_weight``, ``draft_fit``, ``gap_weight``, ``quarter_dice``, ``end_draft``,
``crowd_weight``) changes the answer in a scripted state the way its
docstring says, against the same bot without it (0: the old behaviour)."""
import numpy as np
import pytest
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao import engine_nb as eng
from cargo_sim.games.macao import forward_nb as fwd
from cargo_sim.games.macao import simulate
from cargo_sim.games.macao.bots.registry import REGISTRY
from cargo_sim.games.macao.bots import greedy_nb as gr
from cargo_sim.games.macao.forward import GameState
from cargo_sim.games.macao.rules import Rules

R = Rules.default()
GREEN, GREY, BLUE, BLACK = 0, 1, 2, 3


def table(spec, n=2):
    s, decide = simulate.table_template(R, [REGISTRY.parse(spec)] * n)
    fwd.begin_nb(s, np.uint64(1), 0)
    return s, decide


def answer(s, decide):
    return int(fwd.bot_answer_nb(s, decide))


def at_actions(s, rnd):
    """Seat 0 first to act in phase 3 of round ``rnd``, no cubes, no quarter left to take
    this round (so that only the actions a test gives it are worth anything)."""
    b = eng.pb(0)
    s[E.G_PHASE], s[E.G_IDX], s[E.G_ROUND] = E.PH_ACTIONS, 0, rnd
    s[E.G_ORDER:E.G_ORDER + 2] = [0, 1]
    s[E.G_ASK], s[E.G_SEAT] = E.D_ACTION, 0
    s[b + E.P_ROSE:b + E.P_ROSE + E.NC] = 0
    s[b + E.P_TRIB_N], s[b + E.P_TRIB_MAX] = 1, 1
    s[b + E.P_GOODS_N], s[b + E.P_GOODS_MAX] = 1, 1
    s[b + E.P_N_TAB] = 0
    return b


def unchanged_by_the_bot(s, decide):
    """The heuristic's answer leaves the game (every word past the rules') as it was:
    each action it tried was undone word for word (undo_nb)."""
    before = s[E.RULES_END:].copy()
    fwd.bot_answer_nb(s, decide)
    return np.array_equal(s[E.RULES_END:], before)


def test_the_heuristics_tries_are_undone_word_for_word():
    """States of games with random answers (every kind of action legal somewhere), asked of
    expert and greedy, and a scripted one where a sail delivers and a quarter is taken."""
    tried = 0
    for players, seed in ((["expert", "greedy"], 3), (["greedy", "expert", "greedy", "expert"], 4)):
        st = GameState(players, seed=seed)
        rng = np.random.default_rng(seed)
        while not st.is_over:
            if st.decision.kind == "action":
                assert unchanged_by_the_bot(st.s, st.decide)
                tried += 1
            legal = st.legal()
            st.apply(int(legal[rng.integers(len(legal))]))
    assert tried > 100
    s, decide = table("expert")
    b = at_actions(s, 3)
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    s[b + E.P_GOODS + g] = 2
    s[b + E.P_SHIP] = R[f"port.{port}.space"] - 1
    s[b + E.P_ROSE:b + E.P_ROSE + E.NC] = 4
    s[b + E.P_GOODS_N], s[b + E.P_JOKERS] = 0, 1
    legal = np.empty(E.MAX_LEGAL, np.int64)
    legal = legal[:fwd.legal_nb(s, legal)]
    assert ((legal >= E.A_SAIL) & (legal < E.A_SAIL + E.NC)).any()      # a sail that delivers
    assert ((legal >= E.A_GOODS) & (legal < E.A_GOODS + E.MAX_Q)).any()  # and quarters
    assert unchanged_by_the_bot(s, decide)


@njit
def light_and_full_nb(s, legal, buf, log, light, full):
    """The heuristic's light value and the full try's value of each legal action at an
    action decision. The state goes in as a pointer, as the bot passes it, so these
    kernels load from the cache the warm-up filled (called from Python with arrays,
    each would compile again: ~50 s of a cold suite). Returns the decision's own value
    and whether a sail can be light."""
    p = state_ptr_nb(s)
    q = s[E.G_SEAT]
    zero, none = np.int64(0), np.int64(-1)    # int64 as the bot passes them (a literal is another signature)
    w = gr.weights_nb(p, q)
    group = eng.largest_group_nb(p, q)
    sail_light = gr.goods_held_nb(p, q) == 0 or not gr.port_at_nb(p, p[eng.pb(q) + E.P_SHIP] + 1)
    plain_goods = gr.plain_goods_nb(p, q)
    bp = state_ptr_nb(buf)
    gr.components_nb(p, q, bp, zero)
    base = gr.value_nb(p, q, group, w, bp, none)
    after = s.copy()
    pa = state_ptr_nb(after)
    for i in range(legal.shape[0]):
        a = legal[i]
        light[i] = gr.light_value_nb(p, q, a, sail_light, plain_goods, group, w, bp, zero, none)
        after[:] = s
        after[E.G_LOG_CAP] = 0
        eng.act_nb(pa, q, a, state_ptr_nb(log))
        full[i] = gr.value_nb(pa, q, eng.largest_group_nb(pa, q), w, bp, none)
    return base, sail_light and after[0] == after[0]    # `after` alive until here


def test_a_light_try_values_an_action_as_the_full_try_does():
    """best_action_nb values some actions by writing the few words value_nb reads by hand
    (light_value_nb: a sail that delivers nothing, a wall step, a goods tile, cubes or
    coins for cubes or coins): the same float as value_nb of the state act_nb leaves, in states of whole
    games; the activations it skips (-inf) leave value_nb's value as it was; a sail onto
    a port with goods aboard (which may deliver) is tried in full (NaN)."""
    buf = np.zeros(3 * E.MAX_Q, np.int64)      # components_nb's labels
    log = np.zeros(9, np.int64)
    checked = {"sail": 0, "wall": 0, "goods": 0, "card": 0, "skipped": 0, "full sail": 0}
    for seed in range(7, 31):                 # games until every case was met (a few)
        if min(checked.values()) > 0:
            break
        st = GameState(["expert", "random"] * 2 if seed % 2 else ["expert", "expert", "random"], seed=seed)
        rng = np.random.default_rng(seed)
        while not st.is_over:
            legal = st.legal()
            if st.decision.kind == "action":
                acts = np.asarray(legal, np.int64)
                light, full = np.empty(len(acts)), np.empty(len(acts))
                base, sail_light = light_and_full_nb(st.s, acts, buf, log, light, full)
                for a, lv, fv in zip(acts, light, full):
                    sail = E.A_SAIL <= a < E.A_SAIL + E.NC
                    if np.isnan(lv):
                        checked["full sail"] += sail
                        assert not (sail and sail_light)
                    elif lv == -np.inf:
                        assert fv == base, a
                        checked["skipped"] += 1
                    else:
                        assert lv == fv, a
                        checked["sail" if sail else "card" if a >= E.A_ACT else
                                "goods" if a >= E.A_GOODS else "wall"] += 1
            st.apply(int(legal[rng.integers(len(legal))]))
    assert min(checked.values()) > 0, checked


def test_delivery_weight_sails_towards_a_port_that_takes_a_good_held():
    port = R.port_names[0]
    g = R.goods.index(R[f"port.{port}.goods"][0])
    got = {}
    for spec in ("greedy?ship_weight=0&wall_weight=0", "greedy?ship_weight=0&wall_weight=0&delivery_weight=1"):
        for rnd, cubes in ((3, 1), (12, 1), (12, 2)):
            s, decide = table(spec)
            b = at_actions(s, rnd)
            s[b + E.P_GOODS + g] = 1
            s[b + E.P_SHIP] = R[f"port.{port}.space"] - 2
            s[b + E.P_ROSE + GREEN] = cubes
            got[spec.endswith("=1"), rnd, cubes] = answer(s, decide)
    # without it the ship is worth nothing; with it the good's 5 points come closer
    assert got[False, 3, 1] == E.A_END and got[True, 3, 1] == E.A_SAIL + GREEN
    # in the last round only a port within the cubes in hand counts
    assert got[True, 12, 1] == E.A_END and got[True, 12, 2] == E.A_SAIL + GREEN


def test_fade_makes_coins_worth_nothing_after_the_last_round():
    got = {}
    for fade in (0, 3):
        for rnd in (6, 12):
            s, decide = table(f"greedy?coin_weight=2&fade={fade}")
            b = at_actions(s, rnd)
            s[b + E.P_TRIB_N] = 0
            s[b + E.P_COINS] = 5
            s[E.G_TRIB_PRICE], s[E.G_TRIB_REWARD] = 3, 2
            got[fade, rnd] = answer(s, decide)
    # 2 points for 3 coins at 2 each: not worth it, until fade says the coins are worthless
    assert got[0, 6] == got[0, 12] == got[3, 6] == E.A_END
    assert got[3, 12] == E.A_TRIBUTE


def tableau_needs(s, b, colour, k):
    """Seat 0's one tableau card costs k cubes of ``colour`` (the rules' words edited)."""
    card = 0
    s[b + E.P_N_TAB], s[b + E.P_TAB] = 1, card
    s[E.K_C_COST + card * E.NC:E.K_C_COST + card * E.NC + E.NC] = 0
    s[E.K_C_COST + card * E.NC + colour] = k


def test_keep_pays_with_the_colour_the_tableau_does_not_need():
    got = {}
    for keep in (0, 1):
        s, decide = table(f"greedy?keep={keep}")
        b = at_actions(s, 3)
        tableau_needs(s, b, GREEN, 3)
        s[b + E.P_ROSE + GREEN] = s[b + E.P_ROSE + BLUE] = 1
        got[keep] = answer(s, decide)
    # a wall step (one cube) is the best action; greedy pays the first colour (green)
    assert got[0] == E.A_WALL + GREEN * E.NC + GREEN
    assert got[1] == E.A_WALL + BLUE * E.NC + BLUE


def test_need_weight_picks_a_die_of_the_colour_the_tableau_needs():
    got = {}
    for w in (0, 2):
        s, decide = table(f"greedy?need_weight={w}")
        b = eng.pb(0)
        s[E.G_PHASE], s[E.G_ROUND], s[E.G_ASK], s[E.G_SEAT] = E.PH_DICE, 3, E.D_DICE, 0
        s[E.G_DICE:E.G_DICE + E.NC] = [2, 5, 5, 2, 2, 2]
        s[b + E.P_ROSE + E.NC + GREY] = 1       # cubes due this round: no zero-cube worry
        tableau_needs(s, b, GREEN, 4)
        got[w] = answer(s, decide)
    assert got[0] == GREY * E.NC + BLUE          # the most cubes: 5 + 5
    assert got[2] == GREEN * E.NC + GREY         # 2 green the card needs, and 5


def test_draft_fit_prefers_a_card_whose_cubes_are_on_their_way():
    got = {}
    for fit in (0, 1):
        s, decide = table(f"greedy?draft_fit={fit}")
        b = eng.pb(0)
        x, y = 1, 2
        for card, colour, k in ((x, GREEN, 3), (y, BLUE, 2)):
            s[E.K_C_COST + card * E.NC:E.K_C_COST + card * E.NC + E.NC] = 0
            s[E.K_C_COST + card * E.NC + colour] = k
            s[E.K_C_TIMING + card] = E.T_END
        s[E.G_PHASE], s[E.G_ASK], s[E.G_SEAT] = E.PH_CARDS, E.D_CARD, 0
        s[E.G_N_OFFER], s[E.G_OFFER], s[E.G_OFFER + 1] = 2, y, x
        s[b + E.P_ROSE + 2 * E.NC + GREEN] = 3   # three green cubes due next round
        got[fit] = answer(s, decide)
    assert got[0] == 0 and got[1] == 1           # the cheaper card, or the one that fits


def dice_state(s, rnd, dice):
    """Seat 0 to choose its dice in round ``rnd`` (the six dice's pips); cubes due next
    round (no zero-cube worry), every later side empty."""
    b = eng.pb(0)
    s[E.G_PHASE], s[E.G_ROUND], s[E.G_ASK], s[E.G_SEAT] = E.PH_DICE, rnd, E.D_DICE, 0
    s[E.G_DICE:E.G_DICE + E.NC] = dice
    s[b + E.P_ROSE + E.NC:b + E.P_ROSE + 7 * E.NC] = 0
    s[b + E.P_ROSE + E.NC + GREY] = 1
    return b


def test_gap_weight_picks_a_die_for_a_rose_side_without_cubes():
    got = {}
    for w in (0, 3):
        s, decide = table(f"greedy?gap_weight={w}")
        b = dice_state(s, 3, [2, 5, 5, 2, 2, 2])
        s[b + E.P_ROSE + 5 * E.NC + BLUE] = 1     # side 5 has cubes, side 2 none
        got[w] = answer(s, decide)
    assert got[0] == GREY * E.NC + BLUE          # the most cubes: 5 + 5 (4.9 + 4.9 ... 7.0)
    assert got[3] == GREEN * E.NC + GREY         # 2 on the empty side and 5: 4.9 + 3 > 7.0


def test_quarter_dice_picks_the_dice_whose_cubes_pay_a_quarter_together():
    got = {}
    for w in (0, 6):
        s, decide = table(f"greedy?quarter_dice={w}")
        b = dice_state(s, 3, [2, 5, 2, 5, 5, 5])
        s[E.G_Q_OWNER:E.G_Q_OWNER + s[E.K_NQ]] = 1        # one quarter open, 2 green + 2 blue
        s[E.G_Q_OWNER] = -1
        s[E.K_Q_COST:E.K_Q_COST + E.NC] = [2, 0, 2, 0, 0, 0]
        got[w] = answer(s, decide)
        s[E.K_Q_COST:E.K_Q_COST + E.NC] = [2, 0, 3, 0, 0, 0]   # now they do not pay it
        got[w, "dearer"] = answer(s, decide)
    assert got[0] == got[0, "dearer"] == GREY * E.NC + BLACK
    assert got[6] == GREEN * E.NC + BLUE         # both lots on side 2: the quarter's cost
    assert got[6, "dearer"] == GREY * E.NC + BLACK


def test_end_draft_counts_an_end_cards_points_in_the_draft():
    got = {}
    for w in (0, 1):
        s, decide = table(f"greedy?end_draft={w}")
        x, y = 1, 2
        for card in (x, y):
            s[E.K_C_COST + card * E.NC:E.K_C_COST + card * E.NC + E.NC] = [3, 0, 0, 0, 0, 0]
        s[E.K_C_TIMING + x] = E.T_ACTIVATE
        s[E.K_C_TIMING + y], s[E.K_C_EFFECT + y] = E.T_END, E.EFFECT_ID["END_POINTS"]
        s[E.K_C_ARGS + y * 4] = 5
        s[E.G_PHASE], s[E.G_ASK], s[E.G_SEAT] = E.PH_CARDS, E.D_CARD, 0
        s[E.G_N_OFFER], s[E.G_OFFER], s[E.G_OFFER + 1] = 2, x, y
        before = s[E.RULES_END:].copy()
        got[w] = answer(s, decide)
        assert np.array_equal(s[E.RULES_END:], before)     # the count's card taken off again
    # activated cards count twice the card weight (-3 + 4 * 0.5 * 2 = 1 against -1); its
    # 5 points make the end card the better one
    assert got[0] == 0 and got[1] == 1


def test_crowd_weight_values_a_full_tableau_less_while_rounds_remain():
    def value(w, rnd, n_tab):
        s, _ = table(f"greedy?crowd_weight={w}")
        b = eng.pb(0)
        s[E.G_ROUND] = rnd
        s[b + E.P_N_TAB] = n_tab
        s[b + E.P_TAB:b + E.P_TAB + n_tab] = 0
        memo = np.zeros(gr.N_MEMO, np.int64)
        return gr.value_nb(s, 0, 0, gr.weights_nb(s, 0), memo, -1)
    pen = R["tableau_penalty"]
    # 3 a card on the tableau, and crowd_weight a card beyond 3 while rounds remain
    assert value(2, 6, 4) - value(2, 6, 5) == pytest.approx(pen + 2)
    assert value(2, 6, 3) - value(2, 6, 4) == pytest.approx(pen + 2)
    assert value(2, 6, 2) - value(2, 6, 3) == pytest.approx(pen)
    assert value(0, 6, 4) - value(0, 6, 5) == pytest.approx(pen)
    assert value(2, 12, 4) - value(2, 12, 5) == pytest.approx(pen)


@pytest.mark.parametrize("spec, words", [
    ("greedy?gap_weight=-1", "'gap_weight' must be a number from 0"),
    ("greedy?quarter_dice=9", "'quarter_dice' must be a number from 0 to 8"),
    ("expert?end_draft=x", "'end_draft' must be a number"),
    ("expert?crowd_weight=7", "'crowd_weight' must be a number from 0 to 6"),
    ("greedy?draft_fit=-1", "'draft_fit' must be a number from 0"),
    ("greedy?keep=2", "'keep' must be a number from 0 to 1, got '2'"),
    ("greedy?delivery_weight=-3", "'delivery_weight' must be a number from 0"),
    ("greedy?need_weight=abc", "'need_weight' must be a number"),
    ("greedy?fade=1e9", "'fade' must be a number"),
])
def test_the_new_parameters_refuse_bad_values_in_one_line(spec, words):
    from cargo_sim.core.errors import BotError, ConfigError
    with pytest.raises((BotError, ConfigError), match=words):
        REGISTRY.parse(spec)


@njit
def card_tries_and_classes_nb(s, legal, buf, keep, need, cls):
    """tries_nb's list of the decision (into buf; returns its length) and act_class_nb's
    class of each legal answer (into cls). Pointers, as the bot passes them (see
    light_and_full_nb)."""
    p = state_ptr_nb(s)
    q = s[E.G_SEAT]
    for k in range(legal.shape[0]):
        a = legal[k]
        cls[k] = gr.act_class_nb(p, q, (a - E.A_ACT) // E.ACT_BLOCK, (a - E.A_ACT) % E.ACT_BLOCK) if a >= E.A_ACT else -2
    n = gr.tries_nb(p, q, state_ptr_nb(buf), keep, need)
    return n + (s[0] - s[0])                  # s alive until here


def test_the_card_tries_are_the_legal_ones_one_of_each_activation_class():
    """tries_nb lists the goods tiles, completions and activations (card_tries_nb) as the
    legal answers are, in their order, less the activations light_value_nb values -inf
    (extra tribute, extra goods, wall to the top) and, of a card's options of one class
    (act_class_nb), all but the first: in states of whole games with random answers."""
    skip = {E.EFFECT_ID[c] for c in ("EXTRA_TRIBUTE", "EXTRA_GOODS", "WALL_TO_TOP")}
    buf = np.zeros(E.MAX_LEGAL + 64, np.int64)
    dropped = compared = 0
    for seed in range(5, 40):                 # games until both were met (a few)
        if compared > 200 and dropped > 0:
            break
        st = GameState(["expert", "random"] * 2 if seed % 2 else ["expert", "expert", "random"], seed=seed)
        rng = np.random.default_rng(seed)
        while not st.is_over:
            legal = np.asarray(st.legal(), np.int64)
            if st.decision.kind == "action":
                cls = np.empty(len(legal), np.int64)
                n = card_tries_and_classes_nb(st.s, legal, buf, True, np.int64(E.MAX_LEGAL), cls)
                want, seen = [], set()
                b = eng.pb(int(st.s[E.G_SEAT]))
                for a, c in zip(legal, cls):
                    if a < E.A_GOODS:
                        continue
                    if a >= E.A_ACT:
                        i = (a - E.A_ACT) // E.ACT_BLOCK
                        if st.s[E.K_C_EFFECT + st.s[b + E.P_DONE + i]] in skip or (c >= 0 and (i, c) in seen):
                            dropped += 1
                            continue
                        seen.add((i, c))
                    want.append(int(a))
                got = [int(a) for a in buf[:n] if a >= E.A_GOODS]
                assert got == want
                compared += 1
            st.apply(int(legal[rng.integers(len(legal))]))
    assert compared > 200 and dropped > 0, (compared, dropped)


def test_the_tables_packed_costs_answer_as_the_costs_do():
    """card_tries_nb's cost words (built with the table): K_Q_AFFORD's masks hold exactly
    the quarters of each colour's cost within r cubes (64 quarters: bit 63 too), and
    K_C_PACK's test pays a card exactly when every colour's cubes cover its cost, for
    hands of none, just short, just enough and far more than 127 cubes."""
    rng = np.random.default_rng(18)
    cost = rng.integers(0, E.COST_CAP + 1, (E.MAX_Q, E.NC))
    masks = simulate.afford_masks(cost).reshape(E.NC, E.COST_CAP + 2)
    for c in range(E.NC):
        for r in range(-1, E.COST_CAP + 1):
            bits = int(masks[c, r + 1]) & ((1 << 64) - 1)
            assert bits == sum(1 << x for x in range(E.MAX_Q) if cost[x, c] <= r)
    s = simulate.compile_rules(R, 4)
    words = s[E.K_Q_AFFORD:E.K_Q_AFFORD + E.NC * (E.COST_CAP + 2)]
    assert np.array_equal(words, simulate.afford_masks(R.arrays()["quarter_cost"]))
    checked = 0
    for card in range(s[E.K_N_CT]):
        need = s[E.K_C_COST + card * E.NC:][:E.NC]
        for _ in range(20):
            hand = np.maximum(need + rng.choice([-1, 0, 0, 1, 300], E.NC), 0)
            packed = sum((min(max(int(h), -1), 126) + 129) << (8 * c) for c, h in enumerate(hand))
            pays = ((packed - int(s[E.K_C_PACK + card])) & E.PACK_HIGH) == E.PACK_HIGH
            assert pays == bool((hand >= need).all())
            checked += pays
    assert 0 < checked < s[E.K_N_CT] * 20
