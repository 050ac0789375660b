"""One command grammar: docs/cli.md's table of options against the real parsers.

Every option of every ``cargo-sim`` command appears in the table with the same
meaning and the same commands, and every row of the table is a real option;
the same for the old spellings. Help text everywhere, one short flag per
option, no "%%" in any help, and the errors of the analyses' commands are the
CLI's one line. Nothing here plays a game.
"""
import argparse
import re
from pathlib import Path

import pytest

from cargo_sim.cli import grammar as G
from cargo_sim.cli.main import build_parser, main

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def subparsers():
    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return p, sub.choices


def parser_rows():
    """{(flags, meaning): {commands}} and {(old flag, now): {commands}} from the parsers."""
    rows, old = {}, {}
    for cmd, sp in subparsers()[1].items():
        for a in sp._actions:
            if not a.option_strings or isinstance(a, argparse._HelpAction):
                continue
            if a.help == argparse.SUPPRESS:
                old.setdefault((a.option_strings[0], a.old), set()).add(cmd)
            else:
                rows.setdefault((tuple(a.option_strings), a.meaning), set()).add(cmd)
    return rows, old


def doc_table(heading: str) -> list[list[str]]:
    """The cells of the first table under ``heading`` in docs/cli.md."""
    text = DOC.read_text(encoding="utf-8")
    part = text.split(heading, 1)[1]
    lines = [ln for ln in part.splitlines() if ln.startswith("|")]
    start = part.splitlines().index(lines[0])
    table = []
    for ln in part.splitlines()[start:]:
        if not ln.startswith("|"):
            break
        table.append([c.strip() for c in ln.strip().strip("|").split(" | ")])
    return table[2:]                          # no header or rule


def test_the_docs_table_is_the_parsers_grammar():
    rows, _ = parser_rows()
    doc = {}
    for opt, meaning, cmds in doc_table("### Every option"):
        flags = tuple(re.findall(r"`(-[-\w]+)`", opt))
        doc[(flags, meaning)] = {c.strip() for c in cmds.split(",")}
    assert doc == rows


def test_the_docs_table_of_old_spellings_is_the_parsers():
    _, old = parser_rows()
    doc = {}
    for opt, now, cmds in doc_table("### Old spellings"):
        doc[(opt.strip("`"), now.replace("`", ""))] = {c.strip() for c in cmds.split(",")}
    assert doc == old


def test_one_option_one_meaning_one_short_flag_and_help_everywhere():
    meanings, shorts = {}, {}
    for cmd, sp in subparsers()[1].items():
        for a in sp._actions:
            if not a.option_strings or isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
                continue
            long_, *short = a.option_strings
            assert a.help and a.help.strip(), f"{cmd} {long_} has no help"
            meanings.setdefault(long_, set()).add(a.meaning)
            for s in short:
                shorts.setdefault(s, set()).add(long_)
            if long_ in G.SHORT:                 # the short flag wherever the option is
                assert G.SHORT[long_] in a.option_strings, (cmd, long_)
    assert all(len(m) == 1 for m in meanings.values())
    assert all(len(v) == 1 for v in shorts.values()), shorts


def test_no_literal_percent_signs_in_any_help():
    top, subs = subparsers()
    for text in [top.format_help()] + [sp.format_help() for sp in subs.values()]:
        assert "%%" not in text


def test_the_analyses_defaults_are_the_grammars():
    from analyses import report
    from analyses.robustness import Design
    assert (report.DEFAULT_GAMES, report.DEFAULT_BUDGET, report.DEFAULT_EVENTS_GAMES,
            report.QUICK_GAMES) == (G.REPORT_MAX_GAMES, G.REPORT_SECONDS, G.REPORT_EVENTS_GAMES,
                                    G.REPORT_QUICK_GAMES)
    d = Design()
    assert (d.games, d.morris_games, d.morris_trajectories, d.seed) == (
        G.ROBUSTNESS_GAMES, G.ROBUSTNESS_MORRIS_GAMES, G.ROBUSTNESS_TRAJECTORIES, G.ROBUSTNESS_SEED)


@pytest.mark.parametrize("argv, says", [
    (["report", "--out", "{tmp}/r", "--games", "abc"], "bad --games 'abc'"),
    (["report", "--out", "{tmp}/r", "--seats", "two"], "--seats takes seat counts"),
    (["report", "--out", "{tmp}/r", "--players", "4=random,random"], "names 2 bots for 4 players"),
    (["report", "--games", "5"], "required: --out"),
    (["robustness", "--out", "{tmp}/r", "--seats", "2,x"], "--seats takes seat counts"),
    (["tune", "--evals", "many"], "--evals: invalid int value"),
    (["ladder", "--nope"], "unrecognized arguments: --nope"),
])
def test_analyses_commands_errors_are_one_cli_line(capsys, tmp_path, argv, says):
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("cargo-sim: error: ") and says in lines[0], err
    assert "analyses" not in err and not (tmp_path / "r").exists()


def test_help_of_the_analyses_commands_says_cargo_sim(capsys):
    for cmd in ("report", "robustness", "ladder", "sweep", "tune"):
        assert main([cmd, "--help"]) == 0
        assert capsys.readouterr().out.startswith(f"usage: cargo-sim {cmd} ")


def test_old_spellings_still_parse_to_the_new_options():
    top, subs = subparsers()
    a = top.parse_args(["report", "--out", "x", "--budget", "7", "--counts", "3,4", "--progress"])
    assert (a.seconds, a.seats, a.no_progress) == (7.0, "3,4", False)
    assert len(a.old_spellings) == 3
    a = top.parse_args(["tune", "--budget", "9", "--start", "greedy?bid_margin=1"])
    assert (a.evals, a.start_bot) == (9, "greedy?bid_margin=1")
    a = top.parse_args(["sweep", "--vary", "start_coins=6,7", "--quiet"])
    assert a.no_progress is True
    a = top.parse_args(["tournament", "-b", "greedy,random", "--seats", "2"])
    assert a.players == "greedy,random"
    a = top.parse_args(["robustness", "--players", "2,3"])
    assert a.seats == "2,3"
    assert getattr(top.parse_args(["report", "--out", "x"]), "old_spellings", None) is None


def test_a_note_names_the_new_spelling(capsys):
    args = argparse.Namespace(old_spellings=["--budget is now spelled --seconds"])
    G.note_old_spellings(args)
    assert capsys.readouterr().err == "cargo-sim: note: --budget is now spelled --seconds\n"
