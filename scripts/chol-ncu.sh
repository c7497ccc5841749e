#!/usr/bin/env bash
# ncu profiles of the batched Cholesky kernels on a GPU machine: for each
# KERNEL_REGEX, the first matching launch of BIN (a chol_bench build), with
# the sections that say where the time goes (speed of light, occupancy,
# scheduler and warp-state statistics, shared-memory wavefronts and bank
# conflicts, source counters), and the per-SASS-instruction counts.
#
#   scripts/chol-ncu.sh BIN KERNEL_REGEX ...
# Results: $OUT/ncu-details.txt (every kernel's sections), $OUT/ncu-sass.tgz
# (one CSV a kernel: SASS with executed instructions and stall samples).
set -u
cd "$(dirname "$0")/.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-build/ncu-out}
mkdir -p "$OUT" build/ncu
bin=$1; shift
: > "$OUT/ncu-details.txt"
k=0
for re in "$@"; do
  k=$((k + 1))
  rep=build/ncu/k$k
  timeout 150 ncu --kernel-name-base mangled -k "regex:$re" -c 1 -f -o "$rep" \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats \
    --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables \
    --section SourceCounters --import-source no "$bin" --iters 2 --warmup 0 > build/ncu/k$k.log 2>&1
  echo "== $re: ncu rc=$?" >> "$OUT/ncu-details.txt"
  ncu -i "$rep.ncu-rep" --page details >> "$OUT/ncu-details.txt" 2>&1
  ncu -i "$rep.ncu-rep" --page source --print-source sass --csv > "build/ncu/k$k-$(echo "$re" | tr -c 'A-Za-z0-9_\n' _).csv" 2>&1
done
tar -czf "$OUT/ncu-sass.tgz" -C build/ncu $(cd build/ncu && ls *.csv)
