"""One grammar for every ``cargo-sim`` command: each option is added through
one function here, so the same option has the same spelling, short flag,
meaning and help everywhere (docs/cli.md, "One grammar", lists them; a test
checks that table against these parsers).

Light on purpose: ``--help`` of any command imports nothing heavy (no numpy,
pandas, scipy or kernels). The defaults of the analyses' commands are written
here and checked against the analyses' own constants by a test.

An option's *meaning* (``MEANINGS``) is stored on its argparse action
(``action.meaning``); old spellings are hidden aliases (``deprecated``) that
still work and leave a one-line note (``note_old_spellings``).
"""
from __future__ import annotations

import argparse
import sys

from ..games import BUILTIN, DEFAULT

PROG = "cargo-sim"
# the games the library ships (the catalogue: names only, no game imported)
GAME_HELP = (f"the game: {', '.join(BUILTIN)} or one registered since (default {DEFAULT})")

# option -> the one thing it means, in every command that has it
MEANINGS = {
    "--players": "bots, comma-separated (`name` or `name?key=value&...`)",
    "--seats": "seats at a table (players per game); a list N1,N2 where the command plays several",
    "--games": "how many games (per what: the command's help)",
    "--seed": "seed of the run (every game's seed derives from it and the game's index)",
    "--start": "index of the first game",
    "--index": "index of one game of a run",
    "--workers": "threads (default: all cores); results do not depend on it",
    "--out": "output folder: new, empty or this command's own earlier output; checked before any game",
    "--no-progress": "no progress lines on stderr (shown by default on a terminal)",
    "--rules": "rules file (TOML) replacing the default rules",
    "--set": "override one rules parameter, NAME=VALUE (repeatable)",
    "--game": GAME_HELP,
    "--fast-bots": "run user bots unchecked (faster; a faulty bot can crash the process or go unnoticed)",
    "--verbose": "more detail",
    "--format": "table file format",
    "--layout": "run folder layout",
    "--dask": "play on a Dask cluster",
    "--aggregate": "keep only counters folded in the compiled kernel",
    "--chunk-games": "games per saved chunk (or Dask task)",
    "--resume": "continue an interrupted run in its --out folder",
    "--events": "also write the event log to a new CSV file",
    "--html": "also write a replay page to an HTML file",
    "--estimated": "only the estimated rules values",
    "--toml": "print the full rules as TOML",
    "--design": "seat orders per deal",
    "--vary": "a rules parameter and the values to compare, PARAM=V1,V2 (repeatable)",
    "--measures": "measures to print",
    "--bot": "one bot (the one to tune)",
    "--opponents": "bots the tuned bot plays against, comma-separated",
    "--evals": "how many parameter sets to evaluate",
    "--games-per-eval": "games per evaluated parameter set",
    "--fresh-games": "games on fresh seeds to measure the finalists again",
    "--method": "search method",
    "--start-bot": "the bot spec a search starts from",
    "--space": "search range of one parameter, PARAM=LO:HI (repeatable)",
    "--generations": "generations of the training search",
    "--popsize": "candidates per generation of the training search",
    "--yardstick": "the yardstick bot spec",
    "--budgets": "search budgets per decision of the yardstick, comma-separated",
    "--budget-param": "the yardstick parameter the budgets set",
    "--prune": "skip a bot at larger budgets once it is beaten",
    "--half-width": "play each cell in rounds until its 95 % interval is this narrow",
    "--max-games": "games per cell at most (with --half-width)",
    "--report-only": "redraw the report from --out, play nothing",
    "--note": "a sentence for the report, recorded in run.json",
    "--seconds": "seconds of simulation (a time budget)",
    "--events-games": "games per player count with an event log",
    "--quick": "a small run for a smoke test",
    "--no-svg": "PNG figures only",
    "--from": "a run folder to report on instead of simulating (repeatable)",
    "--morris-games": "games per Morris screening point",
    "--trajectories": "Morris trajectories (0: no screening)",
    "--param": "one rules parameter to study (repeatable)",
    "--group": "rules parameters studied together as one factor: NAME=PATTERN[,PATTERN...] (repeatable)",
}
SHORT = {"--players": "-p", "--games": "-n", "--seed": "-s", "--workers": "-j", "--out": "-o",
         "--index": "-i", "--verbose": "-v"}

# report / robustness defaults (checked against analyses.report and analyses.robustness
# by tests/core/test_cli_grammar.py)
REPORT_MAX_GAMES = 200_000
REPORT_SECONDS = 100.0
REPORT_EVENTS_GAMES = 2_000
REPORT_QUICK_GAMES = 5_000
ROBUSTNESS_GAMES = 1000
ROBUSTNESS_MORRIS_GAMES = 250
ROBUSTNESS_TRAJECTORIES = 4
ROBUSTNESS_SEED = 1


class Parser(argparse.ArgumentParser):
    """argparse with the CLI's error line: ``cargo-sim: error: ...`` and exit 2,
    whatever the command (argparse's own puts the usage first)."""

    def error(self, message):
        prog = self.prog if self.prog.startswith(PROG) else PROG
        sys.stderr.write(f"{PROG}: error: {message} (see `{prog} --help`)\n")
        sys.exit(2)


def add(p, name: str, *, help: str, short: bool = True, **kw):
    """Add option ``name`` (its short flag when the grammar has one) with ``help``;
    the action carries the option's ``meaning``."""
    flags = [name] + ([SHORT[name]] if short and name in SHORT else [])
    action = p.add_argument(*flags, help=help, **kw)
    action.meaning = MEANINGS[name]
    return action


class Deprecated(argparse.Action):
    """An old spelling: stores like the new option and records a note."""

    def __init__(self, option_strings, dest, new: str = "", store=None, **kw):
        self.new, self.store = new, store
        super().__init__(option_strings, dest, **kw)

    def __call__(self, parser, ns, values, option_string=None):
        value = self.store(values) if self.store else values
        if isinstance(getattr(ns, self.dest, None), list):
            getattr(ns, self.dest).append(value)
        else:
            setattr(ns, self.dest, value)
        notes = getattr(ns, "old_spellings", None) or []
        notes.append(f"{option_string} is now spelled {self.new}")
        ns.old_spellings = notes


def deprecated(p, old: str, new: str, dest: str, nargs=None, store=None):
    """Hidden alias ``old`` of ``new`` (an option users may have in scripts)."""
    action = p.add_argument(old, dest=dest, action=Deprecated, new=new, nargs=nargs,
                            store=store, help=argparse.SUPPRESS)
    action.meaning = MEANINGS.get(new.split()[0], "")
    action.old = new
    return action


def note_old_spellings(args, stream=None) -> None:
    """One note per old spelling used (after the command worked: an error stays one line)."""
    for note in getattr(args, "old_spellings", None) or ():
        print(f"{PROG}: note: {note}", file=stream or sys.stderr)


def show_progress(args) -> bool:
    """Progress lines: on by default on a terminal, off with --no-progress."""
    return not args.no_progress and sys.stderr.isatty()


# ---------------------------------------------------------------------------
# the options every playing command shares
def players(p, help_: str, default=None, required=False, **kw):
    add(p, "--players", help=help_, default=default, required=required, metavar="BOTS", **kw)


def seed(p, default: int = 0, what: str = "run seed"):
    add(p, "--seed", type=int, default=default, metavar="SEED", help=f"{what} (default {default})")


def workers(p):
    add(p, "--workers", type=int, default=None, metavar="K",
        help="threads (default: all cores); results do not depend on it")


def rules(p, sets: bool = True):
    add(p, "--rules", metavar="FILE.toml",
        help="rules file replacing the default rules (same layout as `cargo-sim rules --toml`)")
    if sets:
        add(p, "--set", action="append", default=[], metavar="NAME=VALUE",
            help="override one rules parameter by flat name, e.g. start_coins=8, "
                 "card.Villa.cost=22, turns.4=11, port.Rio.players=[3,4,5] (repeatable)")


def game(p):
    add(p, "--game", dest="game_name", default=None, metavar="NAME",
        help=GAME_HELP)


def out(p, writes: str, default=None):
    add(p, "--out", metavar="DIR", default=default,
        help=f"output folder (new, empty, or this command's own earlier output; checked "
             f"before any game): {writes}")


def fast_bots(p):
    """``--fast-bots`` (user bots unchecked); the old ``--check-bots`` is the default now."""
    add(p, "--fast-bots", action="store_true",
        help="run user bots unchecked, for speed: a bot that indexes out of bounds can crash "
             "the process, one that writes the game state or loops for ever goes unnoticed "
             "(default: user bots are checked; built-in bots never are)")
    deprecated(p, "--check-bots", "the default (--fast-bots turns it off)", "fast_bots", nargs=0,
               store=lambda v: False)


def no_progress(p):
    add(p, "--no-progress", action="store_true",
        help="no progress lines on stderr (they are shown by default on a terminal)")


def seats_list(text: str, option: str = "--seats") -> tuple:
    """``"2,3,4"`` -> (2, 3, 4); anything else is one clear error."""
    from ..core.errors import ConfigError
    try:
        out = tuple(int(x) for x in str(text).split(",") if x.strip())
    except ValueError:
        out = ()
    if not out:
        raise ConfigError(f"{option} takes seat counts such as 2,3,4 (got {text!r})")
    return out


# ---------------------------------------------------------------------------
# the commands defined outside cli.py (their modules import heavy libraries)
def sweep_options(p):
    add(p, "--vary", action="append", default=[], metavar="PARAM=V1,V2",
        help="a rules parameter and the values to compare (repeatable; a..b is an integer "
             "range); the grid is every combination")
    rules(p)
    players(p, "bots, one per seat, comma-separated (default: the game's default table)")
    add(p, "--games", type=int, default=4000, metavar="N", help="games per variant (default 4000)")
    seed(p, what="run seed, the same for every variant")
    workers(p)
    out(p, "sweep.csv and PNG figures (default: print only)")
    add(p, "--measures", default=None, metavar="M1,M2",
        help="comma-separated measures to print (default: all)")
    no_progress(p)
    fast_bots(p)
    deprecated(p, "--quiet", "--no-progress", "no_progress", nargs=0, store=lambda v: True)
    game(p)


def tune_options(p):
    add(p, "--bot", default="greedy", metavar="NAME",
        help="the heuristic bot to tune (default greedy)")
    add(p, "--opponents", default=None, metavar="BOTS",
        help="comma-separated opponent bots (default: the game's named strategies; Cargo Noir "
             "greedy,syndicate,fleet, Macao greedy,builder,shipper)")
    add(p, "--seats", type=int, default=4, metavar="N", help="seats per table (default 4)")
    add(p, "--evals", type=int, default=200, metavar="N",
        help="parameter sets to evaluate (default 200)")
    deprecated(p, "--budget", "--evals", "evals", store=int)
    add(p, "--games-per-eval", type=int, default=800, metavar="N",
        help="games per evaluated parameter set (default 800)")
    add(p, "--fresh-games", type=int, default=8000, metavar="N",
        help="games on fresh seeds to measure the finalists again (default 8000)")
    seed(p, what="search and game seed")
    add(p, "--method", default="de", choices=["de", "random"],
        help="de = differential evolution, random = random search (default de)")
    add(p, "--start-bot", default=None, metavar="SPEC",
        help="the bot spec the search starts from, e.g. greedy?bid_margin=1 (default: the "
             "bot's defaults)")
    deprecated(p, "--start", "--start-bot", "start_bot")
    add(p, "--space", action="append", default=[], metavar="PARAM=LO:HI",
        help="search range of one parameter (repeatable; default: the bot's own ranges)")
    rules(p)
    workers(p)
    out(p, "history.csv (every evaluation), finalists.csv and run.json (default: print only; "
           "an --out FILE.csv, the old form, writes the history to that new file)")
    no_progress(p)
    fast_bots(p)
    game(p)


def train_options(p):
    p.add_argument("target", metavar="TARGET",
                   help="what to train: strong (the game's `strong` bot; the only target)")
    game(p)
    out(p, "strong.toml (copy it into the game's bots/ folder), history.csv and "
           "checkpoint.json (required)")
    p._option_string_actions["--out"].required = True
    seed(p, what="training seed (search, validation and fresh games derive from it)")
    add(p, "--generations", type=int, default=None, metavar="K",
        help="generations of the search (default: the game's training spec)")
    add(p, "--popsize", type=int, default=None, metavar="P",
        help="candidates per generation (default: the game's training spec)")
    add(p, "--games-per-eval", type=int, default=None, metavar="N",
        help="games per candidate, field and player count (default: the game's training spec)")
    workers(p)
    add(p, "--resume", action="store_true",
        help="continue the training checkpointed in --out (finished generations are kept)")
    rules(p)
    no_progress(p)


def ladder_options(p):
    add(p, "--yardstick", default="ismcts", metavar="SPEC",
        help="the yardstick bot spec (default ismcts)")
    add(p, "--budgets", default="100,1000,10000", metavar="B1,B2",
        help="search budgets per decision of the yardstick: values of its budget parameter, "
             "comma-separated (default 100,1000,10000)")
    add(p, "--budget-param", default=None, metavar="NAME",
        help="the yardstick parameter the budgets set (default: iterations, else rollouts)")
    add(p, "--seats", default="2,4", metavar="N1,N2",
        help="seat counts, comma-separated (default 2,4)")
    players(p, "bots to place, comma-separated (default: every built-in but the yardstick "
               "and the search bots)")
    deprecated(p, "--bots", "--players", "players")
    add(p, "--games", type=int, default=48, metavar="N",
        help="games per cell, rounded up to whole deals; with --half-width the games of "
             "each round, the least a cell plays (default 48)")
    add(p, "--half-width", type=float, default=None, metavar="H",
        help="sequential design: play each cell in rounds of --games games until the "
             "bot's 95%% interval has half-width at most H, e.g. 0.08 (default: one round)")
    add(p, "--max-games", type=int, default=None, metavar="N",
        help="with --half-width: games per cell at most (default 10 x --games)")
    seed(p)
    add(p, "--prune", type=float, default=None, metavar="F",
        help="skip a bot at larger budgets once its win rate is at most F x its fair share "
             "(1/seats), e.g. 0.1 (default: play every cell)")
    rules(p)
    workers(p)
    out(p, "index.md, ladder.png, cells.csv, rates.csv, run.json; a rerun with the same "
           "settings skips finished cells (default: print only)")
    add(p, "--note", default=None, metavar="TEXT",
        help="a sentence for the report (index.md), recorded in run.json, e.g. why a "
             "budget is left out (default: none)")
    add(p, "--report-only", action="store_true",
        help="redraw index.md and ladder.png from the results in --out, play nothing")
    no_progress(p)
    fast_bots(p)
    game(p)


def report_options(p):
    out(p, "index.md, index.html, figures/, tables/ (required)")
    p._option_string_actions["--out"].required = True
    add(p, "--games", default=None, metavar="N",
        help=f"games per player count: N, or per count 2=N2,3=N3,... (default: as many as fit "
             f"in --seconds, at most {REPORT_MAX_GAMES:,}; --quick {REPORT_QUICK_GAMES:,})")
    add(p, "--seconds", type=float, default=REPORT_SECONDS, metavar="S",
        help=f"seconds of simulation for all counts when --games is not given (default "
             f"{REPORT_SECONDS:g}; compiling comes on top)")
    deprecated(p, "--budget", "--seconds", "seconds", store=float)
    add(p, "--events-games", type=int, default=None, metavar="N",
        help=f"games per player count with an event log (default {REPORT_EVENTS_GAMES:,})")
    players(p, "bots of one table, comma-separated, optionally prefixed by their count: "
               "4=random,random,random,random (repeatable; other counts use the default mix)",
            default=[], action="append")
    add(p, "--seats", default=None, metavar="N1,N2",
        help="player counts to simulate, e.g. 2,3,4,5 (default: 2-5, or the --players counts)")
    deprecated(p, "--counts", "--seats", "seats")
    seed(p)
    rules(p)
    workers(p)
    add(p, "--quick", action="store_true",
        help=f"a small run for a smoke test ({REPORT_QUICK_GAMES:,} games per count)")
    add(p, "--no-svg", action="store_true", help="write PNG figures only")
    add(p, "--from", dest="from_runs", action="append", default=[], metavar="RUN_FOLDER",
        help="report on the games of a run folder (cargo-sim simulate --out) instead of "
             "simulating; repeatable, one game and rules for all (no event log: the "
             "event-based tables are left out)")
    no_progress(p)
    deprecated(p, "--progress", "the default (--no-progress turns it off)", "no_progress",
               nargs=0, store=lambda v: False)
    game(p)


def robustness_options(p):
    out(p, "index.md, figures and tables (default: the folder of the game's committed report)")
    add(p, "--games", type=int, default=ROBUSTNESS_GAMES, metavar="N",
        help=f"games per table and variant in the sweeps (default {ROBUSTNESS_GAMES})")
    add(p, "--morris-games", type=int, default=ROBUSTNESS_MORRIS_GAMES, metavar="N",
        help=f"games per Morris screening point (default {ROBUSTNESS_MORRIS_GAMES})")
    add(p, "--trajectories", type=int, default=ROBUSTNESS_TRAJECTORIES, metavar="N",
        help=f"Morris trajectories (0: no screening, else at least 2; default {ROBUSTNESS_TRAJECTORIES})")
    add(p, "--seats", default=None, metavar="N1,N2",
        help="player counts, comma-separated (default: those of 2,3,4,5 the game's rules allow)")
    deprecated(p, "--players", "--seats", "seats")
    add(p, "--param", action="append", default=None, metavar="NAME",
        help="only this rules parameter, or a factor the game names such as Cargo Empire's map "
             "(repeatable; default: every parameter with a range and every factor)")
    add(p, "--group", action="append", default=None, metavar="NAME=PATTERN[,PATTERN]",
        help="move the parameters matching these shell-style patterns (e.g. card_costs=card.*.cost) "
             "together as one factor named NAME (repeatable; without --param, every other "
             "parameter with a range is studied alone too)")
    seed(p, default=ROBUSTNESS_SEED)
    rules(p)
    workers(p)
    no_progress(p)
    game(p)


def standalone(name: str, options, command, argv=None) -> int:
    """``python -m <module>`` / ``<module>.main(argv)``: the command's own parser
    (the same options as ``cargo-sim NAME``), then the command; errors propagate."""
    p = Parser(prog=f"{PROG} {name}", description=(command.__doc__ or "").strip().split("\n\n")[0])
    options(p)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = p.parse_args(argv)
    rc = command(args, [name] + argv)
    note_old_spellings(args)
    return rc
