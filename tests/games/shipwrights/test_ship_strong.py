"""Shipwrights' `strong` bot: the heuristic's lookahead switch on a planted afternoon, and
the trained bot's registration (bots/strong.toml)."""
import pytest

from cargo_sim.core.contract import get_game
from cargo_sim.core.errors import BotError, ConfigError
from cargo_sim.games.shipwrights import enums as E
from cargo_sim.games.shipwrights import testing as T
from cargo_sim.games.shipwrights.bots.heuristic_nb import heuristic_decide_nb
from cargo_sim.games.shipwrights.rules import Rules

R = Rules.default()
BOTS = get_game("shipwrights").bots


def snekkja_afternoon(lookahead):
    """A Snekkja (2 gold, 1 worker, 1 oak, 1 iron) in the yard, its craftsman on the board,
    4 gold, 3 workers, 1 oak: buying iron (2 gold, 2 workers) and completing it is the
    only way to the ship today; the purchase alone lowers the value when workers weigh 0.21."""
    s, _ = T.new_state(2, seed=3, players=[f"expert?worker_weight=0.21&lookahead={lookahead}", "expert"])
    return T.afternoon(s, R, 0, craftsmen=["Shipwright"], yards=["Snekkja"], gold=4, workers=3,
                       goods=[1, 0, 0])


def test_without_lookahead_a_purchase_that_lowers_the_value_is_not_made():
    s = snekkja_afternoon(0)
    assert heuristic_decide_nb(E.D_ACTION, s, 0) == E.A_END


def test_the_lookahead_buys_the_missing_iron_then_completes_the_ship():
    s = snekkja_afternoon(1)
    a = heuristic_decide_nb(E.D_ACTION, s, 0)
    assert a == E.A_GOODS + R["goods"].index("iron")
    T.step(s, a)
    a = heuristic_decide_nb(E.D_ACTION, s, 0)
    assert a >= E.A_COMPLETE
    T.step(s, a)
    assert T.seat_word(s, 0, E.P_N_DONE) == 1 and T.invariants(s, R) == []


@pytest.mark.parametrize("value", ["-0.5", "1.5"])
def test_the_lookahead_is_a_number_from_0_to_1(value):
    with pytest.raises((BotError, ConfigError), match="lookahead"):
        BOTS.parse(f"expert?lookahead={value}")


def test_strong_is_the_expert_family_with_the_trained_values_out_of_the_default_mixes():
    from cargo_sim.core.strong import load_strong
    data = load_strong("cargo_sim.games.shipwrights", BOTS)
    spec = BOTS.get("strong")
    assert data.family == "expert" and spec.decide == BOTS.get("expert").decide
    assert spec.params == data.params and spec.params["lookahead"] > 0
    order = BOTS.builtin_order
    assert order.index("expert") < order.index("strong") < order.index("flatmc")
    assert all("strong" not in BOTS.default_players(n) for n in (2, 3, 4, 5))
    assert data.provenance["measured"]["p2_f0"]["win_rate"] > 0.5
