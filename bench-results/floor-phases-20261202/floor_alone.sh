#!/bin/bash
# The floor alone, per phase (bench/floor.cpp at a46dc41): 3 runs per file cell, 2 per tree
# cell; FLOOR names the binary, LOCAL_DIR the ext4 scratch directory. Output: floor_alone.txt.
F=${FLOOR:-build-test/mpiwrite_floor}
for fs in /dev/shm ${LOCAL_DIR:-bench-results/tmp}; do
  base=$(mktemp -d -p $fs floor-alone.XXXX)
  for lay in "1 1" "2 1" "1 2"; do
    for run in 1 2 3; do
      d=$base/f-${lay// /x}-$run; mkdir $d; sync
      $F $d 10000 100 "Hello, world!" whole $lay --phases write,stat,read,remove | sed "s|^|$fs ${lay// /x} run$run |"
      rmdir $d
    done
  done
  n=11111; depth=4; [[ $fs != /dev/shm ]] && depth=3
  for lay in "1 1" "2 1" "1 2"; do
    for run in 1 2; do
      d=$base/t-${lay// /x}-$run; mkdir $d; sync
      $F $d 1 1 x whole $lay --phases tree-create,tree-remove --tree $depth,10 | sed "s|^|$fs ${lay// /x} run$run |"
      rmdir $d
    done
  done
  rmdir $base
done
