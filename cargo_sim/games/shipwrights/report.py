"""Shipwrights' report sections (``Game.report_sections`` names ``SECTIONS``): the tables
of ``analyses.run_all`` and the figures of ``figures.FIGURES`` laid out for
``cargo-sim report --game shipwrights`` (analyses/report.py builds the pages; it finds
``FIGURES``, ``EVENT_FIGURES``, ``notes``, ``highlights`` and ``ROBUSTNESS_MARKS`` beside
``SECTIONS``)."""
from __future__ import annotations

from ...core.seat_stats import pct, seat_highlights, source_highlights
from .figures import EVENT_FIGURES, FIGURES  # noqa: F401 (read by the report beside SECTIONS)

CL = "95% intervals clustered by game (the players of one game share its deck, and one of them wins)."
DIFF_COLS = ["n_holders", "holder_win_rate", "n_others", "other_win_rate", "diff", "diff_ci_lo", "diff_ci_hi"]

SECTIONS = [
    # (title, intro, [(table, columns or None, caption)], [figures])
    ("Balance: seats, bots and the score",
     "From `games`/`players` (all games). A shared win counts 1/k. A seat's advantage is measured "
     "only where one bot holds every seat (seats exchangeable); with different bots each seat keeps "
     "its bot, so only the bots are compared.",
     [("win_rate_by_seat", ["n_players", "seat", "bot", "n", "win_rate", "ci_lo", "ci_hi", "expected"],
       "Win rate by seat, one bot in every seat (n = games; Wilson interval)."),
      ("seat_chi2", None, "Chi-square test of equal win chances per player count (n = games)."),
      ("win_rate_by_bot", ["n_players", "bot", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate by bot over all its seats (n = player-games; " + CL + ")"),
      ("score_breakdown", ["n_players", "who", "source", "n", "mean", "ci_lo", "ci_hi"],
       "Mean points per player-game by source, winners and the others apart (n = player-games; the "
       "sources sum to the final score; " + CL + ")")],
     ["win_rate_by_seat", "score_breakdown"]),
    ("The draft",
     "From the event log (subsample): every card kept in the morning draft, by face. "
     "Observational: drafting a card goes with the rest of that player's game.",
     [("drafts", ["n_players", "card", "kind", "n", "per_game", "first_round_share"] + DIFF_COLS,
       "Copies drafted per game (n = games), the share kept in the first draft round, and the drafters' "
       "win rate against the other players of the same games (difference: " + CL + ")"),
      ("draft_kinds", ["n_players", "who", "kind", "n", "share", "ci_lo", "ci_hi"],
       "Share of the cards drafted of each kind, winners and the others (n = cards drafted; " + CL + ")")],
     ["drafts", "draft_kinds"]),
    ("The ship race and the game's length",
     "The game ends the evening of the day some player completes a 4th ship (`ship_goal`). Ships by "
     "day from the event log (subsample); the length and ships from every game.",
     [("length_summary", ["n_players", "n", "mean_days", "ci_lo", "ci_hi", "median_days", "ships",
                          "reached_goal", "reached_win_rate", "other_win_rate", "diff", "diff_ci_lo",
                          "diff_ci_hi"],
       "Days per game (n = games; t interval), ships completed per player, the share of players "
       "completing the goal's ships and their win rate against the others (difference: " + CL + ")"),
      ("game_length", ["n_players", "days", "n", "games_ended", "share"],
       "The share of games ending on each day (n = games)."),
      ("ships_by_day", ["n_players", "day", "who", "n", "mean", "ci_lo", "ci_hi"],
       "Ships completed per player by the end of each day, over the games still running (n = "
       "player-games; " + CL + ")"),
      ("ships_win", ["n_players", "ships", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate by ships completed (n = player-games; " + CL + ")")],
     ["game_length", "ships_by_day", "ships_win"]),
    ("Attacks",
     "The take-that townsfolk (Assassin, Barbarian, Conspirator, Mercenary, Raider, Berserker, Thief) "
     "hit another seat; the Mercenary hits every other unshielded seat at once. Plays by townsfolk "
     "from the event log (subsample); attacks made and suffered from every game.",
     [("attacks", ["n_players", "townsfolk", "effect", "n", "per_game"] + DIFF_COLS,
       "Plays per game of each attacking townsfolk (n = games) and its players' win rate against the "
       "other players of the same games (difference: " + CL + ")"),
      ("attacked_win", ["n_players", "attacked", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp", "mean_attacks"],
       "Win rate and mean points by the attacks suffered, in thirds (n = player-games; " + CL + ")"),
      ("attack_balance", ["n_players", "bot", "n", "attacked", "ci_lo", "ci_hi", "attacks", "townsfolk",
                          "lost_ships"],
       "Attacks suffered (mean, interval) and made per player-game, townsfolk played, unfinished ships "
       "lost (n = player-games; " + CL + ")"),
      ("attacks_by_seat", ["n_players", "seat", "n", "attacked", "ci_lo", "ci_hi", "lost_ships", "win_rate"],
       "Where one bot holds every seat: attacks suffered per game by seat, unfinished ships lost and the "
       "seat's win rate (n = games; " + CL + ")")],
     ["attacks", "attacked_win"]),
    ("Buildings and military",
     "The military token (3 points) goes to the most red flags on completed ships (every tied seat "
     "gets it); buildings are bought in the afternoon, at most one of each. Buildings by face from "
     "the event log (subsample), the rest from every game.",
     [("military", ["n_players", "n", "holders", "holder_win_rate", "other_win_rate", "diff", "diff_ci_lo",
                    "diff_ci_hi", "holder_flags", "other_flags"],
       "The share of players holding the military token, their win rate against the others "
       "(difference: " + CL + ") and the mean red flags of both (n = player-games)."),
      ("buildings", ["n_players", "building", "n", "per_game"] + DIFF_COLS,
       "Buildings bought per game (n = games) and the builders' win rate against the other players of "
       "the same games (difference: " + CL + ")"),
      ("buildings_win", ["n_players", "buildings", "n", "win_rate", "ci_lo", "ci_hi", "mean_building_vp"],
       "Win rate and building points by buildings bought (n = player-games; " + CL + ")")],
     ["buildings", "buildings_win"]),
]


def notes(event_games: int | None) -> list[str]:
    """The report's notes on Shipwrights' data (the shared report adds its own on intervals)."""
    return [
        (f"Event logs are recorded only for the first {event_games:,} games of each player count; "
         "tables and figures built from events (the draft, ships by day, attacking townsfolk, "
         "buildings by face) use that subsample, all others use every game." if event_games else
         "These games kept no event log, so the tables and figures built from events (the draft, "
         "ships by day, attacking townsfolk, buildings by face) are omitted."),
        "Most of the rules' numbers are ESTIMATED (the ship table, craftsmen, building costs and "
        "points, tool prices, nine townsfolk's amounts, the card backs, every card's copies, the "
        "tie-break; docs/rules_shipwrights.md): conclusions that depend on them are provisional.",
        "Relations between a choice (a card drafted, a townsfolk played, a building) and winning "
        "are observational: they describe these bots' games, not causal effects.",
        "The first player is drawn at random every game, so the rules treat the seats alike: a seat "
        "difference among identical bots comes from the bots. The heuristic bots' attacks fall more "
        "often on low seat numbers (docs/shipwrights_study.md); compare the seat table with the "
        "attacks suffered by seat (Attacks) before reading it as a property of the game.",
    ]


# The committed robustness report the highlights cite (`make robustness-shipwrights`) and the
# lines that state its headlines (analyses.robustness_marks.headline_keys)
ROBUSTNESS_MARKS = {"report": "reports/shipwrights_robustness",
                    "lines": ((r"(\d) players \([^)]+ in every seat\): best seat", "seat"),
                              (r"Winners' largest source of points", "source"),
                              (r"Win rate of the military token", "military"))}


def highlights(tables: dict) -> list[str]:
    """A few headline numbers, each with its interval and sample size."""
    out = []
    out += seat_highlights(tables.get("win_rate_by_seat"))
    out += source_highlights(tables.get("score_breakdown"))
    g = tables.get("length_summary")
    if g is not None and len(g):
        out.append("Days per game: " + ", ".join(
            f"{int(r.n_players)}p {r.mean_days:.1f} [{r.ci_lo:.1f}, {r.ci_hi:.1f}] (n = {int(r.n):,})"
            for r in g.itertuples()))
    m = tables.get("military")
    if m is not None and len(m):
        out.append("Win rate of the military token's holders against the others: " + ", ".join(
            f"{int(r.n_players)}p {pct(r.holder_win_rate)} vs {pct(r.other_win_rate)} "
            f"(difference {pct(r.diff)} [{pct(r.diff_ci_lo)}, {pct(r.diff_ci_hi)}]; "
            f"{pct(r.holders)} of players hold it)" for r in m.itertuples()))
    d = tables.get("drafts")
    if d is not None and len(d):
        ok = d[(d["n_holders"] >= 30) & (d["n_others"] >= 30)]
        parts = [f"{int(n)}p {x.iloc[0]['card']} {pct(x.iloc[0]['diff'])} "
                 f"[{pct(x.iloc[0]['diff_ci_lo'])}, {pct(x.iloc[0]['diff_ci_hi'])}]"
                 for n, x in ok.sort_values("diff", ascending=False).groupby("n_players", sort=True)]
        if parts:
            out.append("The card whose drafters win most against the others of their games "
                       "(win-rate difference): " + ", ".join(parts))
    return out
