#!/bin/bash
# Slurm: grade corpus.txt in 16 parts, one array task each, then join them. Submit both jobs
# from the directory that holds the corpus; the merge waits until every task has succeeded:
#
#   job=$(sbatch --parsable slurm.sh)
#   sbatch --dependency=afterok:$job slurm-merge.sh
#
# To change: the corpus, the number of parts (--array here and the list in slurm-merge.sh),
# the CPUs and the time a part gets. To redo one failed part, say 5, give --shard 5/16 in
# place of auto (an array of that one task would be part 0 of 1: the whole corpus).
#SBATCH --job-name=sudoku-grade
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=grade-%A_%a.log

# --shard auto: part SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT. Exit 1 (some records invalid
# or not rated, their rows say why) is a finished part, which must not hold up the merge.
# --resume: a task requeued after preemption or a node failure keeps the rows it wrote.
sudoku-batch grade --shard auto --resume --threads "${SLURM_CPUS_PER_TASK:-0}" \
  -o "part-$SLURM_ARRAY_TASK_ID.csv" corpus.txt || [ $? -eq 1 ]
