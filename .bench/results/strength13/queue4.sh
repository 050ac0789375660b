#!/bin/sh
# Session 13 (issue 27), the lead after the helpers: the named strategies' runs extended
# (same seeds, resumed) to 5 deals at 2 players (10 games) and 2 deals at 4 (8 games),
# sizes fixed before these runs. Run from the repository root.
B=".venv/bin/python .bench/belief_strength.py"
R=.bench/results/strength13
S='ismcts?iterations=1000'
i=0
for s in greedy banker collector diversifier trader fleet syndicate sniper; do
  t=$(date +%s)
  $B $R/${s}_2p "$S" $s 5 $((20261220 + i)) 2 2 >> $R/${s}_2p.log 2>&1
  $B $R/${s}_4p "$S" $s,$s,$s 2 $((20261228 + i)) 2 2 >> $R/${s}_4p.log 2>&1
  echo "${s}_2p+4p extended $(( $(date +%s) - t )) s" >> $R/walltime.txt
  i=$((i + 1))
done
