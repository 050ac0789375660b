"""The numeric tables of reports/balance/index.md are the rendering of the
committed tables/*.csv (index_tables.py), so the page cannot quote stale numbers."""
import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import pytest

BAL = Path(__file__).resolve().parents[3] / "reports" / "balance"
spec = importlib.util.spec_from_file_location("index_tables", BAL / "index_tables.py")
index_tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(index_tables)


def test_committed_index_tables_match_the_committed_csvs(tmp_path):
    page = tmp_path / "index.md"
    shutil.copy(BAL / "index.md", page)
    index_tables.update(page, BAL / "tables")
    assert page.read_text(encoding="utf-8") == (BAL / "index.md").read_text(encoding="utf-8")


def test_a_changed_csv_number_reaches_the_page(tmp_path):
    tab = tmp_path / "tables"
    shutil.copytree(BAL / "tables", tab)
    d = pd.read_csv(tab / "sweep_coins_casino_4p.csv")
    d.loc[0, "seat_spread"] = 0.4321                    # base row
    d.to_csv(tab / "sweep_coins_casino_4p.csv", index=False)
    page = tmp_path / "index.md"
    shutil.copy(BAL / "index.md", page)
    index_tables.update(page, tab)
    base = next(line for line in page.read_text().splitlines() if line.startswith("| **base**"))
    r = d.loc[0]        # the new value beside the CSV's own interval, as the table writes it
    assert f"| 0.432 [{r['seat_spread_lo']:.3f}, {r['seat_spread_hi']:.3f}] |" in base


def test_chi2_p_is_recomputed_where_the_csv_underflows():
    row = {"games": 3000, "seat0_win": 0.658, "seat1_win": 0.152, "seat2_win": 0.134,
           "seat3_win": 0.055}
    assert index_tables.chi2_p(row) == "< 1e-300"
    fair = dict(row, seat0_win=0.25, seat1_win=0.25, seat2_win=0.25, seat3_win=0.25)
    assert index_tables.chi2_p(fair) == "1e+00"


def test_a_page_without_markers_is_refused(tmp_path):
    page = tmp_path / "index.md"
    page.write_text("# no tables\n")
    with pytest.raises(SystemExit, match="table:tournament"):
        index_tables.update(page, BAL / "tables")
    assert page.read_text() == "# no tables\n"


def test_the_strong_play_block_shows_the_table_only_for_its_rules(tmp_path):
    import json
    tab = tmp_path / "tables"
    shutil.copytree(BAL / "tables", tab)
    made = pd.read_csv(tab / "strong_play.csv")["rules_digest"].iloc[0]
    log = json.loads((tab / "run_log.json").read_text())
    page = tmp_path / "index.md"
    for digest, shown in ((made, True), ("0" * 16, False)):
        (tab / "run_log.json").write_text(json.dumps(dict(log, rules_digest=digest)))
        shutil.copy(BAL / "index.md", page)
        index_tables.update(page, tab)
        block = page.read_text().split("<!-- strong_play -->")[1].split("<!-- /strong_play -->")[0]
        assert ("| seat.2 | seat " in block) is shown
        assert ("Not assessed for these rules" in block) is not shown
