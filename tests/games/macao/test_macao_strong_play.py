"""Macao's strong-play headlines (analyses/strong_play.py): the seat and the winners'
largest source of points, on planted tables (no games)."""
import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analyses import strong_play as S
from cargo_sim.core.errors import ConfigError

SCRIPT = Path(__file__).resolve().parents[3] / "reports" / "balance" / "strong_play.py"
ZERO = {"delivery_vp": 0, "tribute_vp": 0, "card_vp": 0, "end_vp": 0, "group": 0, "penalty_vp": 0}


def table(games, winner_points, loser_points=None, n_players=2):
    """Seat g % n wins game g with ``winner_points(g)`` (a dict of source columns); the
    others score ``loser_points`` (zeros by default)."""
    rows = []
    for g in range(games):
        for s in range(n_players):
            won = s == g % n_players
            pts = winner_points(g) if won else (loser_points or ZERO)
            rows.append({"n_players": n_players, "game": g, "seat": s, "win_share": float(won), **ZERO, **pts})
    return pd.DataFrame(rows)


def test_the_city_group_scores_its_size_times_the_rules_points_and_can_lead():
    # winners: deliveries 10 every game, a group of 6 quarters (12 points at 2 a quarter)
    m = S.headlines(table(40, lambda g: {"delivery_vp": 10, "group": 6}), "macao")["source.2"]
    assert m.est["city group"] == 12.0 and m.est["deliveries"] == 10.0 and m.conclusion() == "city group"
    assert "penalties" not in m.est and m.decide()[0]          # no variance: any lead is clear


def test_source_pairs_are_paired_by_winner_and_close_sources_need_more_games():
    # tribute 20 +- 4 and deliveries 19 +- 4 alternating in step: the paired difference is 1 +- 0
    step = lambda g: {"tribute_vp": 20 + (4 if g % 4 < 2 else -4), "delivery_vp": 19 + (4 if g % 4 < 2 else -4)}
    m = S.headlines(table(40, step), "macao")["source.2"]
    assert m.conclusion() == "tribute" and m.decide()[0] and m.pair_hw[("tribute", "deliveries")] == 0
    # out of step: the difference is 1 + 8 or 1 - 8 in turn, so 40 games cannot tell
    swap = lambda g: {"tribute_vp": 20 + (4 if g % 2 else -4), "delivery_vp": 19 + (-4 if g % 2 else 4)}
    m = S.headlines(table(40, swap), "macao")["source.2"]
    dec, need, lead, hw = m.decide()
    diff = np.array([1 + 8 if g % 2 else 1 - 8 for g in range(40)], float)
    want = stats.t.ppf(0.975, 39) * diff.std(ddof=1) / math.sqrt(40)
    assert not dec and lead == pytest.approx(1.0) and hw == pytest.approx(want)
    assert need == pytest.approx(40 * want ** 2)


def test_macao_verdicts_and_heuristic_marks():
    pts = lambda g: {"tribute_vp": 20 + g % 3, "delivery_vp": 10}
    strong = S.headlines(table(3000, pts), "macao")
    search_other = S.headlines(table(30, lambda g: {"tribute_vp": 8, "delivery_vp": 15 + g % 3}), "macao")
    heur = S.headlines(table(3000, lambda g: {"delivery_vp": 30}), "macao")
    v, o = S.compare({"strong": strong, "ismcts": search_other, "shipper": heur}, "strong", "ismcts", ("shipper",))
    v = v.set_index("headline")
    assert v.loc["source.2", "verdict"] == S.DISAGREE and "the search decides deliveries" in v.loc["source.2", "why"]
    assert v.loc["source.2", "shipper"] == "deliveries (differs)"
    # seats: game g won by seat g % 2, exactly half each: no seat leads
    assert v.loc["seat.2", "verdict"] == S.UNDECIDED and v.loc["seat.2", "strong_conclusion"] == "seat 0"
    assert set(o["headline"]) == {"seat.2", "source.2"}


def test_the_script_plays_macao_only_at_its_counts(tmp_path):
    spec = importlib.util.spec_from_file_location("strong_play_script", SCRIPT)
    s = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(s)
    with pytest.raises(ConfigError, match="macao is played here at \\[2, 3, 4\\] players, not \\[5\\]"):
        s.main(["--game", "macao", "--search-games", "5:4", "--out", str(tmp_path)])
    with pytest.raises(SystemExit):
        s.main(["--game", "chess"])


def test_the_committed_report_shows_the_committed_tables(tmp_path):
    import shutil
    from cargo_sim.games.macao.rules import Rules
    page = tmp_path / "index.md"
    shutil.copy(S.ROOT / "reports" / "macao" / "index.md", page)
    assert S.update_section(page, S.TABLES["macao"], Rules.default().digest, before="## Rules")
    assert page.read_text() == (S.ROOT / "reports" / "macao" / "index.md").read_text()
    assert "| source.2 | tribute (decided)" in page.read_text()
