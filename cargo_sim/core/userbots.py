"""User bots for any game: ``@bot``, the checked mode's copies, the user-bot
kernel of a table and the decision table handed to the game's engine.

A game opts in by giving its ``BotRegistry`` a ``Plumbing`` (``registry.plumbing``):
the kernels and numbers this module needs from it, named as ``"module:attr"`` so
nothing is imported before a table needs it. The game's state starts with the
core header (``core/layout.py``); its table kernel asks ``core.dispatch_nb.plumbed_nb``
before its built-ins.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from .bots import BotRegistry, Player, check_bot_name
from .errors import BotError


def _resolve(ref):
    if isinstance(ref, str):
        module, _, attr = ref.partition(":")
        return getattr(importlib.import_module(module), attr)
    return ref


@dataclass(frozen=True)
class Plumbing:
    """What the core's user-bot plumbing needs from a game (kernels as "module:attr").

    ``table_decide``: the game's table kernel ``decide(kind, s, seat)`` (asks
    ``plumbed_nb`` first); ``first_only_decide``: a table where every seat plays the
    first built-in (it compiles nothing else), None: use table_decide;
    ``bot_fault``: ``(kind, p, seat) -> int`` stops the game as a bot fault (the
    game's illegal-answer path) and returns ``layout.BOT_FAULT``; ``tables_sum``:
    ``(p) -> int`` a checksum of the table's shared array (checked mode; usually
    ``core.shared_nb:shared_sum_nb``), or None;
    ``state_size``: words of the game's part a checked bot may not write but its
    ``own`` area ``(lo, hi)``."""
    table_decide: object
    bot_fault: object
    state_size: int
    own: tuple
    tables_sum: object = None
    first_only_decide: object = None


def registry_of(game) -> BotRegistry:
    """The bot registry of a game (a registry, a Game object or a registered name)."""
    if isinstance(game, BotRegistry):
        return game
    if isinstance(game, str) or game is None:
        from .contract import get_game
        game = get_game(game)
    return game.bots


def bot(name: str, params: dict | None = None, doc: str | None = None, game=None):
    """Register a user-written bot of ``game``: decorate ``decide(kind, s, seat) -> int``.

    The function must compile with numba (it is wrapped in ``numba.njit`` if it
    is not already); it reads the game through the game's kit and answers the
    decision ``kind``. ``params`` maps parameter names to defaults; the bot reads
    parameter i of its seat at ``s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE``
    (core/layout.py; a game's kit has ``param_nb``), in the dict's order."""
    reg = registry_of(game)
    check_bot_name(name)
    if name in reg.builtin:
        raise BotError(f"{name!r} is a built-in bot; choose another name")
    params = reg.check_params(name, params)

    def register(fn):
        from numba import njit
        from numba.core.registry import CPUDispatcher
        decide = fn if isinstance(fn, CPUDispatcher) else njit(fn)
        reg.register_user(name, decide, params, doc or fn.__doc__ or "")
        return fn

    return register


_CHECKED: dict = {}
# every user-bot kernel made in this process, kept (with its bots) for good: a
# table holds its address, which must stay valid as long as the table lives
_TABLES: dict = {}


def unregister(name: str, game=None) -> None:
    """Forget a user bot."""
    spec = registry_of(game).unregister(name)
    if spec is not None:
        _CHECKED.pop(spec.decide, None)


def checked(decide):
    """The bot's function compiled again for the checked mode (instrument.py):
    numba's bounds checking (an index outside an array raises IndexError,
    reported as a bot fault, instead of reading or writing stray memory) and a
    budget of loop steps per decision (a runaway loop becomes a bot fault), in
    the bot and in the user functions it calls."""
    if decide not in _CHECKED:
        from .instrument import checked_copy
        _CHECKED[decide] = checked_copy(decide)
    return _CHECKED[decide]


def user_table(plumbing: Plumbing, user_specs: tuple, check: bool = False):
    """The user bots' kernel of a table: a numba ``cfunc`` int64(int64 *s, kind,
    seat, j) that calls user bot j (bot index ``s[R_USER_BASE] + j``) with the
    state as an array. ``dispatch_nb.plumbed_nb`` calls it through its address,
    so a table with user bots compiles only them (the engine and the built-ins
    come from the cache). An exception a user bot raises stops the game as a bot
    fault (the game's ``bot_fault``). During the call the other seats' bots and
    parameters read 0 (guard_nb.hide_nb); with ``check`` the bot is the checked
    copy (bounds, loop budget: ``checked``) and its writes outside its own area
    are faults (guard_nb). Compiled on first use in each process (generated
    source is not cached)."""
    key = (id(plumbing), tuple(id(sp) for sp in user_specs), check)
    if key in _TABLES:
        return _TABLES[key][1]
    from numba import cfunc
    from .borrow_nb import INT64_FN_SIG, state_array_nb
    from .layout import BOT_FAULT, M_TABLE_SUM, R_LEN
    from . import guard_nb
    from .budget_nb import BUDGET_ADDR
    lines = ["def user_table(p, kind, seat, j):", "    s = state_array(p, p[R_LEN])",
             "    keep = hide(p, seat)", "    ans = -999999"]
    if check:
        if plumbing.tables_sum is not None:
            lines += ["    if p[M_TABLE_SUM] == 0:", "        p[M_TABLE_SUM] = tables_sum(p)"]
        lines.append(f"    snap = snapshot(p, {BUDGET_ADDR}, {int(plumbing.state_size)})")
    glb = {"R_LEN": R_LEN, "M_TABLE_SUM": M_TABLE_SUM, "state_array": state_array_nb,
           "fault": _resolve(plumbing.bot_fault), "hide": guard_nb.hide_nb, "show": guard_nb.show_nb,
           "snapshot": guard_nb.snapshot_nb, "write_fault": guard_nb.write_fault_nb,
           "budget_fault": guard_nb.budget_fault_nb, "BOT_FAULT": BOT_FAULT}
    if check and plumbing.tables_sum is not None:
        glb["tables_sum"] = _resolve(plumbing.tables_sum)
    for j, sp in enumerate(user_specs):
        lines += [f"    if j == {j}:", "        try:",
                  f"            ans = user_{j}(kind, s, seat)", "        except Exception:"]
        if check:
            lines.append(f"            budget_fault(p, {BUDGET_ADDR})")
        lines.append("            ans = fault(kind, p, seat)")
        glb[f"user_{j}"] = checked(sp.decide) if check else sp.decide
    if check:
        lo, hi = (int(x) for x in plumbing.own)
        lines += ["    if ans != BOT_FAULT:",
                  f"        if write_fault(p, snap, {lo}, {hi}):",
                  "            ans = fault(kind, p, seat)"]
    lines += ["    show(p, seat, keep)", "    return ans"]
    exec("\n".join(lines), glb)
    fn = cfunc(INT64_FN_SIG)(glb["user_table"])
    _TABLES[key] = (user_specs, fn)
    return fn


def decision_table(registry: BotRegistry, players: list[Player], check: bool = False):
    """(decide dispatcher, bot index per seat, user-bot kernel or None) for a table
    of players; check: user bots compiled with bounds checking (``checked``)."""
    plumbing = registry.plumbing
    builtin, order, user = registry.builtin, registry.builtin_order, registry.user
    idx = []
    # user bots get indices after the built-ins, in name order, so every seating
    # of the same bots shares one compiled kernel
    users = sorted({p.spec.name: p.spec for p in players if p.spec.name in user}.values(),
                   key=lambda sp: sp.name)
    for p in players:
        name = p.spec.name
        if builtin.get(name) is p.spec:
            idx.append(order.index(name))
        elif user.get(name) is p.spec:
            idx.append(len(order) + users.index(p.spec))
        else:
            raise BotError(f"bot {name!r} is not a registered bot")
    table = _resolve(plumbing.table_decide)
    # a table where every seat plays the first built-in compiles nothing else
    decide = table
    if set(idx) == {0} and plumbing.first_only_decide is not None:
        decide = _resolve(plumbing.first_only_decide)
    if not users:
        return decide, np.asarray(idx, dtype=np.int64), None
    from numba.core.errors import NumbaError
    from .runner import bot_compile_error
    try:
        kernel = user_table(plumbing, tuple(users), check)
    except (NumbaError, TypeError) as exc:
        raise bot_compile_error(exc, players) from None
    return table, np.asarray(idx, dtype=np.int64), kernel
