"""The ``cargo-sim`` command line.

    cargo-sim simulate --games 10000 --players random,random,random --seed 1 --out runs/r1
    cargo-sim play --seed 1 --index 0 --players random,random,random
    cargo-sim rules --estimated
    cargo-sim bots
    cargo-sim simulate --game NAME ...      (any registered game; cargo_sim.games.DEFAULT)

Every mistake the user can make (unknown bot, bad ``--set``, unreadable rules
file, impossible output folder...) ends with ONE line on stderr,
``cargo-sim: error: <message>``, and exit status 2; Ctrl-C exits with 130
after saving the games already finished when ``--out`` was given.
"""
from __future__ import annotations

import sys

try:  # Ctrl-C while the command still imports (a loaded machine): one line, status 130
    import argparse
    import contextlib
    import json
    import os
    import signal
    import warnings
    import tempfile  # noqa: F401
    import threading
    import time
    from pathlib import Path

    from ..core.fileio import atomic_write, atomic_write_text  # noqa: F401  (used by tests too)

    from .grammar import note_old_spellings, show_progress
    from .common import (EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USER_ERROR, PROG,  # noqa: F401
                             format_summary, format_summary_of, jsonable, load_rules,
                             parse_players, parse_set, run_headline, seat_table, versions)
except KeyboardInterrupt:
    sys.stderr.write("\ncargo-sim: interrupted\n")
    raise SystemExit(130) from None


def _game(args):
    """The game a command plays (``--game NAME``; default ``cargo_sim.games.DEFAULT``)."""
    from ..core.contract import get_game
    return get_game(args.game_name)


# ---------------------------------------------------------------------------
# simulate
def cmd_simulate(args, argv) -> int:
    from .. import simulate                   # cargo_sim.simulate (the public name)
    from .runs import check_run_options, cli_aggregate, cli_out
    check_run_options(args)
    game = _game(args)
    if args.aggregate:                           # counters folded in the kernel
        return cli_aggregate(args, argv)
    if args.out is not None:                     # streamed to disk chunk by chunk
        return cli_out(args, argv)
    rules = load_rules(args.rules, args.set, game)
    players = parse_players(args.players)
    workers = args.workers or os.cpu_count() or 1
    progress = show_progress(args)
    t0 = time.perf_counter()
    kw = ({"backend": "dask", "scheduler": args.dask, "chunk_games": args.chunk_games}
          if args.dask else {"workers": workers})
    res = simulate(args.games, players, seed=args.seed, rules=rules, progress=progress,
                   start=args.start, game=game, check_bots=not args.fast_bots, **kw)
    elapsed = time.perf_counter() - t0
    print(format_summary(res, elapsed, workers, game))
    if res.interrupted:
        print(f"{PROG}: interrupted after {len(res.games):,} of {args.games:,} games (nothing "
              "saved: --out DIR writes the games to disk as they finish)", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


# ---------------------------------------------------------------------------
# play
def play_game_and_index(args) -> tuple[str | None, int | None]:
    """(game name, game index) of ``play``: ``--game`` names the game, ``--index``
    the game of a run; ``--game I`` (a number: never a game's name) is the old
    spelling of ``--index I`` and still works, with a note on stderr."""
    from ..core.errors import ConfigError
    from ..games import DEFAULT
    name, index = args.game_name, args.index
    if name is not None and name.strip().lstrip("-").isdigit():
        if index is not None:
            raise ConfigError(f"play --game {name} and --index {index}: the game index is "
                              f"--index (--game names the game, e.g. --game {DEFAULT})")
        name, index = args.global_game, int(name)
        args.old_index = True          # cmd_play says so once the game is played
    return name, index


def cmd_play(args, argv) -> int:
    import numpy as np
    from ..core.runner import play_one
    from ..core.contract import get_game, require
    name, index = play_game_and_index(args)
    game = get_game(name)
    rules = load_rules(args.rules, args.set, game)
    if args.events:
        _check_new_file(args.events, "--events")
    players = parse_players(args.players)
    seed = args.seed
    from ..core.checks import MAX_GAME, check_number, check_seed
    if index is not None:
        from ..core.rng_nb import game_seed_nb
        check_seed(args.seed, "--seed")
        check_number("--index", index, 0, MAX_GAME)
        seed = int(game_seed_nb(np.uint64(args.seed), index))
    else:
        check_seed(seed, "--seed")
    if args.html:           # refuse a file we did not write before playing anything
        require(game, "replay").check(args.html)
    events, text, _, _ = play_one(game, seed, players, rules=rules, check_bots=not args.fast_bots)
    what = f"game {index} of run seed {args.seed} (game seed {seed})" if index is not None \
        else f"game seed {seed}"
    print(f"{game.title}, {len(players)} players, {what}, rules {rules.digest}")
    print(text)                              # ends with the final scores
    if args.html:
        path, steps = game.replay.write(args.html, seed, players, rules, not args.fast_bots)
        print(f"wrote {path} (open it in a browser: {steps:,} decisions)")
    if args.events:
        path = Path(args.events)
        atomic_write(path, lambda tmp: events.to_csv(tmp, index=False))
        print(f"wrote {path} ({len(events):,} events)")
    if getattr(args, "old_index", False):      # last, and only when it worked: an error stays one line
        print(f"{PROG}: note: play --game {index} is now spelled --index {index} "
              f"(--game names the game)", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# rules / bots
def cmd_rules(args, argv) -> int:
    game = _game(args)
    rules = load_rules(args.rules, args.set, game)
    if args.toml and args.estimated:           # a game owner's sheet: the estimates only
        from ..core.sheet import estimates_sheet
        sys.stdout.write(estimates_sheet(rules, game.title))
        return 0
    if args.toml:
        sys.stdout.write(rules.to_toml())
        return 0
    prov = rules.provenance_rows()
    if args.estimated:
        prov = [r for r in prov if r["status"] == "estimated"]
    print(f"{rules['name']} (digest {rules.digest})"
          + (f", overrides: {', '.join(f'{k}={v!r}' for k, v in rules.overrides.items())}"
             if rules.overrides else ""))
    if args.estimated:
        print(f"{len(prov)} estimated values (our estimates, not printed in the rule texts); "
              f"change them with --set name=value or --rules FILE.toml")
    rows = [("parameter", "value", "status", "source")]
    for r in prov:
        flag = "ESTIMATED" if r["status"] == "estimated" else r["status"]
        value = json.dumps(r["value"]) if isinstance(r["value"], (list, str, bool)) else str(r["value"])
        source = r["source"].split(":", 1)[1].strip() if ":" in r["source"] else ""
        rows.append((r["parameter"], value, flag, source))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r[:3], widths)) + "  " + r[3])
    return 0


def _check_new_file(path, option: str) -> None:
    """An output file option: a new file in a writable folder, checked before
    any game (an existing file is never replaced: it is not this run's)."""
    from ..core.errors import ConfigError
    from ..core.fileio import probe_writable
    p = Path(path)
    if p.exists() or p.is_symlink():
        raise ConfigError(f"{option} {p} already exists: give a new file name (it is not replaced)")
    if not p.parent.is_dir():
        raise ConfigError(f"{option} {p}: the folder {p.parent} does not exist")
    probe_writable(p.parent, option)


def cmd_bots(args, argv) -> int:
    import textwrap
    bots = _game(args).bots
    bot_names = bots.names
    for name in bot_names():
        spec = bots.get(name)
        doc = " ".join((getattr(spec, "doc", "") or "").split())
        params = getattr(spec, "params", {}) or {}
        if not args.verbose:                     # first sentence only
            doc = doc.split(". ")[0].rstrip(".") + "." if doc else ""
        print(name)
        if doc:
            print(textwrap.fill(doc, width=88, initial_indent="    ", subsequent_indent="    "))
        if params and args.verbose:
            show = getattr(spec, "show", lambda k, v: f"{v:g}")     # bot-valued: the bot's name
            print(textwrap.fill("parameters: " + ", ".join(f"{k}={show(k, v)}" for k, v in params.items()),
                                width=88, initial_indent="    ", subsequent_indent="      "))
    # the example is this game's: its first bot with a parameter, at that parameter's default
    example = next(((name, k, v) for name in bot_names()
                    for k, v in (getattr(bots.get(name), "params", {}) or {}).items()
                    if isinstance(v, (int, float))), None)
    print("\nSeat a bot with parameters as name?key=value&key=value" +
          (f", e.g. --players '{example[0]}?{example[1]}={example[2]:g},random'" if example else "."))
    if not args.verbose:
        print(f"`{PROG} bots -v` shows each bot's full description and parameters.")
    return 0


# ---------------------------------------------------------------------------
# commands whose code lives with their module (imported when the command runs);
# their options are in cli_grammar, so every --help is one light parser tree
ELSEWHERE = {
    "sweep": ("cargo_sim.cli.sweep:sweep_command", "sweep_options",
              "rule variants on the same games, with paired differences and intervals"),
    "tune": ("cargo_sim.cli.tune:tune_command", "tune_options",
             "search a heuristic bot's parameters against a field"),
    "train": ("cargo_sim.cli.train:train_command", "train_options",
              "train the game's `strong` bot (its strong.toml) against its fields"),
    "ladder": ("cargo_sim.cli.analyses:ladder_command", "ladder_options",
               "every bot against a yardstick search bot at several budgets"),
    "report": ("cargo_sim.cli.analyses:report_command", "report_options",
               "simulate and write a report (tables, figures, index.md/html)"),
    "robustness": ("cargo_sim.cli.analyses:robustness_command", "robustness_options",
                   "which headline conclusions survive the rules' plausible ranges (sweeps, Morris)"),
}
DELEGATED = {name: target for name, (target, _, _) in ELSEWHERE.items()}   # (the layer test's list)


def _elsewhere(target: str):
    def run(args, argv):
        import importlib
        module, func = target.split(":")
        return getattr(importlib.import_module(module), func)(args, argv) or 0
    return run


def cmd_tournament(args, argv) -> int:
    from ..runners.tournament import tournament
    from ..core.errors import ConfigError
    if not args.players:          # (not argparse's required=: the old -b/--bots give it too)
        raise ConfigError("tournament needs its entrants: --players BOTS (e.g. greedy,expert)")
    if args.players.strip().isdigit():
        raise ConfigError(f"--players lists the entrants (e.g. greedy,expert); "
                          f"the number of seats is --seats {args.players.strip()}")
    game = _game(args)
    rules = load_rules(args.rules, args.set, game)
    bots = [b.strip() for b in args.players.split(",") if b.strip()]
    dup = sorted({b for b in bots if bots.count(b) > 1})
    if dup:        # a typo far more often than an A/A test (the API's tournament(["random"] * 2, ...))
        raise ConfigError(f"--players names {', '.join(dup)} more than once; entrants must differ "
                          f"(an A/A test of one bot: cargo_sim.tournament([bot, bot], ...))")
    if args.out:                 # the common mistakes first, so they leave no empty folder
        for b in bots:
            game.bots.parse(b)
        rules.check_players(args.seats)
    lock = claim_tournament_folder(args.out) if args.out else None    # before any game
    try:
        return _tournament(args, argv, tournament, bots, rules, game)
    finally:
        if lock is not None:
            lock.release()


TOURNAMENT_KIND = "cargo_sim.tournament/1"
TOURNAMENT_FILES = ("standings.csv", "head_to_head.csv", "ratings.csv", "significance.csv",
                    "win_rates.png", "run.json", "run.lock")


def _tournament_run_json(d: dict) -> bool:
    """A run.json a tournament wrote (with its kind, or from before it was recorded)."""
    return d.get("kind") == TOURNAMENT_KIND or (
        str(d.get("command", "")).startswith(f"{PROG} tournament") and "design" in d and "bots" in d)


def claim_tournament_folder(out):
    """Claim ``--out`` of a tournament before it plays: new, empty, or an earlier
    tournament's own folder (only its files; run.json says so); then lock it,
    so a second tournament writing there is refused. Returns the held lock."""
    from ..core.fileio import own_output
    from ..runners.runs.folder import claim_locked
    return claim_locked(out, "tournament output", own_output(TOURNAMENT_FILES, "run.json", _tournament_run_json))


def _tournament(args, argv, tournament, bots, rules, game) -> int:
    from ..core.errors import ConfigError
    from ..runners.tournament import format_results
    with warnings.catch_warnings(record=True) as caught:     # said once, in words, below
        warnings.simplefilter("always")
        res = tournament(bots, args.seats, games=args.games, seed=args.seed, rules=rules,
                         workers=args.workers, progress=show_progress(args), design=args.design,
                         game=game, check_bots=not args.fast_bots)
    if res.standings is None:
        failed = next((str(w.message) for w in caught if "analysis failed" in str(w.message)), "")
        raise ConfigError("the tournament was played but its analysis failed" + (f": {failed}" if failed else ""))
    print(format_results(res))
    if args.out:
        from ..core.fileio import Staged
        out = Path(args.out)
        import matplotlib
        matplotlib.use("Agg")
        ax = res.plot_win_rates()
        import shlex
        meta = dict(res.config, kind=TOURNAMENT_KIND, command=shlex.join([PROG] + list(argv)),
                    rules_overrides=rules.overrides, versions=versions())
        with Staged(out) as files:               # all six files or none (a full disk: none)
            for name, df in (("standings", res.standings), ("head_to_head", res.head_to_head),
                             ("ratings", res.ratings), ("significance", res.significance)):
                files.write(f"{name}.csv", lambda f, df=df: df.to_csv(f))
            files.write("win_rates.png", lambda f: ax.figure.savefig(f, dpi=120, format="png"))
            files.write("run.json", lambda f: Path(f).write_text(
                json.dumps(jsonable(meta), indent=2) + "\n", encoding="utf-8"))
            with contextlib.suppress(FileNotFoundError):
                (out / "run.json").unlink()      # an earlier one (ours: claimed) goes first
        print(f"\nwrote {out}/standings.csv, head_to_head.csv, ratings.csv, significance.csv, "
              f"win_rates.png, run.json")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import grammar as G
    parser = G.Parser(
        prog=PROG, description="Monte Carlo strategy analysis of board games (Cargo Noir by "
                               "default; --game NAME plays another registered game).",
        epilog=f"`{PROG} COMMAND --help` for each command's options; docs/cli.md lists them all.")
    from ..core.version import __version__
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}",
                        help="print the version and exit")
    parser.add_argument("--game", dest="global_game", default=None, metavar="NAME",
                        help=G.GAME_HELP + "; also accepted after the COMMAND")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("simulate", help="play many games and summarise or save them",
                       description="Play many games; print win rates; optionally save the tables.")
    G.add(p, "--games", type=int, default=10_000, metavar="N", help="number of games (default 10000)")
    G.players(p, "one bot per seat, comma-separated, seat 0 first (default random,random,random)",
              default="random,random,random")
    G.seed(p)
    G.add(p, "--start", type=int, default=0, metavar="I",
          help="index of the first game, to extend an earlier run (default 0)")
    G.rules(p)
    G.workers(p)
    G.out(p, "the run folder, written chunk by chunk as games finish (per-chunk Parquet, "
             "resumable with --resume; cargo_sim.load_results reads it); memory stays flat")
    G.add(p, "--format", choices=("parquet", "csv"), default="parquet",
          help="table format for --out (default parquet; csv implies --layout files)")
    G.add(p, "--layout", choices=("chunks", "files"), default=None,
          help="--out layout: chunks (a run folder, the default) or files "
               "(games.<fmt>, players.<fmt>, run.json; also streamed, not resumable)")
    G.add(p, "--dask", metavar="ADDRESS",
          help="play on a Dask cluster (scheduler address tcp://host:8786, or 'local' "
               "for a local cluster); with --out or --aggregate")
    G.no_progress(p)
    G.add(p, "--aggregate", action="store_true",
          help="keep only statistics folded in the compiled kernel (flat memory, for very "
               "large runs); with --out DIR writes DIR/aggregates.npz, chunk by chunk")
    G.add(p, "--chunk-games", type=int, default=None, metavar="N",
          help="with --out: games per saved chunk (default 100000); with --dask: per task")
    G.add(p, "--resume", action="store_true",
          help="with --out: continue an interrupted run in DIR (finished chunks are kept)")
    G.fast_bots(p)
    G.game(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("play", help="play one game and print it move by move",
                       description="Play one game and print it move by move with the final scores.")
    G.seed(p, what="the game's seed (a value of the `seed` column of games), or with --index the "
                   "run seed")
    G.add(p, "--index", type=int, default=None, metavar="I",
          help="replay game I of `simulate --seed SEED` (then --seed is the run seed; "
               "formerly --game I, still accepted)")
    G.game(p)
    G.players(p, "one bot per seat, comma-separated (default random,random,random)",
              default="random,random,random")
    G.rules(p)
    G.add(p, "--events", metavar="FILE.csv", help="also write the event log to this new CSV file")
    G.add(p, "--html", metavar="FILE.html",
          help="also write a replay page: one self-contained HTML file that steps "
               "through the game (no server or network needed)")
    G.fast_bots(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("rules", help="show the rules' parameters and where each value comes from",
                       description="Show every rules parameter with its provenance "
                                   "(rulebook, review, estimated, decision, override).")
    G.rules(p)
    G.add(p, "--estimated", action="store_true", help="only the estimated values")
    G.add(p, "--toml", action="store_true",
          help="print the full rules as TOML (a --rules file); with --estimated, only the "
               "estimates, with their ranges and reasons: a sheet to fill in from your box")
    G.game(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bots", help="list the available bots", description="List the bots.")
    G.add(p, "--verbose", action="store_true",
          help="full descriptions and every parameter with its default")
    G.game(p)
    p.set_defaults(func=cmd_bots)

    p = sub.add_parser("tournament", help="seat-fair round robin between bots, with ratings",
                       description="Every deal is played in every seat order (a balanced 20 of "
                                   "120 at 5 seats); prints standings with 95 % intervals "
                                   "clustered by deal, head-to-head, Bradley-Terry ratings and a "
                                   "deal-paired test of the top two.")
    G.players(p, "entrants, comma-separated (e.g. greedy,expert,sniper or 'greedy?bid_margin=2'); "
                 "each plays every seat (required)")
    G.deprecated(p, "--bots", "--players", "players")
    G.deprecated(p, "-b", "--players", "players")
    G.add(p, "--seats", type=int, default=4, metavar="N", help="seats per table (default 4)")
    G.add(p, "--games", type=int, default=12_000, metavar="N",
          help="games in all, split evenly over the seatings and rounded up to whole "
               "deals (default 12000)")
    G.add(p, "--design", choices=("balanced", "all"), default="balanced",
          help="seat orders per deal: balanced = all at 2-4 seats, 20 at 5; all = every "
               "order, 120 at 5 seats (default balanced)")
    G.seed(p, what="tournament seed")
    G.rules(p)
    G.workers(p)
    G.out(p, "standings.csv, head_to_head.csv, ratings.csv, significance.csv, win_rates.png "
             "and run.json (default: print only)")
    G.no_progress(p)
    G.fast_bots(p)
    G.game(p)
    p.set_defaults(func=cmd_tournament)

    for name, (target, options, text) in ELSEWHERE.items():
        p = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        getattr(G, options)(p)
        p.set_defaults(func=_elsewhere(target))
    return parser


def interrupted() -> bool:
    from ..core.interrupt import REQUESTED
    return REQUESTED.is_set()


def _one_line(e: BaseException) -> str:
    msg = str(e) or e.__class__.__name__
    if isinstance(e, OSError) and e.filename is not None and e.strerror:
        msg = f"{e.strerror}: {e.filename}"
    return " ".join(msg.split())


def in_foreign_callback(frame) -> bool:
    """The signal arrived inside a C library's callback into Python (llvmlite's object
    cache while numba compiles): an exception raised there is printed as "Exception
    ignored ..." with a traceback and then lost."""
    return frame is not None and "llvmlite" in frame.f_code.co_filename


def on_sigint(signum, frame, resend=None):
    """Ctrl-C: KeyboardInterrupt, or (inside a C callback, which would swallow it)
    the same signal again 50 ms later, once the callback has returned."""
    from ..core.interrupt import REQUESTED
    REQUESTED.set()
    if in_foreign_callback(frame):
        timer = threading.Timer(0.05, resend or (lambda: os.kill(os.getpid(), signal.SIGINT)))
        timer.daemon = True
        timer.start()
        return
    raise KeyboardInterrupt


def main(argv=None) -> int:
    """Entry point of ``cargo-sim``; returns the exit status (0, 2 on a user error, 130 on Ctrl-C).
    Ctrl-C at any moment, the first imports included, ends with one line, not a traceback."""
    old = None
    try:
        from ..core.interrupt import REQUESTED
        REQUESTED.clear()
        if threading.current_thread() is threading.main_thread():
            old = signal.signal(signal.SIGINT, on_sigint)
        return run(argv)
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)
        from ..core.interrupt import REQUESTED
        REQUESTED.clear()


def merge_game_options(args) -> None:
    """``--game NAME`` before the command (``cargo-sim --game NAME simulate``) or after
    it (``cargo-sim simulate --game NAME``): one game, checked before anything runs;
    both, naming different games, is an error."""
    from ..core.contract import get_game
    from ..core.errors import ConfigError
    own = getattr(args, "game_name", None)
    if args.command == "play" and own is not None and own.strip().lstrip("-").isdigit():
        own = None                       # play's old --game I (an index): play_game_and_index
    if own is not None and args.global_game is not None and own != args.global_game:
        raise ConfigError(f"--game {args.global_game} before the command and --game {own} after "
                          f"it name different games: give one")
    name = own if own is not None else args.global_game
    if name is not None:
        get_game(name)                   # an unknown game: one line listing the known ones
    if hasattr(args, "game_name") and args.command != "play":
        args.game_name = name
    elif args.command == "play" and args.game_name is None:
        args.game_name = name


def missing_folders(out) -> list[Path]:
    """The folders a command creating ``--out`` would create (``out`` and its missing
    parents, deepest first); [] when it exists or is not a path."""
    if not isinstance(out, str) or not out:
        return []
    path, missing = Path(out).absolute(), []
    while not os.path.lexists(path) and path != path.parent:
        missing.append(path)
        path = path.parent
    return missing


def remove_if_empty(folders) -> None:
    """A refused or failed command leaves no folder it created behind: each of
    ``folders`` (deepest first) is removed if it is empty (rmdir never removes files)."""
    for folder in folders:
        try:
            os.rmdir(folder)
        except OSError:
            break


def run(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:                      # usage error (2) or --help/--version (0)
        return e.code if isinstance(e.code, int) else EXIT_USER_ERROR
    return _dispatch_errors(lambda: _run_command(args, argv))


def _run_command(args, argv) -> int:
    created = missing_folders(getattr(args, "out", None))
    try:
        merge_game_options(args)
        rc = args.func(args, argv)
        if rc == 0:                  # after the work: an error stays one line
            note_old_spellings(args)
        else:
            remove_if_empty(created)
        return rc
    except BaseException:
        remove_if_empty(created)
        raise


def _dispatch_errors(run_command):
    """Run ``run_command()`` with the CLI's handling of errors: one line and status 2
    for a user's mistake, 130 for Ctrl-C, one line for an internal fault."""
    from ..core.errors import CargoSimError
    try:
        return run_command()
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:                      # `cargo-sim play | head`: not an error
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CargoSimError, ValueError, OSError) as e:
        if interrupted():        # a C extension's import turns Ctrl-C into an ImportError
            raise KeyboardInterrupt from None
        print(f"{PROG}: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except Exception as e:                       # a fault, not the user's: one line, traceback on request
        if interrupted():        # a C extension's import turns Ctrl-C into an ImportError
            raise KeyboardInterrupt from None
        if os.environ.get("CARGO_SIM_TRACEBACK"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {_one_line(e)} "
              f"(set CARGO_SIM_TRACEBACK=1 to see the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
