#!/bin/bash
# usage: .bench/macao_prof.sh TREE BOT SECS OUT   (perf self-time profile of the Macao kernel)
TREE=$1; BOT=$2; SECS=$3; OUT=$4
cd $TREE
PYTHONPATH=$TREE NUMBA_CACHE_DIR=$TREE/.nc /work/main/.venv/bin/python .bench/perfmap.py $BOT $SECS macao > $OUT.run 2>&1 &
for i in $(seq 1 600); do
  PID=$(grep symbols $OUT.run 2>/dev/null | awk "{print \$1}"); [ -n "$PID" ] && break; sleep 1; done
perf record -F 999 -p $PID -o $OUT.data -- sleep $((SECS-2)) > /dev/null 2>&1
wait
perf report -i $OUT.data --no-children --sort symbol --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -45 > $OUT.txt
