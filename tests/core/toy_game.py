"""A tiny game registered only in the tests ("race to N"), to prove that the core
holds no Cargo Noir assumption: it runs through the same runner, registry and
contract, its state starts with the core header (core/layout.py), its bots are
asked through the core's ask_nb, user bots (@bot with game="toy_race") and the
core's search bots (core/search, bound to the small kit below) play it. Each turn the seat to move picks 1-3 steps, then a die roll (chance,
from the game's own stream) adds 1-6; the first seat at or beyond the target
wins. It has a forward model (begin / pending / legal / step) and the chunk
kernel is the compiled loop "ask the bot, step", so one place holds each rule.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from numba import njit

from cargo_sim.core import userbots
from cargo_sim.core.borrow_nb import LazyAddress, state_ptr_nb
from cargo_sim.core.bots import BotRegistry, BotSpec
from cargo_sim.core.contract import ERR_EVENTS, ERR_GAME, Fields, GameBase
from cargo_sim.core.dispatch_nb import NOT_PLUMBED, ask_nb, plumbed_nb
from cargo_sim.core.errors import ConfigError, IllegalDecisionError
from cargo_sim.core.forward import ForwardModel, GameState
from cargo_sim.core.layout import (BOT_FAULT, BOTS, HEADER_LEN, M_BOT_RNG, M_BOT_SEED, M_DECISIONS,
                                   M_RNG, M_SEAT_KEY, MARKS, MARKS_END, N_PARAMS, PARAM_SCALE,
                                   PARAMS, R_LEN, R_N_PLAYERS, R_SEARCH, R_SEARCH_FN, R_USER_BASE,
                                   R_USER_FN)
from cargo_sim.core.rng_nb import bot_seed_nb, game_seed_nb, keyed_stream_nb, rand_below_at_nb, seat_stream_nb
from cargo_sim.core.rules import RulesBase
from cargo_sim.core.search.flatmc_nb import flatmc_nb
from cargo_sim.core.search.ismcts_nb import (best_root_nb, ismcts_nb, ismcts_parallel_nb,
                                             ismcts_tree_nb, ismcts_worker_nb)
from cargo_sim.core.search.params import (SEARCH_KINDS, SEARCH_RANGES, SP_BUDGET, SP_GAME, SP_THREADS,
                                          search_docs, search_params)

# state layout: the core header (core/layout.py), then the toy's words
N_PL = R_N_PLAYERS
RNG = M_RNG
TARGET, DIE, TURN, SEAT, ASK, WINNER = (HEADER_LEN + i for i in range(6))
POS, PICKED, ROLLED = HEADER_LEN + 8, HEADER_LEN + 12, HEADER_LEN + 16
STOP, BAD = HEADER_LEN + 6, HEADER_LEN + 7    # the forward model's stop: an illegal pick
SIZE = HEADER_LEN + 20
D_PICK = 0                   # the one decision kind
DECISIONS = ("pick",)
SCALE = PARAM_SCALE
MAX_TURNS = 10_000          # a bound the rules never reach (every turn moves >= 2 steps)
EVENT_FIELDS = ("game", "turn", "seat", "pick", "roll", "pos")


# ---- rules (the forward model's kernels: one place for every rule) ---------------
@njit(cache=True)
def begin_nb(s, seed):
    for i in range(MARKS, MARKS_END):
        s[i] = 0
    for q in range(4):
        s[POS + q] = 0
        s[PICKED + q] = 0
        s[ROLLED + q] = 0
    s[RNG] = np.int64(seed)
    s[M_BOT_SEED] = bot_seed_nb(np.int64(seed))
    s[TURN], s[SEAT], s[ASK], s[WINNER] = 1, 0, D_PICK, -1
    s[STOP], s[BAD] = 0, 0


@njit(cache=True)
def pending_nb(s):
    """(decision kind, seat); kind -1 when the game is over."""
    return s[ASK], s[SEAT]


@njit(cache=True)
def legal_nb(s, out):
    if s[ASK] < 0:
        return 0
    for k in range(3):
        out[k] = k + 1
    return 3


@njit(cache=True)
def is_legal_nb(s, answer):
    return s[ASK] == D_PICK and 1 <= answer <= 3


@njit(cache=True)
def step_nb(s, answer, log, n_events, game):
    """Apply the seat's pick, roll the die, move on; returns the events written."""
    seat = s[SEAT]
    roll = 1 + rand_below_at_nb(s, RNG, s[DIE])
    s[POS + seat] += answer + roll
    s[PICKED + seat] += answer
    s[ROLLED + seat] += roll
    s[M_DECISIONS] += 1
    if n_events < log.shape[0]:
        log[n_events, 0], log[n_events, 1], log[n_events, 2] = game, s[TURN], seat
        log[n_events, 3], log[n_events, 4], log[n_events, 5] = answer, roll, s[POS + seat]
    if s[POS + seat] >= s[TARGET] or s[TURN] >= MAX_TURNS:
        s[WINNER], s[ASK] = seat, -1
    else:
        s[SEAT] = (seat + 1) % s[N_PL]
        if s[SEAT] == 0:
            s[TURN] += 1
    return n_events + 1


@njit(cache=True, nogil=True)
def run_games_nb(template, decide, seeds, out_games, out_players, log, err):
    """The chunk kernel: every game from the template, asking the table's bots."""
    s = template.copy()
    n_events = 0
    for g in range(seeds.shape[0]):
        for i in range(SIZE):
            s[i] = template[i]
        begin_nb(s, seeds[g])
        while s[ASK] >= 0:
            seat = s[SEAT]
            a = ask_array_nb(decide, s[ASK], s, seat)
            if not is_legal_nb(s, a):
                err[ERR_GAME], err[1], err[2], err[3], err[4] = g, s[ASK], seat, a, s[TURN]
                err[ERR_EVENTS] = n_events
                return False
            n_events = step_nb(s, a, log, n_events, g)
        n = s[N_PL]
        out_games[g, 0], out_games[g, 1], out_games[g, 2] = n, s[TURN], s[WINNER]
        for q in range(n):
            out_players[g, q, 0] = s[POS + q]
            out_players[g, q, 1] = s[PICKED + q]
            out_players[g, q, 2] = s[ROLLED + q]
            out_players[g, q, 3] = 1 if s[WINNER] == q else 0
    err[ERR_EVENTS] = n_events
    return True


@njit(cache=True)
def ask_array_nb(decide, kind, s, seat):
    return ask_nb(decide, kind, state_ptr_nb(s), seat)


# ---- bots ------------------------------------------------------------------------
@njit(cache=True)
def random_bot_nb(kind, s, seat):
    """Its seat's own stream (M_BOT_RNG), never the game's."""
    return 1 + rand_below_at_nb(s, M_BOT_RNG, 3)


@njit(cache=True)
def model_bot_nb(kind, s, seat):
    """`random` in the search's determinized copies: draws from the copy's chance stream."""
    return 1 + rand_below_at_nb(s, RNG, 3)


@njit(cache=True)
def cautious_bot_nb(kind, s, seat):
    """3 steps, but 1 within `margin` of the target (a parameter)."""
    margin = s[PARAMS + seat * N_PARAMS] // SCALE
    return 1 if s[TARGET] - s[POS + seat] <= margin else 3


@njit(cache=True)
def cheat_bot_nb(kind, s, seat):
    """Answers 4 on turn 3 (an illegal pick)."""
    return 4 if s[TURN] == 3 else 2


@njit(cache=True)
def table_decide_nb(kind, s, seat):
    ans = plumbed_nb(kind, state_ptr_nb(s), seat)     # user and search bots (the core's)
    if ans != NOT_PLUMBED:
        return ans
    b = s[BOTS + seat]
    if b == 0:
        return random_bot_nb(kind, s, seat)
    if b == 1:
        return cautious_bot_nb(kind, s, seat)
    return cheat_bot_nb(kind, s, seat)


@njit(cache=True)
def bot_fault_nb(kind, p, seat):
    """A user bot raised: its answer is BOT_FAULT, which the run loop finds illegal."""
    return BOT_FAULT


# ---- the toy's search kit (core/search): options are the picks 1..picks -----------------
@njit(cache=True)
def kit_buffers_nb():
    return np.empty(SIZE, np.int64), np.empty(SIZE, np.int64), np.zeros(1, np.int64)


@njit(cache=True)
def kit_start_nb(p, seat, bufs):
    root, base, _ = bufs
    stream = keyed_stream_nb(p[M_SEAT_KEY], p[M_DECISIONS])     # never the game's stream
    for i in range(SIZE):
        root[i] = p[i]
    for q in range(p[N_PL]):                  # every seat played by the model (random)
        p[BOTS + q] = 0
    p[R_SEARCH] = 0
    for i in range(SIZE):
        base[i] = p[i]
    n = 0 if p[ASK] < 0 else min(3, max(1, int(kit_param_nb(bufs, seat, SP_GAME))))
    if n == 0:
        kit_restore_root_nb(p, bufs)
    return n, False, stream


@njit(cache=True)
def kit_param_nb(bufs, seat, i):
    return bufs[0][PARAMS + seat * N_PARAMS + i] / SCALE


@njit(cache=True)
def kit_log_nb(bufs):
    return bufs[2]


@njit(cache=True)
def kit_restore_nb(p, bufs):
    for i in range(SIZE):
        p[i] = bufs[1][i]


@njit(cache=True)
def kit_restore_root_nb(p, bufs):
    for i in range(SIZE):
        p[i] = bufs[0][i]


@njit(cache=True)
def kit_determinize_nb(p, seat, seed):
    p[RNG] = seat_stream_nb(seed, seat, np.int64(0x5EED))


@njit(cache=True)
def kit_apply_nb(p, plog, k, bufs, is_vec):
    step_nb(p, k + 1, np.zeros((0, 6), np.int64), 0, 0)


@njit(cache=True)
def kit_models_until_nb(p, plog, seat):
    while p[ASK] >= 0 and p[SEAT] != seat:
        step_nb(p, model_bot_nb(p[ASK], p, p[SEAT]), np.zeros((0, 6), np.int64), 0, 0)


@njit(cache=True)
def kit_playout_nb(p, plog):
    kit_models_until_nb(p, plog, -1)


@njit(cache=True)
def kit_reward_nb(p, seat, vp_weight):
    if p[ASK] >= 0:
        return 0.0
    return (1.0 if p[WINNER] == seat else 0.0) + vp_weight * p[POS + seat]


@njit(cache=True)
def kit_end_nb(p, bufs, k, is_vec):
    kit_restore_root_nb(p, bufs)
    return k + 1


@njit(cache=True)
def kit_options_nb(p, seat, searcher, bufs):
    n = min(3, max(1, int(kit_param_nb(bufs, searcher, SP_GAME))))
    return n, False, 0


@njit(cache=True)
def kit_key_nb(bufs, k):
    return k


@njit(cache=True)
def kit_mover_nb(p):
    return p[SEAT] if p[ASK] >= 0 else -1


@njit(cache=True)
def toy_ismcts_nb(p, kind, seat):
    threads = int(p[PARAMS + seat * N_PARAMS + SP_THREADS] / SCALE)
    if threads > 1:
        return toy_ismcts_parallel_nb(p, seat, threads)
    return ismcts_nb(p, seat, kit_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, kit_determinize_nb, kit_apply_nb, kit_playout_nb,
                     kit_reward_nb, kit_end_nb, kit_options_nb, kit_key_nb,
                     kit_models_until_nb, kit_mover_nb)


@njit(cache=True)
def toy_ismcts_worker_nb(row, seat, worker, iterations, root_n, root_w):
    ismcts_worker_nb(row, seat, worker, iterations, root_n, root_w, kit_buffers_nb, kit_start_nb,
                     kit_param_nb, kit_log_nb, kit_restore_nb, kit_determinize_nb, kit_apply_nb,
                     kit_playout_nb, kit_reward_nb, kit_options_nb, kit_key_nb,
                     kit_models_until_nb, kit_mover_nb)
    return 0


@njit(cache=True, parallel=True)
def toy_ismcts_parallel_nb(p, seat, threads):
    return ismcts_parallel_nb(p, seat, threads, toy_ismcts_worker_nb, kit_buffers_nb, kit_start_nb,
                              kit_param_nb, kit_end_nb, kit_options_nb)


@njit(cache=True)
def toy_tree_answer_nb(s, seat, stop):
    """(answer index, iterations run) of one ismcts tree at s's decision, with or
    without the early stop (tests: the stop never changes the answer)."""
    bufs = kit_buffers_nb()
    n_root, is_vec, stream = kit_start_nb(s, seat, bufs)
    iterations = max(1, int(kit_param_nb(bufs, seat, SP_BUDGET)))
    root_n = np.zeros(n_root + 8, np.int64)
    root_w = np.zeros(n_root + 8)
    n_all, done = ismcts_tree_nb(s, seat, bufs, stream, 0, iterations, root_n, root_w, kit_param_nb,
                                 kit_log_nb, kit_restore_nb, kit_determinize_nb, kit_apply_nb,
                                 kit_playout_nb, kit_reward_nb, kit_options_nb, kit_key_nb,
                                 kit_models_until_nb, kit_mover_nb, stop)
    k = best_root_nb(n_all, 0, root_n, root_w)
    kit_end_nb(s, bufs, k, is_vec)
    return k, done


@njit(cache=True)
def toy_flatmc_nb(p, kind, seat):
    return flatmc_nb(p, seat, kit_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, kit_determinize_nb, kit_apply_nb, kit_playout_nb,
                     kit_reward_nb, kit_end_nb)


ISMCTS = SEARCH_KINDS["ismcts"]


def search_entry_nb(p, kind, seat, algo):
    if algo == ISMCTS:
        return toy_ismcts_nb(p, kind, seat)
    return toy_flatmc_nb(p, kind, seat)


numba.get_num_threads()     # the threading layer first: the kernel links a parallel one (bots/search_nb.py)
search_fn = LazyAddress(search_entry_nb)


BOTS_REGISTRY = BotRegistry("toy", N_PARAMS)
for _spec in (BotSpec("random", random_bot_nb, {}, "picks 1-3 at random"),
              BotSpec("cautious", cautious_bot_nb, {"margin": 4.0}, "3 steps, 1 near the end"),
              BotSpec("cheat", cheat_bot_nb, {}, "illegal on turn 3")):
    BOTS_REGISTRY.register_builtin(_spec)
_SEARCH = search_params({"picks": (3.0, "picks tried: 1..picks")}, opponent="random", rollout="random")
_DOCS = search_docs(options="the picks 1..picks", hidden="the die's rolls")
for _name, _kind in SEARCH_KINDS.items():
    _params = {k: (0.0 if isinstance(d, str) else float(d)) for k, (d, _) in _SEARCH[_name].items()}
    _params["vp_weight"] = 0.0
    BOTS_REGISTRY.register_builtin(BotSpec(_name, table_decide_nb, _params, _DOCS[_name],
                                           search=_kind, ranges=SEARCH_RANGES))
# the core's user bots (@bot with game="toy_race")
BOTS_REGISTRY.plumbing = userbots.Plumbing(table_decide=table_decide_nb, bot_fault=bot_fault_nb,
                                           state_size=SIZE, own=(SIZE, SIZE))


# ---- rules object -------------------------------------------------------------------
DEFAULT_RULES = {
    "game": "toy_race", "name": "Race to N (the tests' toy game)",
    "min_players": 2, "max_players": 4, "target": 30, "die": 6,
    "provenance": {"target": "decision: short games for the tests",
                   "die": "estimated: a plain six-sided die"},
    "range": {"target": [20, 30, 40]},
}


class ToyRules(RulesBase):
    """target (steps to win), die (faces), 2-4 players: the core's RulesBase, so
    --rules, --set, sweeps, TOML and provenance work as for any game."""
    SCALARS = {"min_players": int, "max_players": int, "target": int, "die": int,
               "game": str, "name": str}

    @classmethod
    def default_data(cls) -> dict:
        return copy.deepcopy(DEFAULT_RULES)

    @classmethod
    def validate(cls, data: dict) -> list[str]:
        bad = []
        if not 1 <= data.get("target", 0) <= 10**6:
            bad.append(f"target: 1 to 1000000, got {data.get('target')!r}")
        if not 1 <= data.get("die", 0) <= 100:
            bad.append(f"die: 1 to 100, got {data.get('die')!r}")
        if not 2 <= data.get("min_players", 0) <= data.get("max_players", 0) <= 4:
            bad.append("players: 2 to 4")
        return bad


@dataclass
class ToyResults:
    games: pd.DataFrame
    players: pd.DataFrame
    rules: ToyRules
    config: dict
    interrupted: bool = False
    events: pd.DataFrame | None = None


# ---- the forward model in Python: the core's GameState bound to the toy -------------------
@njit(cache=True)
def playout_nb(s, decide):
    """On to the end with the table's bots; an illegal answer stops (STOP, BAD)."""
    log = np.zeros((0, len(EVENT_FIELDS)), np.int64)
    while s[ASK] >= 0:
        a = ask_array_nb(decide, s[ASK], s, s[SEAT])
        if not is_legal_nb(s, a):
            s[STOP], s[BAD] = 1, a
            return
        step_nb(s, a, log, 0, 0)


def _toy_step(s, log, answer):
    if not is_legal_nb(s, answer):
        s[STOP], s[BAD] = 1, answer
        return
    step_nb(s, answer, log, 0, 0)


def _toy_answer(answer):
    if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
        raise ConfigError(f"a pick is a whole number, got {answer!r}")
    return int(answer)


def _toy_legal(s):
    out = np.zeros(3, np.int64)
    return [int(a) for a in out[:legal_nb(s, out)]]


def _toy_error(st, s, by_caller):
    seat = int(s[SEAT])
    who = "the caller's answer" if by_caller else f"bot {st.players[seat].label!r}"
    return IllegalDecisionError(f"illegal pick {int(s[BAD])} ({who}, seat {seat}); turn {int(s[TURN])} "
                                f"of game {st.game} (game seed {st.game_seed})")


def _toy_same_table(a, b):
    return np.array_equal(a[:MARKS], b[:MARKS]) and a[TARGET] == b[TARGET] and a[DIE] == b[DIE]


def _toy_clone_into(dst, src):
    dst[:SIZE] = src[:SIZE]


def _toy_scores(s, n):
    return [s[POS + q] for q in range(n)], [1 if s[WINNER] == q else 0 for q in range(n)]


def _toy_stats(s, n, rules):
    won = [1 if s[WINNER] == q else 0 for q in range(n)]
    return np.array([[s[POS + q], s[PICKED + q], s[ROLLED + q], won[q]] for q in range(n)], np.int64)


FORWARD = ForwardModel(
    decision_names=DECISIONS, log_width=len(EVENT_FIELDS),
    begin=lambda s, log, seed, game: begin_nb(s, np.uint64(seed)),
    pending=pending_nb, is_over=lambda s: pending_nb(s)[0] < 0, turn=lambda s: s[TURN],
    legal=_toy_legal, answer=_toy_answer, step=_toy_step,
    bot_answer=lambda s, decide: int(ask_array_nb(decide, s[ASK], s, s[SEAT])),
    playout=lambda s, log, decide: playout_nb(s, decide),
    stopped=lambda s: s[STOP] != 0, retry=lambda s: False, error=_toy_error,
    determinize=kit_determinize_nb, clone_into=_toy_clone_into, same_table=_toy_same_table,
    scores=_toy_scores, stats=_toy_stats)


class ToyState(GameState):
    """The core's GameState (core/forward.py) bound to the toy: nothing of its own."""


# ---- the Game object -------------------------------------------------------------------
class Toy(GameBase):
    """Its own members only: no aggregate counters, replay page, report, robustness study
    or benchmarks (GameBase's defaults: each is one clear ConfigError)."""
    name = "toy_race"
    title = "Race to N (test game)"
    Rules = ToyRules
    bots = BOTS_REGISTRY
    chunk_kernel = staticmethod(run_games_nb)
    event_fields = EVENT_FIELDS
    event_rows_per_seat = 1            # small on purpose: the runner's log regrowth is exercised
    forward = FORWARD
    GameState = ToyState
    sweep_measures = {"picks": ("mean steps picked in a game (all seats)", "t")}

    def game_fields(self, rules) -> Fields:
        return Fields(("n_players", "turns", "winner"), np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(("pos", "picked", "rolled", "won"), np.int32)

    def table_template(self, rules, players, check_bots: bool = True):
        s = np.zeros(SIZE, np.int64)
        s[N_PL], s[TARGET], s[DIE], s[R_LEN] = len(players), rules["target"], rules["die"], SIZE
        decide, idx, users = userbots.decision_table(self.bots, players, check_bots)
        s[BOTS:BOTS + len(players)] = idx
        for q, p in enumerate(players):
            s[PARAMS + q * N_PARAMS:][:N_PARAMS] = np.round(p.param_vector(N_PARAMS) * SCALE)
            s[R_SEARCH] |= p.spec.search << (2 * q)
        if users is not None:
            s[R_USER_FN], s[R_USER_BASE] = users.address, len(self.bots.builtin_order)
        if s[R_SEARCH]:
            s[R_SEARCH_FN] = search_fn()
        return s, decide

    def describe_error(self, players, err, game, game_seed, rules):
        seat = int(err[2])
        return IllegalDecisionError(
            f"bot {players[seat].label!r} (seat {seat}) made an illegal {DECISIONS[int(err[1])]} "
            f"decision: answer {int(err[3])}; turn {int(err[4])} of game {game} (game seed {game_seed})")

    def table_columns(self, games, players_arr, seeds, start, players, rules, narrow=True):
        n, k, _ = players_arr.shape      # (never narrowed: the toy's columns stay at the kernel's widths)
        idx = np.arange(start, start + n, dtype=np.int64)
        g = {"game": idx, "seed": seeds}
        g.update({f: games[:, i] for i, f in enumerate(self.game_fields(rules).names)})
        labels = [p.label for p in players]
        p = {"game": np.repeat(idx, k), "seat": np.tile(np.arange(k), n),
             "bot": pd.Categorical(np.tile(labels, n), categories=list(dict.fromkeys(labels)))}
        flat = players_arr.reshape(n * k, -1)
        p.update({f: flat[:, i] for i, f in enumerate(self.player_fields(rules).names)})
        # the core columns: the score (vp: the position), rank (1 = furthest), win_share
        pos = players_arr[:, :, 0].astype(np.int64)
        p["vp"] = flat[:, 0]
        p["rank"] = (1 + (pos[:, None, :] > pos[:, :, None]).sum(axis=2)).reshape(-1).astype(np.int32)
        p["win_share"] = flat[:, 3].astype(np.float32)
        return g, p

    def results(self, games, players, rules, config, interrupted, events):
        return ToyResults(games, players, rules, config, interrupted, events)

    def events_frame(self, log, rules, n_players, labels=None):
        return pd.DataFrame(log, columns=list(EVENT_FIELDS))

    def render_events(self, events, rules) -> str:
        return "\n".join(f"turn {r.turn}: seat {r.seat} picks {r.pick}, rolls {r.roll} -> {r.pos}"
                         for r in events.itertuples())

    def summary_counts(self, games) -> dict:
        return {"turns": int(np.asarray(games["turns"]).sum())}

    def summary_lines(self, counts, n_games, rules) -> list:
        return [f"mean turns: {counts['turns'] / n_games:.2f} (target {rules['target']})"]

    def sweep_units(self, grid) -> dict:
        return {"picks": grid("picked").sum(1)}

    def invariants(self, state, rules) -> list:
        bad = []
        for q in range(state[N_PL]):
            if state[POS + q] != state[PICKED + q] + state[ROLLED + q]:
                bad.append(f"seat {q}: position is not picks + rolls")
            if state[ASK] >= 0 and state[POS + q] >= state[TARGET]:
                bad.append(f"seat {q} reached the target but the game goes on")
        return bad


TOY = Toy()
ToyState.GAME = TOY
