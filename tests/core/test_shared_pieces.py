"""The shared pieces the games' counters, analyses and benchmarks call, on small inputs
worked out by hand: the seat sections and the per-seat fold (core.counters_nb), the
points-by-source table and the robustness headlines (core.seat_stats), the interleaved
kernel rates (core.kernel_rates)."""
import numpy as np
import pandas as pd
import pytest

from cargo_sim.core.counters_nb import (
    fold_game_stats_nb,
    fold_seats_nb,
    game_sections,
    hist_add_nb,
    illegal_nb,
    overflowed_nb,
    seat_sections,
    section_offsets,
    winner_share_nb,
)
from cargo_sim.core.kernel_rates import interleaved_rates, rate_share
from cargo_sim.core.layout import BOT_FAULT
from cargo_sim.core.seat_stats import (
    half_width,
    rotated_ranking,
    score_breakdown,
    winners_largest_source,
)


def test_seat_sections_with_and_without_shared_wins():
    shared = [n for n, _, _ in seat_sections(4, 3, 12)]
    assert shared == ["games", "ties", "wins", "tied_wins", "win12", "player_sum", "player_sumsq",
                      "winner_sum"]
    assert [n for n, _, _ in seat_sections(5, 2)] == ["games", "wins", "player_sum", "player_sumsq",
                                                       "winner_sum"]
    assert {n: s for n, s, _ in seat_sections(5, 2)}["player_sum"] == (5, 2)
    assert [n for n, _, _ in game_sections(3)] == ["game_sum", "game_sumsq"]


def test_fold_seats_counts_wins_shares_and_sums():
    sections = seat_sections(4, 2, 12) + game_sections(2)
    off, size = section_offsets(sections)
    acc = np.zeros(size, np.int64)
    # 3 seats; fields (vp, won); seats 0 and 2 share the win
    op = np.array([[[7, 1], [-2, 0], [5, 1], [9, 9]]], np.int32)
    for _ in range(2):
        fold_seats_nb(op, 3, acc, 1, off["wins"], off["player_sum"], off["player_sumsq"],
                      off["winner_sum"], 2, 12, off["win12"], off["tied_wins"])
    sec = {n: acc[off[n]:off[n] + int(np.prod(s))].reshape(s) for n, s, _ in sections}
    assert sec["wins"].tolist() == [2, 0, 2, 0] and sec["tied_wins"].tolist() == [2, 0, 2, 0]
    assert sec["win12"].tolist() == [12, 0, 12, 0]                    # 6 a game each
    assert sec["player_sum"][:, 0].tolist() == [14, -4, 10, 0]       # seat 3 not playing
    assert sec["player_sumsq"][:, 0].tolist() == [98, 8, 50, 0]
    assert sec["winner_sum"][:, 0].tolist() == [14, 0, 10, 0]
    assert winner_share_nb(op, 3, 1, 12) == 6 and winner_share_nb(op * 0, 3, 1, 12) == 0
    og = np.array([[4, 11, 3]], np.int64)
    fold_game_stats_nb(og, (1, 2), acc, off["game_sum"], off["game_sumsq"])
    assert acc[off["game_sum"]:off["game_sum"] + 2].tolist() == [11, 3]
    assert acc[off["game_sumsq"]:off["game_sumsq"] + 2].tolist() == [121, 9]
    # no shared wins (o_share < 0): the shares and tied wins are left alone
    acc2 = np.zeros(size, np.int64)
    fold_seats_nb(op, 3, acc2, 1, off["wins"], off["player_sum"], off["player_sumsq"],
                  off["winner_sum"], 2, 12, -1, -1)
    assert acc2[off["win12"]:off["win12"] + 4].sum() == 0 and acc2[off["tied_wins"]] == 0


def test_histogram_bins_overflow_and_illegal_answers():
    acc = np.zeros(6, np.int64)
    for x in (-3, 0, 2, 9):
        hist_add_nb(acc, 1, 4, x)
    assert acc.tolist() == [0, 2, 0, 1, 1, 0]                        # below 0: bin 0; beyond: last
    err = np.zeros(8, np.int64)
    assert not overflowed_nb(err, 3, 10, 10) and not err.any()
    assert overflowed_nb(err, 3, 11, 10) and (err[0], err[1], err[7]) == (3, -1, 11)
    err[:] = 0
    illegal_nb(err, 2, 5, 1, BOT_FAULT, 7)
    assert err[:6].tolist() == [2, 5, 1, BOT_FAULT, 7, 1]
    illegal_nb(err, 2, 5, 1, 99, 7)
    assert err[5] == 0


def test_score_breakdown_and_winners_largest_source():
    p = pd.DataFrame({"game": [0, 0, 1, 1], "n_players": 2, "won": [1, 0, 0, 1],
                      "a": [3, 1, 2, 5], "b": [4, 0, 6, 1]}).assign(vp=lambda d: d["a"] + d["b"])
    s = score_breakdown(p, [("a", "alpha"), ("b", "beta")])
    w = s[s["who"] == "winners"].set_index("source")["mean"]
    assert w.to_dict() == {"alpha": 4.0, "beta": 2.5, "total": 6.5}
    assert s[s["who"] == "others"].set_index("source")["mean"]["total"] == 4.5
    top, means, hws = winners_largest_source(p, [("a", "alpha"), ("b", "beta")])
    assert top == "alpha" and means == {"alpha": 4.0, "beta": 2.5}
    assert hws["alpha"] == pytest.approx(1.96 * np.std([3, 5], ddof=1) / np.sqrt(2))
    assert half_width(0.5, 100) == pytest.approx(0.098)


def test_rotated_ranking_puts_every_bot_in_every_seat():
    calls = []

    class Res:
        def __init__(self, seats):
            strength = {"x": 0.6, "y": 0.3, "z": 0.1}
            self.players = pd.DataFrame({"seat": range(3), "win_share": [strength[b] for b in seats]})

    def simulate(games, seats, **kw):
        calls.append(tuple(seats))
        return Res(seats)
    got = rotated_ranking(simulate, 10, ("x", "y", "z"), seed=1)
    assert calls == [("x", "y", "z"), ("y", "z", "x"), ("z", "x", "y")]
    assert got["ranking"][0] == "x > y > z" and got["leader"][0] == "x"
    assert got["ranking"][1]["x"] == pytest.approx(0.6)


def test_interleaved_rates_and_share():
    calls = []

    def rate(n, games, workers, seed, bot, game):
        calls.append((n, games, seed, bot, game))
        return {"random": 1000.0, "expert": 250.0}[bot] + seed
    got = interleaved_rates(rate, [(4, "random"), (4, "expert")], "g", repeat=2, seconds=0.5)
    assert [c[2] for c in calls] == [1, 1, 2, 2, 3, 3]               # load, then in turn
    assert calls[2][1] == 500 and calls[3][1] == 125                  # sized to ~0.5 s each
    s = rate_share(got, (4, "expert"), (4, "random"))
    assert (s["part"], s["whole"]) == (253.0, 1003.0) and s["share"] == pytest.approx(253 / 1003)
    assert s["share_median"] == pytest.approx(253 / 1003)
