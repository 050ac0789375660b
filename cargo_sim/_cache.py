"""Moved to ``cargo_sim.core.cache``; the old path re-exports its names."""
from .core.cache import (CACHE_DIR, COMPILE_NOTICE, MARKER, SUBFOLDER,  # noqa: F401
                         announce_first_compile, cache_folder, cache_root,
                         configure_numba_cache, marker_text, private_dir, prune, source_hash)
