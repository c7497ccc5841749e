#!/usr/bin/env bash
# Tuning sweep for the batched Cholesky kernels (include/tile/chol_batched.h)
# on a GPU machine: builds chol_bench once per setting of its internal tuning
# macros (the rows kernels' column-group sizes TILE__CHOL_RG_<type>_<NP>, the
# blocked kernels' block sizes TILE__CHOL_BLK64_MAXNB_<type> / _BLK128_MAXNB, ...)
# and runs each build (it times the rows and the blocked kernels side by side
# at every N > 32), then, optionally, one ncu profile of the first matching
# kernel launch of the first build (scripts/chol-ncu.sh).
#
#   scripts/chol-rows-sweep.sh NAME=DEFS ... [-- ncu KERNEL_REGEX]
#   e.g. scripts/chol-rows-sweep.sh ctl= g16='-DTILE__CHOL_RG_f32_128=16'
# nvcc splits an option's value at commas: a function-like macro with two
# parameters goes in a header instead (x='-include path/x.h', x.h holding
# e.g. '#define TILE__CHOL_WIDE_f32(LY, g) 0'), as do values with spaces.
# Results: $OUT/sweep-NAME.txt (bench), $OUT/sweep-ptxas.txt (registers,
# spills of the rows kernels), $OUT/ncu-details.txt and $OUT/ncu-sass.tgz
# (scripts/chol-ncu.sh).
set -u
cd "$(dirname "$0")/.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-build/sweep-out}
mkdir -p "$OUT" build/sweep
NVFLAGS=$(printf 'print-nvflags:\n\t@echo $(NVFLAGS)\n' | make -s --no-print-directory -f Makefile -f - print-nvflags)
names=() ; ncu_re=
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then shift; [ "${1:-}" = ncu ] && ncu_re=${2:-}; break; fi
  names+=("$1"); shift
done
for nd in "${names[@]}"; do
  n=${nd%%=*} d=${nd#*=}
  # shellcheck disable=SC2086
  ( nvcc $NVFLAGS -arch=sm_90 -Xptxas -v $d bench/chol_bench.cu -o build/sweep/chol_bench_$n \
      -lcublas -lcusolver -lcufft 2> build/sweep/$n.ptxas || echo "build $n FAILED" ) &
done
wait
: > "$OUT/sweep-ptxas.txt"
for nd in "${names[@]}"; do
  n=${nd%%=*} d=${nd#*=}
  { echo "== $n: $d"; grep -A1 "chol_rows.*_k_" build/sweep/$n.ptxas | grep -E "Compiling|registers|spill" ; } >> "$OUT/sweep-ptxas.txt"
  [ -x build/sweep/chol_bench_$n ] || continue
  { echo "== $n: $d"; timeout 120 build/sweep/chol_bench_$n --commit "${GIT_COMMIT:-?}"; } > "$OUT/sweep-$n.txt" 2>&1
  echo "$n: $(grep -cE 'FAIL' "$OUT/sweep-$n.txt") FAIL lines"
done
if [ -n "$ncu_re" ] && [ -x "build/sweep/chol_bench_${names[0]%%=*}" ]; then
  OUT=$OUT scripts/chol-ncu.sh "build/sweep/chol_bench_${names[0]%%=*}" "$ncu_re"
  echo "ncu done"
fi
