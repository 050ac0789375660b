"""Bad input gets a clear error: the right exception class and a message that
names the culprit (bot, player count, game count, rules parameter, file)."""
import re

import pytest

import cargo_sim
from cargo_sim import BotError, CargoSimError, ConfigError, IllegalDecisionError, Rules, RulesError
from cargo_sim.games.cargo_noir.testing import ScriptedGame

R = Rules.default()


def test_error_classes():
    for cls in (BotError, ConfigError, RulesError, IllegalDecisionError):
        assert issubclass(cls, CargoSimError)
    for cls in (BotError, ConfigError, RulesError):
        assert issubclass(cls, ValueError)


# ---------------------------------------------------------------------------
# players and requests
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("call", ["simulate", "play_one"])
def test_unknown_bot_names_the_bot(call):
    players = ["random", "no_such_bot_xyz"]
    with pytest.raises(BotError, match="no_such_bot_xyz"):
        if call == "simulate":
            cargo_sim.simulate(2, players, progress=False)
        else:
            cargo_sim.play_one(1, players)


def test_unknown_bot_lists_known_bots():
    with pytest.raises(BotError) as ex:
        cargo_sim.simulate(2, ["random", "nope"], progress=False)
    assert "random" in str(ex.value)


@pytest.mark.parametrize("spec, word", [("random?foo=1", "foo"), ("random?x", "random?x"),
                                        ("random?foo=abc", "no parameter 'foo'"), ("greedy?bid_margin=abc", "'abc'")])
def test_bad_bot_parameters(spec, word):
    with pytest.raises(BotError) as ex:
        cargo_sim.simulate(2, ["random", spec], progress=False)
    assert word in str(ex.value)


def test_player_not_a_name():
    with pytest.raises(BotError):
        cargo_sim.simulate(2, ["random", 42], progress=False)


@pytest.mark.parametrize("n", [0, 1, 6, 7])
def test_impossible_player_count(n):
    with pytest.raises(RulesError, match=rf"player count {n}\b.*2 to 5"):
        cargo_sim.simulate(2, ["random"] * n, progress=False)
    with pytest.raises(RulesError, match=rf"player count {n}\b"):
        cargo_sim.play_one(1, ["random"] * n)


def test_player_count_follows_rules():
    narrow = R.replace(max_players=3)
    with pytest.raises(RulesError, match="player count 4"):
        cargo_sim.simulate(2, ["random"] * 4, rules=narrow, progress=False)
    assert len(cargo_sim.simulate(3, ["random"] * 3, rules=narrow, progress=False).games) == 3


def test_players_as_comma_string():
    res = cargo_sim.simulate(3, "random,random,random", seed=1, progress=False)
    assert res.games["n_players"].tolist() == [3, 3, 3]


@pytest.mark.parametrize("n_games", [-1, -1000, 2.5, "10", None, True])
def test_bad_game_count(n_games):
    with pytest.raises(ConfigError, match="number of games"):
        cargo_sim.simulate(n_games, ["random"] * 2, progress=False)


@pytest.mark.parametrize("kw, word", [({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                                      ({"workers": 0}, "workers"), ({"workers": "2"}, "workers"),
                                      ({"rules": {"start_coins": 3}}, "rules")])
def test_bad_simulate_options(kw, word):
    with pytest.raises(ConfigError, match=word):
        cargo_sim.simulate(2, ["random"] * 2, progress=False, **kw)


# ---------------------------------------------------------------------------
# rules overrides
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("overrides, name", [
    ({"start_coinz": 3}, "start_coinz"),                                  # unknown parameter
    ({"card.Villa.colour": "red"}, "card.Villa.colour"),                  # unknown card field
    ({"port.Rio.depth": 3}, "port.Rio.depth"),                            # unknown port field
    ({"turns": 3}, "turns"),                                              # section, not a value
    ({"start_coins": "7"}, "start_coins"),                                # wrong type
    ({"start_coins": 7.0}, "start_coins"),
    ({"unlimited_coins": 1}, "unlimited_coins"),
    ({"cargo_types": "gold"}, "cargo_types"),
    ({"turns.4": "ten"}, "turns.4"),
    ({"card.Villa.cost": 2.5}, "card.Villa.cost"),
    ({"port.Rio.players": 3}, "port.Rio.players"),
    ({"card.Villa.cost": -5}, "card.Villa.cost"),                         # negative cost
    ({"card.Villa.cost": 0}, "card.Villa.cost"),                          # free card
    ({"card.Villa.vp": -1}, "card.Villa.vp"),
    ({"card.Villa.copies": 0}, "card.Villa.copies"),
    ({"card.Villa.kind": "rare"}, "card.Villa.kind"),
    ({"casino_payout": -1}, "casino_payout"),
    ({"start_coins": -3}, "start_coins"),
    ({"tokens_per_type": 0}, "tokens_per_type"),
    ({"black_market_slots": -8}, "black_market_slots"),
    ({"value_same": [0, 1, 4, 9, 16, 25, 36, 49, 64, 60]}, "value_same"),  # decreasing
    ({"value_different": [0, 3, 1, 6, 10, 15, 21, 28, 36, 45]}, "value_different"),
    ({"value_same": [1, 1, 4, 9, 16, 25, 36, 49, 64, 81]}, "value_same"),  # must start at 0
    ({"value_different": [0, 1, 3, 6]}, "value_different"),               # wrong length
    ({"min_players": 1}, "turns.1"),                                      # no turn count
    ({"turns.4": 1}, "turns.4"),
    ({"port.Rio.slots": 0}, "port.Rio.slots"),
    ({"port.Atlantis.slots": 3}, "port.Atlantis.players"),                # new port, half given
    ({"start_ships": 6}, "start_ships"),
    ({"total_coins": 20}, "total_coins"),
    ({"max_players": 6}, "max_players"),
    ({"cargo_types": ["gold", "gold"]}, "cargo_types"),
])
def test_bad_override_names_the_parameter(overrides, name):
    with pytest.raises(RulesError) as ex:
        R.replace(overrides)
    assert name in str(ex.value)
    # the defaults are untouched
    assert R["start_coins"] == 7 and R["card.Villa.cost"] == 25


def test_no_open_port_for_a_player_count():
    two = [p for p in R.port_names if 2 in R[f"port.{p}.players"]]
    assert len(two) == 4
    over = {f"port.{p}.players": [q for q in R[f"port.{p}.players"] if q != 2] for p in two}
    with pytest.raises(RulesError) as ex:
        R.replace(over)
    msg = str(ex.value)
    assert "port.*.players" in msg and "2 players" in msg


def test_several_problems_reported_together():
    with pytest.raises(RulesError) as ex:
        R.replace({"start_coinz": 1, "casino_payoff": 2})
    assert "start_coinz" in str(ex.value) and "casino_payoff" in str(ex.value)


def test_unknown_parameter_on_read():
    with pytest.raises(RulesError, match="nope"):
        R["nope"]


def test_valid_overrides_apply():
    r = R.replace({"card.Villa.cost": 22, "turns.4": 12}, start_coins=8)
    assert (r["start_coins"], r["card.Villa.cost"], r["turns.4"]) == (8, 22, 12)
    assert r.turns(4) == 12
    assert r != R and r.digest != R.digest
    assert R.replace(start_coins=7) == R


# ---------------------------------------------------------------------------
# rules files
# ---------------------------------------------------------------------------
def test_from_file_missing(tmp_path):
    path = tmp_path / "nothere.toml"
    with pytest.raises(RulesError) as ex:
        Rules.from_file(path)
    assert "nothere.toml" in str(ex.value)


@pytest.mark.parametrize("text", ["start_coins = = 3\n", "[card.Villa\ncost = 3\n",
                                  "start_coins = 3\nstart_coins = 4\n", "\x00\x01"])
def test_from_file_malformed_toml(tmp_path, text):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesError) as ex:
        Rules.from_file(path)
    assert "bad.toml" in str(ex.value) and "TOML" in str(ex.value)


def test_from_file_bad_value_names_parameter(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text("[card.Villa]\ncost = -2\n")
    with pytest.raises(RulesError, match=re.escape("card.Villa.cost")):
        Rules.from_file(path)
    path.write_text("start_coinz = 3\n")
    with pytest.raises(RulesError, match="start_coinz"):
        Rules.from_file(path)


def test_from_file_overrides(tmp_path):
    path = tmp_path / "variant.toml"
    path.write_text('start_coins = 9\n[card.Villa]\ncost = 22\n[turns]\n4 = 12\n'
                    '[port."Hong Kong"]\nslots = 3\n')
    r = Rules.from_file(path)
    assert r["start_coins"] == 9 and r["card.Villa.cost"] == 22 and r["turns.4"] == 12
    assert r["port.Hong Kong.slots"] == 3
    assert r["card.Villa.vp"] == 22          # tied to its cost ([constraint]): it follows
    assert r["card.Yacht.vp"] == 20          # the rest is the default
    prov = r.provenance.set_index("parameter")
    for name in ("start_coins", "card.Villa.cost", "card.Villa.vp", "turns.4", "port.Hong Kong.slots"):
        assert prov.loc[name, "status"] == "user"              # the file's values are the user's
        assert prov.loc[name, "source"] == "user: variant.toml"
    assert prov.loc["card.Yacht.cost", "status"] == "estimated"


def test_to_toml_round_trip(tmp_path):
    r = R.replace(start_coins=9, **{"card.Villa.cost": 22})
    path = tmp_path / "full.toml"
    path.write_text(r.to_toml())
    back = Rules.from_file(path)
    assert back == r
    # a full file records only what differs from the defaults: the estimated
    # values it repeats keep their provenance
    assert back.overrides == {"start_coins": 9, "card.Villa.cost": 22, "card.Villa.vp": 22}
    path.write_text(R.to_toml())
    same = Rules.from_file(path)
    assert same.overrides == {} and same.digest == R.digest
    assert same.provenance.set_index("parameter").loc["card.Yacht.cost", "status"] == "estimated"


# ---------------------------------------------------------------------------
# provenance
# ---------------------------------------------------------------------------
def test_estimated_includes_port_openings_card_costs_vp_and_turns():
    est = set(R.estimated)
    for p in R.port_names:
        assert f"port.{p}.players" in est       # the 2-3 player openings are estimates
    # slots: from a 4-player session report (review) except Tanger's, closed in that game
    assert [p for p in R.port_names if f"port.{p}.slots" in est] == ["Tanger"]
    for c in R.card_names:
        assert f"card.{c}.cost" in est
        assert f"card.{c}.vp" in est
    for n in R.player_counts:
        assert f"turns.{n}" in est
    assert "unknown" not in set(R.provenance["status"])
    # printed values are not estimates
    for name in ("start_coins", "tokens_per_type", "value_same", "card.Villa.copies"):
        assert name not in est


def test_provenance_statuses():
    prov = R.provenance.set_index("parameter")
    assert set(prov.columns) >= {"value", "status", "source"}
    assert prov.loc["start_coins", "status"] == "rulebook"
    assert prov.loc["start_coins", "value"] == 7
    assert prov.loc["unlimited_coins", "status"] == "decision"
    assert prov.loc["black_market_slots", "status"] == "review"
    assert prov.loc["port.Rio.slots", "status"] == "review"
    assert prov.loc["port.Tanger.slots", "status"] == "estimated"
    for name in ("final_turn_phase3", "trade_without_card", "tie_break"):
        assert prov.loc[name, "status"] == "decision"
    assert "override" not in set(prov["status"])


def test_override_shows_in_provenance():
    r = R.replace(start_coins=8, **{"card.Villa.cost": 22})
    prov = r.provenance.set_index("parameter")
    assert prov.loc["start_coins", "status"] == "override"
    assert prov.loc["start_coins", "value"] == 8
    assert prov.loc["card.Villa.cost", "status"] == "override"
    assert prov.loc["card.Villa.cost", "value"] == 22
    # a Villa's VP is tied to its cost ([constraint]): it moved with it
    assert prov.loc["card.Villa.vp", "value"] == 22
    assert set(prov.index[prov["status"] == "override"]) == {"start_coins", "card.Villa.cost",
                                                              "card.Villa.vp"}
    assert prov.loc["card.Yacht.cost", "status"] == "estimated"
    assert "card.Villa.cost" not in r.estimated
    # overrides accumulate through successive replace() calls
    r2 = r.replace(casino_payout=3)
    assert set(r2.provenance.query("status == 'override'")["parameter"]) == {
        "start_coins", "card.Villa.cost", "card.Villa.vp", "casino_payout"}


# ---------------------------------------------------------------------------
# illegal decisions (explicit states)
# ---------------------------------------------------------------------------
def test_illegal_decision_message_names_decision_and_seat():
    g = ScriptedGame(3)
    g.set_player(1, hand_ships=1)
    with pytest.raises(IllegalDecisionError) as ex:
        g.run_phase(1, 3, [("send", "Rio", 0)])
    msg = str(ex.value)
    assert "send ship" in msg and "seat 1" in msg


def test_to_toml_round_trips_any_name(tmp_path):
    # non-ASCII (outside the BMP too), quotes and backslashes in names and values
    r = R.replace({"name": 'Café "noir" \\ 😀', "port.Hong Kong.slots": R["port.Hong Kong.slots"]})
    path = tmp_path / "odd.toml"
    path.write_text(r.to_toml(), encoding="utf-8")
    back = Rules.from_file(path)
    assert back == r and back["name"] == 'Café "noir" \\ 😀'
