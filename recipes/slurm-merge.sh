#!/bin/bash
# Slurm, after slurm.sh: joins its 16 parts into graded.csv (see slurm.sh for how to submit
# it). With --input, merge checks that every record of the corpus has its row.
#SBATCH --job-name=sudoku-merge
#SBATCH --output=merge-%j.log

sudoku-batch merge --input corpus.txt graded.csv part-{0..15}.csv
