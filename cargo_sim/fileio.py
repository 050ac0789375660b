"""Moved to ``cargo_sim.core.fileio``; this name stays the public path."""
from .core.fileio import (atomic_write, atomic_write_text, claim_folder, own_output,  # noqa: F401
                          probe_writable, read_bytes, read_json, read_text)
