"""aggregate(): counters folded in the compiled kernel equal the same statistics
computed in pandas from simulate(..., events=True) of the same run (exact
integers, every section); they do not depend on workers or chunking; halves
merge into the whole; save/load round-trips; bad requests get clear errors;
the chunked on-disk run and the CLI give the same counters."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from analyses import balance, bidding, casino, trade
from analyses.data import as_tables
from cargo_sim import Aggregates, BotError, CargoSimError, ConfigError, Rules
from cargo_sim.games.cargo_noir import aggregate_nb as K
from cargo_sim.games.cargo_noir import aggregates as A
from cargo_sim.games.cargo_noir.enums import PLAYER_FIELDS

N, SEED = 300, 11
TABLES = {
    "random4": ["random"] * 4,
    "mixed3": ["greedy", "random", "syndicate"],
}


@pytest.fixture(scope="module", params=sorted(TABLES))
def pair(request):
    players = TABLES[request.param]
    agg = cargo_sim.aggregate(N, players, seed=SEED, progress=False, workers=2, chunk_size=64)
    res = cargo_sim.simulate(N, players, seed=SEED, progress=False, events=True)
    return agg, res


def _hist(values, n_bins):
    return np.bincount(np.clip(np.asarray(values, dtype=np.int64), 0, n_bins - 1), minlength=n_bins)


def expected_sections(res) -> dict[str, np.ndarray]:
    """Every counter section computed independently from the tables and the event log."""
    t = as_tables(res)
    rules = res.rules
    p, g, ev = t.players, t.games, t.events
    n = int(g["n_players"].iloc[0])
    ports = rules.open_ports(n)
    port_i = {name: i for i, name in enumerate(ports)}
    cards = rules.card_names
    card_i = {c: i for i, c in enumerate(cards)}
    tb = lambda x: np.clip(np.asarray(x, dtype=np.int64), 0, K.MAX_TURNS - 1)   # noqa: E731
    out = {name: np.zeros(shape, np.int64) for name, shape, _ in K.SECTIONS}
    out["games"][0] = len(g)
    out["ties"][0] = int(g["tie"].sum())
    win60 = np.rint(p["win_share"].to_numpy(np.float64) * K.WIN_SHARE_SCALE).astype(np.int64)
    p = p.assign(win60=win60, won_i=p["won"].astype(np.int64), tie=np.repeat(g["tie"].to_numpy(), n))
    for seat, d in p.groupby("seat"):
        out["wins"][seat] = d["won_i"].sum()
        out["tied_wins"][seat] = (d["won_i"] * d["tie"]).sum()
        out["win60"][seat] = d["win60"].sum()
        for f, name in enumerate(PLAYER_FIELDS):
            v = d[name].to_numpy(np.int64)
            out["player_sum"][seat, f] = v.sum()
            out["player_sumsq"][seat, f] = (v * v).sum()
        out["vp_hist"][seat] = _hist(d["vp"], K.VP_BINS)
        vp = d["vp"].to_numpy(np.int64)
        for c, card in enumerate(cards):
            held = np.clip(d[f"card_{card}"].to_numpy(np.int64), 0, K.COPY_BINS - 1)
            for h in np.unique(held):
                m = held == h
                out["card_outcome"][seat, c, h] = (m.sum(), d["won_i"][m].sum(), d["win60"][m].sum(),
                                                   vp[m].sum(), (vp[m] ** 2).sum())
        visits = np.clip(d["casino_visits"].to_numpy(np.int64), 0, K.CASINO_BINS - 1)
        for h in np.unique(visits):
            m = visits == h
            out["casino_outcome"][seat, h] = (m.sum(), d["won_i"][m].sum(), d["win60"][m].sum(),
                                              vp[m].sum(), (vp[m] ** 2).sum())
    margins = balance.game_margins(t.players)["margin"].to_numpy(np.int64)
    out["margin_hist"][:] = _hist(margins, K.MARGIN_BINS)
    out["margin"][:] = (len(margins), margins.sum(), (margins ** 2).sum())
    for i, name in enumerate(K.GAME_STATS):
        v = g[name].to_numpy(np.int64)
        out["game_sum"][i], out["game_sumsq"][i] = v.sum(), (v * v).sum()
    out["shortfall_hist"][:] = _hist(g["shortfalls"], K.SHORT_BINS)
    out["shortfall_coins_hist"][:] = _hist(g["shortfall_coins"], K.SHORT_COIN_BINS)

    # bidding: the pandas auction episodes
    ep = bidding.episodes(ev, rules)
    ep = ep.assign(pi=ep["port"].map(port_i), contested_sends=np.where(ep["contested"], ep["sends"], 0),
                   won=ep["complete"].astype(np.int64))
    for (pi, ft), d in ep.groupby(["pi", tb(ep["first_turn"])]):
        out["episodes"][pi, ft] = (len(d), d["sends"].sum(), d["contested_sends"].sum(),
                                   d["raises"].sum(), d["abandons"].sum(), d["won"].sum())
    w = ep[ep["complete"]]
    price = w["price"].astype(np.int64)
    w = w.assign(price=price, price2=price ** 2, wt=tb(w["win_turn"]))
    for (pi, wt), d in w.groupby(["pi", "wt"]):
        out["port_wins"][pi, wt] = (len(d), d["price"].sum(), d["price2"].sum(),
                                    d["tokens"].astype(np.int64).sum(), d["value"].astype(np.int64).sum())
    for pi, d in w.groupby("pi"):
        out["price_hist"][pi] = _hist(d["price"], K.PRICE_BINS)
    over = ep[ep["complete"] & ep["runner_up"].notna()]["overpay"].to_numpy().astype(np.int64)
    out["overpay_hist"][:] = _hist(over, K.OVERPAY_BINS)
    out["overpay"][:] = (len(over), over.sum(), (over ** 2).sum())

    act = ev["action"].astype(str)
    syn = ev[act == "syndicate"]
    for seat, d in syn.groupby("seat"):
        out["syndicate"][seat] = (len(d), d["amount"].sum())
    dest = {"send casino": 0, "send black market": 1, "send port": 2}
    s = ev[act.isin(list(dest))]
    for (seat, turn, a), d in s.groupby([s["seat"], tb(s["turn"]), s["action"].astype(str)]):
        out["sends"][seat, turn, dest[a]] = len(d)
    c = ev[act == "casino"]
    for (seat, turn), d in c.groupby([c["seat"], tb(c["turn"])]):
        out["casino_turn"][seat, turn] = (d["count"].sum(), d["amount"].sum())
    coins = casino.safe_coins_at_turn_end(ev)
    for (seat, turn), d in coins.groupby([coins["seat"], tb(coins["turn"])]):
        v = d["coins"].to_numpy(np.int64)
        out["coins_turn"][seat, turn] = (len(v), v.sum(), (v * v).sum())

    tr = trade.trades(ev, rules)
    tr = tr.assign(lost=tr["lost"].astype(np.int64), value=tr["value"].astype(np.int64),
                   cost=tr["cost"].astype(np.int64))
    for (seat, turn), d in tr.groupby([tr["seat"], tb(tr["turn"])]):
        out["trade_turn"][seat, turn] = (len(d), d["tokens"].sum(), d["wilds"].sum(), d["value"].sum(),
                                         (d["value"] ** 2).sum(), d["coins_used"].sum(), d["cost"].sum(),
                                         d["lost"].sum(), (d["lost"] ** 2).sum(), (d["wilds"] > 0).sum(),
                                         (d["lost"] > 0).sum())
    for seat, d in tr.groupby("seat"):
        out["trade_value_hist"][seat] = _hist(d["value"], K.VALUE_BINS)
        out["trade_lost_hist"][seat] = _hist(d["lost"], K.LOST_BINS)
    b = ev[act == "buy"]
    per_game = b.groupby([b["card"].astype(str).map(card_i), tb(b["turn"]), b["game"]])["count"].sum()
    for (ci, turn), v in per_game.groupby(level=[0, 1]):
        v = v.to_numpy(np.int64)
        out["buys"][ci, turn] = (v.sum(), (v * v).sum())
    return out


def test_every_section_equals_pandas_from_events(pair):
    agg, res = pair
    assert agg.n_games == N and not agg.interrupted
    want = expected_sections(res)
    bad = [name for name, _, _ in K.SECTIONS if not np.array_equal(agg[name], want[name])]
    assert not bad, f"sections differing from the pandas statistics: {bad}"
    # the counts are not trivially zero
    assert agg["episodes"].sum() > 0 and agg["trade_turn"].sum() > 0 and agg["buys"].sum() > 0


def test_tables_match_the_pipelines(pair):
    agg, res = pair
    t = as_tables(res)
    w = agg.win_rates()
    ref = balance.win_rate_by_seat(t.players)
    assert np.allclose(w["win_rate"], ref["win_rate"], rtol=1e-6)
    assert np.allclose(w["ci_lo"], ref["ci_lo"], rtol=1e-5)
    assert (w["n"] == ref["n"]).all()
    chi = balance.seat_chi2(t.players).iloc[0]
    assert agg.seat_test()["chi2"] == pytest.approx(chi["chi2"], rel=1e-5)
    v = agg.vp()
    ref = balance.vp_summary(t.players)
    assert np.allclose(v["mean"], ref["mean"]) and np.allclose(v["ci_lo"], ref["ci_lo"])
    ep = bidding.episodes(t.events, res.rules)
    pr = agg.prices(by=("port",))
    ref = bidding.winning_price(ep, ["port"])
    ref = ref.set_index("port").loc[pr["port"]]
    assert np.allclose(pr["mean"], ref["mean"]) and np.allclose(pr["ci_hi"], ref["ci_hi"], equal_nan=True)
    br = agg.bidding(by=("turn",))
    ref = bidding.bidding_rates(t.events, ep, by=("first_turn",))
    assert (br["n"].to_numpy() == ref["n"].to_numpy()).all()
    assert np.allclose(br["contest_rate"], ref["contest_rate"], equal_nan=True)
    cs = agg.casino_share(by=("turn",))
    ref = casino.casino_share(t.events, ("turn",))
    assert np.allclose(cs["share"], ref["share"]) and (cs["n"].to_numpy() == ref["n"].to_numpy()).all()
    pt = agg.purchases_by_turn()
    ref = trade.purchases_by_turn(t.events, res.rules)
    assert np.allclose(pt["per_game"], ref["per_game"]) and np.allclose(pt["ci_hi"], ref["ci_hi"], equal_nan=True)
    tv = agg.trade_values()
    ref = trade.value_distribution(trade.trades(t.events, res.rules))
    assert (tv["count"].to_numpy() == ref["count"].to_numpy()).all()
    ce = agg.card_effect()
    assert ce["n"].sum() == N * agg.n_players * len(res.rules.card_names)


def test_workers_and_chunking_do_not_matter():
    players = TABLES["random4"]
    a = cargo_sim.aggregate(200, players, seed=5, progress=False, workers=1)
    b = cargo_sim.aggregate(200, players, seed=5, progress=False, workers=2, chunk_size=7)
    c = cargo_sim.aggregate(200, players, seed=5, progress=False, workers=2, chunk_size=64)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.counts, c.counts)


def test_event_buffer_overflow_replays_the_chunk(monkeypatch):
    players = TABLES["random4"]
    a = cargo_sim.aggregate(60, players, seed=2, progress=False, workers=1)
    monkeypatch.setattr(A, "EVENT_ROWS_PER_SEAT", 1)      # every game overflows at first
    b = cargo_sim.aggregate(60, players, seed=2, progress=False, workers=2, chunk_size=16)
    assert a == b
    calls = []
    real = A.K.aggregate_games_nb

    def counting(template, decide, exact_fn, seeds, log, acc, err):
        calls.append(log.shape[0])
        return real(template, decide, exact_fn, seeds, log, acc, err)

    monkeypatch.setattr(A.K, "aggregate_games_nb", counting)
    c = cargo_sim.aggregate(60, players, seed=2, progress=False, workers=1, chunk_size=16)
    assert c == a
    # the first chunk grows the buffer (4, 8, ... rows); the 3 later chunks start at the grown size
    assert calls[-3:] == [max(calls)] * 3 and len(calls) == calls.index(max(calls)) + 4


def test_halves_merge_into_the_whole():
    players = TABLES["random4"]
    whole = cargo_sim.aggregate(200, players, seed=9, progress=False)
    h1 = cargo_sim.aggregate(120, players, seed=9, progress=False)
    h2 = cargo_sim.aggregate(80, players, seed=9, progress=False, start=120)
    m = h1 + h2
    assert np.array_equal(m.counts, whole.counts)
    assert m.config["parts"] == [[9, 0, 200]] and m.n_games == 200
    with pytest.raises(ConfigError, match="share games"):
        h1 + whole
    other = cargo_sim.aggregate(10, ["random"] * 3, seed=9, progress=False)
    with pytest.raises(ConfigError, match="different runs"):
        h1 + other


def test_save_load_round_trip(tmp_path):
    a = cargo_sim.aggregate(50, TABLES["mixed3"], seed=4, progress=False,
                            rules=Rules.default().replace(start_coins=8))
    path = a.save(tmp_path / "a.npz")
    assert [p.name for p in tmp_path.iterdir()] == ["a.npz"]          # no temp file left
    b = cargo_sim.load_aggregates(path)
    assert b == a and b.config == a.config and b.rules == a.rules and b.rules["start_coins"] == 8
    pd.testing.assert_frame_equal(b.win_rates(), a.win_rates())
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a cargo_sim aggregates file"):
        cargo_sim.load_aggregates(tmp_path / "bad.npz")
    with pytest.raises(ConfigError, match="no aggregates file"):
        cargo_sim.load_aggregates(tmp_path / "missing.npz")


def test_clear_errors():
    with pytest.raises(BotError, match="nosuchbot"):
        cargo_sim.aggregate(10, ["random", "nosuchbot"], progress=False)
    for bad in (-1, 2.5, "10", True):
        with pytest.raises(ConfigError, match="number of games"):
            cargo_sim.aggregate(bad, ["random"] * 3, progress=False)
    with pytest.raises(CargoSimError):
        cargo_sim.aggregate(10, ["random"], progress=False)
    with pytest.raises(ConfigError, match="chunk_size"):
        cargo_sim.aggregate(10, ["random"] * 3, chunk_size=0, progress=False)
    with pytest.raises(ConfigError, match="workers"):
        cargo_sim.aggregate(10, ["random"] * 3, workers=0, progress=False)
    empty = cargo_sim.aggregate(0, ["random"] * 3, progress=False)
    assert empty.n_games == 0 and empty.counts.sum() == 0


def test_memory_is_flat_in_n_games():
    """The counters and the per-chunk buffers have fixed sizes: nothing grows with n_games."""
    small = cargo_sim.aggregate(5, TABLES["random4"], seed=1, progress=False)
    big = cargo_sim.aggregate(700, TABLES["random4"], seed=1, progress=False, chunk_size=100)
    assert small.counts.shape == big.counts.shape == (K.ACC_SIZE,)
    assert K.ACC_SIZE * 8 < 512 * 1024               # under half a megabyte of counters (25,093 x 8 bytes)
    rules = Rules.default()
    from cargo_sim.games.cargo_noir.simulate import table_template
    from cargo_sim.games.cargo_noir.bots.registry import parse_player
    template, decide = table_template(rules, [parse_player("random")] * 4)
    acc, err = A.run_chunk(template, decide, 1, 0, 100)
    assert err is None and acc.shape == (K.ACC_SIZE,)
    assert np.array_equal(acc, cargo_sim.aggregate(100, TABLES["random4"], seed=1, progress=False).counts)


def test_aggregate_to_dir_resume_and_cli(tmp_path, capsys):
    from cargo_sim.runners import runs
    from cargo_sim.cli import main
    players = TABLES["random4"]
    ref = cargo_sim.aggregate(250, players, seed=3, progress=False)
    folder = tmp_path / "run"
    info = runs.aggregate_to_dir(folder, 250, players, seed=3, chunk_games=100, progress=False)
    assert info.complete and info.games_done == 250
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["agg-00000.done", "agg-00000.npz", "agg-00001.done", "agg-00001.npz",
                     "agg-00002.done", "agg-00002.npz", "aggregates.npz", "manifest.json"]
    assert cargo_sim.load_aggregates(folder / "aggregates.npz") == ref
    assert cargo_sim.load_aggregates(folder) == ref
    # resume after losing a chunk and the merged file
    (folder / "agg-00001.npz").unlink()
    (folder / "aggregates.npz").unlink()
    with pytest.raises(ConfigError, match="chunk 1 is damaged.*missing"):   # marker without its file
        cargo_sim.load_aggregates(folder)
    (folder / "agg-00001.done").unlink()
    with pytest.warns(UserWarning, match="not finished"):
        part = cargo_sim.load_aggregates(folder)
    assert part.interrupted and part.n_games == 150
    with pytest.raises(ConfigError, match="not empty"):
        runs.aggregate_to_dir(folder, 250, players, seed=3, chunk_games=100, progress=False)
    with pytest.raises(ConfigError, match="different run"):
        runs.aggregate_to_dir(folder, 250, players, seed=4, chunk_games=100, progress=False, resume=True)
    info = runs.aggregate_to_dir(folder, 250, players, seed=3, chunk_games=100, progress=False, resume=True)
    assert info.games_played == 100 and cargo_sim.load_aggregates(folder / "aggregates.npz") == ref
    # the CLI
    out = tmp_path / "cli"
    rc = main(["simulate", "--aggregate", "-n", "250", "-p", ",".join(players), "--seed", "3",
               "--out", str(out), "--chunk-games", "100", "--no-progress"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "aggregated" in text and "equal seats" in text and "aggregates.npz" in text
    assert cargo_sim.load_aggregates(out / "aggregates.npz") == ref
    assert json.loads((out / "manifest.json").read_text())["format"] == runs.AGG_FORMAT
    rc = main(["simulate", "-n", "10", "--resume", "--no-progress"])
    assert rc == 2
    assert "needs --out" in capsys.readouterr().err


@pytest.mark.slow
def test_analyses_tables_and_figures(pair, tmp_path):
    from analyses import aggregates as AA
    agg, res = pair
    tables = AA.run_all(agg)
    for name in ("win_rate_by_seat", "seat_chi2", "vp_by_seat", "vp_distribution", "margin_distribution",
                 "price_by_port", "price_by_turn", "bidding_rates_by_turn", "destinations_by_turn",
                 "casino_use_vs_win", "trade_value_distribution", "purchases_by_turn", "card_effect"):
        assert name in tables and len(tables[name]) > 0, name
        assert "n" in tables[name].columns, name
    ref = balance.win_rate_by_seat(as_tables(res).players)
    assert np.allclose(tables["win_rate_by_seat"]["win_rate"], ref["win_rate"], rtol=1e-6)
    files = AA.write_figures(agg, tmp_path / "figs")
    assert files and all(f.exists() and f.stat().st_size > 0 for f in files)
    assert {f.suffix for f in files} == {".png", ".svg"}


def test_ctrl_c_keeps_the_finished_chunks(monkeypatch, tmp_path, interrupt_on):
    players = TABLES["random4"]
    real = A.run_chunk
    calls = []

    def stop_on_third(template, decide, seed, first, n, *a):
        calls.append(first)
        if first >= 100:
            raise KeyboardInterrupt
        return real(template, decide, seed, first, n, *a)

    monkeypatch.setattr(A, "run_chunk", stop_on_third)
    part = cargo_sim.aggregate(200, players, seed=8, progress=False, workers=1, chunk_size=50)
    monkeypatch.setattr(A, "run_chunk", real)
    assert part.interrupted and part.n_games == 100 and part.config["parts"] == [[8, 0, 100]]
    assert np.array_equal(part.counts, cargo_sim.aggregate(100, players, seed=8, progress=False).counts)

    # on disk: the merged file is written with the finished chunks
    from cargo_sim.runners import runs
    real_agg = A.aggregate
    monkeypatch.setattr(A, "aggregate", interrupt_on(real_agg, 2))
    info = runs.aggregate_to_dir(tmp_path / "r", 200, players, seed=8, chunk_games=100, progress=False)
    monkeypatch.setattr(A, "aggregate", real_agg)
    assert info.interrupted and info.chunks_done == 1
    merged = cargo_sim.load_aggregates(tmp_path / "r" / "aggregates.npz")
    assert merged.interrupted and merged == part


def test_overflow_report(pair):
    agg, _ = pair
    o = agg.overflow()
    assert set(o["section"]) == {n for n, _, _ in K.SECTIONS if n.endswith("_hist")}
    assert (o["in_last_bin"] == 0).all()          # the bounds are above what these bots reach
    assert o.set_index("section").loc["vp_hist", "total"] == N * agg.n_players


@pytest.mark.slow
def test_dask_cluster_equals_local_run(dask_client):
    from cargo_sim.runners.dask_backend import aggregate_dask
    players = TABLES["random4"]
    local = cargo_sim.aggregate(600, players, seed=11, progress=False)
    res = aggregate_dask(600, players, seed=11, chunk_games=150, scheduler=dask_client, progress=False)
    assert res == local and not res.interrupted and res.config["parts"] == [[11, 0, 600]]
