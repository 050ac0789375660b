"""Balance studies: sweep rule parameters and compare variants with common random numbers.

``sweep(grid=..., players=..., games=..., seed=...)`` simulates the base rules
and every combination of the grid's values with the *same* seed. Game ``i``
of every variant therefore starts from the same per-game seed (common random
numbers, CRN): the same shuffle and the same dice as far as the games stay
alike. That makes the variants *paired* samples, and the difference of a
measure from the base variant is estimated from the per-game differences,
which is much sharper than comparing two independent samples.

Measures (one row per variant in ``SweepResults.table``)
--------------------------------------------------------
Every measure is written as a mean over games of a per-game value ``u_i``
(for ratios, their linearisation), which gives both its own 95% interval and
the paired interval of its difference from the base (``mean(u_V - u_B)`` with
a Student-t interval on the per-game differences, ``paired_diff_ci``):

* ``seat0_win``    — win rate of seat 0 (shared wins split); 95% Wilson interval.
* ``seat_spread``  — max minus min seat win rate. Interval from the per-game
  linearisation ``win_share[best seat] - win_share[worst seat]`` (the best and
  worst seats held fixed): a normal approximation that ignores the selection of
  the extreme seats, so it is optimistic when the seats are nearly equal (the
  spread itself is then biased upwards: ~sqrt(2 log k / n) even for fair seats).
  ``seat_chi2_p``: Pearson chi-square p-value of the seat wins against equal
  chances (``cargo_sim.core.stats.chi2_equal``); no difference column.
* ``win_<bot>``    — win rate of each bot label over the seats it holds; Wilson.
* ``winner_vp``, ``mean_vp``, ``game_value`` — mean VP of the winner, of all
  players, and the sum of VP of a game; Student-t intervals.
* ``win_price``    — mean winning price: sum(coins_paid) / sum(ports_won) (a
  ratio of sums: coins per port won); delta-method interval (per-game
  ``u_i = R + (coins_i - R ports_i) / mean(ports)``).
* ``casino_share`` — casino_visits / (casino_visits + bids + bm_swaps + bm_draws),
  the share of ship placements that went to the Casino; ratio, delta method.
* ``tie_rate``     — share of games whose win is shared; Wilson.

Each measure ``m`` has columns ``m, m_lo, m_hi, m_diff, m_diff_lo, m_diff_hi``
(the base row has differences of exactly 0). ``SweepResults.long()`` gives the
same numbers one row per (variant, measure).

Overrides are validated like a rules file (``Rules.replace``) for every
variant *before* any game is simulated: an unknown parameter or an impossible
value raises ``RulesError`` naming it.
"""
from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.contract import get_game, optional
from ..core.runner import check_fits, simulate
from ..core.stats import chi2_equal, mean_ci, wilson_interval
from ..core.checks import whole
from ..core.errors import ConfigError, RulesError

__all__ = ["sweep", "SweepResults", "paired_diff_ci", "variant_measures", "plot_measure",
           "plot_heatmap", "MEASURES", "measures_of"]

# Cargo Noir's defaults (the game played when none is named)
DEFAULT_GRID = {"start_coins": [6, 7, 8], "casino_payout": [2, 3]}
MAX_VARIANTS = 10_000     # each variant is a full simulate: a bigger grid is a mistake, not a sweep
DEFAULT_PLAYERS = ["greedy", "syndicate", "fleet", "expert"]

# The measures every game has, read from the core columns (seat, vp, win_share):
# measure -> (description, interval kind of its own CI). A game adds its own
# (Game.sweep_measures, Game.sweep_units) between the seats' and the games' ones.
SEAT_MEASURES = {
    "seat0_win": ("win rate of seat 0", "wilson"),
    "seat_spread": ("max - min seat win rate", "t"),
    "winner_vp": ("mean VP of the winner", "t"),
    "mean_vp": ("mean VP of all players", "t"),
}
GAME_MEASURES = {
    "game_value": ("mean sum of VP of a game", "t"),
    "tie_rate": ("share of games with a shared win", "wilson"),
}


def measures_of(game=None) -> dict:
    """Every sweep measure of ``game`` (default Cargo Noir), in table order."""
    return {**SEAT_MEASURES, **optional(get_game(game), "sweep_measures"), **GAME_MEASURES}


def __getattr__(name):
    # MEASURES: Cargo Noir's, as before games had their own (loaded on first use:
    # the game registry is not read at import)
    if name == "MEASURES":
        return measures_of()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_measures(names, known) -> None:
    """A ConfigError naming the first unknown measure and the known ones."""
    for m in names or ():
        if m not in known:
            raise ConfigError(f"unknown measure {m!r}; measures: {', '.join(known)}")


# ---------------------------------------------------------------------------
# statistics
def paired_diff_ci(a, b) -> dict:
    """Mean of the paired differences ``a_i - b_i`` with its 95% Student-t
    interval (``cargo_sim.core.stats.mean_ci`` of the differences):
    ``mean(d) +- t(0.975, n-1) * sd(d) / sqrt(n)``. Returns n, diff, sd, se,
    lo, hi. Differences that are all exactly 0 give ``lo == hi == 0``."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples must have the same length, got {a.shape} and {b.shape}")
    d = a - b
    r = mean_ci(d)
    if r["n"] >= 1 and np.all(d == d[0]):           # constant differences: no spread
        return {"n": r["n"], "diff": float(d[0]), "sd": 0.0, "se": 0.0,
                "lo": float(d[0]), "hi": float(d[0])}
    return {"n": r["n"], "diff": r["mean"], "sd": r["sd"], "se": r["se"],
            "lo": r["ci_lo"], "hi": r["ci_hi"]}


def variant_measures(res, game=None) -> tuple[dict, dict, dict]:
    """(units, estimates, extra) of one simulated variant of ``game``.

    ``units[m]``: per-game values whose mean is measure ``m`` (the pairing
    unit for differences); ``estimates[m]``: (value, lo, hi);
    ``extra``: seat_chi2_p, games, seat win rates."""
    game = get_game(game)
    p = res.players
    n = len(res.games)
    if n == 0:
        raise ConfigError("a sweep needs at least one game per variant")
    seats = len(p) // n
    p = p.sort_values(["game", "seat"], kind="stable")

    def grid(col):
        return p[col].to_numpy().astype(float).reshape(n, seats)

    share = grid("win_share")
    vp = grid("vp")
    units: dict = {}
    est: dict = {}
    seat_rate = share.mean(axis=0)
    units["seat0_win"] = share[:, 0]
    hi_s, lo_s = int(np.argmax(seat_rate)), int(np.argmin(seat_rate))
    units["seat_spread"] = share[:, hi_s] - share[:, lo_s]
    units["winner_vp"] = vp.max(axis=1)
    units["mean_vp"] = vp.mean(axis=1)
    units["game_value"] = vp.sum(axis=1)
    units.update(optional(game, "sweep_units")(grid))
    units["tie_rate"] = (share.max(axis=1) < 1).astype(float)     # a win shared: 1/k < 1 each
    # win rate of each bot label over its seats
    labels = p["bot"].astype(str).to_numpy().reshape(n, seats)[0]
    bot_n = {}
    for lab in dict.fromkeys(labels):
        cols = [s for s in range(seats) if labels[s] == lab]
        units[f"win_{lab}"] = share[:, cols].mean(axis=1)
        bot_n[f"win_{lab}"] = len(cols)
    for m, u in units.items():
        kind = "wilson" if (m in ("seat0_win", "tie_rate") or m in bot_n) else "t"
        if kind == "wilson":
            k = bot_n.get(m, 1)
            lo, hi = wilson_interval(u.sum() * k, n * k)
            est[m] = (float(u.mean()), float(lo), float(hi))
        else:
            r = mean_ci(u)
            est[m] = (r["mean"], r["ci_lo"], r["ci_hi"])
    chi = chi2_equal(share.sum(axis=0))
    extra = {"games": n, "seat_chi2_p": chi["p_value"],
             **{f"seat{s}_win": float(seat_rate[s]) for s in range(seats)}}
    return units, est, extra


# ---------------------------------------------------------------------------
@dataclass
class SweepResults:
    """Results of ``sweep``.

    ``table``: one row per variant (the base first): ``variant`` (its name),
    one column per swept parameter (the value used), ``games``, then for every
    measure ``m`` the columns ``m, m_lo, m_hi, m_diff, m_diff_lo, m_diff_hi``
    (difference from the base with a paired 95% interval), ``seat_chi2_p`` and
    the win rate of every seat ``seat<s>_win``. ``params``: the swept parameter
    names; ``measures``: the measure names; ``runs``: variant -> SimResults
    (when ``keep_runs``); ``config``: players, games, seed, base overrides.
    """
    table: pd.DataFrame
    params: list
    measures: list
    base_rules: object             # the game's Rules
    config: dict = field(default_factory=dict)
    runs: dict = field(default_factory=dict)

    def long(self) -> pd.DataFrame:
        """One row per (variant, measure): value, lo, hi, diff, diff_lo, diff_hi."""
        rows = []
        for _, r in self.table.iterrows():
            for m in self.measures:
                rows.append({"variant": r["variant"], **{k: r[k] for k in self.params},
                             "measure": m, "value": r[m], "lo": r[f"{m}_lo"], "hi": r[f"{m}_hi"],
                             "diff": r[f"{m}_diff"], "diff_lo": r[f"{m}_diff_lo"],
                             "diff_hi": r[f"{m}_diff_hi"]})
        return pd.DataFrame(rows)

    def summary(self, measures=None) -> pd.DataFrame:
        """A compact table: per variant the parameter values and, for each
        measure, ``value [lo, hi]`` and ``diff [lo, hi]`` as text."""
        own = list(optional(get_game(self.config.get("game")), "sweep_measures"))
        measures = list(measures or ["seat0_win", "seat_spread", "winner_vp", *own, "tie_rate"])
        check_measures(measures, self.measures)
        out = self.table[["variant"] + self.params + ["games"]].copy()
        for m in measures:
            t = self.table
            out[m] = [f"{v:.3f} [{lo:.3f}, {hi:.3f}]" for v, lo, hi in zip(t[m], t[f"{m}_lo"], t[f"{m}_hi"])]
            out[f"{m} diff"] = [f"{v:+.3f} [{lo:+.3f}, {hi:+.3f}]" for v, lo, hi in
                                zip(t[f"{m}_diff"], t[f"{m}_diff_lo"], t[f"{m}_diff_hi"])]
        if "seat_chi2_p" in self.table:
            out["seat_chi2_p"] = self.table["seat_chi2_p"].map(lambda x: f"{x:.3g}")
        return out

    def __repr__(self) -> str:
        return (f"SweepResults({len(self.table)} variants over {self.params}, "
                f"{self.config.get('games')} games each, seed={self.config.get('seed')})")


def _check_grid(grid) -> dict:
    if grid is None:
        return {}
    if not isinstance(grid, dict):
        raise ConfigError("grid must be a dict {parameter: [values]}")
    out = {}
    for k, v in grid.items():
        if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
            v = [v]
        v = [x.item() if isinstance(x, np.generic) else x for x in v]
        if not v:
            raise RulesError(f"sweep grid: no values for {k!r}")
        out[str(k)] = v
    return out


def _variant_name(combo: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in combo.items())


def sweep(base_rules=None, grid: dict | None = None, players=None,
          games: int = 4000, seed: int = 0, workers: int | None = None,
          progress: bool = True, keep_runs: bool = True, game=None,
          check_bots: bool = True) -> SweepResults:
    """Simulate the base rules and every combination of ``grid`` with the same
    seed (common random numbers) and tabulate the balance measures.

    ``grid``: ``{flat rules parameter: [values]}`` (default
    ``{"start_coins": [6, 7, 8], "casino_payout": [2, 3]}``); the variants are
    ``itertools.product`` of the values in the grid's order, applied to
    ``base_rules`` (default ``Rules.default()``) with ``Rules.replace``.
    ``players``: one bot per seat (default: greedy, syndicate, fleet, expert).
    Every variant is ``simulate(games, players, seed, rules)``: the base
    variant's run is exactly that of a plain ``simulate`` call. All variants
    are built and validated before the first game (``RulesError``).
    ``game``: the game (a registered name or a Game; default Cargo Noir, whose
    grid and players are the defaults above; another game names its own).
    ``check_bots``: user bots run checked (the default; False trusts them, docs/safety.md).
    """
    game = get_game(game)
    default = game.name == get_game().name
    if base_rules is None:
        base_rules = game.Rules.default()
    if not isinstance(base_rules, game.Rules):
        raise ConfigError(f"base_rules must be a {game.rules_type_name}")
    if grid is None and not default:
        raise ConfigError(f"a sweep of {game.name} needs a grid: {{parameter: [values]}}")
    grid = _check_grid(DEFAULT_GRID if grid is None else grid)
    if players is None:
        if not default:
            raise ConfigError(f"a sweep of {game.name} needs players: one bot per seat")
        players = list(DEFAULT_PLAYERS)
    if isinstance(players, str):
        players = [q for q in players.split(",") if q]
    players = list(players)
    for pl in players:
        game.bots.parse(pl)                         # BotError before any game
    params = list(grid)
    if not params:
        raise ConfigError("an empty sweep grid compares nothing: give {parameter: [values]}")
    n_variants = 1
    for v in grid.values():
        n_variants *= len(v)
        if n_variants > MAX_VARIANTS:
            raise ConfigError(f"the sweep grid has more than {MAX_VARIANTS:,} variants "
                              f"({' x '.join(str(len(v)) for v in grid.values())}); sweep fewer values")
    variants = [("base", {}, base_rules)]
    for values in itertools.product(*grid.values()):
        combo = dict(zip(params, values))
        try:
            rules = base_rules.replace(combo)
            rules.check_players(len(players))
        except RulesError as e:
            raise RulesError(f"sweep variant {_variant_name(combo)}: {e}") from None
        variants.append((_variant_name(combo), combo, rules))
    if not whole(games) or games < 2:
        raise ConfigError(f"a sweep needs games >= 2 per variant, got {games!r}")
    base_rules.check_players(len(players))
    if all(r.digest == base_rules.digest for _, _, r in variants[1:]):
        raise ConfigError(f"every sweep variant equals the base rules "
                          f"({', '.join(name for name, _, _ in variants[1:])}): it compares nothing")
    # every kept run stays in memory (its tables); refused up front if they cannot fit
    kept = len({r.digest for _, _, r in variants}) if keep_runs else 1
    check_fits(game.table_bytes(games, len(players)) * kept, int(games) * kept, game)

    rows, runs, base_units, played = [], {}, None, {}
    t0 = time.time()
    for i, (name, combo, rules) in enumerate(variants):
        if progress:
            print(f"[sweep {i + 1}/{len(variants)}] {name} ({time.time() - t0:.0f} s)",
                  file=sys.stderr, flush=True)
        if rules.digest in played:                  # a variant equal to the base (or to another)
            res = played[rules.digest]
        else:
            res = simulate(game, games, players, seed=seed, rules=rules, workers=workers,
                           progress=False, check_bots=check_bots)
            if res.interrupted:
                raise KeyboardInterrupt
            played[rules.digest] = res
        units, est, extra = variant_measures(res, game)
        if base_units is None:
            base_units = units
        row = {"variant": name}
        for k in params:
            row[k] = combo.get(k, base_rules[k] if _has(base_rules, k) else None)
        row["games"] = extra.pop("games")
        for m, (v, lo, hi) in est.items():
            row[m], row[f"{m}_lo"], row[f"{m}_hi"] = v, lo, hi
            if m in base_units:
                d = paired_diff_ci(units[m], base_units[m])
                row[f"{m}_diff"], row[f"{m}_diff_lo"], row[f"{m}_diff_hi"] = d["diff"], d["lo"], d["hi"]
            else:
                row[f"{m}_diff"] = row[f"{m}_diff_lo"] = row[f"{m}_diff_hi"] = np.nan
        row.update(extra)
        rows.append(row)
        if keep_runs:
            runs[name] = res
    table = pd.DataFrame(rows)
    known = measures_of(game)
    measures = list(known) + [m for m in base_units if m not in known]
    front = ["variant"] + params + ["games"]
    cols = front + [c for m in measures for c in (m, f"{m}_lo", f"{m}_hi", f"{m}_diff",
                                                  f"{m}_diff_lo", f"{m}_diff_hi")]
    cols += [c for c in table.columns if c not in cols]
    table = table[cols]
    config = {"players": [game.bots.parse(q).label for q in players], "games": int(games),
              "seed": seed, "grid": grid, "base_overrides": dict(base_rules.overrides),
              "seconds": round(time.time() - t0, 1), "game": game.name}
    return SweepResults(table, params, measures, base_rules, config, runs)


def _has(rules, name: str) -> bool:
    try:
        rules[name]
        return True
    except RulesError:
        return False


# ---------------------------------------------------------------------------
# plots
def _check_measure(results: SweepResults, measure: str):
    check_measures([measure], results.measures)


def _label(results: SweepResults, measure: str) -> str:
    """The measure's words for axes and titles ("seat spread ...", not "seat_spread")."""
    return measures_of(results.config.get("game")).get(measure, (measure,))[0]


def plot_measure(results: SweepResults, measure: str, param: str, ax=None, diff: bool = False):
    """A measure (or, with ``diff=True``, its paired difference from the base)
    against one swept parameter, one line per combination of the other swept
    parameters, with shaded 95% interval bands. The base variant is a star."""
    import matplotlib.pyplot as plt
    _check_measure(results, measure)
    if param not in results.params:
        raise ConfigError(f"{param!r} was not swept; swept: {', '.join(results.params)}")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4))
    t = results.table[results.table["variant"] != "base"]
    others = [q for q in results.params if q != param]
    col = f"{measure}_diff" if diff else measure
    groups = t.groupby(others, sort=True) if others else [((), t)]
    for key, d in groups:
        d = d.sort_values(param)
        key = key if isinstance(key, tuple) else (key,)
        lab = ", ".join(f"{k}={v}" for k, v in zip(others, key)) or measure
        line, = ax.plot(d[param], d[col], marker="o", label=lab)
        ax.fill_between(d[param].astype(float), d[f"{col}_lo"], d[f"{col}_hi"],
                        color=line.get_color(), alpha=0.2)
    b = results.table[results.table["variant"] == "base"].iloc[0]
    if not diff and b[param] is not None:
        ax.plot([b[param]], [b[measure]], marker="*", ms=14, color="black", ls="none", label="base rules")
    if diff:
        ax.axhline(0, color="grey", lw=1)
    if measure == "seat0_win" and not diff:
        n = len(results.config.get("players", [])) or 1
        ax.axhline(1 / n, color="grey", ls="--", lw=1, label=f"fair 1/{n}")
    ax.set_xlabel(param)
    if all(float(v).is_integer() for v in t[param] if v is not None):
        from matplotlib.ticker import MaxNLocator
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # no 5.5 coins
    label = _label(results, measure)
    ax.set_ylabel(("difference from base: " if diff else "") + label)
    ax.set_title(f"{label} vs {param} ({results.config.get('games'):,} games/variant, 95% CI)")
    ax.legend(fontsize="small")
    return ax


def plot_heatmap(results: SweepResults, measure: str, param_x: str, param_y: str, ax=None,
                 diff: bool = False):
    """Heatmap of a measure over two swept parameters (averaged over any other
    swept parameter), cells annotated with the value and its 95% interval."""
    import matplotlib.pyplot as plt
    _check_measure(results, measure)
    for q in (param_x, param_y):
        if q not in results.params:
            raise ConfigError(f"{q!r} was not swept; swept: {', '.join(results.params)}")
    col = f"{measure}_diff" if diff else measure
    t = results.table[results.table["variant"] != "base"]
    piv = t.pivot_table(index=param_y, columns=param_x, values=col, aggfunc="mean")
    lo = t.pivot_table(index=param_y, columns=param_x, values=f"{col}_lo", aggfunc="mean")
    hi = t.pivot_table(index=param_y, columns=param_x, values=f"{col}_hi", aggfunc="mean")
    if ax is None:
        _, ax = plt.subplots(figsize=(1.3 * piv.shape[1] + 2.5, 0.9 * piv.shape[0] + 1.8))
    im = ax.imshow(piv.to_numpy(float), origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(piv.shape[1]), [str(c) for c in piv.columns])
    ax.set_yticks(range(piv.shape[0]), [str(i) for i in piv.index])
    for i in range(piv.shape[0]):
        for j in range(piv.shape[1]):
            v = piv.iat[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.3f}\n[{lo.iat[i, j]:.3f}, {hi.iat[i, j]:.3f}]", ha="center",
                        va="center", fontsize=7, color="white")
    ax.set_xlabel(param_x)
    ax.set_ylabel(param_y)
    label = ("difference from base: " if diff else "") + _label(results, measure)
    ax.figure.colorbar(im, ax=ax, label=label)
    ax.set_title(f"{label} ({results.config.get('games'):,} games/variant)")
    return ax
