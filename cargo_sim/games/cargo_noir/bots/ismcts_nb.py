"""`ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

Each iteration determinizes the game for the searching seat (a new chance
stream from its own stream: the only hidden information in Cargo Noir),
walks down the tree choosing by UCT, adds one node, and plays out to the end
with the assumed bots; each edge on the path is scored for the seat that
chose it. Every move is public, so the tree holds every seat's decisions
(with opp_widen 0 only the searcher's: the others answered by the model,
"open loop"). Below the root an option set widens progressively: first only
the model bot's answer (rollout bot for the searcher, opponent bot for the
others), then more in option order as the node's visits grow; a progressive
bias favours the model's answer. An option is available in an iteration only
if it is legal in that determinization: UCT uses availability counts instead
of parent visits. Bids are bucketed (searchkit_nb.BID_OFFSETS, plus the model
bot's own bid); trade and discard options are the heuristic family's
proposals. The answer is the most visited root option (ties: the best mean).
See docs/forward.md, "Search agents".
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.rng_nb import seat_stream_nb
from ..enums import M_ASK, M_SEAT, MAX_SEATS, R_N_PLAYERS
from ..forward_nb import determinize_nb
from .searchkit_nb import (NO_ANSWER, SP_BIAS, SP_BIDS, SP_BUDGET, SP_C, SP_OPP_WIDEN, SP_VP_WEIGHT,
                           SP_WIDEN, SP_WIDEN_EXP, apply_option_nb, clone_into_nb, end_search_nb,
                           log_ptr_nb, models_until_nb, options_nb, playout_models_nb,
                           policy_option_nb, reward_nb, search_buffers_nb, search_param_nb,
                           start_search_nb)

# edge fields (one row of `edges` per (node, option) seen)
E_KEY, E_CHILD, E_N, E_AVAIL, E_NEXT = 0, 1, 2, 3, 4
MAX_DEPTH = 1024


@njit(cache=True)
def grow_nb(edges, wins):
    e2 = np.empty((2 * edges.shape[0], 5), np.int64)
    w2 = np.zeros(2 * edges.shape[0])
    e2[:edges.shape[0]] = edges
    w2[:edges.shape[0]] = wins
    return e2, w2


@njit(cache=True)
def tree_options_nb(p, seat, n_bids, rows, key, ans, bid, vec):
    """options_nb plus which one the rollout bot answers: (n, is_vector, its index)."""
    n, is_vec = options_nb(p, seat, n_bids, rows, key, ans, bid, vec)
    pk = 0
    if n > 0:
        pk, n = policy_option_nb(p, seat, n, is_vec, key, ans, bid, vec)
    return n, is_vec, pk


@njit(cache=True)
def ismcts_decide_nb(p, kind, seat):
    root, base, log, rows, key, ans, bid, vec = search_buffers_nb()
    plog = log_ptr_nb(log)
    n_root, is_vec, stream = start_search_nb(p, seat, root, base, rows, key, ans, bid, vec)
    if n_root == 0:
        return NO_ANSWER
    if n_root == 1:
        return end_search_nb(p, root, 0, ans, bid, vec, is_vec)
    iterations = max(1, int(search_param_nb(root, seat, SP_BUDGET)))
    n_bids = max(1, int(search_param_nb(root, seat, SP_BIDS)))
    vp_weight = search_param_nb(root, seat, SP_VP_WEIGHT)
    c = search_param_nb(root, seat, SP_C)
    widen = search_param_nb(root, seat, SP_WIDEN)
    widen_exp = search_param_nb(root, seat, SP_WIDEN_EXP)
    opp_widen = search_param_nb(root, seat, SP_OPP_WIDEN)
    bias = search_param_nb(root, seat, SP_BIAS)
    reward = np.zeros(MAX_SEATS)
    first = np.full(iterations + 2, -1, np.int64)     # each node's first edge
    visits = np.zeros(iterations + 2, np.int64)       # each node's visits
    n_nodes = 1
    edges = np.empty((max(64, 4 * iterations), 5), np.int64)
    wins = np.zeros(edges.shape[0])
    n_edges = 0
    path = np.empty(MAX_DEPTH, np.int64)
    nodes = np.empty(MAX_DEPTH, np.int64)
    movers = np.empty(MAX_DEPTH, np.int64)
    for it in range(iterations):
        clone_into_nb(p, base)
        determinize_nb(p, seat, seat_stream_nb(stream, seat, it))
        node = 0
        depth = 0
        while depth < MAX_DEPTH:
            if opp_widen <= 0:                 # the other seats' decisions are not in the tree
                models_until_nb(p, plog, seat)
            if p[M_ASK] < 0:
                break
            q = p[M_SEAT]
            n, is_vec, pk = tree_options_nb(p, q, n_bids, rows, key, ans, bid, vec)
            if n == 0:
                break
            # below the root, progressive widening: the model bot's answer first, then
            # more options (in option order) as the node's visits grow
            allowed = n
            if node > 0:
                # (clamped at n: the same options for every larger value, and no overflow)
                allowed = 1 + int(min((widen if q == seat else opp_widen) * visits[node] ** widen_exp,
                                      float(n)))
            chosen = -1
            chosen_k = 0
            best = -1e300
            prev = -1
            for k in range(n):
                rank = 0 if k == pk else (k + 1 if k < pk else k)
                if rank >= allowed:
                    continue
                # find the option's edge (usually the one after the last found)
                e = edges[prev, E_NEXT] if prev >= 0 else first[node]
                if e < 0 or edges[e, E_KEY] != key[k]:
                    e = first[node]
                    while e >= 0 and edges[e, E_KEY] != key[k]:
                        e = edges[e, E_NEXT]
                if e < 0:                      # new option at this node
                    if n_edges == edges.shape[0]:
                        edges, wins = grow_nb(edges, wins)
                    e = n_edges
                    n_edges += 1
                    edges[e, E_KEY] = key[k]
                    edges[e, E_CHILD] = -1
                    edges[e, E_N] = 0
                    edges[e, E_AVAIL] = 0
                    wins[e] = 0.0
                    if prev >= 0:              # after the previous option: list in option order
                        edges[e, E_NEXT] = edges[prev, E_NEXT]
                        edges[prev, E_NEXT] = e
                    else:
                        edges[e, E_NEXT] = first[node]
                        first[node] = e
                prev = e
                edges[e, E_AVAIL] += 1
                if edges[e, E_N] == 0:
                    score = 1e200 - rank       # untried options first, the rollout bot's first
                else:
                    score = wins[e] / edges[e, E_N] + c * np.sqrt(
                        np.log(edges[e, E_AVAIL]) / edges[e, E_N])
                    if rank == 0:              # progressive bias toward the model bot's answer
                        score += bias / (edges[e, E_N] + 1)
                if score > best:
                    best = score
                    chosen = e
                    chosen_k = k
            apply_option_nb(p, plog, chosen_k, ans, bid, vec, is_vec)
            path[depth] = chosen
            nodes[depth] = node
            movers[depth] = q
            depth += 1
            if edges[chosen, E_N] == 0:        # expand: this option's node, then play out
                if edges[chosen, E_CHILD] < 0 and n_nodes < first.shape[0]:
                    edges[chosen, E_CHILD] = n_nodes
                    n_nodes += 1
                break
            if edges[chosen, E_CHILD] < 0:
                break
            node = edges[chosen, E_CHILD]
        playout_models_nb(p, plog)
        for q in range(p[R_N_PLAYERS]):
            reward[q] = reward_nb(p, q, vp_weight)
        for d in range(depth):                 # each edge scored for the seat choosing it
            edges[path[d], E_N] += 1
            wins[path[d]] += reward[movers[d]]
            visits[nodes[d]] += 1
    # the most visited root option, on a tie the best mean (root options are the same in
    # every determinization)
    clone_into_nb(p, base)
    n_root, is_vec, pk = tree_options_nb(p, seat, n_bids, rows, key, ans, bid, vec)
    best_k = pk
    most = -1
    mean = -1e300
    for k in range(n_root):
        e = first[0]
        while e >= 0 and edges[e, E_KEY] != key[k]:
            e = edges[e, E_NEXT]
        if e < 0 or edges[e, E_N] == 0:
            continue
        m = wins[e] / edges[e, E_N]
        if edges[e, E_N] > most or (edges[e, E_N] == most and m > mean):
            most = edges[e, E_N]
            mean = m
            best_k = k
    out = end_search_nb(p, root, best_k, ans, bid, vec, is_vec)
    return out if log[0, 0] == 0 else out     # `log` outlives plog
