"""Memory and throughput targets of long runs (part of ``make bench``; alone:
``python -m cargo_sim.bench --targets-only``). The measuring tools (``kernel_rate``,
``child``, ``memory``) are ``cargo_sim.bench``'s, handed in as ``tools``.

* ``cargo-sim simulate --out DIR`` of 4-player random games in a fresh process:
  peak RSS (target < 1.5 GB, whatever the run length) and games/s against the
  kernel's rate on the same threads, measured just before and just after in
  this run (target >= 80 %). ``--cli-out-games 10000000`` is the full-size check.
* in-memory ``simulate`` of 4-player random games in a fresh process: peak RSS
  above the process's own after warm-up, against the final tables' size
  (target <= 1.5x).
"""
from __future__ import annotations

CLI_OUT_RSS_MB = 1536
CLI_OUT_SHARE = 0.80
MEMORY_RATIO = 1.5

_CLI_OUT_CODE = r"""
import contextlib, io, json, os, sys, tempfile, time
import cargo_sim
from cargo_sim.bench import peak_rss_mb
from cargo_sim.cli import main
n, chunk, workers = sys.argv[1], sys.argv[2], sys.argv[3]
cargo_sim.simulate(10, ["random"] * 4, seed=1, progress=False)           # load the cache first
base = peak_rss_mb()
with tempfile.TemporaryDirectory(prefix="cargo_sim_bench_cli_") as d:
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(["simulate", "-n", n, "-p", "random,random,random,random", "--seed", "1",
                   "--out", os.path.join(d, "run"), "--chunk-games", chunk, "-j", workers,
                   "--no-progress"])
    dt = time.perf_counter() - t0
    disk = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
assert rc == 0, rc
print(json.dumps({"n": int(n), "seconds": dt, "disk_bytes": disk, "maxrss_before_mb": base,
                  "maxrss_mb": peak_rss_mb()}))
"""


def cli_out(n_games: int, chunk: int, workers: int, tools) -> dict:
    """The CLI run to disk in a fresh process, with the kernel's rate on
    ``workers`` threads measured before and after it (the machine may be shared)."""
    kernel_rate = tools.kernel_rate
    k_games = max(20_000, min(n_games // 10, 200_000))
    kernel_rate(4, 64, workers)                  # load the compiled kernel before timing it
    before = kernel_rate(4, k_games, workers)
    r = tools.child(_CLI_OUT_CODE, n_games, chunk, workers, timeout=24 * 3600)
    after = kernel_rate(4, k_games, workers)
    r.update(rate=r["n"] / r["seconds"], kernel_before=before, kernel_after=after,
             kernel=max(before, after), workers=workers)    # the faster one: a strict ratio
    r["share"] = r["rate"] / r["kernel"]
    return r


def in_memory(n_games: int, tools) -> dict:
    m = tools.memory(n_games)
    m["tables_mb"] = (m["players_bytes"] + m["games_bytes"]) / 2**20
    m["ratio"] = (m["maxrss_mb"] - m["maxrss_before_mb"]) / m["tables_mb"]
    return m


def run(cli_games: int, mem_games: int, workers: int, tools, chunk: int = 100_000,
        say=print) -> dict:
    c = cli_out(cli_games, chunk, workers, tools)
    say(f"cargo-sim simulate --out, {cli_games:,} 4-player random games, {workers} thread(s), "
        f"chunks of {chunk:,} (fresh process):")
    say(f"  {c['rate']:,.0f} games/s ({c['seconds']:,.0f} s), kernel alone on {workers} thread(s) "
        f"{c['kernel']:,.0f} games/s (the faster of before {c['kernel_before']:,.0f} and after "
        f"{c['kernel_after']:,.0f}): {c['share']:.0%} of the kernel rate "
        f"(target >= {CLI_OUT_SHARE:.0%}: {'met' if c['share'] >= CLI_OUT_SHARE else 'NOT met'})")
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
