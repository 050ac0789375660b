"""Macao's bots: the registry (``registry.REGISTRY``), the table's decide function
(``dispatch_nb``), `random`, the heuristic family (``greedy_nb``) and the search kit."""
