#!/usr/bin/env bash
# Variants of the batched Cholesky kernels side by side, in one call on a GPU
# machine: chol_bench built once per variant header (internal tuning macros of
# include/tile/chol_batched.h, given with -include: nvcc splits -D values at
# commas, so function-like macros go in a header), chol_test built once per
# test header and run on the GPU and the CPU, then --quick under
# compute-sanitizer's racecheck, memcheck and synccheck, then every chol_bench
# build in alternating rounds (the lent machine's drift falls on all alike).
#
#   scripts/chol-variants.sh [-r ROUNDS] [-t TESTHDR]... NAME=HEADER...
#   e.g. scripts/chol-variants.sh -t tmp/w1.h base= w1=tmp/w1.h
# NAME= (empty header): the defaults. One line a variant and round: rc, then
# "type N us xcuSOLVER |" for every figure, then the count of chol_bench's
# correctness checks that did not say ok. Results also under $OUT (the
# first round's full output of each variant, ptxas of the blocked kernels).
set -u
cd "$(dirname "$0")/.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-build/variants-out}
B=build/variants
mkdir -p "$OUT" "$B"
rounds=3 tests=() names=()
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -t) tests+=("$2"); shift 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
F="-std=c++17 -O3 -Iinclude -arch=sm_90 -Xptxas -v"
L="-lcublas -lcusolver -lcufft"
hdr() { [ -n "$1" ] && echo "$1" || echo /dev/null; }
for nh in "${names[@]}"; do
  n=${nh%%=*} h=$(hdr "${nh#*=}")
  # CHOL_VARIANTS_PREBUILT=1: keep binaries built elsewhere and carried here
  [ -n "${CHOL_VARIANTS_PREBUILT:-}" ] && [ -x "$B/cb_$n" ] && continue
  # shellcheck disable=SC2086
  ( nvcc $F -include "$h" bench/chol_bench.cu -o $B/cb_$n $L 2> $B/$n.ptxas || echo "build $n FAILED" ) &
done
i=0
for h in "${tests[@]}"; do
  [ -n "${CHOL_VARIANTS_PREBUILT:-}" ] && [ -x "$B/ct_$i" ] && { i=$((i + 1)); continue; }
  # shellcheck disable=SC2086
  ( nvcc $F -include "$h" tests/gpu/chol_test.cu -o $B/ct_$i $L 2> $B/t$i.ptxas || echo "build test $h FAILED" ) &
  i=$((i + 1))
done
wait
# registers and spills of the blocked and n = 16 kernels, a line a variant
regs() {
  awk '/Compiling entry/ {match($0, /chol_(blk[0-9s]*|s16l)_k_f(32|64)/); n = substr($0, RSTART, RLENGTH)}
       /spill stores/ {sp = $5 "/" $9}
       /Used [0-9]+ registers/ && n != "" {printf "%s %s %s; ", n, $5, sp; n = ""}' "$1"
}
for nh in "${names[@]}"; do n=${nh%%=*}; echo "== $n ${nh#*=}: $(regs "$B/$n.ptxas")"; done | tee "$OUT/variants-ptxas.txt"
i=0
for h in "${tests[@]}"; do
  echo "== chol_test -include $h: $(regs $B/t$i.ptxas)"
  if [ -x $B/ct_$i ]; then
    timeout 200 $B/ct_$i 2>&1 | tail -1
    for tool in racecheck memcheck synccheck; do
      echo "$tool: $(timeout 150 compute-sanitizer --tool $tool $B/ct_$i --quick 2>&1 | tail -1)"
    done
  fi
  i=$((i + 1))
done
for r in $(seq 1 "$rounds"); do
  for nh in "${names[@]}"; do
    n=${nh%%=*}
    [ -x "$B/cb_$n" ] || continue
    timeout 60 "$B/cb_$n" --commit "${GIT_COMMIT:-?}" > "$B/out_$n.txt" 2>&1; rc=$?
    [ "$r" = 1 ] && cp "$B/out_$n.txt" "$OUT/variant-$n.txt"
    printf '%-8s %s: rc=%s %s| not-ok checks %s\n' "$n" "$r" "$rc" \
      "$(awk '$1 ~ /^f(32|64)$/ && $3 ~ /^[0-9.]+$/ && NF >= 9 {printf "%s %s %s %s | ", $1, $2, $3, $5}' "$B/out_$n.txt")" \
      "$(grep '^check' "$B/out_$n.txt" | grep -vc ': ok$')"
  done
done
