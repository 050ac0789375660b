"""Profile compiled kernels with Linux perf: after warming, write /tmp/perf-<pid>.map
with every compiled function of the loaded numba libraries (names from each library's
linking module, addresses from the JIT, sizes up to the next symbol), so `perf report`
names the kernels' functions. Then run a workload for `perf record -p <pid>`.

    NUMBA_CACHE_DIR=... python .bench/perfmap.py random|expert [seconds] [game] [chunks]
(the script prints its pid, sleeps 3 s for perf to attach, then plays games).
With PERFMAP_DUMP=DIR it also writes each function's machine code (PERFMAP_DUMP_MATCH=TEXT:
only those whose name contains TEXT) to DIR/<address>.bin
(for `objdump -D -b binary -mi386:x86-64 --adjust-vma=0x<address>`: the hot instructions
of `perf script -F ip,sym`, which perf cannot annotate in JIT code)."""
import os
import sys
import time

import numba
from numba.core.registry import CPUDispatcher

from cargo_sim.bench import kernel_rate

bot = sys.argv[1] if len(sys.argv) > 1 else "random"
secs = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
game = sys.argv[3] if len(sys.argv) > 3 else "cargo_noir"
# "chunks": time only table.run (each kernel_rate call also builds its Table: ~20 ms of
# Python, about a fifth of a 4,096-game call's time, in the profile as gc and the interpreter)
CHUNKS = len(sys.argv) > 4 and sys.argv[4] == "chunks"
kernel_rate(4, 64, 1, bot=bot, game=game)


def libraries():
    seen = set()
    for mod in list(sys.modules.values()):
        for v in list(getattr(mod, "__dict__", {}).values()):
            if isinstance(v, CPUDispatcher):
                for cres in v.overloads.values():
                    lib = cres.library
                    if id(lib) not in seen:
                        seen.add(id(lib))
                        yield lib


syms = {}
for lib in libraries():
    mod = getattr(lib, "_shared_module", None) or getattr(lib, "_final_module", None)
    if mod is None:
        continue
    for f in mod.functions:
        if f.is_declaration:
            continue
        try:
            a = lib.get_pointer_to_function(f.name)
        except Exception:
            continue
        if a:
            syms[a] = f.name
addrs = sorted(syms)
with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
    for i, a in enumerate(addrs):
        size = min((addrs[i + 1] - a) if i + 1 < len(addrs) else 4096, 1 << 20)
        out.write(f"{a:x} {size:x} {syms[a]}\n")
dump = os.environ.get("PERFMAP_DUMP")
if dump:
    # read through /proc/self/mem: a size up to the next symbol may run past the mapped
    # code (ctypes.string_at then crashed the process); an unreadable page ends the copy
    os.makedirs(dump, exist_ok=True)
    match = os.environ.get("PERFMAP_DUMP_MATCH", "")     # only symbols containing this
    mem = os.open("/proc/self/mem", os.O_RDONLY)
    for i, a in enumerate(addrs):
        if match not in syms[a]:
            continue
        size = min((addrs[i + 1] - a) if i + 1 < len(addrs) else 4096, 1 << 20)
        data = b""
        for k in range(0, size, 4096):
            try:
                data += os.pread(mem, min(4096, size - k), a + k)
            except OSError:
                break
        with open(os.path.join(dump, f"{a:x}.bin"), "wb") as f:
            f.write(data)
print(os.getpid(), len(addrs), "symbols", flush=True)
time.sleep(3)
t0 = time.perf_counter()
n = 0
if CHUNKS:          # a table built once, its chunks alone (as make bench times them)
    from cargo_sim.bench import CHUNK, _prepare
    from cargo_sim.core.seeds_nb import game_seeds
    table = _prepare(4, bot, game)
    while time.perf_counter() - t0 < secs:
        table.run(game_seeds(n, 0, CHUNK))
        n += 1
while not CHUNKS and time.perf_counter() - t0 < secs:
    kernel_rate(4, 4096 if bot == "random" else 1024, 1, seed=n, bot=bot, game=game)
    n += 1
print("rounds", n)
