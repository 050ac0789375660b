"""Cargo Empire's report sections (``Game.report_sections`` names ``SECTIONS``): the
tables of ``analyses.run_all`` and the figures of ``figures.FIGURES`` laid out for
``cargo-sim report --game cargo_empire`` (analyses/report.py builds the pages; it finds
``FIGURES``, ``EVENT_FIGURES``, ``notes``, ``highlights`` and ``ROBUSTNESS_MARKS`` beside
``SECTIONS``)."""
from __future__ import annotations

from ...core.seat_stats import pct, source_highlights
from .figures import EVENT_FIGURES, FIGURES  # noqa: F401 (read by the report beside SECTIONS)

CL = "95% intervals clustered by game (the players of one game share its deal, and one of them wins)."

SECTIONS = [
    # (title, intro, [(table, columns or None, caption)], [figures])
    ("Balance: seats, the start player and the score",
     "From `games`/`players` (all games), the order places from the event log (subsample). A seat's "
     "advantage is measured only where one bot holds every seat. The start player is drawn at random, "
     "so the first round's order place is a randomised treatment: its effect on winning is causal. "
     "The later rounds' order is earned at the cleanup (development leaders first), so its relation "
     "to winning is observational.",
     [("win_rate_by_seat", ["n_players", "seat", "bot", "n", "win_rate", "ci_lo", "ci_hi", "expected"],
       "Win rate by seat, one bot in every seat (n = games; Wilson interval)."),
      ("seat_chi2", None, "Chi-square test of equal win chances per player count (n = games)."),
      ("first_player", ["n_players", "place", "n", "win_rate", "ci_lo", "ci_hi", "expected", "mean_vp"],
       "Win rate by the place in the first round's order (1 = start player; n = player-games; " + CL + ")"),
      ("order_bonus", ["n_players", "place", "bonus", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate of the players taking each order place at a cleanup, and its bonus (n = places taken; "
       + CL + ")"),
      ("turn_order", ["n_players", "first_rounds", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate by rounds played first after the start (n = player-games; " + CL + ")"),
      ("win_rate_by_bot", ["n_players", "bot", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate by bot over all its seats (n = player-games; " + CL + ")"),
      ("score_breakdown", ["n_players", "who", "source", "n", "mean", "ci_lo", "ci_hi"],
       "Mean points per player-game by source, winners and the others apart (n = player-games; the "
       "sources sum to the final score; " + CL + ")")],
     ["win_rate_by_seat", "first_player", "order_bonus", "score_breakdown"]),
    ("Deliveries and transport cards",
     "Deliveries from the event log (subsample): a route's length is the shortest route's on the map "
     "in play (a sea crossing counts `sea_hop_length` segments); the cards paid are the payment chosen. "
     "Cards played from `players` (all games), cards gained from the log.",
     [("delivery_lengths", ["n_players", "length", "n", "share", "cards", "ci_lo", "ci_hi", "trucks",
                            "trains", "ships"],
       "Deliveries by route length: the share of them and the cards paid per delivery, all and by "
       "vehicle (n = deliveries; " + CL + ")"),
      ("delivery_costs", ["n_players", "vehicle", "n", "per_delivery", "ci_lo", "ci_hi", "share_using",
                          "mean_length"],
       "Cards of each vehicle paid per delivery and the share of deliveries using it (n = deliveries; "
       + CL + ")"),
      ("card_use", ["n_players", "bot", "vehicle", "n", "played", "ci_lo", "ci_hi", "gained", "hand_left"],
       "Transport cards played per player-game, gained beyond the starting hand (event subsample) and "
       "the hand left at the end (n = player-games; " + CL + ")")],
     ["delivery_lengths", "delivery_costs", "card_use"]),
    ("Development tracks",
     "The marker of each vehicle at the end, from its last step in the event log (subsample): the "
     "development tile it stands on (tile_1 ... the share on each), or past the last tile; a marker "
     "past the last tile scores from its next step on (the score spaces).",
     [("development", None,
       "Share of players whose vehicle scores (on the score spaces), the mean tile reached (one more "
       "than the tiles: past the last tile) and the share ending on each tile (n = player-games; "
       + CL + ")"),
      ("scoring_vehicles_win", ["n_players", "vehicles", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by vehicles on the score spaces (n = player-games; " + CL + ")")],
     ["development", "scoring_vehicles_win"]),
    ("Cities: upgrades, perfect or not",
     "An upgrade is perfect when the city has no cube left. Upgrades by level from the event log "
     "(subsample); per player from `players` (all games): the player whose delivery fills the last "
     "demand space causes it.",
     [("upgrades", ["n_players", "level", "n", "perfect_share", "ci_lo", "ci_hi", "per_player_game"],
       "Upgrades by the level reached: the share perfect and upgrades per player-game (n = upgrades; "
       + CL + ")"),
      ("upgrade_players", ["n_players", "bot", "n", "perfect", "ci_lo", "ci_hi", "imperfect", "upgrades",
                           "perfect_share"],
       "Perfect and imperfect upgrades caused per player-game (n = player-games; " + CL + ")"),
      ("perfect_win", ["n_players", "perfect", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by perfect upgrades caused (n = player-games; " + CL + ")")],
     ["perfect_win"]),
    ("Missions and forced passes",
     "From `players` (all games); the kind of pass from the event log (subsample). A forced pass "
     "removes a post of the round and takes a truck, a train and a ship, or refills a city.",
     [("missions", ["n_players", "bot", "n", "done", "ci_lo", "ci_hi", "kept", "done_share", "mission_vp"],
       "Missions completed per player-game, kept, the share completed and their points (n = "
       "player-games; " + CL + ")"),
      ("mission_win", ["n_players", "missions_done", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by missions completed (n = player-games; " + CL + ")"),
      ("passes", ["n_players", "bot", "n", "passes", "ci_lo", "ci_hi", "any_pass", "took_cards"],
       "Forced passes per player-game, the share of players passing at least once and the share of "
       "passes that took cards (n = player-games; " + CL + ")"),
      ("pass_win", ["n_players", "passes", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by forced passes (n = player-games; " + CL + ")")],
     ["mission_win", "pass_win"]),
]


def notes(event_games: int | None) -> list[str]:
    """The report's notes on Cargo Empire's data (the shared report adds its own on intervals)."""
    return [
        (f"Event logs are recorded only for the first {event_games:,} games of each player count; "
         "tables and figures built from events (order places, deliveries, cards gained, development "
         "markers, upgrades by level, kinds of pass) use that subsample, all others use every game."
         if event_games else
         "These games kept no event log, so the tables and figures built from events (order places, "
         "deliveries, development markers, upgrades by level) are omitted."),
        "The printed data are not public: the Europe map, the development tiles, the missions, the "
        "score spaces and the 5-player details are estimates (docs/rules_cargo_empire.md, "
        "\"Estimates\"); conclusions that depend on them are provisional, and the robustness study "
        "says which survive their ranges and other maps.",
        "Relations between a choice (perfect upgrades, missions, passes) and winning are "
        "observational: they describe these bots' games, not causal effects. The first round's order "
        "place is the exception (the start player is drawn at random).",
    ]


# The committed robustness report the highlights cite (`make robustness-cargo-empire`) and the
# lines that state its headlines (analyses.robustness_marks.headline_keys)
ROBUSTNESS_MARKS = {"report": "reports/cargo_empire_robustness",
                    "lines": ((r"(\d) players, start player", "start"),
                              (r"Winners' largest source of points", "source"))}


def highlights(tables: dict) -> list[str]:
    """A few headline numbers, each with its interval and sample size."""
    out = []
    f = tables.get("first_player")
    if f is not None and len(f):
        for n, d in f.groupby("n_players"):
            first = d[d["place"] == 1].iloc[0]
            top = d.sort_values("win_rate").iloc[-1]
            out.append(f"{n} players, start player (drawn at random) wins {pct(first['win_rate'])} "
                       f"[{pct(first['ci_lo'])}, {pct(first['ci_hi'])}] of {int(first['n']):,} games "
                       f"(equal share {pct(1 / n)}); the best first-round place is {int(top['place'])}")
    out += source_highlights(tables.get("score_breakdown"))
    c = tables.get("delivery_costs")
    if c is not None and len(c):
        a = c[c["vehicle"] == "all"]
        out.append("Cards paid per delivery: " + ", ".join(
            f"{int(r.n_players)}p {r.per_delivery:.2f} [{r.ci_lo:.2f}, {r.ci_hi:.2f}] (mean route "
            f"{r.mean_length:.2f} segments)" for r in a.itertuples()))
    u = tables.get("upgrade_players")
    if u is not None and len(u):
        out.append("Share of upgrades that are perfect: " + ", ".join(
            f"{int(r.n_players)}p {r.bot} {pct(r.perfect_share)}" for r in u.itertuples()))
    p = tables.get("passes")
    if p is not None and len(p):
        out.append("Forced passes per player-game: " + ", ".join(
            f"{int(r.n_players)}p {r.bot} {r.passes:.2f} [{r.ci_lo:.2f}, {r.ci_hi:.2f}]" for r in p.itertuples()))
    return out
