"""Regenerate the numbers and figures of reports/balance/index.md (~10 min on 2 cores).

    make reports        # or: .venv/bin/python reports/balance/make_report.py

tables/run_log.json records the command, the git commit and the rules digest.
The numeric tables of index.md are rewritten from tables/ (index_tables.py);
its prose quotes them by hand: reread it after a regeneration. Section 3 (strong play)
is rendered from tables/strong_play.csv, which strong_play.py writes (not replayed here).
"""
import json
import time
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from analyses.report import source_state
from cargo_sim import Rules, bot_names
from cargo_sim.runners.sweep import plot_heatmap, plot_measure, sweep
from cargo_sim.runners.tournament import tournament
from index_tables import update as update_index   # sibling module: the script's folder is on sys.path

OUT = Path(__file__).parent
FIG = OUT / "figures"
TAB = OUT / "tables"
FIG.mkdir(exist_ok=True)
TAB.mkdir(exist_ok=True)
SEED = 2024
GAMES = {2: 18000, 3: 14400, 4: 10080, 5: 7560}
t0 = time.time()
log = {"command": "python reports/balance/make_report.py", "source": source_state(),
       "rules_digest": Rules.default().digest}

# 1. round robin of the built-ins at every player count
bots = bot_names(search=False)     # the search bots are too slow for 10^4-game round robins
for n, g in GAMES.items():
    t = time.time()
    r = tournament(bots, n, games=g, seed=SEED, progress=False)
    st = r.standings.reset_index()
    st.to_csv(TAB / f"standings_{n}p.csv", index=False)
    sig = r.significance
    sig.to_csv(TAB / f"significance_{n}p.csv", index=False)
    ax = r.plot_win_rates()
    ax.figure.tight_layout()
    ax.figure.savefig(FIG / f"tournament_{n}p.png", dpi=110)
    plt.close(ax.figure)
    log[f"tournament_{n}p"] = {"games_played": r.config["games_played"], "seed": SEED,
                               "design": r.config["design"], "tables": r.config["tables"],
                               "seconds": round(time.time() - t, 1)}
    print(n, "players", round(time.time() - t, 1), "s")
    print(st.head(4).to_string(index=False))
    print(sig.to_string(index=False))

# 2. seat fairness sweeps: four identical expert bots (seat effect only)
SW_PLAYERS = ["expert"] * 4
SW_GAMES = 3000
t = time.time()
s1 = sweep(grid={"start_coins": [5, 6, 7, 8, 9], "casino_payout": [1, 2, 3]}, players=SW_PLAYERS,
           games=SW_GAMES, seed=SEED, progress=False, keep_runs=False)
s1.table.to_csv(TAB / "sweep_coins_casino_4p.csv", index=False)
log["sweep_coins_casino_4p"] = {"games_per_variant": SW_GAMES, "variants": len(s1.table),
                                "seed": SEED, "seconds": round(time.time() - t, 1)}
t = time.time()
s2 = sweep(grid={"turns.4": [9, 10, 11]}, players=SW_PLAYERS, games=SW_GAMES, seed=SEED,
           progress=False, keep_runs=False)
s2.table.to_csv(TAB / "sweep_turns_4p.csv", index=False)
log["sweep_turns_4p"] = {"games_per_variant": SW_GAMES, "variants": len(s2.table), "seed": SEED,
                         "seconds": round(time.time() - t, 1)}
for res, name in ((s1, "coins_casino"), (s2, "turns")):
    for m in ("seat0_win", "seat_spread"):
        for q in res.params:
            ax = plot_measure(res, m, q)
            ax.figure.tight_layout()
            ax.figure.savefig(FIG / f"sweep_{name}_{m}_vs_{q.replace('.', '_')}.png", dpi=110)
            plt.close(ax.figure)
for m in ("seat0_win", "seat_spread", "casino_share", "win_price"):
    ax = plot_heatmap(s1, m, "start_coins", "casino_payout")
    ax.figure.tight_layout()
    ax.figure.savefig(FIG / f"sweep_heatmap_{m}.png", dpi=110)
    plt.close(ax.figure)
pd.set_option("display.width", 250)
pd.set_option("display.max_columns", 40)
for res in (s1, s2):
    print(res.summary(["seat0_win", "seat_spread", "winner_vp", "casino_share", "win_price"]).to_string(index=False))
    print(res.table[["variant"] + [f"seat{s}_win" for s in range(4)] + ["seat_chi2_p"]].to_string(index=False))
log["estimated_parameters"] = Rules.default().estimated
log["total_seconds"] = round(time.time() - t0, 1)
(TAB / "run_log.json").write_text(json.dumps(log, indent=1))
update_index(OUT / "index.md", TAB)
print(json.dumps(log, indent=1))
