"""Build the analysis report: simulate (or take results), run every pipeline,
save the figures and write ``index.md`` and ``index.html``.

    cargo-sim report --out reports/demo
    cargo-sim report --out reports/q --quick
    cargo-sim report --out reports/mix --players 4=random,random,random,random --games 50000

(``cargo-sim report`` is cargo_sim.cli_analyses.report_command; ``build_report`` here.)

Every file is written atomically (temp file + os.replace); the two index files
are written last, so their presence means the report is complete.
"""
from __future__ import annotations

import contextlib
import inspect
import json
import math
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from cargo_sim.core.columns import narrow
from cargo_sim.core.errors import CargoSimError, ConfigError
from cargo_sim.core.fileio import atomic_write_text
from cargo_sim.core.provenance import rules_census_line
from cargo_sim.runners.runs.folder import LOCK, RunLock, lock_only

from cargo_sim.core.contract import get_game

from . import explain, plots
from .games import DEFAULT_GAME, pipelines, report_parts, report_sections
from .markdown import markdown_table, slug, to_html  # noqa: F401 (markdown_table, to_html: public here too)
from .present import TOO_SMALL, readable, title as table_title
from .stats import MIN_N
from .data import Tables, combine

DEFAULT_GAMES = 200_000          # per player count, at most (random bots: ~35,000 4-player games/s on 2 cores)
DEFAULT_BUDGET = 100.0           # seconds of simulation for all player counts when --games is not given
MIN_AUTO_GAMES = 5_000
PILOT_GAMES = 2_000
DEFAULT_EVENTS_GAMES = 2_000     # per player count, games whose event log is kept
QUICK_GAMES = 5_000
QUICK_EVENTS_GAMES = 500
PLAYER_COUNTS = (2, 3, 4, 5)
ROW_LEVEL = {"episodes", "trades"}   # per-row tables: used for figures, not written as CSV


# ---------------------------------------------------------------------------
# simulation
def default_players(n: int, game=DEFAULT_GAME) -> list[str]:
    """The default bot mix for n seats (the game's ``bots.default_players``)."""
    return get_game(game).bots.default_players(n)


def _downcast_events(ev: pd.DataFrame) -> pd.DataFrame:
    for c in ev.columns:
        if c in ("bot", "loc", "card"):
            ev[c] = ev[c].astype("category")
    return narrow(ev)


class CountRun:
    """The games of one player count, simulated in parts: first the
    ``events_games`` games with their event log, then more games without
    (``extend``); game i is the same game whatever the parts (ids 0..n-1)."""

    def __init__(self, players, seed: int, rules, events_games: int, workers=None,
                 progress: bool = False, game=DEFAULT_GAME):
        from cargo_sim import simulate
        self.players, self.seed, self.rules = list(players), seed, rules
        self.workers, self.progress, self.game = workers, progress, game
        self.seconds = 0.0
        t = time.perf_counter()
        first = simulate(events_games, self.players, seed=seed, rules=rules, workers=workers,
                         progress=progress, events=True, game=game)
        self.seconds += time.perf_counter() - t
        self.events = _downcast_events(first.events) if first.events is not None else None
        self.config = dict(first.config)
        self.rules = first.rules
        self.games, self.player_parts = [first.games], [first.players]
        self.events_games = self.done = events_games
        self.rate = None          # games/s of the last extension (no events)

    def extend(self, count: int) -> None:
        from cargo_sim import simulate
        if count <= 0:
            return
        t = time.perf_counter()
        r = simulate(count, self.players, seed=self.seed, rules=self.rules, workers=self.workers,
                     progress=self.progress, start=self.done, game=self.game)
        dt = time.perf_counter() - t
        self.seconds += dt
        self.rate = count / max(dt, 1e-6)
        self.games.append(r.games)
        self.player_parts.append(r.players)
        self.done += count

    def tables(self) -> Tables:
        cfg = dict(self.config, n_games=int(self.done), events_games=self.events_games,
                   seconds=self.seconds)
        return Tables(pd.concat(self.games, ignore_index=True),
                      pd.concat(self.player_parts, ignore_index=True),
                      self.events, self.rules, cfg, self.events_games)


LAST_WARMUP_SECONDS = 0.0


def simulate_counts(player_lists: dict, n_games, seed: int, rules, events_games: int, workers=None,
                    progress: bool = False, time_budget: float = DEFAULT_BUDGET,
                    max_games: int = DEFAULT_GAMES, min_games: int = MIN_AUTO_GAMES,
                    pilot_games: int = PILOT_GAMES, game=DEFAULT_GAME) -> list[Tables]:
    """Simulate every player count of ``player_lists`` ({count: bots}).

    ``n_games``: games per count (int or {count: int}); a count given None
    gets the same automatic number N as every other such count: after its
    event games and a pilot of ``pilot_games`` games (which measures games/s
    without events), N is the largest multiple of 1,000 such that finishing
    every automatic count to N fits in what is left of ``time_budget``
    seconds (counted from the start of this call), clipped to
    [``min_games``, ``max_games``]. Equal N keeps the CIs of the counts
    comparable. The report gives the resulting numbers (--games 2=N,...).
    The budget clock starts after a one-game warm-up of every table, so numba
    compilation (minutes when the on-disk cache is cold) is not counted. ``game``: a
    registered game's name."""
    from cargo_sim import simulate
    global LAST_WARMUP_SECONDS
    tw = time.perf_counter()
    for bots in player_lists.values():
        simulate(1, list(bots), seed=seed, rules=rules, workers=1, progress=False, events=True,
                 game=game)
    LAST_WARMUP_SECONDS = time.perf_counter() - tw
    t0 = time.perf_counter()
    want = {n: (n_games.get(n) if isinstance(n_games, dict) else n_games) for n in player_lists}
    runs = {}
    for n, bots in player_lists.items():
        cap = want[n] if want[n] is not None else max_games
        runs[n] = CountRun(bots, seed, rules, min(events_games, cap), workers, progress, game)
        if want[n] is None:
            runs[n].extend(min(pilot_games, cap - runs[n].done))
        else:
            runs[n].extend(want[n] - runs[n].done)
    auto = [n for n in player_lists if want[n] is None]
    if auto:
        left = time_budget - (time.perf_counter() - t0)
        rates = {n: runs[n].rate or float("inf") for n in auto}
        inv = sum(1.0 / rates[n] for n in auto)
        already = sum(runs[n].done / rates[n] for n in auto)
        target = (max(left, 0.0) + already) / inv if inv > 0 else max_games
        target = int(min(max(target, min_games), max_games)) // 1000 * 1000
        for n in auto:
            runs[n].extend(target - runs[n].done)
    return [runs[n].tables() for n in player_lists]


def parse_games_arg(text: str):
    """``"5000"`` -> 5000; ``"2=5000,3=4000"`` -> {2: 5000, 3: 4000}."""
    try:
        if "=" not in text:
            return int(text.replace("_", ""))
        out = {}
        for part in text.split(","):
            n, _, g = part.partition("=")
            out[int(n)] = int(g.replace("_", ""))
        return out
    except ValueError:
        raise ConfigError(f"bad --games {text!r}: give a number of games "
                          "or per player count 2=N,3=N") from None


def parse_players_arg(items) -> dict[int, list[str]]:
    """``["4=random,random,random,random", "random,random"]`` -> {4: [...], 2: [...]}."""
    out = {}
    for item in items or ():
        count, eq, rest = item.partition("=")
        text = rest if eq and count.strip().isdigit() else item
        seats = [s.strip() for s in text.split(",")]
        if not text.strip() or any(not s for s in seats):
            raise ConfigError(f"bad --players {item!r}: give bots "
                              "separated by commas, optionally prefixed by the player count (4=a,b,c,d)")
        if eq and count.strip().isdigit() and int(count) != len(seats):
            raise ConfigError(f"--players {item!r} names {len(seats)} "
                              f"bots for {count} players")
        out[len(seats)] = seats
    return out


# ---------------------------------------------------------------------------
# the report
def run_pipelines(t: Tables, seed: int = 0, game=DEFAULT_GAME) -> dict[str, pd.DataFrame]:
    """Every table of the game's result pipelines (its ``Game.analyses`` that read results,
    in order; ``seed`` goes to those that sample)."""
    out = {}
    for mod in pipelines(get_game(game), "results"):
        kw = {"seed": seed} if "seed" in inspect.signature(mod.run_all).parameters else {}
        out.update(mod.run_all(t, **kw))
    return out


def results_from_runs(folders) -> list:
    """The results of run folders (``cargo-sim simulate --out``) for one report: one game,
    one rules digest, the same bots in the seats of one player count, every run finished;
    anything else is a ConfigError naming the folder."""
    import warnings
    from cargo_sim import load_results
    out, first = [], None
    for folder in folders:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # an unfinished run is refused below, not warned of
            r = load_results(folder)
        cfg = r.config
        if not cfg.get("complete", True):
            raise ConfigError(f"run folder {folder} is not finished ({cfg.get('chunks_done')} of "
                              f"{cfg.get('n_chunks')} chunks); finish it with cargo-sim simulate "
                              f"--resume --out {folder}")
        bots = list(cfg.get("players") or [])
        key = (cfg.get("game"), r.rules.digest)
        if first is None:
            first = (folder, key, {len(bots): bots})
        elif key != first[1]:
            raise ConfigError(f"run folders {first[0]} and {folder} differ in game or rules "
                              f"({first[1][0]} {first[1][1]} vs {key[0]} {key[1]}); one report "
                              "describes one game under one set of rules")
        elif first[2].setdefault(len(bots), bots) != bots:
            raise ConfigError(f"run folder {folder} seats {','.join(bots)} at {len(bots)} players "
                              f"where another folder seats {','.join(first[2][len(bots)])}; one "
                              "report has one line-up per player count")
        out.append(r)
    if not out:
        raise ConfigError("--from needs at least one run folder")
    return out


def _render_figures(tables, fig_dir: Path, formats, figures) -> tuple[dict, list[str]]:
    made, problems = {}, []
    for name, (fn, source, caption) in figures.items():
        df = tables.get(source)
        if df is None or len(df) == 0:
            continue
        try:
            fig = fn(df)
            plots.save_figure(fig, fig_dir / name, formats)
            made[name] = caption
        except Exception as e:       # a figure must not sink the report
            problems.append(f"figure {name}: {type(e).__name__}: {e}")
    return made, problems


def source_state(game: str = DEFAULT_GAME) -> str:
    """The git commit of the working tree and whether the game's package
    cargo_sim/games/<game>/ (the engine, rules and bots: what results depend on) has
    uncommitted changes; '' outside git. Read-only: ``git status`` takes no optional
    lock (it would hold the checkout's index.lock while it refreshes the index)."""
    import subprocess
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "--no-optional-locks", "status", "--porcelain", "--",
                                f"cargo_sim/games/{game}"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    if not head:
        return ""
    return f"git {head}" + (f" + uncommitted changes in cargo_sim/games/{game}/" if dirty else "")


def _rules_table(rules) -> pd.DataFrame:
    prov = rules.provenance.copy()
    prov["value"] = prov["value"].map(lambda v: ", ".join(map(str, v)) if isinstance(v, list) else v)
    prov.insert(2, "flag", np.where(prov["status"] == "estimated", "ESTIMATED",
                                    np.where(prov["status"] == "override", "OVERRIDE",
                                             np.where(prov["status"] == "user", "USER", ""))))
    return prov


def allowed_counts(rules, counts=PLAYER_COUNTS) -> tuple:
    """The player counts of ``counts`` the game's rules allow (``check_players``)."""
    out = []
    for n in counts:
        try:
            rules.check_players(n)
        except CargoSimError:            # the rules' RulesError
            continue
        out.append(n)
    return tuple(out)


def build_report(out_dir, results=None, n_games=None, player_counts=None,
                 players=None, seed: int = 0, rules=None, command=None,
                 events_games: int = DEFAULT_EVENTS_GAMES, workers=None, formats=("png", "svg"),
                 progress: bool = False, time_budget: float = DEFAULT_BUDGET,
                 max_games: int = DEFAULT_GAMES, game=DEFAULT_GAME, sources=()) -> Path:
    """Simulate (or take ``results``), run every pipeline, save the figures and
    write ``index.md``/``index.html`` in ``out_dir``; returns the index.md path.

    ``results``: a SimResults, a list of them (one per player count) or a
    Tables; then nothing is simulated. ``players``: {count: [bots]} (or one
    list of bots); missing counts get ``default_players``. Events are recorded
    for the first ``events_games`` games of each count only.

    ``n_games``: games per player count (an int, or {count: games}); None =
    as many as fit in ``time_budget`` seconds of simulation in all, the same
    number for every count (see ``simulate_counts``), at most ``max_games``. The report gives the command that reproduces
    the run exactly (explicit games per count).

    ``player_counts``: None = those of PLAYER_COUNTS the game's rules allow.
    ``game``: a registered game's name; its sections are those its ``Game.report_sections``
    names and its tables those of its result pipelines (``Game.analyses``); a game naming
    no sections is a ConfigError before any game is played. ``sources``: the run folders
    ``results`` were read from (``cargo-sim report --from``), named in the report."""
    import cargo_sim
    game = get_game(game)
    sections = report_sections(game)
    parts = report_parts(game)
    if isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) \
            or not 0 < time_budget < math.inf:
        raise cargo_sim.ConfigError(f"the time budget must be a number of seconds > 0, got {time_budget!r}")
    t0 = time.time()
    out = Path(out_dir)
    fig_dir, tab_dir = out / "figures", out / "tables"
    out.mkdir(parents=True, exist_ok=True)
    lock = RunLock(out).acquire()          # one writer of the folder at a time
    try:
        fig_dir.mkdir(exist_ok=True)
        tab_dir.mkdir(exist_ok=True)
        # index files go first so a half-built report is not mistaken for a complete one
        for name in ("index.md", "index.html"):
            with contextlib.suppress(FileNotFoundError):
                (out / name).unlink()
        if rules is None:
            rules = game.Rules.default()
        if player_counts is None:
            player_counts = allowed_counts(rules)
        if isinstance(players, (list, tuple)):
            players = {len(players): list(players)}
        players = dict(players or {})
        seat_lists = {}
        if results is None:
            for n in player_counts:
                seat_lists[n] = players.get(n) or default_players(n, game.name)
            runs = simulate_counts(seat_lists, n_games, seed, rules, events_games, workers, progress,
                                   time_budget, max_games, game=game.name)
            t = combine(runs, events_games)
            simulated = True
        else:
            if isinstance(results, Tables):
                t = results
            elif isinstance(results, (list, tuple)):
                t = combine(results)
            else:
                t = combine([results])
            rules = t.rules or rules
            t.rules = rules
            for n, d in t.players.groupby("n_players"):
                seat_lists[int(n)] = list(d.drop_duplicates("seat").sort_values("seat")["bot"].astype(str))
            simulated = False
        t_sim = time.time() - t0
        tables = run_pipelines(t, seed, game.name)
        made, problems = _render_figures(tables, fig_dir, formats, parts["FIGURES"])
        for name, df in tables.items():
            if name in ROW_LEVEL or df is None or len(df) == 0:
                continue
            atomic_write_text(tab_dir / f"{name}.csv", df.to_csv(index=False))
        elapsed = time.time() - t0

        games_per = t.games.groupby("n_players").size()
        ev_per = t.events.groupby("n_players")["game"].nunique() if t.has_events else pd.Series(dtype=int)
        if command is None:
            command = "cargo-sim report " + " ".join(shlex.quote(a) for a in sys.argv[1:]) \
                if simulated else "(results passed to build_report)"
        exact = None
        if simulated:
            exact = ("cargo-sim report --out OUT --seed " + str(seed)
                     + " --games " + ",".join(f"{int(n)}={int(c)}" for n, c in games_per.items())
                     + f" --events-games {events_games}"
                     + "".join(f" --players {n}={','.join(seat_lists[n])}" for n in sorted(seat_lists))
                     + (f" --game {game.name}" if game.name != DEFAULT_GAME else "")
                     + "".join(" --set " + shlex.quote(f"{k}={json.dumps(v)}")      # TOML-readable
                               for k, v in rules.overrides.items()))
        if sources:
            exact = (f"cargo-sim report --out OUT --seed {seed}" + "".join(f" --from {shlex.quote(str(f))}"
                                                                           for f in sources))
        est = rules.estimated
        meta = [
            ("command", f"`{command}`"),
            ("seed", str(seed) if simulated else ", ".join(str(c.get("seed")) for c in t.config.get("runs", []))),
            ("reproduce exactly", f"`{exact}`" if exact else "n/a"),
            ("cargo_sim version", cargo_sim.__version__ + (f" ({state})" if (state := source_state(game.name)) else "")),
            ("rules", f"{rules!r}, digest `{rules.digest}`"),
            ("estimated rules values", f"{rules_census_line(rules)} The {len(est)} ESTIMATED are "
                                       "flagged in the rules table below"),
            *([("run folders", "; ".join(f"`{f}`" for f in sources)
                + " (their games are read, nothing is simulated; each folder's run.json gives "
                  "the command that made it)")] if sources else []),
            ("games", ", ".join(f"{int(n)} players: {int(c):,}" for n, c in games_per.items())),
            ("games with events", ", ".join(f"{int(n)} players: {int(c):,}" for n, c in ev_per.items())
             or "none (event-based tables are omitted)"),
            ("run time", f"{elapsed:.1f} s (simulation {t_sim:.1f} s, of which compilation/warm-up "
                         f"{LAST_WARMUP_SECONDS:.1f} s)" if simulated else f"{elapsed:.1f} s (nothing simulated)"),
        ]
        players_df = pd.DataFrame([{"n_players": n, **{f"seat {s}": b for s, b in enumerate(seats)}}
                                   for n, seats in sorted(seat_lists.items())])
        notes = [
            "Every table states its sample size `n` (the unit is in its caption) and a 95% interval: "
            "Wilson for proportions, Student t for means, percentile bootstrap for medians "
            "(formulas in `analyses/stats.py`). An interval from fewer than "
            f"{MIN_N} observations is not shown (\"{TOO_SMALL}\"), nor drawn in the figures.",
            *parts["notes"](int(ev_per.max()) if len(ev_per) else None)]
        if problems:
            notes.append("Problems while building: " + "; ".join(problems))

        from .robustness_marks import mark_highlights
        heads, robust_link = mark_highlights(parts["highlights"](tables), rules, out, parts["ROBUSTNESS_MARKS"])
        if robust_link:
            meta.append(("robustness of the highlights to the rules' unknowns", robust_link))
        basis = ({int(n): int(c) for n, c in games_per.items()}, {int(n): int(c) for n, c in ev_per.items()})
        md, ht = _render(meta, players_df, notes, tables, made, rules, heads, sections, game.title, basis,
                         parts)
        atomic_write_text(out / "index.html", ht)
        return atomic_write_text(out / "index.md", md)
    finally:
        lock.release()


def _render(meta, players_df, notes, tables, made, rules, heads, sections, title, basis, parts):
    """index.md, and index.html rendered from it by Python-Markdown (tables,
    heading anchors) inside a page of its own style."""
    md = [f"# {title} simulation report", ""]
    md += ["## Run", ""] + [f"- **{k}**: {v}" for k, v in meta] + [""]
    md += ["### Players", "", markdown_table(readable(players_df)), "### Notes", ""] + \
        [f"- {n}" for n in notes] + [""]
    toc = ["Run"] + (["Highlights"] if heads else []) + [t for t, *_ in sections] + ["Rules"]
    md += ["## Contents", ""] + [f"- [{t}](#{slug(t)})" for t in toc] + [""]
    if heads:
        md += ["## Highlights", ""] + [f"- {h}" for h in heads] + [""]
    for heading, intro, tabs, figs in sections:
        md += [f"## {heading}", "", intro, ""]
        for name, cols, caption in tabs:
            df = tables.get(name)
            if df is None:
                continue
            note = explain.table_note(name, df) or parts["table_note"](name, df)
            if cols is not None:
                df = df[[c for c in cols if c in df.columns]]
            md += [f"### {table_title(name)}", "", caption + (f" {note}" if note else ""), "",
                   markdown_table(readable(df, name)), ""]
        for f in figs:
            if f in made:
                shown = tables.get(parts["FIGURES"][f][1])
                note = " ".join(x for x in (
                    explain.figure_basis(f, *basis, parts["EVENT_FIGURES"]),
                    explain.figure_note(f, shown) or parts["figure_note"](f, shown)) if x)
                md += [f"![{made[f]}](figures/{f}.png)", "",
                       f"*{made[f]}*" + (f" {note}" if note else ""), ""]
    rt = _rules_table(rules)
    md += ["## Rules", "", f"Digest `{rules.digest}`. Rows flagged ESTIMATED are estimates, not printed values.",
           "", markdown_table(rt)]
    text = "\n".join(md) + "\n"
    return text, to_html(text, f"{title} simulation report")


# ---------------------------------------------------------------------------
REPORT_NAMES = ("index.md", "index.html", "figures", "tables")


def claim_report_folder(out) -> Path:
    """``--out`` of a report: new, empty, or an earlier report (index.md and
    only the report's files and folders), checked before any game."""
    from cargo_sim.core.fileio import claim_folder

    def own(folder: Path) -> bool:
        names = {p.name for p in folder.iterdir()}
        return lock_only(folder) or "index.md" in names and all(
            n in REPORT_NAMES or n == LOCK or (n.startswith(".") and n.endswith(".tmp")) for n in names)
    return claim_folder(out, "report", own)[0]


def __getattr__(name):
    # the default game's report parts under their old names here (SECTIONS, FIGURES,
    # EVENT_FIGURES, notes, highlights, ROBUSTNESS_MARKS), found through its Game object
    if name == "SECTIONS":
        return report_sections(get_game(DEFAULT_GAME))
    if name in ("FIGURES", "EVENT_FIGURES", "notes", "highlights", "ROBUSTNESS_MARKS", "table_note",
                "figure_note"):
        return report_parts(get_game(DEFAULT_GAME))[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
