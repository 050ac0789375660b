"""Cargo Noir's result tables are bit-identical to the committed digests
(tests/games/cargo_noir/bitident.py: every player count, every built-in bot, the
search bots with small budgets, a user bot, checked mode, events, the forward model)."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import bitident  # noqa: E402


@pytest.mark.slow
def test_tables_bit_identical():
    ref = json.loads(bitident.DATA.read_text())
    got = bitident.digests()
    assert {k: v for k, v in got.items() if ref.get(k) != v} == {}
    assert set(got) == set(ref)
