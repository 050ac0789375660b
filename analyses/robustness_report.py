"""The robustness report: tables, tornado and Morris figures, index.md and
verdicts.json, written into a temporary folder renamed over the target (the
report is complete or absent), and ``cargo-sim robustness`` (``main``: the study, then this
report). See analyses.robustness and docs/robustness.md."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from cargo_sim.core.fileio import claim_folder, own_output
from cargo_sim.core.provenance import rules_census_line
from cargo_sim.runners.runs.folder import LOCK, lock_only

from .markdown import markdown_table
from .plots import save_figure
from .robustness import FIELD, MIRROR_BOT, study_hooks, verdict_changes
from .robustness_marks import VERDICTS_FILE
from .strong_play import TABLES as STRONG_PLAY_TABLES, block as strong_play_block
from .stats import half_width

TOP = 12        # parameters shown per tornado chart


def _fig(title: str, figsize=(7.0, 4.2)):
    import matplotlib.pyplot as plt          # Agg: analyses.plots selects it on import
    fig, ax = plt.subplots(figsize=figsize, constrained_layout=True)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    return fig, ax


def tornado(oat: pd.DataFrame, headline: str):
    """Change of the headline's measure when each parameter goes to each end of
    its range (or to its alternative), largest first; red bars flip the conclusion
    beyond the noise, orange ones within it."""
    d = oat[oat["headline"] == headline].copy()
    d["effect"] = d["measure"] - d["base_measure"]
    d["size"] = d["effect"].abs().fillna(np.inf)
    keep = d.groupby("parameter")["size"].max().sort_values(ascending=False).index[:TOP]
    d = d[d["parameter"].isin(keep)]
    fig, ax = _fig(f"{headline}: change of the measure, one parameter at a time",
                   figsize=(7.5, 0.35 * max(len(d), 4) + 1.2))
    labels = [f"{r.parameter} = {r.value}" for r in d.itertuples()]
    order = np.argsort(d["size"].to_numpy())
    y = np.arange(len(d))
    eff = d["effect"].to_numpy()[order]
    color = np.where(d["clear"], "tab:red", np.where(d["flipped"], "tab:orange", "tab:blue"))
    ax.barh(y, np.nan_to_num(eff), color=color[order])
    ax.set_yticks(y)
    ax.set_yticklabels([labels[i] + (" (n/a)" if np.isnan(eff[k]) else "") for k, i in enumerate(order)],
                       fontsize=7)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel("measure minus its value at the defaults (red: conclusion flips; orange: flips "
                  "within the noise)", fontsize=8)
    return fig


def morris_figure(mor: pd.DataFrame, headline: str):
    """Morris mu* (overall influence) against sigma (interactions/non-linearity)."""
    d = mor[mor["headline"] == headline]
    fig, ax = _fig(f"{headline}: Morris elementary effects")
    ax.scatter(d["mu_star"], d["sigma"], s=14)
    for r in d.nlargest(6, "mu_star").itertuples():
        ax.annotate(r.parameter, (r.mu_star, r.sigma), fontsize=7)
    ax.set_xlabel("mu* (mean |elementary effect|)")
    ax.set_ylabel("sigma")
    return fig


def _hooks(res) -> dict:
    """The game's own headlines (analyses.robustness.study_hooks), or the study's."""
    from cargo_sim.core.contract import get_game
    hooks = study_hooks(get_game(res["design"].game))
    return hooks or {"field": FIELD, "mirror": MIRROR_BOT, "headlines": (
        "Headlines: `seat.N` — the seat that wins most among N identical "
        f"`{MIRROR_BOT}` bots; `bank.N` — share of those games with a bank shortfall (band); "
        "`card.N` — the card whose holders win most often; `price.N` — the port with the highest "
        f"mean winning price; `ranking` — the order of {', '.join(FIELD)} in a seat-rotated "
        "4-player field (each strategy in each seat once); `leader` — the first of that order.")}


def _game_notes(res) -> list[str]:
    """The game's own lines on what its conclusions depend on (its ROBUSTNESS["notes"])."""
    notes = _hooks(res).get("notes")
    return ["## What the conclusions depend on", "", *notes(res), ""] if notes else []


def _widths(res) -> list[str]:
    g, base = res["design"].games, res["base"]
    field = _hooks(res)["field"]
    out = []
    for h, (concl, vals, _) in base.items():
        if h.startswith("seat"):
            n = int(h.split(".")[1])
            out.append(f"`{h}`: win rate of one seat ± {100 * half_width(1 / n, g):.1f} points")
        elif h.startswith("bank"):
            out.append(f"`{h}`: shortfall share {100 * vals['share']:.1f} % ± "
                       f"{100 * half_width(vals['share'], g):.1f} points")
    out.append(f"`ranking`: one strategy's win rate ± "
               f"{100 * half_width(1 / len(field), len(field) * g):.1f} points")
    return out


NO_STRONG_PLAY = ("Not assessed here: the strong-play tables (reports/balance/strong_play.py) check "
                  "Cargo Noir's headlines; a game with its own judges them in its report, where it has them.")


def _strong_play(res) -> str:
    """The strong-play verdicts, for the study's own headlines only (a game with
    headlines of its own has no strong-play table)."""
    from cargo_sim.core.contract import get_game
    if study_hooks(get_game(res["design"].game)):
        return NO_STRONG_PLAY
    return strong_play_block(STRONG_PLAY_TABLES["cargo_noir"], digest=res["rules"].digest)


def _index(res, command: str, figs: list[str]) -> str:
    d, v = res["design"], res["verdicts"]
    n_var = res["oat"].groupby(["parameter", "value"]).ngroups
    robust = v[v["mark"] == "robust"]["headline"].tolist()
    near = v[v["mark"].str.startswith("near-tie")]["headline"].tolist()
    md = ["# Do the headlines survive the unknowns?", "",
          f"Rules `{res['rules'].digest}` ({res['rules']!r}). Command: `{command}`. "
          f"Run time {res['seconds'] / 60:.1f} min.", "",
          rules_census_line(res["rules"]), "",
          "## Verdicts", "",
          f"**Robust** (the same conclusion at every plausible value of every parameter, one at a "
          f"time): {', '.join(robust) or 'none'}. **Robust up to near-ties** (some values flip the "
          f"conclusion, but never beyond the noise: the defaults' winner and the new one are within "
          f"each other's intervals): {', '.join(near) or 'none'}. **Depends on the unknowns** (a flip "
          f"beyond the noise): {', '.join(v[~v['robust']]['headline']) or 'none'}.", "",
          "A flip is *beyond the noise* when the new conclusion leads the old one by more than the 95 % "
          "half-width of their difference (for `bank`: the share lies outside the old band by more "
          "than its half-width; for `ranking`: some pair of strategies swaps by more than that).", "",
          markdown_table(v[["headline", "conclusion", "margin", "mark",
                            *[c for c in v.columns if c.startswith("across ")]]]), "",
          "`margin`: how clear the conclusion is at the defaults — the winner's measure minus the "
          "runner-up's (win rates, or coins for `price`), or for `bank` the share's distance to the "
          "nearest band edge (5 % or 50 %). A margin inside the interval widths below "
          "means the defaults' conclusion is itself a near-tie, and flips of it are close calls.", "",
          _hooks(res)["headlines"], "",
          *_game_notes(res),
          "## Under stronger play", "",
          _strong_play(res), "",
          "## Design", "",
          f"- {d.games:,} games per table and variant in the one-at-a-time sweep "
          f"({len(d.player_counts)} mirror tables + {len(_hooks(res)['field'])} rotations of the field: "
          f"{d.games * (len(d.player_counts) + len(_hooks(res)['field'])):,} games per variant, {n_var} variants "
          "and the defaults), every variant with the same seed (common random numbers: game i "
          "deals the same random stream under every rule variant, so a difference comes from the "
          "rule, not from luck).",
          f"- Morris screening: {d.morris_trajectories} trajectories over all "
          f"{res['morris']['parameter'].nunique()} {'factors' if d.groups else 'parameters'}, "
          f"{d.morris_games:,} games per table and point, 4 levels (SALib)." if d.morris_trajectories
          else "- No Morris screening (`--trajectories 0`).",
          *_groups_lines(res),
          *_factor_lines(res),
          "- 95 % interval half-widths at the defaults: " + "; ".join(_widths(res)) + ". "
          "Why this is enough: the verdicts only call a flip clear when it exceeds these widths, "
          "and the flips that decide a verdict move a measure by several widths; a flip within "
          "them is reported as a near-tie, not hidden. Halving the widths takes 4 times the games "
          "(over the 15-minute budget on 2 cores); `--games` sets it.",
          _constraints_line(res), ""]
    md += _changes(res)
    flips = res["oat"][res["oat"]["flipped"]]
    md += ["## Flips (one parameter at a time)", "",
           "`clear`: beyond the noise. `measure`: the headline's measure (see docs/robustness.md) "
           "in the variant; `base_measure`: at the defaults.", "",
           markdown_table(flips[["headline", "parameter", "value", "conclusion", "base_conclusion",
                                 "clear", "measure", "base_measure"]]) if len(flips) else "None.", ""]
    if len(res["morris"]):
        top = (res["morris"].sort_values("mu_star", ascending=False).groupby("headline").head(3))
        md += ["## Morris screening: the three most influential parameters per headline", "",
               markdown_table(top), ""]
    md += ["## Figures", ""] + [f"![{f}](figures/{f}.png)" for f in figs] + [""]
    md += ["Tables: `verdicts.csv`, `one_at_a_time.csv`, `morris.csv`, `defaults.json`.", ""]
    return "\n".join(md)


def _factor_lines(res) -> list[str]:
    """The design bullet on the game's named factors measured (e.g. the map), if any."""
    from .robustness import chosen_factors
    out = []
    for name, f in chosen_factors(res["design"]).items():
        levels = "; ".join(f"{label} (`{', '.join(f'{k}={json.dumps(x)}' for k, x in over.items())}`)"
                           for label, over in f["levels"].items())
        out.append(f"- `{name}`, a factor of named levels (the game's own, one at a time, not in the "
                   f"Morris screening; the parameters its levels set are studied only through it): "
                   f"the defaults' {f['default']}, and {levels}. The `across {name}` column says "
                   f"whether each headline holds on every {name} or on which it differs.")
    return out


def _groups_lines(res) -> list[str]:
    """The design bullet on the groups studied as one factor (``--group``), if any."""
    from .robustness import group_members
    groups = group_members(res["rules"], res["design"])
    if not groups:
        return []
    pats = dict(res["design"].groups)
    return ["- Groups moved as one factor (`--group`; one at a time: every member to the low or "
            "high end of its range together, or every member to its i-th alternative together; in "
            "the Morris screening the members of a group step together): " + "; ".join(
                f"`{g}` = {len(m)} parameters ({', '.join(f'`{x}`' for x in pats[g])})"
                for g, m in groups.items()) + "."]


def _constraints_line(res) -> str:
    """The design bullet on the rulebook's constraints ([constraint] in the rules data)."""
    rules = res["rules"]
    tied = rules.tied
    ineq = [f"`{a}` {op} `{b}`" for a, (op, b) in rules.constraints.items() if op != "="]
    line = ("- Every variant obeys the rules' constraints ([constraint] in the rules data, the "
            "rulebook's relations between parameters; docs/rules.md).")
    if tied:
        line += (" Tied parameters have no range of their own and move with their leader: "
                 + ", ".join(f"`{b}` moves `{a}`" for a, b in tied.items()) + ".")
    if ineq:
        line += (" Bound by an inequality (" + ", ".join(ineq) + "): swept one at a time over the "
                 "part of the range legal with the other parameters at their defaults, and drawn "
                 "in the Morris screening from the part legal given the point's other values.")
    n, rep = res.get("morris_points", 0), res.get("morris_repaired", {})
    if n:
        reset = sorted({p for r in rep.values() for p in r})
        line += (f" {len(rep)} of {n} Morris points drew a board the rules refuse as a whole (e.g. "
                 "every port closed at some player count) and kept the fewest drawn values at their "
                 "defaults" + (f" ({', '.join(reset)})" if reset else "") + ".")
    return line


def _changes(res) -> list[str]:
    """'Changes since the previous study': the verdicts that moved against the
    report this one replaced (when there was one)."""
    prev = res.get("previous")
    if prev is None:
        return []
    ch = verdict_changes(prev, res["verdicts"])
    old = prev.attrs.get("rules_digest", "?")
    md = ["## Changes since the previous study", "",
          f"Against the report this one replaced (rules `{old}`, now `{res['rules'].digest}`): "
          f"{len(ch)} of {len(res['verdicts'])} headlines changed their conclusion or mark"
          + (":" if len(ch) else "."), ""]
    if len(ch):
        md += [markdown_table(ch), ""]
    return md


REPORT_KIND = "cargo_sim.robustness/1"
REPORT_FILES = ("index.md", "verdicts.csv", "one_at_a_time.csv", "morris.csv", "defaults.json",
                VERDICTS_FILE, "figures")


def _verdicts_json(d: dict) -> bool:
    """verdicts.json of a robustness report (with its kind, or from before it was recorded)."""
    return d.get("kind") == REPORT_KIND or (isinstance(d.get("rules_digest"), str)
                                            and isinstance(d.get("marks"), dict))


def claim_report_folder(out) -> Path:
    """Check ``--out`` before the sweeps run: a new or empty folder, or an
    earlier robustness report (only its files; verdicts.json says so), which
    ``write_report`` replaces whole. A file, or a folder with anything else in
    it, is refused with one line and never touched."""
    own = own_output(REPORT_FILES + (LOCK,), VERDICTS_FILE, _verdicts_json,
                     {"figures": r"(tornado|morris)_[^/]*\.png"})
    folder, _ = claim_folder(out, "robustness report", lambda f: lock_only(f) or own(f))
    return folder


def write_report(res, out, command: str = "") -> Path:
    """Write the report into ``out`` (see ``claim_report_folder``: an earlier
    report there is replaced whole, anything else refused); returns index.md's path."""
    out = claim_report_folder(out)
    tmp = Path(tempfile.mkdtemp(prefix=".robustness-", dir=out.parent))
    try:
        figs = []
        for h in res["base"]:
            save_figure(tornado(res["oat"], h), tmp / "figures" / f"tornado_{h}", formats=("png",))
            figs.append(f"tornado_{h}")
            if len(res["morris"]):
                save_figure(morris_figure(res["morris"], h), tmp / "figures" / f"morris_{h}",
                            formats=("png",))
                figs.append(f"morris_{h}")
        res["verdicts"].to_csv(tmp / "verdicts.csv", index=False)
        res["oat"].to_csv(tmp / "one_at_a_time.csv", index=False)
        res["morris"].to_csv(tmp / "morris.csv", index=False)
        (tmp / "defaults.json").write_text(json.dumps(
            {h: {"conclusion": c, "measures": m, "half_widths": w} for h, (c, m, w) in res["base"].items()},
            indent=1,
            default=float) + "\n", encoding="utf-8")
        (tmp / VERDICTS_FILE).write_text(json.dumps(
            {"kind": REPORT_KIND, "rules_digest": res["rules"].digest,
             "marks": dict(zip(res["verdicts"]["headline"], res["verdicts"]["mark"]))},
            indent=1) + "\n", encoding="utf-8")
        (tmp / "index.md").write_text(_index(res, command, figs), encoding="utf-8")
        os.chmod(tmp, 0o755)
        if (out / LOCK).is_file():     # the writer's lock stays in the folder it holds
            shutil.copyfile(out / LOCK, tmp / LOCK)
        # the claimed folder (empty, or our earlier report) moves to a fresh name of
        # our own, the new one takes its place, then the old one goes
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.replace(out, old)
        try:
            os.replace(tmp, out)
        except BaseException:
            os.replace(old, out)
            raise
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / "index.md"
