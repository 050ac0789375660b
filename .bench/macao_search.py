"""ismcts against a Macao heuristic: paired, seat-rotated 2-player deals (game i of both
seatings has the same seed: the same deal), the interval clustered by deal (a t interval
over the deal means). Appends one line per deal to OUT (resumable) and prints the summary.

usage: python .bench/macao_search.py OUT.csv [deals] [iterations] [opponent] [seed]
       python .bench/macao_search.py OUT.csv --summary
"""
import csv
import os
import sys
import time

import numpy as np


def summary(path):
    from scipy import stats
    rows = list(csv.DictReader(open(path)))
    if not rows:
        print("no deals yet")
        return
    m = np.array([(float(r["share_first"]) + float(r["share_second"])) / 2 for r in rows])
    n = len(m)
    half = stats.t.ppf(0.975, n - 1) * m.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
    dec = sum(int(r["searched"]) for r in rows)
    secs = sum(float(r["search_s"]) for r in rows)
    alld = sum(int(r["decisions"]) for r in rows)
    first = np.mean([float(r["share_first"]) for r in rows])
    second = np.mean([float(r["share_second"]) for r in rows])
    margin = np.mean([float(r["margin"]) for r in rows])
    print(f"{n} deals ({2 * n} games) vs {rows[0]['opponent']}: ismcts win share {m.mean():.3f} "
          f"[{m.mean() - half:.3f}, {m.mean() + half:.3f}] (95 % t over deal means); as seat 0 "
          f"{first:.3f}, as seat 1 {second:.3f}; mean VP margin {margin:+.1f}; "
          f"{alld} searcher decisions in {secs:.0f} s = {alld / secs:.2f} decisions/s "
          f"({dec} with more than one option: {dec / secs:.2f}/s)")


def play(players, seed, game, me):
    from cargo_sim.core.contract import get_game
    st = get_game("macao").GameState(players, seed=seed, game=game)
    spent, n, searched = 0.0, 0, 0
    while not st.is_over:
        if st.decision.seat == me:
            many = len(st.legal()) > 1
            t0 = time.perf_counter()
            a = st.bot_answer()
            spent += time.perf_counter() - t0
            n += 1
            searched += many
        else:
            a = st.bot_answer()
        st.apply(a)
    r = st.returns()
    return r["win_share"][me], r["vp"][me] - r["vp"][1 - me], spent, n, searched


def main():
    out = sys.argv[1]
    if "--summary" in sys.argv:
        return summary(out)
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    it = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    opp = sys.argv[4] if len(sys.argv) > 4 else "greedy"
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 2026
    me = f"ismcts?iterations={it}"
    done = len(list(csv.DictReader(open(out)))) if os.path.exists(out) else 0
    fields = ["deal", "opponent", "share_first", "share_second", "margin", "search_s", "decisions",
              "searched"]
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fields)
        if done == 0:
            w.writeheader()
        for d in range(done, deals):
            a = play([me, opp], seed, d, 0)
            b = play([opp, me], seed, d, 1)
            w.writerow({"deal": d, "opponent": opp, "share_first": a[0], "share_second": b[0],
                        "margin": (a[1] + b[1]) / 2, "search_s": a[2] + b[2], "decisions": a[3] + b[3],
                        "searched": a[4] + b[4]})
            f.flush()
    summary(out)


if __name__ == "__main__":
    main()
