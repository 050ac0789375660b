"""Fuzz the rules loader: random ``--set`` values and random TOML documents give
either a clear one-line error or rules whose games keep every invariant."""
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cargo_sim
from cargo_sim import CargoSimError, Rules
from cargo_sim.cli.common import load_rules
from .test_invariants import check_tables

DEFAULT = Rules.default()
NAMES = sorted(DEFAULT.flat()) + ["nosuch", "port.Nowhere.slots", "card.New.vp", "turns.7",
                                  "card.Villa", "port", "card.Villa.nosuch", "turns"]
OUTCOMES = {"error": 0, "played": 0}


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v == math.inf else "-inf" if v == -math.inf
                                            else repr(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


SCALAR = st.one_of(st.integers(-3, 40), st.integers(-2**70, 2**70), st.booleans(),
                   st.floats(allow_nan=True), st.sampled_from(["edge", "common", "unique", ""]))
VALUE = st.one_of(SCALAR, st.lists(st.integers(-2, 90), max_size=12),
                  st.lists(st.integers(-2**40, 2**40), max_size=3), st.lists(SCALAR, max_size=3))


def outcome(make):
    """A clear error (one line, no traceback) or rules that play correctly."""
    try:
        rules = make()
    except CargoSimError as e:
        assert str(e) and "\n" not in str(e)
        OUTCOMES["error"] += 1
        return
    n = rules.player_counts[0]
    res = cargo_sim.simulate(3, ["random"] * n, seed=5, rules=rules, progress=False)
    check_tables(res, rules, n)
    OUTCOMES["played"] += 1


FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@FUZZ
@given(sets=st.lists(st.tuples(st.sampled_from(NAMES), VALUE.map(toml_value)), min_size=1, max_size=3))
def test_random_set_values(sets):
    outcome(lambda: load_rules(None, [f"{name}={raw}" for name, raw in sets]))


@pytest.mark.slow
@FUZZ
@given(lines=st.lists(st.tuples(st.integers(0, 200), st.sampled_from(NAMES), VALUE), max_size=4),
       junk=st.sampled_from(["", "[card.Villa]\nvp = 3\n", "[port]\n", "x = [[[]]]\n", "= 3\n",
                             "[turns]\n2 = 11\n2 = 12\n", "[[card]]\n"]))
def test_random_toml_documents(lines, junk, tmp_path_factory):
    doc = DEFAULT.to_toml().splitlines()
    for at, name, value in lines:   # replace a line of the default file, or add a key at the top
        line = f"{json.dumps(name)} = {toml_value(value)}"
        if at < len(doc) and "=" in doc[at] and not doc[at].startswith("["):
            doc[at] = doc[at].split("=", 1)[0] + "= " + toml_value(value)
        else:
            doc.insert(0, line)
    path = tmp_path_factory.mktemp("fuzz") / "rules.toml"
    path.write_text(junk + "\n".join(doc) + "\n")
    outcome(lambda: Rules.from_file(path))


@pytest.mark.slow            # with the fuzz tests it checks (deselected together by -m 'not slow')
def test_fuzz_reached_both_outcomes():
    """Runs after the two fuzz tests (file order): both kinds of outcome occurred."""
    assert OUTCOMES["error"] > 0 and OUTCOMES["played"] > 0, OUTCOMES
