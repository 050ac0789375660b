"""Macao's bots: the registry (names, parameters, kernels named as "module:attr", so
listing the bots compiles nothing) and the core's user-bot plumbing."""
from ....core import userbots
from ....core.bots import BotRegistry, BotSpec, register_search_bots
from ....core.layout import N_PARAMS
from ....core.search.params import search_docs, search_params
from ....core.strong import TrainSpec, register_strong
from ..enums import PL, STATE_SIZE

REGISTRY = BotRegistry("macao", N_PARAMS)
_K = "cargo_sim.games.macao.bots."

# the heuristic family's parameters, in their slot order (greedy_nb.W_*)
# (from `fade` on, 0 keeps the family's first behaviour: docs/macao_study.md). gap_weight: a
# die whose cubes land on an empty rose side (a round without cubes costs a marker);
# crowd_weight: less value per tableau card beyond the 3rd while rounds remain (a full
# tableau makes the next drafts cost markers); end_draft: an end card's points, were it
# completed now, in the draft; quarter_dice: a pair of dice whose lots, arriving together,
# pay an open quarter's printed cost (a quarter's two colours are paid in one round)
GREEDY_PARAMS = {"coin_weight": 0.5, "city_weight": 1.0, "goods_weight": 2.0, "ship_weight": 0.3,
                 "card_weight": 0.5, "wall_weight": 0.3, "joker_weight": 1.5, "patience": 0.3,
                 "fade": 0.0, "delivery_weight": 0.0, "need_weight": 0.0, "keep": 0.0,
                 "draft_fit": 0.0, "gap_weight": 0.0, "crowd_weight": 0.0, "end_draft": 0.0,
                 "quarter_dice": 0.0}
STRATEGIES = {
    "greedy": ({}, "one-step look-ahead on a balanced value of points, coins, the city group, "
                   "goods, the ship, active cards and the wall"),
    "builder": ({"city_weight": 2.5, "goods_weight": 1.0, "ship_weight": 0.1},
                "city builder: greedy valuing the connected group of quarters most"),
    "shipper": ({"goods_weight": 3.0, "ship_weight": 0.8, "city_weight": 0.5},
                "shipper: greedy valuing goods held and the ship's progress most"),
}

REGISTRY.tune_opponents = tuple(STRATEGIES)          # `tune`'s default field: the named strategies

# plausible values of each parameter: what a user may set, and `tune`'s default search space
GREEDY_RANGES = {**{k: (0.0, 6.0, False) for k in GREEDY_PARAMS}, "patience": (0.0, 1.5, False),
                 "fade": (0.0, 12.0, False), "delivery_weight": (0.0, 12.0, False),
                 "keep": (0.0, 1.0, False), "gap_weight": (0.0, 8.0, False),
                 "crowd_weight": (0.0, 6.0, False), "end_draft": (0.0, 2.0, False),
                 "quarter_dice": (0.0, 8.0, False)}

REGISTRY.register_builtin(BotSpec(
    "random", _K + "random_nb:random_decide_nb", {},
    "at every decision a uniformly random legal answer (engine.legal_nb), from the seat's own stream"))
for _name, (_over, _doc) in STRATEGIES.items():
    REGISTRY.register_builtin(BotSpec(_name, _K + "greedy_nb:greedy_decide_nb",
                                      {**GREEDY_PARAMS, **_over}, _doc, ranges=GREEDY_RANGES))

# expert (docs/macao_study.md): the weights a first `tune` search found (random search against
# greedy: cargo-sim tune --game macao --bot greedy --opponents greedy --seats 2 --evals 40
# --games-per-eval 400 --fresh-games 2000 --seed 11 --method random ...), and the family's draft fit, dice for the tableau's needs, colours kept and delivery values; a
# random search from this set over every weight (seed 41, 80 sets of 800 games) found nothing
# stronger (3,000 fresh games against greedy: 81.1 % [79.7, 82.5]).
EXPERT = {**GREEDY_PARAMS,            # (in the slot order)
          "coin_weight": 1.1, "city_weight": 2.01, "goods_weight": 1.9, "ship_weight": 0.55,
          "card_weight": 0.54, "wall_weight": 0.62, "joker_weight": 1.46, "patience": 0.19,
          "draft_fit": 0.5, "need_weight": 0.5, "keep": 1.0, "delivery_weight": 1.0}
REGISTRY.register_builtin(BotSpec(
    "expert", _K + "greedy_nb:greedy_decide_nb", EXPERT,
    "the heuristic family's strongest parameters found by `tune` against greedy at 2 players "
    "(docs/macao_study.md): coins and the city group valued higher, cards lower, impatient; "
    "drafts cards whose cubes are coming, picks dice for its cards' colours, pays with the "
    "colours they do not need, values goods by the delivery ahead",
    ranges=GREEDY_RANGES))

# how `strong` is trained (`cargo-sim train strong`, docs/bots.md "The strong bot"): expert's
# weights and the family's later rules, against experts at 2 and 4 players and mixed 4-player
# fields (the named strategies and perturbed experts, so that it does not merely exploit one
# deterministic opponent). The search starts at expert's values clipped to these ranges: the
# later rules' low ends (gap_weight 2, end_draft 0.3, quarter_dice 2) are where quick duels
# against expert put them on
REGISTRY.train = TrainSpec(
    family="expert",
    space={"coin_weight": (0.7, 1.6), "city_weight": (1.4, 3.0), "goods_weight": (1.2, 3.0),
           "ship_weight": (0.2, 0.9), "card_weight": (0.2, 0.9), "wall_weight": (0.4, 1.0),
           "joker_weight": (0.8, 2.2), "patience": (0.0, 0.5), "draft_fit": (0.2, 1.0),
           "need_weight": (0.1, 1.0), "delivery_weight": (0.4, 1.6), "gap_weight": (2.0, 6.0),
           "crowd_weight": (0.0, 2.0), "end_draft": (0.3, 1.5), "quarter_dice": (2.0, 6.0)},
    fields={2: (("expert",),),
            4: (("expert", "expert", "expert"),
                ("greedy", "builder", "expert?coin_weight=1.3&wall_weight=0.8"),
                ("shipper", "expert?city_weight=2.5&draft_fit=0.8", "expert?need_weight=1&patience=0.3"))},
    weights={2: 1.0, 4: 1.0}, games_per_eval=1000, popsize=12, generations=20, finalists=5,
    validation_games=4000, fresh_games=10000)

# strong: expert's kernel with the trained parameters of bots/strong.toml (after the other
# heuristics, before the search bots, whose model it is; never in a default mix)
register_strong(REGISTRY, "cargo_sim.games.macao")

# the core's search bots, registered after every other built-in (those are their models,
# in table order: search bots registered before another built-in would shift its index)
SEARCH_PARAMS = search_params(
    {"max_options": (0.0, "options tried per decision: every legal answer (0), or the model "
                          "bot's answer and the first max_options - 1 others")},
    opponent="greedy", rollout="greedy")
SEARCH_DOCS = search_docs(options="its legal answers",
                          hidden="the deck's order, the dice and the other seats' random streams")
MODELS = register_search_bots(REGISTRY, _K + "dispatch_nb:table_decide_nb", SEARCH_PARAMS, SEARCH_DOCS,
                              {"max_options": (0, 1024, True)})

# user bots (@bot(..., game="macao")): a bot may write nothing of the game's words
REGISTRY.plumbing = userbots.Plumbing(
    table_decide=_K + "dispatch_nb:table_decide_nb",
    first_only_decide=_K + "dispatch_nb:random_table_nb",
    bot_fault=_K + "dispatch_nb:bot_fault_nb",
    state_size=STATE_SIZE, own=(STATE_SIZE, STATE_SIZE))
