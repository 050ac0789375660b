"""Tests of the analyses pipelines on small hand-made tables whose right
answers are worked out by hand, plus one end-to-end report build."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyses import balance, bidding, casino, data, report, stats, trade
from cargo_sim import ConfigError, Rules

RULES = Rules.default()
CARGO = RULES.cargo_types + ["wild"]
CARDS = RULES.card_names


# ---- stats ---------------------------------------------------------------------
def test_wilson_known_values():
    # 5/10: centre 0.5, half = 1.96 sqrt(0.025 + 0.0096) / 1.384 = 0.2634
    lo, hi = stats.wilson_ci(5, 10)
    assert lo == pytest.approx(0.236593, abs=1e-5) and hi == pytest.approx(0.763407, abs=1e-5)
    # 0/10: lo = 0, hi = z^2 / (n + z^2) = 3.8415 / 13.8415
    lo, hi = stats.wilson_ci(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.841459 / 13.841459, abs=1e-6)
    lo, hi = stats.wilson_ci(np.array([1, 2]), np.array([0, 0]))
    assert np.isnan(lo).all() and np.isnan(hi).all()


def test_mean_ci_and_chi2_and_newcombe():
    m = stats.mean_ci([1, 2, 3, 4])      # sd = 1.29099, se = 0.645497, t(3) = 3.182446
    assert m["n"] == 4 and m["mean"] == 2.5
    assert m["ci_lo"] == pytest.approx(2.5 - 3.182446 * 0.645497, abs=1e-5)
    assert m["ci_hi"] == pytest.approx(2.5 + 3.182446 * 0.645497, abs=1e-5)
    t = stats.chi2_equal([30, 10])        # expected 20 each: (100 + 100) / 20
    assert t["chi2"] == 10.0 and t["dof"] == 1 and t["p_value"] == pytest.approx(0.0015654, abs=1e-6)
    d, lo, hi = stats.newcombe_diff_ci(56, 70, 48, 80)   # Newcombe (1998) example: 0.0524 to 0.3339
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)
    assert stats.bootstrap_ci([3, 3, 3, 3]) == (3.0, 3.0)
    a, b = stats.mean_from_sums(4, 4, 10), stats.mean_ci([0, 0, 1, 3])   # zeros not listed
    assert a["mean"] == b["mean"] == 1.0 and a["ci_hi"] == pytest.approx(b["ci_hi"])


def test_grouped_helpers():
    df = pd.DataFrame({"g": ["a", "a", "a", "b"], "x": [1, 0, 1, 1], "v": [1.0, 2.0, 3.0, 5.0]})
    p = stats.grouped_proportion(df, "g", "x", "rate").set_index("g")
    assert p.loc["a", "n"] == 3 and p.loc["a", "rate"] == pytest.approx(2 / 3)
    assert (p.loc["a", "ci_lo"], p.loc["a", "ci_hi"]) == pytest.approx(stats.wilson_ci(2, 3))
    m = stats.grouped_mean(df, "g", "v").set_index("g")
    assert m.loc["a", "mean"] == 2.0 and m.loc["a", "n"] == 3 and np.isnan(m.loc["b", "se"])
    vc = stats.value_counts_frame(df, "g", "x").set_index(["g", "x"])
    assert vc.loc[("a", 1), "count"] == 2 and vc.loc[("a", 1), "share"] == pytest.approx(2 / 3)


# ---- balance -------------------------------------------------------------------
def _players_row(game, seat, vp, win_share, top=None, bot="b", **extra):
    row = {"game": game, "seat": seat, "bot": bot, "vp": vp, "won": int(win_share > 0),
           "win_share": win_share, "max_card_vp": top if top is not None else vp,
           "casino_visits": 0, "syndicate_coins": 0, "abandons": 0, "value_lost": 0,
           "trade_value": 0, "cargo_traded": 0, "casino_coins": 0}
    row.update({f"card_{c}": 0 for c in CARDS})
    row.update(extra)
    return row


@pytest.fixture
def four_games():
    """4 two-player games: seat 0 wins games 0 and 2, seat 1 game 1, game 3 is
    a shared win (equal VP and equal top card)."""
    games = pd.DataFrame({"game": [0, 1, 2, 3], "n_players": 2, "tie": [False, False, False, True],
                          "shortfalls": [0, 2, 0, 0], "shortfall_coins": [0, 3, 0, 0],
                          "bank_end": [40, 0, 40, 40]})
    p = pd.DataFrame([
        _players_row(0, 0, 10, 1.0, casino_visits=4, **{"card_Syndicate": 1}),
        _players_row(0, 1, 5, 0.0, casino_visits=10),
        _players_row(1, 0, 3, 0.0, casino_visits=4),
        _players_row(1, 1, 8, 1.0, casino_visits=10, **{"card_Syndicate": 2}),
        _players_row(2, 0, 12, 1.0, casino_visits=4),
        _players_row(2, 1, 2, 0.0, casino_visits=4),
        _players_row(3, 0, 7, 0.5, casino_visits=10),
        _players_row(3, 1, 7, 0.5, casino_visits=10, **{"card_Syndicate": 1}),
    ])
    return games, p


def test_win_rate_by_seat_and_chi2(four_games):
    games, p = four_games
    w = balance.win_rate_by_seat(p, games).set_index("seat")
    assert list(w["n"]) == [4, 4]
    assert w.loc[0, "win_rate"] == 0.625 and w.loc[1, "win_rate"] == 0.375   # 2.5/4 and 1.5/4
    assert w.loc[0, "ci_lo"] == pytest.approx(0.219427, abs=1e-5)
    assert w.loc[0, "ci_hi"] == pytest.approx(0.908101, abs=1e-5)
    assert (w["expected"] == 0.5).all()
    c = balance.seat_chi2(p, games).iloc[0]
    assert c["n"] == 4 and c["chi2"] == pytest.approx(0.25)    # ((2.5-2)^2 + (1.5-2)^2) / 2
    assert c["p_value"] == pytest.approx(0.617075, abs=1e-5)


def test_margins_ties_and_vp(four_games):
    games, p = four_games
    m = balance.game_margins(p, games).set_index("game")
    assert list(m["margin"]) == [5, 5, 10, 0]
    s = balance.margin_summary(p, games).iloc[0]
    assert s["n"] == 4 and s["mean"] == 5.0 and s["share_le3"] == 0.25
    t = balance.tie_rate(games).iloc[0]
    assert t["n"] == 4 and t["tie_rate"] == 0.25
    assert balance.top_vp_ties(p, games).iloc[0]["top_vp_tie_rate"] == 0.25
    v = balance.vp_summary(p, games).set_index("seat")
    assert v.loc[0, "mean"] == 8.0 and v.loc[1, "mean"] == 5.5 and v.loc[0, "n"] == 4


def test_edge_card_effect(four_games):
    games, p = four_games
    e = balance.edge_card_effect(p, RULES, games)
    s = e[e["card"] == "Syndicate"].set_index("held")
    # holders of 0: (g0 s1, g1 s0, g2 s0, g2 s1, g3 s0) -> wins 0 + 0 + 1 + 0 + 0.5
    assert s.loc[0, "n"] == 5 and s.loc[0, "win_rate"] == pytest.approx(1.5 / 5)
    assert s.loc[1, "n"] == 2 and s.loc[1, "win_rate"] == pytest.approx(1.5 / 2)
    assert s.loc[2, "n"] == 1 and s.loc[2, "win_rate"] == 1.0
    assert set(e["card"]) == {"Cargo Ship", "Warehouses", "Syndicate"}


def test_casino_use_and_shortfall(four_games):
    games, p = four_games
    c = casino.casino_use_vs_win(data.with_n_players(p, games), bins=(0, 5, 1000)).set_index("casino_bin")
    # 4 visits: g0 s0 (1), g1 s0 (0), g2 s0 (1), g2 s1 (0) -> 2/4; 10 visits: 0 + 1 + 0.5 + 0.5 = 2/4
    assert c.loc["0-4", "n"] == 4 and c.loc["0-4", "win_rate"] == 0.5
    assert c.loc["5+", "n"] == 4 and c.loc["5+", "win_rate"] == 0.5
    s = casino.bank_shortfall_rate(games).iloc[0]
    assert s["n"] == 4 and s["shortfall_rate"] == 0.25 and s["mean_coins_short"] == 0.75


def test_holder_win_rates(four_games):
    games, p = four_games
    h = trade.holder_win_rates(data.with_n_players(p, games), RULES).set_index("card")
    r = h.loc["Syndicate"]
    assert r["n_holders"] == 3 and r["holder_win_rate"] == pytest.approx(2.5 / 3)
    assert r["n_others"] == 5 and r["other_win_rate"] == pytest.approx(1.5 / 5)
    d, lo, hi = stats.newcombe_diff_ci(2.5, 3, 1.5, 5)
    assert r["diff"] == pytest.approx(d) and r["diff_ci_lo"] == pytest.approx(lo)
    assert h.loc["Villa", "n_holders"] == 0 and math.isnan(h.loc["Villa", "holder_win_rate"])


# ---- events --------------------------------------------------------------------
def ev(game, turn, seat, phase, action, loc="", coins=0, amount=0, value=0, card="", count=0, **tok):
    row = {"game": game, "turn": turn, "seat": seat, "phase": phase, "action": action, "loc": loc,
           "coins": coins, "amount": amount, "value": value, "card": card, "count": count,
           "n_players": 2, "bot": f"bot{seat}"}
    row.update({t: tok.get(t, 0) for t in CARGO})
    return row


@pytest.fixture
def port_events():
    """One 2-player game. Rio: seat 0 sends 2, seat 1 outbids with 3, seat 0
    raises by 2 to 4, seat 1 abandons (3 back), seat 0 takes 2 alcohol + 1
    weapons for 4. Tanger: seat 1 alone, takes 1 gold for 1. Bombay: seat 0
    sends 2 on the last turn, never resolved."""
    rows = [
        ev(0, 1, 0, 3, "send port", "Rio", coins=5, amount=2),
        ev(0, 1, 0, 3, "send casino", "Casino", coins=5),
        ev(0, 1, 1, 3, "send port", "Rio", coins=4, amount=3),
        ev(0, 1, 1, 3, "send black market", "Black Market", coins=4),
        ev(0, 2, 0, 1, "casino", "Casino", coins=7, amount=2, count=1),
        ev(0, 2, 0, 1, "raise", "Rio", coins=5, amount=2, value=4),
        ev(0, 2, 0, 3, "send casino", "Casino", coins=5),
        ev(0, 2, 1, 1, "abandon", "Rio", coins=7, amount=3),
        ev(0, 2, 1, 1, "syndicate", "", coins=9, amount=2),
        ev(0, 2, 1, 3, "send port", "Tanger", coins=8, amount=1),
        ev(0, 3, 0, 1, "port win", "Rio", coins=5, amount=4, count=3, alcohol=2, weapons=1),
        ev(0, 3, 0, 2, "trade", "", coins=5, value=5, alcohol=2, weapons=1),
        ev(0, 3, 0, 2, "buy", "", coins=5, value=3, card="Syndicate", count=1),
        ev(0, 3, 0, 3, "send port", "Bombay", coins=3, amount=2),
        ev(0, 3, 1, 1, "port win", "Tanger", coins=7, amount=1, count=1, gold=1),
        ev(0, 3, 1, 2, "trade", "", coins=0, value=1, amount=7, gold=1, wild=0),
        ev(0, 3, 1, 2, "buy", "", coins=0, value=3, card="Warehouses", count=1),
        ev(0, 3, 0, 4, "score", "", coins=3, value=3, count=1),
    ]
    return pd.DataFrame(rows)


def test_episodes(port_events):
    ep = bidding.episodes(port_events, RULES).set_index("port")
    rio, tanger, bombay = ep.loc["Rio"], ep.loc["Tanger"], ep.loc["Bombay"]
    assert rio["complete"] and rio["price"] == 4 and rio["sends"] == 2 and rio["seats"] == 2
    assert rio["raises"] == 1 and rio["abandons"] == 1 and rio["contested"]
    assert rio["runner_up"] == 3 and rio["overpay"] == 1 and rio["seat"] == 0
    assert rio["tokens"] == 3 and rio["value"] == 5            # 2 alcohol (4) + 1 weapons (1)
    assert rio["price_per_token"] == pytest.approx(4 / 3) and rio["price_per_value"] == pytest.approx(0.8)
    assert rio["slots"] == RULES["port.Rio.slots"]
    assert tanger["price"] == 1 and not tanger["contested"] and math.isnan(tanger["runner_up"])
    assert tanger["value"] == 1 and tanger["win_turn"] == 3
    assert not bombay["complete"] and bombay["sends"] == 1


def test_bidding_rates_prices_overpayment(port_events):
    ep = bidding.episodes(port_events, RULES)
    r = bidding.bidding_rates(port_events, ep).iloc[0]
    assert r["n"] == 4 and r["contested_sends"] == 2 and r["contest_rate"] == 0.5
    assert r["outbid"] == 2 and r["raise_rate"] == 0.5 and r["abandon_rate"] == 0.5
    assert r["wins"] == 2 and r["win_per_send"] == 0.5
    assert (r["contest_ci_lo"], r["contest_ci_hi"]) == pytest.approx(stats.wilson_ci(2, 4))
    p = bidding.winning_price(ep, "n_players").iloc[0]
    assert p["n"] == 2 and p["mean"] == 2.5                     # (4 + 1) / 2
    assert p["ci_hi"] == pytest.approx(2.5 + 12.706205 * 1.5, abs=1e-4)   # sd 2.1213, se 1.5, t(1)
    assert p["per_value"] == pytest.approx((0.8 + 1.0) / 2)
    o = bidding.overpayment(ep).iloc[0]
    assert o["n"] == 1 and o["mean"] == 1 and o["share_min"] == 1.0
    s = bidding.syndicate_events(port_events).iloc[0]
    assert s["n"] == 1 and s["mean"] == 2 and s["payments_per_game"] == 1


def test_destinations_and_coins(port_events):
    d = casino.destination_shares(port_events).set_index(["turn", "dest"])
    # turn 1: port, casino, port, black market; turn 2: casino, port; turn 3: port
    assert d.loc[(1, "port"), "count"] == 2 and d.loc[(1, "port"), "n"] == 4
    assert d.loc[(1, "Casino"), "share"] == 0.25
    assert d.loc[(2, "Casino"), "share"] == 0.5 and d.loc[(3, "Casino"), "count"] == 0
    c = casino.coins_by_turn(port_events).set_index("turn")
    # last non-score event of each seat's turn: t1 5 and 4, t2 5 and 8, t3 3 and 0
    assert c.loc[1, "mean"] == 4.5 and c.loc[2, "mean"] == 6.5 and c.loc[3, "mean"] == 1.5
    assert (c["n"] == 2).all()


def test_trades(port_events):
    tr = trade.trades(port_events, RULES).set_index("seat")
    # seat 0: value 5, buys Syndicate (cost 10) -> that cannot be paid, but the
    # table takes the log as given: budget 5, cost 10, lost -5
    assert tr.loc[0, "tokens"] == 3 and tr.loc[0, "budget"] == 5 and tr.loc[0, "vp"] == 3
    assert tr.loc[0, "cost"] == RULES["card.Syndicate.cost"]
    # seat 1: 1 gold (1) + 7 coins on the final turn = 8, buys Warehouses (cost 10)
    assert tr.loc[1, "budget"] == 8 and tr.loc[1, "vp_per_token"] == 3.0
    s = trade.trade_summary(tr.reset_index()).iloc[0]
    assert s["n"] == 2 and s["value"] == 3.0 and s["tokens"] == 2.0 and s["wild_share"] == 0.0
    combos, mix = trade.combination_mix(tr.reset_index(), RULES)
    assert sorted(combos["value"]) == [1, 1, 4]                 # gold 1; alcohol pair 4 + weapons 1
    assert mix.iloc[0]["n"] == 2
    pb = trade.purchases_by_turn(port_events, RULES)
    assert list(pb["card"]) == ["Warehouses", "Syndicate"] and (pb["per_game"] == 1).all()
    assert (pb["n"] == 1).all()
    two = pd.concat([port_events, port_events.assign(game=1)], ignore_index=True)
    two = two[~((two["game"] == 1) & (two["card"] == "Warehouses"))]
    pc = trade.purchases_by_card(two, RULES).set_index("card")
    # Warehouses: 1 copy in game 0, none in game 1 -> mean 0.5, sd 0.7071, t(1) CI
    assert pc.loc["Warehouses", "n"] == 2 and pc.loc["Warehouses", "per_game"] == 0.5
    assert pc.loc["Warehouses", "ci_hi"] == pytest.approx(0.5 + 12.706205 * 0.5, abs=1e-4)
    assert pc.loc["Syndicate", "per_game"] == 1.0
    pp = balance.port_popularity(port_events, RULES).set_index("port")
    assert pp.loc["Rio", "sends"] == 2 and pp.loc["Rio", "n"] == 4 and pp.loc["Rio", "share"] == 0.5


def test_combine_offsets_games(four_games):
    games, p = four_games
    a = data.Tables(games, p, None, RULES)
    g3 = games.assign(n_players=3)
    t = data.combine([a, data.Tables(g3, p, None, RULES)])
    assert t.games["game"].tolist() == list(range(8)) and t.players["game"].max() == 7
    assert set(t.players["n_players"]) == {2, 3} and t.games["run_game"].max() == 3


def test_markdown_table_and_players_arg():
    md = report.markdown_table(pd.DataFrame({"a": [1, 2], "b": ["x|y", "z"], "c": [0.123456, np.nan]}))
    lines = md.strip().split("\n")
    assert lines[0] == "| a | b | c |" and lines[1] == "|---:|---|---:|"
    assert lines[2] == "| 1 | x\\|y | 0.123 |" and lines[3] == "| 2 | z |  |"
    assert report.parse_players_arg(["3=a,b,c", "x,y"]) == {3: ["a", "b", "c"], 2: ["x", "y"]}
    with pytest.raises(ConfigError, match="names 2 bots for 4 players"):
        report.parse_players_arg(["4=a,b"])
    assert report.parse_games_arg("5_000") == 5000
    assert report.parse_games_arg("2=100,3=200") == {2: 100, 3: 200}
    with pytest.raises(ConfigError, match="bad --games 'many'"):
        report.parse_games_arg("many")


# ---- end to end ----------------------------------------------------------------
@pytest.mark.slow
def test_report_builds(tmp_path):
    out = tmp_path / "rep"
    path = report.build_report(out, n_games=80, player_counts=(2, 4),
                               players={2: ["random"] * 2, 4: ["random"] * 4}, seed=123,
                               events_games=40, workers=1, command="test-command --seed 123")
    md = path.read_text()
    html_text = (out / "index.html").read_text()
    for text in (md, html_text):
        assert "test-command --seed 123" in text and "123" in text
        assert "estimated" in text.lower() and RULES.digest in text
    assert "ESTIMATED" in md and "first 40 games" in md and "## Highlights" in md
    lines = md.splitlines()                       # every table header is readable text
    heads = [h for h, nxt in zip(lines, lines[1:]) if nxt.startswith("|-")]
    assert len(heads) > 20 and not [h for h in heads if "_" in h]
    # a table of contents whose links reach the sections
    assert "## Contents" in md and "- [Rules](#rules)" in md and "(#balance-seats-and-bots)" in md
    assert 'href="#balance-seats-and-bots"' in html_text and 'id="balance-seats-and-bots"' in html_text
    assert "](" not in html_text                 # every markdown link rendered as a link
    pngs = {p.stem for p in (out / "figures").glob("*.png")}
    svgs = {p.stem for p in (out / "figures").glob("*.svg")}
    assert "win_rate_by_seat" in pngs and pngs == svgs and len(pngs) >= 10
    assert (out / "tables" / "win_rate_by_seat.csv").exists()
    assert not list(out.rglob("*.tmp"))
    w = pd.read_csv(out / "tables" / "win_rate_by_seat.csv")
    assert set(w["n"]) == {80}


def test_simulate_counts_budget_and_explicit():
    runs = report.simulate_counts({2: ["random"] * 2, 3: ["random"] * 3}, {2: None, 3: 300}, seed=5,
                                  rules=RULES, events_games=20, workers=1, time_budget=0.0,
                                  max_games=3000, min_games=1000, pilot_games=100)
    a, b = runs
    assert len(a.games) == 1000 and a.games["game"].tolist() == list(range(1000))   # budget 0 -> minimum
    assert len(b.games) == 300 and b.events["game"].nunique() == 20
    assert a.config["events_games"] == 20 and set(a.events["game"]) == set(range(20))
    # the event games are the same games as in one plain run
    import cargo_sim
    ref = cargo_sim.simulate(30, ["random"] * 3, seed=5, workers=1, progress=False)
    assert (b.games["seed"].to_numpy()[:30] == ref.games["seed"].to_numpy()).all()
    assert (b.players["vp"].to_numpy()[:90] == ref.players["vp"].to_numpy()).all()


def test_seat_headline_only_from_seat_separable_tables():
    w = pd.DataFrame({"n_players": [2, 2, 3, 3, 3], "seat": [0, 1, 0, 1, 2],
                      "bot": ["greedy", "random", "random", "random", "random"],
                      "n": [100] * 5, "win_rate": [1.0, 0.0, 0.4, 0.3, 0.3],
                      "ci_lo": [0.96, 0.0, 0.3, 0.2, 0.2], "ci_hi": [1.0, 0.04, 0.5, 0.4, 0.4]})
    c = pd.DataFrame({"n_players": [2, 3], "p_value": [1e-30, 0.2]})
    heads = report.highlights({"win_rate_by_seat": w, "seat_chi2": c})
    two = next(h for h in heads if h.startswith("2 players"))
    three = next(h for h in heads if h.startswith("3 players"))
    assert "ranks bots, not seats" in two and "best seat" not in two and "chi-square" not in two
    assert "won every one of 100 games" in two and "won 100.0%" not in two
    assert "games against random (seat 1)" in two        # says against whom
    assert "best seat 0 (random)" in three and "chi-square" in three
    assert "p = 0.200" in three                    # p-values as in the tables
    c2 = c.assign(p_value=[1e-30, 4.26e-4])
    assert "p < 0.001" in next(h for h in report.highlights({"win_rate_by_seat": w, "seat_chi2": c2})
                               if h.startswith("3 players"))


def test_casino_use_vs_win_spaces_bins_by_their_ranges():
    from analyses import plots
    import matplotlib.pyplot as plt
    # unequal bins (3 ships, then 5, then open-ended); the 2-player series lacks the first
    rows = [(2, "3-5", 3, 100, 0.5), (2, "15-19", 15, 100, 0.6), (2, "20+", 20, 100, 0.7),
            (3, "0-2", 0, 100, 0.2), (3, "3-5", 3, 100, 0.3), (3, "12-14", 12, 5, 0.9)]
    df = pd.DataFrame(rows, columns=["n_players", "casino_bin", "bin_lo", "n", "win_rate"])
    df["ci_lo"], df["ci_hi"] = df["win_rate"] - 0.05, df["win_rate"] + 0.05
    fig = plots.casino_use_vs_win(df)
    ax = fig.axes[0]
    # labels in natural order, each at the middle of its own range of ships
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0-2", "3-5", "12-14", "15-19", "20+"]
    assert list(ax.get_xticks()) == [1.5, 4.5, 13.5, 17.5, 22.5]
    xs = [list(line.get_xdata()) for line in ax.lines if len(line.get_xdata()) > 1]
    assert [4.5, 17.5, 22.5] in xs and [1.5, 4.5] in xs          # the n = 5 bin left out
    assert not [ln for ln in ax.lines if ln.get_linestyle() not in ("None", "none", "")]
    plt.close(fig)


def test_vp_by_seat_has_integer_seat_ticks():
    from analyses import plots
    import matplotlib.pyplot as plt
    df = pd.DataFrame({"n_players": [3] * 3, "seat": [0, 1, 2], "mean": [20.0, 21, 22],
                       "ci_lo": [19.0, 20, 21], "ci_hi": [21.0, 22, 23]})
    fig = plots.vp_by_seat(df)
    assert list(fig.axes[0].get_xticks()) == [0, 1, 2]
    plt.close(fig)


# ---- cargo-sim report --from RUN_FOLDER ----------------------------------------
@pytest.fixture(scope="module")
def run_folders(tmp_path_factory):
    """Two small run folders (2 and 3 random players) and one with other rules."""
    from cargo_sim.runners.runs import run_to_dir
    base = tmp_path_factory.mktemp("runs")
    two = run_to_dir(base / "two", 60, ["random"] * 2, seed=3, progress=False)
    three = run_to_dir(base / "three", 60, ["random"] * 3, seed=4, progress=False)
    other = run_to_dir(base / "other", 20, ["random"] * 2, seed=3, progress=False,
                       rules=RULES.replace(start_coins=8))
    return {"two": base / "two", "three": base / "three", "other": base / "other",
            "ids": (two, three, other)}


def test_report_from_run_folders_reads_their_games(run_folders, tmp_path, monkeypatch):
    import cargo_sim
    from analyses import plots
    from cargo_sim.cli import main
    # one figure is enough here (drawing all of them is most of a report's time; test_figures draws them)
    monkeypatch.setattr(plots, "FIGURES", {"win_rate_by_seat": plots.FIGURES["win_rate_by_seat"]})
    out = tmp_path / "rep"
    assert main(["report", "-o", str(out), "--from", str(run_folders["two"]),
                 "--from", str(run_folders["three"]), "--no-svg", "--no-progress"]) == 0
    w = pd.read_csv(out / "tables" / "win_rate_by_seat.csv")
    assert sorted(w["n_players"].unique()) == [2, 3] and set(w["n"]) == {60}
    # the win rates are those of the folders' own games (a shared win counts 1/k)
    p = cargo_sim.load_results(run_folders["three"]).players
    three = w[w["n_players"] == 3].sort_values("seat")
    expect = p.groupby("seat")["win_share"].mean()
    assert np.allclose(three["win_rate"].to_numpy(), expect.to_numpy())
    md = (out / "index.md").read_text()
    assert str(run_folders["two"]) in md and "nothing is simulated" in md
    assert "kept no event log" in md and "first 0 games" not in md
    assert (out / "figures" / "win_rate_by_seat.png").exists()
    assert f"--from {run_folders['two']} --from {run_folders['three']}" in md   # reproduce exactly


@pytest.mark.parametrize("extra,says", [
    (["--from", "{two}", "--games", "50"], "--games would need a new simulation"),
    (["--from", "{two}", "--set", "start_coins=8"], "--set would need a new simulation"),
    (["--from", "{two}", "--seconds", "5"], "--seconds would need a new simulation"),
    (["--from", "{two}", "--from", "{other}"], "differ in game or rules"),
    (["--from", "{two}", "--from", "{tmp}/missing"], "missing"),
    (["--from", "{two}", "--game", "macao"], "--game macao: the run folders hold games of cargo_noir"),
])
def test_report_from_bad_run_folders_is_one_line(run_folders, tmp_path, capsys, extra, says):
    from cargo_sim.cli import main
    args = [a.format(tmp=tmp_path, **{k: v for k, v in run_folders.items() if k != "ids"}) for a in extra]
    assert main(["report", "-o", str(tmp_path / "r"), "--no-progress"] + args) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("cargo-sim: error: ") and says in lines[0], err
    assert not (tmp_path / "r").exists()


def test_report_from_refuses_two_line_ups_at_one_count(run_folders, tmp_path):
    from cargo_sim.runners.runs import run_to_dir
    run_to_dir(tmp_path / "g", 10, ["greedy", "random"], seed=3, progress=False)
    with pytest.raises(ConfigError, match="one line-up per player count"):
        report.results_from_runs([run_folders["two"], tmp_path / "g"])


def test_report_of_a_rules_variant(tmp_path, monkeypatch):
    """``cargo-sim report --set``: the games are played under the variant, and the page says so."""
    from analyses import plots
    from cargo_sim.cli import main
    monkeypatch.setattr(plots, "FIGURES", {"win_rate_by_seat": plots.FIGURES["win_rate_by_seat"]})
    out = tmp_path / "rep"
    assert main(["report", "-o", str(out), "--games", "40", "--events-games", "10", "--seats", "2",
                 "-p", "2=random,random", "--set", "start_coins=9", "--no-svg", "--no-progress"]) == 0
    md = (out / "index.md").read_text()
    variant = RULES.replace(start_coins=9)
    assert variant.digest in md and RULES.digest not in md
    assert "| start_coins | 9 | OVERRIDE |" in md
    assert "--set start_coins=9" in md            # the reproduce-exactly line plays the variant too
    # the report's numbers are those of the variant's games (game i is the same game in any split)
    import cargo_sim
    vp = pd.read_csv(out / "tables" / "vp_by_seat.csv").sort_values("seat")["mean"].to_numpy()
    played = cargo_sim.simulate(40, ["random", "random"], seed=0, rules=variant).players
    assert np.allclose(vp, played.groupby("seat")["vp"].mean().to_numpy())
    default = cargo_sim.simulate(40, ["random", "random"], seed=0).players
    assert not np.allclose(vp, default.groupby("seat")["vp"].mean().to_numpy())


def test_report_from_refuses_an_unfinished_run(tmp_path):
    from cargo_sim.runners.runs import run_to_dir
    run_to_dir(tmp_path / "u", 20, ["random", "random"], seed=3, chunk_games=10, progress=False)
    markers = sorted((tmp_path / "u").glob("*.done"))
    assert len(markers) == 2
    markers[-1].unlink()                      # as if interrupted before its last chunk was done
    with pytest.raises(ConfigError, match="not finished .1 of 2 chunks.*--resume"):
        report.results_from_runs([tmp_path / "u"])
