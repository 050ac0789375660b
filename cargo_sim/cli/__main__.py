"""``python -m cargo_sim.cli``: the ``cargo-sim`` command."""
import sys

from .main import main

sys.exit(main())
