"""The speed of each game's ``strong`` bot (part of ``make bench``): kernel games/s
of 4 x ``strong`` against 4 x ``expert`` on one thread, timed in turn.

Target: ``strong`` keeps at least 25 % of ``expert``'s games/s (at most about 3x
``expert``'s time per decision, a game holding other work than decisions). A game
that has no ``strong`` bot registered yet gets a line saying so. Alone:
``python -c "from cargo_sim.bench import main, strong; strong.run(main.kernel_rate, 3, 0.5)"``.
"""
from __future__ import annotations

STRONG_SHARE = 0.25
PLAYERS = 4


def _median(xs):
    xs = sorted(xs)
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def game_share(name: str, kernel_rate, repeat: int, seconds: float) -> dict:
    """Best games/s of 4 x strong and of 4 x expert in game ``name`` over ``repeat``
    interleaved rounds (a round times each once, so both see the same load), the
    share best / best and the median of the rounds' shares."""
    kernel_rate(PLAYERS, 8, 1, bot="strong", game=name)            # load or compile first
    kernel_rate(PLAYERS, 8, 1, bot="expert", game=name)
    probe = kernel_rate(PLAYERS, 64, 1, bot="expert", game=name)
    n_games = max(64, int(probe * seconds))
    rates = {"strong": [], "expert": []}
    for _ in range(max(1, repeat)):
        for b in rates:
            rates[b].append(kernel_rate(PLAYERS, n_games, 1, bot=b, game=name))
    shares = [s / e for s, e in zip(rates["strong"], rates["expert"])]
    return {"games": n_games, "strong": max(rates["strong"]), "expert": max(rates["expert"]),
            "share": max(rates["strong"]) / max(rates["expert"]), "share_median": _median(shares)}


def run(kernel_rate, repeat: int, seconds: float, say=print) -> dict:
    """Every registered game's line; games without ``strong`` are skipped, said so."""
    from ..core.contract import game_names, get_game
    say(f"strong bots: kernel games/s of {PLAYERS} x strong against {PLAYERS} x expert, 1 thread, "
        f"best of {max(1, repeat)} interleaved rounds (target: strong >= {STRONG_SHARE:.0%} of "
        f"expert's rate)")
    out = {}
    for name in game_names():
        game = get_game(name)
        names = game.bots.names()
        if "strong" not in names or "expert" not in names:
            missing = "strong" if "strong" not in names else "expert"
            say(f"  {game.title}: skipped (no `{missing}` bot registered)")
            out[name] = None
            continue
        r = out[name] = game_share(name, kernel_rate, repeat, seconds)
        say(f"  {game.title}: 4 x strong {r['strong']:,.0f} games/s, 4 x expert "
            f"{r['expert']:,.0f}: {r['share']:.0%} (median of the rounds {r['share_median']:.0%}; "
            f"target >= {STRONG_SHARE:.0%}: {'met' if r['share'] >= STRONG_SHARE else 'NOT met'})")
    return out
