#!/usr/bin/env bash
# run 1: n = 16's pivot in every lane (TILE__CHOL_S16PV 1) against the shuffled pivot (0, the default)
cd "$(dirname "$0")/../.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
F="-std=c++17 -O3 -Iinclude -arch=sm_90"
mkdir -p build
( nvcc $F bench/chol-variants/s16t.cu -o build/s16t_base ) &
( nvcc $F -include bench/chol-variants/pv1.h bench/chol-variants/s16t.cu -o build/s16t_pv ) &
GIT_COMMIT=${GIT_COMMIT:-wip} scripts/chol-variants.sh -r 3 -t bench/chol-variants/pv1.h base= pv=bench/chol-variants/pv1.h 2>&1
wait
for r in 1 2 3; do for v in base pv; do echo "== s16t $v round $r"; timeout 60 build/s16t_$v; done; done
