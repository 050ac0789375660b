"""Do a game's balance headlines hold under strong play? (docs/robustness.md)

The reports draw their seat, card, bank and score-source conclusions from mirror tables
(one bot in every seat). This module measures those headlines on any mirror tables'
player-game rows (``n_players``, ``game``, ``seat``, ``win_share`` and the columns a
headline reads) and sets them side by side for three kinds of player:

* ``strong`` (the heuristic family with trained parameters) at scale,
* a search (``ismcts?iterations=1000``) on a subsample: the expensive check,
* the heuristic bots the reports used so far, so a reader sees which conclusions were
  artefacts of a weak bot.

Headlines (``HEADLINES`` per game): ``seat.N`` the seat that wins most among N identical
bots (every seat's share; differences paired by game, since the seats of one game are not
independent); ``card.N`` the card whose holders (one copy or more at the end) win most;
``bank.N`` the share of games with a bank shortfall, in the robustness bands; ``source.N``
the winners' largest source of points.

A bot's answer is **decided** when the leader leads every other option by more than the
95 % half-width of their difference (for ``bank``: the share's interval lies inside its
band). Otherwise the games that would decide it are n x (half-width / lead)^2: the
half-width shrinks as 1/sqrt(n), so with the observed lead and per-game variance this is
the sample at which the closest option's lead equals its half-width. A headline **holds
under strong play** when ``strong`` decides it and the search's subsample agrees: no
option's estimate differs between the two beyond the 95 % half-width of a two-sample
difference (games of the two tables independent) and the search does not decide another
answer. reports/balance/strong_play.py plays the tables and writes the committed ones;
``section`` renders them.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from .markdown import markdown_table
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.fileio import atomic_write_text, read_json

from .robustness import BANK_BANDS
from .robustness_marks import REPORT_DIR as ROBUSTNESS_DIR, VERDICTS_FILE
from .stats import wilson_ci

ROOT = Path(__file__).resolve().parents[1]
TABLES = {"cargo_noir": ROOT / "reports" / "balance" / "tables", "macao": ROOT / "reports" / "macao" / "tables"}
HOLDS = "holds under strong play"
DISAGREE = "strong and search disagree"
UNDECIDED = "not decided"
MIN_HOLDERS = 20        # a card is compared only when this many player-games held it
Z = 1.959963984540054


class Measure:
    """One bot's estimate of one headline: ``est``/``ci``/``se`` per option, the 95 %
    half-width of each ordered pair's difference, the games, and for a share headline
    (one option, ``share``) nothing more: its conclusion is its band."""

    def __init__(self, est, ci, se, pair_hw, games):
        self.est, self.ci, self.se, self.pair_hw, self.games = est, ci, se, pair_hw, games

    @property
    def is_share(self) -> bool:
        return set(self.est) == {"share"}

    def conclusion(self) -> str:
        if self.is_share:
            return band(self.est["share"])[2]
        return max(self.est, key=self.est.get) if self.est else "none"

    def decide(self) -> tuple[bool, float, float, float]:
        """(decided, games that would decide it, lead, its 95 % half-width): the lead of
        the closest option (for a share: the distance to the nearer inner band edge)."""
        if not self.est:
            return False, math.inf, 0.0, math.inf
        if self.is_share:
            p, (lo, hi) = self.est["share"], self.ci["share"]
            blo, bhi, _ = band(p)
            edges = [e for e in (blo, bhi) if 0.0 < e < 1.0]
            lead = min(abs(p - e) for e in edges)
            hw = (hi - lo) / 2
            decided = lo >= blo and hi < bhi
        else:
            c = self.conclusion()
            others = [o for o in self.est if o != c]
            if not others:
                return False, math.inf, 0.0, math.inf
            # the hardest pair to separate: the largest (half-width / lead)
            o = max(others, key=lambda o: _ratio(self.pair_hw[(c, o)], self.est[c] - self.est[o]))
            lead, hw = self.est[c] - self.est[o], self.pair_hw[(c, o)]
            decided = all(self.est[c] - self.est[x] > self.pair_hw[(c, x)] for x in others)
        return decided, games_to_decide(self.games, hw, lead), lead, hw


def _ratio(hw: float, lead: float) -> float:
    return math.inf if lead <= 0 else hw / lead


def games_to_decide(n: int, hw: float, lead: float) -> float:
    """Games at which a lead ``lead`` measured on ``n`` games with 95 % half-width ``hw``
    would equal its half-width: n x (hw / lead)^2 (inf without a lead)."""
    if lead <= 0 or not math.isfinite(hw):
        return math.inf
    return n * (hw / lead) ** 2


def band(share: float) -> tuple[float, float, str]:
    """(low edge, high edge, label) of the robustness band holding ``share``."""
    lo = 0.0
    for hi, label in BANK_BANDS:
        if share < hi:
            return lo, hi, label
        lo = hi
    raise ValueError(f"share {share} outside [0, 1]")


def _t_hw(x: np.ndarray) -> float:
    """95 % t half-width of the mean of ``x``."""
    if len(x) < 2:
        return math.inf
    return float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))


def _rate(k: float, n: int) -> tuple[float, tuple, float]:
    lo, hi = wilson_ci(k, n)
    return k / n, (lo, hi), (hi - lo) / (2 * Z)


# ---- the headlines ------------------------------------------------------------------
def seat(d: pd.DataFrame) -> Measure:
    """Each seat's win share among the games of ``d`` (one player count); a pair's
    difference paired by game."""
    n = d["game"].nunique()
    est, ci, se = {}, {}, {}
    for s, x in d.groupby("seat")["win_share"]:
        est[f"seat {s}"], ci[f"seat {s}"], se[f"seat {s}"] = _rate(x.sum(), n)
    w = d.pivot(index="game", columns="seat", values="win_share")
    pair = {(f"seat {a}", f"seat {b}"): _t_hw((w[a] - w[b]).to_numpy())
            for a in w.columns for b in w.columns if a != b}
    return Measure(est, ci, se, pair, n)


def bank(d: pd.DataFrame) -> Measure:
    """The share of games with a bank shortfall (``shortfalls`` > 0)."""
    g = d.drop_duplicates("game")
    est, ci, se = _rate(int((g["shortfalls"] > 0).sum()), len(g))
    return Measure({"share": est}, {"share": ci}, {"share": se}, {}, len(g))


def card(d: pd.DataFrame) -> Measure:
    """Each card's holders' win rate (cards held by at least MIN_HOLDERS and 2 % of the
    player-games); a pair's difference combines their half-widths (holders of two cards
    overlap little)."""
    est, ci, se = {}, {}, {}
    for col in (c for c in d.columns if c.startswith("card_")):
        held = d[d[col] >= 1]
        if len(held) >= max(MIN_HOLDERS, 0.02 * len(d)):
            est[col[5:]], ci[col[5:]], se[col[5:]] = _rate(held["win_share"].sum(), len(held))
    hw = {c: Z * s for c, s in se.items()}
    pair = {(a, b): float(np.hypot(hw[a], hw[b])) for a in est for b in est if a != b}
    return Measure(est, ci, se, pair, d["game"].nunique())


def source(d: pd.DataFrame, sources) -> Measure:
    """The winners' mean points from each source (``sources``: column -> label); a pair's
    difference paired by winner (the same player's points)."""
    w = d[d["win_share"] > 0]
    est, ci, se = {}, {}, {}
    for col, label in sources.items():
        x = w[col].to_numpy(float)
        h = _t_hw(x)
        est[label], ci[label], se[label] = float(x.mean()), (x.mean() - h, x.mean() + h), h / Z
    pair = {(sources[a], sources[b]): _t_hw((w[a] - w[b]).to_numpy(float))
            for a in sources for b in sources if a != b}
    return Measure(est, ci, se, pair, d["game"].nunique())


def macao_sources(d: pd.DataFrame) -> Measure:
    """Macao's score sources (its report's ``score_breakdown``, penalties left out: they
    are never the largest); the city group's points are its size x the rules' points."""
    import importlib
    from cargo_sim.core.contract import get_game
    game = get_game("macao")          # the analyses reach a game through the contract only
    gp = int(game.Rules.default()["group_points"])
    cols = dict(importlib.import_module(game.robustness).SOURCES)
    cols.pop("penalty")
    return source(d.assign(group_vp=d["group"] * gp), cols)


HEADLINES = {"cargo_noir": (("seat", seat), ("bank", bank), ("card", card)),
             "macao": (("seat", seat), ("source", macao_sources))}
# the players columns each game's headlines read (a trailing * takes a prefix; shortfalls
# joins from the games table)
COLUMNS = {"cargo_noir": ["game", "seat", "win_share", "shortfalls", "card_*"],
           "macao": ["game", "seat", "win_share", "delivery_vp", "tribute_vp", "card_vp", "end_vp",
                     "group", "penalty_vp"]}


def headlines(rows: pd.DataFrame, game: str = "cargo_noir") -> dict[str, Measure]:
    """headline (``seat.2``, ...) -> Measure of one bot's mirror rows (any player counts)."""
    if game not in HEADLINES:
        raise ConfigError(f"strong play: no headlines for game {game!r} (known: {', '.join(HEADLINES)})")
    out = {}
    for n, d in rows.groupby("n_players", sort=True):
        for name, fn in HEADLINES[game]:
            out[f"{name}.{n}"] = fn(d)
    return out


# ---- comparing the bots -------------------------------------------------------------
def differs(a: Measure, b: Measure) -> dict[str, tuple[float, float]]:
    """option -> (a's estimate minus b's, 95 % half-width) where the two differ beyond it
    (two-sample: the games of the two tables are independent)."""
    out = {}
    for o in a.est:
        if o in b.est:
            diff, hw = a.est[o] - b.est[o], Z * math.hypot(a.se[o], b.se[o])
            if abs(diff) > hw:
                out[o] = (diff, hw)
    return out


def verdict(strong: Measure, search: Measure | None) -> tuple[str, str]:
    """(verdict, why) of one headline from ``strong``'s tables at scale and the search's
    subsample (None: not played at this count)."""
    dec, need, _, _ = strong.decide()
    c = strong.conclusion()
    if search is None:
        return UNDECIDED, "no search games at this player count"
    sdec = search.decide()[0]
    sc = search.conclusion()
    if sdec and sc != c:
        return DISAGREE, f"the search decides {sc}, strong {c}"
    diff = differs(strong, search)
    if diff:
        return DISAGREE, "; ".join(f"{o}: strong {d:+.3f} ± {hw:.3f} against the search" for o, (d, hw) in diff.items())
    if not dec:
        return UNDECIDED, f"strong's {c} not clear of the next; about {_games(need)} games would decide it"
    if not strong.is_share and c not in search.est:
        return UNDECIDED, f"strong decides {c}; too few of the search's games to estimate it"
    if sc == c:
        return HOLDS, f"{c} in both" + ("" if sdec else "; the search's own lead within its noise")
    return HOLDS, f"no option differs between the two; the search's best ({sc}) within its noise"


def _games(x: float) -> str:
    if not math.isfinite(x):
        return "no number of"
    return f"{int(float(f'{math.ceil(x):.2g}')):,}"


def compare(measures: dict[str, dict[str, Measure]], strong: str, search: str, heuristics) -> tuple:
    """(verdicts, options): ``measures`` bot -> headlines. One verdict row per headline
    of ``strong`` (its answer, decided or the games to decide it, the search's, the
    verdict, and each heuristic's answer with 'same'/'differs'/'not decided'); one
    options row per headline, bot and option (estimate, interval, games)."""
    rows, opts = [], []
    for h, m in measures[strong].items():
        s = measures.get(search, {}).get(h)
        dec, need, lead, hw = m.decide()
        row = {"headline": h, "players": int(h.split(".")[1]), "strong_bot": strong, "strong_games": m.games,
               "strong_conclusion": m.conclusion(), "strong_decided": dec, "strong_lead": lead,
               "strong_lead_hw": hw, "strong_games_to_decide": need, "search_bot": search,
               "search_games": s.games if s else 0, "search_conclusion": s.conclusion() if s else "",
               "search_decided": s.decide()[0] if s else False,
               "search_games_to_decide": s.decide()[1] if s else math.inf}
        row["verdict"], row["why"] = verdict(m, s)
        for b in heuristics:
            x = measures[b].get(h)
            if x is None:
                row[b] = ""
                continue
            hd = x.decide()[0]
            mark = "not decided" if not hd else ("same" if x.conclusion() == m.conclusion() else "differs")
            row[b] = f"{x.conclusion()} ({mark})"
        rows.append(row)
        for b in (strong, search, *heuristics):
            x = measures.get(b, {}).get(h)
            for o in (x.est if x else {}):
                opts.append({"headline": h, "bot": b, "option": o, "estimate": x.est[o],
                             "ci_lo": x.ci[o][0], "ci_hi": x.ci[o][1], "games": x.games})
    return pd.DataFrame(rows), pd.DataFrame(opts)


# ---- rendering ----------------------------------------------------------------------
def _num(x: float, points: bool) -> str:
    return f"{x:.1f}" if points else f"{x:.3f}"


def section(tab: Path, digest: str | None = None, note: str = "") -> str:
    """Markdown: the verdicts and estimates of the committed strong-play tables in
    ``tab`` (or a line saying there are none, or that they were made with other rules
    than ``digest``)."""
    tab = Path(tab)
    vpath, opath = tab / "strong_play.csv", tab / "strong_play_options.csv"
    if not vpath.is_file() or not opath.is_file():
        return "Not assessed: no strong-play tables (reports/balance/strong_play.py writes them)."
    t, o = pd.read_csv(vpath), pd.read_csv(opath)
    if "strong_bot" not in t.columns:
        return "Not assessed: the strong-play table predates this layout (reports/balance/strong_play.py remakes it)."
    made = str(t["rules_digest"].iloc[0]) if "rules_digest" in t.columns and len(t) else "?"
    if digest is not None and made != digest:
        return (f"Not assessed for these rules: the strong-play tables were made with rules `{made}` "
                "(reports/balance/strong_play.py remakes them).")
    strong, search = t["strong_bot"].iloc[0], t["search_bot"].iloc[0]
    fixed = {"headline", "players", "strong_bot", "strong_games", "strong_conclusion", "strong_decided",
             "strong_lead", "strong_lead_hw", "strong_games_to_decide", "search_bot", "search_games",
             "search_conclusion", "search_decided", "search_games_to_decide", "verdict", "why", "rules_digest"}
    heur = [c for c in t.columns if c not in fixed]

    def answer(conc, dec, need, games):
        return f"{conc} (decided)" if dec else f"{conc} (not decided; ~{_games(need)} games)" if games else "—"

    show = pd.DataFrame({
        "headline": t["headline"],
        f"`{strong}`": [answer(*r) for r in zip(t["strong_conclusion"], t["strong_decided"],
                                               t["strong_games_to_decide"], t["strong_games"])],
        "games": t["strong_games"],
        f"`{search}`": [answer(*r) for r in zip(t["search_conclusion"].fillna(""), t["search_decided"],
                                               t["search_games_to_decide"], t["search_games"])],
        "games ": t["search_games"], "verdict": t["verdict"], "why": t["why"],
        **{f"`{b}`": t[b].fillna("") for b in heur}})
    o = o.assign(cell=[f"{_num(e, h.startswith('source'))} [{_num(lo, h.startswith('source'))}, "
                       f"{_num(hi, h.startswith('source'))}]"
                       for e, lo, hi, h in zip(o["estimate"], o["ci_lo"], o["ci_hi"], o["headline"])])
    # cards: the options some bot's answer names, and strong's three best
    keep = set()
    for (h, b), d in o.groupby(["headline", "bot"]):
        k = 3 if b == strong else 1
        keep |= {(h, x) for x in d.sort_values("estimate", ascending=False)["option"].head(k)}
    o = o[[(h, x) in keep or not h.startswith("card") for h, x in zip(o["headline"], o["option"])]]
    wide = o.pivot_table(index=["headline", "option"], columns="bot", values="cell", aggfunc="first")
    order = {h: i for i, h in enumerate(t["headline"])}
    wide = wide.reset_index().sort_values(["headline", "option"], key=lambda s: s.map(order) if s.name == "headline" else s)
    wide = wide[["headline", "option"] + [b for b in (strong, search, *heur) if b in wide.columns]].fillna("—")
    wide.columns = ["headline", "option"] + [f"`{b}`" for b in wide.columns[2:]]
    return (f"Mirror tables (one bot in every seat) of `{strong}` and of `{search}` (a subsample), beside "
            "the heuristic bots' (reports/balance/strong_play.py; tables `strong_play.csv`, the verdicts, and "
            "`strong_play_options.csv`, every estimate). An answer is decided when its lead over every other "
            "option exceeds the 95 % half-width of their difference (seats paired by game; for `bank`, the "
            "share's interval inside its band); otherwise the games that would decide it are n x (half-width / "
            "lead)^2 with the observed lead and variance. A headline holds under strong play when "
            f"`{strong}` decides it and no option's estimate differs between `{strong}` and `{search}` beyond "
            "the 95 % half-width of the two-sample difference. Beside them, each heuristic's answer: same, "
            "differs (a conclusion of that bot that strong play does not share) or not decided."
            + (f" {note}" if note else "") + "\n\n" + markdown_table(show)
            + "\n\nEstimates [95 % interval] (seat: win share; card: the holders' win rate, strong's three best "
              "and each bot's best; bank: share of games with a shortfall; source: winners' mean points):\n\n"
            + markdown_table(wide))


BLOCK = re.compile(r"(<!-- strong_play -->\n).*?(\n<!-- /strong_play -->)", re.S)


def block(tab: Path, digest: str | None = None) -> str:
    """``section`` between the markers ``update_section`` replaces."""
    return f"<!-- strong_play -->\n{section(tab, digest)}\n<!-- /strong_play -->"


def update_section(index, tab: Path, digest: str | None = None, before: str | None = None,
                   heading: str = "## Under strong play") -> bool:
    """Replace the ``<!-- strong_play -->`` ... ``<!-- /strong_play -->`` block of a
    written report's index.md with ``section(tab, digest)``, without replaying any game;
    a file without the block gets it under ``heading`` just above the line ``before``
    (a heading) when given. Returns False (and writes nothing) when there is neither."""
    index = Path(index)
    text = index.read_text(encoding="utf-8")
    if BLOCK.search(text):
        new = BLOCK.sub(lambda m: m.group(1) + section(tab, digest) + m.group(2), text)
    elif before is not None and f"\n{before}\n" in text:
        head, tail = text.split(f"\n{before}\n", 1)
        new = f"{head}\n{heading}\n\n{block(tab, digest)}\n\n{before}\n{tail}"
    else:
        return False
    if new != text:
        atomic_write_text(index, new)
    return True


def update_robustness(folder=ROBUSTNESS_DIR, tab: Path = TABLES["cargo_noir"]) -> bool:
    """Re-render the strong-play block of a written robustness report's index.md (for
    the rules its verdicts.json names) from the tables alone: the study is not replayed."""
    folder = Path(folder)
    try:
        digest = read_json(folder / VERDICTS_FILE, 2**20, "robustness verdicts").get("rules_digest")
    except ConfigError:
        return False
    return update_section(folder / "index.md", tab, str(digest), before="## Design",
                          heading="## Under stronger play")
