#!/usr/bin/env bash
# One machine, GNU parallel: solve corpus.txt in 8 parts, as many at a time as there are
# cores, each on one thread, then join them into solved.csv. One sudoku-batch process already
# uses every core; parts are for a long run taken in pieces, each one redone alone if it fails.
#
# parallel's exit status counts the parts that did not exit 0, and a part with an invalid
# record exits 1: merge --input is the check, that every record of the corpus has its row.
parallel sudoku-batch solve --threads 1 --shard {}/8 -o part-{}.csv corpus.txt ::: {0..7}
sudoku-batch merge --input corpus.txt solved.csv part-{0..7}.csv
