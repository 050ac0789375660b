"""The command line with --game shipwrights: simulate, play (text narration), rules,
bots and a rules override, in-process."""
from cargo_sim.cli import main


def test_simulate_play_rules_and_bots(capsys):
    assert main(["--game", "shipwrights", "simulate", "-n", "40", "-p", "expert,random,attacker",
                 "--set", "ship_goal=3", "-j", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "expert" in out and "mean days" in out
    assert main(["--game", "shipwrights", "play", "-p", "expert,military", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "keeps" in out and "completes the" in out and "finishes with" in out
    assert main(["--game", "shipwrights", "rules"]) == 0
    assert "ship.Knarr.points" in capsys.readouterr().out
    assert main(["--game", "shipwrights", "bots"]) == 0
    assert "boathouse" in capsys.readouterr().out


def test_a_bad_override_is_one_line(capsys):
    assert main(["--game", "shipwrights", "simulate", "-n", "5", "--set", "tool.Bow Saw.price=-3",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "tool.Bow Saw.price" in err and err.strip().count("\n") == 0
