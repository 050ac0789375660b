"""The README's examples run as written (README.md is read at test time).

Every ```python block runs in document order in one namespace, and every
``cargo-sim ...`` line of the ```sh blocks runs (``make`` lines are skipped), all
in one temporary folder, in document order: the first through the installed
entry point in a new process, the others through the function that entry point
calls (``cargo_sim.cli.main``, the same arguments), in this process: a new
process per line would only import the library again, ~3 s of CPU each. Game counts are reduced: every integer literal >= 10000 in a code
block (``100_000``, ``12000``) is divided by $CARGO_SIM_README_SCALE (1000
here; at least 20 remain), and so are ``--budget`` seconds (at least 1).
A python block whose strings hold a ``<placeholder>`` (a host to fill in)
is skipped.
"""
import io
import contextlib
import os
import re
import shlex
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SCALE = int(os.environ.get("CARGO_SIM_README_SCALE", "1000"))
PLACEHOLDER = re.compile(r"<[A-Za-z_][\w-]*>")
SH_INT = re.compile(r"(?<![\w.])\d[\d_]*(?![\w.])")
SH_BUDGET = re.compile(r"(--budget[ =])(\d+(?:\.\d+)?)")

pytestmark = pytest.mark.slow


def scaled(v: int) -> int:
    return max(20, v // SCALE) if v >= 10_000 else v


def blocks(text: str):
    """(language, first line number, code) of every fenced block."""
    out, lang, start, buf = [], None, 0, []
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, buf = line[3:].strip() or "text", i + 1, []
            else:
                out.append((lang, start, "\n".join(buf) + "\n"))
                lang = None
        elif lang is not None:
            buf.append(line)
    return out


def scale_python(code: str) -> str:
    toks = []
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.NUMBER and re.fullmatch(r"\d[\d_]*", tok.string):
            tok = tok._replace(string=str(scaled(int(tok.string.replace("_", "")))))
        toks.append(tok)
    return tokenize.untokenize(toks)


def has_placeholder(code: str) -> bool:
    return any(tok.type == tokenize.STRING and PLACEHOLDER.search(tok.string)
               for tok in tokenize.generate_tokens(io.StringIO(code).readline))


def sh_commands(code: str) -> list[str]:
    """The ``cargo-sim`` lines of a shell block (continuations joined), scaled."""
    lines = code.replace("\\\n", " ").splitlines()
    out = []
    for line in lines:
        if not line.strip().startswith("cargo-sim"):
            continue
        line = SH_BUDGET.sub(lambda m: m.group(1) + str(max(1, int(float(m.group(2)) // SCALE))), line)
        out.append(SH_INT.sub(lambda m: str(scaled(int(m.group().replace("_", "")))), line))
    return out


def test_scaling_rules():
    assert eval(scale_python("(100_000, 12000, 9999, 5, 2.5e6)")) == (100, 20, 9999, 5, 2.5e6)
    assert sh_commands("cargo-sim x -n 200000 --seed 7 \\\n  --budget 60 --set a=22\nmake demo\n") \
        == ["cargo-sim x -n 200 --seed 7    --budget 1 --set a=22"]
    assert has_placeholder('f("tcp://<host>:1")\n') and not has_placeholder("x = 1  # card_<name>\n")


def in_process(cmd: str) -> tuple[int, str]:
    """``cargo-sim ARGS`` through ``cargo_sim.cli.main(ARGS)``: (exit status, stderr)."""
    from cargo_sim.cli import main
    argv = shlex.split(cmd)
    assert argv[0] == "cargo-sim", cmd
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv[1:])
    return code, err.getvalue()


def test_readme_examples_run(tmp_path, monkeypatch):
    text = README.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    bindir = str(Path(sys.executable).parent)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), MPLBACKEND="Agg")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__readme__"}
    ran = shells = 0
    for lang, line, code in blocks(text):
        if lang == "python":
            if has_placeholder(code):
                continue
            try:
                exec(compile(scale_python(code), f"README.md:{line}", "exec"), namespace)
            except Exception as e:
                pytest.fail(f"README.md python block at line {line}: {type(e).__name__}: {e}")
            ran += 1
        elif lang in ("sh", "bash", "console"):
            for cmd in sh_commands(code):
                if not shells:
                    r = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True,
                                       timeout=900)
                    code_, err = r.returncode, r.stderr
                else:
                    code_, err = in_process(cmd)
                assert code_ == 0, f"README.md block at line {line}: {cmd}\n{err[-2000:]}"
                shells += 1
                ran += 1
    assert ran > 0
    import matplotlib.pyplot as plt
    plt.close("all")
