"""The ``cargo-sim`` commands that run the analyses (``report``, ``robustness``,
``ladder``): the CLI is the one layer above ``analyses`` (tests/core/test_layers.py),
so their command code is here and the analyses stay free of the CLI. Their
options are in ``cli_grammar``.
"""
from __future__ import annotations

import shlex
import sys

from ..games import DEFAULT
from .common import load_rules, versions
from .grammar import seats_list, show_progress
from ..core.errors import ConfigError
from ..runners.runs.folder import RunLock


def report_command(a, argv) -> int:
    """``cargo-sim report``: simulate every player count and write the report."""
    from analyses.report import (DEFAULT_EVENTS_GAMES, DEFAULT_GAME, QUICK_EVENTS_GAMES,
                                 QUICK_GAMES, build_report, claim_report_folder, parse_games_arg,
                                 parse_players_arg)
    if a.from_runs:
        return report_from_runs(a, argv)
    players = parse_players_arg(a.players)
    games = parse_games_arg(a.games) if a.games is not None else (QUICK_GAMES if a.quick else None)
    if a.seats:
        counts = seats_list(a.seats)
    elif players:
        counts = tuple(sorted(players))
    elif isinstance(games, dict):
        counts = tuple(sorted(games))
    else:
        counts = None                    # build_report: every default count the game allows
    ev = a.events_games if a.events_games is not None else \
        (QUICK_EVENTS_GAMES if a.quick else DEFAULT_EVENTS_GAMES)
    game = a.game_name or DEFAULT_GAME
    rules = load_rules(a.rules, a.set, game)
    for n in counts or ():
        rules.check_players(n)
    line = shlex.join(["cargo-sim"] + list(argv))
    claim_report_folder(a.out)                  # before any game: an unusable --out fails now
    path = build_report(a.out, n_games=games, player_counts=counts, players=players, seed=a.seed,
                        rules=rules, command=line, events_games=ev, workers=a.workers,
                        formats=("png",) if a.no_svg else ("png", "svg"),
                        progress=show_progress(a), time_budget=a.seconds, game=game)
    print(f"report written to {path}")
    return 0


def report_from_runs(a, argv) -> int:
    """``cargo-sim report --from RUN_FOLDER ...``: the report of existing runs' games."""
    from analyses.report import build_report, claim_report_folder, results_from_runs
    given = [flag for flag, v in (("--games", a.games), ("--players", a.players), ("--seats", a.seats),
                                  ("--rules", a.rules), ("--set", a.set), ("--quick", a.quick),
                                  ("--events-games", a.events_games),
                                  ("--seconds", any(x.split("=")[0] in ("--seconds", "--budget")
                                                    for x in argv))) if v]
    if given:
        raise ConfigError(f"--from reports on the games already in the run folders; "
                          f"{', '.join(given)} would need a new simulation (drop --from to simulate)")
    results = results_from_runs(a.from_runs)     # first: a bad folder leaves no empty --out behind
    game = results[0].config.get("game") or DEFAULT
    if a.game_name and a.game_name != game:
        raise ConfigError(f"--game {a.game_name}: the run folders hold games of {game}")
    claim_report_folder(a.out)
    path = build_report(a.out, results=results, seed=a.seed, command=shlex.join(["cargo-sim"] + list(argv)),
                        formats=("png",) if a.no_svg else ("png", "svg"),
                        game=game,
                        sources=[str(f) for f in a.from_runs])
    print(f"report written to {path}")
    return 0


def parse_groups(specs) -> tuple:
    """``--group NAME=PATTERN[,PATTERN...]`` -> ((name, (pattern, ...)), ...) for Design.groups."""
    out = []
    for spec in specs:
        name, eq, pats = spec.partition("=")
        patterns = tuple(x.strip() for x in pats.split(",") if x.strip())
        if not eq or not name.strip() or not patterns:
            raise ConfigError(f"--group takes NAME=PATTERN[,PATTERN...], got {spec!r}")
        out.append((name.strip(), patterns))
    return tuple(out)


def robustness_out(game) -> str:
    """``--out``'s default: the folder of the game's committed robustness report (its report
    module's ``ROBUSTNESS_MARKS``), so a study of one game never replaces another's."""
    from analyses.games import report_parts
    return (report_parts(game)["ROBUSTNESS_MARKS"] or {}).get("report") or "reports/robustness"


def robustness_command(a, argv) -> int:
    """Which headline conclusions survive the rules' unknowns: one-at-a-time sweeps over every
    plausible range (common random numbers) and Morris screening of all estimates together."""
    from analyses.robustness import Design, study_game
    from analyses.robustness_report import claim_report_folder
    game = study_game(a.game_name or Design.game)
    rules = load_rules(a.rules, a.set, game.name)
    if a.seats:
        counts = seats_list(a.seats)
    else:                               # the study's default counts the game's rules allow
        from analyses.report import allowed_counts
        counts = allowed_counts(rules, Design.player_counts)
    for n in counts:
        rules.check_players(n)
    a.out = a.out or robustness_out(game)
    with RunLock(claim_report_folder(a.out)):   # before the sweeps: an unusable --out fails now
        return robustness_run(a, argv, rules, counts, game)


def robustness_run(a, argv, rules, counts, game) -> int:
    """The study and its report (``--out`` claimed and locked by the caller)."""
    from analyses.robustness import Design, load_previous, run
    from analyses.robustness_report import write_report
    previous = load_previous(a.out)     # the report this one replaces, to compare verdicts
    design = Design(a.games, a.morris_games, a.trajectories, counts, a.seed, a.workers,
                    tuple(a.param) if a.param else None, game.name, parse_groups(a.group or ()))
    log = (lambda m: print(m, file=sys.stderr, flush=True)) if show_progress(a) else (lambda m: None)
    res = run(rules, design, log=log)
    res["previous"] = previous
    path = write_report(res, a.out, command=shlex.join(["cargo-sim"] + list(argv)))
    print(res["verdicts"][["headline", "conclusion", "mark"]].to_string(index=False))
    print(f"wrote {path}")
    return 0


def ladder_command(a, argv) -> int:
    """``cargo-sim ladder``: every bot against a yardstick search bot at several budgets."""
    import pandas as pd
    from cargo_sim.runners.ladder import claim_ladder_folder, ladder, load_ladder
    from analyses.ladder import write_report
    from analyses.report import source_state
    line = shlex.join(["cargo-sim"] + list(argv))
    if a.report_only:
        if not a.out:
            raise ConfigError("--report-only needs --out DIR")
        res = load_ladder(a.out)
        with RunLock(claim_ladder_folder(a.out)):
            print(f"wrote {write_report(res, a.out, res.config.get('command', ''))}")
        return 0
    try:
        budgets = [float(b) for b in a.budgets.split(",") if b.strip()]
        seats = [int(n) for n in a.seats.split(",") if n.strip()]
    except ValueError:
        raise ConfigError(f"--budgets takes numbers and --seats whole numbers, comma-separated; "
                          f"got {a.budgets!r} and {a.seats!r}") from None
    rules = load_rules(a.rules, a.set, a.game_name) if (a.rules or a.set) else None
    res = ladder(a.players, a.yardstick, budgets, seats, a.games, a.seed, a.budget_param,
                 rules=rules, workers=a.workers, progress=show_progress(a), out=a.out,
                 prune=a.prune, half_width=a.half_width, max_games=a.max_games,
                 extra={"command": line, "source": source_state(), "versions": versions(),
                        **({"note": a.note} if a.note else {})},
                 game=a.game_name, check_bots=not a.fast_bots)
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(res.table().round(3).to_string() if not res.cells.empty else "no cell finished")
        if not res.rates.empty:
            print("\nyardstick decisions per second:")
            print(res.rates.round(3).to_string(index=False))
    if a.out and not res.cells.empty:
        with RunLock(a.out):            # ladder() held it while it played; now the report
            print(f"\nwrote {write_report(res, a.out, line)}")
    if not res.complete:
        print(f"cargo-sim: interrupted; {len(res.cells)} finished cells kept"
              + (f" in {a.out} (rerun the same command to continue)" if a.out else ""),
              file=sys.stderr)
        return 130
    return 0
