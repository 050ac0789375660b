"""Shipwrights' bot registry (names, parameters, kernels named as "module:attr", so
listing the bots compiles nothing) and the core's user-bot plumbing."""
from ....core import userbots
from ....core.bots import BotRegistry, BotSpec, register_search_bots
from ....core.layout import N_PARAMS
from ....core.search.params import search_docs, search_params
from ....core.strong import TrainSpec, register_strong
from ..enums import STATE_SIZE

REGISTRY = BotRegistry("shipwrights", N_PARAMS)
_K = "cargo_sim.games.shipwrights.bots."

# the heuristic family's parameters, in their slot order (heuristic_nb.W_*)
HEURISTIC_PARAMS = {"gold_weight": 0.04, "worker_weight": 0.08, "goods_weight": 0.05,
                    "craft_weight": 0.15, "yard_weight": 0.6, "military_weight": 0.3,
                    "civil_weight": 0.0, "attack_weight": 0.0, "treasury_weight": 0.0,
                    "token_weight": 0.5, "hand_weight": 0.05, "draft_ship": 1.0,
                    "lookahead": 0.0}
# lookahead: a switch, on above 0 (when no single action raises the value, the first of
# a pair that does); a number, not a whole one, so a training's search can reach it
HEURISTIC_RANGES = {**{k: (0.0, 4.0, False) for k in HEURISTIC_PARAMS}, "lookahead": (0.0, 1.0, False)}
STRATEGIES = {
    "builder": ({}, "one-step look-ahead on a balanced value of points, resources, ships in the "
                    "yards and craftsmen"),
    "military": ({"military_weight": 1.2, "token_weight": 1.0, "civil_weight": 0.0},
                 "military builder: values red flags and the military token most"),
    "boathouse": ({"civil_weight": 1.2, "military_weight": 0.0, "token_weight": 0.0},
                  "Boat House builder: non-military ships (Ferje, Byrding, Knarr) and the Boat House"),
    "attacker": ({"attack_weight": 0.6},
                 "attacker: plays the take-that townsfolk (Assassin, Barbarian, Conspirator, Raider, "
                 "Thief, Mercenary, Berserker) against the leaders' progress"),
    "economy": ({"treasury_weight": 0.5, "gold_weight": 0.08},
                "economy player: gold and the Treasury"),
}
REGISTRY.tune_opponents = tuple(STRATEGIES)

REGISTRY.register_builtin(BotSpec(
    "random", _K + "random_nb:random_decide_nb", {},
    "at every decision a uniformly random legal answer (engine.legal_nb), from the seat's own stream"))
for _name, (_over, _doc) in STRATEGIES.items():
    REGISTRY.register_builtin(BotSpec(_name, _K + "heuristic_nb:heuristic_decide_nb",
                                      {**HEURISTIC_PARAMS, **_over}, _doc, ranges=HEURISTIC_RANGES))
# expert: the best of 12 parameter sets tried against the five named strategies at 2 players
# (300 games a side and seating each): 63.8 % of those games won (attacker 61.7 %, military 59.1 %)
EXPERT = {**HEURISTIC_PARAMS, "military_weight": 1.2, "token_weight": 1.0, "attack_weight": 0.6,
          "draft_ship": 1.5}
REGISTRY.register_builtin(BotSpec(
    "expert", _K + "heuristic_nb:heuristic_decide_nb", EXPERT,
    "the heuristic family's strongest parameters found against its named strategies: "
    "military flags and the token, attacks on the leaders' progress, ships drafted eagerly",
    ranges=HEURISTIC_RANGES))

# how `strong` is trained (`cargo-sim train strong`, docs/bots.md "The strong bot"): the
# expert's weights near their values (far from them the one-step value hoards and never
# builds) and the lookahead switch, against experts and a mixed field with perturbed experts
REGISTRY.train = TrainSpec(
    family="expert",
    space={"gold_weight": (0.0, 0.2), "worker_weight": (0.0, 0.3), "goods_weight": (0.0, 0.2),
           "craft_weight": (0.0, 0.5), "yard_weight": (0.2, 1.5), "military_weight": (0.5, 2.5),
           "civil_weight": (0.0, 0.6), "attack_weight": (0.2, 1.2), "treasury_weight": (0.0, 0.5),
           "token_weight": (0.3, 2.0), "hand_weight": (0.0, 0.2), "draft_ship": (0.5, 3.0),
           "lookahead": (0.0, 1.0)},
    fields={2: (("expert",), ("expert?attack_weight=0.9&draft_ship=2",)),
            4: (("expert", "expert", "expert"),
                ("expert", "attacker", "military"),
                ("expert?military_weight=0.9&yard_weight=0.8", "expert?draft_ship=2.2",
                 "expert?attack_weight=0.9&token_weight=1.4"))},
    weights={2: 1.0, 4: 1.0}, games_per_eval=800, popsize=12, generations=16, finalists=4,
    validation_games=3000, fresh_games=8000)
# strong: the expert's family with the trained values of bots/strong.toml (after the
# heuristics, so the search bots may model it)
register_strong(REGISTRY, "cargo_sim.games.shipwrights")

SEARCH_PARAMS = search_params(
    {"max_options": (0.0, "options tried per decision: every legal answer (0), or the model "
                          "bot's answer and the first max_options - 1 others")},
    opponent="expert", rollout="expert")
SEARCH_DOCS = search_docs(options="its legal answers",
                          hidden="the deck's order, the other seats' hands (less the cards it passed "
                                 "them in the draft), the face-down discards and the other seats' streams")
MODELS = register_search_bots(REGISTRY, _K + "dispatch_nb:table_decide_nb", SEARCH_PARAMS, SEARCH_DOCS,
                              {"max_options": (0, 2048, True)})

REGISTRY.plumbing = userbots.Plumbing(
    table_decide=_K + "dispatch_nb:table_decide_nb",
    first_only_decide=_K + "dispatch_nb:random_table_nb",
    bot_fault=_K + "dispatch_nb:bot_fault_nb",
    state_size=STATE_SIZE, own=(STATE_SIZE, STATE_SIZE))
