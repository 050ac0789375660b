"""Tune the heuristic bots' parameters for win rate against a field of opponents.

``tune(bot_family="greedy", opponents=[...], n_players=4, budget=..., ...)``
searches the parameters of ``strategies.PARAMS`` (within ``space``: name ->
(low, high)) for the highest win rate of the tuned bot.

Evaluation
----------
One evaluation of a candidate plays ``games_per_eval`` games split evenly
over ``n_players`` seatings: the candidate in seat ``s`` and the opponents
(cycled to fill ``n_players - 1`` seats, rotated with ``s``) in the others, so
the candidate sits in every seat equally often. Every candidate is played on
the *same* game seeds (common random numbers: the search compares candidates
on identical deals), drawn from the *search* stream of ``seed``. Candidate
values are rounded to 2 decimals (so the reported bot spec string replays
exactly). The score is the candidate's win rate (shared wins split).

Search
------
* ``method="de"``: ``scipy.optimize.differential_evolution`` minimising
  ``-win rate``, ``polish=False``, ``seed`` fixed, ``popsize`` and ``maxiter``
  from ``budget`` (about ``budget`` evaluations in all), started from a
  population that contains ``start`` (``x0``).
* ``method="random"``: ``budget`` uniform random candidates (plus ``start``).

Both are reproducible from ``seed`` (and independent of ``workers``).

Selection and fresh measurement
-------------------------------
The best search score is biased upwards (the winner's curse: it is the
maximum of noisy estimates). The ``finalists`` best distinct candidates of
the search are therefore re-played on a *validation* stream of seeds, the
best of them is chosen, and its win rate is re-measured, with the start point
for comparison, on a third, *fresh* stream (``fresh_games`` games) never used
for choosing: that is the reported win rate with its 95% Wilson interval.
"""
from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.stats import newcombe_diff_ci, wilson_interval
from ..core.bots import param_value, short_repr
from ..core.checks import check_number
from ..core.errors import BotError, ConfigError
from ..core.contract import get_game
from ..core.runner import Table, run_jobs
from ..core.seeds_nb import game_seeds

__all__ = ["tune", "TuneResults", "DEFAULT_SPACE", "evaluate", "bot_spec", "stream_seed"]

# Cargo Noir's main parameters and sensible ranges (see its strategies.PARAMS for
# meanings); a parameter the tuned bot lacks is left out, so another game's bot
# is searched over its own parameters (or a given space)
DEFAULT_SPACE = {
    "coin_value": (0.6, 3.0),
    "bid_margin": (0.0, 3.0),
    "contest": (0.0, 1.0),
    "same_bias": (0.0, 3.0),
    "diff_bias": (0.0, 3.0),
    "hold": (0.3, 1.2),
    "sell_at": (0.0, 40.0),
    "syndicate_value": (0.0, 20.0),
}

STREAMS = {"search": 0, "fresh": 1, "validation": 2}


def stream_seed(seed: int, stream: str) -> int:
    """The run seed of one seed stream ("search", "validation", "fresh") of a tune seed."""
    st = np.random.SeedSequence([int(seed), 7919, STREAMS[stream]]).generate_state(2, np.uint32)
    return (int(st[0]) << 31) | (int(st[1]) >> 1)


def bot_spec(family: str, params: dict, game=None) -> str:
    """``family?k=v&...`` with the parameters that differ from the family's defaults."""
    defaults = get_game(game).bots.get(family).params
    parts = [f"{k}={v:g}" for k, v in params.items() if k in defaults and float(v) != defaults[k]]
    return family + ("?" + "&".join(parts) if parts else "")


def _seatings(candidate: str, opponents: list, n_players: int) -> list[list]:
    opp = [opponents[i % len(opponents)] for i in range(n_players - 1)]
    out = []
    for s in range(n_players):
        others = opp[s % len(opp):] + opp[:s % len(opp)] if opp else []
        seats = others[:s] + [candidate] + others[s:]
        out.append(seats)
    return out


def evaluate(candidate, opponents, n_players: int, games: int, run_seed: int,
             rules=None, workers: int | None = None, game=None, check_bots: bool = True) -> dict:
    """Win rate of ``candidate`` (a bot spec) against ``opponents`` with seat
    rotation: ``games`` (rounded up to a multiple of ``n_players``) split over
    the seatings with the candidate in seat 0..n-1; every seating plays games
    0..g-1 of ``run_seed`` (the same deals). Returns n (candidate seat
    appearances), wins (shared wins split), win_rate, lo, hi (Wilson), mean_vp.
    ``check_bots``: user bots run checked (False trusts them, docs/safety.md)."""
    game = get_game(game)
    rules = rules or game.Rules.default()
    per = max(1, math.ceil(games / n_players))
    seeds = game_seeds(run_seed, 0, per)
    tables = [(s, Table.build(game, rules, [game.bots.parse(q) for q in seats], check_bots))
              for s, seats in enumerate(_seatings(candidate, list(opponents), n_players))]

    def run(job):
        s, table = job
        g, pl, _ = table.play(seeds, 0)
        # the core columns: the winners from win_share (a share in float64, 1/k of
        # k winners, summed over the games), the score vp
        _, p = game.table_columns(g, pl, seeds, 0, table.players, rules, narrow=False)
        won = np.asarray(p["win_share"]).reshape(per, n_players) > 0
        share = won[:, s] / np.maximum(won.sum(axis=1), 1)
        vp = np.asarray(p["vp"]).reshape(per, n_players)[:, s]
        return share.sum(), vp.astype(float).sum()

    parts = []
    run_jobs(tables, run, lambda job, part: parts.append(part),
             min(workers or os.cpu_count() or 1, len(tables)), interruptible=False)
    n = per * n_players
    wins = float(sum(p[0] for p in parts))
    lo, hi = wilson_interval(wins, n)
    return {"n": n, "wins": wins, "win_rate": wins / n, "lo": lo, "hi": hi,
            "mean_vp": float(sum(p[1] for p in parts)) / n}


@dataclass
class TuneResults:
    """Results of ``tune``.

    ``best_spec``: the chosen bot as a spec string; ``best_params``: its
    searched parameter values; ``win_rate``/``win_ci``: its win rate on fresh
    seeds with the 95% Wilson interval (``fresh_games`` appearances);
    ``start_spec``/``start_win_rate``/``start_ci``: the start point on the same
    fresh seeds; ``diff``/``diff_ci``: best minus start on those fresh seeds
    (Newcombe interval; the two share deals, so it is conservative);
    ``history``: one row per search evaluation (eval, the parameters, spec,
    win_rate, lo, hi, games); ``finalists``: the re-played top candidates.
    """
    bot_family: str
    best_spec: str
    best_params: dict
    win_rate: float
    win_ci: tuple
    start_spec: str
    start_win_rate: float
    start_ci: tuple
    diff: float
    diff_ci: tuple
    history: pd.DataFrame
    finalists: pd.DataFrame
    config: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"TuneResults({self.best_spec!r}: fresh win rate {self.win_rate:.3f} "
                f"[{self.win_ci[0]:.3f}, {self.win_ci[1]:.3f}] vs start {self.start_win_rate:.3f}; "
                f"{len(self.history)} evaluations)")


def _check_space(family: str, space, game=None) -> dict:
    spec = get_game(game).bots.get(family)
    if not spec.params:
        raise BotError(f"bot {family!r} has no parameters to tune")
    if space is None:
        space = {k: v for k, v in DEFAULT_SPACE.items() if k in spec.params}
        # another game's family: the ranges its registry gives its parameters (BotSpec.ranges)
        space = space or {k: (lo, hi) for k, (lo, hi, _whole) in spec.ranges.items() if k in spec.params}
    out = {}
    for k, b in dict(space).items():
        if k not in spec.params:
            raise BotError(f"bot {family!r} has no parameter {k!r} (parameters: {', '.join(spec.params)})")
        try:
            lo, hi = b
        except (TypeError, ValueError):
            raise ConfigError(f"space[{k!r}] must be (low, high), got {short_repr(b)}") from None
        # each bound is a value of the parameter: finite and within the bots' range
        lo, hi = param_value(family, k, lo), param_value(family, k, hi)
        if not lo < hi:
            raise ConfigError(f"space[{k!r}]: low must be below high, got {b!r}")
        out[k] = (lo, hi)
    if not out:
        raise ConfigError("the search space is empty")
    return out


def tune(bot_family: str = "greedy", opponents=None, n_players: int = 4,
         budget: int = 200, games_per_eval: int = 800, seed: int = 0, space: dict | None = None,
         method: str = "de", start=None, rules=None, fresh_games: int = 8000,
         finalists: int = 5, workers: int | None = None, progress: bool = True,
         game=None, check_bots: bool = True) -> TuneResults:
    """Search the heuristic parameters of ``bot_family`` for the highest win rate
    against ``opponents`` at ``n_players`` seats (see the module docstring).

    ``budget``: candidate evaluations of the search (each ``games_per_eval``
    games); the default (200 x 800 four-player games, plus the finalists and
    ``fresh_games``) takes a few minutes on two cores. ``space``: ``{param:
    (low, high)}`` (default: the main parameters, ``DEFAULT_SPACE``).
    ``start``: the starting point, a bot spec or dict of parameter values
    (default: the family's defaults); parameters outside ``space`` keep the
    start's values. ``method``: "de" (differential evolution) or "random".
    ``game``: the game (a registered name or a Game; default Cargo Noir). ``opponents``
    None: the game's named strategies (``game.bots.tune_opponents``; Cargo Noir: greedy,
    syndicate, fleet; Macao: greedy, builder, shipper), else the default bot mix.
    ``check_bots``: user bots run checked (the default; False trusts them, docs/safety.md).
    """
    from scipy.optimize import differential_evolution

    t0 = time.time()
    game = get_game(game)
    parse_player = game.bots.parse
    rules = rules or game.Rules.default()
    rules.check_players(n_players)
    space = _check_space(bot_family, space, game)
    if opponents is None:
        opponents = list(game.bots.tune_opponents) or game.bots.default_players(3, builtin_only=True)
    if isinstance(opponents, str):
        opponents = [q for q in opponents.split(",") if q]
    opponents = list(opponents)
    if not opponents:
        raise ConfigError("tune needs at least one opponent")
    for q in opponents:
        parse_player(q)
    if method not in ("de", "random"):
        raise ConfigError(f"method must be 'de' or 'random', got {method!r}")
    for name, v, lo in (("budget", budget, 2), ("games_per_eval", games_per_eval, 1),
                        ("fresh_games", fresh_games, 1), ("finalists", finalists, 1)):
        check_number(name, v, lo)
    family = game.bots.get(bot_family)
    base = dict(family.params)
    if isinstance(start, str):
        sp = parse_player(start)
        if sp.spec.name != bot_family:
            raise ConfigError(f"start {start!r} is not a {bot_family!r} bot")
        base.update(dict(zip(sp.spec.params, sp.values)))
    elif isinstance(start, dict):
        parse_player(bot_family, **start)
        base.update({k: float(v) for k, v in start.items()})
    names = list(space)
    bounds = [space[k] for k in names]
    x0 = np.array([min(max(base[k], lo), hi) for k, (lo, hi) in zip(names, bounds)])
    start_spec = bot_spec(bot_family, base, game)
    search_seed = stream_seed(seed, "search")
    history: list[dict] = []
    cache: dict[tuple, float] = {}

    def spec_of(x) -> tuple[str, dict]:
        vals = {k: round(float(v), 2) + 0.0 for k, v in zip(names, x)}
        params = dict(base)
        params.update(vals)
        return bot_spec(bot_family, params, game), vals

    def objective(x) -> float:
        spec, vals = spec_of(x)
        key = tuple(vals.values())
        if key not in cache:
            r = evaluate(spec, opponents, n_players, games_per_eval, search_seed, rules, workers,
                         game, check_bots)
            cache[key] = r["win_rate"]
            history.append({"eval": len(history), **vals, "spec": spec, "win_rate": r["win_rate"],
                            "lo": r["lo"], "hi": r["hi"], "games": r["n"],
                            "seconds": round(time.time() - t0, 1)})
            if progress and len(history) % 10 == 0:
                best = max(h["win_rate"] for h in history)
                print(f"[tune] {len(history)} evaluations, best search win rate {best:.3f} "
                      f"({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
        return -cache[key]

    d = len(names)
    if method == "de":
        popsize = int(max(2, min(15, budget // (8 * d))))
        maxiter = int(max(1, budget // (popsize * d) - 1))
        differential_evolution(objective, bounds, popsize=popsize, maxiter=maxiter, polish=False,
                               seed=int(seed), x0=x0, tol=0.0, init="latinhypercube",
                               updating="immediate", workers=1)
    else:
        rng = np.random.default_rng(int(seed))
        objective(x0)
        lo = np.array([b[0] for b in bounds])
        hi = np.array([b[1] for b in bounds])
        for _ in range(budget - 1):
            objective(lo + rng.random(d) * (hi - lo))
    hist = pd.DataFrame(history)

    # finalists on validation seeds, then the chosen one on fresh seeds
    top = hist.sort_values(["win_rate", "eval"], ascending=[False, True]).drop_duplicates("spec")
    top = top.head(finalists)
    val_seed = stream_seed(seed, "validation")
    frows = []
    for _, r in top.iterrows():
        v = evaluate(r["spec"], opponents, n_players, 2 * games_per_eval, val_seed, rules,
                     workers, game, check_bots)
        frows.append({"spec": r["spec"], "search_win_rate": r["win_rate"],
                      "validation_win_rate": v["win_rate"], "validation_lo": v["lo"],
                      "validation_hi": v["hi"], "eval": r["eval"]})
    fin = pd.DataFrame(frows).sort_values(["validation_win_rate", "search_win_rate", "eval"],
                                          ascending=[False, False, True], ignore_index=True)
    best_spec = fin["spec"].iloc[0]
    best_row = hist[hist["spec"] == best_spec].iloc[0]
    best_params = {k: float(best_row[k]) for k in names}
    fresh_seed = stream_seed(seed, "fresh")
    fb = evaluate(best_spec, opponents, n_players, fresh_games, fresh_seed, rules, workers, game,
                  check_bots)
    fs = evaluate(start_spec, opponents, n_players, fresh_games, fresh_seed, rules, workers, game,
                  check_bots)
    diff, dlo, dhi = newcombe_diff_ci(fb["wins"], fb["n"], fs["wins"], fs["n"])
    config = {"bot_family": bot_family, "opponents": opponents, "n_players": n_players,
              "budget": budget, "games_per_eval": games_per_eval, "seed": seed, "method": method,
              "space": space, "fresh_games": fb["n"], "search_seed": search_seed,
              "validation_seed": val_seed, "fresh_seed": fresh_seed,
              "evaluations": len(hist), "seconds": round(time.time() - t0, 1), "game": game.name}
    if progress:
        print(f"[tune] done in {time.time() - t0:.0f} s: {best_spec} fresh win rate "
              f"{fb['win_rate']:.3f} [{fb['lo']:.3f}, {fb['hi']:.3f}] vs start {fs['win_rate']:.3f}",
              file=sys.stderr, flush=True)
    return TuneResults(bot_family, best_spec, best_params, fb["win_rate"], (fb["lo"], fb["hi"]),
                       start_spec, fs["win_rate"], (fs["lo"], fs["hi"]), float(diff),
                       (float(dlo), float(dhi)), hist, fin, config)


TUNE_KIND = "cargo_sim.tune/1"
TUNE_FILES = ("history.csv", "finalists.csv", "run.json")
