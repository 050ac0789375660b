"""Contracts that the rule tests once found broken (now fixed), kept as
regression tests. Each test states the rule or contract it checks and where
the code used to break it.

1. rules.py, ``Rules.source_of``: every [estimated] value must be reported as
   such by the library (``Rules.default().provenance``, ``Rules.estimated``;
   docs/rules.md lists them), and the turn counts and the card VP are
   [estimated]. rules_default.toml says
   ``"turns.*" = "estimated: ..."`` and ``"card.*.vp" = "estimated: ..."``, but
   ``source_of`` scores a pattern ``len(pattern) - 10 * n_stars`` and only keeps
   a match whose score is ``> best_score`` with ``best_score = -1``; these two
   patterns score -3 and -1, so they never match and the parameters are
   reported 'unknown' (missing from ``Rules.estimated``).
2. simulate.py, ``simulate``: ``n_games = 0`` passes the request check ("a
   whole number >= 0") but then ``build_tables`` fails with a raw numpy
   ValueError (``players_arr.reshape(0, -1)``) instead of returning empty tables.
3. simulate.py, ``simulate``: ``start`` and ``chunk_size`` are not checked:
   ``start=-1`` plays a game numbered -1, ``start=1.5`` is silently truncated,
   ``chunk_size=0`` raises a raw "range() arg 3 must not be zero" and
   ``chunk_size=-3`` a raw reshape error; they should be ConfigErrors.
"""
import pytest

import cargo_sim
from cargo_sim import ConfigError, Rules

R = Rules.default()


# ---- 1. provenance of estimated values ---------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_turn_counts_are_reported_estimated(n):
    assert R.source_of(f"turns.{n}").startswith("estimated")
    assert f"turns.{n}" in R.estimated


def test_card_vp_are_reported_estimated():
    est = set(R.estimated)
    missing = [c for c in R.card_names if f"card.{c}.vp" not in est]
    assert missing == []


def test_no_default_parameter_has_unknown_provenance():
    prov = R.provenance
    assert prov.loc[prov["status"] == "unknown", "parameter"].tolist() == []


# ---- 2. zero games ----------------------------------------------------------------
def test_zero_games_gives_empty_tables():
    res = cargo_sim.simulate(0, ["random"] * 3, progress=False)
    assert len(res.games) == 0 and len(res.players) == 0
    assert "vp" in res.players.columns and "winner" in res.games.columns


# ---- 3. unchecked simulate options ---------------------------------------------------
@pytest.mark.parametrize("kw", [{"start": -1}, {"start": 1.5}, {"chunk_size": 0},
                                {"chunk_size": -3}])
def test_bad_start_or_chunk_size_is_a_config_error(kw):
    with pytest.raises(ConfigError, match=next(iter(kw))):
        cargo_sim.simulate(3, ["random"] * 2, progress=False, **kw)
