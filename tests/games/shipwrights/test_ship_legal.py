"""legal_nb lists exactly what the engine's one check (ok_nb) accepts, and the direct
kernel of all-random tables plays the same games as the table kernel."""
import random

import numpy as np

from cargo_sim.core.contract import get_game
from cargo_sim.core.seeds_nb import game_seeds
from cargo_sim.games.shipwrights import enums as E
from cargo_sim.games.shipwrights import testing as T
from cargo_sim.games.shipwrights.engine_nb import is_legal_nb
from cargo_sim.games.shipwrights.rules import Rules

CODES = range(E.A_COMPLETE + 2 * E.MAX_YARDS * 1024)      # every action code ok_nb knows


def kind_of(s, code):
    """A completion's yard, tool and its craftsmen as (face, in hand) pairs, sorted."""
    v = code - E.A_COMPLETE
    b = E.PL + int(s[E.G_SEAT]) * E.PW
    refs = [r for r in (v // 32 % 32, v % 32) if r != E.NO_REF]
    cards = [int(s[b + E.P_CRAFT + r]) if r < E.HAND_REF else int(s[b + E.P_HAND + r - E.HAND_REF])
             for r in refs]
    return v // 1024, tuple(sorted((int(s[E.K_BOX + c]), r >= E.HAND_REF) for r, c in zip(refs, cards)))


def test_legal_lists_what_ok_accepts_one_completion_per_kind_of_craftsmen():
    rng = random.Random(5)
    seen = {"town": 0, "complete": 0, "states": 0}
    for seed in (1, 2, 3):
        s, _ = T.new_state(3, seed=seed)
        while s[E.G_ASK] >= 0 and seen["states"] < 25 * seed:
            listed = T.legal(s)
            if s[E.G_ASK] == E.D_ACTION and rng.random() < 0.3:
                seen["states"] += 1
                accepted = [a for a in CODES if is_legal_nb(s, a)]
                assert listed == sorted(listed) and set(listed) <= set(accepted)
                assert [a for a in listed if a < E.A_COMPLETE] == [a for a in accepted if a < E.A_COMPLETE]
                kinds = [kind_of(s, a) for a in listed if a >= E.A_COMPLETE]
                assert len(kinds) == len(set(kinds))            # equal craftsmen listed once
                kinds = set(kinds)
                assert kinds == {kind_of(s, a) for a in accepted if a >= E.A_COMPLETE}
                seen["town"] += sum(E.A_TOWN <= a < E.A_COMPLETE for a in listed)
                seen["complete"] += len(kinds)
            # lean towards the last answers (townsfolk, completions) to reach richer states
            T.step(s, listed[-1] if rng.random() < 0.4 else rng.choice(listed))
    assert seen["states"] >= 30 and seen["town"] > 0 and seen["complete"] > 0, seen


def test_the_direct_random_kernel_plays_the_table_kernels_games():
    from cargo_sim.games.shipwrights.bots.dispatch_nb import table_decide_nb
    from cargo_sim.games.shipwrights.chunk_nb import run_games_nb, run_random_games_nb
    from cargo_sim.games.shipwrights.simulate import table_template
    game = get_game("shipwrights")
    template, decide = table_template(Rules.default(), [game.bots.parse("random")] * 3)
    seeds = game_seeds(4, 0, 3)
    got = []
    for kernel in (lambda *a: run_games_nb(template, table_decide_nb, *a),
                   lambda *a: run_random_games_nb(template, *a)):
        games, players = game.game_fields(None).buffer(3), game.player_fields(None).buffer(3, 3)
        log, err = np.zeros((20_000, len(E.EVENT_FIELDS)), np.int64), np.full(8, -1, np.int64)
        assert kernel(seeds, games, players, log, err)
        got.append((games, players, log[:err[E.ERR_EVENTS]]))
    assert err[E.ERR_EVENTS] <= len(log)              # every event row kept
    (g1, p1, l1), (g2, p2, l2) = got
    assert len(l1) > 1000 and (g1 == g2).all() and (p1 == p2).all() and np.array_equal(l1, l2)


def test_the_random_bots_direct_draws_are_the_listings_draw():
    """The setup's, a draft's and a mill return's answers are drawn without listing them:
    from the same stream, the same answer as the rand_below(n)-th of legal_nb's n."""
    from cargo_sim.core.layout import M_BOT_RNG
    from cargo_sim.core.rng_nb import rand_below_at_nb
    from cargo_sim.games.shipwrights.bots.random_nb import random_at_nb
    rng = random.Random(3)
    seen = {E.D_START: 0, E.D_DRAFT: 0, E.D_RETURN: 0}
    for seed in (1, 2):
        s, _ = T.new_state(4, seed=seed)
        while s[E.G_ASK] >= 0:
            listed = T.legal(s)
            kind = int(s[E.G_ASK])
            if kind in seen:
                seen[kind] += 1
                for k in range(3):                      # a few streams: different draws
                    s[M_BOT_RNG] = rng.getrandbits(62)
                    t = s.copy()
                    want = listed[rand_below_at_nb(t, M_BOT_RNG, len(listed))]
                    assert random_at_nb(kind, s, int(s[E.G_SEAT]), M_BOT_RNG) == want
                    assert s[M_BOT_RNG] == t[M_BOT_RNG]     # one draw, as the listing's
            # buy goods often: mills overflow with two kinds or more (a return to choose)
            goods = [a for a in listed if E.A_GOODS <= a < E.A_PLAY]
            T.step(s, rng.choice(goods) if goods and rng.random() < 0.6 else rng.choice(listed))
    assert seen[E.D_RETURN] >= 5 and seen[E.D_DRAFT] > 0 and seen[E.D_START] > 0, seen
