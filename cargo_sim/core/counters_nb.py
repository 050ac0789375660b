"""What every game's aggregate-counter kernel shares: the flat layout of its sections
and the histogram bin. A game's fold kernel adds into ONE int64 array laid out by its
``SECTIONS`` ((name, shape, meaning), ...); ``core.counters`` reads it back by name."""
import hashlib

import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .layout import BOT_FAULT

# the error-buffer slots of a chunk whose event buffer overflowed (core.aggregate replays
# it with a larger buffer): err[OVERFLOW_KIND] = -1, err[OVERFLOW_ROWS] = the game's events
OVERFLOW_KIND = 1
OVERFLOW_ROWS = 7


def section_offsets(sections):
    """({name: first index}, total size) of a SECTIONS layout."""
    off, at = {}, 0
    for name, shape, _ in sections:
        off[name] = at
        at += int(np.prod(shape))
    return off, at


def seat_sections(max_seats: int, n_player_fields: int, share_scale: int | None = None) -> tuple:
    """The SECTIONS head of the seat tables (core.seat_counters): games, wins and the
    players table's sums by seat; with ``share_scale`` (wins may be shared) also ties,
    tied_wins and ``win<scale>``, the win shares x share_scale."""
    shared = share_scale is not None
    ties = (("ties", (1,), "games whose win is shared (after the tie-break)"),) if shared else ()
    shares = ((("tied_wins", (max_seats,), "shared wins by seat"),
               (f"win{share_scale}", (max_seats,),
                f"win shares by seat x {share_scale} (a win shared by k adds {share_scale}/k)"))
              if shared else ())
    return ((("games", (1,), "games played"),) + ties
            + (("wins", (max_seats,), "games won by seat (a shared win counts 1)" if shared
                else "games won by seat"),) + shares
            + (("player_sum", (max_seats, n_player_fields),
                "sum over games of each players-table statistic (enums.PLAYER_FIELDS) by seat"),
               ("player_sumsq", (max_seats, n_player_fields), "sum of squares of the same"),
               ("winner_sum", (max_seats, n_player_fields),
                "the same sums over the games the seat won" + (" (a shared win included)" if shared else ""))))


def game_sections(n_game_stats: int) -> tuple:
    """The game_sum and game_sumsq sections of a game's GAME_STATS."""
    return (("game_sum", (n_game_stats,), "sum over games of GAME_STATS"),
            ("game_sumsq", (n_game_stats,), "sum of squares of GAME_STATS"))


def layout_id(kind: str, sections) -> str:
    """``kind`` plus a hash of the sections' names and shapes: a saved file of another
    layout is refused on load."""
    return kind + ":" + hashlib.sha256(repr([(n, s) for n, s, _ in sections]).encode()).hexdigest()[:12]


@njit(cache=True)
def bin_nb(x, n_bins):
    """x clipped to 0 .. n_bins - 1 (the last bin takes everything beyond)."""
    if x < 0:
        return 0
    if x >= n_bins:
        return n_bins - 1
    return x


@njit(cache=True)
def hist_add_nb(acc, at, n_bins, x):
    """One more count in bin ``bin_nb(x, n_bins)`` of the histogram starting at acc[at]."""
    acc[at + bin_nb(x, n_bins)] += 1


@njit(cache=True)
def fold_game_stats_nb(og, cols, acc, o_sum, o_sumsq):
    """The game's statistics (columns ``cols`` of the games row og[0]) into their sums
    and sums of squares."""
    for i in range(len(cols)):
        x = og[0, cols[i]]
        acc[o_sum + i] += x
        acc[o_sumsq + i] += x * x


@njit(cache=True)
def fold_seats_nb(op, n, acc, f_won, o_wins, o_sum, o_sumsq, o_winner, k, share_scale, o_share, o_tied):
    """Each seat's players row (op[0, seat], every field) into the seat tables
    (core.seat_counters): wins, the fields' sums, sums of squares and sums over the
    seat's wins. With ``o_share >= 0`` (k winners this game) a win also adds
    ``share_scale // k`` to the win shares and, when shared, 1 to the tied wins."""
    nf = op.shape[2]
    share = share_scale // k if k > 0 else 0
    for q in range(n):
        won = np.int64(op[0, q, f_won])
        acc[o_wins + q] += won
        if won and o_share >= 0:
            acc[o_share + q] += share
            if k > 1:
                acc[o_tied + q] += 1
        for f in range(nf):
            x = np.int64(op[0, q, f])
            acc[o_sum + q * nf + f] += x
            acc[o_sumsq + q * nf + f] += x * x
            if won:
                acc[o_winner + q * nf + f] += x


@njit(cache=True)
def winner_share_nb(op, n, f_won, share_scale):
    """A winner's share of this game's win x share_scale (the winners split it; 0
    when nobody won)."""
    k = 0
    for q in range(n):
        k += op[0, q, f_won]
    return share_scale // k if k > 0 else 0


@njit(cache=True)
def overflowed_nb(err, g, n_ev, rows):
    """Whether game g's n_ev events overflowed the log's rows; if so err says so
    (core.contract.ERR_GAME = the game, OVERFLOW_KIND, OVERFLOW_ROWS) for the driver's
    replay with a larger buffer."""
    if n_ev <= rows:
        return False
    err[0] = g
    err[OVERFLOW_KIND] = -1
    err[OVERFLOW_ROWS] = n_ev
    return True


@njit(cache=True)
def illegal_nb(err, g, ask, seat, a, when):
    """err of game g's illegal decision (as the games' run_games_nb): the game, the
    question, the seat, the answer, the round (or day), whether the bot failed."""
    err[0], err[1], err[2], err[3], err[4] = g, ask, seat, a, when
    err[5] = 1 if a == BOT_FAULT else 0
