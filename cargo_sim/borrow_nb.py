"""Moved to ``cargo_sim.core.borrow_nb``; the old path re-exports its names."""
from .core.borrow_nb import (bits_float_nb, borrow_nb, call_int64_fn_nb,  # noqa: F401
                             float_bits_nb, state_array_nb, state_ptr_nb)
