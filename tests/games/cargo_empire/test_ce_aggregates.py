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


def _hist(values, n_bins):
    return np.bincount(np.clip(np.asarray(values, np.int64), 0, n_bins - 1), minlength=n_bins)


def expected_sections(res) -> dict:
    """Every counter section computed independently from the tables and the event log."""
    p, g, ev = res.players.sort_values(["game", "seat"]), res.games, res.events
    n = int(g["n_players"].iloc[0])
    out = {name: np.zeros(shape, np.int64) for name, shape, _ in K.SECTIONS}
    out["games"][0] = len(g)
    for seat, d in p.groupby("seat"):
        out["wins"][seat] = d["won"].sum()
        for i, f in enumerate(PLAYER_FIELDS):
            x = d[f].to_numpy(np.int64)
            out["player_sum"][seat, i] = x.sum()
            out["player_sumsq"][seat, i] = (x * x).sum()
            out["winner_sum"][seat, i] = x[d["won"].to_numpy() > 0].sum()
        out["vp_hist"][seat] = _hist(d["vp"], K.VP_BINS)
        out["missions_hist"][seat] = _hist(d["missions_done"], K.MISSION_BINS)
    for i, f in enumerate(K.GAME_STATS):
        x = g[f].to_numpy(np.int64)
        out["game_sum"][i], out["game_sumsq"][i] = x.sum(), (x * x).sum()
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
        out["pay_hist"][v] = _hist(paid[:, v], K.PAY_BINS)
    out["cards_hist"][:] = _hist(paid.sum(1), K.CARD_BINS)
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
        out["track_end"][v] = _hist(last.xs(v, level="a"), K.TRACK_BINS)
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
    want = expected_sections(res)
    bad = [name for name, _, _ in K.SECTIONS if not np.array_equal(a[name], want[name])]
    assert not bad, bad
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
    players = ["random", "random", "random"]
    one = agg(60, players, seed=5, workers=1)
    two = agg(60, players, seed=5, workers=2, chunk_size=7)
    assert np.array_equal(one.counts, two.counts)
    monkeypatch.setattr(A, "EVENT_ROWS_PER_SEAT", 1)      # every game overflows at first
    assert agg(60, players, seed=5, workers=2, chunk_size=32) == one


def test_halves_merge_into_the_whole_and_save_load(tmp_path):
    players = ["random"] * 2
    whole = agg(50, players, seed=9)
    h1, h2 = agg(30, players, seed=9), agg(20, players, seed=9, start=30)
    m = h1 + h2
    assert np.array_equal(m.counts, whole.counts) and m.config["parts"] == [[9, 0, 50]]
    with pytest.raises(ConfigError, match="share games"):
        h1 + whole
    path = m.save(tmp_path / "m.npz")
    back = cargo_sim.load_aggregates(path, game=GAME)
    assert isinstance(back, EmpireAggregates) and back == m and back.config == m.config
    pd.testing.assert_frame_equal(back.deliveries("length"), m.deliveries("length"))


def test_bad_input_is_one_config_error(tmp_path):
    a = agg(5, ["random"] * 2, seed=1)
    with pytest.raises(ConfigError, match="no deliveries by 'port'"):
        a.deliveries("port")
    with pytest.raises(ConfigError, match="no distribution of 'points'"):
        a.distribution("points")
    with pytest.raises(ConfigError, match="unknown player statistic"):
        a.player_means(["nosuch"])
    path = a.save(tmp_path / "ce.npz")
    with pytest.raises(ConfigError, match="another format or counter layout"):
        cargo_sim.load_aggregates(path, game="shipwrights")
    a.config["parts"] = [[1, 0, 7]]
    a.save(tmp_path / "lie.npz")
    with pytest.raises(ConfigError, match="5 games counted, its game ranges hold 7"):
        cargo_sim.load_aggregates(tmp_path / "lie.npz", game=GAME)


def test_cli_aggregate_and_run_folder(tmp_path, capsys):
    from cargo_sim.cli import main
    rc = main(["simulate", "--game", GAME, "--aggregate", "-n", "30", "-p", "random,random,random",
               "--seed", "3", "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0 and "aggregated" in text and "equal seats" in text and "start player" in text
    # a run folder on disk: chunk files merged, equal to the counters in memory
    folder = tmp_path / "run"
    assert main(["simulate", "--game", GAME, "--aggregate", "-n", "30", "-p", "random,random,random",
                 "--seed", "3", "--out", str(folder), "--chunk-games", "12", "--no-progress"]) == 0
    assert cargo_sim.load_aggregates(folder, game=GAME) == agg(30, ["random"] * 3, seed=3)
