"""4-player random games/s on one thread: the library's kernel (bench.kernel_rate: the
core runner's chunks, as simulate plays them) against the reference kernel
(``shared/tools/refsim.py`` beside the repository or ``$CARGO_SIM_REFSIM``; serial), timed in alternation in ONE process; prints
each round's rates and ratio, then the median and spread of the ratios.

    NUMBA_CACHE_DIR=... python .bench/engine_vs_ref.py [rounds] [seconds] [bot]
"""
import statistics
import sys
import time

from cargo_sim.bench import kernel_rate  # noqa: E402
from cargo_sim.bench_ref import load_reference, reference_path  # noqa: E402

if reference_path() is None:
    sys.exit("no reference kernel: set CARGO_SIM_REFSIM to refsim.py")
refsim = load_reference(reference_path())

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
secs = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
bot = sys.argv[3] if len(sys.argv) > 3 else "random"


def ref_rate(n, seed):
    t0 = time.perf_counter()
    refsim.run(n, 4, seed, False)
    return n / (time.perf_counter() - t0)


kernel_rate(4, 64, 1, bot=bot)
ref_rate(64, 1)
n_lib = max(256, int(kernel_rate(4, 2048, 1, bot=bot) * secs))
n_ref = max(256, int(ref_rate(4096, 2) * secs))
ratios = []
for r in range(rounds):
    a = kernel_rate(4, n_lib, 1, seed=10 + r, bot=bot)
    b = ref_rate(n_ref, 10 + r)
    ratios.append(a / b)
    print(f"round {r}: library {a:,.0f} games/s, reference {b:,.0f} games/s, ratio {a / b:.3f}",
          flush=True)
print(f"{bot} x4, 1 thread: library/reference median {statistics.median(ratios):.3f} "
      f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {rounds} rounds)")
