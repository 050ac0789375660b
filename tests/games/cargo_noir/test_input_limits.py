"""Inputs beyond what the engine can hold are refused with one clear line; values
at the limits play correctly (no wrapped int32 VP or seeds, no NaN bot parameters,
no sizes that hang, no tracebacks)."""
import math

import numpy as np
import pytest

import cargo_sim
from cargo_sim import ConfigError, Rules, RulesError
from cargo_sim.games.cargo_noir.rules_limits import INT_MAX, MAX_TURNS, tokens_in_play
from cargo_sim.cli import main
from .test_invariants import check_tables

DEFAULT = Rules.default()
P3 = ["random"] * 3


def _others_vp(rules, card):
    return sum(rules[f"card.{c}.copies"] * rules[f"card.{c}.vp"]
               for c in rules.card_names if c != card)


def test_card_vp_at_the_int32_limit_plays_correctly_and_one_more_is_refused():
    card = "Dive Bar"          # cheap, so random bots buy it; its VP tie to its cost lifted
    free = DEFAULT.with_meta({"constraint": {f"card.{card}.vp": "none"}})
    copies = DEFAULT[f"card.{card}.copies"]
    limit = (INT_MAX - _others_vp(DEFAULT, card)) // copies
    rules = free.replace({f"card.{card}.vp": limit})
    res = cargo_sim.simulate(60, P3, seed=1, rules=rules, progress=False)
    check_tables(res, rules, 3)                  # VP = sum of cards, winners = top VP ...
    assert res.players["vp"].max() >= limit      # the big card was bought, no wrap
    with pytest.raises(RulesError, match=r"card\.(Dive Bar|.*)\.vp: too large.*2147483647"):
        free.replace({f"card.{card}.vp": limit + 1})


def test_the_issue_reproduction_is_refused_in_one_line(capsys):
    rc = main(["simulate", "-n", "3", "-p", "random,random,random", "--seed", "1",
               "--set", "card.Dive Bar.vp=3000000000", "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    # a common card's VP is tied to its cost, so that is what the line says first
    assert "card.Dive Bar.vp = 3000000000 breaks the constraint" in err
    rc = main(["simulate", "-n", "3", "-p", "random,random,random", "--seed", "1",
               "--set", "card.Dive Bar.cost=3000000000", "--no-progress"])     # the VP follows
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert "card.Dive Bar.vp: at most 2147483647" in err


def test_unlimited_coins_at_the_limit_keeps_coins_exact():
    # final_coin_value 0: the coins' trade worth (bounded lower) does not bind first
    base = DEFAULT.replace(unlimited_coins=True, final_coin_value=0)
    # the coin bound grows linearly with casino_payout: find its last accepted value
    lo, hi = 0, INT_MAX
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            base.replace(casino_payout=mid)
            lo = mid
        except RulesError:
            hi = mid - 1
    rules = base.replace(casino_payout=lo)
    res = cargo_sim.simulate(30, P3, seed=2, rules=rules, progress=False)
    check_tables(res, rules, 3)
    assert res.players["casino_coins"].max() > 0
    with pytest.raises(RulesError, match="casino_payout: too large, the coins a player moves"):
        base.replace(casino_payout=lo + 1)


@pytest.mark.parametrize("name, value, limit", [
    ("black_market_slots", 10**9, "131"), ("port.Rio.slots", 10**9, "131"),
    ("turns.3", MAX_TURNS + 1, str(MAX_TURNS)), ("ships_per_player", 10**6, "20"),
    ("wilds_total", 31, "30"), ("tokens_per_type", 10**6, "1000"),
    ("card.Villa.copies", 10**6, "1000"), ("card.Villa.cost", 2**63, str(INT_MAX)),
    ("value_same", [0, 1, 4, 9, 16, 25, 36, 49, 64, 2**70], str(INT_MAX)),
])
def test_sizes_the_game_cannot_use_are_refused(name, value, limit):
    with pytest.raises(RulesError, match=rf"{name.split('.')[0]}.*at most {limit}"):
        DEFAULT.replace({name: value})


def test_rules_file_with_huge_integer_or_deep_nesting(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text(f"casino_payout = {2**70}\n")
    with pytest.raises(RulesError, match="casino_payout: at most 2147483647"):
        Rules.from_file(big)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(RulesError, match="nested too deeply"):
        Rules.from_file(deep)


def test_set_nested_too_deeply_is_one_line(capsys):
    rc = main(["rules", "--set", "x=" + "[" * 5000 + "]" * 5000])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and len(err) < 200


@pytest.mark.parametrize("kw, match", [
    ({"seed": 2**64}, "seed must be a whole number from 0 to 18446744073709551615"),
    ({"seed": -1}, "seed must be"), ({"seed": True}, "seed must be"),
    ({"workers": True}, "workers must be"), ({"start": 2**63}, "start .* must be"),
    ({"start": 2**63 - 1}, "beyond the last game index"),
])
def test_seeds_and_counts_out_of_range_are_refused(kw, match):
    with pytest.raises(ConfigError, match=match):
        cargo_sim.simulate(2, ["random"] * 2, progress=False, **kw)
    with pytest.raises(ConfigError, match=match):
        cargo_sim.aggregate(2, ["random"] * 2, progress=False, **kw)


def test_largest_seed_plays():
    res = cargo_sim.simulate(2, ["random"] * 2, seed=2**64 - 1, progress=False)
    other = cargo_sim.simulate(2, ["random"] * 2, seed=0, progress=False)
    assert res.games["seed"].tolist() != other.games["seed"].tolist()


@pytest.mark.parametrize("args", [
    ["simulate", "-n", "2", "-p", "random,random", "--start", str(2**64), "--no-progress"],
    ["simulate", "-n", "2", "-p", "random,random", "--seed", str(2**64), "--no-progress"],
    ["play", "--seed", "1", "--index", str(2**64), "-p", "random,random"],
    ["play", "--seed", str(2**64), "-p", "random,random"],
    ["tournament", "-p", "random,greedy", "--seats", "2", "-n", "4", "--seed", str(2**64),
     "--no-progress"],
])
def test_cli_out_of_range_numbers_are_one_line(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be a whole number from 0 to" in err


@pytest.mark.parametrize("spec, kw", [
    ("greedy?bid_margin=nan", {}), ("greedy?bid_margin=inf", {}), ("greedy?bid_margin=-inf", {}),
    ("greedy?bid_margin=1e300", {}), ("greedy?bid_margin=-1e300", {}), ("greedy?bid_margin=", {}),
    ("greedy", {"bid_margin": "abc"}), ("greedy", {"bid_margin": math.nan}),
    ("greedy", {"bid_margin": None}), ("greedy", {"bid_margin": True}),
])
def test_bad_bot_parameters_are_refused_with_the_range(spec, kw):
    with pytest.raises(cargo_sim.BotError, match=r"parameter 'bid_margin' must be a number from "
                                                 r"-1e\+06 to 1e\+06"):
        cargo_sim.player(spec, **kw)


def test_bot_parameter_at_the_limit_is_kept_exactly():
    p = cargo_sim.player("greedy?bid_margin=-1e6")
    assert p.values[list(p.spec.params).index("bid_margin")] == -1e6
    assert np.isfinite(p.param_vector()).all()


def test_sweep_unknown_measure_refused_before_playing(capsys, monkeypatch):
    import cargo_sim.runners.sweep as sw
    monkeypatch.setattr(sw, "sweep", lambda *a, **k: pytest.fail("the sweep was played"))
    assert main(["sweep", "--measures", "nosuch", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "unknown measure 'nosuch'" in err and err.count("\n") == 1


@pytest.mark.parametrize("budget", [-5, 0, math.nan, math.inf])
def test_report_budget_must_be_positive(budget, tmp_path):
    from analyses.report import build_report
    with pytest.raises(ConfigError, match="time budget must be a number of seconds > 0"):
        build_report(tmp_path / "r", time_budget=budget)
    assert not (tmp_path / "r").exists()
