"""Cargo Empire's bots: the registry (bots/registry.py), the table's decision kernel
(bots/dispatch_nb.py), the random bot and the heuristic family."""
