"""analyses.strong_variants: legal, distinct rules variants from the robustness study's
draws, and one focus tournament per variant after the default rules."""
import pytest

from cargo_sim import ConfigError, Rules
from analyses.strong_variants import run, variants


def test_variants_are_legal_and_distinct():
    base = Rules.default()
    vs = variants(base, 3, draw_seed=7)
    assert len(vs) == 3 and len({repr(sorted(v.items())) for v in vs}) == 3
    for v in vs:
        rules = base.replace(v)
        rules.check_players(2)
        assert rules.digest != base.digest
    assert variants(base, 3, draw_seed=7) == vs                   # the draw is the seed's
    for bad in (0, -1):
        with pytest.raises(ConfigError, match="variants"):
            variants(base, bad, draw_seed=7)


@pytest.mark.filterwarnings("ignore:Bradley-Terry")
def test_run_plays_default_then_variants():
    lines = []
    df = run("greedy", "random", 2, 1, games=4, seed=3, draw_seed=7, say=lines.append)
    assert list(df["variant"]) == ["default", "1"] and df.loc[0, "moved"] == 0
    assert (df["deals"] == 2).all() and (df["games"] == 4).all() and df.loc[1, "moved"] > 0
    assert (df["share"] > 0.5).all() and len(lines) == 2          # greedy beats random
