"""Result-table columns: integers at their smallest width (the tables keep int8/int16
where the values fit, whichever way they were made: in memory, read back, merged), and
a table's final columns filled chunk by chunk in place (``ColumnSink``)."""
import numpy as np
import pandas as pd

__all__ = ["narrowest", "narrow", "ColumnSink", "WIDTHS", "concat_columns", "aligned_rows"]


WIDTHS = [(t, int(np.iinfo(t).min), int(np.iinfo(t).max))
          for t in (np.int8, np.int16, np.int32, np.int64)]


def narrowest(col: np.ndarray, lo=None, hi=None) -> np.ndarray:
    """``col`` at the smallest signed integer width that holds its values
    (``lo``/``hi``: its min and max, if already known)."""
    if lo is None:
        lo, hi = (int(col.min()), int(col.max())) if len(col) else (0, 0)
    for t, tmin, tmax in WIDTHS:
        if tmin <= lo and hi <= tmax:
            return col if col.dtype == t else col.astype(t)
    return col


def narrow(df: pd.DataFrame) -> pd.DataFrame:
    """Signed integer columns (but ``game``) of ``df`` narrowed in place; returns ``df``."""
    for c in df.columns:
        if c == "game" or not pd.api.types.is_signed_integer_dtype(df[c].dtype):
            continue
        col = df[c].to_numpy()
        new = narrowest(col)
        if new is not col:
            df[c] = new
    return df



class ColumnSink:
    """A table's final columns, filled chunk by chunk in place: each column is
    allocated once for the whole run at the width of the first chunk and
    widened (rarely: at most three times) when a chunk needs more, so the
    columns end at the smallest width that holds the run, as one table built
    at once would. No per-chunk pieces are kept, so memory is the final table."""

    def __init__(self, n_rows: int):
        self.n, self.filled, self.cols, self.cats = n_rows, 0, {}, {}

    def add(self, cols: dict) -> None:
        """Append a chunk's columns (a game's ``table_columns``)."""
        m, at = len(next(iter(cols.values()))), self.filled
        for c, col in cols.items():
            if isinstance(col, pd.Categorical):
                self.cats[c] = col.categories
                vals = col.codes
            else:
                vals = col
            arr = self.cols.get(c)
            if arr is None:
                # one array per column: one 2-D block for all was slower to fill
                # beside the kernel's threads (bench.targets)
                arr = self.cols[c] = np.empty(self.n, vals.dtype)
            elif np.result_type(arr.dtype, vals.dtype) != arr.dtype:
                wider = np.empty(self.n, np.result_type(arr.dtype, vals.dtype))
                wider[:at] = arr[:at]
                arr = self.cols[c] = wider
            arr[at:at + m] = vals
        self.filled += m                 # last: an interrupted add leaves no partial rows

    def columns(self, rows: int) -> dict:
        """The first ``rows`` rows (all of them unless the run was interrupted), as
        a dict of columns (categorical ones as ``pd.Categorical``)."""
        out = {}
        for c, arr in self.cols.items():
            arr = arr if rows == self.n else arr[:rows].copy()
            out[c] = pd.Categorical.from_codes(arr, categories=self.cats[c]) if c in self.cats else arr
        return out


def concat_columns(parts: list) -> dict:
    """Dicts of columns (``table_columns``, same keys and categories) one after another."""
    if len(parts) == 1:
        return parts[0]
    out = {}
    for c, col in parts[0].items():
        if isinstance(col, pd.Categorical):
            codes = np.concatenate([part[c].codes for part in parts])
            out[c] = pd.Categorical.from_codes(codes, categories=col.categories)
        else:
            out[c] = np.concatenate([part[c] for part in parts])
    return out


def aligned_rows(rows: list[tuple]) -> list[str]:
    """Aligned text lines of a small table (a seat per row): the first two columns
    left-aligned, the rest right (shared by the CLI's and the games' summaries)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows]
