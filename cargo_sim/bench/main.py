"""Benchmark of the engine: ``python -m cargo_sim.bench`` (``make bench``).

Measures, for random bots at 2, 3, 4 and 5 players:

* games/s of the compiled kernel alone (``Table.run`` of the core runner on a prepared table,
  chunks spread over a thread pool exactly as ``simulate`` does), on 1 thread
  and on all cores;
* games/s of ``simulate()`` end to end (seeds, kernel, DataFrames), on 1 thread
  and on all cores;
* the start-up cost in fresh subprocesses: import + first ``simulate`` with an
  empty ``NUMBA_CACHE_DIR`` (cold compile) and with the normal, warm cache;
* memory: the size of a 4-player ``.players`` table (measured on a moderately
  large run and extrapolated linearly to 1,000,000 games) and peak RSS;
* runs to disk (``run_to_dir``, fresh processes): 1,000,000 4-player games of
  the default bot mix end to end (play + Parquet), and a long random-bot run
  showing that memory stays flat (RSS early vs late; ``--stream-games
  10000000`` for the full-size check);
* the targets of long runs (cargo_sim.bench.targets): ``cargo-sim simulate
  --out`` peak RSS and share of the kernel rate (``--cli-out-games 10000000``
  for the full-size target), in-memory ``simulate`` peak against its tables.

Every ratio printed (thread speed-up, kernel share, cold/warm) comes from
measurements of the same run. Each rate is the best of ``--repeat`` (5)
interleaved repeats, as ``timeit`` does (on a shared machine slower repeats
are other work, not the code); the median's distance below the best is
printed as the run's noise. Options: ``--games N`` games per measurement
(default: calibrated to ~``--seconds`` (1) s each), ``--quick`` (short
measurements, no cold compile), ``--json FILE`` to keep the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..games import DEFAULT as DEFAULT_GAME        # the game the library's own measurements play

PLAYER_COUNTS = (2, 3, 4, 5)
CHUNK = 2048


# ---------------------------------------------------------------------------
# in-process measurements
def _prepare(n_players: int, bot: str = "random", game: str = DEFAULT_GAME):
    """A core.runner.Table of ``n_players`` copies of ``bot`` under the game's default rules."""
    from ..core.contract import get_game
    from ..core.runner import Table
    game = get_game(game)
    rules = game.Rules.default()
    return Table.build(game, rules, [game.bots.parse(bot) for _ in range(n_players)])


def kernel_rate(n_players: int, n_games: int, workers: int, seed: int = 1,
                bot: str = "random", game: str = DEFAULT_GAME) -> float:
    """games/s of the kernel alone: chunks of ``CHUNK`` games on ``workers`` threads."""
    from ..core.seeds_nb import game_seeds
    table = _prepare(n_players, bot, game)
    seeds = game_seeds(seed, 0, n_games)
    chunks = [seeds[lo:lo + CHUNK] for lo in range(0, n_games, CHUNK)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        t0 = time.perf_counter()
        for games, _pl, err in pool.map(table.run, chunks):
            if err is not None:
                raise RuntimeError(f"kernel reported an illegal decision: {err}")
        dt = time.perf_counter() - t0
    return n_games / dt


def simulate_rate(n_players: int, n_games: int, workers: int, seed: int = 1) -> float:
    """games/s of ``simulate()`` end to end (DataFrames included)."""
    from ..runners.api import simulate
    t0 = time.perf_counter()
    res = simulate(n_games, ["random"] * n_players, seed=seed, workers=workers, progress=False,
                   game=DEFAULT_GAME)
    dt = time.perf_counter() - t0
    assert len(res.games) == n_games
    return n_games / dt


def calibrate(n_players: int, seconds: float) -> int:
    """Games for ~``seconds`` of single-threaded simulate() at this player count."""
    n = 4 * CHUNK
    rate = simulate_rate(n_players, n, 1)
    rate = max(rate, simulate_rate(n_players, n, 1))
    return int(max(CHUNK, min(5_000_000, round(rate * seconds / CHUNK) * CHUNK)))


# ---------------------------------------------------------------------------
# fresh-subprocess measurements
def peak_rss_mb() -> float:
    """Peak resident memory of this process in MB: VmHWM from /proc/self/status,
    which exec resets (on Linux ``ru_maxrss`` of a fork+exec child reports the
    parent's peak when that was higher); ``ru_maxrss`` elsewhere."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / (2**20 if sys.platform == "darwin" else 1024)      # bytes on macOS


_STARTUP_CODE = r"""
import json, time
t0 = time.perf_counter()
import cargo_sim
t1 = time.perf_counter()
cargo_sim.simulate(20, ["random"] * 3, seed=1, progress=False)
t2 = time.perf_counter()
from cargo_sim.bench.main import peak_rss_mb
print(json.dumps({"import_s": t1 - t0, "first_simulate_s": t2 - t1,
                  "maxrss_mb": peak_rss_mb()}))
"""

_MEMORY_CODE = r"""
import json, sys, time
import cargo_sim
from cargo_sim.bench.main import peak_rss_mb
n = int(sys.argv[1])
cargo_sim.simulate(10, ["random"] * 4, seed=1, progress=False)          # load the cache first
base = peak_rss_mb()
t0 = time.perf_counter()
res = cargo_sim.simulate(n, ["random"] * 4, seed=1, progress=False)
dt = time.perf_counter() - t0
print(json.dumps({"n": n, "seconds": dt,
                  "players_bytes": int(res.players.memory_usage(deep=True).sum()),
                  "games_bytes": int(res.games.memory_usage(deep=True).sum()),
                  "players_rows": len(res.players),
                  "maxrss_before_mb": base,
                  "maxrss_mb": peak_rss_mb()}))
"""


_STREAM_CODE = r"""
import json, os, sys, tempfile, threading, time
import cargo_sim
from cargo_sim.bench.main import peak_rss_mb, rss_mb
from cargo_sim.runners.runs import run_to_dir
n, players, chunk, workers = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
cargo_sim.simulate(10, players, seed=1, progress=False)                 # load the cache first
base = peak_rss_mb()
samples = []
stop = threading.Event()
def sample():
    while not stop.wait(0.25):
        samples.append(rss_mb())
th = threading.Thread(target=sample, daemon=True)
th.start()
with tempfile.TemporaryDirectory(prefix="cargo_sim_bench_run_") as d:
    t0 = time.perf_counter()
    info = run_to_dir(os.path.join(d, "run"), n, players, seed=1, chunk_games=chunk,
                      workers=workers, progress=False)
    dt = time.perf_counter() - t0
    disk = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
stop.set()
th.join()
k = max(1, len(samples) // 5)
print(json.dumps({"n": n, "players": players, "chunk": chunk, "workers": workers, "seconds": dt,
                  "disk_bytes": disk, "maxrss_before_mb": base, "maxrss_mb": peak_rss_mb(),
                  "rss_first_fifth_max_mb": max(samples[:k], default=0.0),
                  "rss_last_fifth_max_mb": max(samples[-k:], default=0.0)}))
"""


def rss_mb() -> float:
    """Current resident memory of this process in MB (VmRSS; 0 where unknown)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def stream_run(n_games: int, players: list[str], chunk: int, workers: int) -> dict:
    """``run_to_dir`` of n_games in a fresh process: games/s end to end (play +
    Parquet chunks on disk), peak RSS, and RSS early vs late in the run (flat
    memory means the run can be any length)."""
    return child(_STREAM_CODE, n_games, ",".join(players), chunk, workers, timeout=24 * 3600)


def child(code: str, *args, env=None, timeout=900) -> dict:
    """Run ``code`` in a fresh interpreter; its last stdout line is a JSON dict."""
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                       text=True, env=env, timeout=timeout)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        tail = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise RuntimeError(f"benchmark subprocess failed: {tail}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["wall_s"] = wall
    return out


_GAME_CODE = r"""
import json, sys
from cargo_sim.bench.main import game_bench, kernel_rate
from cargo_sim.core.contract import get_game
bench = game_bench(get_game(sys.argv[1]))
print(json.dumps(bench.kernel_rates(kernel_rate, repeat=int(sys.argv[2]), seconds=float(sys.argv[3]))))
"""


def game_rates(name: str, repeat: int, seconds: float) -> dict:
    """A game's own kernel rates (its bench module's ``kernel_rates``) in a fresh process
    that loads the kernels from the cache: a first child compiles them if the cache is
    cold. Measured in a process that had just compiled them, Macao's random ran a
    quarter slower and expert's share read 31 % instead of 25 %."""
    child(_GAME_CODE, name, 1, 0.01)
    return child(_GAME_CODE, name, repeat, seconds)


def startup_times(cold: bool) -> dict:
    """Import + first simulate() in fresh interpreters: warm cache, and (``cold``) an empty one."""
    out = {}
    child(_STARTUP_CODE)                                   # make sure the normal cache is warm
    out["warm"] = child(_STARTUP_CODE)
    if cold:
        with tempfile.TemporaryDirectory(prefix="cargo_sim_numba_cache_") as d:
            env = dict(os.environ, NUMBA_CACHE_DIR=d)
            out["cold"] = child(_STARTUP_CODE, env=env)
    return out


def memory(n_games: int) -> dict:
    m = child(_MEMORY_CODE, n_games)
    scale = 1_000_000 / m["n"]
    m["players_bytes_1m"] = m["players_bytes"] * scale
    m["games_bytes_1m"] = m["games_bytes"] * scale
    m["bytes_per_player_row"] = m["players_bytes"] / m["players_rows"]
    return m


# ---------------------------------------------------------------------------
def _machine() -> dict:
    from ..core.version import __version__
    import numba
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    commit = ""
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", here, "--no-optional-locks", "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        if commit and dirty:
            commit += "+uncommitted changes"
    except (OSError, subprocess.SubprocessError):
        pass
    return {"cargo_sim": __version__, "commit": commit, "python": platform.python_version(),
            "numba": numba.__version__, "numpy": np.__version__, "cpu": cpu,
            "cores": os.cpu_count() or 1}


def _mb(b: float) -> str:
    return f"{b / 2**20:,.0f} MB"


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def run(games: int | None, seconds: float, cold: bool, mem_games: int, repeat: int = 5,
        out=sys.stdout, e2e_games: int = 1_000_000, stream_games: int = 2_000_000,
        stream_chunk: int = 100_000, cli_out_games: int = 1_000_000,
        target_memory_games: int = 1_000_000) -> dict:
    def say(*a):
        print(*a, file=out, flush=True)

    mach = _machine()
    cores = mach["cores"]
    say(f"cargo_sim {mach['cargo_sim']} ({mach['commit'] or 'no git'}), Python {mach['python']}, "
        f"numba {mach['numba']}, numpy {mach['numpy']}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    say(f"{mach['cpu']}, {cores} core(s), load average {load:.2f}"
        + ("  (other work is running: rates will be low and noisy)" if load > 0.5 else ""))
    t_start = time.perf_counter()

    # warm up (load the numba cache, or compile) before any timing
    t0 = time.perf_counter()
    simulate_rate(3, 16, 1)
    kernel_rate(3, 16, 1)
    t_warm = time.perf_counter() - t0
    say(f"warm-up (cache load or compile in this process): {t_warm:.1f} s")

    thread_counts = [1] if cores == 1 else [1, cores]
    rows = []
    for n in PLAYER_COUNTS:
        n_games = games or calibrate(n, seconds)
        row = {"players": n, "games": n_games}
        samples = {}
        # repeats interleaved, so that a burst of other work on the machine
        # spoils one repeat of each measurement rather than all of one
        for _ in range(max(1, repeat)):
            for w in thread_counts:
                samples.setdefault(f"kernel_{w}", []).append(kernel_rate(n, n_games, w))
                samples.setdefault(f"simulate_{w}", []).append(simulate_rate(n, n_games, w))
        for key, xs in samples.items():
            row[key] = max(xs)
            row[key + "_median"] = _median(xs)
        rows.append(row)
        say(f"  {n} players: {n_games:,} games per measurement ... done")

    say("")
    say(f"games/s, random bots, best of {repeat} (kernel = compiled games only; "
        "simulate = end to end, DataFrames included)")
    hdr = ["players", "games"]
    for kind in ("kernel", "simulate"):
        hdr += [f"{kind} 1 thr"] + ([f"{kind} {cores} thr", "speed-up"] if cores > 1 else [])
    hdr += ["simulate/kernel"]
    table = [hdr]
    for r in rows:
        line = [str(r["players"]), f"{r['games']:,}"]
        for kind in ("kernel", "simulate"):
            line.append(f"{r[f'{kind}_1']:,.0f}")
            if cores > 1:
                line += [f"{r[f'{kind}_{cores}']:,.0f}", f"x{r[f'{kind}_{cores}'] / r[f'{kind}_1']:.2f}"]
        w = cores
        line.append(f"{r[f'simulate_{w}'] / r[f'kernel_{w}']:.0%}")
        table.append(line)
    widths = [max(len(t[i]) for t in table) for i in range(len(hdr))]
    for t in table:
        say("  ".join(c.rjust(wd) for c, wd in zip(t, widths)))
    say("(speed-up = all-core rate / 1-thread rate; simulate/kernel = share of the kernel rate "
        f"kept end to end on {cores} thread(s))")
    if repeat > 1:
        keys = [f"{k}_{w}" for k in ("kernel", "simulate") for w in thread_counts]
        spread = [1 - r[k + "_median"] / r[k] for r in rows for k in keys]
        four = next(r for r in rows if r["players"] == 4)
        say(f"noise: the median of the {repeat} repeats is on average {np.mean(spread):.0%} below "
            f"the best (worst {max(spread):.0%}); 4-player kernel on 1 thread: best "
            f"{four['kernel_1']:,.0f}, median {four['kernel_1_median']:,.0f}")

    say("")
    say("heuristic bots (every seat the same bot), kernel games/s on 1 thread, next to random")
    say("  (random, greedy and expert timed in turn, each the best of its repeats; a share is")
    say("  best / best, and in brackets the median of the shares within each repeat):")
    bot_rows = []
    kernel_rate(3, 8, 1, bot="expert")                        # compile/load the heuristic bots
    for n in PLAYER_COUNTS:
        rnd = next(r["kernel_1"] for r in rows if r["players"] == n)
        sizes = {"random": max(64, int(rnd * seconds / 4))}
        for b in ("greedy", "expert"):
            sizes[b] = max(64, int(rnd * seconds / 8))
        rates = {b: [] for b in sizes}
        # interleaved with random again: a share compares rates of the same minutes
        for _ in range(max(1, repeat)):
            for b, n_games in sizes.items():
                rates[b].append(kernel_rate(n, n_games, 1, 1, b))
        line = {"players": n, "random": max(rates["random"])}
        text = f"  {n} players: random {line['random']:,.0f}"
        for b in ("greedy", "expert"):
            line[b] = max(rates[b])
            line[b + "_share"] = line[b] / line["random"]
            line[b + "_share_median"] = _median([x / r for x, r in zip(rates[b], rates["random"])])
            text += (f"  {b} {line[b]:,.0f} ({line[b + '_share']:.1%}, "
                     f"median {line[b + '_share_median']:.1%})")
        bot_rows.append(line)
        say(text)

    say("  (target: expert >= 40 % of random's rate)")
    say("")
    from . import strong as bench_strong
    strong = bench_strong.run(kernel_rate, repeat, seconds, say)
    say("")
    own_games = games_rates(repeat, seconds, say)
    from . import reference as bench_ref
    ref = bench_ref.engine_vs_reference(kernel_rate, rounds=max(3, repeat), seconds=seconds)
    if ref is None:
        say("engine against the reference kernel: skipped (no shared/tools/refsim.py next to the "
            "repository; set CARGO_SIM_REFSIM)")
    else:
        say(f"engine against the reference kernel ({ref['path']}), 4-player random games on 1 "
            f"thread, timed in alternation (target >= 0.75): library/reference median "
            f"{ref['median']:.2f} (min {ref['min']:.2f}, max {ref['max']:.2f}, "
            f"{len(ref['ratios'])} rounds; library median {_median(ref['library']):,.0f} games/s, "
            f"reference {_median(ref['reference']):,.0f})")
    say("")
    say("start-up in a fresh interpreter (import cargo_sim + first simulate of 20 games):")
    t0 = time.perf_counter()
    st = startup_times(cold)
    t_startup = time.perf_counter() - t0
    for k in ("cold", "warm"):
        if k in st:
            s = st[k]
            say(f"  {k:4s} cache: {s['wall_s']:6.1f} s wall (import {s['import_s']:.1f} s, "
                f"first simulate {s['first_simulate_s']:.1f} s), peak RSS {s['maxrss_mb']:,.0f} MB")
    if "cold" not in st:
        say("  cold cache: skipped (--quick or --no-cold)")
    else:
        say(f"  cold / warm: x{st['cold']['wall_s'] / st['warm']['wall_s']:.0f}")

    say("")
    say(f"memory ({mem_games:,} 4-player games in a fresh process, extrapolated linearly to 1,000,000):")
    m = memory(mem_games)
    say(f"  .players table: {_mb(m['players_bytes'])} for {m['players_rows']:,} rows "
        f"({m['bytes_per_player_row']:.0f} B/row) -> ~{_mb(m['players_bytes_1m'])} for 1,000,000 games "
        f"(extrapolated)")
    say(f"  .games table:   {_mb(m['games_bytes'])} -> ~{_mb(m['games_bytes_1m'])} for 1,000,000 games "
        f"(extrapolated)")
    say(f"  peak RSS of that process: {m['maxrss_mb']:,.0f} MB "
        f"({m['maxrss_before_mb']:,.0f} MB after import and warm-up)")
    say("")
    from ..core.contract import get_game
    mix = get_game(DEFAULT_GAME).bots.default_players(4, builtin_only=True)
    say(f"runs to disk (run_to_dir: play + one Parquet file per chunk of {stream_chunk:,} games, "
        f"{cores} worker(s), fresh process):")
    scale = {}
    for label, n_games, players in (("default mix", e2e_games, mix),
                                    ("random", stream_games, ["random"] * 4)):
        r = stream_run(n_games, players, stream_chunk, cores)
        scale[label] = r
        say(f"  {n_games:>11,} 4-player games, {label} ({','.join(players)}): "
            f"{n_games / r['seconds']:,.0f} games/s end to end, {r['seconds']:,.0f} s, "
            f"{_mb(r['disk_bytes'])} on disk")
        say(f"      peak RSS {r['maxrss_mb']:,.0f} MB ({r['maxrss_before_mb']:,.0f} MB after warm-up); "
            f"RSS max in the first fifth of the run {r['rss_first_fifth_max_mb']:,.0f} MB, "
            f"in the last fifth {r['rss_last_fifth_max_mb']:,.0f} MB")
    say("  (memory holds one chunk per worker whatever the run's length: a 10,000,000-game run "
        "peaks where these do)")
    say("")
    say("targets of long runs (cargo_sim.bench.targets):")
    from . import targets as bench_targets
    targets = bench_targets.run(cli_out_games, target_memory_games, cores, sys.modules[__name__],
                                stream_chunk, say=say, repeat=min(repeat, 3))
    say("")
    fwd = {name: forward_section(name, say) for name in games_with("forward_rates")}
    from .checked import check_cost
    checked = check_cost(say, min(repeat, 7))
    say("search bots (1 and 2 threads on one decision):")
    from . import search as bench_search
    search = bench_search.run(child, say)
    own = peak_rss_mb()
    say(f"  peak RSS of this benchmark process: {own:,.0f} MB")
    total = time.perf_counter() - t_start
    say(f"\nbenchmark time: {total:.0f} s (warm-up {t_warm:.0f} s, start-up subprocesses "
        f"{t_startup:.0f} s, measurements {total - t_warm - t_startup:.0f} s)")
    return {"machine": mach, "load_average": load, "repeat": repeat, "rates": rows, "bots": bot_rows,
            "games": own_games,
            "reference": ref, "startup": st, "memory": m, "runs": scale, "targets": targets, "forward": fwd, "search": search,
            "bench_maxrss_mb": own, "seconds": total, "check_bots": checked, "strong": strong}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m cargo_sim.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="games per measurement (default: calibrated to --seconds each)")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="target seconds per single-thread measurement (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="short measurements (0.3 s), a 20,000-game memory run, no cold compile")
    p.add_argument("--repeat", type=int, default=None, metavar="R",
                   help="time each measurement R times (interleaved) and keep the best, as timeit "
                        "does: slower repeats are other work on the machine (default 5; 1 with --quick)")
    p.add_argument("--no-cold", action="store_true", help="skip the cold-compile subprocess")
    p.add_argument("--memory-games", type=int, default=None, metavar="N",
                   help="games of the memory run (default 200,000; 20,000 with --quick)")
    p.add_argument("--e2e-games", type=int, default=None, metavar="N",
                   help="4-player games of the default-mix run to disk (default 1,000,000; "
                        "20,000 with --quick)")
    p.add_argument("--stream-games", type=int, default=None, metavar="N",
                   help="4-player random games of the streaming run to disk (default 2,000,000; "
                        "40,000 with --quick; 10000000 for the full-size check)")
    p.add_argument("--cli-out-games", type=int, default=None, metavar="N",
                   help="games of the `cargo-sim simulate --out` target run (default 1,000,000; "
                        "20,000 with --quick; 10000000 for the full-size target)")
    p.add_argument("--target-memory-games", type=int, default=None, metavar="N",
                   help="games of the in-memory simulate target run (default 1,000,000; "
                        "20,000 with --quick)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--targets-only", action="store_true",
                   help="only the targets of long runs (cargo_sim.bench.targets)")
    a = p.parse_args(argv)
    for name in ("games", "e2e_games", "stream_games", "cli_out_games", "target_memory_games"):
        v = getattr(a, name)
        if v is not None and v < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    if a.targets_only:
        from . import targets as bench_targets
        bench_targets.run(a.cli_out_games or 1_000_000, a.target_memory_games or 1_000_000,
                          os.cpu_count() or 1, sys.modules[__name__],
                          say=lambda *x: print(*x, flush=True), repeat=a.repeat or 3)
        return 0
    seconds = 0.3 if a.quick else a.seconds
    mem_games = a.memory_games or (20_000 if a.quick else 200_000)
    try:
        res = run(a.games, seconds, cold=not (a.quick or a.no_cold), mem_games=mem_games,
                  repeat=a.repeat or (1 if a.quick else 5),
                  e2e_games=a.e2e_games or (20_000 if a.quick else 1_000_000),
                  stream_games=a.stream_games or (40_000 if a.quick else 2_000_000),
                  stream_chunk=10_000 if a.quick else 100_000,
                  cli_out_games=a.cli_out_games or (20_000 if a.quick else 1_000_000),
                  target_memory_games=a.target_memory_games or (20_000 if a.quick else 1_000_000))
    except KeyboardInterrupt:
        print("\nbenchmark interrupted", file=sys.stderr)
        return 130
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0



# ---------------------------------------------------------------------------
# the forward model and each game's own benchmarks
def game_bench(game):
    """The game's own benchmarks (its optional member ``bench``, a module), or None."""
    from ..core.contract import optional
    return optional(game, "bench")


def games_with(function: str) -> list:
    """The registered games whose benchmark module has ``function``, in registry order."""
    from ..core.contract import game_names, get_game
    return [n for n in game_names() if hasattr(game_bench(get_game(n)) or object(), function)]


def games_rates(repeat: int, seconds: float, say) -> dict:
    """Every registered game's own kernel rates (its bench's ``kernel_rates``), printed."""
    out = {}
    for name in games_with("kernel_rates"):
        got = game_rates(name, repeat, seconds)
        for line in got["lines"]:
            say(line)
        say("")
        out[name] = {k: v for k, v in got.items() if k != "lines"}
    return out


def forward_section(name: str, say) -> dict:
    """A game's forward model in numba and through its public GameState (its bench's
    ``forward_rates`` and ``public_rates``), printed."""
    from ..core.contract import get_game
    title = get_game(name).title
    say(f"{title}: forward model in numba (1 thread; targets: clone < 2 us, playout within 1.2x "
        "of the kernel):")
    fwd = {}
    for n in (2, 4):
        f = fwd[n] = forward_rates(n, game=name)
        say(f"  {n} players: clone of the game part {f['clone_ns']:,.0f} ns; whole games through "
            f"begin_nb + playout_nb {f['playout_games_s']:,.0f} games/s = "
            f"{100 * f['playout_share']:.0f} % of the kernel's {f['kernel_games_s']:,.0f}")
    if not hasattr(game_bench(get_game(name)), "public_rates"):
        return fwd
    say(f"{title}: public forward model (GameState, random bots, 1 thread; targets: clone and "
        "determinize <= 5 us at 2 players, <= 10 us at 5; a whole game's clone().playout() "
        "<= 1.5x its time in simulate):")
    for n in (2, 5):
        f = fwd[f"public_{n}"] = public_rates(n, game=name)
        say(f"  {n} players: clone {f['clone_us']:.1f} us, determinize {f['determinize_us']:.1f} us; "
            f"clone().playout() {f['playout_us']:.1f} us a game = {f['playout_ratio']:.2f}x the "
            f"kernel's {f['kernel_us']:.1f} us (best / best; median of the "
            f"{f['rounds']} alternated rounds' ratios {f['playout_ratio_median']:.2f}x)")
    return fwd


def forward_rates(n_players: int = 4, n_games: int = 4096, clones: int = 200_000,
                  game: str = DEFAULT_GAME) -> dict:
    """ns per clone of the game part, and whole games played through the forward
    model as a share of the kernel's rate on the same games (1 thread): the game's
    ``bench.forward_rates`` on a prepared table."""
    from ..core.contract import get_game, require
    own = require(get_game(game), "bench")
    return own.forward_rates(_prepare(n_players, game=game),
                             lambda n: kernel_rate(n_players, n, 1, game=game), n_games, clones)


def public_rates(n_players: int = 2, game: str = DEFAULT_GAME) -> dict:
    """The public forward model's clone, determinize and whole-game playout in µs,
    against the kernel's µs per game (1 thread): the game's ``bench.public_rates``."""
    from ..core.contract import get_game, require
    own = require(get_game(game), "bench")
    return own.public_rates(n_players, lambda n: kernel_rate(n_players, n, 1, game=game))


if __name__ == "__main__":
    sys.exit(main())
