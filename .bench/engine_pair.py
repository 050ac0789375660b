"""Paired engine measurement of two trees (issue #25): each round runs one fresh process
of each tree (order alternating), and each process times, on one thread at 4 players,
the library's random kernel against the reference kernel (alternated, best of 3 each:
the ratio) and random against expert (alternated, best of 3 each: expert's share).
Prints every process's figures, then the medians and ranges per tree. Rates are per
second of the process's CPU time by default ("cpu"; "wall" for wall-clock seconds): on
a machine loaded beyond its cores, wall time mostly measures the scheduler.

    python .bench/engine_pair.py BASE_TREE:CACHE NEW_TREE:CACHE [rounds] [seconds] [cpu|wall] [random|both] [whole|chunks]
Each tree runs with NUMBA_CACHE_DIR=CACHE and the tree first on PYTHONPATH, with its own
.venv/bin/python, or this interpreter when the tree has none (a git worktree).
"""
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
from cargo_sim.bench import kernel_rate
import importlib.util
from cargo_sim.bench_ref import reference_path
secs = float(sys.argv[1])
CPU = sys.argv[2] == "cpu"
EXPERT = sys.argv[3] != "random"
spec = importlib.util.spec_from_file_location("cargo_sim_refsim", reference_path())
ref = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = ref     # (else numba caches its kernels as "<dynamic>": unloadable)
spec.loader.exec_module(ref)
clock = time.process_time if CPU else time.perf_counter
def ref_rate(n, seed):
    t0 = clock()
    ref.run(n, 4, seed, False)
    return n / (clock() - t0)
CHUNKS = sys.argv[4] == "chunks"
if CHUNKS:      # as make bench times kernel_rate: the table built once, the chunks alone timed
    from cargo_sim.bench import CHUNK, _prepare
    from cargo_sim.core.seeds_nb import game_seeds
    tables = {}
def lib_rate(n, seed=1, bot="random"):
    if CHUNKS:
        table = tables.get(bot) or tables.setdefault(bot, _prepare(4, bot))
        seeds = game_seeds(seed, 0, n)
        t0 = clock()
        for lo in range(0, n, CHUNK):
            if table.run(seeds[lo:lo + CHUNK])[2] is not None:
                raise RuntimeError("illegal decision")
        return n / (clock() - t0)
    t0 = clock()
    kernel_rate(4, n, 1, seed=seed, bot=bot)
    return n / (clock() - t0)
lib_rate(64); ref_rate(64, 1)
n_lib = max(256, int(lib_rate(2048) * secs))
if EXPERT:
    lib_rate(64, bot="expert")
    n_exp = max(256, int(lib_rate(512, bot="expert") * secs))
n_ref = max(256, int(ref_rate(4096, 2) * secs))
lib, rf, ex = [], [], []
for r in range(3):
    lib.append(lib_rate(n_lib, 10 + r))
    rf.append(ref_rate(n_ref, 10 + r))
    ex.append(lib_rate(n_exp, 10 + r, "expert") if EXPERT else float("nan"))
print(json.dumps({"random": max(lib), "reference": max(rf), "expert": max(ex),
                  "ratio": max(lib) / max(rf), "share": max(ex) / max(lib)}))
"""


def run(spec, secs, clock, bots, timed="whole"):
    tree, cache = spec.split(":")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=tree)
    python = os.path.join(tree, ".venv/bin/python")
    out = subprocess.run([python if os.path.exists(python) else sys.executable, "-W", "ignore", "-c", CHILD,
                          str(secs), clock, bots, timed], env=env, capture_output=True, text=True, cwd="/tmp")
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    secs = float(sys.argv[4]) if len(sys.argv) > 4 else 0.7
    clock = sys.argv[5] if len(sys.argv) > 5 else "cpu"
    bots = sys.argv[6] if len(sys.argv) > 6 else "both"      # "random": no expert timings
    # "chunks": time the chunks of a table built once, as make bench does (kernel_rate's own
    # t0); "whole" (default): kernel_rate whole, Table.build (~20 ms of CPU) included
    timed = sys.argv[7] if len(sys.argv) > 7 else "whole"
    got = {base: [], new: []}
    for r in range(rounds):
        for spec in ((base, new) if r % 2 == 0 else (new, base)):
            d = run(spec, secs, clock, bots, timed)
            got[spec].append(d)
            print(f"round {r} {'base' if spec == base else 'new '}: random {d['random']:,.0f}, "
                  f"reference {d['reference']:,.0f}, expert {d['expert']:,.0f} games/s; "
                  f"ratio {d['ratio']:.3f}, expert share {d['share']:.1%}; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
    for spec, name in ((base, "base"), (new, "new")):
        for k in ("ratio", "share", "random", "expert"):
            v = [d[k] for d in got[spec]]
            print(f"{name} {k}: median {statistics.median(v):.3f} (min {min(v):.3f}, max {max(v):.3f})")
    pr = [n["random"] / b["random"] for b, n in zip(got[base], got[new])]
    pe = [n["expert"] / b["expert"] for b, n in zip(got[base], got[new])]
    print(f"paired new/base games/s: random median {statistics.median(pr):.3f} "
          f"({', '.join(f'{x:.3f}' for x in pr)}); expert median {statistics.median(pe):.3f} "
          f"({', '.join(f'{x:.3f}' for x in pe)})")


if __name__ == "__main__":
    main()
