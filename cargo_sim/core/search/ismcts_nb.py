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

Speed (docs/forward.md, "Search speed"): a tree stops as soon as its most visited
root option can no longer be overtaken by the iterations left (the answer is the
one the full budget gives, exactly); ``threads`` > 1 searches root-parallel: that
many trees from the same root, each on its own copy of the state, its own thread
and its own determinizations (worker w: counters it + w * 2**32), the budget split
between them, their root visits and rewards summed (``ismcts_parallel_nb``).
"""
import numpy as np
from .. import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, prange

from ..layout import R_LEN, R_N_PLAYERS, SEATS
from ..rng_nb import seat_stream_nb
from .flatmc_nb import NO_ANSWER
from .params import (SP_BIAS, SP_BUDGET, SP_C, SP_OPP_WIDEN, SP_VP_WEIGHT, SP_WIDEN,
                     SP_WIDEN_EXP)

# edge fields (one row of `edges` per (node, option) seen)
E_KEY, E_CHILD, E_N, E_AVAIL, E_NEXT = 0, 1, 2, 3, 4
MAX_DEPTH = 1024
MAX_EXTRA = 8   # root options the kit may add to start()'s count (e.g. the model bot's own answer)


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
def ismcts_tree_nb(p, seat, bufs, stream, worker, iterations, root_n, root_w, param, log,
                   restore, determinize, apply, playout, reward, options, key, models_until,
                   mover, stop=True):
    """One tree of at most `iterations` iterations from a started search (bufs);
    determinization `it` from seat_stream_nb(stream, seat, it + worker * 2**32).
    Leaves each root option's visits and summed reward in root_n/root_w (root option
    order, as options() lists it after restore) and p restored; returns the number
    of root options and the iterations run (fewer than `iterations` when `stop` and
    the answer was settled: the same answer as the full budget's)."""
    plog = log(bufs)
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
    done = 0
    for it in range(iterations):
        restore(p, bufs)
        determinize(p, seat, seat_stream_nb(stream, seat, it + worker * 4294967296))
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
        done = it + 1
        # stop when the most visited root option leads the next by more than the
        # iterations left: no later iteration can change the answer
        m1 = 0
        m2 = 0
        e = first[0]
        while e >= 0:
            if edges[e, E_N] > m1:
                m2 = m1
                m1 = edges[e, E_N]
            elif edges[e, E_N] > m2:
                m2 = edges[e, E_N]
            e = edges[e, E_NEXT]
        if stop and m1 - m2 > iterations - done:
            break
    # the root options' totals (root options are the same in every determinization)
    restore(p, bufs)
    n_root, is_vec, pk = options(p, seat, seat, bufs)
    for k in range(min(n_root, root_n.shape[0])):
        root_n[k] = 0
        root_w[k] = 0.0
        e = first[0]
        kk = key(bufs, k)
        while e >= 0 and edges[e, E_KEY] != kk:
            e = edges[e, E_NEXT]
        if e >= 0:
            root_n[k] = edges[e, E_N]
            root_w[k] = wins[e]
    restore(p, bufs)
    return n_root, done


@njit(cache=True)
def best_root_nb(n_root, pk, root_n, root_w):
    """The most visited root option, on a tie the best mean (pk if none was visited)."""
    best_k = pk
    most = -1
    mean = -1e300
    for k in range(n_root):
        if root_n[k] == 0:
            continue
        m = root_w[k] / root_n[k]
        if root_n[k] > most or (root_n[k] == most and m > mean):
            most = root_n[k]
            mean = m
            best_k = k
    return best_k


@njit(cache=True, inline="always")
def ismcts_nb(p, seat, buffers, start, param, log, restore, determinize, apply, playout,
              reward, end, options, key, models_until, mover):
    """One decision of one tree (threads = 1)."""
    bufs = buffers()
    n_root, is_vec, stream = start(p, seat, bufs)
    if n_root == 0:
        return NO_ANSWER
    if n_root == 1:
        return end(p, bufs, 0, is_vec)
    iterations = max(1, int(param(bufs, seat, SP_BUDGET)))
    root_n = np.zeros(n_root + MAX_EXTRA, np.int64)
    root_w = np.zeros(n_root + MAX_EXTRA)
    n_all, done = ismcts_tree_nb(p, seat, bufs, stream, 0, iterations, root_n, root_w, param, log,
                                 restore, determinize, apply, playout, reward, options, key,
                                 models_until, mover)
    n_all, is_vec, pk = options(p, seat, seat, bufs)
    return end(p, bufs, best_root_nb(min(n_all, root_n.shape[0]), pk, root_n, root_w), is_vec)


@njit(cache=True, inline="always")
def ismcts_parallel_nb(p, seat, threads, worker_fn, buffers, start, param, end, options):
    """One decision, root-parallel (``threads`` > 1, the searcher's SP_THREADS). Call from a
    ``parallel=True`` kernel; ``worker_fn(q, seat, worker, iterations, root_n, root_w)``
    (the game's binding of ``ismcts_worker_nb``) searches one tree in its own copy q
    of the whole state (R_LEN words: the bots' workspace after the game part is
    written in playouts). The trees' root visits and rewards are summed."""
    length = p[R_LEN]
    bufs = buffers()
    # copies first: start() sets the models in p
    copies = np.empty((threads, length), np.int64)
    for w in range(threads):
        for i in range(length):
            copies[w, i] = p[i]
    n_root, is_vec, stream = start(p, seat, bufs)
    if n_root == 0:
        return NO_ANSWER
    if n_root == 1:
        return end(p, bufs, 0, is_vec)
    iterations = max(1, int(param(bufs, seat, SP_BUDGET)))
    width = n_root + MAX_EXTRA
    root_n = np.zeros((threads, width), np.int64)
    root_w = np.zeros((threads, width))
    for w in prange(threads):
        budget = iterations // threads + (1 if w < iterations % threads else 0)
        if budget > 0:
            worker_fn(copies[w], seat, w, budget, root_n[w], root_w[w])
    n_all, is_vec, pk = options(p, seat, seat, bufs)
    n_all = min(n_all, width)
    tot_n = np.zeros(width, np.int64)
    tot_w = np.zeros(width)
    for w in range(threads):
        for k in range(n_all):
            tot_n[k] += root_n[w, k]
            tot_w[k] += root_w[w, k]
    return end(p, bufs, best_root_nb(n_all, pk, tot_n, tot_w), is_vec)


@njit(cache=True, inline="always")
def ismcts_worker_nb(q, seat, worker, iterations, root_n, root_w, buffers, start, param, log,
                     restore, determinize, apply, playout, reward, options, key, models_until,
                     mover):
    """One root-parallel worker: start a search in its copy q and run one tree."""
    bufs = buffers()
    n_root, is_vec, stream = start(q, seat, bufs)
    if n_root > 1:
        ismcts_tree_nb(q, seat, bufs, stream, worker, iterations, root_n, root_w, param, log,
                       restore, determinize, apply, playout, reward, options, key, models_until,
                       mover)
