#!/usr/bin/env bash
# Build one .cu for one arch (called by the Makefile, several at once):
#   scripts/nvcc-one.sh ARCH FIRST_ARCH BUILD FILE.cu
# The first arch builds and links the binary the tests run; the others compile
# the device code only (-cubin) for warnings and the ptxas check. NVCC,
# NVFLAGS and NVLIBS come from the environment (the Makefile exports them).
set -u
arch=$1 first=$2 build=$3 f=$4
b=$build/sm$arch/$(basename "$f" .cu)
if [ "$arch" = "$first" ]; then
  echo "nvcc sm_$arch $f"
  # shellcheck disable=SC2086
  $NVCC $NVFLAGS -arch=sm_$arch -Xptxas -v "$f" -o "$b" $NVLIBS 2> "$b.ptxas" || { cat "$b.ptxas"; exit 255; }
else
  echo "nvcc sm_$arch -cubin $f"
  # shellcheck disable=SC2086
  $NVCC $NVFLAGS -arch=sm_$arch -Xptxas -v -cubin "$f" -o "$b.cubin" 2> "$b.ptxas" || { cat "$b.ptxas"; exit 255; }
fi
