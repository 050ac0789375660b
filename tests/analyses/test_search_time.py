"""analyses.search_time: both settings answer every decision of seat 0 of the game the
first setting plays; settings of different bots are refused."""
import pytest

from cargo_sim import ConfigError, GameState
from analyses.search_time import paired_times


def test_paired_times_counts_the_first_settings_decisions():
    a, b = "ismcts?iterations=5", "ismcts?iterations=10&rollout=greedy"
    r = paired_times(a, b, against="greedy", games=1, seed=4)
    st = GameState([a, "greedy"], seed=4, game=0)
    mine = 0
    while not st.is_over:
        mine += st.decision.seat == 0
        st.step_vector(*st.bot_answer())
    assert r["decisions"] == mine > 0
    assert r["a_s"] > 0 and r["b_s"] > 0 and r["ratio"] == pytest.approx(r["b_s"] / r["a_s"])


def test_paired_times_refuses():
    with pytest.raises(ConfigError, match="same bot"):
        paired_times("ismcts", "flatmc")
    with pytest.raises(ConfigError, match="games"):
        paired_times("ismcts", "ismcts?iterations=10", games=0)
