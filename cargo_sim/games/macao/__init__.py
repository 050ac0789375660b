"""Macao (Stefan Feld, alea 2009): the second game on the shared core.

Its rules as data (``Rules``, ``rules_default.toml``, ``effects``), kernels, bots and
API; registered in ``cargo_sim.games``. The rules in words: docs/rules_macao.md. The
public names load on first use, so reading the rules imports no kernel.
"""
from ...core.lazy import lazy_names

__all__ = ["Rules"]

__getattr__, __dir__ = lazy_names(__name__, {"Rules": (".rules", "Rules")})
