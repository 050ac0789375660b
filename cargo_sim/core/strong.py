"""The `strong` bot: a heuristic family's kernel with trained parameters shipped as
package data.

A game that has one keeps ``bots/strong.toml`` in its package::

    [strong]
    family = "expert"          # the built-in whose kernel and parameter slots it uses
    [strong.params]            # every parameter of that bot, by name
    coin_value = 1.2
    ...
    [provenance]               # written by `cargo-sim train strong` (runners/train.py)
    library_version = "0.1.0"
    rules_digest = "..."
    seed = 1
    command = "cargo-sim train strong --game cargo_noir ..."
    ...

``load_strong(package, registry)`` reads and checks it (one-line ConfigError for
anything wrong); ``register_strong(registry, package)`` registers the bot ``strong``
(after the other heuristics, before the search bots, left out of default mixes).
``TrainSpec`` is what a game's registry declares as ``REGISTRY.train``: how its
strong bot is trained.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources

from .bots import BotSpec, short_repr
from .errors import BotError, ConfigError

__all__ = [
    "STRONG_FILE",
    "STRONG_NAME",
    "StrongData",
    "TrainSpec",
    "load_strong",
    "parse_strong",
    "register_strong",
]

STRONG_NAME = "strong"
STRONG_FILE = ("bots", "strong.toml")      # inside the game's package
MAX_BYTES = 1 << 20                        # a strong.toml is a few KB


@dataclass(frozen=True)
class StrongData:
    """A strong.toml's content: the family bot, its parameter values, the provenance."""
    family: str
    params: dict
    provenance: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TrainSpec:
    """How a game's strong bot is trained (``runners/train.py``).

    ``family``: the built-in bot whose parameters are searched; ``space``: parameter ->
    (low, high), the searched ones (the others keep the family's values); ``fields``:
    player count -> the fields to beat at that count, each a tuple of opponent bot specs
    (cycled over the other seats; perturbed bots such as ``"expert?coin_value=1.4"``
    keep the result from exploiting one deterministic bot); ``weights``: player count ->
    weight of its mean win rate in the objective (default 1 each); ``games_per_eval``:
    games per field and player count for one candidate; ``validation_games``,
    ``fresh_games``: the same for re-playing the finalists and measuring the chosen one.
    """
    family: str
    space: dict
    fields: dict
    weights: dict = field(default_factory=dict)
    games_per_eval: int = 400
    popsize: int = 8
    generations: int = 12
    finalists: int = 4
    validation_games: int = 1600
    fresh_games: int = 4000

    def weight(self, n: int) -> float:
        return float(self.weights.get(n, 1.0))

    def describe(self) -> dict:
        """The spec as plain data (a training's checkpoint records it)."""
        return {"family": self.family, "space": {k: list(map(float, v)) for k, v in self.space.items()},
                "fields": {str(n): [list(f) for f in fs] for n, fs in sorted(self.fields.items())},
                "weights": {str(n): self.weight(n) for n in sorted(self.fields)}}


def parse_strong(text: str, registry=None, where: str = "strong.toml") -> StrongData:
    """A strong.toml's text as StrongData; with ``registry``, checked against it: a
    known family, exactly its parameters, every value within its ranges."""
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where} is not valid TOML ({e})") from None
    strong = d.get("strong")
    if not isinstance(strong, dict) or not isinstance(strong.get("family"), str):
        raise ConfigError(f"{where} needs a [strong] table with family = \"<bot name>\"")
    params = strong.get("params")
    if not isinstance(params, dict) or not params:
        raise ConfigError(f"{where} needs a [strong.params] table with the family's parameters")
    prov = d.get("provenance", {})
    if not isinstance(prov, dict):
        raise ConfigError(f"{where}: provenance must be a table")
    family = strong["family"]
    values = {}
    for k, v in params.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{where}: parameter {k!r} must be a number, got {short_repr(v)}")
        values[k] = float(v)
    if registry is not None:
        values = check_against(registry, family, values, where)
    return StrongData(family, values, prov)


def check_against(registry, family: str, values: dict, where: str) -> dict:
    """``values`` in the family's slot order, checked (one ConfigError line)."""
    spec = registry.builtin.get(family)
    if spec is None or spec.search or family == STRONG_NAME:
        known = ", ".join(b for b in registry.builtin_order
                          if not registry.builtin[b].search and registry.builtin[b].params)
        raise ConfigError(f"{where}: family {family!r} is not a built-in bot with parameters "
                          f"of {registry.game} (known: {known})")
    unknown = [k for k in values if k not in spec.params]
    if unknown:
        raise ConfigError(f"{where}: {family!r} has no parameter {unknown[0]!r}")
    missing = [k for k in spec.params if k not in values]
    if missing:
        raise ConfigError(f"{where}: parameter {missing[0]!r} of {family!r} is missing "
                          f"(every parameter is given; retrain or add it)")
    try:
        return {k: spec.value(k, values[k]) for k in spec.params}
    except BotError as e:
        raise ConfigError(f"{where}: {e}") from None


def strong_path(package: str):
    """The strong.toml resource of a game package (inside a wheel too)."""
    try:
        return resources.files(package).joinpath(*STRONG_FILE)
    except (ModuleNotFoundError, TypeError) as e:
        raise ConfigError(f"no game package {package!r} ({e})") from None


def load_strong(package: str, registry=None) -> StrongData:
    """The strong bot of game package ``package`` (e.g. ``"cargo_sim.games.cargo_noir"``),
    from its ``bots/strong.toml``; checked against ``registry`` when given."""
    path = strong_path(package)
    where = f"{package} bots/strong.toml"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{where} is missing (train one: cargo-sim train strong)") from None
    except OSError as e:
        raise ConfigError(f"{where} cannot be read: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise ConfigError(f"{where} is larger than {MAX_BYTES} bytes: not a strong.toml")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{where} is not UTF-8 text") from None
    return parse_strong(text, registry, where)


def provenance_sentence(data: StrongData) -> str:
    """One sentence: how the parameters were obtained."""
    p = data.provenance
    if not p:
        return "Its parameters carry no provenance record."
    bits = [f"seed {p['seed']}" if "seed" in p else "",
            f"{p['generations']} generations" if "generations" in p else "",
            f"{p['games_played']:,} games" if isinstance(p.get("games_played"), int) else "",
            f"rules {p['rules_digest']}" if "rules_digest" in p else "",
            f"library {p['library_version']}" if "library_version" in p else "",
            str(p["date"])[:10] if "date" in p else ""]
    how = ", ".join(b for b in bits if b)
    return f"Trained by `{p.get('command', 'cargo-sim train strong')}`" + (f" ({how})." if how else ".")


def register_strong(registry, package: str) -> BotSpec:
    """Register the built-in ``strong`` bot of ``registry`` from ``package``'s
    strong.toml: the family's kernel and ranges with the trained values as defaults,
    left out of the default mixes. Call it after the other heuristics and before the
    search bots (so it is one of their models)."""
    data = load_strong(package, registry)
    family = registry.builtin[data.family]
    doc = (f"The `{data.family}` heuristic with parameters trained against a field of bots "
           f"at several player counts (bots/strong.toml; docs/bots.md, \"The strong bot\"). "
           + provenance_sentence(data) + " Tunable through all of the family's parameters.")
    spec = BotSpec(STRONG_NAME, family.decide, dict(data.params), doc, ranges=dict(family.ranges),
                   in_mix=False)
    registry.register_builtin(spec)
    return spec

