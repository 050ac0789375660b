"""The raw-pointer plumbing under the kernels (cargo_sim.core.borrow_nb) and the
exact trade solver they call by address, checked in whole simulations."""
import numpy as np
from numba import njit

import cargo_sim
from cargo_sim import Rules
from cargo_sim.core.borrow_nb import bits_float_nb, float_bits_nb, keep_nb, state_array_nb, state_ptr_nb
from cargo_sim.core.shared_nb import shared_array_nb, shared_ptr_nb, shared_sum_nb


@njit(cache=True)
def _pointer_roundtrip_nb(a, x):
    p = state_ptr_nb(a)
    p[2] = 7                       # a write through the pointer lands in the array
    p[3] += p[1]
    view = state_array_nb(p, 3)    # a view of the first 3 items
    same = state_array_nb(a, 99)   # an array passes through (length ignored)
    return view.shape[0], view.sum(), same.shape[0], bits_float_nb(float_bits_nb(x))


def test_state_pointer_views_and_float_bits():
    a = np.array([1, 2, 3, 4, 5], np.int64)
    n_view, total, n_same, back = _pointer_roundtrip_nb(a, -0.1 + 1e-17)
    assert list(a) == [1, 2, 7, 6, 5]
    assert (n_view, total, n_same) == (3, 1 + 2 + 7, 5)
    assert back == -0.1 + 1e-17       # exact: the bits are kept, not a rounding


def test_holdings_beyond_the_value_table_in_whole_games():
    """With a 24-token warehouse (the most rules_limits allows) and a big port,
    bots that hold their cargo until the last turn sell more tokens than the
    trade table covers (32): every such trade's value,
    computed in the kernels by the exact solver called through its address (on
    2 threads; the bots value such holdings the same way), equals the
    independent Python trade_value of the tokens sold."""
    rules = Rules.default().replace({"start_warehouse": 24, "card.Warehouses.warehouse": 0,
                                     "port.Rio.slots": 8})
    res = cargo_sim.simulate(40, ["greedy?sell_at=1000"] * 2, seed=5, rules=rules, events=True,
                             progress=False, workers=2)
    ev = res.events
    types = rules.cargo_types
    tr = ev[ev["action"] == "trade"]
    big = tr[tr[types].sum(axis=1) > rules.trade_tables().table_max_total]
    assert len(big) >= 3, "the variant should produce trades beyond the table"
    for _, row in big.iterrows():
        counts = [int(row[t]) for t in types]
        assert int(row["value"]) == cargo_sim.trade_value(counts, wilds=int(row["wild"]))
    # the per-player statistics agree with the event log
    assert int(tr["value"].sum()) == int(res.players["trade_value"].sum())


@njit(cache=True)
def _shared_reads_nb(s):
    t = shared_ptr_nb(s)
    return t[0] + t[2], shared_array_nb(s).sum(), shared_sum_nb(s)


def test_a_state_attached_to_its_shared_array_keeps_it_alive():
    """core.shared_nb: the header holds the shared array's address and length, the
    kernels read it through them, and the state's memory keeps it alive."""
    import gc
    import weakref
    from cargo_sim.core.layout import HEADER_LEN, R_SHARED, R_SHARED_LEN
    from cargo_sim.core.shared_nb import attach, owner_of
    shared = np.array([5, 6, 7, 8], np.int64)
    gone = weakref.ref(shared)
    s = attach(np.arange(HEADER_LEN + 3, dtype=np.int64), shared)
    assert s[R_SHARED] == shared.ctypes.data and s[R_SHARED_LEN] == 4 and s[HEADER_LEN + 2] == HEADER_LEN + 2
    del shared
    view = s[:]
    del s
    gc.collect()
    assert gone() is not None and owner_of(view) is not None     # a view of the state is enough
    first, total, checksum = _shared_reads_nb(view)
    assert (first, total) == (5 + 7, 26)
    gone()[1] += 1                                                # any one word changes the sum
    assert _shared_reads_nb(view)[2] != checksum
    del view
    gc.collect()
    assert gone() is None
    assert owner_of(np.zeros(3, np.int64)) is None


def test_clones_share_the_tables_and_copy_only_the_state():
    """GameState's clone and determinize copy ~13 KB (not the ~6 MB of tables), the
    copies point at the same shared array, which lives as long as any copy does."""
    import gc
    from cargo_sim.core.layout import R_SHARED, R_SHARED_LEN
    st = cargo_sim.GameState(["ismcts?iterations=5", "expert"], seed=2)
    assert st.s.nbytes < 20_000 and st.s[R_SHARED_LEN] > 100_000
    twin = st.determinize(st.decision.seat, seed=3).clone()
    assert twin.s[R_SHARED] == st.s[R_SHARED] and twin.s.nbytes == st.s.nbytes
    expected = st.clone().playout().returns()
    del st
    gc.collect()
    assert twin.clone().playout().is_over
    again = cargo_sim.GameState(["ismcts?iterations=5", "expert"], seed=2)
    assert again.clone().playout().returns() == expected


@njit(cache=True)
def _fill_nb(p, n, v):
    for i in range(n):
        p[i] = v


@njit(cache=True)
def _kept_nb(n):
    s = np.zeros(n, np.int64)
    p = state_ptr_nb(s)
    _fill_nb(p, n, 1)
    other = np.zeros(n, np.int64)          # without keep_nb this allocation reused s's memory
    _fill_nb(state_ptr_nb(other), n, 7)
    t = 0
    for i in range(n):
        t += p[i]
    keep_nb(s)                             # s lives until here
    keep_nb(other)
    return t


def test_keep_nb_keeps_an_array_alive_while_a_pointer_to_it_is_used():
    """numba frees an array after its variable's last use, and a pointer is not a use:
    the same kernel without keep_nb(s) summed 7000 here (s freed, other in its place)."""
    assert _kept_nb(1000) == 1000
