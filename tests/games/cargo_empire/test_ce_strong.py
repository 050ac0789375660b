"""Cargo Empire's `strong` bot: the greedy family with the trained values of
bots/strong.toml, registered as a search model row and left out of the default mixes."""
from cargo_sim.core.contract import get_game
from cargo_sim.core.strong import load_strong

BOTS = get_game("cargo_empire").bots


def test_strong_is_the_expert_family_with_the_trained_values_out_of_the_default_mixes():
    data = load_strong("cargo_sim.games.cargo_empire", BOTS)
    spec = BOTS.get("strong")
    assert data.family == "expert" and spec.decide == BOTS.get("expert").decide
    assert spec.params == data.params and spec.params != BOTS.get("expert").params
    order = BOTS.builtin_order
    assert order.index("expert") < order.index("strong") < order.index("flatmc")
    assert "strong" in BOTS.get("ismcts").models
    assert all("strong" not in BOTS.default_players(n) for n in (2, 3, 4, 5))


def test_the_search_bots_still_model_expert_by_default():
    # strong is registered after expert: the search bots' default model keeps its index
    ismcts = BOTS.get("ismcts")
    for k in ismcts.bot_params:
        assert ismcts.models[int(ismcts.params[k])] == "expert"
