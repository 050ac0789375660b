"""Tests of cargo_sim.tournament.

The statistics are checked on small hand-made ``players`` tables whose right
answers are worked out by hand in the comments; the seating plan is checked
for seat balance over many (entrants, players) shapes; a few tiny real
tournaments of ``random`` entrants check the plumbing, reproducibility and
common random numbers end to end.
"""
import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import importlib

tm = importlib.import_module("cargo_sim.runners.tournament")
from cargo_sim import BotError, ConfigError, Rules, RulesError
from cargo_sim.core.ratings import focus_table
from cargo_sim.runners.tournament import (ELO_PER_NAT, bradley_terry, head_to_head, pairwise_counts,
                                  seat_maps, seating_plan, significance, standings_table,
                                  tournament, wilson_interval)

LN3 = math.log(3.0)


def table(rows, **extra):
    """players table from (game, entrant, rank[, vp[, win_share]]) tuples."""
    full = [tuple(r) + (0, 0.0)[len(r) - 3:] for r in rows]
    df = pd.DataFrame(full, columns=["game", "entrant", "rank", "vp", "win_share"])
    for k, v in extra.items():
        df[k] = v
    return df


# ---------------------------------------------------------------------------
# seating plan
SHAPES = [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (6, 4), (7, 5),
          (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (4, 5)]


@pytest.mark.parametrize("design", ["balanced", "all"])
@pytest.mark.parametrize("n_entrants,n_players", SHAPES)
def test_seating_plan_balance(n_entrants, n_players, design):
    plan = seating_plan(n_entrants, n_players, design)
    seats = np.array(plan["seats"].tolist())
    assert seats.shape == (len(plan), n_players)
    # every composition has the same number of seatings (each plays every deal once)
    assert plan.groupby("combo").size().nunique() == 1
    # every entrant sits in every seat equally often
    counts = np.array([[np.sum(seats[:, s] == e) for s in range(n_players)]
                       for e in range(n_entrants)])
    assert (counts == counts[0, 0]).all() and counts[0, 0] > 0
    q, r = divmod(n_players, n_entrants)
    for row in seats:
        mult = np.bincount(row, minlength=n_entrants)
        assert set(mult) <= {q, q + 1}            # balanced fill, distinct when E >= n
    for _, g in plan.groupby("combo"):
        assert len(set(g["seats"])) == len(g)
        assert len({tuple(sorted(s)) for s in g["seats"]}) == 1
        # every meeting of a and b in seats (i, j) has its swap (j, i) within the deal,
        # and each entrant follows each other one equally often in the turn order
        meet, follow = Counter(), Counter()
        for row in g["seats"]:
            for i, j in itertools.permutations(range(n_players), 2):
                if row[i] != row[j]:
                    meet[row[i], row[j], i, j] += 1
            for i in range(n_players):
                a, b = row[i], row[(i + 1) % n_players]
                if a != b:
                    follow[a, b] += 1
        assert all(meet[b, a, i, j] == c for (a, b, i, j), c in meet.items())
        if q == 0:                                  # distinct entrants: all pairs equally
            assert len(set(follow.values())) == 1
    assert plan["combo"].nunique() == math.comb(n_entrants, r)
    assert list(plan["table"]) == list(range(len(plan)))


def test_seating_plan_examples():
    assert seating_plan(3, 2)["seats"].tolist() == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    plan = seating_plan(3, 3)
    assert len(plan) == 6 and len(set(plan["seats"])) == 6 and plan["combo"].eq(0).all()
    # every order at 2-4 seats; 20 at 5 (120 with design="all")
    assert len(seating_plan(4, 4)) == 24 and len(seating_plan(5, 5)) == 20
    assert len(seating_plan(5, 5, "all")) == 120
    assert len(seat_maps(5)) == 20 and len(set(seat_maps(5))) == 20
    # 3 entrants at 4 seats: A B C A, A B C B, A B C C: 12 distinct orders each
    assert seating_plan(3, 4).groupby("combo").size().tolist() == [12, 12, 12]
    # 2 entrants at 4 seats: the 6 orders of A A B B
    assert sorted(seating_plan(2, 4)["seats"]) == sorted(set(itertools.permutations((0, 0, 1, 1))))
    with pytest.raises(ConfigError, match="design"):
        seating_plan(3, 3, "mirror")


def test_balanced_five_seat_design_is_sharply_two_transitive():
    # for every pair of seats and every ordered pair of positions, exactly one map
    maps = seat_maps(5)
    hits = Counter((i, j, g[i], g[j]) for g in maps for i, j in itertools.permutations(range(5), 2))
    assert len(hits) == 20 * 20 and set(hits.values()) == {1}


# ---------------------------------------------------------------------------
# Wilson interval
def test_wilson_by_hand():
    # 8/10, z = 1.959964: centre (0.8 + z^2/20) / (1 + z^2/10) = 0.716740,
    # half z*sqrt(0.016 + z^2/400) / (1 + z^2/10) = 0.226578
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.490162, abs=1e-6)
    assert hi == pytest.approx(0.943318, abs=1e-6)
    # 0/10: lo = 0, hi = z^2 / (n + z^2) = 3.841459 / 13.841459
    lo, hi = wilson_interval(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.277533, abs=1e-6)
    # symmetry, vectorised, n = 0
    lo, hi = wilson_interval(np.array([2, 8, 0]), np.array([10, 10, 0]))
    assert lo[0] == pytest.approx(1 - 0.943318, abs=1e-6) and hi[1] == pytest.approx(0.943318, abs=1e-6)
    assert np.isnan(lo[2]) and np.isnan(hi[2])
    # fractional successes (shared wins) are allowed
    assert wilson_interval(4.5, 9) == pytest.approx(wilson_interval(5, 10), abs=0.05)


# ---------------------------------------------------------------------------
# head to head
HAND = [  # game, entrant, rank
    (0, "A", 1), (0, "B", 2), (0, "C", 3),      # A > B > C
    (1, "A", 3), (1, "B", 1), (1, "C", 1),      # B = C > A
    (2, "A", 1), (2, "B", 1),                   # A = B (a 2-seat game)
    (3, "C", 1), (3, "A", 2),                   # C > A
]


def test_head_to_head_by_hand():
    p = table(HAND)
    h = head_to_head(p)
    wins, n = pairwise_counts(p)
    # A-B: g0 A, g1 B, g2 tie -> 1.5/3; A-C: g0 A, g1 C, g3 C -> 1/3; B-C: g0 B, g1 tie -> 1.5/2
    assert h.loc["A", "B"] == pytest.approx(0.5) and h.loc["B", "A"] == pytest.approx(0.5)
    assert h.loc["A", "C"] == pytest.approx(1 / 3) and h.loc["C", "A"] == pytest.approx(2 / 3)
    assert h.loc["B", "C"] == pytest.approx(0.75) and h.loc["C", "B"] == pytest.approx(0.25)
    assert n.loc["A", "B"] == 3 and n.loc["A", "C"] == 3 and n.loc["B", "C"] == 2
    assert np.isnan(np.diag(h.to_numpy())).all() and (np.diag(n.to_numpy()) == 0).all()
    np.testing.assert_allclose(wins + wins.T, n)


def test_head_to_head_ignores_same_entrant_pairs():
    # A holds two seats: ranks 1 and 3, B is 2nd -> A-B meetings: one each way; A-A ignored
    p = table([(0, "A", 1), (0, "B", 2), (0, "A", 3)])
    h = head_to_head(p)
    _, n = pairwise_counts(p)
    assert h.loc["A", "B"] == 0.5 and n.loc["A", "B"] == 2 and n.loc["A", "A"] == 0


# ---------------------------------------------------------------------------
# Bradley-Terry
def wins_matrix(d):
    names = sorted({k for pair in d for k in pair})
    w = pd.DataFrame(0.0, index=names, columns=names)
    for (a, b), v in d.items():
        w.loc[a, b] = v
    return w


def test_bradley_terry_two_players_by_hand():
    # A ahead of B 3 times out of 4: exp(bA - bB) = 3, so bA - bB = ln 3, centred +-ln3/2.
    # Information for the difference 4 * 3/4 * 1/4 = 3/4; each centred strength is half the
    # difference: var = (4/3) / 4 = 1/3.
    r = bradley_terry(wins_matrix({("A", "B"): 3, ("B", "A"): 1}))
    assert list(r.index) == ["A", "B"]
    assert r.loc["A", "log_strength"] == pytest.approx(LN3 / 2, abs=1e-7)
    assert r.loc["B", "log_strength"] == pytest.approx(-LN3 / 2, abs=1e-7)
    assert r["se"].tolist() == pytest.approx([math.sqrt(1 / 3)] * 2, abs=1e-7)
    assert r.loc["A", "elo"] - r.loc["B", "elo"] == pytest.approx(400 * math.log10(3), abs=1e-5)
    assert r["elo"].sum() == pytest.approx(0, abs=1e-9)
    assert r.loc["A", "meetings"] == 4 and r.attrs["pseudo"] == 0


def test_bradley_terry_from_players_table():
    # the same 3:1 record built as 4 two-seat games
    p = table([(0, "A", 1), (0, "B", 2), (1, "A", 1), (1, "B", 2),
               (2, "A", 1), (2, "B", 2), (3, "A", 2), (3, "B", 1)])
    r = bradley_terry(pairwise_counts(p)[0])
    assert r.loc["A", "log_strength"] - r.loc["B", "log_strength"] == pytest.approx(LN3, abs=1e-7)


def test_bradley_terry_three_players_exact():
    # records that fit the model exactly (A-B 3:1, B-C 3:1, A-C 9:1 = odds 3*3) are the MLE:
    # b = (ln3, 0, -ln3); ties as halves (A-B 2.5:0.5 + one tie -> 3:1)
    w = wins_matrix({("A", "B"): 3, ("B", "A"): 1, ("B", "C"): 6, ("C", "B"): 2,
                     ("A", "C"): 9, ("C", "A"): 1})
    r = bradley_terry(w)
    assert r.loc[["A", "B", "C"], "log_strength"].tolist() == pytest.approx([LN3, 0, -LN3], abs=1e-7)
    assert r.loc["A", "elo"] == pytest.approx(LN3 * ELO_PER_NAT, abs=1e-5)


def test_bradley_terry_symmetric_record_is_zero():
    w = wins_matrix({("A", "B"): 5, ("B", "A"): 5, ("B", "C"): 2.5, ("C", "B"): 2.5,
                     ("A", "C"): 1, ("C", "A"): 1})
    assert bradley_terry(w)["log_strength"].tolist() == pytest.approx([0, 0, 0], abs=1e-8)


@pytest.mark.parametrize("wins, pseudo, message", [
    (pd.DataFrame([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0]], index=["A", "B"], columns=["A", "B", "C"]),
     None, "square wins matrix whose columns are its rows"),
    (pd.DataFrame([[0.0, 1.0], [1.0, 0.0]], index=["A", "B"], columns=["A", "C"]),
     None, "square wins matrix"),
    (pd.DataFrame([[0.0, 1.0], [1.0, 0.0]], index=["A", "A"], columns=["A", "A"]),
     None, "each once"),
    (wins_matrix({("A", "B"): np.inf, ("B", "A"): 1}), None, r"wins\['A'\]\['B'\] is inf"),
    (wins_matrix({("A", "B"): np.nan, ("B", "A"): 1}), None, "finite counts >= 0"),
    (wins_matrix({("A", "B"): -1, ("B", "A"): 1}), None, r"wins\['A'\]\['B'\] is -1"),
    (wins_matrix({("A", "B"): 1, ("B", "A"): 1}), float("inf"), "pseudo must be a finite number"),
    (wins_matrix({("A", "B"): 1, ("B", "A"): 1}), -0.5, "pseudo must be a finite number"),
    ([[0, 1], [1, 0]], None, "takes a DataFrame"),
    (pd.DataFrame([["x", "y"], ["y", "x"]], index=["A", "B"], columns=["A", "B"]), None,
     "must hold numbers"),
])
def test_bradley_terry_refuses_a_matrix_it_cannot_fit(wins, pseudo, message):
    """Not square, a NaN, an infinite or negative count: one ConfigError line, not
    numbers from a part of the matrix or numpy's LinAlgError."""
    with pytest.raises(ConfigError, match=message) as info:
        bradley_terry(wins, pseudo=pseudo)
    assert "\n" not in str(info.value)


def test_bradley_terry_perfect_record_is_infinite_with_reason():
    w = wins_matrix({("A", "B"): 3, ("B", "A"): 0})
    with pytest.warns(RuntimeWarning, match="never ahead: B; never behind: A"):
        r = bradley_terry(w)
    assert r.loc["A", "log_strength"] == np.inf and r.loc["B", "log_strength"] == -np.inf
    assert r.loc["B", "note"] == "never ahead" and "never" in r.attrs["note"]
    # a group that never lost to the rest: A-B 1:1 finite, C never ahead
    w3 = wins_matrix({("A", "B"): 1, ("B", "A"): 1, ("A", "C"): 2, ("B", "C"): 2})
    with pytest.warns(RuntimeWarning, match="never ahead: C"):
        r3 = bradley_terry(w3)
    assert r3.loc["C", "log_strength"] == -np.inf
    assert r3.loc[["A", "B"], "log_strength"].tolist() == pytest.approx([0, 0], abs=1e-9)
    # groups that always beat other groups but nobody unbeaten: not separable -> NaN
    w4 = wins_matrix({("A", "B"): 1, ("B", "A"): 1, ("C", "D"): 1, ("D", "C"): 1,
                      ("A", "C"): 1, ("B", "D"): 1})
    with pytest.warns(RuntimeWarning, match="not separable"):
        assert bradley_terry(w4)["log_strength"].isna().all()
    # pseudo-counts give a regularised finite fit: 3:1 + 1 each way = 4:2 -> ln 2
    r = bradley_terry(wins_matrix({("A", "B"): 3, ("B", "A"): 1}), pseudo=1.0)
    assert r.loc["A", "log_strength"] - r.loc["B", "log_strength"] == pytest.approx(math.log(2), abs=1e-7)
    r = bradley_terry(w, pseudo=0.5)            # 3.5 : 0.5 -> ln 7
    assert r.loc["A", "log_strength"] - r.loc["B", "log_strength"] == pytest.approx(math.log(7), abs=1e-7)


def test_bradley_terry_disconnected_is_nan_with_warning():
    w = wins_matrix({("A", "B"): 1, ("B", "A"): 1, ("C", "D"): 1, ("D", "C"): 1})
    with pytest.warns(RuntimeWarning, match="not all connected"):
        r = bradley_terry(w)
    assert r["log_strength"].isna().all() and r["note"].str.contains("connected").all()


def _random_record(rng, k, meetings):
    """Win matrix of ``meetings`` per pair drawn from random strengths (spread up to 6 nats)."""
    theta = rng.uniform(-3, 3, k)
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    w = np.zeros((k, k))
    for i, j in itertools.combinations(range(k), 2):
        w[i, j] = rng.binomial(meetings, p[i, j])
        w[j, i] = meetings - w[i, j]
    names = [f"e{i}" for i in range(k)]
    return pd.DataFrame(w, index=names, columns=names)


@pytest.mark.parametrize("k", [2, 3, 5, 10])
@pytest.mark.parametrize("meetings", [10, 1000, 100_000, 1_000_000])
def test_bradley_terry_grid(k, meetings):
    """Every record fits without an exception: finite records solve the likelihood
    equations (expected wins = observed wins), extreme ones are +-inf with a reason."""
    import warnings
    rng = np.random.default_rng(k * 7919 + meetings)
    for trial in range(3):
        w = _random_record(rng, k, meetings)
        if trial == 2:                       # an extreme: the first entrant wins every meeting
            w.iloc[0, 1:] = meetings
            w.iloc[1:, 0] = 0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = bradley_terry(w)
        th = r["log_strength"].reindex(w.index).to_numpy()
        wm = w.to_numpy()
        if trial == 2:
            assert th[0] == np.inf and r.loc["e0", "note"] == "never behind" and caught
        fin = np.isfinite(th)
        if fin.all():
            assert not caught
            assert th.mean() == pytest.approx(0, abs=1e-9)
            n = wm + wm.T
            p = 1 / (1 + np.exp(th[None, :] - th[:, None]))
            np.testing.assert_allclose((n * p).sum(axis=1), wm.sum(axis=1), rtol=1e-7, atol=1e-6)
        if k == 2 and fin.all():              # closed form: log(wins / losses)
            assert th[0] - th[1] == pytest.approx(math.log(wm[0, 1] / wm[1, 0]), abs=1e-7)


def test_bradley_terry_clustered_se_matches_deal_jackknife():
    """The sandwich standard errors, clustered by deal, agree within 5% with an
    independent estimate: the delete-one-deal jackknife of the refitted strengths.
    Each deal is played in both seatings of 3 entrants at 2 seats; a deal effect
    makes the seatings of a deal agree, so clustering matters."""
    from cargo_sim.core.ratings import meetings as meetings_of
    rng = np.random.default_rng(3)
    theta = np.array([0.4, 0.0, -0.4])
    rows, game = [], 0
    n_deals = 400
    for deal in range(n_deals):
        luck = rng.normal(0, 1.5, 3)                     # the deal favours some entrants
        for a, b in itertools.permutations(range(3), 2):
            pa = 1 / (1 + np.exp(-(theta[a] + luck[a] - theta[b] - luck[b])))
            ahead = rng.random() < pa
            rows += [(game, f"e{a}", 1 if ahead else 2, deal), (game, f"e{b}", 2 if ahead else 1, deal)]
            game += 1
    p = pd.DataFrame(rows, columns=["game", "entrant", "rank", "deal_id"])
    names = ["e0", "e1", "e2"]
    m = meetings_of(p, names)
    wins = pairwise_counts(p, names)[0]
    r = bradley_terry(wins, meetings=m).reindex(names)
    assert r.attrs["se"] == "clustered"
    model = bradley_terry(wins).reindex(names)
    assert (r["se"] > 1.2 * model["se"]).all()           # the deal effect inflates the errors
    # jackknife over deals (independent of the sandwich formula)
    per_deal = np.zeros((n_deals, 3, 3))
    i, j, sc, cl = (m[c].to_numpy() for c in ("i", "j", "score", "cluster"))
    np.add.at(per_deal, (cl, i, j), sc)
    np.add.at(per_deal, (cl, j, i), 1 - sc)
    total = per_deal.sum(axis=0)
    est = np.array([bradley_terry(pd.DataFrame(total - per_deal[d], index=names, columns=names))
                    .reindex(names)["log_strength"] for d in range(n_deals)])
    jk = np.sqrt((n_deals - 1) / n_deals * ((est - est.mean(axis=0)) ** 2).sum(axis=0))
    np.testing.assert_allclose(r["se"].to_numpy(), jk, rtol=0.05)


# ---------------------------------------------------------------------------
# standings
def test_standings_by_hand():
    p = table([(0, "A", 1, 4, 1.0), (0, "B", 2, 1, 0.0),
               (1, "A", 1, 3, 0.5), (1, "B", 1, 3, 0.5),
               (2, "A", 2, 2, 0.0), (2, "B", 1, 5, 1.0),
               (3, "A", 1, 1, 1.0), (3, "B", 2, 0, 0.0)])
    s = standings_table(p)
    assert list(s.index) == ["A", "B"]                      # 2.5 wins before 1.5
    a = s.loc["A"]
    assert a["games"] == 4 and a["wins"] == 2.5 and a["win_rate"] == 0.625
    assert (a["win_lo"], a["win_hi"]) == pytest.approx(wilson_interval(2.5, 4))
    # VP 4,3,2,1: mean 2.5, sd sqrt(5/3) = 1.290994, se 0.645497, t(0.975, 3) = 3.182446
    assert a["mean_vp"] == 2.5
    assert a["vp_hi"] - 2.5 == pytest.approx(3.182446305 * 0.6454972244, abs=1e-6)
    assert a["vp_lo"] == pytest.approx(2.5 - 2.0542, abs=1e-4)
    assert a["mean_rank"] == 1.25 and s.loc["B", "mean_rank"] == 1.5
    ratings = bradley_terry(pairwise_counts(p)[0])
    s2 = standings_table(p, ratings)
    assert s2.loc["A", "rating"] == ratings.loc["A", "elo"]
    # A ahead in g0, g3, B in g2, tie g1: 2.5 : 1.5 -> elo diff 400 log10(5/3)
    assert s2.loc["A", "rating"] - s2.loc["B", "rating"] == pytest.approx(400 * math.log10(5 / 3), abs=1e-4)


# ---------------------------------------------------------------------------
# significance
def sig_table():
    """12 three-seat games of A, B and C. A is ahead of B in games 0-8, behind in
    game 9, tied in 10-11. A wins games 0-5, B wins game 9, C the others.
    Deals: games (0,1), (2,3) ... (10,11)."""
    rows = []
    d_vp = [3, 1, 2, 2, 1, 3, 2, 1, 3, -2, 0, 0]
    for g in range(12):
        a_rank, b_rank = (1, 2) if g < 9 else ((2, 1) if g == 9 else (2, 2))
        if 6 <= g <= 8:
            a_rank, b_rank = 2, 3
        c_rank = 1 if (g >= 6 and g != 9) else 3
        a_win, b_win = float(g < 6), float(g == 9)
        rows += [(g, "A", a_rank, 5 + d_vp[g], a_win), (g, "B", b_rank, 5, b_win),
                 (g, "C", c_rank, 9 if c_rank == 1 else 0, 1.0 - a_win - b_win)]
    return table(rows), d_vp


def test_significance_by_hand():
    p, d_vp = sig_table()
    s = significance(p, "A", "B").set_index("test")
    # sign test: 10 decided games, A ahead in 9: p = 2 * (C(10,9) + C(10,10)) / 2^10 = 22/1024
    g = s.loc["sign test (games)"]
    assert (g["n"], g["statistic"], g["estimate"]) == (10, 9, 0.9)
    assert g["p_value"] == pytest.approx(22 / 1024, abs=1e-12)
    assert "sign test (deals)" not in s.index
    # paired t on VP differences d_vp: checked against scipy's ttest_1samp
    from scipy import stats
    t = s.loc["paired t-test (VP)"]
    ref = stats.ttest_1samp(d_vp, 0.0)
    assert t["n"] == 12 and t["estimate"] == pytest.approx(16 / 12)
    assert t["statistic"] == pytest.approx(ref.statistic) and t["p_value"] == pytest.approx(ref.pvalue)
    # the win-rate difference, paired by game: A's win share minus B's
    d_win = [1] * 6 + [0] * 3 + [-1] + [0, 0]
    z = s.loc["paired t-test (win rate)"]
    ref = stats.ttest_1samp(d_win, 0.0)
    assert z["n"] == 12 and z["estimate"] == pytest.approx(5 / 12)
    assert z["statistic"] == pytest.approx(ref.statistic) and z["p_value"] == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval(0.95)
    assert (z["ci_lo"], z["ci_hi"]) == pytest.approx((ci.low, ci.high))


def test_significance_deals_and_default_pair():
    p, _ = sig_table()
    p["deal_id"] = p["game"] // 2
    # deals (0,1) .. (6,7): A ahead twice -> A; (8,9): +1 -1 = 0 and (10,11): ties -> dropped.
    # 4 deals, all A: p = 2 / 2^4
    s = significance(p, "A", "B").set_index("test")
    d = s.loc["sign test (deals)"]
    assert (d["n"], d["statistic"], d["p_value"]) == (4, 4, 0.125)
    # default pair = top two of the standings: A (6 wins), C (5 wins), B (1 win)
    s = significance(p)
    assert (s["a"].iloc[0], s["b"].iloc[0]) == ("A", "C")
    assert significance(p, b="A")["a"].iloc[0] == "C"
    with pytest.raises(ConfigError):
        significance(p, "A", "A")
    # paired by deal: per deal the mean win share of A minus B's
    from scipy import stats
    d_win = [1, 1, 1, 0, -0.5, 0]            # deals (0,1) .. (10,11)
    z = significance(p, "A", "B").set_index("test").loc["paired t-test (win rate)"]
    ref = stats.ttest_1samp(d_win, 0.0)
    assert z["n"] == 6 and z["statistic"] == pytest.approx(ref.statistic)


# ---------------------------------------------------------------------------
# real tournaments (tiny)
@pytest.fixture(scope="module")
def small():
    return tournament(["random"] * 3, 3, games=90, seed=5, progress=False)


def test_tournament_end_to_end(small):
    r = small
    names = ["random#1", "random#2", "random#3"]
    assert r.entrants == names and r.n_players == 3
    assert len(r.tables) == 6 and len(r.games) == 90 and len(r.players) == 270
    assert list(r.standings.columns) == ["games", "wins", "win_rate", "win_lo", "win_hi", "mean_vp",
                                         "vp_lo", "vp_hi", "mean_rank", "clusters", "rating"]
    assert (r.standings["clusters"] == 15).all() and r.config["design"] == "balanced"
    assert r.ratings.attrs["se"] == "clustered"
    assert sorted(r.standings.index) == names and (r.standings["games"] == 90).all()
    assert r.standings["wins"].sum() == pytest.approx(90)            # one win per game, shared
    assert r.head_to_head_n.loc["random#1", "random#2"] == 90
    assert r.ratings["log_strength"].sum() == pytest.approx(0, abs=1e-9)
    assert set(r.significance["test"]) >= {"sign test (games)", "sign test (deals)",
                                           "paired t-test (VP)", "paired t-test (win rate)"}
    # seat balance in the played games, game ids unique, winners consistent
    assert (r.players.groupby(["entrant", "seat"], observed=True).size() == 30).all()
    assert (r.tables["games"] == 15).all() and r.config["games_played"] == 90
    assert r.games["game"].is_unique and set(r.players["game"]) == set(r.games["game"])
    w = r.players[r.players["won"] == 1].groupby("game")["seat"].min()
    g = r.games.set_index("game")
    assert (g.loc[w.index, "winner"] == w).all()
    won = r.players[r.players["won"] == 1].set_index(["game", "seat"])["entrant"]
    assert all(won.loc[(gid, s)] == e for gid, s, e in
               zip(g.index, g["winner"], g["winner_entrant"]))
    assert "3 entrants" in repr(r)


def test_common_random_numbers(small):
    r = small
    # every rotation of a combination plays the same deals (same game seeds)
    seeds = r.games.pivot(index="deal", columns="table", values="seed")
    assert (seeds.nunique(axis=1) == 1).all() and seeds[0].is_unique
    # identical bots + same deals + every seating: the results are exactly symmetric
    assert r.standings["win_rate"].nunique() == 1 and r.standings["mean_vp"].nunique() == 1
    assert r.standings["mean_rank"].nunique() == 1
    h = r.head_to_head.to_numpy()
    assert np.allclose(h[~np.eye(3, dtype=bool)], 0.5)
    assert np.allclose(r.ratings["log_strength"], 0, atol=1e-9)
    sig = r.significance.set_index("test")
    assert sig.loc["sign test (deals)", "n"] == 0                 # every deal nets to zero
    assert sig.loc["paired t-test (VP)", "estimate"] == 0


def test_tables_are_simulate_runs(small):
    # table t's games are simulate(its games, its seating, seed=its seed)
    from cargo_sim import simulate
    t = small.tables.iloc[1]
    ref = simulate(15, ["random"] * 3, seed=int(t["seed"]), progress=False).players
    got = small.players[small.players["table"] == 1]
    assert got["entrant"].tolist()[:3] == [small.entrants[i] for i in t["seats"]]
    cols = [c for c in ref.columns if c not in ("game", "bot")]
    pd.testing.assert_frame_equal(got[cols].reset_index(drop=True), ref[cols])
    assert (got["deal"].to_numpy() == ref["game"].to_numpy()).all()


def test_reproducible_and_independent_of_workers(small, monkeypatch):
    again = tournament(["random"] * 3, 3, games=90, seed=5, progress=False, workers=1)
    pd.testing.assert_frame_equal(again.standings, small.standings)
    pd.testing.assert_frame_equal(again.players, small.players)
    # split every table into pieces of 7 games played on 2 threads: same games
    monkeypatch.setattr(tm, "PIECE", 7)
    pieces = tournament(["random"] * 3, 3, games=90, seed=5, progress=False, workers=2)
    pd.testing.assert_frame_equal(pieces.players, small.players)
    pd.testing.assert_frame_equal(pieces.games, small.games)
    other = tournament(["random"] * 3, 3, games=90, seed=6, progress=False)
    assert not set(other.games["seed"]) & set(small.games["seed"])


def test_more_entrants_than_seats_and_fewer():
    # 4 entrants at 2 seats: 6 pairs x 2 rotations = 12 tables; 50 games -> 60 (5 per table)
    r = tournament({"a": "random", "b": "random", "c": "random", "d": "random"}, 2, games=50,
                   seed=1, progress=False)
    assert len(r.tables) == 12 and r.config["games_played"] == 60 and len(r.games) == 60
    assert (r.players.groupby(["entrant", "seat"], observed=True).size() == 15).all()
    # each pair meets only in its own rotations, with common deals: exactly even
    h = r.head_to_head.to_numpy()
    assert np.allclose(h[~np.eye(4, dtype=bool)], 0.5)
    assert (r.head_to_head_n.to_numpy()[~np.eye(4, dtype=bool)] == 10).all()
    # 2 entrants at 4 seats: the 6 orders of A A B B, 2 deals each
    r = tournament(["random", "random"], 4, games=10, seed=1, progress=False)
    assert len(r.tables) == 6 and r.config["games_played"] == 12
    assert (r.players.groupby(["entrant", "seat"], observed=True).size() == 6).all()
    assert r.head_to_head_n.loc["random#1", "random#2"] == 12 * 4    # 4 A-B seat pairs a game
    # 3 entrants at 4 seats: compositions ABCA, ABCB, ABCC, 12 orders each, one deal each
    r = tournament(["random"] * 3, 4, games=20, seed=2, progress=False)
    assert r.config["games_played"] == 36 and (r.tables["games"] == 1).all()
    assert (r.players.groupby(["entrant", "seat"], observed=True).size() == 12).all()
    assert sorted(r.games["deal_id"].unique()) == [0, 1, 2]
    h = r.head_to_head.to_numpy()
    assert np.allclose(h[~np.eye(3, dtype=bool)], 0.5)


def test_four_seats_play_all_24_orders_per_deal():
    r = tournament(["random"] * 4, 4, games=48, seed=3, progress=False)
    assert r.config["games_played"] == 48 and len(r.tables) == 24
    orders = r.games.groupby("deal_id")["seating"].nunique()
    assert (orders == 24).all() and len(orders) == 2
    assert r.games.groupby("deal_id")["seed"].nunique().eq(1).all()     # common random numbers


def test_errors():
    with pytest.raises(ConfigError, match="at least 2 entrants"):
        tournament(["random"], 2, games=10, progress=False)
    with pytest.raises(ConfigError, match="at least 2 entrants"):
        tournament([], 2, games=10, progress=False)
    for n in (1, 6, 2.5, "3"):
        with pytest.raises(RulesError, match="player count"):
            tournament(["random", "random"], n, games=10, progress=False)
    for g in (0, -3, 2.5, True, "10", None):
        with pytest.raises(ConfigError, match="games"):
            tournament(["random", "random"], 2, games=g, progress=False)
    with pytest.raises(BotError, match="unknown bot"):
        tournament(["random", "no_such_bot"], 2, games=10, progress=False)
    with pytest.raises(ConfigError, match="seed"):
        tournament(["random", "random"], 2, games=10, seed=-1, progress=False)
    with pytest.raises(ConfigError, match="workers"):
        tournament(["random", "random"], 2, games=10, workers=0, progress=False)
    with pytest.raises(ConfigError, match="rules"):
        tournament(["random", "random"], 2, games=10, rules="default", progress=False)
    # a rules variant that forbids 2 players
    rules = Rules.default().replace(min_players=3)
    with pytest.raises(RulesError):
        tournament(["random", "random"], 2, games=10, rules=rules, progress=False)


# ---------------------------------------------------------------------------
# one bot against a field
def test_focus_seating_plan():
    # focus 0 against one field entrant at 4 seats: 0 1 1 1, the focus once in each seat
    plan = seating_plan(2, 4, focus=0)
    assert sorted(plan["seats"]) == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    # focus 1 against entrants 0 and 2 at 4 seats: compositions 1 0 2 0 and 1 0 2 2
    plan = seating_plan(3, 4, focus=1)
    assert plan["combo"].nunique() == 2 and len(plan) == 24
    for row in plan["seats"]:
        assert list(row).count(1) == 1 and set(row) == {0, 1, 2}
    seats = np.array(plan["seats"].tolist())
    assert ((seats == 1).sum(axis=0) == 6).all()          # the focus in every seat equally
    # focus with three field entrants at 4 seats: one composition, all 24 orders
    assert len(seating_plan(4, 4, focus=3)) == 24
    for bad in (dict(n_entrants=2, n_players=2, focus=2), dict(n_entrants=2, n_players=2, focus=-1),
                dict(n_entrants=1, n_players=2, focus=0), dict(n_entrants=2, n_players=1, focus=0)):
        with pytest.raises(ConfigError, match="focus"):
            seating_plan(**bad)


def test_focus_table_by_hand():
    # 3-seat games; F's VP minus the best other: +2, -1, 0, +4; deals (0, 1), (2, 3)
    p = table([(0, "F", 1, 9, 1.0), (0, "A", 2, 7, 0.0), (0, "B", 3, 1, 0.0),
               (1, "F", 2, 5, 0.0), (1, "A", 1, 6, 1.0), (1, "B", 3, 2, 0.0),
               (2, "F", 1, 4, 0.5), (2, "A", 1, 4, 0.5), (2, "B", 3, 0, 0.0),
               (3, "F", 1, 8, 1.0), (3, "A", 2, 4, 0.0), (3, "B", 3, 3, 0.0)],
              deal_id=[0] * 6 + [1] * 6)
    f = focus_table(p, "F").loc["F"]
    assert f["games"] == 4 and f["deals"] == 2 and f["fair"] == pytest.approx(1 / 3)
    assert f["share"] == pytest.approx(2.5 / 4) and f["margin"] == pytest.approx(5 / 4)
    # two deals with means 0.5 and 0.75: se 0.125, t(0.975, 1) = 12.7062: kept within [0, 1]
    assert (f["share_lo"], f["share_hi"]) == (0.0, 1.0)
    # margins: deal means 0.5 and 2.0, se 0.75
    assert f["margin"] - f["margin_lo"] == pytest.approx(12.7062047 * 0.75, abs=1e-5)
    with pytest.raises(ConfigError, match="sat at no table"):
        focus_table(p, "Z")
    with pytest.raises(ConfigError, match="more than one seat"):
        focus_table(p.assign(entrant=p["entrant"].replace("B", "F")), "F")


@pytest.mark.filterwarnings("ignore:Bradley-Terry")
def test_focus_tournament():
    r = tournament(["greedy", "random"], 4, games=16, seed=4, progress=False, focus="greedy")
    assert len(r.tables) == 4 and r.config["games_played"] == 16 and r.config["focus"] == "greedy"
    assert (r.players[r.players["entrant"] == "greedy"].groupby("game").size() == 1).all()
    assert (r.players[r.players["entrant"] == "greedy"].groupby("seat").size() == 4).all()
    f = r.focus.loc["greedy"]
    assert f["games"] == 16 and f["deals"] == 4
    assert f["share"] == pytest.approx(r.standings.loc["greedy", "win_rate"])
    assert f["share"] > 0.8 and f["margin_lo"] > 0                   # greedy beats random
    assert "greedy against the field" in tm.format_results(r)
    assert tournament(["greedy", "random"], 2, games=4, seed=4, progress=False).focus is None
    # the spec as listed names its entrant (whose name is the bot's label)
    r = tournament(["greedy?bid_margin=0", "random"], 2, games=4, seed=4, progress=False,
                   focus="greedy?bid_margin=0")
    assert r.config["focus"] == r.entrants[0] and list(r.focus.index) == [r.entrants[0]]
    with pytest.raises(ConfigError, match="focus must be one of the entrants"):
        tournament(["greedy", "random"], 4, games=4, progress=False, focus="expert")


def test_plot_win_rates(small):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ax = small.plot_win_rates()
    assert "win rate" in ax.get_title().lower() and "win rate" in ax.get_xlabel()
    assert ax.get_ylabel() == "entrant" and len(ax.patches) == 3
    assert [t.get_text() for t in ax.get_yticklabels()][::-1] == list(small.standings.index)
    # the x label lies inside the canvas (it was cut off at the bottom)
    fig = ax.figure
    fig.canvas.draw()
    box = ax.xaxis.label.get_window_extent()
    assert box.y0 >= 0 and box.x0 >= 0 and box.x1 <= fig.bbox.width
    leg = ax.get_legend().get_window_extent()       # the legend covers no bar
    assert not leg.overlaps(ax.get_window_extent()) and leg.x1 <= fig.bbox.width
    fig, ax2 = plt.subplots()
    assert small.plot_win_rates(ax=ax2) is ax2
    plt.close("all")


def test_illegal_decision_names_the_table(monkeypatch):
    from cargo_sim import IllegalDecisionError

    from cargo_sim.core.runner import Table

    def bad_chunk(self, seeds, *a, **k):
        err = np.array([0, 0, 1, 99, 0, 3, 0, 0], dtype=np.int64)   # game 0, seat 1, turn 3
        return None, None, err

    monkeypatch.setattr(Table, "run", bad_chunk)
    with pytest.raises(IllegalDecisionError, match=r"seat 1.*tournament table \d+: random#"):
        tournament(["random", "random"], 2, games=2, progress=False, workers=1)


from hypothesis import given, settings, strategies as st_


@settings(max_examples=60, deadline=None)
@given(st_.integers(2, 6).flatmap(
    lambda k: st_.lists(st_.integers(0, 5), min_size=k * k, max_size=k * k).map(
        lambda v: np.array(v, float).reshape(k, k))))
def test_bradley_terry_never_raises_on_any_record(w):
    """Any record (zeros, perfect records, disconnected pairs): a table back, no exception;
    finite strengths solve the likelihood equations, the others carry a note."""
    import warnings
    k = len(w)
    np.fill_diagonal(w, 0)
    names = [f"e{i}" for i in range(k)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        r = bradley_terry(pd.DataFrame(w, index=names, columns=names)).reindex(names)
    th = r["log_strength"].to_numpy()
    assert len(r) == k
    assert (r.loc[~np.isfinite(th), "note"] != "").all()
    if np.isfinite(th).all():
        n = w + w.T
        p = 1 / (1 + np.exp(th[None, :] - th[:, None]))
        np.testing.assert_allclose((n * p).sum(axis=1), w.sum(axis=1), atol=1e-6)


def test_tournament_is_the_module_and_callable(monkeypatch):
    import types
    import cargo_sim
    import cargo_sim.runners.tournament
    assert isinstance(cargo_sim.tournament, types.ModuleType)
    assert cargo_sim.tournament is tm and cargo_sim.tournament.seating_plan is seating_plan
    seen = {}
    monkeypatch.setattr(tm, "tournament", lambda *a, **k: seen.setdefault("args", (a, k)))
    cargo_sim.tournament(["a", "b"], n_players=2)
    assert seen["args"] == ((["a", "b"],), {"n_players": 2})
