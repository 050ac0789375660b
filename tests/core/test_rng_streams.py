"""The bots' streams keep their arithmetic when computed in parts (the
engine computes each seat's one-way key once per game, the random bot flips its
coins with the generator in a register), and the reference kernel of the bench
loads as a registered module (numba's cache of it must load in the next process)."""
import inspect

import numpy as np

from cargo_sim.bench.reference import load_reference
from cargo_sim.core.rng_nb import (bot_oneway_nb, bot_stream_at_nb, bot_stream_nb, fair_flips_at_nb,
                                   fair_flips_each_at_nb, rand_below_at_nb)

M64 = (1 << 64) - 1
G = 0x9E3779B97F4A7C15


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def signed(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def test_a_seats_stream_from_its_one_way_key_is_the_streams_formula():
    for key in (0, 1, -5, 0x7FFF_FFFF_FFFF_FFFF, -(1 << 63)):
        k = key & M64
        x = mix64(k ^ 0x6A09E667F3BCC909) ^ k
        assert bot_oneway_nb(key) == signed(x)
        for d in (0, 1, 37, 1 << 20):
            want = signed((x + d * ((G << 32) & M64)) & M64)
            assert bot_stream_nb(key, d) == want
            assert bot_stream_at_nb(bot_oneway_nb(key), d) == want


def test_coin_flips_are_the_sum_of_draws_below_two_and_move_the_stream_alike():
    for seed in (0, 3, -(1 << 62) + 7):
        for n in (0, 1, 2, 9, 40):
            a = np.array([7, seed, 9], np.int64)
            b = a.copy()
            heads = fair_flips_at_nb(a, 1, n)
            assert heads == sum(rand_below_at_nb(b, 1, 2) for _ in range(n))
            assert a.tolist() == b.tolist()
    assert fair_flips_at_nb(np.array([0], np.int64), 0, -3) == 0      # no tokens: no draw


def test_flips_of_several_counts_at_once_are_the_flips_of_each_in_turn():
    rng = np.random.default_rng(25)
    cases = [[0] * 10, [1], [63], [64], [0, 3, 0, 2, 7, 0, 0, 1, 4, 2], [40, 23], [40, 24],
             [5, -3, 4], [30, 30, 30]] + [list(rng.integers(0, 9, 10)) for _ in range(40)]
    for counts in cases:
        for seed in (0, -(1 << 62) + 7):
            n = len(counts)
            a = np.array([seed, 11] + counts + [-1] * n, np.int64)
            b = a.copy()
            heads = fair_flips_each_at_nb(a, 0, 2, 2 + n, n)
            want = [fair_flips_at_nb(b, 0, c) for c in counts]
            b[2 + n:] = want
            assert heads == sum(want)
            assert a.tolist() == b.tolist()        # the same heads, the same generator after


def test_the_reference_is_loaded_as_a_registered_module(tmp_path):
    f = tmp_path / "refsim.py"
    f.write_text("def run(n, players, seed, parallel):\n    return n\n")
    mod = load_reference(f)
    assert mod.run(3, 4, 0, False) == 3
    # numba's cache records inspect.getmodule's name: unregistered, it is "<dynamic>"
    assert inspect.getmodule(mod.run) is mod
