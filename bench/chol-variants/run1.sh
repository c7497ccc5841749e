#!/usr/bin/env bash
# run 1: n = 16's pivot in every lane (TILE__CHOL_S16PV 1, bit for bit the
# default's values; 2, f64's pivot from MUFU's y0, not bit for bit) against
# the shuffled pivot (0, the default); chol_test with 2 (1's values are
# checked by s16t's hash, which base and pv must print alike)
cd "$(dirname "$0")/../.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
F="-std=c++17 -O3 -Iinclude -arch=sm_90"
mkdir -p build
for v in base pv pv2; do
  h=/dev/null; [ $v = pv ] && h=bench/chol-variants/pv1.h; [ $v = pv2 ] && h=bench/chol-variants/pv2.h
  ( nvcc $F -include $h bench/chol-variants/s16t.cu -o build/s16t_$v ) &
done
GIT_COMMIT=${GIT_COMMIT:-wip} scripts/chol-variants.sh -r ${ROUNDS:-3} -t bench/chol-variants/pv2.h base= pv=bench/chol-variants/pv1.h pv2=bench/chol-variants/pv2.h 2>&1
wait
for r in 1 2 3; do for v in base pv pv2; do echo "== s16t $v round $r"; timeout 60 build/s16t_$v; done; done
