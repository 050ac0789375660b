"""The forward model's inputs: seeds, answers, counts and states of another table
are refused with one line; an illegal answer from the caller is the caller's."""
import numpy as np
import pytest

from cargo_sim import ConfigError, IllegalDecisionError
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.forward import GameState


@pytest.mark.parametrize("seed", [0.5, "abc", True, -1, 2**64, None, 1.0])
def test_seeds_are_whole_numbers_from_0_to_2_64(seed):
    with pytest.raises(ConfigError, match=r"seed must be a whole number from 0 to 18446744073709551615"):
        GameState(["greedy", "random"], seed=seed)


def test_the_largest_seed_and_numpy_seeds_play():
    assert GameState(["greedy", "random"], seed=2**64 - 1).decision is not None
    a = GameState(["greedy", "random"], seed=np.uint64(7))
    b = GameState(["greedy", "random"], seed=7)
    assert np.array_equal(a.s, b.s)


def to_kind(st, code):
    while st.decision.code != code:
        st.step_vector(*st.bot_answer())
    return st


@pytest.mark.parametrize("kw, msg", [
    ({"bid": 1.5}, r"bid must be a whole number"), ({"bid": "3"}, r"bid must be a whole number"),
    ({"bid": float("nan")}, r"bid must be"), ({"bid": 2**70}, r"bid must be a whole number from"),
    ({"bid": True}, r"bid must be a whole number"),
])
def test_send_answers_must_be_whole_numbers_in_range(kw, msg):
    st = GameState(["greedy", "random"], seed=1)
    before = st.s.copy()
    with pytest.raises(ConfigError, match=msg):
        st.step(e.LOC_PORT0, **kw)
    for answer in (2.0, "2", float("nan"), 2**80, np.float64(2)):
        with pytest.raises(ConfigError, match=r"an answer is a whole number"):
            st.step(answer, bid=1)
    assert np.array_equal(st.s, before)


def test_token_and_card_vectors_have_the_exact_length_and_whole_counts():
    st = to_kind(GameState(["greedy", "random"], seed=2), e.D_TRADE)
    n_tok = int(st.s[e.R_N_TYPES]) + 1
    n_cards = int(st.s[e.R_N_CARDS])
    with pytest.raises(ConfigError, match=rf"tokens must hold exactly {n_tok} whole numbers"):
        st.step(1, tokens=[0] * (n_tok + 1))       # a 17th count no longer lands among the cards
    with pytest.raises(ConfigError, match=rf"cards must hold exactly {n_cards}"):
        st.step(1, tokens=[0] * n_tok, cards=[0] * (n_cards - 1))
    for bad in ([0.5] + [0] * (n_tok - 1), ["1"] + [0] * (n_tok - 1), [float("nan")] * n_tok,
                [2**63] + [0] * (n_tok - 1)):
        with pytest.raises(ConfigError, match=r"tokens\[0\] must be a whole number"):
            st.step(1, tokens=bad)
    with pytest.raises(ConfigError, match=r"tokens must be a list"):
        st.step(1, tokens="0000000")
    with pytest.raises(ConfigError, match=rf"out must hold exactly {e.OUT_W}"):
        st.step_vector(1, np.zeros(e.OUT_W + 1, np.int64))
    with pytest.raises(ConfigError, match=r"out\[0\] must be a whole number"):
        st.step_vector(1, np.zeros(e.OUT_W))        # floats


def test_a_trade_code_out_of_range_is_illegal_and_blames_the_caller():
    st = to_kind(GameState(["greedy", "random"], seed=2), e.D_TRADE)
    seat = st.decision.seat
    before = st.s.copy()
    with pytest.raises(IllegalDecisionError,
                       match=rf"^illegal answer to the trade decision of seat {seat}: answer 5 "
                             r"\(1 to trade, 0 for none\); turn \d+ of game 0 .*the state is unchanged$"):
        st.step(5)
    assert np.array_equal(st.s, before)


def test_an_illegal_answer_from_the_caller_does_not_blame_the_bot():
    st = GameState(["greedy", "random"], seed=1)
    with pytest.raises(IllegalDecisionError) as info:
        st.step(e.LOC_PORT0, bid=0)
    msg = str(info.value)
    assert msg.startswith("illegal answer to the send ship decision of seat 0: destination 2")
    assert "greedy" not in msg and "bot" not in msg


def test_copy_from_needs_a_state_of_the_same_table():
    a = GameState(["greedy", "random"], seed=1)
    b = GameState(["greedy", "random"], seed=2)
    a.copy_from(b)
    assert np.array_equal(a.s, b.s)
    for other in (GameState(["greedy", "random", "expert"], seed=1), GameState(["random", "random"], seed=1),
                  GameState(["greedy?bid_margin=1", "random"], seed=1)):
        with pytest.raises(ConfigError, match=r"copy_from needs a state of the same table"):
            a.copy_from(other)
    with pytest.raises(ConfigError, match=r"copy_from takes a GameState"):
        a.copy_from(b.s)
