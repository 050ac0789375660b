"""Macao's highlights carry the marks of Macao's committed robustness report (its report
module's ROBUSTNESS_MARKS), never Cargo Noir's; a planted verdicts file, no games."""
import json

import pandas as pd
import pytest

from analyses.games import report_parts
from analyses.robustness_marks import SOURCE_ROOT, VERDICTS_FILE, mark_highlights, report_folder
from cargo_sim.core.contract import get_game
from cargo_sim.games.macao.report import highlights

RULES = get_game("macao").Rules.default()
SPEC = report_parts(get_game("macao"))["ROBUSTNESS_MARKS"]
MARKS = {"seat.2": "robust", "seat.3": "near-tie: flips within the noise with tie_break",
         "seat.4": "depends on card_costs", "source.2": "robust", "source.3": "depends on tribute_points",
         "source.4": "robust", "ranking": "robust", "leader": "robust"}


def _lines(counts=(2, 3)):
    """Macao's highlight lines as its report writes them, for these player counts."""
    seats = pd.DataFrame([{"n_players": n, "seat": s, "bot": "expert", "n": 100, "win_rate": 1 / n + 0.01 * s,
                           "ci_lo": 0.1, "ci_hi": 0.9} for n in counts for s in range(n)])
    score = pd.DataFrame([{"n_players": n, "who": "winners", "source": "tribute", "mean": 25.0,
                           "ci_lo": 24.0, "ci_hi": 26.0} for n in counts])
    wall = pd.DataFrame([{"n_players": n, "wall_place": 1, "n": 10, "win_rate": 0.5, "ci_lo": 0.4,
                          "ci_hi": 0.6} for n in counts])
    return highlights({"win_rate_by_seat": seats, "score_breakdown": score, "wall_rank_win": wall})


def _plant(folder, digest):
    folder.mkdir()
    (folder / VERDICTS_FILE).write_text(json.dumps({"kind": "x", "rules_digest": digest, "marks": MARKS}))
    return folder


def test_macao_names_its_own_report_and_cargo_noir_keeps_its_folder():
    assert report_folder(SPEC) == SOURCE_ROOT / "reports" / "macao_robustness"
    cn = report_parts(get_game("cargo_noir"))["ROBUSTNESS_MARKS"]
    assert report_folder(cn) == SOURCE_ROOT / "reports" / "robustness"


def test_macao_highlights_carry_the_marks_of_their_headlines(tmp_path):
    study = _plant(tmp_path / "macao_robustness", RULES.digest)
    lines = _lines((2, 3))
    assert lines[0].startswith("2 players (expert in every seat): best seat 1")
    marked, link = mark_highlights(lines, RULES, tmp_path / "macao", SPEC, folder=study)
    assert marked[0].endswith("[robustness: seat.2: robust]")
    assert marked[1].endswith(f"[robustness: seat.3: {MARKS['seat.3']}]")
    # the sources line shows 2p and 3p: their two marks, not the 4-player one
    assert marked[2].startswith("Winners' largest source") and marked[2].endswith(
        f"[robustness: source.2: robust; source.3: {MARKS['source.3']}]")
    assert marked[3].endswith("[robustness: not assessed]")          # the wall: no headline
    assert "](../macao_robustness/index.md)" in link


def test_cargo_noirs_line_patterns_would_not_mark_macaos_lines(tmp_path):
    """The bug this wiring fixes: with Cargo Noir's patterns no Macao line found its headline."""
    study = _plant(tmp_path / "macao_robustness", RULES.digest)
    cn = report_parts(get_game("cargo_noir"))["ROBUSTNESS_MARKS"]
    marked, _ = mark_highlights(_lines((4,)), RULES, tmp_path, cn, folder=study)
    assert all(m.endswith("[robustness: not assessed]") for m in marked)


def test_other_rules_or_no_report_are_not_assessed(tmp_path):
    study = _plant(tmp_path / "macao_robustness", "0123456789abcdef")
    marked, link = mark_highlights(_lines((4,)), RULES, tmp_path, SPEC, folder=study)
    assert link is None and all(m.endswith("[robustness: not assessed for these rules]") for m in marked)
    marked, link = mark_highlights(_lines((4,)), RULES, tmp_path, None)      # a game naming no report
    assert link is None and all(m.endswith("[robustness: not assessed for these rules]") for m in marked)


@pytest.mark.parametrize("game, out", [("macao", "reports/macao_robustness"), ("cargo_noir", "reports/robustness")])
def test_the_study_writes_to_its_own_games_folder_by_default(game, out):
    from cargo_sim.cli.analyses import robustness_out
    assert robustness_out(get_game(game)) == out
