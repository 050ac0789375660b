"""``cargo-sim sweep``: rule variants compared on the same game seeds
(``cargo_sim.runners.sweep`` plays them; this module parses the grid and writes the output)."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pandas as pd

from ..core.contract import get_game
from ..core.errors import ConfigError, RulesError
from ..runners.runs.folder import LOCK, claim_locked
from ..runners.sweep import MAX_VARIANTS, check_measures, measures_of, plot_heatmap, plot_measure, sweep


def split_values(text: str) -> list[str]:
    """Split on commas outside brackets/quotes."""
    out, cur, depth, quote = [], [], 0, None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def toml_value(tok: str):
    try:
        return tomllib.loads(f"v = {tok}")["v"]
    except tomllib.TOMLDecodeError:
        return tok                                   # a bare word: a string (validated by Rules)


def parse_set_args(items, option: str = "--set") -> dict:
    """``["start_coins=6,7,8", "casino_payout=2,3"]`` -> ``{"start_coins": [6, 7, 8],
    "casino_payout": [2, 3]}``. Values are TOML scalars (``8``, ``true``,
    ``"text"``, ``[2, 3]``); ``a..b`` is the integer range a, a+1, ..., b.
    Raises RulesError for an item without ``=`` or without values."""
    grid: dict = {}
    for item in items or []:
        name, eq, rest = str(item).partition("=")
        name = name.strip()
        if not eq or not name:
            raise RulesError(f"{option} {item!r}: expected parameter=value[,value...]")
        values = []
        for tok in split_values(rest):
            if ".." in tok and not tok.startswith(("[", '"', "'")):
                a, _, b = tok.partition("..")
                try:
                    lo, hi = int(a), int(b)
                except ValueError:
                    raise RulesError(f"{option} {item!r}: a range is integer..integer, got {tok!r}") from None
                if hi - lo + 1 > MAX_VARIANTS:        # listed below: refused before it is built
                    raise ConfigError(f"{option} {name}: the range {tok} has {hi - lo + 1:,} values, more "
                                      f"than a sweep can play ({MAX_VARIANTS:,} variants at most)")
                values += list(range(lo, hi + 1))
            else:
                values.append(toml_value(tok))
        if not values:
            raise RulesError(f"{option} {item!r}: no values for {name!r}")
        grid.setdefault(name, [])
        grid[name] += values
    return grid


def own_sweep_folder(folder: Path) -> bool:
    """An earlier sweep's --out: sweep.csv and its figures, nothing else."""
    import re
    names = [p.name for p in folder.iterdir()]
    return "sweep.csv" in names and all(
        n in ("sweep.csv", "run.json", LOCK) or re.fullmatch(r"[\w.]+_(vs_[\w]+|heatmap)\.png", n)
        or (n.startswith(".") and n.endswith(".tmp")) for n in names)


def sweep_main(argv=None) -> int:
    """``cargo-sim sweep`` as a function (the same options; errors raise)."""
    from .grammar import standalone, sweep_options
    return standalone("sweep", sweep_options, sweep_command, argv)


def sweep_command(a, argv) -> int:
    """``cargo-sim sweep --vary start_coins=6,7,8 --vary casino_payout=2,3 ...``:
    run a sweep, print its table, optionally write sweep.csv and figures to --out.
    (``--set`` alone is the old spelling of ``--vary``; with ``--vary`` it fixes a
    rules value of the base, as in every other command.)"""
    from .common import load_rules
    vary, sets = list(a.vary), list(a.set)
    if sets and not vary:                         # the old grammar: --set was the grid
        vary, sets = sets, []
        a.old_spellings = (getattr(a, "old_spellings", None) or []) + [
            "sweep --set PARAM=V1,V2 (the values compared) is now spelled --vary PARAM=V1,V2"]
    game = get_game(a.game_name)
    measures = a.measures.split(",") if a.measures else None
    check_measures(measures, measures_of(game))   # before the sweep is played, not after
    if not vary:
        raise ConfigError("sweep compares variants of the rules: give at least one --vary PARAM=V1,V2 "
                          "(e.g. --vary start_coins=6,7,8)")
    grid = parse_set_args(vary, "--vary" if a.vary else "--set")
    base = load_rules(a.rules, sets, game)
    lock = claim_locked(a.out, "sweep output", own_sweep_folder) if a.out else None  # before play
    try:
        return sweep_and_write(a, argv, base, grid, measures, game)
    finally:
        if lock is not None:
            lock.release()


def sweep_and_write(a, argv, base, grid, measures, game) -> int:
    """The sweep, its table and ``--out`` (claimed and locked by the caller)."""
    from .grammar import show_progress
    players = None if a.players is None else [q for q in a.players.split(",") if q]
    res = sweep(base, grid, players, games=a.games, seed=a.seed, workers=a.workers,
                progress=show_progress(a), keep_runs=False, game=game, check_bots=not a.fast_bots)
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        print(res.summary(measures).to_string(index=False))
    if a.out:
        from ..core.fileio import atomic_write
        out = Path(a.out)
        atomic_write(out / "sweep.csv", lambda f: res.table.to_csv(f, index=False))
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for m in measures or ["seat0_win", "seat_spread"]:
            for q in res.params:
                ax = plot_measure(res, m, q)
                ax.figure.tight_layout()
                atomic_write(out / f"{m}_vs_{q.replace('.', '_')}.png",
                             lambda f, fig=ax.figure: fig.savefig(f, dpi=110, format="png"))
                plt.close(ax.figure)
            if len(res.params) >= 2:
                ax = plot_heatmap(res, m, res.params[0], res.params[1])
                ax.figure.tight_layout()
                atomic_write(out / f"{m}_heatmap.png",
                             lambda f, fig=ax.figure: fig.savefig(f, dpi=110, format="png"))
                plt.close(ax.figure)
        import json
        import shlex
        from .common import jsonable, versions
        meta = {"kind": "cargo_sim.sweep/1", "command": shlex.join(["cargo-sim"] + list(argv)),
                "game": game.name, "seed": a.seed, "games": a.games, "players": players,
                "grid": grid, "rules_digest": base.digest, "rules_overrides": base.overrides,
                "versions": versions()}
        atomic_write(out / "run.json", lambda f: Path(f).write_text(
            json.dumps(jsonable(meta), indent=2) + "\n", encoding="utf-8"))
        print(f"wrote {out / 'sweep.csv'}, figures and run.json", file=sys.stderr)
    return 0

