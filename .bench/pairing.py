"""The command line and the resume that pair_strength.py and pair_field.py share:
A B DEALS [SEED [WORKERS [OUT [CHUNK [P]]]]]; a rerun keeps OUT's finished chunks."""
import os
import sys

import pandas as pd


def args(chunk, players):
    """(a_bot, b_bot, deals, seed, workers, out, chunk, players) from sys.argv."""
    a = sys.argv
    return (a[1], a[2], int(a[3]), int(a[4]) if len(a) > 4 else 2525,
            int(a[5]) if len(a) > 5 else 1, a[6] if len(a) > 6 else None,
            int(a[7]) if len(a) > 7 else chunk, int(a[8]) if len(a) > 8 else players)


def finished(out):
    """OUT's rows so far and the seeds of its finished chunks."""
    rows = pd.read_csv(out).to_dict("records") if out and os.path.exists(out) else []
    return rows, {int(r["seed"]) for r in rows}
