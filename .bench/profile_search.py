"""Where an ismcts iteration's time goes (cycles per phase), Cargo Noir, one thread.
Usage: python .bench/profile_search.py [players] [iterations] [decisions] [extra bot parameters,
e.g. "&horizon=3"]"""
import sys, time
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.core.layout import BOTS, M_RNG, N_PARAMS, PARAMS, R_N_PLAYERS, SEATS
from cargo_sim.games.cargo_noir.enums import D_DISCARD, D_TRADE, M_ASK, STATE_SIZE
from cargo_sim.core.rng_nb import seat_stream_nb
from cargo_sim.core.search.params import SP_BUDGET, SP_C, SP_WIDEN, SP_WIDEN_EXP, SP_OPP_WIDEN, SP_BIAS
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.bots import searchkit_nb as K


@intrinsic
def rdtsc(typingctx):
    def codegen(context, builder, sig, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


E_KEY, E_CHILD, E_N, E_AVAIL, E_NEXT = 0, 1, 2, 3, 4


@njit
def state_hash_nb(p, skip_models, q):
    """FNV-1a over the game part but the chance stream (and, with skip_models, the
    other seats' bot rows, which model=1 draws per determinization)."""
    h = np.uint64(0xcbf29ce484222325)
    for i in range(STATE_SIZE):
        if i == M_RNG:
            continue
        if skip_models and (BOTS <= i < PARAMS + SEATS * N_PARAMS):
            r = i - BOTS if i < PARAMS else (i - PARAMS) // N_PARAMS
            if r != q:
                continue
        h = (h ^ np.uint64(p[i])) * np.uint64(0x100000001b3)
    return np.int64(h)


@njit
def profile_nb(s, seat, iterations, acc, hashes):
    # acc: 0 restore+det, 1 options, 2 select, 3 apply, 4 playout, 5 reward+backprop,
    # 6 option calls, 7 vector option calls, 8 iterations, 9 total depth, 10 start, 11 copies,
    # 12 iterations to the exact stop, 13 decisions, 14 vector option calls' cycles
    p = state_ptr_nb(s)
    bufs = K.search_buffers_nb()
    plog = K.kit_log_nb(bufs)
    t = rdtsc()
    n_root, is_vec, stream = K.kit_start_nb(p, seat, bufs)
    acc[10] += rdtsc() - t
    if n_root <= 1:
        K.kit_end_nb(p, bufs, 0, is_vec)
        return
    c = K.kit_param_nb(bufs, seat, SP_C)
    widen = K.kit_param_nb(bufs, seat, SP_WIDEN)
    widen_exp = K.kit_param_nb(bufs, seat, SP_WIDEN_EXP)
    opp_widen = K.kit_param_nb(bufs, seat, SP_OPP_WIDEN)
    bias = K.kit_param_nb(bufs, seat, SP_BIAS)
    rewards = np.zeros(8)
    first = np.full(iterations + 2, -1, np.int64)
    visits = np.zeros(iterations + 2, np.int64)
    n_nodes = 1
    edges = np.empty((max(64, 4 * iterations), 5), np.int64)
    wins = np.zeros(edges.shape[0])
    n_edges = 0
    path = np.empty(1024, np.int64)
    stop_at = -1
    nodes = np.empty(1024, np.int64)
    movers = np.empty(1024, np.int64)
    for it in range(iterations):
        t0 = rdtsc()
        K.kit_restore_nb(p, bufs)
        K.kit_determinize_nb(p, seat, seat_stream_nb(stream, seat, it))   # bag and models
        t1 = rdtsc()
        acc[0] += t1 - t0
        acc[11] += 1
        node = 0
        depth = 0
        while depth < 1024:
            q = K.kit_mover_nb(p)
            if q < 0:
                break
            if p[M_ASK] == D_TRADE or p[M_ASK] == D_DISCARD:   # the vector decisions: same state?
                h = acc[15]
                if h < hashes.shape[0]:
                    hashes[h, 0] = state_hash_nb(p, False, q)
                    hashes[h, 1] = state_hash_nb(p, True, q)
                    hashes[h, 2] = acc[13]
                    acc[15] += 1
            t1 = rdtsc()
            n, is_vec, pk = K.kit_options_nb(p, q, seat, bufs)
            t2 = rdtsc()
            acc[1] += t2 - t1
            acc[6] += 1
            if is_vec:
                acc[7] += 1
                acc[14] += t2 - t1
            if n == 0:
                break
            allowed = n
            if node > 0:
                allowed = 1 + int(min((widen if q == seat else opp_widen) * visits[node] ** widen_exp, float(n)))
            chosen = -1
            chosen_k = 0
            best = -1e300
            prev = -1
            for k in range(n):
                rank = 0 if k == pk else (k + 1 if k < pk else k)
                if rank >= allowed:
                    continue
                e = edges[prev, E_NEXT] if prev >= 0 else first[node]
                kk = K.kit_key_nb(bufs, k)
                if e < 0 or edges[e, E_KEY] != kk:
                    e = first[node]
                    while e >= 0 and edges[e, E_KEY] != kk:
                        e = edges[e, E_NEXT]
                if e < 0:
                    e = n_edges
                    n_edges += 1
                    edges[e, E_KEY] = kk
                    edges[e, E_CHILD] = -1
                    edges[e, E_N] = 0
                    edges[e, E_AVAIL] = 0
                    wins[e] = 0.0
                    if prev >= 0:
                        edges[e, E_NEXT] = edges[prev, E_NEXT]
                        edges[prev, E_NEXT] = e
                    else:
                        edges[e, E_NEXT] = first[node]
                        first[node] = e
                prev = e
                edges[e, E_AVAIL] += 1
                if edges[e, E_N] == 0:
                    score = 1e200 - rank
                else:
                    score = wins[e] / edges[e, E_N] + c * np.sqrt(np.log(edges[e, E_AVAIL]) / edges[e, E_N])
                    if rank == 0:
                        score += bias / (edges[e, E_N] + 1)
                if score > best:
                    best = score
                    chosen = e
                    chosen_k = k
            t3 = rdtsc()
            acc[2] += t3 - t2
            K.kit_apply_nb(p, plog, chosen_k, bufs, is_vec)
            acc[3] += rdtsc() - t3
            path[depth] = chosen
            nodes[depth] = node
            movers[depth] = q
            depth += 1
            if edges[chosen, E_N] == 0:
                if edges[chosen, E_CHILD] < 0 and n_nodes < first.shape[0]:
                    edges[chosen, E_CHILD] = n_nodes
                    n_nodes += 1
                break
            if edges[chosen, E_CHILD] < 0:
                break
            node = edges[chosen, E_CHILD]
        t4 = rdtsc()
        K.playout_models_nb(p, plog)
        t5 = rdtsc()
        acc[4] += t5 - t4
        for q in range(p[R_N_PLAYERS]):
            rewards[q] = K.reward_nb(p, q, 0.01)
        for d in range(depth):
            edges[path[d], E_N] += 1
            wins[path[d]] += rewards[movers[d]]
            visits[nodes[d]] += 1
        acc[5] += rdtsc() - t5
        acc[8] += 1
        acc[9] += depth
        if stop_at < 0:
            m1 = 0
            m2 = 0
            e = first[0]
            while e >= 0:
                v = edges[e, E_N]
                if v > m1:
                    m2 = m1
                    m1 = v
                elif v > m2:
                    m2 = v
                e = edges[e, E_NEXT]
            if m1 - m2 > iterations - it - 1:
                stop_at = it + 1
    if stop_at < 0:
        stop_at = iterations
    acc[12] += stop_at
    acc[13] += 1
    K.kit_end_nb(p, bufs, 0, is_vec)


def main():
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    decisions = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    extra = sys.argv[4] if len(sys.argv) > 4 else ""
    st = GameState([f"ismcts?iterations={iterations}{extra}"] + ["greedy"] * (n_players - 1), seed=1)
    acc = np.zeros(16, np.int64)
    hashes = np.zeros((400000, 3), np.int64)
    done = 0
    wall = 0.0
    while not st.is_over and done < decisions:
        if st.decision.seat == 0:
            s = st.s.copy()
            t0 = time.perf_counter()
            profile_nb(s, 0, iterations, acc, hashes)
            wall += time.perf_counter() - t0
            done += 1
        st.step_vector(*st.bot_answer())
    names = ["restore+determinize", "options (legal+policy+proposals)", "select (keys, UCT)", "apply",
             "playout", "reward+backprop"]
    tot = acc[:6].sum() + acc[10]
    print(f"{n_players} players{extra}, {done} decisions, {acc[8]} iterations, {wall / done * 1e3:.1f} ms/decision "
          f"(profiled), mean depth {acc[9] / acc[8]:.2f}, option calls/iter {acc[6] / acc[8]:.2f} "
          f"(vector {acc[7] / acc[8]:.2f})")
    for i, nme in enumerate(names):
        print(f"  {nme:34s} {acc[i] / tot * 100:5.1f} %  {acc[i] / acc[8]:9.0f} cycles/iter")
    print(f"  {'start':34s} {acc[10] / tot * 100:5.1f} %")
    print(f"  exact early stop: {acc[12] / acc[8]:.3f} of the iterations needed over {acc[13]} searched decisions")
    print(f"  options per call: {acc[1] / acc[6]:.0f} cycles (vector calls {acc[14] / max(acc[7], 1):.0f}, "
          f"{acc[14] / max(acc[1], 1) * 100:.0f} % of the options' time); restore per copy {acc[0] / acc[11]:.0f} cycles")
    hs = hashes[:acc[15]]
    for col, what in ((0, "the whole game part but the chance stream"), (1, "also without the other seats' drawn bots")):
        distinct = sum(len(np.unique(hs[hs[:, 2] == d, col])) for d in np.unique(hs[:, 2]))
        print(f"  vector decisions met in the tree: {len(hs)}; distinct states per search ({what}): "
              f"{distinct} ({distinct / max(len(hs), 1) * 100:.0f} %)")


if __name__ == "__main__":
    main()
