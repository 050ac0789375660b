#!/bin/sh
# Session 13 (issue 27), after queue1: the strong-play mirror tables (reports/balance/strong_play.py),
# then the fields not modelled and the other named strategies, at sample sizes fixed in advance:
# fields not modelled: 2 players 2 deals (4 games), 4 players 1 deal (4 games); the other named
# strategies: 1 deal (2 games at 2 players, 4 at 4).
while kill -0 21303 2>/dev/null; do sleep 5; done
B=".venv/bin/python .bench/belief_strength.py"
R=.bench/results/strength13
S='ismcts?iterations=1000'
T='expert?coin_value=1.2&bid_margin=2.11&casino_bias=0.98&contest=0.89&ship_value=4.98&hold=0.99&raise_ratio=1.81&sell_at=28.8'
run() {  # name field deals seed
  t=$(date +%s)
  nice -n 5 $B $R/$1 "$S" "$2" $3 $4 2 2 > $R/$1.log 2>&1
  echo "$1 $(( $(date +%s) - t )) s" >> $R/walltime.txt
}
# first one deal of each field not modelled (the load grew: 25 s a 4-player game), then the
# strong-play tables, then the rest (the 2-player fields' second deal extends the same runs)
run expert_v1_2p expert_v1 1 20261215
run tuned_2p "$T" 1 20261216
run mix_4p "expert_v1?bid_margin=1&sell_at=22,$T,syndicate" 1 20261217
t=$(date +%s)
nice -n 5 .venv/bin/python reports/balance/strong_play.py --games 2:80,4:32 --workers 2 --chunk 10 > $R/strong_play.log 2>&1
echo "strong_play $(( $(date +%s) - t )) s" >> $R/walltime.txt
# is the strong-play bot stronger than expert? (5 deals at 2 players, 1 at 4)
t=$(date +%s)
nice -n 5 $B $R/ism100_expert_2p 'ismcts?iterations=100' expert 5 20261240 2 2 > $R/ism100_expert_2p.log 2>&1
nice -n 5 $B $R/ism100_expert_4p 'ismcts?iterations=100' expert,expert,expert 1 20261241 1 2 > $R/ism100_expert_4p.log 2>&1
echo "ism100_expert_2p+4p $(( $(date +%s) - t )) s" >> $R/walltime.txt
run expert_v1_2p expert_v1 2 20261215
run tuned_2p "$T" 2 20261216
run expert_v1_4p expert_v1,expert_v1,expert_v1 1 20261218
run tuned_4p "$T,$T,$T" 1 20261219
s=20261220
for b in greedy banker collector diversifier trader fleet syndicate sniper; do
  run ${b}_2p $b 1 $s; s=$((s+1))
done
for b in greedy banker collector diversifier trader fleet syndicate sniper; do
  run ${b}_4p $b,$b,$b 1 $s; s=$((s+1))
done
# issue 27 task 3: the default (model=1) against the fixed expert model (model=0), 100 iterations,
# 100 deals at 2 players (both seat orders)
S="ismcts?iterations=100"; run model1_vs_model0_2p "ismcts?iterations=100&model=0" 100 20261260
