"""pytest without package __init__ files refuses two test files of one basename (it
collects neither, and the suite errors): every test module's name is unique."""
from collections import Counter
from pathlib import Path


def test_every_test_file_has_its_own_basename():
    names = Counter(p.name for p in Path(__file__).resolve().parents[1].rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
