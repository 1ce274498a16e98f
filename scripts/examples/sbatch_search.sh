#!/bin/sh
# The grid search of scripts/examples/mpi_search.lua on a Slurm cluster
# (docs/PARALLEL.md, "Running under Slurm"):
#   sbatch scripts/examples/sbatch_search.sh     (from the repository root)
# 8 tasks on 2 nodes: rank 0 hands out the fits, 7 ranks run them.  Each
# rank runs the whole script, so every node needs luma and the data (here
# the bundled breast_cancer set).  Run as a plain script outside Slurm,
# mpirun starts one rank per core of this machine.
#SBATCH --job-name=luma-search
#SBATCH --nodes=2
#SBATCH --ntasks=8
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
#SBATCH --output=luma-search-%j.out
# SPDX-License-Identifier: MIT
set -eu
cd "${SLURM_SUBMIT_DIR:-.}"
# Workers fit with one thread each; one rank per allocated core.
export OPENBLAS_NUM_THREADS=1 LUMA_NUM_THREADS=1
# Seconds of silence before a rank is presumed lost (default 60).
export LUMA_MPI_TIMEOUT=120
# Open MPI's mpirun takes the node list and the task count from Slurm.
# (With Slurm's own launcher: srun --mpi=pmix --kill-on-bad-exit=1 ...)
mpirun "${LUMA:-build/luma}" scripts/examples/mpi_search.lua "best-${SLURM_JOB_ID:-local}.luma"
