"""Cargo Empire's report and robustness hooks (cargo_sim/games/cargo_empire/analyses.py,
report.py, figures.py): numbers recomputed from the tables and the log, the designs
respected, the report built through the contract, the map factor of the study. Small
runs: 30 three-player games of experts with their log, 20 two-player mixed games."""
from __future__ import annotations

import pytest

import cargo_sim
from analyses import robustness as R
from analyses.data import combine
from cargo_sim.cli import main
from cargo_sim.core.errors import ConfigError
from cargo_sim.games.cargo_empire import analyses as A
from cargo_sim.games.cargo_empire.rules import Rules


@pytest.fixture(scope="module")
def tables():
    three = cargo_sim.simulate(30, ["expert"] * 3, seed=5, events=True, game="cargo_empire", progress=False)
    two = cargo_sim.simulate(20, ["expert", "greedy"], seed=6, game="cargo_empire", progress=False)
    t = combine([three, two], events_games=30)
    return t, A.run_all(t)


def test_score_sources_sum_to_the_final_score(tables):
    t, out = tables
    s = out["score_breakdown"]
    for (n, who), d in s.groupby(["n_players", "who"]):
        parts = d[d["source"] != "total"]["mean"].sum()
        assert parts == pytest.approx(d[d["source"] == "total"]["mean"].iloc[0]), (n, who)


def test_seat_table_only_for_mirrors_and_start_places_share_every_win(tables):
    t, out = tables
    seats = out["win_rate_by_seat"]
    assert set(seats["n_players"]) == {3}                   # the 2-player table mixes two bots
    f = out["first_player"]
    assert set(f["n_players"]) == {3} and list(f["place"]) == [1, 2, 3] and set(f["n"]) == {30}
    assert f["win_rate"].sum() == pytest.approx(1.0)         # one winner a game, one player a place


def test_cards_paid_in_the_log_are_the_cards_played(tables):
    t, out = tables
    dv = A._deliveries(t)
    ep = t.players[t.players["game"].isin(dv["game"].unique())].set_index(["game", "seat"]).sort_index()
    paid = dv.groupby(["game", "seat"])[["trucks", "trains", "ships"]].sum().reindex(ep.index, fill_value=0)
    for v in ("truck", "train", "ship"):
        assert (paid[v + "s"].to_numpy() == ep[v + "s_played"].to_numpy()).all(), v
    # a route is paid in full: land cards cover at least the shortest route's land length
    sea = int(t.rules["sea_hop_length"])
    assert (dv["trucks"] + 2 * dv["trains"] + sea * dv["ships"] >= dv["length"]).all()
    c = out["delivery_costs"]
    allrow = c[c["vehicle"] == "all"].iloc[0]
    assert allrow["n"] == len(dv) and allrow["per_delivery"] == pytest.approx(dv["cards"].mean())
    assert out["delivery_lengths"]["share"].sum() == pytest.approx(1.0)


def test_a_vehicle_on_the_score_spaces_is_a_player_with_development_points(tables):
    t, out = tables
    # past the last tile the marker waits at its end and scores from one step further
    st = t.events[t.events["action"] == "step"]
    last = st.groupby(["game", "seat", "a"])[["c", "d"]].last()
    scoring = ((last["c"] >= int(t.rules["dev_tiles_used"])) & (last["d"] >= 0)).groupby(["game", "seat"]).sum()
    p = t.players[t.players["n_players"] == 3].set_index(["game", "seat"])
    k = scoring.reindex(p.index, fill_value=0)
    assert ((k > 0) == (p["dev_vp"] > 0)).all()
    w = out["scoring_vehicles_win"]
    assert w["n"].sum() == len(p)


def test_upgrades_missions_and_passes_agree_with_the_players(tables):
    t, out = tables
    up = t.events[t.events["action"] == "upgrade"]
    p3 = t.players[t.players["n_players"] == 3]
    assert len(up) == p3["upgrades"].sum() and (up["c"] > 0).sum() == p3["perfect"].sum()
    m = out["missions"].set_index(["n_players", "bot"])
    assert m.loc[(3, "expert"), "done"] == pytest.approx(p3["missions_done"].mean())
    ps = out["passes"].set_index(["n_players", "bot"])
    assert ps.loc[(3, "expert"), "passes"] == pytest.approx(p3["passes"].mean())


def test_report_through_the_cli(tmp_path):
    out = tmp_path / "rep"
    assert main(["report", "--game", "cargo_empire", "--out", str(out), "--games", "30",
                 "--events-games", "30", "--players", "3=expert,expert,expert", "--no-svg",
                 "--no-progress", "--seed", "2"]) == 0
    md = (out / "index.md").read_text()
    from cargo_sim.games.cargo_empire.report import SECTIONS
    for title, *_ in SECTIONS:
        assert f"## {title}" in md
    assert "start player (drawn at random) wins" in md
    figs = {f.stem for f in (out / "figures").glob("*.png")}
    assert {"first_player", "delivery_lengths", "development", "win_rate_by_seat"} <= figs


# ---- the robustness hooks: the map as a factor -------------------------------------------
def test_map_parameters_are_studied_through_the_map_factor():
    rules = Rules.default()
    full = R._params(rules, R.Design(game="cargo_empire"))
    assert not {"map_cities", "gen_cities", "gen_port_share", "gen_degree"} & set(full)
    assert "truck_icons" in full
    named = R.Design(game="cargo_empire", params=("map",))
    assert R._params(rules, named) == {} and list(R.chosen_factors(named)) == ["map"]
    levels = [lv for _, lv, _, _ in R.factor_variants(rules, named)]
    assert levels == list(A.MAPS["levels"])


def test_a_map_level_equal_to_the_default_holds_and_a_bad_level_is_one_error(monkeypatch):
    maps = {"default": "Europe-24", "levels": {"Europe-24 again": {"map_cities": 24}}}
    monkeypatch.setitem(A.ROBUSTNESS, "factors", {"map": maps})
    design = R.Design(games=20, morris_trajectories=0, player_counts=(2,), seed=3, workers=1,
                      params=("map",), game="cargo_empire")
    res = R.run(design=design, log=lambda *a: None)
    assert set(res["oat"]["parameter"]) == {"map"} and not res["oat"]["flipped"].any()
    v = res["verdicts"]
    assert (v["across map"] == "holds on every map (2: Europe-24 and 1 more)").all()
    assert set(v["headline"]) == {"start.2", "source.2", "ranking", "leader"}
    monkeypatch.setitem(A.ROBUSTNESS, "factors", {"map": {"default": "Europe-24",
                                                          "levels": {"too big": {"map_seed": 1, "gen_cities": 30}}}})
    with pytest.raises(ConfigError, match=r"^factor 'map', level 'too big': .*tile") as e:
        R.check_factors(Rules.default(), design)
    assert "\n" not in str(e.value)


def test_an_unknown_parameter_is_still_refused():
    with pytest.raises(ConfigError, match="no plausible range for nosuch"):
        R._params(Rules.default(), R.Design(game="cargo_empire", params=("nosuch",)))


def test_across_factor_names_the_maps_a_headline_flips_on():
    import pandas as pd
    oat = pd.DataFrame({"headline": ["h"] * 3, "parameter": ["map"] * 3, "value": ["a", "b", "c"],
                        "flipped": [True, True, False], "clear": [True, False, False]})
    assert R.across_factor(oat, "h", "map", "d") == "differs on a; near-tie on b (of 4)"
    v = R.verdicts({"h": ("x", {"x": 1.0, "y": 0.0}, {})}, oat.assign(conclusion="y"),
                   {"map": {"default": "d", "levels": {}}})
    assert v["across map"].tolist() == ["differs on a; near-tie on b (of 4)"]
    assert v["mark"].tolist() == ["depends on map"]
