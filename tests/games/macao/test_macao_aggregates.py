"""Macao's aggregate counters: every section equals the same statistic computed in
pandas from simulate(..., events=True) of the same games (exact integers); they do not
depend on workers or chunking; halves merge into the whole; save/load round-trips; bad
input is one ConfigError line; the CLI and a resumed run folder give the same counters."""
from __future__ import annotations

import numpy as np
import pytest

import cargo_sim
from cargo_sim import ConfigError
from cargo_sim.games.macao import aggregate_nb as K
from cargo_sim.games.macao.aggregates import MacaoAggregates
from cargo_sim.games.macao.enums import PLAYER_FIELDS
from tests.aggregate_checks import (
    assert_sections_equal,
    check_bad_input,
    check_halves_and_save_load,
    expected_seat_sections,
    hist,
)

N, SEED = 150, 21
TABLES = {"random4": ["random"] * 4, "mixed3": ["greedy", "builder", "shipper"]}


def agg(n, players, seed=SEED, **kw):
    return cargo_sim.aggregate(n, players, seed=seed, game="macao", progress=False, **kw)


@pytest.fixture(scope="module", params=sorted(TABLES))
def pair(request):
    players = TABLES[request.param]
    a = agg(N, players, workers=2, chunk_size=40)
    res = cargo_sim.simulate(N, players, seed=SEED, game="macao", progress=False, events=True)
    return a, res


def expected_sections(res) -> dict:
    """Every counter section computed independently from the tables and the event log."""
    out, p, share = expected_seat_sections(
        res, K.SECTIONS, PLAYER_FIELDS, K.GAME_STATS,
        {"vp_hist": ("vp", K.VP_BINS, K.VP_MIN), "city_hist": ("quarters", K.CITY_BINS, 0),
         "group_hist": ("group", K.CITY_BINS, 0), "wall_hist": ("wall", K.WALL_BINS, 0)},
        share=("win12", K.WIN_SHARE_SCALE))
    # the players table's own win shares agree with the rule the counters count by
    assert np.array_equal(share, np.rint(p["win_share"] * K.WIN_SHARE_SCALE))
    g, ev = res.games, res.events
    n = int(g["n_players"].iloc[0])
    out["rounds_hist"][:] = hist(g["rounds"], K.MAX_ROUNDS)
    act = ev["action"].astype(str)
    e = {name: ev[act == name] for name in act.unique()}
    empty = ev.iloc[:0]

    def get(name):
        return e.get(name, empty)

    # by round: the game's total, then sum and sum of squares over games
    per_round = {"tributes": (get("tribute"), None), "tribute_points": (get("tribute"), "points"),
                 "tribute_coins": (get("tribute"), "coins"), "wall_steps": (get("wall"), None),
                 "wall_cubes": (get("wall"), "b"), "sails": (get("sail"), None),
                 "deliveries": (get("deliver"), None), "delivery_points": (get("deliver"), "points"),
                 "goods": (get("goods"), None), "completions": (get("complete"), None),
                 "wasted_cubes": (get("wasted"), "a"), "zero_cubes": (get("zero_cubes"), None)}
    for i, f in enumerate(K.ROUND_FIELDS):
        d, col = per_round[f]
        val = d.assign(v=1 if col is None else d[col] * (-1 if f == "tribute_coins" else 1))
        tot = val.assign(r=np.clip(val["round"], 0, K.MAX_ROUNDS - 1)).groupby(["r", "game"])["v"].sum()
        for r, t in tot.groupby(level=0):
            out["round_stats"][r, i] = t.sum(), (t.astype(np.int64) ** 2).sum()
    lots = get("lot").sort_index()
    for (game, seat), d in lots.groupby(["game", "seat"]):
        colours = d["a"].to_numpy()
        for a, b in zip(colours[0::2], colours[1::2]):
            out["dice_pairs"][seat, a, b] += 1
    for (seat, colour), d in lots.groupby(["seat", "a"]):
        out["lots"][seat, colour] = len(d), d["c"].sum()
    draft = get("draft")
    kinds = (get("offer"), draft[draft["round"] > 0], draft[draft["round"] == 0], get("complete"),
             get("discard"), get("activate"))
    for j, d in enumerate(kinds):
        d = d[d["a"] >= 0]
        for c, k in d.groupby("a").size().items():
            out["cards"][c, j] = k
    for c, v in get("end_card").groupby("a")["points"].sum().items():
        out["cards"][c, 6] = v
    holders = get("complete")[["game", "seat", "a"]].drop_duplicates()
    holders = holders.merge(p[["game", "seat", "win_share", "vp"]], on=["game", "seat"])
    for c, d in holders.groupby("a"):
        out["card_holders"][c] = (len(d), np.rint(d["win_share"] * K.WIN_SHARE_SCALE).sum(), d["vp"].sum())
    for q, d in get("goods").groupby("a"):
        out["quarters"][q] = len(d), d["round"].sum()
    for (port, good), d in get("deliver").groupby(["a", "b"]):
        out["deliveries"][port, good] = len(d), d["points"].sum()
    causes = [(get("zero_cubes"), None, 1), (get("discard"), None, 1), (get("markers"), "a", 1),
              (get("markers"), "points", -1), (get("tableau"), "a", 1), (get("tableau"), "points", -1)]
    for i, (d, col, sign) in enumerate(causes):
        v = d.assign(v=1 if col is None else d[col] * sign).groupby(["seat", "game"])["v"].sum()
        for seat, t in v.groupby(level=0):
            out["penalties"][seat, i] = t.sum(), (t.astype(np.int64) ** 2).sum()
    assert n == p["seat"].nunique()
    return out


def test_counters_equal_the_tables_of_the_same_games(pair):
    a, res = pair
    assert_sections_equal(a, expected_sections(res), K.SECTIONS)
    # the counters are not trivially empty: the rules the tables show happened
    assert a.n_games == N and a["round_stats"][..., 0].sum() > 0 and a["dice_pairs"].sum() > 0
    assert a["lots"][..., 0].sum() == 2 * a["dice_pairs"].sum()


def test_tables_read_the_counters(pair):
    a, res = pair
    p = res.players
    w = a.win_rates()
    assert np.allclose(w["win_rate"], p.groupby("seat")["win_share"].mean())
    assert (w["ci_lo"] <= w["win_rate"]).all() and (w["win_rate"] <= w["ci_hi"]).all()
    src = a.score_sources()
    by_seat = src[src["source"] != "total"].groupby("seat")["mean"].sum()
    assert np.allclose(by_seat, p.groupby("seat")["vp"].mean())             # the sources sum to the score
    total = src[src["source"] == "total"].set_index("seat")
    assert np.allclose(total["mean"], p.groupby("seat")["vp"].mean())
    won = p[p["won"] > 0].groupby("seat")["delivery_vp"].mean()
    got = src[src["source"] == "deliveries"].set_index("seat")["winners_mean"]
    assert np.allclose(got[won.index], won)
    dice = a.dice_choices()
    assert np.allclose(dice.groupby("seat")["share"].sum(), 1.0) and (dice["colour_1"] != dice["colour_2"]).all()
    cards = a.cards()
    assert (cards["drafted"] <= cards["offered"]).all() and cards["offered"].sum() > 0
    assert (cards["completed"] <= cards["drafted"] + cards["start_drafted"]).all()
    assert cards["start_drafted"].sum() == N * a.n_players      # one card each at setup
    q = a.quarters()
    assert (q["taken"] <= a.n_games).all()
    vp = a.distribution("vp")
    assert vp.groupby("seat")["count"].sum().eq(N).all() and vp["vp"].min() == p["vp"].min()
    length = a.game_length().set_index("stat")
    assert length.loc["rounds", "mean"] == res.games["rounds"].mean()
    pen = a.penalties()
    zero = pen[pen["cause"] == "zero_cube"].set_index("seat")["mean"]
    assert np.allclose(zero, p.groupby("seat")["zero_cube"].mean())
    # every goods tile taken is a quarter held; every delivery is in the players' count
    goods = a.by_round().query("stat == 'goods'")
    assert np.isclose((goods["mean"] * goods["n"]).sum(), p["quarters"].sum())
    assert a.deliveries()["count"].sum() == p["deliveries"].sum()


def test_workers_and_chunking_do_not_matter():
    players = TABLES["random4"]
    one = agg(120, players, seed=5, workers=1)
    two = agg(120, players, seed=5, workers=2, chunk_size=7)
    big = agg(120, players, seed=5, workers=2, chunk_size=64)
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.counts, big.counts)


def test_event_buffer_overflow_replays_the_chunk(monkeypatch):
    from cargo_sim.games.macao import aggregates as A
    players = TABLES["random4"]
    ref = agg(40, players, seed=2, workers=1)
    monkeypatch.setattr(A, "EVENT_ROWS_PER_SEAT", 1)      # every game overflows at first
    assert agg(40, players, seed=2, workers=2, chunk_size=16) == ref


def test_halves_merge_into_the_whole_and_save_load(tmp_path):
    m, back = check_halves_and_save_load(agg, "macao", MacaoAggregates, "cards", tmp_path,
                                         TABLES["random4"], n=(60, 40))
    assert back.rules == m.rules


def test_bad_input_is_one_config_error(tmp_path):
    a = agg(5, ["random"] * 2, seed=1)
    with pytest.raises(ConfigError, match="chunk_size"):
        agg(5, ["random"] * 2, chunk_size=0)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a cargo_sim aggregates file"):
        cargo_sim.load_aggregates(tmp_path / "bad.npz", game="macao")
    with pytest.raises(ConfigError, match="cannot merge aggregates of different runs"):
        a + agg(5, ["random"] * 3, seed=1)
    # a Macao file is not Cargo Noir's (another counter layout); lying game ranges
    check_bad_input(a, "macao", "cargo_noir", tmp_path)


def test_cli_and_resumed_run_folder(tmp_path, capsys):
    from cargo_sim.cli import main
    from cargo_sim.runners import runs
    players = TABLES["random4"]
    ref = agg(90, players, seed=3)
    rc = main(["simulate", "--game", "macao", "--aggregate", "-n", "90", "-p", ",".join(players),
               "--seed", "3", "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0 and "aggregated" in text and "equal seats" in text and "points by source" in text
    folder = tmp_path / "run"
    argv = ["simulate", "--game", "macao", "--aggregate", "-n", "90", "-p", ",".join(players),
            "--seed", "3", "--out", str(folder), "--chunk-games", "40", "--no-progress"]
    assert main(argv) == 0
    capsys.readouterr()
    assert cargo_sim.load_aggregates(folder) == ref
    # lose a chunk and the merged file: --resume plays only that chunk
    for name in ("agg-00001.npz", "agg-00001.done", "aggregates.npz"):
        (folder / name).unlink()
    info = runs.aggregate_to_dir(folder, 90, players, seed=3, chunk_games=40, progress=False,
                                 resume=True, game="macao")
    assert info.games_played == 40 and cargo_sim.load_aggregates(folder / "aggregates.npz", game="macao") == ref
    (folder / "agg-00002.npz").unlink()
    (folder / "agg-00002.done").unlink()
    assert main(argv + ["--resume"]) == 0
    assert "aggregates.npz" in capsys.readouterr().out
    assert cargo_sim.load_aggregates(folder) == ref
