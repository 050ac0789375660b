"""The strong-play verdicts (analyses/strong_play.py) on planted tables: no games."""
import numpy as np
import pandas as pd

from analyses import strong_play as S

CARDS = ("Bank", "Principality")


def tables(n_players, games, seat_wins, bank_short, holders):
    """Planted mirror tables: ``seat_wins[s]`` games won by seat s (one winner a game),
    ``bank_short`` games with a shortfall, ``holders[card] = (holders, their wins)``,
    holders taken first among each game's winners."""
    rows, winner = [], np.repeat(np.arange(n_players), seat_wins)
    assert len(winner) == games
    for g in range(games):
        for s in range(n_players):
            rows.append({"game": g, "seat": s, "win_share": float(winner[g] == s)})
    p = pd.DataFrame(rows)
    for card, (k, w) in holders.items():
        won = p.index[p["win_share"] == 1][:w]
        lost = p.index[p["win_share"] == 0][:k - w]
        p[f"card_{card}"] = 0
        p.loc[won.union(lost), f"card_{card}"] = 1
    g = pd.DataFrame({"game": range(games), "n_players": n_players,
                      "shortfalls": [1] * bank_short + [0] * (games - bank_short)})
    return p, g


def test_headlines_read_seats_cards_and_bank():
    h = S.headlines(*tables(2, 100, [30, 70], 10, {"Bank": (40, 30), "Principality": (40, 10)}))
    assert h["seat.2"][0] == "seat 1" and h["seat.2"][1] == {"seat 0": 0.3, "seat 1": 0.7}
    assert h["card.2"][0] == "Bank" and h["card.2"][1] == {"Bank": 0.75, "Principality": 0.25}
    assert h["bank.2"][0] == "some (5-50 %)" and h["bank.2"][1]["share"] == 0.1
    lo, hi = h["bank.2"][2]["share"]
    assert 0.05 < lo < 0.1 < hi < 0.2             # Wilson, not share ± anything
    # at 2 players the seats sum to 1: their difference is 2 seat-widths, not sqrt(2)
    hw = h["seat.2"][4][("seat 1", "seat 0")]
    assert 2 * 1.96 * np.sqrt(0.21 / 100) * 0.95 < hw < 2 * 1.96 * np.sqrt(0.21 / 100) * 1.05


def test_verdicts_hold_fail_and_undecided():
    base = S.headlines(*tables(2, 2000, [600, 1400], 400, {"Bank": (800, 600), "Principality": (800, 200)}))
    same = S.headlines(*tables(2, 200, [60, 140], 40, {"Bank": (80, 60), "Principality": (80, 20)}))
    flipped = S.headlines(*tables(2, 200, [140, 60], 2, {"Bank": (80, 20), "Principality": (80, 60)}))
    small = S.headlines(*tables(2, 10, [4, 6], 1, {"Bank": (20, 11), "Principality": (20, 9)}))
    t = S.compare(base, same, "expert", "strong").set_index("headline")["verdict"]
    assert (t == S.HOLDS).all()
    t = S.compare(base, flipped, "expert", "strong").set_index("headline")
    assert (t["verdict"] == S.FAILS).all(), t["why"]
    assert t.loc["bank.2", "strong_conclusion"] == "rare (< 5 %)"
    t = S.compare(base, small, "expert", "strong").set_index("headline")["verdict"]
    assert (t == S.UNDECIDED).all()
    # a base conclusion within its own noise decides nothing
    tie = S.headlines(*tables(2, 100, [49, 51], 2, {"Bank": (40, 21), "Principality": (40, 20)}))
    v = S.compare(tie, same, "expert", "strong").set_index("headline")
    assert v.loc["seat.2", "verdict"] == S.UNDECIDED and "within its noise" in v.loc["seat.2", "why"]
    assert v.loc["card.2", "verdict"] == S.UNDECIDED
    # the bank share's interval inside the base band holds; straddling an edge cannot tell
    edge = S.headlines(*tables(2, 100, [30, 70], 5, {"Principality": (40, 10)}))
    v = S.compare(base, edge, "expert", "strong").set_index("headline")
    assert v.loc["bank.2", "verdict"] == S.UNDECIDED and "crosses" in v.loc["bank.2", "why"]
    assert v.loc["card.2", "verdict"] == S.UNDECIDED and "Bank too rare" in v.loc["card.2", "why"]


def test_section_and_update_write_the_block_only(tmp_path):
    base = S.headlines(*tables(2, 2000, [600, 1400], 400, {"Bank": (800, 600)}))
    same = S.headlines(*tables(2, 200, [60, 140], 40, {"Bank": (80, 60)}))
    csv = tmp_path / "strong_play.csv"
    S.compare(base, same, "expert", "ismcts?iterations=100").to_csv(csv, index=False)
    md = S.section(csv)
    assert "holds under stronger play" in md and "seat.2" in md and "0.700 [0.633" in md
    index = tmp_path / "index.md"
    index.write_text("# R\n\nbefore\n<!-- strong_play -->\nold\n<!-- /strong_play -->\nafter\n")
    assert S.update_section(index, csv)
    text = index.read_text()
    assert text.startswith("# R\n\nbefore\n<!-- strong_play -->\nMirror") and text.endswith(
        "<!-- /strong_play -->\nafter\n") and "\nold\n" not in text
    bare = tmp_path / "bare.md"
    bare.write_text("no block\n")
    assert not S.update_section(bare, csv) and bare.read_text() == "no block\n"
    assert S.section(tmp_path / "none.csv").startswith("Not assessed")


def test_robustness_index_gets_the_block_for_its_rules_only(tmp_path):
    base = S.headlines(*tables(2, 2000, [600, 1400], 400, {"Bank": (800, 600)}))
    t = S.compare(base, base, "expert", "strong")
    t.insert(0, "rules_digest", "abc")
    csv = tmp_path / "strong_play.csv"
    t.to_csv(csv, index=False)
    rep = tmp_path / "robustness"
    rep.mkdir()
    (rep / "verdicts.json").write_text('{"rules_digest": "abc", "marks": {}}')
    (rep / "index.md").write_text("# Study\n\n## Verdicts\n\nx\n\n## Design\n\n- y\n")
    assert S.update_robustness(rep, csv)
    text = (rep / "index.md").read_text()
    assert text.index("## Under stronger play") < text.index("seat.2") < text.index("## Design")
    assert S.update_robustness(rep, csv) and (rep / "index.md").read_text() == text   # idempotent
    (rep / "verdicts.json").write_text('{"rules_digest": "other", "marks": {}}')
    assert S.update_robustness(rep, csv)
    assert "Not assessed for these rules" in (rep / "index.md").read_text()
    assert "seat.2" not in (rep / "index.md").read_text()


def test_committed_robustness_index_shows_the_committed_table(tmp_path):
    import shutil
    for name in ("index.md", "verdicts.json"):
        shutil.copy(S.ROBUSTNESS_DIR / name, tmp_path / name)
    assert S.update_robustness(tmp_path)
    assert (tmp_path / "index.md").read_text() == (S.ROBUSTNESS_DIR / "index.md").read_text()
