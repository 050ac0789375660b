"""``cargo-sim tune``: a heuristic bot's parameters searched (``cargo_sim.runners.tune``
tunes; this module parses the options and writes the output)."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import ConfigError
from ..runners.tune import TUNE_FILES, TUNE_KIND, tune


def tune_main(argv=None) -> int:
    """``cargo-sim tune`` as a function (the same options; errors raise)."""
    from .grammar import standalone, tune_options
    return standalone("tune", tune_options, tune_command, argv)


def tune_command(a, argv) -> int:
    """``cargo-sim tune``: tune a heuristic bot and print the best spec and its fresh win rate."""
    space = None
    if a.space:
        space = {}
        for item in a.space:
            k, eq, rng = item.partition("=")
            lo, colon, hi = rng.partition(":")
            if not eq or not colon:
                raise ConfigError(f"--space {item!r}: expected PARAM=LO:HI")
            space[k.strip()] = (lo.strip(), hi.strip())
    old_file = bool(a.out) and a.out.lower().endswith(".csv")   # the old --out FILE.csv
    if old_file:                                  # checked before the search runs
        check_out_file(a.out)
        a.old_spellings = (getattr(a, "old_spellings", None) or []) + [
            "tune --out FILE.csv is now --out DIR (it writes DIR/history.csv, finalists.csv, run.json)"]
    lock = None
    if a.out and not old_file:
        from ..core.fileio import own_output
        from ..runners.runs.folder import LOCK, claim_locked
        lock = claim_locked(a.out, "tune output", own_output(TUNE_FILES + (LOCK,), "run.json",
                                                              lambda d: d.get("kind") == TUNE_KIND))
    try:
        return tune_and_write(a, argv, space, old_file)
    finally:
        if lock is not None:
            lock.release()


def tune_and_write(a, argv, space, old_file) -> int:
    """The search, its printout and ``--out`` (claimed and locked by the caller)."""
    import json
    import shlex
    from .common import jsonable, load_rules, versions
    from .grammar import PROG, show_progress
    rules = load_rules(a.rules, a.set, a.game_name)
    r = tune(a.bot, a.opponents, a.seats, a.evals, a.games_per_eval, a.seed, space, a.method,
             a.start_bot, rules=rules, fresh_games=a.fresh_games, workers=a.workers,
             progress=show_progress(a), game=a.game_name, check_bots=not a.fast_bots)
    print(r)
    print(r.finalists.to_string(index=False))
    from ..core.fileio import Staged, atomic_write
    if old_file:
        atomic_write(a.out, lambda f: r.history.to_csv(f, index=False))
    elif a.out:
        meta = dict(r.config, kind=TUNE_KIND, command=shlex.join([PROG] + list(argv)),
                    best=r.best_spec, rules_digest=rules.digest, rules_overrides=rules.overrides,
                    versions=versions())
        with Staged(Path(a.out)) as files:
            files.write("history.csv", lambda f: r.history.to_csv(f, index=False))
            files.write("finalists.csv", lambda f: r.finalists.to_csv(f, index=False))
            files.write("run.json", lambda f: Path(f).write_text(
                json.dumps(jsonable(meta), indent=2) + "\n", encoding="utf-8"))
        print(f"wrote {a.out}/history.csv, finalists.csv, run.json")
    return 0


def check_out_file(path) -> None:
    """``--out FILE.csv``: a new file in a writable folder (an existing file is
    never replaced: it is not this run's)."""
    from ..core.fileio import probe_writable
    p = Path(path)
    if p.exists() or p.is_symlink():
        raise ConfigError(f"--out {p} already exists: give a new file name (it is not replaced)")
    if not p.parent.is_dir():
        raise ConfigError(f"--out {p}: the folder {p.parent} does not exist")
    probe_writable(p.parent)
