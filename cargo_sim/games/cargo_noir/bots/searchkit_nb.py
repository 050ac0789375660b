"""Cargo Noir's search kit: what the core's search bots (``core.search.flatmc_nb``,
``core.search.ismcts_nb``) need from the game.

The algorithms reach the game only through these functions and the forward
model (``forward_nb``): set up a search in the state the bot is asked with,
list a decision's options (bid buckets, the heuristic family's trade and
discard proposals, option keys), apply one, let the modelled bots answer, play
out, score, and put the state back. The ``kit_*`` functions at the end are the
kit's interface, bound by ``flatmc_nb``/``ismcts_nb`` (docs/forward.md, "Search
agents").

A search works in the state it is asked with: it keeps a copy of the game
part (~1,500 words) and restores it before answering, so the trade tables and
the bots' workspace after it are shared, never copied. In the copies it plays
with, every seat's bot is replaced by the assumed model (the search bot's
`rollout` bot for its own seat, `opponent` for the others, with their default
parameters from the table's model rows): the search never reads who the
other seats really are, nor the game's chance stream (``determinize_nb``).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.shared_nb import shared_ptr_nb
from ..engine_nb import param_nb
from ..enums import (BOTS, D_RAISE, D_SEND, D_TRADE, LOC_PORT0, M_ASK, M_FREE_15, M_SEAT, M_TURN,
                     N_EVENT_FIELDS,
                     N_PARAMS, OUT, OUT_W, P, PARAMS, R_LOG_ROWS, R_MODELS, R_N_MODELS, R_N_PLAYERS, R_SEARCH,
                     STATE_SIZE, STATS, STATS_W)
from ..forward_nb import (MAX_LEGAL, RANGE, VECTOR, clone_into_nb, is_over_nb, legal_nb,
                          returns_nb, step_in_nb, view_digest_nb)
from .belief_nb import draw_models_nb, set_model_cdfs_nb
from .dispatch_nb import model_decide_nb
from .evaluate_nb import cut_reward_nb

# the search bots' parameter slots (core.search.params; registry.SEARCH_PARAMS names
# them): Cargo Noir's own option parameter, `bids`, is the game's slot
from ....core.search.params import (SP_BIAS, SP_BUDGET, SP_C, SP_GAME, SP_HORIZON,  # noqa: E402,F401
                                    SP_MODEL, SP_OPP_WIDEN, SP_OPPONENT, SP_PRIOR, SP_ROLLOUT, SP_TREMBLE,
                                    SP_VP_WEIGHT, SP_WIDEN, SP_WIDEN_EXP)
from ..forward_nb import determinize_nb  # noqa: E402
SP_BIDS = SP_GAME  # bid amounts tried per port or raise: least legal + BID_OFFSETS[:bids]

BID_OFFSETS = (0, 1, 2, 3, 5, 8, 13, 21)
POLICY_BUCKET = 15   # the key's bid bucket of the rollout bot's own bid when no bucket holds it
MAX_OPTIONS = MAX_LEGAL * len(BID_OFFSETS)
MAX_PROPOSALS = 40   # vector decisions: no trade + one answer per model bot
# in a search's copy of the game, the turn at which playouts stop (0: at the end);
# a word the game never uses (restored with the game part before the search answers)
CUT_TURN = M_FREE_15


@njit(cache=True)
def search_param_nb(p, seat, i):
    return param_nb(p, seat, i)


@njit(cache=True)
def set_models_nb(p, seat, own, opponent):
    """Seat every seat's assumed bot (own / opponent: indices of model rows) and
    turn off the event log and the search bots in this copy."""
    for q in range(p[R_N_PLAYERS]):
        m = own if q == seat else opponent
        p[BOTS + q] = m
        for i in range(N_PARAMS):
            p[PARAMS + q * N_PARAMS + i] = shared_ptr_nb(p)[p[R_MODELS] + m * N_PARAMS + i]
    p[R_SEARCH] = 0
    p[R_LOG_ROWS] = 0


@njit(cache=True)
def begin_search_nb(p, seat, root, base):
    """Keep the game in root, set the models in p and keep that in base (the
    state every playout starts from). Returns False when the table has no
    model rows (not set up by table_template)."""
    clone_into_nb(root, p)
    own = int(search_param_nb(p, seat, SP_ROLLOUT))
    opp = int(search_param_nb(p, seat, SP_OPPONENT))
    if not (0 <= own < p[R_N_MODELS] and 0 <= opp < p[R_N_MODELS]):
        return False
    # the opponent models from public play (flatmc reads 0 here: the fixed model)
    mode = int(search_param_nb(p, seat, SP_MODEL))
    prior = search_param_nb(p, seat, SP_PRIOR)
    tremble = search_param_nb(p, seat, SP_TREMBLE)
    horizon = int(search_param_nb(p, seat, SP_HORIZON))     # flatmc reads 0: to the end
    set_models_nb(p, seat, own, opp)
    set_model_cdfs_nb(p, seat, mode, opp, prior, tremble)
    p[CUT_TURN] = p[M_TURN] + horizon if horizon > 0 else 0
    clone_into_nb(base, p)
    return True


NO_ANSWER = -999999     # answered when no search is possible: the engine stops the game


@njit(cache=True)
def search_buffers_nb():
    """(root, base, log, rows, key, answer, bid, vector, keep): start_search_nb's arrays
    and the options' workspace (allocated once per decision, not per option listing)."""
    return (np.empty(STATE_SIZE, np.int64), np.empty(STATE_SIZE, np.int64),
            np.zeros((1, N_EVENT_FIELDS), np.int64), np.empty((MAX_LEGAL, 3), np.int64),
            np.empty(MAX_OPTIONS, np.int64), np.empty(MAX_OPTIONS, np.int64),
            np.empty(MAX_OPTIONS, np.int64), np.empty((MAX_PROPOSALS, OUT_W), np.int64),
            np.empty(N_PARAMS + OUT_W, np.int64))


@njit(cache=True)
def start_search_nb(p, seat, root, base, rows, key, ans, bid, vec, keep):
    """Start a search at the pending decision: the seat's stream (view_digest_nb,
    before anything moves), the game kept in root, the models set (base), the
    root's options listed. Returns (n options, is_vector, stream); n = 0 when
    no search is possible (no model rows, no option), with the game put back.
    The searcher's own parameters are read from root from here on."""
    stream = view_digest_nb(p, seat)
    n = 0
    is_vec = False
    if begin_search_nb(p, seat, root, base):
        n_bids = max(1, int(search_param_nb(root, seat, SP_BIDS)))
        n, is_vec = options_nb(p, seat, n_bids, rows, key, ans, bid, vec, keep)
    if n == 0:
        clone_into_nb(p, root)
    return n, is_vec, stream


@njit(cache=True)
def end_search_nb(p, root, k, ans, bid, vec, is_vec):
    """Put the game back and leave option k's vector or bid in s[OUT...]; its answer."""
    clone_into_nb(p, root)
    if is_vec:
        for i in range(OUT_W):
            p[OUT + i] = vec[k, i]
    elif p[M_ASK] == D_SEND:
        p[OUT] = bid[k]
    return ans[k]


@njit(cache=True)
def option_key_nb(kind, answer, b):
    """One option's identity in a tree: the decision, the answer and the bid bucket
    (bids as offsets from the least legal one, the same meaning in every state)."""
    return (kind * 4096 + answer + 2048) * 16 + b


@njit(cache=True)
def options_nb(p, seat, n_bids, rows, key, ans, bid, vec, keep):
    """The options of the pending decision (of `seat`): (count, is_vector).
    Enumerated decisions give their legal answers, a bid range its least legal
    bid plus BID_OFFSETS[:n_bids]; trade and discard (vector answers) give the
    answers the model bots propose (each heuristic strategy; duplicates
    dropped) and, for a trade, no trade."""
    kind = p[M_ASK]
    n_rows = legal_nb(p, rows)
    if n_rows == VECTOR:
        return proposals_nb(p, seat, kind, key, ans, vec, keep), True
    n = 0
    for r in range(n_rows):
        a, lo, hi = rows[r, 0], rows[r, 1], rows[r, 2]
        if a == RANGE or (kind == D_SEND and a >= LOC_PORT0):
            for b in range(min(n_bids, len(BID_OFFSETS))):
                amount = lo + BID_OFFSETS[b]
                if amount > hi:
                    break
                key[n] = option_key_nb(kind, a, b)
                ans[n] = amount if a == RANGE else a
                bid[n] = amount
                n += 1
        else:
            key[n] = option_key_nb(kind, a, 0)
            ans[n] = a
            bid[n] = 0
            n += 1
    return n, False


@njit(cache=True)
def proposals_nb(p, seat, kind, key, ans, vec, keep):
    """Vector options: what each model bot (not `random`) would answer here (keep:
    a workspace of N_PARAMS + OUT_W words)."""
    keep_bot = p[BOTS + seat]
    for i in range(N_PARAMS):
        keep[i] = p[PARAMS + seat * N_PARAMS + i]
    for i in range(OUT_W):
        keep[N_PARAMS + i] = p[OUT + i]
    n = 0
    if kind == D_TRADE:
        key[0] = option_key_nb(kind, 0, 0)
        ans[0] = 0
        vec[0, :] = 0
        n = 1
    for m in range(1, min(p[R_N_MODELS], MAX_PROPOSALS - 1)):
        p[BOTS + seat] = m
        for i in range(N_PARAMS):
            p[PARAMS + seat * N_PARAMS + i] = shared_ptr_nb(p)[p[R_MODELS] + m * N_PARAMS + i]
        for i in range(OUT_W):
            p[OUT + i] = keep[N_PARAMS + i]
        a = model_decide_nb(kind, p, seat)
        if kind == D_TRADE and a == 0:
            continue
        for i in range(OUT_W):
            vec[n, i] = p[OUT + i]
        same = False
        for j in range(n):
            if ans[j] == a:
                same = True
                for i in range(OUT_W):
                    if vec[j, i] != vec[n, i]:
                        same = False
                        break
                if same:
                    break
        if not same:
            key[n] = option_key_nb(kind, m, 0)
            ans[n] = a
            n += 1
    p[BOTS + seat] = keep_bot
    for i in range(N_PARAMS):
        p[PARAMS + seat * N_PARAMS + i] = keep[i]
    for i in range(OUT_W):
        p[OUT + i] = keep[N_PARAMS + i]
    return n


@njit(cache=True)
def policy_option_nb(p, seat, n, is_vec, key, ans, bid, vec, keep):
    """Which of the n options the searcher's rollout bot answers here: (its
    index, the option count). A bid no bucket holds is added as one more option
    (key bucket POLICY_BUCKET), so the tree can always follow the rollout bot.
    keep: a workspace of at least OUT_W words."""
    kind = p[M_ASK]
    for i in range(OUT_W):
        keep[i] = p[OUT + i]
    a = model_decide_nb(kind, p, seat)
    amount = p[OUT]
    found = 0 if is_vec and kind == D_TRADE and a == 0 else -1    # option 0: no trade
    for k in range(n if found < 0 else 0):
        if ans[k] != a:
            continue
        same = True
        if is_vec:
            for i in range(OUT_W):
                if vec[k, i] != p[OUT + i]:
                    same = False
                    break
        elif kind == D_SEND and a >= LOC_PORT0:
            same = bid[k] == amount
        if same:
            found = k
            break
    bids = (kind == D_SEND and a >= LOC_PORT0) or kind == D_RAISE
    if found < 0 and bids and n < key.shape[0]:
        found = n
        n += 1
        if kind == D_SEND:
            key[found] = option_key_nb(kind, a, POLICY_BUCKET)
            bid[found] = amount
        else:                        # a raise: its answer is the amount
            key[found] = option_key_nb(kind, RANGE, POLICY_BUCKET)
            bid[found] = a
        ans[found] = a
    for i in range(OUT_W):
        p[OUT + i] = keep[i]
    return max(found, 0), n


@njit(cache=True)
def apply_option_nb(p, plog, k, ans, bid, vec, is_vec):
    """Answer the pending decision with option k and run to the next decision."""
    if is_vec:
        for i in range(OUT_W):
            p[OUT + i] = vec[k, i]
    elif p[M_ASK] == D_SEND:
        p[OUT] = bid[k]
    step_in_nb(p, plog, ans[k])


@njit(cache=True)
def models_until_nb(p, plog, seat):
    """Let the modelled bots answer until `seat` decides or the game ends."""
    while p[M_ASK] >= 0 and p[M_SEAT] != seat:
        step_in_nb(p, plog, model_decide_nb(p[M_ASK], p, p[M_SEAT]))


@njit(cache=True)
def playout_models_nb(p, plog):
    """Play to the end with the modelled bots, or (ismcts `horizon`) until the
    first decision of turn p[CUT_TURN]."""
    cut = p[CUT_TURN]
    if cut <= 0:
        models_until_nb(p, plog, -1)
        return
    while p[M_ASK] >= 0 and p[M_TURN] < cut:
        step_in_nb(p, plog, model_decide_nb(p[M_ASK], p, p[M_SEAT]))


@njit(cache=True)
def reward_nb(p, seat, vp_weight):
    """The searcher's reward of a finished playout, or of one cut at its turn
    (evaluate_nb); 0 if it stopped early (an illegal answer, the exact solver)."""
    if not is_over_nb(p):
        if p[CUT_TURN] > 0 and p[M_ASK] >= 0 and p[M_TURN] >= p[CUT_TURN]:
            return cut_reward_nb(p, seat, vp_weight)
        return 0.0
    vp, share = returns_nb(p, seat)
    best = -1
    for q in range(p[R_N_PLAYERS]):
        if q != seat and p[STATS + q * STATS_W + P.vp] > best:
            best = p[STATS + q * STATS_W + P.vp]
    return share + vp_weight * (vp - best)


@njit(cache=True)
def log_ptr_nb(log):
    return state_ptr_nb(log)


# ---------------------------------------------------------------------------
# The kit as the core's search kernels call it (bufs: search_buffers_nb's tuple)
@njit(cache=True)
def tree_options_nb(p, seat, n_bids, rows, key, ans, bid, vec, keep):
    """options_nb plus which one the rollout bot answers: (n, is_vector, its index)."""
    n, is_vec = options_nb(p, seat, n_bids, rows, key, ans, bid, vec, keep)
    pk = 0
    if n > 0:
        pk, n = policy_option_nb(p, seat, n, is_vec, key, ans, bid, vec, keep)
    return n, is_vec, pk


@njit(cache=True)
def kit_start_nb(p, seat, bufs):
    root, base, log, rows, key, ans, bid, vec, keep = bufs
    return start_search_nb(p, seat, root, base, rows, key, ans, bid, vec, keep)


@njit(cache=True)
def kit_param_nb(bufs, seat, i):
    """The searcher's parameter i, read from the kept game (root)."""
    return search_param_nb(bufs[0], seat, i)


@njit(cache=True)
def kit_log_nb(bufs):
    return log_ptr_nb(bufs[2])


@njit(cache=True)
def kit_restore_nb(p, bufs):
    clone_into_nb(p, bufs[1])


@njit(cache=True)
def kit_determinize_nb(p, seat, rng_state):
    """A determinization: the hidden bag order, and (model 1, 2) each other seat's
    model from its posterior (belief_nb.draw_models_nb), both from the searcher's stream."""
    determinize_nb(p, seat, rng_state)
    draw_models_nb(p, seat, rng_state)


@njit(cache=True)
def kit_apply_nb(p, plog, k, bufs, is_vec):
    apply_option_nb(p, plog, k, bufs[5], bufs[6], bufs[7], is_vec)


@njit(cache=True)
def kit_end_nb(p, bufs, k, is_vec):
    root, base, log, rows, key, ans, bid, vec, keep = bufs
    out = end_search_nb(p, root, k, ans, bid, vec, is_vec)
    return out if log[0, 0] == 0 else out     # `log` outlives the playouts' pointer to it


@njit(cache=True)
def kit_options_nb(p, seat, searcher, bufs):
    """The options of `seat`'s decision, bids bucketed as the searcher's `bids` says."""
    root, base, log, rows, key, ans, bid, vec, keep = bufs
    n_bids = max(1, int(search_param_nb(root, searcher, SP_BIDS)))
    return tree_options_nb(p, seat, n_bids, rows, key, ans, bid, vec, keep)


@njit(cache=True)
def kit_key_nb(bufs, k):
    return bufs[4][k]


@njit(cache=True)
def kit_mover_nb(p):
    """The seat to decide, -1 when no decision is pending."""
    return p[M_SEAT] if p[M_ASK] >= 0 else -1
