"""Macao's result tables are bit-identical to the committed digests
(tests/games/macao/macao_bitident.py: 2-4 players, every built-in heuristic, the search bots
with small budgets, checked mode, events, the forward model)."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import macao_bitident as bitident  # noqa: E402  (not "bitident": Cargo Noir's guard has that name)


@pytest.mark.slow
def test_tables_bit_identical():
    ref = json.loads(bitident.DATA.read_text())
    got = bitident.digests()
    assert {k: v for k, v in got.items() if ref.get(k) != v} == {}
    assert set(got) == set(ref)
