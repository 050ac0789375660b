"""Write the numeric tables of reports/balance/index.md from tables/*.csv and run_log.json.

    .venv/bin/python reports/balance/index_tables.py    # make_report.py calls update() itself

Each table sits between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->`` in
index.md and is replaced whole, so the tables cannot go stale; the prose
around them is hand-written from the same files.
"""
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from analyses.strong_play import section as strong_play_section

HERE = Path(__file__).parent
SEATS = 4


def _ci(lo, hi, fmt="{:.3f}"):
    return f"[{fmt.format(lo)}, {fmt.format(hi)}]"


def tournament_table(tab: Path) -> str:
    log = json.loads((tab / "run_log.json").read_text())
    rows = ["| players | games | 1st: win rate [95% CI] (x fair) | 2nd: win rate [95% CI] "
            "| deals 1st ahead of 2nd | paired win-rate diff [95% CI] | paired VP diff [95% CI] |",
            "|---|---|---|---|---|---|---|"]
    for n in (2, 3, 4, 5):
        st = pd.read_csv(tab / f"standings_{n}p.csv").set_index("entrant")
        sig = pd.read_csv(tab / f"significance_{n}p.csv").set_index("test")
        a, b = sig["a"].iloc[0], sig["b"].iloc[0]
        sd, wr, vp = (sig.loc[t] for t in ("sign test (deals)", "paired t-test (win rate)",
                                            "paired t-test (VP)"))
        ra, rb = st.loc[a], st.loc[b]
        rows.append(
            f"| {n} | {log[f'tournament_{n}p']['games_played']:,} "
            f"| {a} {ra.win_rate:.3f} {_ci(ra.win_lo, ra.win_hi)} ({ra.win_rate * n:.2f}x) "
            f"| {b} {rb.win_rate:.3f} {_ci(rb.win_lo, rb.win_hi)} "
            f"| {int(sd.statistic)}/{int(sd.n)}, p = {sd.p_value:.1e} "
            f"| {wr.estimate:+.3f} {_ci(wr.ci_lo, wr.ci_hi)} "
            f"| {vp.estimate:+.1f} {_ci(vp.ci_lo, vp.ci_hi, '{:.1f}')} |")
    return "\n".join(rows)


def chi2_p(row) -> str:
    """Chi-square p of the seat wins against equal seats, from the seat win-rate
    columns (the CSV's seat_chi2_p underflows to 0 for large effects)."""
    wins = np.array([row[f"seat{s}_win"] for s in range(SEATS)]) * row["games"]
    e = wins.sum() / SEATS
    p = float(stats.chi2.sf(((wins - e) ** 2 / e).sum(), SEATS - 1))
    return f"{p:.0e}" if p > 0 else "< 1e-300"


def _label(row, params) -> str:
    short = {"start_coins": "start", "casino_payout": "payout"}
    return ", ".join(f"{short[p]} {row[p]}" if p in short else f"{p} = {row[p]}" for p in params)


def sweep_table(tab: Path) -> str:
    parts = []
    for name in ("sweep_coins_casino_4p.csv", "sweep_turns_4p.csv"):
        d = pd.read_csv(tab / name)
        params = [c for c in d.columns[1:d.columns.get_loc("games")]]
        base = d.iloc[0]
        same = (d[params] == base[params]).all(axis=1)     # a grid point equal to the base
        parts.append(d[~same].assign(label=[_label(r, params) for _, r in d[~same].iterrows()]))
    base = pd.read_csv(tab / "sweep_coins_casino_4p.csv").iloc[[0]].assign(label="**base**")
    rows = ["| variant (4p) | seat win rates 0/1/2/3 | spread [95% CI] | chi-square p "
            "| spread diff vs base [95% CI] | casino share |",
            "|---|---|---|---|---|---|"]
    for i, (_, r) in enumerate(pd.concat([base] + [p.sort_values("seat_spread") for p in parts]
                                         ).iterrows()):
        seats = "/".join(f"{r[f'seat{s}_win']:.3f}".lstrip("0") for s in range(SEATS))
        diff = "—" if i == 0 else (f"{r.seat_spread_diff:+.3f} "
                                   f"{_ci(r.seat_spread_diff_lo, r.seat_spread_diff_hi, '{:+.3f}')}")
        rows.append(f"| {r.label} | {seats} | {r.seat_spread:.3f} "
                    f"{_ci(r.seat_spread_lo, r.seat_spread_hi)} | {chi2_p(r)} | {diff} "
                    f"| {r.casino_share:.1%} |")
    return "\n".join(rows)


def update(index: Path = HERE / "index.md", tab: Path = HERE / "tables") -> None:
    """Replace every marked table of ``index`` with its rendering from ``tab``."""
    text = index.read_text(encoding="utf-8")
    for name, render in (("tournament", tournament_table), ("sweep", sweep_table)):
        pat = re.compile(rf"(<!-- table:{name} -->\n).*?(\n<!-- /table:{name} -->)", re.S)
        if not pat.search(text):
            raise SystemExit(f"{index}: no <!-- table:{name} --> ... <!-- /table:{name} --> markers")
        text = pat.sub(lambda m: m.group(1) + render(tab) + m.group(2), text)
    # the strong-play verdicts (strong_play.py writes their table; make_report.py does not replay it)
    digest = json.loads((tab / "run_log.json").read_text())["rules_digest"]
    pat = re.compile(r"(<!-- strong_play -->\n).*?(\n<!-- /strong_play -->)", re.S)
    text = pat.sub(lambda m: m.group(1) + strong_play_section(tab, digest) + m.group(2),
                   text)
    index.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    update()
