"""Cargo Noir's trading phase: the exact value of a holding and the trade planner.

| module | part |
|---|---|
| ``consts`` | ``TradeTables`` and shared constants |
| ``recursion_nb`` | the exact value recursion and the table solver |
| ``tables`` | building a rule variant's tables; the rulebook's shipped tables |
| ``lookup_nb`` | the value of a holding (table probe, exact solver beyond it) |
| ``knapsack_nb`` | cards bought with a budget |
| ``reference_nb``, ``planner_nb`` | the trade planner (plain enumeration; branch and bound) |
| ``packed_nb`` | the tables packed into the state array, and the kernels reading them |
| ``api`` | the Python entry points with input checks |

docs/trade_algorithms.md explains the algorithms; ``cargo_noir.trade_nb`` re-exports
the public names.
"""
