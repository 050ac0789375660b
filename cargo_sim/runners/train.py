"""Train a game's `strong` bot: its heuristic family's parameters searched against
the fields the game declares (``REGISTRY.train``, a ``core.strong.TrainSpec``).

``train(game, out, seed=..., generations=..., popsize=..., workers=..., resume=...)``
writes ``out/strong.toml`` (the file a maintainer copies into the game's package),
``out/history.csv`` (every candidate) and ``out/checkpoint.json``.

Search
------
A small cross-entropy method over the normalised space (each searched parameter
mapped to [0, 1]), started at the family's parameters: generation g draws
``popsize - 1`` candidates around the current mean (per-parameter spread sigma)
plus the mean itself, with random numbers from ``SeedSequence([seed, g])`` only;
the better half (log-rank weights) gives the next mean and sigma. Values are
rounded to 2 decimals (a spec string replays exactly). A run resumed after any
generation is therefore the uninterrupted run, and no draw depends on ``workers``.

Score
-----
One candidate plays ``games_per_eval`` games against every field at every player
count of the spec (``runners/tune.py``'s ``evaluate``: seat rotation, shared wins
split); all candidates of a generation play the same deals (common random numbers:
the generation's seed, derived from tune's *search* stream). The score is the mean
win rate over a count's fields, averaged over the counts with the spec's weights.

Choice and measurement
----------------------
The best distinct candidates of the search (the winner's curse makes their scores
optimistic), the final mean and the start point are re-played on the *validation*
stream; the best is chosen, then measured with the start point on the *fresh*
stream against each field (Wilson intervals): those are the numbers in
strong.toml's provenance. Ctrl-C keeps the finished generations (``resume=True``
continues them).
"""
from __future__ import annotations

import datetime
import hashlib
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.bots import param_value
from ..core.checks import check_number, check_seed
from ..core.contract import get_game
from ..core.errors import ConfigError
from ..core.fileio import MB, Staged, atomic_write_text, own_output, read_json
from ..core.strong import STRONG_NAME, StrongData, parse_strong
from ..core.version import __version__
from .runs.folder import LOCK, claim_locked
from .tune import bot_spec, evaluate, stream_seed

__all__ = ["TRAIN_FILES", "TRAIN_KIND", "TrainResults", "train"]

TRAIN_KIND = "cargo_sim.train/1"
CHECKPOINT = "checkpoint.json"
TRAIN_FILES = (CHECKPOINT, "history.csv", "strong.toml")
MARKER = "# written by cargo-sim train strong"
SIGMA0, SIGMA_MIN, SIGMA_MAX = 0.15, 0.02, 0.3     # spread in the normalised space


@dataclass
class TrainResults:
    """``strong``: the chosen parameters with their provenance (as written to
    ``path``); ``history``: one row per evaluated candidate; ``finalists``: the
    validation re-play; ``measured``: fresh-stream rows per (player count, field)."""
    strong: StrongData
    path: Path
    history: pd.DataFrame
    finalists: pd.DataFrame
    measured: pd.DataFrame

    def __repr__(self) -> str:
        return f"TrainResults({self.path}: {len(self.history)} candidates)"


def _say(progress, line: str) -> None:
    if callable(progress):
        progress(line)
    elif progress:
        print(line, file=sys.stderr, flush=True)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


def _derived_seed(base: int, g: int) -> int:
    st = np.random.SeedSequence([int(base), int(g)]).generate_state(2, np.uint32)
    return (int(st[0]) << 31) | (int(st[1]) >> 1)


class Plan:
    """The checked training problem: family, space, fields, sizes, rules."""

    def __init__(self, game, spec, rules, seed, popsize, games_per_eval):
        self.game, self.spec, self.rules, self.seed = game, spec, rules, seed
        bots = game.bots
        family = bots.get(spec.family)
        if family.search or not family.params:
            raise ConfigError(f"train: family {spec.family!r} is not a heuristic bot with parameters")
        self.family = spec.family
        self.base = dict(family.params)
        self.names = list(spec.space)
        self.lo, self.hi = [], []
        for k in self.names:
            if k not in self.base:
                raise ConfigError(f"train: {spec.family!r} has no parameter {k!r}")
            lo, hi = (param_value(spec.family, k, b) for b in spec.space[k])
            if not lo < hi:
                raise ConfigError(f"train: space[{k!r}] low must be below high, got {spec.space[k]!r}")
            self.lo.append(lo)
            self.hi.append(hi)
        self.lo, self.hi = np.array(self.lo), np.array(self.hi)
        if not spec.fields:
            raise ConfigError("train: the spec has no fields")
        self.fields = []                      # (n_players, field index, opponents)
        for n in sorted(spec.fields):
            rules.check_players(n)
            for i, f in enumerate(spec.fields[n]):
                f = [f] if isinstance(f, str) else list(f)
                if not f:
                    raise ConfigError(f"train: an empty field at {n} players")
                for q in f:
                    bots.parse(q)
                self.fields.append((n, i, f))
        self.counts = sorted(spec.fields)
        self.popsize = check_number("popsize", popsize, 2)
        self.games = check_number("games_per_eval", games_per_eval, 1)

    def identity(self) -> dict:
        """What a checkpoint must match to be continued."""
        return {"kind": TRAIN_KIND, "game": self.game.name, "seed": self.seed,
                "spec": self.spec.describe(), "popsize": self.popsize,
                "games_per_eval": self.games, "rules_digest": self.rules.digest}

    def start_x(self) -> np.ndarray:
        x = (np.array([self.base[k] for k in self.names]) - self.lo) / (self.hi - self.lo)
        return self.snap(np.clip(x, 0.0, 1.0))

    def values(self, x) -> dict:
        """Normalised point -> the searched values (rounded to 2 decimals)."""
        v = self.lo + np.clip(x, 0.0, 1.0) * (self.hi - self.lo)
        return {k: round(float(a), 2) + 0.0 for k, a in zip(self.names, v)}

    def snap(self, x) -> np.ndarray:
        """The normalised point of the rounded values (what was really played)."""
        v = np.array(list(self.values(x).values()))
        return (v - self.lo) / (self.hi - self.lo)

    def bot(self, values: dict) -> str:
        return bot_spec(self.family, {**self.base, **values}, self.game)

    def score(self, bot: str, games: int, stream_seed_: int, workers) -> tuple[float, dict, int]:
        """(weighted score, {column: win rate}, games played) of one bot spec."""
        rates, played = {}, 0
        per_count = {n: [] for n in self.counts}
        for n, i, field in self.fields:
            r = evaluate(bot, field, n, games, stream_seed_, self.rules, workers, self.game)
            rates[f"p{n}_f{i}"] = r["win_rate"]
            per_count[n].append(r["win_rate"])
            played += r["n"]
        w = {n: self.spec.weight(n) for n in self.counts}
        total = sum(w.values()) or 1.0
        score = sum(w[n] * float(np.mean(per_count[n])) for n in self.counts) / total
        return score, rates, played


def _next_state(mean, sigma, xs, scores, popsize):
    """The cross-entropy update from one generation (deterministic; ties by draw order)."""
    order = sorted(range(len(xs)), key=lambda j: (-scores[j], j))
    mu = max(2, popsize // 2)
    elite = np.array([xs[j] for j in order[:mu]])
    w = np.log(mu + 0.5) - np.log(np.arange(1, mu + 1))
    w /= w.sum()
    new_mean = w @ elite
    spread = np.sqrt(w @ (elite - mean) ** 2)
    new_sigma = np.clip(0.5 * sigma + 0.5 * spread, SIGMA_MIN, SIGMA_MAX)
    return np.clip(new_mean, 0.0, 1.0), new_sigma


def _checkpoint_of(folder: Path):
    path = folder / CHECKPOINT
    if not path.exists():
        return None
    d = read_json(path, 64 * MB, "training checkpoint")
    if not isinstance(d, dict) or d.get("kind") != TRAIN_KIND:
        raise ConfigError(f"{path} is not a training checkpoint")
    return d


def _ours(d: dict) -> bool:
    return d.get("kind") == TRAIN_KIND


def canonical_command(game, seed, generations, popsize, games_per_eval, rules_file=None) -> str:
    parts = ["cargo-sim", "train", STRONG_NAME, "--game", game, "--seed", str(seed),
             "--generations", str(generations), "--popsize", str(popsize),
             "--games-per-eval", str(games_per_eval)]
    if rules_file:
        parts += ["--rules", str(rules_file)]
    return shlex.join(parts)


def train(game=None, out=None, seed: int = 0, generations: int | None = None,
          popsize: int | None = None, games_per_eval: int | None = None,
          workers: int | None = None, resume: bool = False, progress=True, rules=None,
          rules_file=None, command: str | None = None, spec=None) -> TrainResults:
    """Train ``game``'s strong bot into the folder ``out`` (see the module docstring).

    ``generations``, ``popsize``, ``games_per_eval``: default the game's
    ``REGISTRY.train``'s; ``spec``: another TrainSpec (default the game's);
    ``rules``: the rules played (default the game's; ``rules_file`` is recorded);
    ``resume``: continue the checkpoint in ``out`` (refused when it is another
    training's); ``progress``: True (lines on stderr), False or a callable taking
    each line; ``command``: the command line recorded (default the equivalent one).
    Results do not depend on ``workers``."""
    t0 = time.time()
    game = get_game(game)
    spec = spec if spec is not None else getattr(game.bots, "train", None)
    if spec is None:
        raise ConfigError(f"{game.name} declares no training for a strong bot")
    if out is None:
        raise ConfigError("train needs an output folder (out)")
    seed = check_seed(seed)
    generations = check_number("generations", spec.generations if generations is None else generations, 1)
    rules = rules or game.Rules.default()
    plan = Plan(game, spec, rules, seed,
                spec.popsize if popsize is None else popsize,
                spec.games_per_eval if games_per_eval is None else games_per_eval)
    lock = claim_locked(out, "training output",
                        own_output(TRAIN_FILES + (LOCK,), CHECKPOINT, _ours))
    try:
        folder = Path(out)
        return _train(plan, folder, generations, workers, resume, progress, rules_file,
                      command, t0)
    finally:
        lock.release()


def _train(plan, folder, generations, workers, resume, progress, rules_file, command, t0):
    label = f"train {STRONG_NAME} {plan.game.name}"
    ident = plan.identity()
    state = None
    if resume:
        state = _checkpoint_of(folder)
        if state is None:
            raise ConfigError(f"--resume: {folder} holds no training checkpoint to continue")
        for k, v in ident.items():
            if state.get("identity", {}).get(k) != json.loads(json.dumps(v)):
                raise ConfigError(f"--resume: the checkpoint in {folder} is another training "
                                  f"({k} differs): give the same options or a new folder")
    if state is None:
        x0 = plan.start_x()
        state = {"kind": TRAIN_KIND, "identity": ident, "generation": 0,
                 "mean": x0.tolist(), "sigma": [SIGMA0] * len(plan.names), "history": [],
                 "games_played": 0, "finished": False}
    elif state["generation"]:
        _say(progress, f"{label}: resuming after generation {state['generation']}")
    search = stream_seed(plan.seed, "search")
    for g in range(state["generation"] + 1, generations + 1):
        mean, sigma = np.array(state["mean"]), np.array(state["sigma"])
        rng = np.random.default_rng(np.random.SeedSequence([plan.seed, g]))
        z = rng.standard_normal((plan.popsize - 1, len(plan.names)))
        xs = [plan.snap(mean)] + [plan.snap(np.clip(mean + sigma * zi, 0.0, 1.0)) for zi in z]
        deals = _derived_seed(search, g)
        scores, rows = [], []
        for j, x in enumerate(xs):
            vals = plan.values(x)
            bot = plan.bot(vals)
            sc, rates, played = plan.score(bot, plan.games, deals, workers)
            state["games_played"] += played
            scores.append(sc)
            rows.append({"generation": g, "candidate": j, **vals, "spec": bot, "score": sc, **rates})
        new_mean, new_sigma = _next_state(mean, sigma, xs, scores, plan.popsize)
        state.update(generation=g, mean=new_mean.tolist(), sigma=new_sigma.tolist(),
                     history=state["history"] + rows, finished=False)
        atomic_write_text(folder / CHECKPOINT, json.dumps(state, indent=1) + "\n")
        _say(progress, f"{label}: generation {g}/{generations}, best {max(scores):.3f} "
                       f"(mean point {scores[0]:.3f}), {_clock(time.time() - t0)}")
    return _finish(plan, folder, state, generations, workers, progress, rules_file, command, t0, label)


def _finish(plan, folder, state, generations, workers, progress, rules_file, command, t0, label):
    spec = plan.spec
    hist = pd.DataFrame(state["history"])
    start_vals = plan.values(plan.start_x())
    mean_vals = plan.values(np.array(state["mean"]))
    top = hist.sort_values(["score", "generation", "candidate"], ascending=[False, True, True])
    cands = list(dict.fromkeys(top["spec"].head(spec.finalists)))
    by_spec = {r["spec"]: {k: r[k] for k in plan.names} for _, r in hist.iterrows()}
    for vals in (mean_vals, start_vals):         # the final mean, and the start as a safeguard
        b = plan.bot(vals)
        by_spec.setdefault(b, vals)
        if b not in cands:
            cands.append(b)
    _say(progress, f"{label}: re-playing {len(cands)} finalists on the validation stream")
    val_seed = stream_seed(plan.seed, "validation")
    frows, games_played = [], int(state["games_played"])     # the search's, then these
    for order, b in enumerate(cands):
        sc, rates, played = plan.score(b, spec.validation_games, val_seed, workers)
        games_played += played
        frows.append({"spec": b, "validation_score": sc, "order": order, **rates})
    fin = pd.DataFrame(frows).sort_values(["validation_score", "order"], ascending=[False, True],
                                          ignore_index=True)
    best = fin["spec"].iloc[0]
    _say(progress, f"{label}: measuring the chosen one on the fresh stream, "
                   f"{_clock(time.time() - t0)}")
    fresh = stream_seed(plan.seed, "fresh")
    start_bot = plan.bot(start_vals)
    measured = []
    for n, i, field in plan.fields:
        r = evaluate(best, field, n, spec.fresh_games, fresh, plan.rules, workers, plan.game)
        s = evaluate(start_bot, field, n, spec.fresh_games, fresh, plan.rules, workers, plan.game)
        games_played += r["n"] + s["n"]
        measured.append({"players": n, "field_index": i, "field": ",".join(field), "games": r["n"],
                         **{k: round(v, 4) for k, v in (
                             ("win_rate", r["win_rate"]), ("lo", r["lo"]), ("hi", r["hi"]),
                             ("start_win_rate", s["win_rate"]), ("start_lo", s["lo"]),
                             ("start_hi", s["hi"]))}})
    meas = pd.DataFrame(measured)
    params = {**plan.base, **by_spec[best]}
    canonical = canonical_command(plan.game.name, plan.seed, generations, plan.popsize,
                                  plan.games, rules_file)
    prov = {"library_version": __version__, "game": plan.game.name,
            "rules_digest": plan.rules.digest, "seed": plan.seed,
            "command": command or canonical, "reproduce": canonical,
            "generations": generations, "popsize": plan.popsize,
            "games_per_eval": plan.games, "games_played": games_played,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "space": {k: f"{a:g} to {b:g}" for k, a, b in zip(plan.names, plan.lo, plan.hi)},
            "spec_digest": hashlib.sha256(json.dumps(plan.spec.describe(), sort_keys=True)
                                          .encode()).hexdigest()[:12],
            "measured": {f"p{m['players']}_f{m['field_index']}": {k: v for k, v in m.items()
                                                                   if k != "field_index"}
                         for m in measured}}
    if rules_file:
        prov["rules_file"] = str(rules_file)
    if plan.rules.overrides:
        prov["rules_overrides"] = {k: str(v) for k, v in plan.rules.overrides.items()}
    text = strong_toml(plan.family, params, prov)
    data = parse_strong(text, plan.game.bots, str(folder / "strong.toml"))   # what we ship reads back
    state["finished"] = True
    with Staged(folder) as files:
        files.write("history.csv", lambda f: hist.to_csv(f, index=False))
        files.write("strong.toml", lambda f: Path(f).write_text(text, encoding="utf-8"))
        files.write(CHECKPOINT, lambda f: Path(f).write_text(json.dumps(state, indent=1) + "\n",
                                                             encoding="utf-8"))
    for m in measured:
        _say(progress, f"{label}: {m['players']} players vs {m['field']}: "
                       f"{m['win_rate']:.3f} [{m['lo']:.3f}, {m['hi']:.3f}] "
                       f"(start {m['start_win_rate']:.3f}), {m['games']:,} fresh games")
    _say(progress, f"{label}: wrote {folder / 'strong.toml'} in {_clock(time.time() - t0)}")
    return TrainResults(data, folder / "strong.toml", hist, fin, meas)


def strong_toml(family: str, params: dict, provenance: dict) -> str:
    """strong.toml's text (parameters in the family's slot order)."""
    import tomli_w
    body = tomli_w.dumps({"strong": {"family": family, "params": {k: float(v) for k, v in params.items()}},
                          "provenance": provenance})
    return (f"{MARKER}: the `strong` bot's parameters and how they were obtained\n"
            f"# (docs/bots.md, \"The strong bot\"); copy into cargo_sim/games/<game>/bots/\n\n" + body)

