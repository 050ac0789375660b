#!/bin/bash
# make bench's own Macao line (cargo_sim.bench.game_rates('macao', 5, 1.0)) for base and new, alternated
for r in 0 1; do
  for t in $( [ $r = 0 ] && echo "macao_base macao" || echo "macao macao_base" ); do
    echo "round $r $t $(uptime | sed 's/.*load/load/')"
    cd /tmp && PYTHONPATH=/work/wt/$t NUMBA_CACHE_DIR=/work/wt/$t/.nc /work/main/.venv/bin/python -W ignore -c "
from cargo_sim.bench import game_rates
r = game_rates('macao', 5, 1.0)
print(r['lines'][0] if 'lines' in r else r)
"
  done
done
