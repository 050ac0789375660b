#!/bin/sh
# Session 13 (issue 27): the two headline targets first. Run from the worktree root.
set -e
B=".venv/bin/python .bench/belief_strength.py"
R=.bench/results/strength13
S='ismcts?iterations=1000'
for job in "expert_2p expert 50 20261213" "expert_4p expert,expert,expert 15 20261214"; do
  set -- $job
  t=$(date +%s)
  nice -n 5 $B $R/$1 "$S" $2 $3 $4 2 2 > $R/$1.log 2>&1
  echo "$1 $(( $(date +%s) - t )) s" >> $R/walltime.txt
done
