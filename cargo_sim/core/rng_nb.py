"""Counter-based random numbers carried inside each game (splitmix64).

Every game's stream is derived from (run seed, game index) alone, so a game is
the same whichever thread or worker plays it and whatever else runs beside it
(numba's np.random keeps one state per thread, which would break that).
"""
import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .borrow_nb import popcount_nb

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S63 = np.uint64(63)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def mix64_nb(z):
    """splitmix64 finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def game_seed_nb(run_seed, index):
    """Seed of game `index` of a run: depends on nothing else."""
    return mix64_nb(mix64_nb(np.uint64(run_seed) ^ _GOLDEN) + np.uint64(index) * _GOLDEN)


_BOTS = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True)
def bot_seed_nb(game_seed):
    """The bots' own seed of a game (enums.M_BOT_SEED): derived from the game's
    seed, apart from its chance stream, for bots that need random numbers
    without reading or moving the game's (search bots, docs/forward.md)."""
    return np.int64(mix64_nb(mix64_nb(np.uint64(game_seed) ^ _BOTS) + _GOLDEN))


@njit(cache=True)
def seat_key_nb(bot_seed, seat):
    """A seat's key from the bots' seed: seat_stream_nb(bot_seed, seat, key) is
    keyed_stream_nb(seat_key_nb(bot_seed, seat), key). Invertible (mix64_nb is a
    bijection): whoever holds it can recover the bots' seed, so only trusted
    built-in bots are handed it (enums.M_SEAT_KEY)."""
    return np.int64(mix64_nb(np.uint64(bot_seed) + np.uint64(seat + 1) * _GOLDEN))


@njit(cache=True)
def keyed_stream_nb(seat_key, key):
    """seat_stream_nb from a seat's key."""
    return np.int64(mix64_nb(np.uint64(seat_key) ^ np.uint64(key)))


@njit(cache=True)
def seat_stream_nb(bot_seed, seat, key):
    """A seat's stream start from the bots' seed, a seat and a key (e.g. a
    digest of what the seat sees)."""
    return keyed_stream_nb(seat_key_nb(bot_seed, seat), key)


_ONEWAY = np.uint64(0x6A09E667F3BCC909)


@njit(cache=True)
def bot_stream_nb(seat_key, decision):
    """The stream a seat's bot draws from at its `decision`-th decision of the
    game (enums.M_BOT_RNG). The seat's key goes through a feed-forward step,
    mix64(k ^ c) ^ k, which (unlike mix64 alone) is not simply inverted: a bot
    that reads its stream learns the stream of its own later decisions, not its
    seat's key, the bots' seed, the game's seed or another seat's stream.
    (Not a cryptographic guarantee: nobody has analysed the construction.)
    Decision d's draws start at x + d * G * 2**32 with x the one-way key, so the
    decisions' draws never overlap (a decision drawing fewer than 2**32 numbers)."""
    return bot_stream_at_nb(bot_oneway_nb(seat_key), decision)


@njit(cache=True)
def bot_oneway_nb(seat_key):
    """bot_stream_nb's one-way key of a seat (its draws at decision 0): constant
    for a game, so a loop over a game's decisions computes it once per seat."""
    k = np.uint64(seat_key)
    return np.int64(mix64_nb(k ^ _ONEWAY) ^ k)


@njit(cache=True)
def bot_stream_at_nb(oneway, decision):
    """bot_stream_nb from the seat's one-way key (bot_oneway_nb)."""
    return np.int64(np.uint64(oneway) + np.uint64(decision) * (_GOLDEN << _S32))


@njit(cache=True)
def next_u64_at_nb(a, i):
    """Advance the generator kept (as int64 bits) in a[i] and return 64 random bits."""
    x = np.uint64(a[i]) + _GOLDEN
    a[i] = np.int64(x)
    return mix64_nb(x)


@njit(cache=True)
def rand_below_at_nb(a, i, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift, bias < 2**-32)."""
    r = next_u64_at_nb(a, i) >> _S32
    return np.int64((r * np.uint64(n)) >> _S32)


@njit(cache=True)
def fair_flips_at_nb(a, i, n):
    """Heads among n fair flips: the sum of n rand_below_at_nb(a, i, 2) (each the
    top bit of its draw), with the generator kept in a register meanwhile."""
    x = np.uint64(a[i])
    k = np.int64(0)
    for _ in range(n):
        x += _GOLDEN
        k += np.int64(mix64_nb(x) >> _S63)
    a[i] = np.int64(x)
    return k


@njit(cache=True)
def fair_flips_each_at_nb(a, i, counts_at, out_at, n):
    """a[out_at + t] = fair_flips_at_nb(a, i, a[counts_at + t]) for t in range(n), in
    turn (the same draws, the same generator after), and their sum. The draws of
    up to 63 flips in all go to one word's bits first, then each count takes its
    run of bits (popcount): branch-free where a loop per count of a few flips
    mispredicts its exits (the random bot's trade, docs/performance.md)."""
    total_flips = 0
    negative = False
    for t in range(n):
        total_flips += a[counts_at + t]
        negative |= a[counts_at + t] < 0
    heads = np.int64(0)
    if total_flips > 63 or negative:
        for t in range(n):
            k = fair_flips_at_nb(a, i, a[counts_at + t])
            a[out_at + t] = k
            heads += k
        return heads
    # flip j goes to bit total_flips - 1 - j: shifted in, a dependent chain that LLVM
    # keeps scalar (an OR of bit j it vectorised with emulated 64-bit multiplies)
    x = np.uint64(a[i])
    bits = np.uint64(0)
    for _ in range(total_flips):
        x += _GOLDEN
        bits = (bits << np.uint64(1)) | (mix64_nb(x) >> _S63)
    a[i] = np.int64(x)
    rest = total_flips
    for t in range(n):
        c = a[counts_at + t]
        rest -= c
        k = popcount_nb((bits >> np.uint64(rest)) & ((np.uint64(1) << np.uint64(c)) - np.uint64(1)))
        a[out_at + t] = k
        heads += k
    return heads


@njit(cache=True)
def rand_float_at_nb(a, i):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64_at_nb(a, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def game_seed(run_seed: int, index: int) -> int:
    """Python view of game_seed_nb (for tables and replays)."""
    return int(game_seed_nb(np.uint64(run_seed % 2**64), np.uint64(index)))
