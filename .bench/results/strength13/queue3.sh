#!/bin/sh
# Session 13, after queue2 was stopped at 05:11 (strong play took 5 min, not 20): the rest of the
# fields not modelled, then more strong-play games (the same seed, the script resumes:
# 2 players 80 -> 160 games, 4 players 32 -> 100), then the other named strategies (1 deal each).
while kill -0 1046 2>/dev/null; do sleep 2; done
B=".venv/bin/python .bench/belief_strength.py"
R=.bench/results/strength13
S='ismcts?iterations=1000'
T='expert?coin_value=1.2&bid_margin=2.11&casino_bias=0.98&contest=0.89&ship_value=4.98&hold=0.99&raise_ratio=1.81&sell_at=28.8'
run() {  # name field deals seed
  t=$(date +%s)
  nice -n 5 $B $R/$1 "$S" "$2" $3 $4 2 2 > $R/$1.log 2>&1
  echo "$1 $(( $(date +%s) - t )) s" >> $R/walltime.txt
}
run expert_v1_4p expert_v1,expert_v1,expert_v1 1 20261218
run tuned_4p "$T,$T,$T" 1 20261219
t=$(date +%s)
nice -n 5 .venv/bin/python reports/balance/strong_play.py --games 2:160,4:100 --workers 2 --chunk 10 > $R/strong_play2.log 2>&1
echo "strong_play (2:160,4:100, resumed) $(( $(date +%s) - t )) s" >> $R/walltime.txt
s=20261220
for b in greedy banker collector diversifier trader fleet syndicate sniper; do
  run ${b}_2p $b 1 $s; s=$((s+1))
done
for b in greedy banker collector diversifier trader fleet syndicate sniper; do
  run ${b}_4p $b,$b,$b 1 $s; s=$((s+1))
done
run expert_v1_2p expert_v1 2 20261215
run tuned_2p "$T" 2 20261216
