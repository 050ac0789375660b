"""Which headline conclusions survive the rules' unknowns (docs/robustness.md).

Every estimate and decision of the rules data carries a plausible range
(``Rules.ranges``). For each variant of the rules this module plays the same
games (one seed: common random numbers, so two variants differ by the rules
only) and measures the headlines the reports print:

* ``seat.N``   — which seat wins most in an N-player table of identical bots;
* ``ranking``  — the order of four strategies in a seat-rotated 4-player field,
  and ``leader`` — the strongest of them;
* ``card.N``   — which card's holders win most often at N players;
* ``bank.N``   — how often the finite bank runs short (band: rare / some / most);
* ``price.N``  — which port has the highest mean winning price at N players.

``one_at_a_time`` moves each parameter alone to each end of its range (each
alternative of a decision); ``morris`` screens all of them together (Morris
elementary effects, SALib); a game's named factors (``factor_specs``: e.g. Cargo
Empire's maps) are measured level by level beside them. ``verdicts`` says for each
headline: robust, or which parameters flip it and at which values, and per factor on
which levels it holds. ``write_report`` writes the
tables, tornado and mu*/sigma figures and index.md.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cargo_sim.runners.api import aggregate
from cargo_sim.core.checks import whole
from cargo_sim.core.errors import ConfigError, RulesError
from cargo_sim.core.fileio import read_json
from cargo_sim.core.rules import RulesBase as Rules      # any game's rules (annotations)

from .robustness_marks import (REPORT_DIR, VERDICTS_FILE, load_marks, mark_highlights,  # noqa: F401
                               robustness_link)
from .stats import half_width

# Without headlines of its own, the study measures these on the game's aggregate counters
# (cargo_sim.aggregate) and names Cargo Noir's bots.
MIRROR_BOT = "expert"
FIELD = ("expert", "greedy", "collector", "sniper")      # the ranked strategies (4 players)
BANK_BANDS = ((0.05, "rare (< 5 %)"), (0.5, "some (5-50 %)"), (1.01, "most (> 50 %)"))


@dataclass
class Design:
    """How many games each variant plays, and where."""
    games: int = 1000                  # per mirror table and per rotation of the field
    morris_games: int = 250
    morris_trajectories: int = 4
    player_counts: tuple = (2, 3, 4, 5)
    seed: int = 1
    workers: int | None = None
    params: tuple | None = None        # None: every parameter with a range (not in a group)
    game: str = "cargo_noir"           # a registered game offering the study (analyses.games)
    groups: tuple = ()                 # ((name, (pattern, ...)), ...): parameters moved as one factor

    def check(self) -> None:
        for name in ("games", "morris_games"):
            v = getattr(self, name)
            if not whole(v) or v < 20:
                raise ConfigError(f"{name} must be a whole number >= 20, got {v!r}")
        if not whole(self.morris_trajectories) or self.morris_trajectories < 0:
            raise ConfigError("morris_trajectories must be a whole number >= 0")
        if self.morris_trajectories == 1:      # one elementary effect a factor: no sigma
            raise ConfigError("morris_trajectories must be 0 (no screening) or at least 2 "
                              "(sigma is the spread of a factor's elementary effects)")


def study_hooks(game) -> dict | None:
    """A game's own headlines: the ``ROBUSTNESS`` dict of the module its
    ``Game.robustness`` names — ``measure(rules, games, design)`` (headline -> (conclusion,
    values, half-widths), as ``measure`` below), ``field`` (the ranked strategies),
    ``mirror`` (the bot of the seat headlines) and ``headlines`` (their description) — or
    None: the study's own headlines, on the aggregate counters."""
    import importlib

    from cargo_sim.core.contract import optional
    name = optional(game, "robustness")
    return None if name is None else getattr(importlib.import_module(name), "ROBUSTNESS", None)


def study_game(name=None):
    """The registered game ``name`` if it offers the robustness study (``Game.robustness``),
    else one ConfigError."""
    from cargo_sim.core.contract import get_game, require
    game = get_game(name if name is not None else Design.game)
    require(game, "robustness")
    if study_hooks(game) is None:
        require(game, "counters")          # the study's own headlines read the counters
    return game


# ---------------------------------------------------------------------------
# measuring one rules variant
def _band(share: float) -> str:
    return next(label for hi, label in BANK_BANDS if share < hi)


def measure(rules: Rules, games: int, design: Design) -> dict:
    """Headline -> (conclusion, numeric measures, their 95 % half-widths) for
    one rules variant (a game's own ``study_hooks`` measure when it has one)."""
    from cargo_sim.core.contract import get_game
    hooks = study_hooks(get_game(design.game))
    if hooks is not None:
        return hooks["measure"](rules, games, design)
    kw = dict(seed=design.seed, rules=rules, workers=design.workers, progress=False, game=design.game)
    out = {}
    for n in design.player_counts:
        agg = aggregate(games, [MIRROR_BOT] * n, **kw)
        w = agg.win_rates()
        wr = w["win_rate"].to_numpy()
        out[f"seat.{n}"] = (f"seat {int(np.argmax(wr))}", {f"seat {s}": float(x) for s, x in enumerate(wr)},
                            {f"seat {s}": half_width(x, games) for s, x in enumerate(wr)})
        b = agg.shortfalls()
        out[f"bank.{n}"] = (_band(b["shortfall_rate"]), {"share": b["shortfall_rate"]},
                            {"share": (b["ci_hi"] - b["ci_lo"]) / 2})
        ce = agg.card_effect()
        ce = ce[ce["held"] >= 1].assign(w=lambda d: d["win_rate"] * d["n"]).groupby("card")[["n", "w"]].sum()
        ce = ce[ce["n"] >= max(20, 0.02 * games * n)]
        rate = ce["w"] / ce["n"]
        out[f"card.{n}"] = (str(rate.idxmax()) if len(rate) else "none", rate.to_dict(),
                            {c: half_width(r, ce.loc[c, "n"]) for c, r in rate.items()})
        pr = agg.prices(by=("port",)).set_index("port")
        out[f"price.{n}"] = (str(pr["mean"].idxmax()) if len(pr) else "none", pr["mean"].to_dict(),
                             (pr["ci_hi"] - pr["mean"]).fillna(np.inf).to_dict())
    share = dict.fromkeys(FIELD, 0.0)
    for k in range(len(FIELD)):                       # every strategy in every seat once
        seats = list(FIELD[k:] + FIELD[:k])
        wr = aggregate(games, seats, **kw).win_rates()
        for bot, x in zip(seats, wr["win_rate"]):
            share[bot] += x / len(FIELD)
    order = sorted(FIELD, key=lambda b: -share[b])
    hws = {b: half_width(x, len(FIELD) * games) for b, x in share.items()}
    out["ranking"] = (" > ".join(order), share, hws)
    out["leader"] = (order[0], share, hws)           # the strongest strategy alone
    return out


def clear_flip(headline: str, base: tuple, m: tuple) -> bool:
    """A flip beyond the noise: the variant's new conclusion leads the old one
    by more than the 95 % half-width of their difference (the shortfall share
    lies outside the old band by more than its half-width). A flip that is not
    clear is a near-tie: the same games could have gone either way."""
    if m[0] == base[0]:
        return False
    vals, hws = m[1], m[2]
    if headline.startswith("bank"):
        edges = [hi for hi, label in BANK_BANDS[:-1]]
        return min(abs(vals["share"] - e) for e in edges) > hws["share"]
    if headline == "ranking":
        old = base[0].split(" > ")
        return any(vals[b] - vals[a] > np.hypot(hws[a], hws[b])
                   for i, a in enumerate(old) for b in old[i + 1:])
    new, old = m[0], base[0]
    if old not in vals:                       # e.g. the port is closed in this variant
        return True
    return vals[new] - vals[old] > np.hypot(hws[new], hws[old])


def _numeric(headline: str, base: tuple, m: tuple) -> float:
    """One number per headline that tracks the base conclusion: the base winner's
    value (seat, card, port, strategy) or the shortfall share; the ranking's is
    the base leader's margin over the base runner-up."""
    if headline.startswith("bank"):
        return m[1]["share"]
    if headline == "ranking":
        first, second = base[0].split(" > ")[:2]
        return m[1][first] - m[1][second]
    return m[1].get(base[0], np.nan)


# ---------------------------------------------------------------------------
# variants
def group_members(rules: Rules, design: Design) -> dict:
    """Group name -> its member parameters: every parameter with a range whose name matches
    one of the group's shell-style patterns (``fnmatch``, e.g. ``card.*.cost``), in range
    order. A pattern matching only values the owner supplied (``Rules.user_rows``: no longer
    estimates) adds none, and a group left with no member is not studied. A pattern
    matching nothing, a parameter in two groups, or a group named like a parameter is one
    ConfigError."""
    from fnmatch import fnmatchcase
    out, owner = {}, {}
    printed = rules.user_rows()
    for name, patterns in design.groups:
        if name in rules.ranges or name in out:
            raise ConfigError(f"group {name!r}: the name is taken (a parameter or another group)")
        members = []
        for pat in patterns:
            hit = [p for p in rules.ranges if fnmatchcase(p, pat)]
            if not hit and not any(fnmatchcase(p, pat) for p in printed):
                raise ConfigError(f"group {name!r}: {pat!r} matches no parameter with a range "
                                  "(see Rules.ranges)")
            members += [p for p in hit if p not in members]
        for p in members:
            if p in owner:
                raise ConfigError(f"{p} is in two groups ({owner[p]!r} and {name!r})")
            owner[p] = name
        if members:
            out[name] = members
    return out


def _params(rules: Rules, design: Design) -> dict:
    """The ranges the study moves: the named parameters (every one with a range outside a
    group when none is named) and every group's members."""
    ranges = rules.ranges
    grouped = [p for members in group_members(rules, design).values() for p in members]
    factors = factor_specs(design)
    if design.params is not None:
        unknown = [p for p in design.params if p not in ranges and p not in factors]
        if unknown:
            raise ConfigError(f"no plausible range for {', '.join(unknown)} (see Rules.ranges)")
        twice = [p for p in design.params if p in grouped]
        if twice:
            raise ConfigError(f"{', '.join(twice)}: named alone and in a group; name it once")
        chosen = [p for p in design.params if p not in factors] + grouped
    else:                   # a parameter a factor's levels set is studied through the factor
        by_factor = {p for f in factors.values() for over in f["levels"].values() for p in over}
        chosen = [p for p in ranges if p not in grouped and p not in by_factor] + grouped
    return {p: ranges[p] for p in chosen}


def factor_specs(design: Design) -> dict:
    """The game's named factors (``ROBUSTNESS["factors"]``: name -> {"default": the
    defaults' level label, "levels": {label: rules overrides}}), e.g. the map a game is
    played on: levels that no end of a range can express (a generated map is several
    parameters at once). Empty for a game that declares none."""
    from cargo_sim.core.contract import get_game
    hooks = study_hooks(get_game(design.game)) or {}
    return dict(hooks.get("factors", {}))


def chosen_factors(design: Design) -> dict:
    """The factors this study measures: every one in a full study, the named ones
    (``--param NAME``) when parameters are named."""
    f = factor_specs(design)
    return f if design.params is None else {k: v for k, v in f.items() if k in design.params}


def factor_variants(rules: Rules, design: Design) -> list[tuple[str, str, str, dict]]:
    """(factor, level, default label, overrides) of every level of the chosen factors,
    each with every other parameter at its default; a level the rules refuse is one
    ConfigError naming it."""
    out = []
    for name, f in chosen_factors(design).items():
        for level, over in f["levels"].items():
            try:
                rules.replace(over)
            except RulesError as e:
                raise ConfigError(f"factor {name!r}, level {level!r}: {e}") from None
            out.append((name, level, f["default"], dict(over)))
    return out


def _oat_values(values: list, current) -> list:
    """Whole-number range: its two ends; otherwise every alternative."""
    if all(whole(v, numpy=False) for v in values):
        return [v for v in (values[0], values[-1]) if v != current]
    return [v for v in values if v != current]


def oat_variants(rules: Rules, design: Design) -> list[tuple[str, object]]:
    """(parameter, value) of every one-at-a-time variant: each parameter alone at
    each end of the part of its range the rules' constraints allow with every
    other parameter at its default (a tie's leader moves its follower with it:
    ``Rules.replace``), or at each alternative. A group's members move with their group
    only (``group_variants``)."""
    flat, grouped = rules.flat(), group_members(rules, design)
    out = []
    for p, vals in _params(rules, design).items():
        if any(p in members for members in grouped.values()):
            continue
        legal = [v for v in vals if rules.allows(p, v)]
        out += [(p, v) for v in _oat_values(legal, flat[p])]
    return out


def _whole_range(vals: list) -> bool:
    return all(whole(v, numpy=False) for v in vals)


def group_levels(rules: Rules, members: list) -> dict:
    """Level -> {parameter: value} of a group moved as one factor: ``low`` and ``high``
    (every member at the low / high end of the part of its range legal with the others at
    their defaults) when every member's range is whole numbers, else ``alternative i``
    (every member at the i-th value of its range other than its current one; a member
    with fewer alternatives stays). A group mixing the two kinds is one ConfigError."""
    flat, ranges = rules.flat(), rules.ranges
    legal = {p: [v for v in ranges[p] if rules.allows(p, v)] for p in members}
    kinds = {_whole_range(ranges[p]) for p in members}
    if len(kinds) > 1:
        raise ConfigError(f"a group mixes whole-number ranges and lists of alternatives "
                          f"({', '.join(members[:4])}{', ...' if len(members) > 4 else ''}); "
                          "group parameters of one kind")
    if kinds == {True}:
        return {"low": {p: legal[p][0] for p in members}, "high": {p: legal[p][-1] for p in members}}
    alts = {p: [v for v in legal[p] if v != flat[p]] for p in members}
    k = max(len(a) for a in alts.values())
    return {f"alternative {i + 1}": {p: a[i] for p, a in alts.items() if i < len(a)} for i in range(k)}


def group_variants(rules: Rules, design: Design) -> list[tuple[str, str, dict]]:
    """(group, level, overrides) of every one-at-a-time variant of a group: the group's
    levels (``group_levels``) with every other parameter at its default; a level the rules
    refuse as a whole keeps the fewest members at their defaults (``repair``; the level's
    label then says how many)."""
    flat, out = rules.flat(), []
    for name, members in group_members(rules, design).items():
        for level, over in group_levels(rules, members).items():
            over = {p: v for p, v in over.items() if v != flat[p]}
            if not over:
                continue
            over, reset = repair(rules, over)
            out.append((name, level + (f" ({len(reset)} kept at default)" if reset else ""), over))
    return out


def check_factors(rules: Rules, design: Design) -> None:
    """One ConfigError, before any game, for an unknown parameter or a bad group."""
    oat_variants(rules, design)
    group_variants(rules, design)
    factor_variants(rules, design)


def _label(v) -> str:
    return json.dumps(v) if not isinstance(v, str) else v


def one_at_a_time(rules: Rules, design: Design, base: dict | None = None, progress=None) -> pd.DataFrame:
    """One row per (parameter, value, headline): conclusion, numeric measure,
    and whether the conclusion differs from the defaults' (``flipped``)."""
    base = base if base is not None else measure(rules, design.games, design)
    flat = rules.flat()
    rows = []
    variants = [(p, _label(v), _label(flat[p]), {p: v}) for p, v in oat_variants(rules, design)]
    variants += [(g, level, "defaults", over) for g, level, over in group_variants(rules, design)]
    variants += factor_variants(rules, design)
    for i, (p, value, default, over) in enumerate(variants):
        m = measure(rules.replace(over), design.games, design)
        for h, b in base.items():
            rows.append({"parameter": p, "value": value, "default": default, "headline": h,
                         "conclusion": m[h][0], "base_conclusion": b[0],
                         "measure": _numeric(h, b, m[h]), "base_measure": _numeric(h, b, b),
                         "flipped": m[h][0] != b[0], "clear": clear_flip(h, b, m[h])})
        if progress:
            progress(i + 1, len(variants))
    return pd.DataFrame(rows)


def _morris_problem(ranges: dict, groups: dict | None = None) -> dict:
    """SALib's problem; with ``groups`` (name -> members), a group's members move together
    along the trajectories and SALib reports one effect per group (single parameters are
    groups of their own)."""
    bounds = []
    for vals in ranges.values():
        ints = all(whole(v, numpy=False) for v in vals)
        bounds.append([vals[0], vals[-1]] if ints else [0.0, 1.0])
    problem = {"num_vars": len(ranges), "names": list(ranges), "bounds": bounds}
    if groups:
        owner = {p: g for g, members in groups.items() for p in members}
        problem["groups"] = [owner.get(p, p) for p in ranges]
    return problem


def _morris_value(vals: list, x: float):
    if all(whole(v, numpy=False) for v in vals):
        return int(round(x))
    return vals[min(int(x * len(vals)), len(vals) - 1)]


def morris_overrides(rules: Rules, ranges: dict, x) -> dict:
    """The rules variant of one Morris point: each parameter's value from its
    coordinate; a parameter bound by an inequality to another ("A" = "> B") is
    drawn from the part of its range that is legal given B's value in this
    point (its coordinate rescaled onto that part: the same design, never an
    impossible game). Ties need nothing: a tied parameter has no range, it
    follows its leader."""
    over = {p: _morris_value(vals, xi) for (p, vals), xi in zip(ranges.items(), x)}
    flat = rules.flat()
    for (p, vals), xi in zip(ranges.items(), x):
        rule = rules.constraints.get(p)
        if rule is None or rule[0] == "=":
            continue
        others = {rule[1]: over.get(rule[1], flat[rule[1]])}
        legal = [v for v in vals if rules.allows(p, v, others)]
        if legal and legal != vals:
            frac = (xi - vals[0]) / (vals[-1] - vals[0]) if vals[-1] != vals[0] else 0.0
            over[p] = legal[int(round(frac * (len(legal) - 1)))]
    return over


def repair(rules: Rules, over: dict) -> tuple[dict, list[str]]:
    """A joint draw the rules refuse for a reason no single range can see (e.g.
    every port closed at some player count: each opening's alternative is legal
    alone, not all of them together) keeps the fewest drawn values at their
    defaults: first one parameter that makes it legal alone, else one after
    another in range order. Returns the legal overrides and the names reset."""
    try:
        rules.replace(over)
        return over, []
    except RulesError:
        pass
    flat = rules.flat()
    moved = [p for p, v in over.items() if v != flat[p]]
    for p in moved:
        trial = {**over, p: flat[p]}
        try:
            rules.replace(trial)
            return trial, [p]
        except RulesError:
            continue
    trial, reset = dict(over), []
    for p in moved:
        trial[p] = flat[p]
        reset.append(p)
        try:
            rules.replace(trial)
            return trial, reset
        except RulesError:
            continue
    raise ConfigError("a Morris draw cannot be made legal (the defaults themselves are refused)")


def morris_design(rules: Rules, design: Design):
    """(SALib problem, sample matrix, the rules overrides of each point, the
    parameters ``repair`` reset at each point)."""
    from SALib.sample import morris as sample
    ranges = _params(rules, design)
    problem = _morris_problem(ranges, group_members(rules, design))
    X = sample.sample(problem, design.morris_trajectories, num_levels=4, seed=design.seed)
    points, resets = [], []
    for x in X:
        over, reset = repair(rules, morris_overrides(rules, ranges, x))
        points.append(over)
        resets.append(reset)
    return problem, X, points, resets


def morris(rules: Rules, design: Design, base: dict, progress=None) -> pd.DataFrame:
    """Morris elementary effects over all ranges at once: one row per
    (headline, parameter) with mu_star, mu_star_conf, sigma (SALib)."""
    from SALib.analyze import morris as analyze
    problem, X, points, resets = morris_design(rules, design)
    ys = {h: [] for h in base}
    for i, over in enumerate(points):
        m = measure(rules.replace(over), design.morris_games, design)
        for h in base:
            ys[h].append(_numeric(h, base[h], m[h]))
        if progress:
            progress(i + 1, len(X))
    rows = []
    for h, y in ys.items():
        y = np.nan_to_num(np.asarray(y, dtype=float), nan=0.0)
        res = analyze.analyze(problem, X, y, num_levels=4, seed=design.seed)
        for j, p in enumerate(res["names"]):      # the factors: parameters, or groups
            rows.append({"headline": h, "parameter": p, "mu_star": float(res["mu_star"][j]),
                         "mu_star_conf": float(res["mu_star_conf"][j]), "sigma": float(res["sigma"][j])})
    out = pd.DataFrame(rows)
    out.attrs["points"] = len(points)
    out.attrs["repaired"] = {i: r for i, r in enumerate(resets) if r}
    return out


# ---------------------------------------------------------------------------
# verdicts
def _margin(headline: str, b: tuple) -> float:
    """How clear the conclusion is at the defaults: the winner's measure minus
    the runner-up's (the shortfall share's distance to the nearest band edge)."""
    vals = b[1]
    if headline.startswith("bank"):
        return float(min(abs(vals["share"] - hi) for hi, _ in BANK_BANDS[:-1]))
    v = sorted((x for x in vals.values() if x == x), reverse=True)
    return float(v[0] - v[1]) if len(v) > 1 else float("nan")


def across_factor(oat: pd.DataFrame, headline: str, factor: str, default: str) -> str:
    """Whether a headline holds across a factor's levels: "holds on every <factor> (k)",
    or the levels where it flips beyond the noise ("differs on ...") and within it
    ("near-tie on ...")."""
    d = oat[(oat["headline"] == headline) & (oat["parameter"] == factor)]
    clear = d[d["flipped"] & d["clear"]]["value"].tolist()
    near = d[d["flipped"] & ~d["clear"]]["value"].tolist()
    if not clear and not near:
        return f"holds on every {factor} ({len(d) + 1}: {default} and {len(d)} more)"
    parts = [f"differs on {', '.join(clear)}"] if clear else []
    parts += [f"near-tie on {', '.join(near)}"] if near else []
    return "; ".join(parts) + f" (of {len(d) + 1})"


def verdicts(base: dict, oat: pd.DataFrame, factors: dict | None = None) -> pd.DataFrame:
    """Per headline: the defaults' conclusion, robust or not, and each flip; per factor
    measured (``factors``: name -> spec), a column ``across <name>`` (``across_factor``)."""
    rows = []
    factors = {k: v for k, v in (factors or {}).items() if (oat.get("parameter", pd.Series()) == k).any()}
    for h, b in base.items():
        d = oat[(oat["headline"] == h) & oat["flipped"]]
        clear, near = d[d["clear"]], d[~d["clear"]]
        names = lambda x: ", ".join(dict.fromkeys(x["parameter"]))   # noqa: E731
        mark = ("depends on " + names(clear) if len(clear) else
                "near-tie: flips within the noise with " + names(near) if len(near) else "robust")
        rows.append({"headline": h, "conclusion": b[0], "margin": _margin(h, b), "robust": clear.empty,
                     "mark": mark,
                     "flips": "; ".join(f"{r.parameter} = {r.value} -> {r.conclusion}" for r in clear.itertuples()),
                     "near_ties": "; ".join(f"{r.parameter} = {r.value} -> {r.conclusion}"
                                            for r in near.itertuples()),
                     **{f"across {f}": across_factor(oat, h, f, spec["default"]) for f, spec in factors.items()}})
    return pd.DataFrame(rows)


def load_previous(folder) -> pd.DataFrame | None:
    """The verdicts table (headline, conclusion, mark) and rules digest of the
    robustness report already in ``folder`` (None if there is none): what a new
    report compares itself with."""
    folder = Path(folder)
    path = folder / "verdicts.csv"
    if not path.is_file() or not load_marks(folder):
        return None
    try:
        v = pd.read_csv(path, usecols=["headline", "conclusion", "mark"], nrows=1000)
        digest = read_json(folder / VERDICTS_FILE, 2**20, "robustness verdicts").get("rules_digest")
    except (ValueError, OSError, ConfigError):
        return None
    v.attrs["rules_digest"] = str(digest)
    return v


def verdict_changes(previous: pd.DataFrame | None, current: pd.DataFrame) -> pd.DataFrame:
    """Per headline whose conclusion or mark moved: before and after."""
    cols = ["headline", "conclusion before", "conclusion now", "mark before", "mark now"]
    if previous is None:
        return pd.DataFrame(columns=cols)
    prev = previous.set_index("headline")
    rows = []
    for r in current.itertuples():
        before = prev.loc[r.headline] if r.headline in prev.index else None
        cb = before["conclusion"] if before is not None else "(not assessed)"
        mb = before["mark"] if before is not None else "(not assessed)"
        if cb != r.conclusion or mb != r.mark:
            rows.append(dict(zip(cols, (r.headline, cb, r.conclusion, mb, r.mark))))
    return pd.DataFrame(rows, columns=cols)


# ---------------------------------------------------------------------------
def run(rules: Rules | None = None, design: Design | None = None, log=print, game=None) -> dict:
    """Base measures, the one-at-a-time table, Morris and the verdicts. ``game``: a
    registered game name (default ``design.game``, ``"cargo_noir"``); a game that does not
    offer the study (``Game.robustness``) is a ConfigError."""
    design = design or Design()
    the_game = study_game(game or design.game)
    design.game = the_game.name
    rules = rules or the_game.Rules.default()
    design.check()
    check_factors(rules, design)        # an unknown parameter or a bad group fails before any game
    t0 = time.time()
    base = measure(rules, design.games, design)
    log(f"defaults measured ({time.time() - t0:.0f} s)")

    def tick(what):
        def f(i, n):
            if i == n or i % 10 == 0:
                log(f"{what}: {i}/{n} variants ({time.time() - t0:.0f} s)")
        return f
    oat = one_at_a_time(rules, design, base, progress=tick("one at a time"))
    mor = (morris(rules, design, base, progress=tick("Morris")) if design.morris_trajectories
           else pd.DataFrame(columns=["headline", "parameter", "mu_star", "mu_star_conf", "sigma"]))
    return {"rules": rules, "design": design, "base": base, "oat": oat, "morris": mor,
            "morris_points": mor.attrs.get("points", 0), "morris_repaired": mor.attrs.get("repaired", {}),
            "verdicts": verdicts(base, oat, chosen_factors(design)), "seconds": time.time() - t0}
