"""``python -m cargo_sim.bench``: the benchmark (``make bench``)."""
import sys

from .main import main

sys.exit(main())
