#!/bin/sh
# Consumer projects of every kind (C, CXX, CUDA, CXX+CUDA), each reaching
# tile.h by add_subdirectory and by find_package after `cmake --install` to a
# temporary prefix: configure, build (warnings as errors) and run each. No GPU
# is needed: the programs run the CPU target where there is none.
#   tests/consumers/run.sh [BUILD_DIR]      (make consumers)
# Without nvcc the CUDA kinds are skipped, and said so.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/consumers}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
rm -rf "$out"
mkdir -p "$out"
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
kinds="c cxx"
# host: the host API through tile::host (cuBLAS, cuSOLVER, cuFFT linked)
if command -v nvcc >/dev/null 2>&1; then kinds="$kinds cuda cxx_cuda host"; else echo "consumers: no nvcc, CUDA kinds skipped"; fi

# install to a prefix, as a packager would
cmake -S "$repo" -B "$out/tile" $gen > "$out/tile.log" 2>&1 || { cat "$out/tile.log"; exit 1; }
cmake --install "$out/tile" --prefix "$out/prefix" >> "$out/tile.log" 2>&1 || { cat "$out/tile.log"; exit 1; }
test -f "$out/prefix/include/tile.h" && test -f "$out/prefix/lib/cmake/tile/tileConfig.cmake" || {
    echo "consumers: install is missing tile.h or tileConfig.cmake"; exit 1; }

fail=0
for kind in $kinds; do
    for mode in subdir package; do
        b="$out/$kind-$mode"
        if cmake -S "$repo/tests/consumers/$kind" -B "$b" $gen \
             -DTILE_CONSUMER_MODE=$mode -DTILE_SOURCE_DIR="$repo" -DCMAKE_PREFIX_PATH="$out/prefix" \
             -DCMAKE_C_FLAGS="-Wall -Wextra -pedantic -Werror" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" \
             -DCMAKE_CUDA_FLAGS="-Werror all-warnings" > "$b.log" 2>&1 &&
           cmake --build "$b" >> "$b.log" 2>&1 &&
           "$b/consumer" >> "$b.log" 2>&1; then
            echo "consumer $kind via $mode: $(tail -n 1 "$b.log")"
        else
            echo "consumer $kind via $mode: FAIL"; cat "$b.log"; fail=1
        fi
    done
done
[ $fail = 0 ] && echo "== consumer projects: ok"
exit $fail
