"""Do the balance headlines hold under strong play? (analyses/strong_play.py)

    .venv/bin/python reports/balance/strong_play.py [--game macao] [--workers 2]
    .venv/bin/python reports/balance/strong_play.py --no-play      # use only the search games on disk
    .venv/bin/python reports/balance/strong_play.py --render-only  # re-render the report blocks

Mirror tables of `strong` (GAMES per player count), of the heuristic bots the reports used
so far (GAMES each) and of `ismcts?iterations=1000` on a subsample (`--search-games`; the
expensive part: at 1 worker on 2 cores shared with other work a Cargo Noir game took about
5, 12, 16-21 and 30 s at 2-5 players, a Macao game about 15, 44 and 64 s at 2-4). The search's games are appended per
chunk to tables/strong_play_search_games.csv (one row per player-game: what the headlines
read), so a stopped run keeps what it played and a rerun plays only the rest; the other
tables are replayed each time (seconds). Writes tables/strong_play.csv (a verdict per
headline), tables/strong_play_options.csv (every bot's estimates) and tables/strong_play.json
(command, commit, rules digest, bots, games), then re-renders the strong-play block of the
game's report (Cargo Noir: index.md here and ../robustness/index.md; Macao: ../macao/index.md).
`--out DIR` writes the tables to DIR instead and renders nothing (for trying a stand-in for
`strong`, e.g. `--strong "expert?coin_value=1.3"`).
"""
import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import pandas as pd

from analyses import strong_play as S
from analyses.mirror_sample import play, rows
from analyses.report import source_state
from cargo_sim import simulate
from cargo_sim.core.contract import get_game
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.fileio import atomic_write_text

HERE = Path(__file__).parent
SEED = 2024
GAMES = 20000
SEARCH = "ismcts?iterations=1000"
GAME = {  # heuristics, search games per count, chunk per count, the report it renders into
    "cargo_noir": {"heuristics": ("expert", "expert_v1", "greedy", "syndicate"),
                   "search_games": {2: 100, 3: 50, 4: 50, 5: 30}, "chunk": {2: 10, 3: 5, 4: 5, 5: 5}},
    "macao": {"heuristics": ("expert", "greedy", "builder", "shipper"),
              "search_games": {2: 40, 3: 20, 4: 20}, "chunk": {2: 4, 3: 2, 4: 2}},
}


def counts(text: str) -> dict[int, int]:
    try:
        out = {int(k): int(v) for k, v in (x.split(":") for x in text.split(","))}
    except ValueError:
        raise ConfigError(f"--search-games: expected players:games[,players:games...], got {text!r}") from None
    if any(v < 0 for v in out.values()):
        raise ConfigError(f"--search-games: negative games in {text!r}")
    return out


def models_stamp(game: str, search: str) -> dict:
    """What the search's games depend on besides the seed: the rules and its opponent
    models' parameters (the built-ins registered before it, `strong` among them where it
    is registered there, so retraining `strong` changes the search's games)."""
    reg = get_game(game).bots
    models = [(n, sorted(reg.get(n).params.items())) for n in reg.get(search.split("?")[0]).models]
    digest = hashlib.sha256(repr(models).encode()).hexdigest()[:16]
    return {"search": search, "seed": SEED, "rules_digest": get_game(game).Rules.default().digest,
            "models_digest": digest}


def check_stamp(raw: Path, stamp: dict) -> None:
    """Refuse search games on disk made with other rules, models or seed (one line)."""
    side = raw.with_suffix(".json")
    if raw.exists():
        made = json.loads(side.read_text()) if side.exists() else {}
        if made != stamp:
            raise ConfigError(f"{raw.name} was played with other bots' parameters, rules or seed than these "
                              f"({side.name}); move it away to replay the search")
    else:
        atomic_write_text(side, json.dumps(stamp, indent=1) + "\n")


def render(game: str, tab: Path) -> None:
    """The strong-play block of the game's report(s), from the tables alone."""
    digest = get_game(game).Rules.default().digest
    if game == "cargo_noir":
        balance = json.loads((HERE / "tables" / "run_log.json").read_text())["rules_digest"]
        if not S.update_section(HERE / "index.md", tab, balance):
            print("index.md: no <!-- strong_play --> block; not updated")
        if not S.update_robustness(HERE.parent / "robustness", tab):
            print("../robustness/index.md: not updated (no report, or no '## Design' heading)")
    elif not S.update_section(HERE.parent / "macao" / "index.md", tab, digest, before="## Rules"):
        print("../macao/index.md: not updated (no report, or no '## Rules' heading)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="cargo_noir", choices=sorted(GAME))
    ap.add_argument("--strong", default="strong", help="the strong bot (a stand-in only with --out)")
    ap.add_argument("--search", default=SEARCH)
    ap.add_argument("--search-games", default=None, help="search games per player count, e.g. 2:100,3:50")
    ap.add_argument("--games", type=int, default=GAMES, help="games per count of strong and each heuristic")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=None, help="start no search chunk after this")
    ap.add_argument("--no-play", action="store_true", help="play no search game: use those on disk")
    ap.add_argument("--render-only", action="store_true", help="re-render the report blocks from the tables")
    ap.add_argument("--out", type=Path, default=None, help="write the tables here and render nothing")
    a = ap.parse_args(argv)
    g = GAME[a.game]
    tab = S.TABLES[a.game]
    if a.render_only:
        return render(a.game, tab)
    if a.strong != "strong" and a.out is None:
        raise ConfigError(f"--strong {a.strong!r}: a stand-in writes only to --out DIR (the committed tables are strong's)")
    if a.games < 1:
        raise ConfigError(f"--games must be at least 1, got {a.games}")
    want = counts(a.search_games) if a.search_games else g["search_games"]
    bad = sorted(set(want) - set(g["search_games"]))
    if bad:
        raise ConfigError(f"--search-games: {a.game} is played here at {sorted(g['search_games'])} players, not {bad}")
    t0 = time.time()
    raw = tab / "strong_play_search_games.csv"
    cols = S.COLUMNS[a.game]
    kw = {} if a.game == "cargo_noir" else {"game": a.game}
    check_stamp(raw, models_stamp(a.game, a.search))
    if a.no_play:
        found = pd.read_csv(raw) if raw.exists() else pd.DataFrame(columns=["n_players", "game"])
    else:
        chunk = {n: g["chunk"].get(n, 5) for n in want}
        dl = None if a.minutes is None else t0 + 60 * a.minutes
        found = play(raw, a.search, want, chunk, cols, SEED, game=kw.get("game"), deadline=dl, workers=a.workers)
    found = found[found["game"] < found["n_players"].map(want).fillna(0)]
    measures = {a.search: S.headlines(found, a.game)}
    for bot in (a.strong, *g["heuristics"]):
        parts = [rows(simulate(a.games, [bot] * n, seed=SEED, workers=a.workers, progress=False, **kw), n, cols)
                 for n in sorted(g["search_games"])]
        measures[bot] = S.headlines(pd.concat(parts, ignore_index=True), a.game)
        print(f"{bot}: {a.games:,} games per count ({time.time() - t0:.0f} s)", flush=True)
    verdicts, options = S.compare(measures, a.strong, a.search, g["heuristics"])
    digest = get_game(a.game).Rules.default().digest
    verdicts.insert(0, "rules_digest", digest)
    out = a.out or tab
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "strong_play.csv", verdicts.to_csv(index=False))
    atomic_write_text(out / "strong_play_options.csv", options.to_csv(index=False, float_format="%.5g"))
    log = {"command": "python reports/balance/strong_play.py " + " ".join(argv if argv is not None else sys.argv[1:]),
           "source": source_state(), "game": a.game, "rules_digest": digest, "seed": SEED,
           "strong": a.strong, "heuristics": list(g["heuristics"]), "games_per_count": a.games,
           "search": a.search,
           "search_games": {str(k): int(v) for k, v in found.groupby("n_players")["game"].nunique().items()},
           "seconds_this_run": round(time.time() - t0, 1)}
    atomic_write_text(out / "strong_play.json", json.dumps(log, indent=1) + "\n")
    if a.out is None:
        render(a.game, tab)
    pd.set_option("display.width", 250)
    print(verdicts[["headline", "strong_conclusion", "strong_decided", "search_conclusion", "verdict", "why"]]
          .to_string(index=False))


if __name__ == "__main__":
    try:
        main()
    except ConfigError as e:
        sys.exit(f"error: {e}")
