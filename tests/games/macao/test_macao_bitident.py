"""Macao's result tables are bit-identical to the committed digests
(tests/games/macao/macao_bitident.py: 2-4 players, every built-in heuristic, the search bots
with small budgets, checked mode, events, the forward model)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from bitident_kit import assert_matches  # noqa: E402
import macao_bitident as bitident  # noqa: E402  (not "bitident": Cargo Noir's guard has that name)


@pytest.mark.slow
def test_tables_bit_identical():
    assert_matches(bitident)
