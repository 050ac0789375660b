"""``make wheel-check``: the wheel installs every game.

Builds the wheel from the tracked files (a copy: the build writes ``build/`` and
``*.egg-info`` where it runs), checks that it holds every tracked data file
under ``cargo_sim/`` (``data_files``, also asserted by
tests/project/test_wheel.py), installs it with ``--no-deps`` into a folder of
its own, and from a working folder outside the source tree, with this
interpreter (the test environment's: it has the dependencies) and
``PYTHONPATH`` set to that folder only, runs ``cargo-sim rules --game G`` and a
100-game ``cargo-sim simulate --game G`` for every game the installed package
registers. Any failure prints what failed and exits non-zero.

The compiled kernels go to the user's numba cache, keyed by source hash and
optimisation level (core/cache.py), so after ``make test`` (same ``NUMBA_OPT``)
the installed copy reuses them instead of compiling again.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES_PROBE = ("import cargo_sim, cargo_sim.core.contract as c; print(cargo_sim.__file__); "
               "print(*c.game_names(), sep='\\n')")


def tracked_files(root: Path = ROOT) -> list[str]:
    """The files git tracks under ``root`` (posix paths), as the wheel is built from them."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"wheel-check: cannot list the tracked files of {root} with git: {e}")
    return [n for n in out.stdout.decode().split("\0") if n]


def data_files(names) -> set[str]:
    """The package's data files among ``names``: everything under ``cargo_sim/``
    that is not Python source or a byte-compiled file."""
    return {n for n in names if n.startswith("cargo_sim/") and not n.endswith((".py", ".pyc"))
            and "__pycache__/" not in n}


def data_problem(tracked, in_wheel) -> str:
    """Why the wheel's data files (``in_wheel``: its names) are not exactly the
    tracked ones (``tracked``: paths); "" when they are."""
    want, got = data_files(tracked), data_files(in_wheel)
    if want == got:
        return ""
    return (f"the wheel's data files differ from the tracked ones under cargo_sim/: missing "
            f"{sorted(want - got)}, extra {sorted(got - want)} (pyproject.toml, package-data)")


def build_wheel(dest: Path, root: Path = ROOT) -> Path:
    """Copy the tracked files of ``root`` to ``dest/src`` and build the wheel into
    ``dest/dist`` (pip with build isolation: pyproject.toml's build backend);
    returns the wheel's path."""
    src = dest / "src"
    for name in tracked_files(root):
        if (root / name).is_file():             # (a tracked file deleted in the work tree: skip)
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, src / name)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dest / "dist"),
         str(src)], cwd=dest)
    wheels = sorted((dest / "dist").glob("cargo_sim-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"wheel-check: expected one wheel in {dest / 'dist'}, found {wheels}")
    return wheels[0]


def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def run(cmd, **kw) -> subprocess.CompletedProcess:
    """Run ``cmd``; on failure print its output and stop with exit status 1."""
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode != 0:
        print(f"wheel-check: FAILED ({r.returncode}): {' '.join(map(str, cmd))}\n"
              f"{r.stdout[-3000:]}{r.stderr[-3000:]}", file=sys.stderr)
        raise SystemExit(1)
    return r


def children_cpu() -> float:
    """CPU seconds of the finished child processes (a compile shows here, waiting does not)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def check_games(site: Path, work: Path) -> list[str]:
    """Every registered game of the package installed in ``site``, each played
    through its console script; returns the games."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    first, *games = run([sys.executable, "-c", GAMES_PROBE], cwd=work, env=env).stdout.split()
    if not Path(first).resolve().is_relative_to(site.resolve()):
        raise SystemExit(f"wheel-check: cargo_sim was imported from {first}, not from the "
                         f"installed wheel in {site}")
    if not games:
        raise SystemExit("wheel-check: the installed package registers no game")
    script = site / "bin" / "cargo-sim"
    cli = [script] if script.exists() else [sys.executable, "-m", "cargo_sim.cli"]
    for game in games:
        t0, cpu0 = time.perf_counter(), children_cpu()
        run([*cli, "rules", "--game", game], cwd=work, env=env)
        out = run([*cli, "simulate", "--game", game, "-n", "100", "--seed", "1", "--no-progress"],
                  cwd=work, env=env).stdout
        if "100 games" not in out:
            raise SystemExit(f"wheel-check: simulate --game {game} did not report 100 games:\n{out}")
        print(f"wheel-check: {game}: rules and 100 games in {time.perf_counter() - t0:.1f} s "
              f"({children_cpu() - cpu0:.1f} s CPU)")
    return games


def main() -> int:
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="cargo_sim-wheel-"))
    try:
        wheel = build_wheel(tmp)
        t_build = time.perf_counter() - t0
        tracked = tracked_files()
        problem = data_problem(tracked, wheel_names(wheel))
        if problem:
            print(f"wheel-check: FAILED: {problem}", file=sys.stderr)
            return 1
        site, work = tmp / "site", tmp / "work"
        work.mkdir()
        run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
             str(wheel)], cwd=work)
        games = check_games(site, work)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"wheel-check: OK: {wheel.name} ({len(data_files(tracked))} data files) installs and plays "
          f"{', '.join(games)}; built in {t_build:.0f} s, {time.perf_counter() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
