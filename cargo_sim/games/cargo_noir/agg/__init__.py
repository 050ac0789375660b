"""``Aggregates`` in parts: the counters (merge, save, load) and the tables of each topic."""
