"""The heuristic bots read their parameters by slot (heuristic_nb.HP_*): the slots must
follow the order of strategies.PARAMS, one slot per parameter, named alike."""
from cargo_sim.games.cargo_noir.bots import heuristic_nb
from cargo_sim.games.cargo_noir.bots.strategies import PARAMS
from cargo_sim.games.cargo_noir.enums import N_PARAMS


def slot_problems(slots: dict, params: list) -> list:
    """Mismatches between slot constants {"HP_NAME": index} and the ordered parameter names."""
    problems = []
    by_name = {name[len("HP_"):].lower(): i for name, i in slots.items()}
    if sorted(by_name.values()) != list(range(len(by_name))):
        problems.append(f"slots are not 0..{len(by_name) - 1} once each: {sorted(by_name.values())}")
    for i, p in enumerate(params):
        if by_name.get(p) != i:
            problems.append(f"parameter {i} {p!r} has slot {by_name.get(p)}")
    problems += [f"slot HP_{n.upper()} has no parameter" for n in by_name if n not in params]
    return problems


def hp_slots(module) -> dict:
    return {k: v for k, v in vars(module).items() if k.startswith("HP_") and isinstance(v, int)}


def test_heuristic_slots_follow_params():
    slots = hp_slots(heuristic_nb)
    assert slots, "no HP_* slot constants found"
    assert slot_problems(slots, list(PARAMS)) == []
    assert len(PARAMS) <= N_PARAMS


def test_slot_check_catches_a_swap_and_a_gap():
    params = ["coin_value", "bid_margin", "hold"]
    assert slot_problems({"HP_COIN_VALUE": 0, "HP_BID_MARGIN": 1, "HP_HOLD": 2}, params) == []
    assert slot_problems({"HP_COIN_VALUE": 1, "HP_BID_MARGIN": 0, "HP_HOLD": 2}, params)
    assert slot_problems({"HP_COIN_VALUE": 0, "HP_BID_MARGIN": 1}, params)
    assert slot_problems({"HP_COIN_VALUE": 0, "HP_BID_MARGIN": 1, "HP_HOLD": 3}, params)
