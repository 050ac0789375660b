#!/bin/bash
# usage: hot.sh TREE BOT SECS OUT   (perf record with machine-code dumps for per-instruction hot spots)
TREE=$1; BOT=$2; SECS=$3; OUT=$4
cd $TREE
rm -rf $OUT.dump
PERFMAP_DUMP=$OUT.dump PERFMAP_DUMP_MATCH=macao PYTHONPATH=$TREE NUMBA_CACHE_DIR=$TREE/.nc /work/main/.venv/bin/python .bench/perfmap.py $BOT $SECS macao > $OUT.run 2>&1 &
for i in $(seq 1 600); do
  PID=$(grep symbols $OUT.run 2>/dev/null | awk "{print \$1}"); [ -n "$PID" ] && break; sleep 1; done
perf record -F 1999 -p $PID -o $OUT.data -- sleep $((SECS-2)) > /dev/null 2>&1
wait
perf script -i $OUT.data -F ip,sym 2>/dev/null > $OUT.ips
