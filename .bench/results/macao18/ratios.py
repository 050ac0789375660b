"""Paired ratios of .bench/macao_share.py logs (python ratios.py LOG...): per round new/base of
expert's and random's rates; the base is the tree that ran first in round 0."""
import re, statistics, sys
for f in sys.argv[1:]:
    rows, base = {}, None
    for l in open(f):
        m = re.match(r"round (\d+) (\S+): random ([\d,]+), expert ([\d,]+) games/s \(CPU\), share ([\d.]+)%", l)
        if m:
            r, t = int(m[1]), m[2]
            base = base or t                  # the base: the tree named first (round 0)
            rows.setdefault(r, {})["base" if t == base else "new"] = (
                float(m[3].replace(",", "")), float(m[4].replace(",", "")), float(m[5]))
    ex = [v["new"][1] / v["base"][1] for v in rows.values() if len(v) == 2]
    rd = [v["new"][0] / v["base"][0] for v in rows.values() if len(v) == 2]
    sb = [v["base"][2] for v in rows.values() if "base" in v]
    sn = [v["new"][2] for v in rows.values() if "new" in v]
    print(f"{f}: rounds {len(ex)}; expert new/base median x{statistics.median(ex):.3f} ({min(ex):.3f}-{max(ex):.3f}); "
          f"random x{statistics.median(rd):.3f} ({min(rd):.3f}-{max(rd):.3f}); share base {statistics.median(sb):.1f} "
          f"({min(sb):.1f}-{max(sb):.1f}) new {statistics.median(sn):.1f} ({min(sn):.1f}-{max(sn):.1f}); "
          f"base expert {statistics.median(v['base'][1] for v in rows.values()):,.0f} new {statistics.median(v['new'][1] for v in rows.values()):,.0f}; "
          f"random base {statistics.median(v['base'][0] for v in rows.values()):,.0f} new {statistics.median(v['new'][0] for v in rows.values()):,.0f}")
