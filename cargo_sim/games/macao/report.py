"""Macao's report sections (``Game.report_sections`` names ``SECTIONS``): the tables of
``analyses.run_all`` and the figures of ``figures.FIGURES`` laid out for
``cargo-sim report --game macao`` (analyses/report.py builds the pages; it finds
``FIGURES``, ``EVENT_FIGURES``, ``notes`` and ``highlights`` beside ``SECTIONS``)."""
from __future__ import annotations

from ...core.seat_stats import pct, seat_highlights, source_highlights
from .analyses import SEARCH_SAMPLE
from .figures import EVENT_FIGURES, FIGURES  # noqa: F401 (read by the report beside SECTIONS)

CL = "95% intervals clustered by game (the players of one game share its deal, and one of them wins)."

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
    ("Cards",
     "From the event log (subsample). A card counts as held by the player who drafted it. "
     "Observational: drafting a card goes with the rest of that player's game.",
     [("cards", ["n_players", "card", "kind", "n", "per_game", "completed_share", "n_holders",
                 "holder_win_rate", "n_others", "other_win_rate", "diff", "diff_ci_lo", "diff_ci_hi"],
       "Copies drafted per game (n = games), share of them completed, and the drafters' win rate "
       "against the other players of the same games (difference: " + CL + ")")],
     ["card_holders"]),
    ("Dice and the wind rose",
     "Dice from the event log (subsample): the pips of a chosen die are the rounds its cubes wait on "
     "the rose (the side they land on). Cubes not spent in their round are lost; a round with no "
     "cube at the arrow costs a penalty marker.",
     [("dice_by_round", ["n_players", "round", "who", "n", "mean", "ci_lo", "ci_hi"],
       "Mean pips of the dice chosen by round (n = dice; " + CL + ")"),
      ("dice_colours", ["n_players", "who", "colour", "n", "share", "ci_lo", "ci_hi", "mean_pips"],
       "Share of the dice chosen of each colour (n = dice; " + CL + ")"),
      ("rose_waste", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi", "cubes", "wasted_share",
                      "zero_cube", "markers", "penalty_vp"],
       "Cubes lost unspent per player-game (mean), cubes gained, the share lost, rounds without a cube, "
       "penalty markers and penalty points (n = player-games; " + CL + ")"),
      ("waste_vs_win", ["n_players", "wasted", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by cubes lost in the game, in thirds (n = player-games; " + CL + ")")],
     ["dice_by_round", "dice_colours", "waste_by_round"]),
    ("The wall and turn order",
     "The city wall sets the turn order (furthest first). Turn order per round is read from the "
     "order of the dice choices in the event log (subsample).",
     [("wall_rank_win", ["n_players", "wall_place", "n", "win_rate", "ci_lo", "ci_hi", "mean_wall"],
       "Win rate by the final place on the wall (1 = furthest; n = player-games; " + CL + ")"),
      ("turn_order_win", ["n_players", "first_rounds", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by rounds played first (n = player-games; " + CL + ")")],
     ["wall_rank_win"]),
    ("The city",
     "From `players` (all games): quarters taken and the largest connected group, which alone scores.",
     [("city", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi", "quarters", "group_share", "group_vp"],
       "Largest connected group (mean quarters), quarters taken, the share of them in the group and "
       "its points (n = player-games; " + CL + ")"),
      ("group_win", ["n_players", "group", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by the size of the largest group (n = player-games; " + CL + ")")],
     ["group_win"]),
    ("Ship, deliveries and tribute",
     "Deliveries and tribute prices from the event log (subsample); tributes bought from `players`.",
     [("deliveries", ["n_players", "port", "good", "n", "count", "per_game", "mean_points"],
       "Deliveries by port and good (n = games with events)."),
      ("tribute", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi", "coins_per_tribute",
                   "points_per_tribute", "points_per_coin"],
       "Tributes bought per player-game (mean), coins paid and points got per tribute, points per coin "
       "(n = player-games; " + CL + ")"),
      ("tribute_win", ["n_players", "tributes", "n", "win_rate", "ci_lo", "ci_hi", "mean_tribute_vp"],
       "Win rate by tributes bought (n = player-games; " + CL + ")")],
     ["deliveries", "tribute_win"]),
    ("What the score rests on: the tribute's estimates and the penalties",
     "From `players`. Every card's tribute numbers (coins and points) are estimates, so the share of "
     "the score the tribute brings is the share that rests on them. Penalty points by cause: a marker "
     "for each round without a cube and each 6th tableau card, the tableau penalty for each card left "
     "at the end. The report's games are set against a stronger player's: a sample the report plays "
     f"itself, `{SEARCH_SAMPLE['bot']}` against `{SEARCH_SAMPLE['against']}` at 2 players (half the "
     "games in each seating, the report's rules and seed; only in a report of at least "
     f"{SEARCH_SAMPLE['min_report_games']:,} games). A cause the stronger player avoids comes "
     "from weak play; one it takes as well comes from the rules.",
     [("tribute_share", ["n_players", "bot", "who", "n", "tribute_vp", "vp", "share", "ci_lo", "ci_hi"],
       "Points from the tribute and the final score per player-game (means), and the tribute's share of "
       "the score summed over the players (n = player-games; " + CL + ")"),
      ("penalties", ["n_players", "bot", "sample", "cause", "n", "mean", "ci_lo", "ci_hi", "per_game",
                     "share", "games"],
       "Penalty points lost per player-game by cause (mean; the causes sum to the total), how often "
       "each happened per player-game and its share of the total (n = player-games; " + CL + ")"),
      ("penalty_play", ["n_players", "cause", "bot", "n", "win_share", "bot_mean", "others_mean", "diff",
                        "ci_lo", "ci_hi", "reading", "games"],
       "The search sample: the stronger player's penalty points per player-game less its opponents' in "
       "the same games, and what that says of the cause (n = the stronger player's player-games; "
       + CL + ")")],
     []),
]


def notes(event_games: int | None) -> list[str]:
    """The report's notes on Macao's data (the shared report adds its own on intervals)."""
    return [
        (f"Event logs are recorded only for the first {event_games:,} games of each player count; "
         "tables and figures built from events (cards, dice, rounds' waste, turn order, deliveries, "
         "tribute prices) use that subsample, all others use every game." if event_games else
         "These games kept no event log, so the tables and figures built from events (cards, dice, "
         "turn order, deliveries, tribute prices) are omitted."),
        "Rules values marked ESTIMATED are our estimates, not printed values (card and quarter costs, "
        "tribute numbers, the city map, the sea route, the tie-break): conclusions that depend on them "
        "are provisional.",
        "Relations between a choice (a card, a die, tributes) and winning are observational: they "
        "describe these bots' games, not causal effects.",
    ]


# The committed robustness report the highlights cite (`make robustness-macao`) and the lines
# that state its headlines (analyses.robustness_marks.headline_keys; docs/macao_study.md)
ROBUSTNESS_MARKS = {"report": "reports/macao_robustness",
                    "lines": ((r"(\d) players \([^)]+ in every seat\): best seat", "seat"),
                              (r"Winners' largest source of points", "source"))}


def highlights(tables: dict) -> list[str]:
    """A few headline numbers, each with its interval and sample size."""
    out = []
    out += seat_highlights(tables.get("win_rate_by_seat"))
    out += source_highlights(tables.get("score_breakdown"))
    s = tables.get("score_breakdown")
    if s is not None and len(s):
        share = []                            # every player: the winners' and the others' means
        for n, d in s[s["source"].isin(["tribute", "total"])].groupby("n_players"):
            m = {src: (x["mean"] * x["n"]).sum() / x["n"].sum() for src, x in d.groupby("source")} \
                if "n" in d else {}
            if "tribute" in m and "total" in m:
                share.append(f"{int(n)}p {m['tribute']:.1f} of {m['total']:.1f}")
        if share:
            out.append("Points from the tribute, whose numbers (every card's tribute coins and points) are "
                       "estimates, per player and game: " + ", ".join(share) + " (the rest of the score from "
                       "every other source, penalties included)")
    out += _score_basis(tables)
    g = tables.get("wall_rank_win")
    if g is not None and len(g):
        first = g[g["wall_place"] == 1]
        total = g.groupby("n_players")["n"].sum()
        # equal places share the better one: say how many players share the first, or a
        # 50 % at 2 players reads as "the wall does not matter" when everyone is there
        out.append("Win rate of the player furthest on the wall at the end: " + ", ".join(
            f"{int(r.n_players)}p {pct(r.win_rate)} [{pct(r.ci_lo)}, {pct(r.ci_hi)}] (n = {int(r.n):,}; "
            f"{pct(r.n / total[r.n_players])} of players share that place)"
            for r in first.itertuples()))
    r = tables.get("rose_waste")
    if r is not None and len(r):
        out.append("Share of cubes lost unspent: " + ", ".join(
            f"{int(x.n_players)}p {x.bot} {pct(x.wasted_share)}" for x in r.itertuples()))
    return out


def _score_basis(tables: dict) -> list[str]:
    """The tribute's share of the score, the penalties by cause and where they come from,
    each read from its table."""
    out = []
    ts = tables.get("tribute_share")
    if ts is not None and len(ts):
        def share(r) -> str:
            if r.share != r.share:            # NaN: the players' summed score is not positive
                return "n/a (summed score <= 0)"
            return f"{pct(r.share)} [{pct(r.ci_lo)}, {pct(r.ci_hi)}]"
        out.append("Share of the score from the tribute, whose numbers are estimates (tribute points / "
                   "final points): " + "; ".join(
                       f"{int(n)}p {bot}: winners {share(w)}, all {share(a)}"
                       for (n, bot), d in ts.groupby(["n_players", "bot"])
                       for w in d[d["who"] == "winners"].itertuples() for a in d[d["who"] == "all"].itertuples()))
    pen = tables.get("penalties")
    if pen is not None and len(pen):
        for (sample, n, bot), d in pen.groupby(["sample", "n_players", "bot"], sort=False):
            total = d[d["cause"] == "total"].iloc[0]
            parts = [f"{r.cause} {r.mean:.1f}" for r in d[d["cause"] != "total"].itertuples() if abs(r.mean) >= 0.05]
            out.append(f"Penalty points per player-game, {int(n)}p {bot} ({sample}): {total['mean']:.1f} "
                       f"[{total['ci_lo']:.1f}, {total['ci_hi']:.1f}] (n = {int(total['n']):,})"
                       + (": " + ", ".join(parts) if parts else ""))
    play = tables.get("penalty_play")
    if pen is not None and len(pen) and (play is None or not len(play)):
        out.append("No stronger player's sample in this report (one is played only in a report of at least "
                   f"{SEARCH_SAMPLE['min_report_games']:,} games), so it does not say which penalties "
                   "come from weak play.")
    if play is not None and len(play):
        r = play[play["cause"] != "total"]
        games = int(play["games"].iloc[0])
        out.append(f"Where the penalties come from ({play['bot'].iloc[0]} against its opponents in the "
                   f"report's own {games} games at 2 players, winning {pct(play['win_share'].iloc[0])} of "
                   f"them; its penalty points less theirs per player-game): " + "; ".join(
                       f"{x.cause}: {x.reading} ({x.diff:+.1f} [{x.ci_lo:+.1f}, {x.ci_hi:+.1f}])"
                       for x in r.itertuples()))
    return out
