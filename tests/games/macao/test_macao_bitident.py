"""Macao's result tables are bit-identical to the committed digests
(tests/games/macao/macao_bitident.py: 2-4 players, every built-in heuristic, the search bots
with small budgets, checked mode, events, the forward model)."""

import pytest

from ..bitident_kit import assert_matches
from . import macao_bitident as bitident


@pytest.mark.slow
def test_tables_bit_identical():
    assert_matches(bitident)
