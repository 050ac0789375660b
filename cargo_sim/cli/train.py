"""``cargo-sim train strong``: train a game's `strong` bot (``cargo_sim.runners.train``
trains and writes; this module checks the target and passes the options)."""
from __future__ import annotations

from ..core.errors import ConfigError

TARGETS = ("strong",)


def train_command(a, argv) -> int:
    """``cargo-sim train strong``: train the game's strong bot into --out/strong.toml."""
    import shlex
    from .common import load_rules
    from .grammar import PROG, show_progress
    if a.target not in TARGETS:
        raise ConfigError(f"train: unknown target {a.target!r}; the one target is "
                          f"{', '.join(TARGETS)} (cargo-sim train strong --game G --out DIR)")
    from ..core.contract import get_game
    from ..runners.train import train
    game = get_game(a.game_name)
    rules = load_rules(a.rules, a.set, game)
    r = train(game, a.out, seed=a.seed, generations=a.generations, popsize=a.popsize,
              games_per_eval=a.games_per_eval, workers=a.workers, resume=a.resume,
              progress=show_progress(a), rules=rules, rules_file=a.rules,
              command=shlex.join([PROG] + list(argv)))
    print(r.measured.to_string(index=False))
    print(f"wrote {r.path} (copy it to cargo_sim/games/{game.name}/bots/strong.toml to ship it)")
    return 0
