"""`ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012),
for any game.

Each iteration determinizes the game for the searching seat (the game's kit
resamples what the seat cannot know, from the seat's own stream), walks down
the tree choosing by UCT, adds one node, and plays out to the end with the
assumed bots; each edge on the path is scored for the seat that chose it. The
tree holds every seat's decisions (with opp_widen 0 only the searcher's: the
others answered by the model, "open loop"). Below the root an option set widens
progressively: first only the model bot's answer (rollout bot for the searcher,
opponent bot for the others), then more in option order as the node's visits
grow; a progressive bias favours the model's answer. An option is available in
an iteration only if it is legal in that determinization: UCT uses availability
counts instead of parent visits. The answer is the most visited root option
(ties: the best mean). See docs/forward.md, "Search agents".

The game's search kit: flatmc_nb's functions, and

* ``options(p, seat, searcher, bufs) -> (n, is_vec, pk)``: the pending decision's
  options (as the searcher's parameters list them) and which one the deciding seat's
  model bot answers (index pk);
* ``key(bufs, k) -> int``: option k's identity in a tree (the same meaning in every state);
* ``models_until(p, plog, seat)``: the modelled bots answer until `seat` decides;
* ``mover(p) -> seat``: the seat to decide, -1 when the game is over.
"""
import numpy as np
from .. import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..layout import R_N_PLAYERS, SEATS
from ..rng_nb import seat_stream_nb
from .flatmc_nb import NO_ANSWER
from .params import SP_BIAS, SP_BUDGET, SP_C, SP_OPP_WIDEN, SP_VP_WEIGHT, SP_WIDEN, SP_WIDEN_EXP

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


# inline: the kit's functions are arguments, and a compiled caller that passes them
# would hold their addresses (not cacheable); inlined, they are plain calls
@njit(cache=True, inline="always")
def ismcts_nb(p, seat, buffers, start, param, log, restore, determinize, apply, playout,
              reward, end, options, key, models_until, mover):
    bufs = buffers()
    plog = log(bufs)
    n_root, is_vec, stream = start(p, seat, bufs)
    if n_root == 0:
        return NO_ANSWER
    if n_root == 1:
        return end(p, bufs, 0, is_vec)
    iterations = max(1, int(param(bufs, seat, SP_BUDGET)))
    vp_weight = param(bufs, seat, SP_VP_WEIGHT)
    c = param(bufs, seat, SP_C)
    widen = param(bufs, seat, SP_WIDEN)
    widen_exp = param(bufs, seat, SP_WIDEN_EXP)
    opp_widen = param(bufs, seat, SP_OPP_WIDEN)
    bias = param(bufs, seat, SP_BIAS)
    rewards = np.zeros(SEATS)
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
        restore(p, bufs)
        determinize(p, seat, seat_stream_nb(stream, seat, it))
        node = 0
        depth = 0
        while depth < MAX_DEPTH:
            if opp_widen <= 0:                 # the other seats' decisions are not in the tree
                models_until(p, plog, seat)
            q = mover(p)
            if q < 0:
                break
            n, is_vec, pk = options(p, q, seat, bufs)
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
                kk = key(bufs, k)
                if e < 0 or edges[e, E_KEY] != kk:
                    e = first[node]
                    while e >= 0 and edges[e, E_KEY] != kk:
                        e = edges[e, E_NEXT]
                if e < 0:                      # new option at this node
                    if n_edges == edges.shape[0]:
                        edges, wins = grow_nb(edges, wins)
                    e = n_edges
                    n_edges += 1
                    edges[e, E_KEY] = kk
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
            apply(p, plog, chosen_k, bufs, is_vec)
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
        playout(p, plog)
        for q in range(p[R_N_PLAYERS]):
            rewards[q] = reward(p, q, vp_weight)
        for d in range(depth):                 # each edge scored for the seat choosing it
            edges[path[d], E_N] += 1
            wins[path[d]] += rewards[movers[d]]
            visits[nodes[d]] += 1
    # the most visited root option, on a tie the best mean (root options are the same in
    # every determinization)
    restore(p, bufs)
    n_root, is_vec, pk = options(p, seat, seat, bufs)
    best_k = pk
    most = -1
    mean = -1e300
    for k in range(n_root):
        e = first[0]
        kk = key(bufs, k)
        while e >= 0 and edges[e, E_KEY] != kk:
            e = edges[e, E_NEXT]
        if e < 0 or edges[e, E_N] == 0:
            continue
        m = wins[e] / edges[e, E_N]
        if edges[e, E_N] > most or (edges[e, E_N] == most and m > mean):
            most = edges[e, E_N]
            mean = m
            best_k = k
    return end(p, bufs, best_k, is_vec)      # (bufs, and the log in it, outlive plog)
