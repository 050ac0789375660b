"""Integer columns at their smallest width: the tables keep int8/int16 where the
values fit, whichever way they were made (in memory, read back, merged)."""
import numpy as np
import pandas as pd

__all__ = ["narrowest", "narrow"]


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
