"""Do the balance headlines hold under stronger play? (docs/robustness.md)

The balance and robustness reports draw their seat, card and bank conclusions from
mirror tables of ``expert``. This module measures the same headlines on any mirror
table's games (``players``/``games`` tables of ``cargo_sim.simulate``) and compares
two of them — ``expert``'s and a stronger search's — headline by headline:

* ``seat.N`` — the seat that wins most among N identical bots;
* ``card.N`` — the card whose holders (one copy or more at the end) win most often;
* ``bank.N`` — the share of games with a bank shortfall, in the robustness bands.

``verdict`` says for each headline "holds under stronger play", "does not hold" or
"not decidable at this sample", by the robustness study's notion of a clear
difference (a lead larger than the 95 % half-width of the difference).
reports/balance/strong_play.py plays the tables and writes the committed table;
``section`` renders it for the balance and robustness reports.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from .markdown import markdown_table
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.fileio import read_json

from .robustness import BANK_BANDS
from .robustness_marks import REPORT_DIR as ROBUSTNESS_DIR, VERDICTS_FILE
from .stats import wilson_ci

HOLDS, FAILS, UNDECIDED = "holds under stronger play", "does not hold", "not decidable at this sample"
TABLE = Path(__file__).resolve().parents[1] / "reports" / "balance" / "tables" / "strong_play.csv"
MIN_HOLDERS = 20        # a card is compared only when this many player-games held it


def band(share: float) -> tuple[float, float, str]:
    """(low edge, high edge, label) of the robustness band holding ``share``."""
    lo = 0.0
    for hi, label in BANK_BANDS:
        if share < hi:
            return lo, hi, label
        lo = hi
    raise ValueError(f"share {share} outside [0, 1]")


def _paired_hw(w: pd.DataFrame, a: int, b: int) -> float:
    """95 % t half-width of the mean per-game difference of seats a and b's win
    shares (``w``: game x seat; the seats of one game are not independent: at 2
    players they sum to 1)."""
    diff = (w[a] - w[b]).to_numpy()
    if len(diff) < 2:
        return float("inf")
    return float(stats.t.ppf(0.975, len(diff) - 1) * diff.std(ddof=1) / np.sqrt(len(diff)))


def headlines(players: pd.DataFrame, games: pd.DataFrame) -> dict:
    """headline -> (conclusion, {option: estimate}, {option: (95 % lo, hi)}, n games,
    {(a, b): 95 % half-width of a's estimate minus b's}) of the mirror tables in
    ``players``/``games`` (one or more player counts). Intervals are Wilson's; a seat
    pair's difference is paired by game; a card pair's combines their half-widths
    (holders of two cards overlap little). ``bank``'s only option is ``share``."""
    g = games.set_index("game")["n_players"]
    p = players.assign(n_players=players["game"].map(g).to_numpy())
    out = {}
    for n, d in p.groupby("n_players", sort=True):
        n_games = d["game"].nunique()
        wr = d.groupby("seat")["win_share"].agg(["sum", "mean"]).sort_index()
        ci = {f"seat {s}": wilson_ci(r["sum"], n_games) for s, r in wr.iterrows()}
        w = d.pivot(index="game", columns="seat", values="win_share")
        pair = {(f"seat {a}", f"seat {b}"): _paired_hw(w, a, b) for a in wr.index for b in wr.index if a != b}
        out[f"seat.{n}"] = (f"seat {int(wr['mean'].idxmax())}",
                            {f"seat {s}": float(x) for s, x in wr["mean"].items()}, ci, n_games, pair)
        gg = games[games["n_players"] == n]
        k = int((gg["shortfalls"] > 0).sum())
        share = k / len(gg)
        out[f"bank.{n}"] = (band(share)[2], {"share": share}, {"share": wilson_ci(k, len(gg))}, len(gg), {})
        rate, ci = {}, {}
        for col in (c for c in d.columns if c.startswith("card_")):
            held = d[d[col] >= 1]
            if len(held) >= max(MIN_HOLDERS, 0.02 * len(d)):
                rate[col[5:]] = float(held["win_share"].mean())
                ci[col[5:]] = wilson_ci(held["win_share"].sum(), len(held))
        hw = {c: (hi - lo) / 2 for c, (lo, hi) in ci.items()}
        pair = {(a, b): float(np.hypot(hw[a], hw[b])) for a in rate for b in rate if a != b}
        out[f"card.{n}"] = (max(rate, key=rate.get) if rate else "none", rate, ci, n_games, pair)
    return out


def _leads(h: tuple, a: str, b: str) -> bool:
    """``a`` ahead of ``b`` by more than the 95 % half-width of their difference."""
    return h[1][a] - h[1][b] > h[4][(a, b)]


def clear(h: tuple) -> bool:
    """The conclusion of one side is beyond its own noise: the best option leads every
    other clearly (for ``bank``: the share's interval lies inside its band)."""
    concl, vals = h[0], h[1]
    if "share" in vals:
        lo, hi, _ = band(vals["share"])
        return h[2]["share"][0] >= lo and h[2]["share"][1] < hi
    return concl in vals and all(_leads(h, concl, o) for o in vals if o != concl)


def verdict(headline: str, base: tuple, strong: tuple) -> tuple[str, str]:
    """(verdict, why) for one headline: ``base`` from the ``expert`` tables, ``strong``
    from the stronger search's (``headlines`` tuples). It holds when the strong tables
    reach the same conclusion beyond their noise; it does not hold when they clearly
    contradict it (another option leads the base's winner beyond the noise; the
    shortfall share's interval lies outside the base's band); otherwise the sample
    cannot tell. A base conclusion within its own noise is not decidable either."""
    if not clear(base):
        return UNDECIDED, "expert's own conclusion is within its noise"
    if headline.startswith("bank"):
        lo, hi, _ = band(base[1]["share"])
        slo, shi = strong[2]["share"]
        where = f"share interval [{slo:.3f}, {shi:.3f}]"
        if shi < lo or slo >= hi:
            return FAILS, f"{where} outside {base[0]}"
        if slo >= lo and shi < hi:
            return HOLDS, f"{where} inside {base[0]}"
        return UNDECIDED, f"{where} crosses a band edge"
    c = base[0]
    if c not in strong[1]:
        return UNDECIDED, f"{c} too rare in the strong tables"
    beat = [o for o in strong[1] if o != c and _leads(strong, o, c)]
    if beat:
        return FAILS, f"{', '.join(beat)} clearly ahead of {c}"
    if strong[0] == c and clear(strong):
        return HOLDS, f"{c} clearly ahead of every other"
    return UNDECIDED, f"{c} not clearly ahead (strong tables' best: {strong[0]})"


def compare(base: dict, strong: dict, base_bot: str, strong_bot: str) -> pd.DataFrame:
    """One row per headline in both: each side's conclusion, the estimate of the
    base's conclusion on each side with its 95 % interval, games, and the verdict."""
    rows = []
    for h in (h for h in base if h in strong):
        b, s = base[h], strong[h]
        row = {"headline": h, "players": int(h.split(".")[1]), "expert_bot": base_bot,
               "expert_conclusion": b[0], "expert_games": b[3], "strong_bot": strong_bot,
               "strong_conclusion": s[0], "strong_games": s[3]}
        key = "share" if h.startswith("bank") else b[0]
        for side, x in (("expert", b), ("strong", s)):
            lo, hi = x[2].get(key, (np.nan, np.nan))
            row.update({f"{side}_estimate": x[1].get(key, np.nan), f"{side}_ci_lo": lo, f"{side}_ci_hi": hi})
        row["verdict"], row["why"] = verdict(h, b, s)
        rows.append(row)
    return pd.DataFrame(rows)


def section(path=TABLE, digest: str | None = None) -> str:
    """Markdown: the verdicts of the committed strong-play table (or a line saying
    there is none, or that it was made with other rules than ``digest``)."""
    path = Path(path)
    if not path.is_file():
        return "Not assessed: no strong-play table (reports/balance/strong_play.py writes it)."
    t = pd.read_csv(path)
    made = str(t["rules_digest"].iloc[0]) if "rules_digest" in t.columns and len(t) else "?"
    if digest is not None and made != digest:
        return (f"Not assessed for these rules: the strong-play table was made with rules `{made}` "
                "(reports/balance/strong_play.py remakes it).")
    ci = lambda s: [f"{e:.3f} [{lo:.3f}, {hi:.3f}]" if e == e else "— (too few holders)"  # noqa: E731
                    for e, lo, hi in zip(t[f"{s}_estimate"], t[f"{s}_ci_lo"], t[f"{s}_ci_hi"])]
    show = pd.DataFrame({
        "headline": t["headline"], "expert: conclusion": t["expert_conclusion"],
        "expert: estimate [95% CI]": ci("expert"), "games": t["expert_games"],
        "strong: conclusion": t["strong_conclusion"],
        "strong: estimate of expert's conclusion [95% CI]": ci("strong"), "games ": t["strong_games"],
        "verdict": t["verdict"]})
    return (f"Mirror tables of `{t['expert_bot'].iloc[0]}` against mirror tables of "
            f"`{t['strong_bot'].iloc[0]}` (reports/balance/strong_play.py; table "
            "`reports/balance/tables/strong_play.csv`, with each verdict's reason). An estimate is "
            "the win rate of the expert tables' best seat, the win rate of holders of their best "
            "card, or the share of games with a bank shortfall.\n\n" + markdown_table(show))


BLOCK = re.compile(r"(<!-- strong_play -->\n).*?(\n<!-- /strong_play -->)", re.S)


def block(path=TABLE, digest: str | None = None) -> str:
    """``section`` between the markers ``update_section`` replaces."""
    return f"<!-- strong_play -->\n{section(path, digest)}\n<!-- /strong_play -->"


def update_section(index, path=TABLE, digest: str | None = None, before: str | None = None) -> bool:
    """Replace the ``<!-- strong_play -->`` ... ``<!-- /strong_play -->`` block of a
    written report's index.md with ``section(path, digest)``, without replaying any
    game; a file without the block gets it just above the line ``before`` (a heading)
    when given. Returns False (and writes nothing) when there is neither."""
    index = Path(index)
    text = index.read_text(encoding="utf-8")
    if BLOCK.search(text):
        new = BLOCK.sub(lambda m: m.group(1) + section(path, digest) + m.group(2), text)
    elif before is not None and f"\n{before}\n" in text:
        head, tail = text.split(f"\n{before}\n", 1)
        new = f"{head}\n## Under stronger play\n\n{block(path, digest)}\n\n{before}\n{tail}"
    else:
        return False
    if new != text:
        from cargo_sim.core.fileio import atomic_write_text
        atomic_write_text(index, new)
    return True


def update_robustness(folder=ROBUSTNESS_DIR, path=TABLE) -> bool:
    """Re-render the strong-play block of a written robustness report's index.md (for
    the rules its verdicts.json names) from the table alone: the study is not replayed."""
    folder = Path(folder)
    try:
        digest = read_json(folder / VERDICTS_FILE, 2**20, "robustness verdicts").get("rules_digest")
    except ConfigError:
        return False
    return update_section(folder / "index.md", path, str(digest), before="## Design")
