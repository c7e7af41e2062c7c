#!/bin/sh
# The seed corpus of a fuzz harness, from tests/data (and examples/ for scenarios):
# `sh tests/fuzz/seeds.sh SRC NAME` prints the directories/files, one per line.
src=$1
case "$2" in
import)          echo "$src/tests/data/seeds"; echo "$src/tests/data/text"; echo "$src/tests/data/ddwiki" ;;
resultfile)      echo "$src/tests/data/results" ;;
scenario)        echo "$src/examples" ;;
options)         echo "$src/tests/data/options" ;;
dbench_loadfile) echo "$src/tests/data/dbench" ;;
iolog|blktrace)  echo "$src/tests/data/iolog" ;;
*)               echo "seeds.sh: unknown harness $2" >&2; exit 1 ;;
esac
