"""``make bench``'s strong-bot section: the share against expert and its target, and
a clear skip line for a game without a ``strong`` bot (timed by a stand-in)."""
from cargo_sim.bench import strong as bench_strong
from cargo_sim.core.contract import game_names, get_game


def test_strong_share_and_skip(monkeypatch):
    noir = get_game("cargo_noir").bots
    real = type(noir).names

    def names(self, search=True):          # Cargo Noir has a strong bot, the others none
        own = [n for n in real(self, search) if n != "strong"]
        return own + ["strong"] if self is noir else own
    monkeypatch.setattr(type(noir), "names", names)
    calls = []

    def fake_rate(n_players, n_games, workers, seed=1, bot="random", game=None):
        calls.append((game, bot))
        assert n_players == 4 and workers == 1
        return {"strong": 200.0 if len(calls) == 6 else 300.0, "expert": 1000.0}[bot]

    lines = []
    out = bench_strong.run(fake_rate, repeat=2, seconds=0.5, say=lines.append)
    r = out["cargo_noir"]
    assert r["games"] == 500 and r["strong"] == 300 and r["expert"] == 1000
    assert r["share"] == 0.3 and r["share_median"] == 0.25       # rounds at 0.3 and 0.2
    noir_line = next(l for l in lines if "Cargo Noir" in l)
    assert "4 x strong 300 games/s, 4 x expert 1,000: 30%" in noir_line
    assert "target >= 25%: met" in noir_line
    assert {g for g, _ in calls} == {"cargo_noir"}
    skipped = [l for l in lines if "skipped (no `strong` bot registered)" in l]
    assert len(skipped) == len(game_names()) - 1 and all(out[g] is None for g in game_names()[1:])
    # below the target
    out = bench_strong.run(lambda *a, bot="random", **k: {"strong": 200.0, "expert": 1000.0}[bot],
                           repeat=1, seconds=0.1, say=lines.append)
    assert out["cargo_noir"]["share"] == 0.2 and "NOT met" in lines[-len(game_names())]
