"""The strong-play headlines and verdicts (analyses/strong_play.py) on planted tables,
and the resumable subsample's plan (analyses/mirror_sample.py): no games."""
import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analyses import mirror_sample as M
from analyses import strong_play as S
from cargo_sim.core.errors import ConfigError

SCRIPT = Path(__file__).resolve().parents[3] / "reports" / "balance" / "strong_play.py"


def table(n_players, winners, short=0, holders=None):
    """Planted mirror rows: game g won by seat winners[g]; the first ``short`` games had a
    shortfall; ``holders[card] = (holders, their wins)``, taken first among the winners."""
    rows = [{"n_players": n_players, "game": g, "seat": s, "win_share": float(w == s),
             "shortfalls": int(g < short)} for g, w in enumerate(winners) for s in range(n_players)]
    p = pd.DataFrame(rows)
    for card, (k, w) in (holders or {}).items():
        won = p.index[p["win_share"] == 1][:w]
        lost = p.index[p["win_share"] == 0][:k - w]
        p[f"card_{card}"] = 0
        p.loc[won.union(lost), f"card_{card}"] = 1
    return p


def seats(n_players, wins):
    """Winners of len(sum(wins)) games, seat s winning wins[s] of them, interleaved."""
    w = np.repeat(np.arange(n_players), wins)
    return np.random.default_rng(0).permutation(w)


def test_a_seat_lead_is_decided_by_its_paired_half_width_and_the_games_to_decide_it():
    m = S.headlines(table(2, seats(2, [300, 700])))["seat.2"]
    assert m.est == {"seat 0": 0.3, "seat 1": 0.7} and m.conclusion() == "seat 1"
    dec, need, lead, hw = m.decide()
    # per-game difference seat 1 - seat 0 is +1 or -1: variance 1 - 0.4^2, paired by game
    want = stats.t.ppf(0.975, 999) * math.sqrt(0.84 * 1000 / 999) / math.sqrt(1000)
    assert dec and lead == pytest.approx(0.4) and hw == pytest.approx(want)
    assert need == pytest.approx(1000 * (want / 0.4) ** 2) and 19.5 < need < 21.5


def test_a_close_seat_race_is_not_decided_and_says_how_many_games_would():
    m = S.headlines(table(3, seats(3, [340, 345, 315])))["seat.3"]
    dec, need, lead, hw = m.decide()
    assert not dec and m.conclusion() == "seat 1" and lead == pytest.approx(0.005)
    # the hardest pair is seat 1 against seat 0: about 0.05 half-width for a 0.005 lead
    assert hw > 0.04 and need == pytest.approx(1000 * (hw / 0.005) ** 2) and need > 50_000


def test_bank_band_decided_inside_its_band_and_games_to_decide_from_the_nearer_edge():
    m = S.headlines(table(2, seats(2, [50, 50]), short=20))["bank.2"]
    assert m.conclusion() == "some (5-50 %)" and m.decide()[0]
    m = S.headlines(table(2, seats(2, [50, 50]), short=7))["bank.2"]
    dec, need, lead, hw = m.decide()
    lo, hi = m.ci["share"]
    assert not dec and lo < 0.05 < hi and lead == pytest.approx(0.02)
    assert hw == pytest.approx((hi - lo) / 2) and need == pytest.approx(100 * (hw / 0.02) ** 2)


def test_cards_compare_holders_only_when_enough_held_them():
    p = table(2, seats(2, [100, 100]), holders={"Bank": (60, 45), "Villa": (60, 15), "Yacht": (3, 3)})
    m = S.headlines(p)["card.2"]
    assert set(m.est) == {"Bank", "Villa"} and m.est["Bank"] == 0.75 and m.conclusion() == "Bank"
    assert m.decide()[0]


def test_verdicts_hold_disagree_and_undecided():
    strong = S.headlines(table(2, seats(2, [6000, 14000])))["seat.2"]
    same = S.headlines(table(2, seats(2, [60, 140])))["seat.2"]
    weak = S.headlines(table(2, seats(2, [90, 110])))["seat.2"]       # 0.55: undecided but far from 0.7
    flipped = S.headlines(table(2, seats(2, [140, 60])))["seat.2"]
    tiny = S.headlines(table(2, seats(2, [4, 6])))["seat.2"]
    assert S.verdict(strong, same) == (S.HOLDS, "seat 1 in both")
    v, why = S.verdict(strong, weak)
    assert v == S.DISAGREE and "seat 1: strong +0.150" in why and "seat 0: strong -0.150" in why
    assert S.verdict(strong, flipped) == (S.DISAGREE, "the search decides seat 0, strong seat 1")
    v, why = S.verdict(strong, tiny)
    assert v == S.HOLDS and "within its noise" in why            # 10 games cannot contradict it
    close = S.headlines(table(2, seats(2, [995, 1005])))["seat.2"]
    v, why = S.verdict(close, close)
    assert v == S.UNDECIDED and "would decide it" in why
    assert S.verdict(strong, None)[0] == S.UNDECIDED


def test_two_sample_difference_uses_both_tables_errors():
    a = S.headlines(table(2, seats(2, [6000, 14000])))["seat.2"]
    b = S.headlines(table(2, seats(2, [80, 120])))["seat.2"]
    d = S.differs(a, b)
    hw = S.Z * math.hypot(a.se["seat 1"], b.se["seat 1"])
    assert d["seat 1"] == (pytest.approx(0.1), pytest.approx(hw)) and 0.06 < hw < 0.075


def test_a_card_the_search_never_estimates_is_not_confirmed():
    strong = S.headlines(table(2, seats(2, [500, 500]), holders={"Bank": (300, 240), "Villa": (300, 60)}))
    search = S.headlines(table(2, seats(2, [5, 5]), holders={"Bank": (2, 2), "Villa": (2, 0)}))
    v, why = S.verdict(strong["card.2"], search["card.2"])
    assert v == S.UNDECIDED and "too few" in why


def _measures():
    return {"strong": S.headlines(table(2, seats(2, [6000, 14000]), short=0)),
            "ismcts": S.headlines(table(2, seats(2, [60, 140]))),
            "expert": S.headlines(table(2, seats(2, [14000, 6000]), short=4000)),
            "greedy": S.headlines(table(2, seats(2, [49, 51])))}


def test_compare_marks_each_heuristic_and_lists_every_estimate():
    v, o = S.compare(_measures(), "strong", "ismcts", ("expert", "greedy"))
    v = v.set_index("headline")
    assert v.loc["seat.2", "verdict"] == S.HOLDS and v.loc["seat.2", "expert"] == "seat 0 (differs)"
    assert v.loc["seat.2", "greedy"] == "seat 1 (not decided)"
    assert v.loc["bank.2", "expert"] == "some (5-50 %) (differs)"
    assert v.loc["seat.2", "strong_games"] == 20000 and v.loc["seat.2", "search_games"] == 200
    got = o.set_index(["headline", "bot", "option"])["estimate"]
    assert got[("seat.2", "expert", "seat 0")] == 0.7 and got[("bank.2", "expert", "share")] == 0.2


def test_section_renders_the_tables_for_their_rules_and_update_writes_the_block_only(tmp_path):
    v, o = S.compare(_measures(), "strong", "ismcts", ("expert", "greedy"))
    v.insert(0, "rules_digest", "abc")
    v.to_csv(tmp_path / "strong_play.csv", index=False)
    o.to_csv(tmp_path / "strong_play_options.csv", index=False)
    md = S.section(tmp_path, "abc")
    assert "| seat.2 | seat 1 (decided) | 20,000 | seat 1 (decided) | 200 | holds under strong play | seat 1 in both | seat 0 (differs) | seat 1 (not decided) |" in md
    assert "| seat.2 | seat 0 | 0.300 [0.294, 0.306] | 0.300 [0.241, 0.367] | 0.700 [0.694, 0.706] | 0.490" in md
    assert S.section(tmp_path, "other").startswith("Not assessed for these rules")
    assert S.section(tmp_path / "none").startswith("Not assessed")
    index = tmp_path / "index.md"
    index.write_text("# R\n\nbefore\n<!-- strong_play -->\nold\n<!-- /strong_play -->\nafter\n")
    assert S.update_section(index, tmp_path, "abc")
    text = index.read_text()
    assert text.startswith("# R\n\nbefore\n<!-- strong_play -->\nMirror") and text.endswith(
        "<!-- /strong_play -->\nafter\n") and "\nold\n" not in text
    bare = tmp_path / "bare.md"
    bare.write_text("no block\n")
    assert not S.update_section(bare, tmp_path) and bare.read_text() == "no block\n"
    rep = tmp_path / "rep.md"
    rep.write_text("# R\n\n## Rules\n\nx\n")
    assert S.update_section(rep, tmp_path, "abc", before="## Rules")
    assert rep.read_text().index("## Under strong play") < rep.read_text().index("## Rules")


def test_unknown_game_is_refused():
    with pytest.raises(ConfigError, match="no headlines for game 'chess'"):
        S.headlines(table(2, [0]), "chess")


def test_the_subsample_plan_takes_counts_in_turn_and_skips_what_is_on_disk(tmp_path):
    path = tmp_path / "games.csv"
    want, chunk = {2: 20, 4: 10}, {2: 10, 4: 5}
    assert M.plan(path, want, chunk) == [(2, 0, 10), (4, 0, 5), (2, 10, 10), (4, 5, 5)]
    pd.DataFrame({"n_players": [2] * 10 + [4] * 3, "game": list(range(10)) + [5, 6, 7]}).to_csv(path, index=False)
    # games 0-9 at 2 players are done; at 4 players 5..9 is only partly done: replayed
    assert M.plan(path, want, chunk) == [(2, 10, 10), (4, 0, 5), (4, 5, 5)]


def test_the_subsample_stores_the_same_games_for_any_workers(tmp_path):
    cols = ["game", "seat", "win_share", "shortfalls"]
    quiet = lambda *a, **k: None  # noqa: E731
    one = M.play(tmp_path / "one.csv", "greedy", {2: 6}, {2: 3}, cols, seed=4, log=quiet)
    two = M.play(tmp_path / "two.csv", "greedy", {2: 6}, {2: 3}, cols, seed=4, workers=2, log=quiet)
    assert len(one) == 12 and one.equals(two)


def test_games_on_disk_under_other_columns_are_refused_not_appended(tmp_path):
    path = tmp_path / "games.csv"
    pd.DataFrame({"n_players": [2, 2], "game": [0, 0], "seat": [0, 1], "win_share": [1.0, 0.0],
                  "vp": [50, 40]}).to_csv(path, index=False)
    before = path.read_text()
    with pytest.raises(ConfigError, match="holds the columns n_players, game, seat, win_share, vp"):
        M.play(path, "random", {2: 2}, {2: 1}, ["game", "seat", "win_share"], seed=1, log=lambda *a, **k: None)
    assert path.read_text() == before


def _script():
    spec = importlib.util.spec_from_file_location("strong_play_script", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_script_refuses_bad_input_before_playing(tmp_path):
    s = _script()
    assert s.counts("2:100,4:30") == {2: 100, 4: 30}
    for bad in ("2=100", "2:x", "2:-1"):
        with pytest.raises(ConfigError, match="--search-games"):
            s.counts(bad)
    with pytest.raises(ConfigError, match="stand-in writes only to --out"):
        s.main(["--strong", "expert?coin_value=1.3"])
    with pytest.raises(ConfigError, match="not \\[6\\]"):
        s.main(["--search-games", "6:10", "--out", str(tmp_path)])
    with pytest.raises(ConfigError, match="--games must be at least 1"):
        s.main(["--games", "0", "--out", str(tmp_path)])
    assert not any(tmp_path.iterdir())


def test_committed_reports_show_the_committed_tables(tmp_path):
    import shutil
    for name in ("index.md", "verdicts.json"):
        shutil.copy(S.ROBUSTNESS_DIR / name, tmp_path / name)
    assert S.update_robustness(tmp_path)
    assert (tmp_path / "index.md").read_text() == (S.ROBUSTNESS_DIR / "index.md").read_text()


def test_search_games_on_disk_must_match_the_models_they_were_played_with(tmp_path):
    s = _script()
    raw = tmp_path / "games.csv"
    stamp = s.models_stamp("cargo_noir", s.SEARCH)
    assert len(stamp["models_digest"]) == 16 and stamp["seed"] == s.SEED
    s.check_stamp(raw, stamp)                           # nothing played yet: the stamp is written
    raw.write_text("n_players,game\n2,0\n")
    s.check_stamp(raw, stamp)                           # same models: accepted
    with pytest.raises(ConfigError, match="played with other bots' parameters"):
        s.check_stamp(raw, dict(stamp, models_digest="0" * 16))
