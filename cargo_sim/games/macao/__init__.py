"""Macao (Stefan Feld, alea 2009): the second game on the shared core.

So far only its rules as data (``Rules``, ``rules_default.toml``, ``effects``);
the kernels, bots and runners come once the core has the game contract, and the
game is not registered in ``cargo_sim.games`` until then. The rules in words:
docs/rules_macao.md.
"""
import importlib

_LAZY = {"Rules": ".rules"}

__all__ = ["Rules"]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
