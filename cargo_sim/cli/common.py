"""What the ``cargo-sim`` commands share: exit codes, option parsing (``--set``,
``--players``, rules), version stamps and the run summary. Below ``cli`` and
``cli_runs``, which both use it (neither imports the other back).
"""
from __future__ import annotations

import contextlib
import platform
import tomllib

PROG = "cargo-sim"
EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 1                # a fault inside cargo_sim (printed in one line)


# ---------------------------------------------------------------------------
# helpers
def parse_set(items) -> dict:
    """``["start_coins=8", "card.Villa.cost=22"]`` -> ``{"start_coins": 8, ...}``.

    Values are TOML scalars or lists (``8``, ``true``, ``[2, 3]``, ``"text"``); a
    bare word that is not valid TOML is taken as a string (``card.X.kind=edge``).
    """
    from ..core.errors import ConfigError
    out = {}
    for item in items or ():
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key or not raw:
            raise ConfigError(f"bad --set {item!r}: use --set name=value (e.g. --set start_coins=8)")
        try:
            value = tomllib.loads(f"v = {raw}")["v"]
        except RecursionError:
            raise ConfigError(f"bad --set {key}: the value is nested too deeply") from None
        except tomllib.TOMLDecodeError:
            if raw.replace("_", "").replace("-", "").replace(" ", "").isalnum() and not raw[0].isdigit():
                value = raw
            else:
                raise ConfigError(f"bad --set {item!r}: {raw!r} is not a number, true/false, "
                                  "quoted string or [list]") from None
        if isinstance(value, dict):
            raise ConfigError(f"bad --set {item!r}: tables are not rules values")
        out[key] = value
    return out


def load_rules(rules_file, sets, game=None):
    """The game's default rules, then the rules file, then the ``--set`` overrides."""
    from ..core.contract import get_game
    Rules = get_game(game).Rules
    rules = Rules.from_file(rules_file) if rules_file else Rules.default()
    overrides = parse_set(sets)
    return rules.replace(overrides) if overrides else rules


def parse_players(text: str) -> list[str]:
    from ..core.errors import ConfigError
    players = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in players):
        raise ConfigError(f"bad --players {text!r}: give one bot name per seat, "
                          "separated by commas (e.g. random,random,random)")
    return players




def jsonable(v):
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):   # numpy scalar
        return v.item()
    return v


DEPENDENCIES = ("numpy", "numba", "llvmlite", "pandas", "scipy", "pyarrow", "matplotlib", "tqdm",
                "SALib", "Markdown", "tomli-w")


def versions() -> dict:
    """cargo_sim's, Python's and every dependency's version (from the installed
    packages' metadata: nothing is imported); a missing package is absent."""
    from importlib import metadata
    from ..core.version import __version__
    out = {"cargo_sim": __version__, "python": platform.python_version()}
    for name in DEPENDENCIES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[name] = metadata.version(name)
    return out


def _estimated_groups(names: list[str]) -> str:
    """'port.*.slots, card.*.cost, turns.*' from a list of estimated parameter names."""
    groups = []
    for n in names:
        parts = n.split(".")
        g = f"{parts[0]}.*.{parts[2]}" if len(parts) == 3 else (f"{parts[0]}.*" if len(parts) == 2 else n)
        if g not in groups:
            groups.append(g)
    return ", ".join(groups)


# ---------------------------------------------------------------------------
# run summaries
def run_headline(n: int, cfg: dict, interrupted: bool, n_players: int, rules, elapsed: float,
                 workers, kind: str = "", played: int | None = None) -> str:
    """First line of a run's summary: games, players, seed, rules, speed (of the
    ``played`` games of this call, when a resumed run holds more)."""
    rate = (n if played is None else played) / elapsed if elapsed > 0 else float("nan")
    return (f"{n:,} games" + (f" of {cfg.get('n_games', n):,} (interrupted)" if interrupted else "")
            + kind + f", {n_players} players, seed {cfg.get('seed')}, "
            f"rules {rules.digest}" + (" (with overrides)" if rules.overrides else "")
            + f"; {elapsed:.2f} s, {rate:,.0f} games/s on "
            + (plural_of(workers, "thread") if isinstance(workers, int) else f"{workers}"))


def plural_of(n: int, one: str) -> str:
    """``1 thread``, ``2 threads``: words, never ``thread(s)``."""
    return f"{n} {one}" + ("" if n == 1 else "s")


def seat_table(rows: list[tuple]) -> list[str]:
    """Aligned text lines: the first two columns left-aligned, the rest right."""
    from ..core.columns import aligned_rows
    return aligned_rows(rows)


def seat_summary(players):
    """The per-seat table of a run from its core columns (seat, bot, win_share, vp,
    rank): games, win_rate, mean_vp, mean_rank by seat."""
    import pandas as pd
    g = players.groupby("seat", observed=True)
    return pd.DataFrame({"bot": g["bot"].first().astype(str), "games": g.size(),
                         "win_rate": g["win_share"].mean(), "mean_vp": g["vp"].mean(),
                         "mean_rank": g["rank"].mean()})


def format_summary(res, elapsed: float, workers, game=None) -> str:
    """The summary of a run in memory (``game``'s results; default Cargo Noir)."""
    from ..core.contract import get_game
    game = get_game(game)
    n = len(res.games)
    return format_summary_of(seat_summary(res.players) if n else None, n,
                             game.summary_counts(res.games) if n else {},
                             res.config, res.interrupted, res.rules, elapsed, workers, game=game)


def format_summary_of(summ, n: int, counts: dict, cfg: dict, interrupted: bool, rules,
                      elapsed: float, workers, played: int | None = None, game=None) -> str:
    """The run summary from a per-seat table (``seat_summary``; None if no game
    finished), the games and the game's own counts (``Game.summary_counts``, in
    memory or summed chunk by chunk), which its ``summary_lines`` print."""
    from ..core.contract import get_game
    from ..core.stats import wilson_interval
    lines = [run_headline(n, cfg, interrupted, len(cfg.get("players", [])), rules,
                          elapsed, workers, played=played)]
    if n == 0:
        lines.append("no games finished")
        return "\n".join(lines)
    rows = [("seat", "bot", "win rate", "95% CI", "mean VP", "mean rank")]
    for seat, r in summ.iterrows():
        lo, hi = wilson_interval(float(r["win_rate"]) * int(r["games"]), int(r["games"]))
        rows.append((str(seat), str(r["bot"]), f"{100 * r['win_rate']:.1f}%",
                     f"[{100 * lo:.1f}%, {100 * hi:.1f}%]", f"{r['mean_vp']:.2f}",
                     f"{r['mean_rank']:.3f}"))
    lines += seat_table(rows)
    lines += get_game(game).summary_lines(counts, n, rules)
    est = rules.estimated
    if est:
        from ..core.provenance import rules_census_line
        lines.append(f"note: {rules_census_line(rules)} Estimated: {_estimated_groups(est)}; "
                     f"see `{PROG} rules --estimated`")
    return "\n".join(lines)
