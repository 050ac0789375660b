"""Cargo Noir's result tables are bit-identical to the committed digests
(tests/games/cargo_noir/bitident.py: every player count, every built-in bot, the
search bots with small budgets, a user bot, checked mode, events, the forward model)."""

import pytest

from ..bitident_kit import assert_matches
from . import bitident


@pytest.mark.slow
def test_tables_bit_identical():
    assert_matches(bitident)
