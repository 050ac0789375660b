# Per-instruction samples of one compiled function: hotasm.py IPS MAP DUMPDIR NAME_PART [top]
# (IPS: perf script -F ip,sym of hot.sh; MAP: /tmp/perf-<pid>.map; DUMPDIR: PERFMAP_DUMP)
import sys, collections, subprocess
# usage: hotasm.py IPS MAP DUMPDIR NAME_SUBSTR [top]
ips, mp, dump, name = sys.argv[1:5]
top = int(sys.argv[5]) if len(sys.argv) > 5 else 40
start = size = None
for line in open(mp):
    a, s, n = line.split(None, 2)
    if name in n:
        start, size = int(a, 16), int(s, 16); break
cnt = collections.Counter()
tot = 0
for line in open(ips):
    p = line.split()
    if not p: continue
    ip = int(p[0], 16); tot += 1
    if start <= ip < start + size:
        cnt[ip] += 1
print("samples", sum(cnt.values()), "of", tot)
out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma=0x{start:x}", f"{dump}/{start:x}.bin"], capture_output=True, text=True).stdout
lines = out.splitlines()
for l in lines:
    l2 = l.strip()
    if not l2 or ":" not in l2: continue
    try: a = int(l2.split(":")[0], 16)
    except ValueError: continue
    c = cnt.get(a, 0)
    print(f"{c:5d} {l2}")
