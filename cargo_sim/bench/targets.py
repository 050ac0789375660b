"""Memory and throughput targets of long runs (part of ``make bench``; alone:
``python -m cargo_sim.bench --targets-only``). The measuring tools (``kernel_rate``,
``child``, ``memory``) are ``cargo_sim.bench``'s, handed in as ``tools``.

* ``cargo-sim simulate --out DIR`` of 4-player random games in a fresh process:
  peak RSS (target < 1.5 GB, whatever the run length) and games/s against the
  kernel's rate on the same threads, measured just before and just after each
  of ``--repeat`` runs (target >= 80 %; best and median), and the run's CPU
  against its kernel calls' CPU (load-independent). ``--cli-out-games
  10000000`` is the full-size check.
* in-memory ``simulate`` of 4-player random games in a fresh process: peak RSS
  above the process's own after warm-up, against the final tables' size
  (target <= 1.5x).
"""
from __future__ import annotations

CLI_OUT_RSS_MB = 1536
CLI_OUT_SHARE = 0.80
MEMORY_RATIO = 1.5

_CLI_OUT_CODE = r"""
import contextlib, io, json, os, resource, sys, tempfile, threading, time
import cargo_sim
from cargo_sim.bench.main import peak_rss_mb
from cargo_sim.cli import main
import cargo_sim.core.contract
import cargo_sim.games
n, chunk, workers = sys.argv[1], sys.argv[2], sys.argv[3]
cargo_sim.simulate(10, ["random"] * 4, seed=1, progress=False)           # load the cache first
base = peak_rss_mb()
kernel_cpu = []                                  # CPU seconds of each kernel call, on its thread
game = cargo_sim.core.contract.get_game(cargo_sim.games.DEFAULT)
real = game.chunk_kernel                          # a property of the game's class: wrap it there
def timed(*a, **kw):
    t = time.thread_time()
    try:
        return real(*a, **kw)
    finally:
        kernel_cpu.append(time.thread_time() - t)
type(game).chunk_kernel = property(lambda self: timed)
with tempfile.TemporaryDirectory(prefix="cargo_sim_bench_cli_") as d:
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(["simulate", "-n", n, "-p", "random,random,random,random", "--seed", "1",
                   "--out", os.path.join(d, "run"), "--chunk-games", chunk, "-j", workers,
                   "--no-progress"])
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    disk = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
assert rc == 0, rc
cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
print(json.dumps({"n": int(n), "seconds": dt, "disk_bytes": disk, "maxrss_before_mb": base,
                  "maxrss_mb": peak_rss_mb(), "cpu_s": cpu, "kernel_cpu_s": sum(kernel_cpu)}))
"""


def cli_out(n_games: int, chunk: int, workers: int, tools, repeat: int = 1) -> dict:
    """The CLI run to disk in a fresh process, ``repeat`` times, each between two
    measurements of the kernel's rate on ``workers`` threads (the machine may be
    shared: a share is taken against the faster kernel beside it). Also the CPU
    the run spent outside the kernel, from the run's own CPU accounting
    (``cpu_factor`` = process CPU / kernel CPU: what any load leaves alone)."""
    import statistics
    kernel_rate = tools.kernel_rate
    k_games = max(20_000, n_games)              # the kernel alone on the same game count
    kernel_rate(4, 64, workers)                  # load the compiled kernel before timing it
    kernels = [kernel_rate(4, k_games, workers)]
    runs = []
    for _ in range(repeat):
        r = tools.child(_CLI_OUT_CODE, n_games, chunk, workers, timeout=24 * 3600)
        kernels.append(kernel_rate(4, k_games, workers))
        r.update(rate=r["n"] / r["seconds"], kernel=max(kernels[-2:]),
                 cpu_factor=r["cpu_s"] / r["kernel_cpu_s"] if r["kernel_cpu_s"] else float("nan"))
        r["share"] = r["rate"] / r["kernel"]
        runs.append(r)
    best = max(runs, key=lambda r: r["share"])
    return {"runs": runs, "kernels": kernels, "workers": workers, "repeat": repeat,
            "share": best["share"], "share_median": statistics.median(r["share"] for r in runs),
            "rate": max(r["rate"] for r in runs), "kernel": max(kernels),
            "rate_median": statistics.median(r["rate"] for r in runs),
            "kernel_median": statistics.median(kernels),
            "cpu_factor": min(r["cpu_factor"] for r in runs),
            "cpu_factor_median": statistics.median(r["cpu_factor"] for r in runs),
            "maxrss_mb": max(r["maxrss_mb"] for r in runs),
            "maxrss_before_mb": max(r["maxrss_before_mb"] for r in runs),
            "disk_bytes": best["disk_bytes"], "seconds": best["seconds"]}


def in_memory(n_games: int, tools) -> dict:
    m = tools.memory(n_games)
    m["tables_mb"] = (m["players_bytes"] + m["games_bytes"]) / 2**20
    m["ratio"] = (m["maxrss_mb"] - m["maxrss_before_mb"]) / m["tables_mb"]
    return m


def run(cli_games: int, mem_games: int, workers: int, tools, chunk: int = 100_000,
        say=print, repeat: int = 1) -> dict:
    c = cli_out(cli_games, chunk, workers, tools, repeat)
    say(f"cargo-sim simulate --out, {cli_games:,} 4-player random games, {workers} thread(s), "
        f"chunks of {chunk:,} (fresh process, {repeat} run(s) interleaved with the kernel alone):")
    say(f"  {c['rate']:,.0f} games/s at best (median {c['rate_median']:,.0f}); kernel alone on "
        f"{workers} thread(s) {c['kernel']:,.0f} at best (median {c['kernel_median']:,.0f}); "
        f"each run against the faster kernel beside it: {c['share']:.0%} at best, median "
        f"{c['share_median']:.0%} (target >= {CLI_OUT_SHARE:.0%}: "
        f"{'met' if c['share'] >= CLI_OUT_SHARE else 'NOT met'})")
    say(f"  CPU of the run / CPU of its kernel calls: {c['cpu_factor']:.3f} at best (median "
        f"{c['cpu_factor_median']:.3f}): with the cores to itself the run keeps about "
        f"{1 / c['cpu_factor']:.0%} of the kernel's rate")
    say(f"  peak RSS {c['maxrss_mb']:,.0f} MB ({c['maxrss_before_mb']:,.0f} MB after warm-up; "
        f"target < {CLI_OUT_RSS_MB:,} MB: {'met' if c['maxrss_mb'] < CLI_OUT_RSS_MB else 'NOT met'}), "
        f"{c['disk_bytes'] / 2**20:,.0f} MB on disk")
    m = in_memory(mem_games, tools)
    say(f"in-memory simulate, {mem_games:,} 4-player random games (fresh process):")
    say(f"  final tables {m['tables_mb']:,.0f} MB; peak RSS {m['maxrss_mb']:,.0f} MB, "
        f"{m['maxrss_mb'] - m['maxrss_before_mb']:,.0f} MB above the {m['maxrss_before_mb']:,.0f} MB "
        f"after warm-up = {m['ratio']:.2f}x the tables (target <= {MEMORY_RATIO}x: "
        f"{'met' if m['ratio'] <= MEMORY_RATIO else 'NOT met'})")
    return {"cli_out": c, "in_memory": m}
