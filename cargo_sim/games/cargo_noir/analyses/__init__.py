"""Cargo Noir's pipelines (its Game.analyses): each takes result tables (a SimResults or an
``analyses.data.Tables``) or, for ``aggregates``, the aggregate counters, and returns
DataFrames whose rows state their sample size ``n`` and 95 % intervals; they use the
statistics and tables every game's report shares (the top-level ``analyses``)."""
