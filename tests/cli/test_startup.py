"""Start-up: commands that only print load no heavy library, Ctrl-C at any moment
is one line, and a second install of the same version reuses the compiled kernels."""
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

HEAVY = ("numba", "pandas", "scipy")
PROBE = """
import sys
from cargo_sim.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
print("HEAVY", sorted(m for m in sys.modules if m in {heavy!r} or m.endswith("_nb")
                     or m.startswith("analyses")), file=sys.stderr)
sys.exit(rc)
"""


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["bots"], ["bots", "-v"],
                                  ["rules"], ["rules", "--estimated"], ["rules", "--toml"],
                                  ["rules", "--set", "turns.4=11"], ["simulate", "--help"],
                                  ["play", "--help"], ["tournament", "--help"], ["sweep", "--help"],
                                  ["tune", "--help"], ["ladder", "--help"], ["report", "--help"],
                                  ["robustness", "--help"]])
def test_printing_commands_import_no_heavy_library(argv):
    proc = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    assert "HEAVY []" in proc.stderr, proc.stderr


def test_import_cargo_sim_is_light_and_names_load_on_use():
    code = ("import sys, cargo_sim; assert not any(m in sys.modules for m in %r); "
            "assert 'simulate' in dir(cargo_sim); cargo_sim.Rules.default(); "
            "assert 'numba' not in sys.modules; print(cargo_sim.__version__)") % (HEAVY,)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    import cargo_sim
    with pytest.raises(AttributeError):
        cargo_sim.no_such_name  # noqa: B018


@pytest.mark.parametrize("delay", [0.2, 0.5, 1.0, 2.5, 4.0])
def test_ctrl_c_at_any_moment_is_one_line(delay, tmp_path):
    """SIGINT while the command imports, compiles or plays: status 130 (or 0 if it
    finished first) and never a traceback. The delay counts from the moment the
    interpreter has started and imported the (two-module) package: before that no
    code of the command runs, and on a loaded machine starting takes a second or more.
    The child starts with Ctrl-C on, as from a terminal: a test run started in the
    background (`make test &`, nohup) passes SIGINT on ignored, and until main()
    installs its handler the import would ignore it too (the command then ran on)."""
    start = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "import sys, cargo_sim; print('started', flush=True); "   # then as the cargo-sim script
             "from cargo_sim.cli import main; sys.exit(main())")
    proc = subprocess.Popen([sys.executable, "-c", start, "simulate", "-n", "5000000",
                             "-p", "random,random", "--seed", "1", "--workers", "1"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "started\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode in (0, 130), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_second_install_of_the_same_version_reuses_compiled_kernels(tmp_path):
    """The numba cache is keyed by the source version and the module's place in the
    package, not by where the package is installed."""
    import cargo_sim
    src = os.path.dirname(cargo_sim.__file__)
    copies = [tmp_path / "a", tmp_path / "b"]
    for c in copies:
        shutil.copytree(src, c / "cargo_sim", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("CARGO_SIM_CACHE_ROOT", "XDG_CACHE_HOME")}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    code = ("import cargo_sim.core.rng_nb as r; r.game_seed_nb(1, 2); "
            "print(sum(r.game_seed_nb.stats.cache_hits.values()), "
            "sum(r.game_seed_nb.stats.cache_misses.values()))")
    seen = []
    for c in copies:
        proc = subprocess.run([sys.executable, "-c", code], env={**env, "PYTHONPATH": str(c)},
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        seen.append((proc.stdout.split(), "compiling" in proc.stderr))
    assert seen[0] == (["0", "1"], True)       # the first install compiles, and says so
    assert seen[1] == (["1", "0"], False)      # the second loads what the first compiled


def test_every_kernel_module_sets_the_cache_folder_first():
    """numba fixes a cached function's folder when the decorator runs: each module
    that imports numba's decorators at its top imports core.cache before them."""
    import pathlib
    import re
    import cargo_sim
    root = pathlib.Path(cargo_sim.__file__).parent
    missing = []
    for path in root.rglob("*.py"):
        lines = path.read_text().splitlines()
        deco = [i for i, ln in enumerate(lines) if re.match(r"from numba import .*\b(njit|cfunc)\b", ln)]
        if not deco or path.name == "cache.py":
            continue
        first = [i for i, ln in enumerate(lines) if re.match(r"from \.+(core)? import cache\b", ln)]
        if not first or first[0] > deco[0]:
            missing.append(str(path.relative_to(root)))
    assert missing == []


def test_a_long_compile_announces_itself_whatever_the_cache_held():
    """The notice comes from numba's compile events (fired only on a cache miss),
    after a delay: a compile longer than the delay says so, a quick one says nothing."""
    import io
    from numba import njit
    from cargo_sim.core import cache
    heard, quiet = io.StringIO(), io.StringIO()
    slow = cache.install_compile_notice("FOLDER", after=0.0, stream=heard)
    fast = cache.install_compile_notice("FOLDER", after=60.0, stream=quiet)
    old = cache._LAST_NOTICE[0]
    cache._LAST_NOTICE[0] = float("-inf")
    try:
        @njit
        def never_cached(n):                  # a new function: always compiled here
            return n * 2 + 1
        assert never_cached(3) == 7
    finally:
        from numba.core import event
        event.unregister("numba:compile", slow)
        event.unregister("numba:compile", fast)
        cache._LAST_NOTICE[0] = old
    assert heard.getvalue().startswith("cargo_sim: compiling ") and "never_cached" in heard.getvalue()
    assert "FOLDER" in heard.getvalue() and quiet.getvalue() == ""


def test_ctrl_c_inside_a_compilers_callback_is_sent_again_not_swallowed():
    """SIGINT while llvmlite calls back into Python (numba compiling): raising there is
    printed as "Exception ignored" with a traceback and lost, so the handler sends the
    signal again once the callback returned; anywhere else it raises at once."""
    import threading
    import types
    from cargo_sim.cli.main import on_sigint
    from cargo_sim.core.interrupt import REQUESTED
    sent = threading.Event()
    frame = types.SimpleNamespace(f_code=types.SimpleNamespace(
        co_filename="/x/site-packages/llvmlite/binding/executionengine.py"))
    try:
        assert on_sigint(signal.SIGINT, frame, resend=sent.set) is None
        assert REQUESTED.is_set() and sent.wait(5)
        with pytest.raises(KeyboardInterrupt):
            on_sigint(signal.SIGINT, sys._getframe())
    finally:
        REQUESTED.clear()
