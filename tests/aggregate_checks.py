"""Checks every game's aggregate-counter tests share: the seat sections (core.seat_counters)
computed independently from the players and games tables, workers and chunking, halves
merged and saved, the files refused, the CLI report. Each game's test adds its own
sections and tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from cargo_sim import ConfigError


def hist(values, n_bins, low=0):
    """Counts of values - low in n_bins bins (the first and last take those beyond)."""
    return np.bincount(np.clip(np.asarray(values, np.int64) - low, 0, n_bins - 1), minlength=n_bins)


def expected_seat_sections(res, sections, player_fields, game_stats, seat_hists,
                           share=None) -> tuple[dict, pd.DataFrame, np.ndarray]:
    """Every section of ``sections`` zero, then the seat tables filled from the games'
    tables: games, wins, player_sum / _sumsq, winner_sum, game_sum / _sumsq, the
    histograms ``seat_hists`` ({section: (players column, bins, low)}) and, with
    ``share`` = (section, scale), ties, tied_wins and the win shares (scale // k for
    each of k winners). Returns the sections, the players sorted by game and seat and
    each player-game's share (0 without ``share``)."""
    p, g = res.players.sort_values(["game", "seat"]), res.games
    out = {name: np.zeros(shape, np.int64) for name, shape, _ in sections}
    out["games"][0] = len(g)
    won = (p["won"] > 0).to_numpy()
    shares = np.zeros(len(p), np.int64)
    if share is not None:
        section, scale = share
        k_of = p["game"].map(g.set_index("game")["n_winners"]).to_numpy()
        out["ties"][0] = int((g["n_winners"] > 1).sum())
        shares = np.where(won, scale // np.maximum(k_of, 1), 0)
    for seat, d in p.groupby("seat"):
        mine = (p["seat"] == seat).to_numpy()
        out["wins"][seat] = d["won"].sum()
        if share is not None:
            out["tied_wins"][seat] = (won & mine & (k_of > 1)).sum()
            out[section][seat] = shares[mine].sum()
        for i, f in enumerate(player_fields):
            x = d[f].to_numpy(np.int64)
            out["player_sum"][seat, i] = x.sum()
            out["player_sumsq"][seat, i] = (x * x).sum()
            out["winner_sum"][seat, i] = x[won[mine]].sum()
        for name, (col, n_bins, low) in seat_hists.items():
            out[name][seat] = hist(d[col], n_bins, low)
    for i, f in enumerate(game_stats):
        x = g[f].to_numpy(np.int64)
        out["game_sum"][i], out["game_sumsq"][i] = x.sum(), (x * x).sum()
    return out, p, shares


def assert_sections_equal(a, want: dict, sections) -> None:
    """Every counter section equals the expected one (the differing ones named)."""
    bad = [name for name, _, _ in sections if not np.array_equal(a[name], want[name])]
    assert not bad, bad


def check_workers_chunking_overflow(agg, module, monkeypatch, players, n=60, seed=5) -> None:
    """One worker or two in small chunks give the same counters; a chunk whose event
    buffer overflows (``module.EVENT_ROWS_PER_SEAT`` = 1) is replayed to the same."""
    one = agg(n, players, seed=seed, workers=1)
    two = agg(n, players, seed=seed, workers=2, chunk_size=7)
    assert np.array_equal(one.counts, two.counts)
    monkeypatch.setattr(module, "EVENT_ROWS_PER_SEAT", 1)      # every game overflows at first
    assert agg(n, players, seed=seed, workers=2, chunk_size=32) == one


def check_halves_and_save_load(agg, game, cls, table, tmp_path, players, n=(30, 20), seed=9):
    """Two halves of a run merge into the whole (not a half with the whole), and
    save / load round-trips to an instance of ``cls`` with the same ``table()``.
    Returns the merged counters and the ones read back."""
    whole = agg(sum(n), players, seed=seed)
    h1, h2 = agg(n[0], players, seed=seed), agg(n[1], players, seed=seed, start=n[0])
    m = h1 + h2
    assert np.array_equal(m.counts, whole.counts) and m.config["parts"] == [[seed, 0, sum(n)]]
    with pytest.raises(ConfigError, match="share games"):
        h1 + whole
    back = cargo_sim.load_aggregates(m.save(tmp_path / "m.npz"), game=game)
    assert isinstance(back, cls) and back == m and back.config == m.config
    pd.testing.assert_frame_equal(getattr(back, table)(), getattr(m, table)())
    return m, back


def check_bad_input(a, game, other_game, tmp_path) -> None:
    """An unknown distribution or player statistic, a file read as another game's and
    counts that disagree with the recorded game ranges are each one ConfigError line
    (``a``: 5 games of seed 1)."""
    with pytest.raises(ConfigError, match="no distribution of 'points'"):
        a.distribution("points")
    with pytest.raises(ConfigError, match="unknown player statistic"):
        a.player_means(["nosuch"])
    path = a.save(tmp_path / f"{game}.npz")
    with pytest.raises(ConfigError, match="another format or counter layout"):
        cargo_sim.load_aggregates(path, game=other_game)
    a.config["parts"] = [[1, 0, 7]]
    a.save(tmp_path / "lie.npz")
    with pytest.raises(ConfigError, match="5 games counted, its game ranges hold 7"):
        cargo_sim.load_aggregates(tmp_path / "lie.npz", game=game)


def check_cli_aggregate(agg, game, words, tmp_path, capsys) -> None:
    """``simulate --aggregate`` prints the report (with the game's own ``words``), and a
    run folder of chunk files merges to the counters made in memory."""
    from cargo_sim.cli import main
    argv = ["simulate", "--game", game, "--aggregate", "-n", "30", "-p", "random,random,random",
            "--seed", "3", "--no-progress"]
    rc = main(argv)
    text = capsys.readouterr().out
    assert rc == 0 and "aggregated" in text and "equal seats" in text
    assert all(w in text for w in words), [w for w in words if w not in text]
    folder = tmp_path / "run"
    assert main(argv + ["--out", str(folder), "--chunk-games", "12"]) == 0
    assert cargo_sim.load_aggregates(folder, game=game) == agg(30, ["random"] * 3, seed=3)
