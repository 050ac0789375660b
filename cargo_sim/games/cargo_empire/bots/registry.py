"""Cargo Empire's bot registry: names, parameters and kernels ("module:attr", so listing
the bots compiles nothing), and the core's user-bot plumbing."""
from ....core import userbots
from ....core.bots import BotRegistry, BotSpec
from ....core.layout import N_PARAMS
from ....core.search.params import SEARCH_KINDS, SEARCH_RANGES, search_docs, search_params
from ....core.strong import TrainSpec, register_strong
from ..enums import STATE_SIZE

REGISTRY = BotRegistry("cargo_empire", N_PARAMS)
_K = "cargo_sim.games.cargo_empire.bots."

# the heuristic family's weights, in their slot order (greedy_nb.W_*)
GREEDY_PARAMS = {"step": 1.0, "card_cost": 0.6, "ship_cost": 0.3, "perfect": 1.0, "upgrade": 0.5,
                 "lv3": 2.0, "supply": 0.5, "mission": 1.0, "focus": 0.0, "city": 0.5,
                 "reward_card": 0.8, "reward_city": 2.0, "reward_mission": 1.0, "vp": 1.0,
                 "hand": 1.0}
GREEDY_RANGES = {k: (0.0, 10.0, False) for k in GREEDY_PARAMS}
STRATEGIES = {
    "greedy": ({}, "one-step value of a delivery: development steps and the rewards they pass, "
                   "cards spent, upgrades, LV3 posts, new supply, missions"),
    "shortest": ({"card_cost": 2.5, "ship_cost": 1.0, "step": 0.3},
                 "shortest delivery: spends as few cards as it can, ships last"),
    "upgrader": ({"perfect": 4.0, "upgrade": 2.0, "lv3": 4.0},
                 "upgrade chaser: completes cities, above all perfect upgrades and LV3 posts"),
    "racer": ({"focus": 2.0, "step": 1.5, "vp": 2.0},
              "development racer: pushes its leading vehicle towards the score spaces"),
    "missioner": ({"mission": 5.0, "reward_mission": 3.0},
                  "mission hunter: deliveries that advance its missions, mission rewards"),
    "collector": ({"city": 3.0, "reward_city": 5.0},
                  "city-card collector: city bonuses and city-card rewards"),
}
# expert: the heuristic family's weights tuned at 2 players (`cargo-sim tune --game
# cargo_empire --seats 2`, differential evolution against the named strategies; the
# strength table and how it was measured: docs/rules_cargo_empire.md, "Bots")
EXPERT = {**GREEDY_PARAMS, "step": 1.16, "card_cost": 6.81, "ship_cost": 7.55, "perfect": 4.19,
          "upgrade": 8.88, "lv3": 9.23, "supply": 2.49, "mission": 3.45, "focus": 8.74, "city": 8.81,
          "reward_card": 0.33, "reward_city": 6.79, "reward_mission": 9.27, "vp": 4.92, "hand": 1.5}

REGISTRY.register_builtin(BotSpec(
    "random", _K + "random_nb:random_decide_nb", {},
    "at every decision a uniformly random legal answer, from the seat's own stream"))
for _name, (_over, _doc) in STRATEGIES.items():
    REGISTRY.register_builtin(BotSpec(_name, _K + "greedy_nb:greedy_decide_nb",
                                      {**GREEDY_PARAMS, **_over}, _doc, ranges=GREEDY_RANGES))
REGISTRY.register_builtin(BotSpec(
    "expert", _K + "greedy_nb:greedy_decide_nb", EXPERT,
    "the heuristic family's weights tuned against the named strategies: sparing with cards "
    "(ships above all), upgrades and LV3 posts, city cards and bonuses, its leading "
    "vehicle, mission rewards", ranges=GREEDY_RANGES))
REGISTRY.tune_opponents = tuple(STRATEGIES)
# how `strong` is trained (`cargo-sim train strong`, docs/bots.md "The strong bot"): every
# weight from 0.4 to 1.8 times the expert's (within the family's 0-10), against experts and a
# mixed field with perturbed experts
REGISTRY.train = TrainSpec(
    family="expert",
    space={"step": (0.5, 2.1), "card_cost": (2.7, 10.0), "ship_cost": (3.0, 10.0),
           "perfect": (1.7, 7.5), "upgrade": (3.6, 10.0), "lv3": (3.7, 10.0), "supply": (1.0, 4.5),
           "mission": (1.4, 6.2), "focus": (3.5, 10.0), "city": (3.5, 10.0),
           "reward_card": (0.1, 1.0), "reward_city": (2.7, 10.0), "reward_mission": (3.7, 10.0),
           "vp": (2.0, 8.9), "hand": (0.6, 2.7)},
    fields={2: (("expert",), ("expert?card_cost=5&focus=6&reward_mission=7",)),
            4: (("expert", "expert", "expert"),
                ("expert", "upgrader", "racer"),
                ("expert?ship_cost=5&lv3=7", "expert?city=6&reward_city=9",
                 "expert?upgrade=6&mission=5"))},
    weights={2: 1.0, 4: 1.0}, games_per_eval=1000, popsize=14, generations=18, finalists=4,
    validation_games=4000, fresh_games=10000)
# strong: the expert's family with the trained values of bots/strong.toml (after the
# heuristics, so the search bots may model it)
register_strong(REGISTRY, "cargo_sim.games.cargo_empire")

# user bots (@bot(..., game="cargo_empire")): a bot may write nothing of the game's words
REGISTRY.plumbing = userbots.Plumbing(
    table_decide=_K + "dispatch_nb:table_decide_nb",
    first_only_decide=_K + "dispatch_nb:random_table_nb",
    bot_fault=_K + "dispatch_nb:bot_fault_nb",
    state_size=STATE_SIZE, own=(STATE_SIZE, STATE_SIZE))

# the core's search bots, registered after every other built-in (those are their models,
# in table order)
MODELS = tuple(REGISTRY.builtin_order)
SEARCH_PARAMS = search_params(
    {"max_options": (0.0, "options tried per decision: every legal answer (0), or the model "
                          "bot's answer and the first max_options - 1 others")},
    opponent="expert", rollout="expert")
SEARCH_DOCS = search_docs(options="its legal answers",
                          hidden="the decks' order, the other seats' missions and unrevealed city "
                                 "cards, the tile bag and the other seats' random streams")
for _name, _kind in SEARCH_KINDS.items():
    _params, _bot_params = {}, []
    for _k, (_default, _) in SEARCH_PARAMS[_name].items():
        if isinstance(_default, str):
            _default = float(MODELS.index(_default))
            _bot_params.append(_k)
        _params[_k] = float(_default)
    REGISTRY.register_builtin(BotSpec(
        _name, _K + "dispatch_nb:table_decide_nb", _params, SEARCH_DOCS[_name], search=_kind,
        bot_params=tuple(_bot_params), models=MODELS,
        ranges={**{k: r for k, r in SEARCH_RANGES.items() if k in _params},
                "max_options": (0, 16384, True)}))
