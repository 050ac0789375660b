"""Shipwrights' aggregate counters: every section equals the same statistic computed in
pandas from simulate(..., events=True) of the same games (exact integers); they do not
depend on workers or chunking; halves merge into the whole; save/load round-trips; bad
input is one ConfigError line; the CLI prints the report."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from cargo_sim.games.shipwrights import aggregate_nb as K
from cargo_sim.games.shipwrights.aggregates import ShipwrightsAggregates
from cargo_sim.games.shipwrights.enums import (
    PLAYER_FIELDS,
    TF_DESTROY_TOOL,
    TF_REMOVE_CRAFT,
    TF_REMOVE_SHIP,
    TF_STEAL_CRAFT,
    TF_STEAL_GOODS,
)
from cargo_sim.games.shipwrights.rules import Rules
from tests.aggregate_checks import (
    assert_sections_equal,
    check_bad_input,
    check_cli_aggregate,
    check_halves_and_save_load,
    check_workers_chunking_overflow,
    expected_seat_sections,
    hist,
)

N, SEED = 120, 21
GAME = "shipwrights"


def agg(n, players, seed=SEED, **kw):
    return cargo_sim.aggregate(n, players, seed=seed, game=GAME, progress=False, **kw)


@pytest.fixture(scope="module")
def pair():
    players = ["random"] * 4
    a = agg(N, players, workers=2, chunk_size=40)
    res = cargo_sim.simulate(N, players, seed=SEED, game=GAME, progress=False, events=True)
    return a, res


def expected_sections(res) -> dict:
    """Every counter section computed independently from the tables and the event log."""
    out, p, share = expected_seat_sections(
        res, K.SECTIONS, PLAYER_FIELDS, K.GAME_STATS,
        {"vp_hist": ("vp", K.VP_BINS, 0), "ships_hist": ("ships", K.SHIP_BINS, 0)},
        share=("win60", K.WIN_SHARE_SCALE))
    g, ev = res.games, res.events
    out["days_hist"][:] = hist(g["days"], K.DAY_BINS)
    act = ev["action"].astype(str)
    e = {name: ev[act == name] for name in act.unique()}

    def get(name):
        return e.get(name, ev.iloc[:0])

    plays = pd.concat([get(x) for x in ("tool", "hire", "start_ship", "build", "townsfolk")])
    for j, d in enumerate((get("draft"), get("draw"), plays, get("discard"))):
        for f, k in d.groupby("a").size().items():
            out["cards"][f, j] = k
    for f, v in pd.concat([plays, get("complete")]).groupby("a")["gold"].sum().items():
        out["cards"][f, 4] = v
    drafters = get("draft")[["game", "seat", "a"]].drop_duplicates().merge(
        p.assign(share=share)[["game", "seat", "share", "vp"]], on=["game", "seat"])
    for f, d in drafters.groupby("a"):
        out["card_holders"][f] = len(d), d["share"].sum(), d["vp"].sum()
    for f, k in get("start_ship").groupby("a").size().items():
        out["ships"][f, 0] = k
    for f, d in get("complete").groupby("a"):
        out["ships"][f, 1:] = len(d), d["points"].sum(), (d["c"] >= 0).sum()
    # attacks: one-victim townsfolk name the victim in b; gold effects leave lose_gold rows
    # (seat = victim, a = attacker) just before the attacker's townsfolk row
    town = Rules.default().arrays()["townsfolk"][:, 0]
    first = len(Rules.default().card_names) - len(town)
    victim_of = {TF_REMOVE_CRAFT: 8, TF_REMOVE_SHIP: 8, TF_STEAL_CRAFT: 8, TF_STEAL_GOODS: 8,
                 TF_DESTROY_TOOL: 1}
    rows = pd.concat([get("townsfolk"), get("lose_gold")]).sort_index()
    pend = {}
    for r in rows.itertuples():
        if r.action == "lose_gold":
            if r.a != r.seat:
                out["attacks"][r.a, r.seat] += 1
                v = pend.setdefault((r.game, r.a), [0, 0])
                v[0], v[1] = v[0] + 1, v[1] - r.gold
            continue
        div = victim_of.get(int(town[r.a - first]))
        if div is not None and r.b // div != r.seat:
            out["attacks"][r.seat, r.b // div] += 1
            out["attack_faces"][r.a, 0] += 1
        v = pend.pop((r.game, r.seat), [0, 0])
        out["attack_faces"][r.a] += v
    mil = get("military")
    for seat, d in mil.groupby("seat"):
        out["military"][seat] = len(d), (d["b"] > 1).sum()
    holders = mil.groupby("game").size().reindex(g["game"], fill_value=0)
    out["military_games"][:] = (holders == 1).sum(), (holders > 1).sum(), (holders == 0).sum()
    for kind, d in get("buy_goods").groupby("a"):
        out["goods"][kind] = len(d), d["b"].sum()
    return out


def test_counters_equal_the_tables_of_the_same_games(pair):
    a, res = pair
    assert_sections_equal(a, expected_sections(res), K.SECTIONS)
    # the counters are not trivially empty: the rules the tables show happened
    assert a.n_games == N and a["attacks"].sum() > 0 and a["ships"][:, 1].sum() > 0
    assert a["military_games"].sum() == N and a["cards"][:, 0].sum() > 0
    # every path of the fold was taken: tools on ships, gold attacks, a shared token, a tie, draws
    assert a["ships"][:, 3].sum() > 0 and a["attack_faces"][:, 1].sum() > 0
    assert a["military"][:, 1].sum() > 0 and a["ties"][0] > 0 and a["cards"][:, 1].sum() > 0
    # every attack is one the players table counts (attacks made, attacks suffered)
    p = res.players
    assert np.array_equal(a["attacks"][:4].sum(1)[:4], p.groupby("seat")["attacks"].sum())
    assert np.array_equal(a["attacks"][:4, :4].sum(0), p.groupby("seat")["attacked"].sum())


def test_tables_read_the_counters(pair):
    a, res = pair
    p = res.players
    w = a.win_rates()
    assert np.allclose(w["win_rate"], p.groupby("seat")["win_share"].mean())
    src = a.score_sources()
    by_seat = src[src["source"] != "total"].groupby("seat")["mean"].sum()
    assert np.allclose(by_seat, p.groupby("seat")["vp"].mean())             # the sources sum to the score
    ships = a.ships()
    assert ships["completed"].sum() == p["ships"].sum()
    assert (ships["completed"] <= ships["started"]).all()
    assert (ships["points"] == ships["completed"] * ships["ship_points"]).all()
    mil = (ships["completed"] * ships["military"]).sum()
    assert mil == p["military"].sum()
    cards = a.cards()
    assert (cards["played"] <= cards["drafted"] + cards["drawn"]).all()
    assert cards.loc[cards["kind"] == "building", "played"].sum() == p["buildings"].sum()
    assert cards.loc[cards["kind"] == "tool", "played"].sum() == p["tools"].sum()
    assert cards.loc[cards["kind"] == "townsfolk", "played"].sum() == p["townsfolk"].sum()
    assert a.goods()["purchases"].sum() == p["goods_bought"].sum()
    assert a.distribution("vp").groupby("seat")["count"].sum().eq(N).all()
    assert a.game_length().set_index("stat").loc["days", "mean"] == res.games["days"].mean()
    m = a.military()
    assert m["count"].iloc[:4].sum() == (p["military_vp"] > 0).sum()
    assert a.attack_cards()["victims"].sum() == a["attacks"].sum()


def test_workers_and_chunking_do_not_matter_and_overflow_replays(monkeypatch):
    from cargo_sim.games.shipwrights import aggregates as A
    check_workers_chunking_overflow(agg, A, monkeypatch, ["random"] * 3)


def test_halves_merge_into_the_whole_and_save_load(tmp_path):
    check_halves_and_save_load(agg, GAME, ShipwrightsAggregates, "cards", tmp_path, ["random"] * 2)


def test_bad_input_is_one_config_error(tmp_path):
    check_bad_input(agg(5, ["random"] * 2, seed=1), GAME, "macao", tmp_path)


def test_cli_aggregate_and_run_folder(tmp_path, capsys):
    check_cli_aggregate(agg, GAME, ["ships completed"], tmp_path, capsys)
