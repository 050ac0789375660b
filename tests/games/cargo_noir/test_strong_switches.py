"""The heuristic's opponent-aware switches (deny, guard): each does what its meaning in
strategies.PARAMS says, checked against trade values computed here, at the send
decisions of real games. Defaults 0 leave every bot unchanged (test_bitident.py)."""
import pytest

import cargo_sim
from cargo_sim import BotError
from cargo_sim.games.cargo_noir import enums
from cargo_sim.games.cargo_noir.bots import botkit_nb as K
from cargo_sim.games.cargo_noir.forward import GameState


def opponent_gain(s, seat, p):
    """The most port p's cargo adds to another seat's trade value (computed here)."""
    nt = K.n_types_nb(s)
    best = 0
    for o in range(K.n_players_nb(s)):
        if o == seat:
            continue
        hand = [K.hand_nb(s, o, t) for t in range(nt + 1)]
        both = [hand[t] + K.port_cargo_nb(s, p, t) for t in range(nt + 1)]
        g = cargo_sim.trade_value(both[:nt], both[nt]) - cargo_sim.trade_value(hand[:nt], hand[nt])
        best = max(best, g)
    return best


def sends(spec, games=3, n=2, seed=5):
    """(state, answer, bid) at every send decision of seat 0 (played by `spec`)."""
    for g in range(games):
        st = GameState([spec] + ["expert"] * (n - 1), seed=seed, game=g)
        while not st.is_over:
            d = st.decision
            before = st.s.copy()
            ans, out = st.bot_answer()
            if d.seat == 0 and d.kind == "send ship":
                yield before, int(ans), int(out[0])
            st.apply((ans, out))


@pytest.mark.parametrize("n", [2, 4])
def test_guard_stacks_coins_by_what_the_port_is_worth_to_an_opponent(n):
    guard = 0.2
    raised = 0
    for s, ans, bid in sends(f"expert?guard={guard}&bait=0", n=n):
        if ans < enums.LOC_PORT0:
            continue
        p = ans - enums.LOC_PORT0
        need = K.port_min_bid_nb(s, 0, p)
        extra = max(0, int(guard * opponent_gain(s, 0, p) + 0.5))
        assert bid == min(K.coins_nb(s, 0), need + extra)
        raised += bid > need
    assert raised > 0


def test_deny_takes_the_port_an_opponent_wants_most():
    # with a huge deny the opponent's gain decides (trade values are whole numbers, so
    # the seat's own gain and the coins only break ties); without it the bot often
    # goes elsewhere, so the check can tell them apart
    spec = "expert?bait=0&contest=1"
    checked = 0
    missed_without = 0
    for deny, count in ((1000, True), (0, False)):
        for s, ans, _ in sends(f"{spec}&deny={deny}"):
            coins = K.coins_nb(s, 0)
            gains = {p: opponent_gain(s, 0, p) for p in range(K.n_ports_nb(s))
                     if 0 <= K.port_min_bid_nb(s, 0, p) <= coins}
            if not gains or max(gains.values()) == 0:
                continue
            top = max(gains.values())
            took = ans - enums.LOC_PORT0
            if count:
                assert took in gains and gains[took] == top
                checked += 1
            else:
                missed_without += took not in gains or gains[took] < top
    assert checked > 10 and missed_without > 0


@pytest.mark.parametrize("q", ["guard=x", "deny=nan", "guard=1e7"])
def test_bad_switch_values_are_refused(q):
    with pytest.raises(BotError, match="parameter '(guard|deny)'"):
        cargo_sim.simulate(1, [f"expert?{q}", "expert"], progress=False)
