"""Cargo Noir's result tables are bit-identical to the committed digests
(tests/games/cargo_noir/bitident.py: every player count, every built-in bot, the
search bots with small budgets, a user bot, checked mode, events, the forward model)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from bitident_kit import assert_matches  # noqa: E402
import bitident  # noqa: E402


@pytest.mark.slow
def test_tables_bit_identical():
    assert_matches(bitident)
