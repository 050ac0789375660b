"""Tables as a reader sees them in the report: readable headers, each 95%
interval as one "[low, high]" column, and no interval where its sample is
smaller than ``stats.MIN_N`` ("n too small"). The CSV files keep the
pipelines' column names (docs/output_files.md)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .stats import MIN_N

TOO_SMALL = "n too small"

HEADERS = {
    "n_players": "players", "win_rate": "win rate", "expected": "equal share", "sd": "SD",
    "se": "SE", "p10": "10th percentile", "p90": "90th percentile", "tie_rate": "shared-win rate",
    "top_vp_tie_rate": "top-VP tie rate", "held": "copies held", "mean_vp": "mean VP",
    "per_token": "coins per token", "per_value": "coins per value point", "sends": "ships sent",
    "sends_per_game": "ships per game", "contest_rate": "contest rate",
    "outbid": "outbid decisions", "raise_rate": "raise rate", "abandon_rate": "abandon rate",
    "win_per_send": "wins per send", "mean_abandons": "mean abandons", "mean_coins": "mean coins",
    "casino_bin": "Casino ships", "shortfall_rate": "shortfall rate",
    "mean_coins_short": "mean coins short", "mean_bank_end": "mean bank at the end",
    "vp": "VP", "vp_per_token": "VP per token", "lost": "value lost", "wild_share": "share with a Wild",
    "lossy_share": "share losing value", "mean_trade_value": "mean trade value",
    "lost_share": "share of value lost", "per_game": "copies per game", "n_holders": "n holders",
    "holder_win_rate": "holders' win rate", "n_others": "n others",
    "other_win_rate": "others' win rate", "diff": "difference", "chi2": "chi-square",
    "dof": "degrees of freedom", "p_value": "p-value", "max_abs_dev": "largest deviation",
    "share_le3": "share won by <= 3 VP", "share_min": "share at the minimum",
    "same_value_share": "value share of same-type combinations",
    "combos_per_trade": "combinations per trade", "wilds_sold": "Wilds sold",
    "wilds_in_same_share": "share of Wilds in same-type combinations",
}
# names whose meaning depends on the table
TABLE_HEADERS = {"bank_shortfall": {"successes": "games short"}}
# what an interval column "<prefix>ci_lo" is the interval of
CI_OF = {"contest": "contest rate", "raise": "raise rate", "abandon": "abandon rate",
         "win": "wins per send", "combos": "combinations per trade", "coins": "mean coins",
         "wilds": "share of Wilds in same-type combinations", "holder": "holders' win rate",
         "other": "others' win rate"}
# interval prefixes whose sample size is not the table's `n`
CI_SIZE = {"raise": "outbid", "abandon": "outbid", "wilds": "wilds_sold", "holder": "n_holders",
           "other": "n_others", "diff": ("n_holders", "n_others")}


def fmt(v) -> str:
    """One cell: thousands separators for large whole numbers, 4 significant digits."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}" if abs(int(v)) >= 10000 else str(int(v))
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if v == int(v) and abs(v) < 1e6:
            return str(int(v))
        a = abs(v)
        if a >= 1000:
            return f"{v:,.0f}"
        if a >= 1e-3 or a == 0:
            return f"{v:.4g}"
        return f"{v:.2e}"
    return str(v)


def decimals(values) -> int:
    """Decimals that show a column's numbers alike: by the largest magnitude
    (>= 100: 0, >= 10: 1, > 1: 2, else 3: shares up to 1 keep 3), so 0.9996 and 0.0004 in one column
    print as 1.000 and < 0.001, not as 0.9996 beside 4.26e-04."""
    a = np.abs(np.asarray([float(v) for v in values if v is not None and v == v], dtype=float))
    a = a[np.isfinite(a)]
    top = a.max() if len(a) else 0.0
    return 0 if top >= 100 else 1 if top >= 10 else 2 if top > 1 else 3


def fmt_fixed(v, places: int) -> str:
    """``v`` with ``places`` decimals and thousands separators; a value that
    would print as zero but is not says so ("< 0.001")."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    v = float(v)
    if not math.isfinite(v):
        return "inf" if v > 0 else "-inf"
    if v != 0 and abs(v) < 0.5 * 10 ** -places:
        return f"< {10 ** -places:.{places}f}" if v > 0 else f"> -{10 ** -places:.{places}f}"
    return f"{v:,.{places}f}"


def format_column(col: pd.Series) -> list[str]:
    """A table column as text: whole numbers with thousands separators (from
    10,000), fractional ones with the column's decimals (``decimals``),
    anything else as it is."""
    vals = list(col)

    def present_(v):
        return v is not None and not (isinstance(v, float) and math.isnan(v)) and v is not pd.NA

    nums = [v for v in vals if isinstance(v, (int, float, np.integer, np.floating))
            and not isinstance(v, (bool, np.bool_)) and present_(v)]
    if not nums or len(nums) < sum(1 for v in vals if present_(v)):
        return [fmt(v) if present_(v) else "" for v in vals]
    if all(float(v) == int(v) for v in nums if v == v and math.isfinite(float(v))):
        return [fmt(int(v)) if v == v and math.isfinite(float(v)) else fmt(v) for v in vals]
    places = decimals(nums)
    return [fmt_fixed(v, places) if isinstance(v, (int, float, np.integer, np.floating)) else fmt(v)
            for v in vals]


def format_p(col: pd.Series) -> list[str]:
    """p-values: three decimals, and "< 0.001" below (a p of 0 is a number too
    small for a float, not an impossibility)."""
    return ["" if v is None or v != v else "< 0.001" if v < 0.001 else f"{float(v):.3f}" for v in col]


def header(col: str, table: str | None = None) -> str:
    return TABLE_HEADERS.get(table, {}).get(col) or HEADERS.get(col) or col.replace("_", " ")


def _sizes(df: pd.DataFrame, prefix: str):
    """The sample size behind the interval ``<prefix>ci_lo`` per row (None: unknown)."""
    cols = CI_SIZE.get(prefix.rstrip("_"), "n")
    cols = (cols,) if isinstance(cols, str) else cols
    if not all(c in df.columns for c in cols):
        cols = ("n",) if "n" in df.columns else ()
    if not cols:
        return None
    return df[list(cols)].min(axis=1)


def readable(df: pd.DataFrame, table: str | None = None) -> pd.DataFrame:
    """``df`` for display: every ``X_ci_lo``/``X_ci_hi`` pair becomes one
    column "X 95% CI" holding "[lo, hi]" (or "n too small" when the sample
    behind it is below MIN_N), and every header is readable."""
    out = {}
    for col in df.columns:
        if col.endswith("ci_hi"):
            continue
        if col.endswith("ci_lo") and col[:-5] + "ci_hi" in df.columns:
            prefix = col[:-5]
            lo, hi = df[col], df[prefix + "ci_hi"]
            sizes = _sizes(df, prefix)
            places = decimals(list(lo) + list(hi))
            cells = []
            for i in range(len(df)):
                if sizes is not None and sizes.iloc[i] < MIN_N:
                    cells.append(TOO_SMALL)
                elif pd.isna(lo.iloc[i]) or pd.isna(hi.iloc[i]):
                    cells.append("")
                else:
                    cells.append(f"[{fmt_fixed(lo.iloc[i], places)}, {fmt_fixed(hi.iloc[i], places)}]")
            what = prefix.rstrip("_")
            name = (f"{CI_OF.get(what) or header(what, table)} " if what else "") + "95% CI"
            out[name] = pd.Series(cells, index=df.index, dtype=object)
        else:
            out[header(col, table)] = df[col]
    return pd.DataFrame(out, index=df.index)


# each report table's title (the pipelines' names are for files, not readers)
TABLE_TITLES = {
    "win_rate_by_seat": "Win rate by seat", "seat_chi2": "Do all seats win equally often?",
    "win_rate_by_bot": "Win rate by bot", "vp_by_seat": "Final victory points by seat",
    "margin_summary": "Margin of victory", "tie_rate": "Shared wins and ties",
    "edge_card_effect": "Smuggler's Edge cards and winning",
    "price_by_players": "Winning price of a port", "price_by_slots": "Winning price by port size",
    "price_by_port": "Winning price by port", "port_popularity": "Ships sent to each port",
    "bidding_rates": "Contests, raises and abandons", "overpayment": "Overpayment of contested wins",
    "syndicate_income": "Syndicate income", "casino_share_by_bot": "Share of ships sent to the Casino",
    "casino_income": "Casino income", "casino_use_vs_win": "Casino use and winning",
    "bank_shortfall": "Bank shortfalls", "trade_summary": "Trades",
    "combination_mix": "Combinations in optimal splits", "value_lost": "Value lost to no change",
    "vp_per_token_players": "Victory points per token sold",
    "purchases_by_card": "Victory cards bought", "holder_win_rates": "Card holders' win rates",
}


def title(table: str) -> str:
    """The heading of a report table."""
    return TABLE_TITLES.get(table) or table.replace("_", " ").capitalize()
