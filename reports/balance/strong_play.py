"""Do the balance headlines hold under stronger play? (analyses/strong_play.py)

    .venv/bin/python reports/balance/strong_play.py [--games 2:160,4:300] [--workers 2]
    .venv/bin/python reports/balance/strong_play.py --table-only   # rebuild from the saved games

Mirror tables of `expert` (EXPERT_GAMES per player count, replayed each time: a few
seconds) against mirror tables of `ismcts?iterations=100` (the search at a budget that
fits a sitting: with its default `horizon=3` ~0.5 s a game at 2 players and ~1.3 s at 4
with 2 workers on 2 shared cores, and the committed 160 + 300 games take about 6 min;
with full playouts ~1.5 s and ~4.5 s). The search's
games are appended per chunk to tables/strong_play_games.csv (one row per player:
what the headlines read), so a stopped run keeps what it played and a rerun plays only
the rest. Writes tables/strong_play.csv (the verdicts) and tables/strong_play.json
(command, commit, rules digest, games, seconds), and re-renders the strong-play block of
index.md (and of ../robustness/index.md) from it.
"""
import argparse
import json
import sys
import time
from pathlib import Path

import pandas as pd

from analyses.report import source_state
from analyses.strong_play import compare, headlines, update_robustness, update_section
from cargo_sim import Rules, simulate
from cargo_sim.core.fileio import atomic_write_text

HERE = Path(__file__).parent
TAB = HERE / "tables"
RAW = TAB / "strong_play_games.csv"
SEED = 2024
EXPERT, STRONG = "expert", "ismcts?iterations=100"
EXPERT_GAMES = 20000
COLS = ["n_players", "game", "seat", "win_share", "shortfalls"]


def _rows(res, n):
    p = res.players.merge(res.games[["game", "shortfalls"]], on="game")
    cards = [c for c in p.columns if c.startswith("card_")]
    return p.assign(n_players=n)[COLS + cards]


def play_strong(games: dict, workers: int, chunk: int, log=print) -> pd.DataFrame:
    done = pd.read_csv(RAW) if RAW.exists() else None
    for n, want in games.items():
        have = set(done.loc[done["n_players"] == n, "game"]) if done is not None else set()
        for start in range(0, want, chunk):
            k = min(chunk, want - start)
            if all(g in have for g in range(start, start + k)):
                continue
            t = time.time()
            res = simulate(k, [STRONG] * n, seed=SEED, start=start, workers=workers, progress=False)
            rows = _rows(res, n)
            rows = rows[~rows["game"].isin(have)]
            rows.to_csv(RAW, mode="a", header=not RAW.exists(), index=False)
            log(f"{n} players: games {start}..{start + k - 1} in {time.time() - t:.0f} s", flush=True)
    return pd.read_csv(RAW)


def split(rows: pd.DataFrame):
    games = rows.drop_duplicates(["n_players", "game"])[["n_players", "game", "shortfalls"]]
    # one game index per (players, game): the headlines group by the games' n_players
    key = rows["n_players"] * 10**7 + rows["game"]
    players = rows.assign(game=key)
    games = games.assign(game=games["n_players"] * 10**7 + games["game"])
    return players, games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="2:160,4:300", help="search games per player count")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--table-only", action="store_true", help="play nothing: rebuild from the saved games")
    a = ap.parse_args(argv)
    games = {int(k): int(v) for k, v in (x.split(":") for x in a.games.split(","))}
    t0 = time.time()
    rows = pd.read_csv(RAW) if a.table_only else play_strong(games, a.workers, a.chunk)
    rows = rows[rows["game"] < rows["n_players"].map(games)]
    strong = headlines(*split(rows))
    exp = []
    for n in sorted(set(rows["n_players"])):
        res = simulate(EXPERT_GAMES, [EXPERT] * n, seed=SEED, progress=False)
        exp.append(_rows(res, n))
    base = headlines(*split(pd.concat(exp, ignore_index=True)))
    table = compare(base, strong, EXPERT, STRONG)
    table.insert(0, "rules_digest", Rules.default().digest)
    atomic_write_text(TAB / "strong_play.csv", table.to_csv(index=False))
    played = rows.groupby("n_players")["game"].nunique().to_dict()
    log = {"command": "python reports/balance/strong_play.py " + " ".join(argv or sys.argv[1:]),
           "source": source_state(), "rules_digest": Rules.default().digest, "seed": SEED,
           "expert": EXPERT, "expert_games": EXPERT_GAMES, "strong": STRONG,
           "strong_games": {str(k): int(v) for k, v in played.items()},
           "seconds_this_run": round(time.time() - t0, 1)}
    atomic_write_text(TAB / "strong_play.json", json.dumps(log, indent=1) + "\n")
    balance = json.loads((TAB / "run_log.json").read_text())["rules_digest"]
    if not update_section(HERE / "index.md", TAB / "strong_play.csv", balance):
        print("index.md: no <!-- strong_play --> block; not updated")
    if not update_robustness(HERE.parent / "robustness", TAB / "strong_play.csv"):
        print("../robustness/index.md: not updated (no report, or no '## Design' heading)")
    pd.set_option("display.width", 250)
    print(table.drop(columns=["rules_digest"]).to_string(index=False))


if __name__ == "__main__":
    main()
