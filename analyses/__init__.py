"""Analyses of cargo_sim results: pandas pipelines, figures and a report.

Modules (each pipeline takes DataFrames / a SimResults and returns DataFrames
whose rows state their sample size ``n`` and 95% intervals):

* ``stats``   — the shared formulas (Wilson, t, bootstrap, chi-square, Newcombe);
* ``data``    — ``Tables`` (a SimResults-like bundle) and ``combine`` for runs
  of several player counts;
* ``balance`` — seats, bots, VP, margins, ties, Smuggler's Edge cards, ports;
* ``bidding`` — port auctions from the event log: prices, contests, overpayment;
* ``casino``  — Casino use, coin flow, bank shortfalls;
* ``trade``   — trades, combinations, value lost to no change, card purchases;
* ``plots``   — one function per figure (matplotlib, Agg), ``save_figure``;
* ``games``   — a game by name and what it offers the analyses (``Game.analyses``,
  ``Game.report_sections``); the analyses never import a game package;
* ``markdown`` — markdown tables and the HTML page of the reports;
* ``report``  — ``build_report`` (``cargo-sim report``) (``game=`` / ``--game``);
* ``robustness``, ``robustness_marks``, ``robustness_report`` — the study of the rules'
  unknowns, the marks the report's highlights carry, its report and ``cargo-sim robustness``.
"""
from . import balance, bidding, casino, data, stats, trade
from .data import Tables, as_tables, combine

__all__ = ["balance", "bidding", "casino", "data", "stats", "trade", "Tables", "as_tables", "combine"]
