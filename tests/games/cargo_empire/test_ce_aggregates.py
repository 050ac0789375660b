"""Cargo Empire's aggregate counters: every section equals the same statistic computed in
pandas from simulate(..., events=True) of the same games (exact integers); they do not
depend on workers or chunking; halves merge into the whole; save/load round-trips; bad
input is one ConfigError line; the CLI prints the report."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from cargo_sim import ConfigError
from cargo_sim.games.cargo_empire import aggregate_nb as K
from cargo_sim.games.cargo_empire.aggregates import EmpireAggregates
from cargo_sim.games.cargo_empire.enums import N_VEH, PLAYER_FIELDS
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
GAME = "cargo_empire"


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
    out, p, _ = expected_seat_sections(
        res, K.SECTIONS, PLAYER_FIELDS, K.GAME_STATS,
        {"vp_hist": ("vp", K.VP_BINS, 0), "missions_hist": ("missions_done", K.MISSION_BINS, 0)})
    g, ev = res.games, res.events
    n = int(g["n_players"].iloc[0])
    act = ev["action"].astype(str)
    e = {name: ev[act == name] for name in act.unique()}

    def get(name):
        return e.get(name, ev.iloc[:0])

    dl = get("deliver")
    for (a, b), d in dl.groupby(["a", "b"]):
        out["routes"][a, b] = len(d)
    for col, d in dl.groupby("d"):
        out["colours"][col] = len(d)
    w = dl["c"].to_numpy(np.int64)
    paid = np.stack([(w >> (8 * v)) & 255 for v in range(N_VEH)], 1)
    for v in range(N_VEH):
        out["pay_hist"][v] = hist(paid[:, v], K.PAY_BINS)
    out["cards_hist"][:] = hist(paid.sum(1), K.CARD_BINS)
    for (lv, perfect), d in get("upgrade").groupby(["b", "c"]):
        out["upgrades"][lv - 2, perfect] = len(d)
    for (city, lv), d in get("upgrade").groupby(["a", "b"]):
        out["upgrade_cities"][city, lv - 2] = len(d)
    st = get("step")
    per = st.groupby(["game", "seat", "a"]).size()
    full = pd.MultiIndex.from_product([g["game"], range(n), range(N_VEH)], names=["game", "seat", "a"])
    per = per.reindex(full, fill_value=0).to_numpy(np.int64).reshape(len(g), n, N_VEH)
    out["steps"][:n, :, 0], out["steps"][:n, :, 1] = per.sum(0), (per * per).sum(0)
    for (v, r), d in st.groupby(["a", "b"]):
        out["rewards"][v, r] = len(d)
    last = st.groupby(["game", "seat", "a"])["c"].last().reindex(full, fill_value=0)
    for v in range(N_VEH):
        out["track_end"][v] = hist(last.xs(v, level="a"), K.TRACK_BINS)
    for m, d in get("mission").groupby("a"):
        out["missions"][m] = len(d)
    ps = get("pass")
    for seat, d in ps.groupby("seat"):
        out["passes"][seat] = (d["a"] == 0).sum(), (d["a"] > 0).sum()
    for (seat, v), d in get("card").groupby(["seat", "a"]):
        out["cards_gained"][seat, v] = d["b"].sum()
    first = get("order")
    first = first[first["round"] == 0][["game", "seat", "a"]].merge(p[["game", "seat", "won", "vp"]],
                                                                    on=["game", "seat"])
    for i, d in first.groupby("a"):
        vp = d["vp"].to_numpy(np.int64)
        out["order"][i] = len(d), d["won"].sum(), vp.sum(), (vp * vp).sum()
    return out


def test_counters_equal_the_tables_of_the_same_games(pair):
    a, res = pair
    assert_sections_equal(a, expected_sections(res), K.SECTIONS)
    # the counters are not trivially empty, and agree with the players table's rules
    p = res.players
    assert a.n_games == N and a["routes"].sum() == p["deliveries"].sum()
    assert a["upgrades"].sum() == p["upgrades"].sum() and a["upgrades"][:, 1].sum() == p["perfect"].sum()
    assert a["steps"][..., 0].sum() == p["steps"].sum() and a["passes"].sum() == p["passes"].sum()
    assert a["order"][:4, 0].tolist() == [N] * 4 and a["order"][:4, 1].sum() == N   # one winner a game
    # every path of the fold was taken: perfect and not at both levels, both passes, every reward
    assert (a["upgrades"] > 0).all() and (a["passes"][:4] > 0).all() and (a["rewards"].sum(0) > 0).all()
    played = a["pay_hist"] @ np.arange(K.PAY_BINS)
    assert played.tolist() == [p[f"{v}s_played"].sum() for v in ("truck", "train", "ship")]


def test_tables_read_the_counters(pair):
    a, res = pair
    p = res.players
    w = a.win_rates()
    assert np.allclose(w["win_rate"], p.groupby("seat")["won"].mean())
    src = a.score_sources()
    by_seat = src[src["source"] != "total"].groupby("seat")["mean"].sum()
    assert np.allclose(by_seat, p.groupby("seat")["vp"].mean())             # the sources sum to the score
    by_len = a.deliveries("length")
    assert by_len["count"].sum() == p["deliveries"].sum() and (by_len["length"] >= 1).all()
    assert np.isclose(by_len["share"].sum(), 1.0)
    assert a.deliveries("colour")["count"].sum() == a.deliveries("route")["count"].sum()
    up = a.upgrades()
    assert (up["perfect"] <= up["count"]).all()
    assert up.loc[up["level"] == 3, "count"].item() == res.games["lv3_cities"].sum()
    tr = a.tracks()
    assert np.allclose(tr.groupby("seat")["mean"].sum(), p.groupby("seat")["steps"].mean())
    assert a.track_ends().groupby("vehicle")["count"].sum().eq(N * 4).all()
    assert a.missions()["kept"].sum() == p["missions"].sum()
    so = a.start_order()
    assert so["n"].eq(N).all() and np.isclose(so["win_rate"].sum(), 1.0)
    assert a.distribution("missions").groupby("seat")["count"].sum().eq(N).all()


def test_workers_and_chunking_do_not_matter_and_overflow_replays(monkeypatch):
    from cargo_sim.games.cargo_empire import aggregates as A
    check_workers_chunking_overflow(agg, A, monkeypatch, ["random"] * 3)


def test_halves_merge_into_the_whole_and_save_load(tmp_path):
    m, back = check_halves_and_save_load(agg, GAME, EmpireAggregates, "start_order", tmp_path,
                                         ["random"] * 2)
    pd.testing.assert_frame_equal(back.deliveries("length"), m.deliveries("length"))


def test_bad_input_is_one_config_error(tmp_path):
    a = agg(5, ["random"] * 2, seed=1)
    with pytest.raises(ConfigError, match="no deliveries by 'port'"):
        a.deliveries("port")
    check_bad_input(a, GAME, "shipwrights", tmp_path)


def test_cli_aggregate_and_run_folder(tmp_path, capsys):
    check_cli_aggregate(agg, GAME, ["start player"], tmp_path, capsys)
