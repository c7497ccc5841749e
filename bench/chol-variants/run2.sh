#!/usr/bin/env bash
# run 2: n = 16 folded (TILE__CHOL_S16F 1: a matrix 8 lanes, two rows a lane)
# against the default (a matrix a half-warp); chol_test with the fold, on the
# GPU and the CPU and under the sanitizers; chol_bench in alternating rounds;
# s16t (batch 8 / 1056 / 4096, 'alone' and 'as-is'; both builds must print
# the same hashes: the same bits). Everything also in $OUT/run2.txt.
cd "$(dirname "$0")/../.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-build/run2-out}; mkdir -p "$OUT" build
F="-std=c++17 -O3 -Iinclude -arch=sm_90"
{
  ( nvcc $F bench/chol-variants/s16t.cu -o build/s16t_base ) &
  ( nvcc $F -include bench/chol-variants/f1.h bench/chol-variants/s16t.cu -o build/s16t_f1 ) &
  GIT_COMMIT=${GIT_COMMIT:-wip} scripts/chol-variants.sh -r ${ROUNDS:-3} -t bench/chol-variants/f1.h base= f1=bench/chol-variants/f1.h 2>&1
  wait
  for r in $(seq 1 ${ROUNDS:-3}); do for v in base f1; do echo "== s16t $v round $r"; timeout 60 build/s16t_$v; done; done
} 2>&1 | tee "$OUT/run2.txt" | grep -E "^(base|f1) |^==|racecheck|memcheck|synccheck|FAIL|fail|error|alone|hash|passed|checks" | head -80
