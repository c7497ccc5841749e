#!/usr/bin/env bash
# Build one .cu for one arch (called by the Makefile, several at once):
#   scripts/nvcc-one.sh ARCH FIRST_ARCH BUILD FILE.cu
# The first arch builds and links the binary the tests run; the others compile
# the device code only (-cubin) for warnings and the ptxas check. NVCC,
# NVFLAGS and NVLIBS come from the environment (the Makefile exports them).
set -u
arch=$1 first=$2 build=$3 f=$4
b=$build/sm$arch/$(basename "$f" .cu)
# a file whose first line says "nvcc-arch: 90a" (wgmma) builds its sm_90
# binary for sm_90a; its other archs compile the fallback
sm=sm_$arch extra=
if [ "$arch" = 90 ] && head -1 "$f" | grep -q 'nvcc-arch: 90a'; then sm=sm_90a extra=-DBENCH_SM90A=1; fi
if [ "$arch" = "$first" ]; then
  echo "nvcc $sm $f"
  # shellcheck disable=SC2086
  $NVCC $NVFLAGS -arch=$sm $extra -Xptxas -v "$f" -o "$b" $NVLIBS 2> "$b.ptxas" || { cat "$b.ptxas"; exit 255; }
else
  echo "nvcc $sm -cubin $f"
  # shellcheck disable=SC2086
  $NVCC $NVFLAGS -arch=$sm $extra -Xptxas -v -cubin "$f" -o "$b.cubin" 2> "$b.ptxas" || { cat "$b.ptxas"; exit 255; }
fi
