"""What the games' bit-identity guards share (tests/games/<game>/*bitident.py): a
table's hash, the digests of a list of tables, the check against the committed
digests, and the guards' command line (``--write`` records, else compares)."""
from __future__ import annotations

import hashlib
import json
import sys

import pandas as pd


def hash_frame(df) -> str:
    h = hashlib.sha256()
    h.update(",".join(map(str, df.columns)).encode())
    h.update(",".join(map(str, df.dtypes)).encode())
    h.update(pd.util.hash_pandas_object(df, index=False).values.tobytes())
    return h.hexdigest()[:16]


def table_digests(tables, rules, only=None, **common) -> dict:
    """label -> hashes of the games and players tables (and events) of each
    (label, players, n_games, simulate keywords) in ``tables``, seed 11, one worker."""
    import cargo_sim
    out = {}
    for label, players, n_games, kw in tables:
        if only and label not in only:
            continue
        res = cargo_sim.simulate(n_games, players, seed=11, workers=1, progress=False, rules=rules,
                                 **common, **kw)
        d = {"games": hash_frame(res.games), "players": hash_frame(res.players)}
        if kw.get("events"):
            d["events"] = hash_frame(res.events)
        out[label] = d
        print(label, d, flush=True)
    return out


def assert_matches(guard) -> None:
    """The guard module's digests equal its committed ones (``guard.DATA``)."""
    ref = json.loads(guard.DATA.read_text())
    got = guard.digests()
    assert {k: v for k, v in got.items() if ref.get(k) != v} == {}
    assert set(got) == set(ref)


def main(guard, argv=None) -> None:
    """``python <guard>.py [label ...] [--write]``: record or compare the digests."""
    argv = sys.argv[1:] if argv is None else argv
    d = guard.digests([a for a in argv if not a.startswith("--")] or None)
    if "--write" in argv:
        guard.DATA.write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
    elif guard.DATA.exists():
        ref = json.loads(guard.DATA.read_text())
        bad = [k for k in d if ref.get(k) != d[k]]
        print(f"{len(d)} entries checked, {len(bad)} differ: {bad}")
        sys.exit(1 if bad else 0)
