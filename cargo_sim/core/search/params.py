"""The search bots' parameters: the core's (budget, models, reward, tree) and one
slot a game fills with its own option parameter (how its kit lists options).

``search_params(game_option)`` gives each search bot's parameters in their slot
order (``SP_*``), ``SEARCH_RANGES`` their ranges, ``search_docs(options, hidden)``
the bots' texts with the game's words filled in;
a game registers them as built-in bots (a ``BotSpec`` each, ``search=`` its kind).
"""
# the search bots' parameter slots (the bot reads slot i at PARAMS + seat * N_PARAMS + i)
SP_BUDGET = 0      # flatmc: rollouts per option; ismcts: iterations
SP_OPPONENT = 1    # the other seats' assumed bot (a built-in index)
SP_ROLLOUT = 2     # the bot playing the searcher's own seat after the search's choices
SP_GAME = 3        # the game's own option parameter (how its kit lists options)
SP_VP_WEIGHT = 4   # reward = win share + vp_weight * the game's score margin
SP_C = 5           # ismcts: UCT exploration constant
SP_WIDEN = 6       # ismcts: progressive widening below the root, options = 1 + widen * n^widen_exp
SP_WIDEN_EXP = 7
SP_OPP_WIDEN = 8   # ismcts: the same for the other seats' decisions (0: they are not in the tree)
SP_BIAS = 9        # ismcts: progressive bias bias / (n + 1) toward the model bot's answer
SP_THREADS = 10    # ismcts: trees searched in parallel (root-parallel), the budget split between them
# opponent modelling from public play (a game whose kit supports it: search_params(beliefs=True))
SP_MODEL = 11      # ismcts: 0 the `opponent` bot at every other seat; 1 a candidate per seat and
                   # determinization drawn from the posterior; 2 each seat's most likely candidate
SP_PRIOR = 12      # ismcts: prior probability of the `opponent` bot (the rest shared evenly)
SP_TREMBLE = 13    # ismcts: likelihood of an answer a candidate would not give (half a miss: a near one)
MODEL_FIXED, MODEL_SAMPLE, MODEL_MAP = 0, 1, 2
# cut playouts (a game whose kit can score an unfinished game: search_params(horizon=N))
SP_HORIZON = 14    # ismcts: turns a playout plays past the searched decision's turn before the
                   # kit scores it (0: to the end)

SEARCH_KINDS = {"flatmc": 1, "ismcts": 2}     # R_SEARCH's 2-bit kinds


def search_params(game_option: dict, opponent: str = "greedy", rollout: str = "expert",
                  beliefs: bool = False, ismcts_opponent: str | None = None,
                  horizon: int | None = None) -> dict:
    """{bot: {name: (default, meaning)}} in slot order; ``game_option``: the game's one
    option parameter {name: (default, meaning)} (slot SP_GAME); ``opponent`` and
    ``rollout``: the default model bots (names of the game's non-search built-ins);
    ``ismcts_opponent``: ismcts's own default `opponent` (else ``opponent``);
    ``beliefs``: the game's kit models the other seats from their public play
    (core.search.belief_nb), so ismcts gets `model`, `prior` and `tremble`;
    ``horizon``: the kit can stop a playout at a turn and score the unfinished game,
    so ismcts gets `horizon` with this default (slot SP_HORIZON: needs ``beliefs``, the
    slots before it); None: the game has no such scoring."""
    if horizon is not None and not beliefs:
        raise ValueError("search_params: horizon needs beliefs=True (slot order)")
    (opt_name, opt), = game_option.items()
    shared = {
        "opponent": (opponent, "the bot assumed at every other seat (a built-in non-search bot)"),
        "rollout": (rollout, "the bot playing the searcher's own later decisions in playouts"),
        opt_name: opt,
        "vp_weight": (0.01, "reward = win share + vp_weight x (own VP - best other VP)"),
    }
    ismcts_shared = dict(shared)
    if ismcts_opponent is not None:
        ismcts_shared["opponent"] = (ismcts_opponent, "the other seats' bot: the model's prior "
                                     "favourite, or the bot at every other seat (model=0)")
    ismcts = {"iterations": (1000.0, "iterations per decision"), **ismcts_shared,
                       "c": (0.7, "UCT exploration constant"),
                       "widen": (1.0, "below the root, options tried = 1 + widen x visits^widen_exp, "
                                      "the rollout bot's answer first"),
                       "widen_exp": (0.5, "the exponent of that progressive widening"),
                       "opp_widen": (2.0, "widen for the other seats' decisions in the tree, "
                                          "the opponent bot's answer first (0: not in the tree)"),
                       "bias": (3.0, "UCT bonus bias / (visits + 1) for the model bot's own answer"),
                       "threads": (1.0, "trees searched at once on their own threads (root-parallel), "
                                        "the iterations split between them; reproducible for a given "
                                        "seed and thread count")}
    if beliefs:
        ismcts.update({
            "model": (1.0, "the other seats in playouts: 0 `opponent` at every seat; 1 per seat and "
                           "determinization a candidate (each non-random built-in) drawn from the "
                           "posterior given that seat's public answers so far; 2 its most likely one"),
            "prior": (0.5, "prior probability of `opponent` among the candidates (the rest share "
                           "the remainder evenly)"),
            "tremble": (0.1, "likelihood of an observed answer the candidate would not give (a "
                             "near one, e.g. the same kind of answer with another amount: its square root)")})
    if horizon is not None:
        ismcts["horizon"] = (float(horizon), "turns a playout plays after the searched decision's turn "
                                  "before the game is scored from its holdings (0: to the end)")
    return {"flatmc": {"rollouts": (16.0, "playouts per option (the same futures for every option)"),
                       **shared},
            "ismcts": ismcts}


# the search parameters' ranges (lo, hi, whole numbers only), checked when a player is
# parsed: every accepted value plays; the work per decision grows with rollouts and
# iterations, and the tree's memory with iterations (~200 bytes each); with threads > 1
# each thread copies the whole state once per decision
SEARCH_RANGES = {
    "rollouts": (1, 100_000, True), "iterations": (1, 100_000, True),
    "vp_weight": (-1000, 1000, False), "c": (0, 100, False), "widen": (0, 100, False),
    "widen_exp": (0, 1, False), "opp_widen": (0, 100, False), "bias": (-1000, 1000, False),
    "threads": (1, 16, True), "model": (0, 2, True), "prior": (0, 1, False),
    "tremble": (0.0001, 0.9, False), "horizon": (0, 100, True),
}


# the search bots' texts (the bot listing, docs/bots.md); {options}: how the game's kit
# lists a decision's options, {hidden}: what a determinization resamples
SEARCH_DOCS = {
    "flatmc": """Flat Monte Carlo: plays every option of each decision ({options})
    out to the end `rollouts` times with the assumed bots, the same futures for every
    option, and answers the best mean (win share). Sees only what its seat may know.""",
    "ismcts": """Information-set Monte Carlo tree search (single observer): per
    iteration a new determinization of {hidden} from its own
    stream, UCT over every seat's decisions with progressive widening from the
    model bots' answers (the other seats modelled by `opponent`, its own later
    decisions by `rollout`); answers the most visited option.
    The strength yardstick for the heuristics (docs/forward.md).""",
}


def search_docs(options: str, hidden: str) -> dict:
    """{bot: its text on one line} with the game's words: ``options`` (how its kit
    lists a decision's options), ``hidden`` (what a determinization resamples)."""
    return {name: " ".join(text.format(options=options, hidden=hidden).split())
            for name, text in SEARCH_DOCS.items()}
