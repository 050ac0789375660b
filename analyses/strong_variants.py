"""One bot against another on rules variants drawn from the rules' plausible ranges.

Does a bot tuned on the default rules (``strong``) still beat ``expert`` when the
rules' estimates move? Each variant is the first point of one Morris trajectory of
the robustness study (``analyses.robustness.morris_design``: every parameter with a
range drawn at once, repaired to legal rules), and each is played as a seat-rotated
tournament with the bot as its focus (``tournament(focus=...)``: its win share and VP
margin, 95 % intervals clustered by deal), the default rules first.

    python -m analyses.strong_variants --bot strong --against expert --seats 2 \\
        --variants 10 --games 200 --seed 20261208 --draw-seed 7
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

from cargo_sim.core.contract import get_game
from cargo_sim.core.errors import ConfigError
from cargo_sim.runners.tournament import tournament

from .robustness import Design, morris_design

SHOWN = ("turns.2", "start_warehouse", "unlimited_coins", "final_turn_phase3", "trade_without_card",
         "tie_break")        # the variants' most telling values, printed beside each row


def variants(rules, n: int, draw_seed: int) -> list[dict]:
    """The rules overrides of ``n`` variants: the first point of each of ``n`` Morris
    trajectories of the robustness study's design."""
    if n < 1:
        raise ConfigError(f"variants must be >= 1, got {n}")
    _problem, _x, points, _resets = morris_design(rules, Design(morris_trajectories=n, seed=draw_seed))
    step = len(points) // n
    return [points[i * step] for i in range(n)]


def run(bot: str, against: str, seats: int, n_variants: int, games: int, seed: int,
        draw_seed: int, game: str = "cargo_noir", workers: int = 1, say=print) -> pd.DataFrame:
    g = get_game(game)
    base = g.Rules.default()
    rows = []
    for i, over in enumerate([{}] + variants(base, n_variants, draw_seed)):
        rules = base.replace(over) if over else base
        moved = {k: v for k, v in over.items() if v != base.flat()[k]}
        res = tournament([bot, against], seats, games=games, seed=seed, rules=rules, workers=workers,
                         progress=False, focus=bot, game=game)
        f = res.focus.iloc[0]
        shown = ", ".join(f"{k}={over[k]}" for k in SHOWN if k in moved)
        rows.append({"variant": "default" if not over else str(i), "moved": len(moved),
                     "deals": int(f["deals"]), "games": int(f["games"]), "share": f["share"],
                     "share_lo": f["share_lo"], "share_hi": f["share_hi"], "margin": f["margin"],
                     "margin_lo": f["margin_lo"], "margin_hi": f["margin_hi"], "shown": shown})
        r = rows[-1]
        say(f"{r['variant']:>7}  {r['moved']:2d} moved  {r['deals']} deals  share {r['share']:.3f} "
            f"[{r['share_lo']:.3f}, {r['share_hi']:.3f}]  margin {r['margin']:+.1f} "
            f"[{r['margin_lo']:+.1f}, {r['margin_hi']:+.1f}]  {shown}")
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.strong_variants", description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", default="strong")
    p.add_argument("--against", default="expert")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--variants", type=int, default=10)
    p.add_argument("--games", type=int, default=200, help="games per variant (both seat orders of a deal)")
    p.add_argument("--seed", type=int, default=20261208, help="the tournaments' seed (the same deals in every variant)")
    p.add_argument("--draw-seed", type=int, default=7, help="the Morris design's seed (which variants)")
    p.add_argument("--game", default="cargo_noir")
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args(argv)
    try:
        run(a.bot, a.against, a.seats, a.variants, a.games, a.seed, a.draw_seed, a.game, a.workers)
    except ConfigError as e:
        print(f"strong_variants: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
