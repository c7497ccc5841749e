#!/usr/bin/env bash
# The one script for a GPU machine (H100): build, check, test, bench, sanitize.
#
#   GIT_COMMIT=<sha> scripts/gpu-check.sh   (pass the sha literally: the device machine gets no .git)
#
# Runs from the repository root (cds there itself). Every step runs even when
# an earlier one failed; a PASS/FAIL table comes last, and the exit code is
# nonzero if any step failed. Few files, for a remote runner that returns at
# most 8, go to $OUT (build/gpu-check-out when OUT is unset):
#   gpu-check.log   everything this script prints
#   ptxas.txt       ptxas check result and the -Xptxas -v logs (sm_90)
#   bench.txt       bench output       bench.csv   bench results
#   sanitizer.log   compute-sanitizer output, every tool and binary
#   sass.txt        memory/sync instructions of the bench kernels (cuobjdump)
# Order: machine, build (sm_90, parallel), ptxas check, GPU tests, benches,
# compute-sanitizer (memcheck, racecheck, synccheck) on each GPU test,
# memcheck of each bench with --small, summary. Steps are cut to fit
# GPU_CHECK_BUDGET seconds (default 480; the remote runner allows 600).
# GPU_CHECK_ONLY=REGEX runs a subset: only the .cu files whose base name
# matches (e.g. GPU_CHECK_ONLY='chol|linalg' builds, tests, sanitizes and
# benches those); GPU_CHECK_SKIP=REGEX leaves the matching ones out.
set -u
cd "$(dirname "$0")/.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-build/gpu-check-out}
mkdir -p "$OUT" || exit 1

main() {
T0=$(date +%s)
BUDGET=${GPU_CHECK_BUDGET:-480}
SANLOG="$OUT/sanitizer.log"
BENCHTXT="$OUT/bench.txt"
BENCHCSV="$OUT/bench.csv"
PTXTXT="$OUT/ptxas.txt"
SASSTXT="$OUT/sass.txt"
TMP=$(mktemp -d)
: > "$SANLOG"; : > "$BENCHTXT"; : > "$BENCHCSV"; : > "$PTXTXT"; : > "$SASSTXT"

BUILD=build/sm90
JOBS=$(nproc 2>/dev/null || echo 4)
COMMIT=${GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ "$COMMIT" != unknown ] && [ -z "${GIT_COMMIT:-}" ] && ! git diff --quiet HEAD 2>/dev/null; then
  COMMIT="$COMMIT-dirty"
fi

# ---- bookkeeping: one summary row per step ----
ROWS=()
FAILS=0
BENCH_LINES=""
elapsed() { echo $(( $(date +%s) - T0 )); }
# seconds for a step: at most $1, leaving $2 for what comes after (>= 1)
cap() {
  local l=$(( BUDGET - $(elapsed) - $2 ))
  [ "$l" -gt "$1" ] && l=$1
  [ "$l" -lt 1 ] && l=1
  echo "$l"
}
# record NAME STATUS [NOTE]; STATUS is PASS, FAIL, TIMEOUT or SKIP
record() {
  ROWS+=("$(printf '%-46s %-7s %s' "$1" "$2" "${3:-}")")
  case "$2" in FAIL|TIMEOUT) FAILS=$((FAILS + 1)) ;; esac
  echo "-- $2: $1 ${3:-}"
}
section() { echo; echo "==== $* ($(elapsed)s)"; }
status_of() { case "$1" in 0) echo PASS ;; 124|137) echo TIMEOUT ;; *) echo FAIL ;; esac; }

section "machine"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  commit: $COMMIT  cores: $JOBS  budget: ${BUDGET}s  OUT: $OUT"
if nvidia-smi -L; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1
  record "nvidia-smi -L" PASS
else
  record "nvidia-smi -L" FAIL "no GPU visible"
fi
if nvcc --version; then record "nvcc --version" PASS; else record "nvcc --version" FAIL "nvcc not found"; fi
SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
echo "compute-sanitizer: ${SANITIZER:-not found}"

# ---- build: every .cu for sm_90, in parallel ----
section "build (sm_90, $JOBS jobs)"
# the Makefile's flags, so that this is the build CI checks
NVFLAGS=$(printf 'print-nvflags:\n\t@echo $(NVFLAGS)\n' | make -s --no-print-directory -f Makefile -f - print-nvflags 2>/dev/null)
[ -n "$NVFLAGS" ] || NVFLAGS="-std=c++17 -O3 -Iinclude -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror"
echo "NVFLAGS: $NVFLAGS -arch=sm_90 -Xptxas -v ... -lcublas -lcusolver -lcufft"
mkdir -p "$BUILD"
SRCS=()
# selected FILE: is it in the subset GPU_CHECK_ONLY / GPU_CHECK_SKIP asks for?
selected() {
  local n; n=$(basename "$1" .cu)
  if [ -n "${GPU_CHECK_ONLY:-}" ] && ! [[ $n =~ $GPU_CHECK_ONLY ]]; then return 1; fi
  if [ -n "${GPU_CHECK_SKIP:-}" ] && [[ $n =~ $GPU_CHECK_SKIP ]]; then return 1; fi
  return 0
}
[ -n "${GPU_CHECK_ONLY:-}${GPU_CHECK_SKIP:-}" ] && echo "subset: only '${GPU_CHECK_ONLY:-*}', skip '${GPU_CHECK_SKIP:-}'"
for f in examples/*.cu tests/gpu/*.cu bench/*.cu; do [ -f "$f" ] && selected "$f" && SRCS+=("$f"); done
build_one() {  # build_one SRC: binary and ptxas log in $BUILD, marker .ok
  local f=$1 b
  b=$BUILD/$(basename "$f" .cu)
  # GPU_CHECK_PREBUILT=1: keep a binary built elsewhere with these flags and
  # carried here (saves the lent machine's minutes); else build afresh
  if [ -n "${GPU_CHECK_PREBUILT:-}" ] && [ -f "$b.ok" ] && [ -x "$b" ]; then return 0; fi
  rm -f "$b" "$b.ok"
  # a file whose first line says "nvcc-arch: 90a" needs sm_90a (wgmma)
  local arch=sm_90 extra=
  if head -1 "$f" | grep -q 'nvcc-arch: 90a'; then arch=sm_90a extra=-DBENCH_SM90A=1; fi
  # shellcheck disable=SC2086
  nvcc $NVFLAGS -arch=$arch $extra -Xptxas -v "$f" -o "$b" -lcublas -lcusolver -lcufft 2> "$b.ptxas" && touch "$b.ok"
  return 0
}
export -f build_one
export BUILD NVFLAGS GPU_CHECK_PREBUILT
BT0=$(date +%s)
if [ ${#SRCS[@]} -gt 0 ]; then
  # at least 200 s whatever the budget: a build cut short leaves every later
  # step "not built" (one nvcc of chol_test takes ~110 s on the H200 machine)
  bt=$(cap 300 150); [ "$bt" -lt 200 ] && { bt=200; echo "(build given 200 s: GPU_CHECK_BUDGET leaves less)"; }
  printf '%s\n' "${SRCS[@]}" | timeout "$bt" xargs -P "$JOBS" -I{} bash -c 'build_one "$1"' _ {}
fi
nbad=0
for f in "${SRCS[@]}"; do
  b=$BUILD/$(basename "$f" .cu)
  if [ -f "$b.ok" ]; then echo "built $f"; else
    echo "FAILED $f:"; grep -v '^ptxas info' "$b.ptxas" 2>/dev/null | head -40; nbad=$((nbad + 1)); fi
done
if [ ${#SRCS[@]} -eq 0 ]; then record "build sm_90" FAIL "no .cu files"
elif [ $nbad -eq 0 ]; then record "build sm_90" PASS "${#SRCS[@]} files, $(( $(date +%s) - BT0 ))s"
else record "build sm_90" FAIL "$nbad of ${#SRCS[@]} files failed"; fi

# ---- ptxas: 0 bytes stack, no spills ----
section "ptxas check"
scripts/ptxas-check.sh "$BUILD"/*.ptxas > "$TMP/ptx" 2>&1; rc=$?
cat "$TMP/ptx"
{ cat "$TMP/ptx"; echo "rc=$rc"; for p in "$BUILD"/*.ptxas; do echo; echo "## $p"; cat "$p"; done; } > "$PTXTXT"
record "ptxas check (0 stack, 0 spills)" "$(status_of $rc)" "$(tail -1 "$TMP/ptx")"

# ---- GPU tests ----
section "GPU tests"
TESTS=()
for f in tests/gpu/*.cu; do [ -f "$f" ] && selected "$f" && TESTS+=("$f"); done
[ ${#TESTS[@]} -eq 0 ] && record "gpu tests" SKIP "no tests/gpu/*.cu"
for f in "${TESTS[@]}"; do
  n=$(basename "$f" .cu); b=$BUILD/$n
  if [ ! -x "$b" ]; then record "test $n" FAIL "not built"; continue; fi
  echo "\$ $b"
  # the tests first: at least 60 s each while the budget lasts (a 200 s
  # reserve for the steps after cut chol_test to 1 s under a 330 s budget
  # with a 133 s build; the benches and sanitizers are cut instead)
  t=$(cap 150 200); [ "$t" -lt 60 ] && t=$(cap 60 0)
  timeout "$t" "$b"; rc=$?
  record "test $n" "$(status_of $rc)" "rc=$rc"
done

# ---- benches (before the sanitizer runs, so that they get their time) ----
section "benches"
BENCH_SRCS=()
for f in bench/*.cu; do [ -f "$f" ] && selected "$f" && BENCH_SRCS+=("$f"); done
[ ${#BENCH_SRCS[@]} -eq 0 ] && record "bench" SKIP "no bench/*.cu"
for f in "${BENCH_SRCS[@]}"; do
  n=$(basename "$f" .cu); b=$BUILD/$n
  if [ ! -x "$b" ]; then record "bench $n" FAIL "not built"; continue; fi
  args=()
  grep -q -- '--csv' "$f" && args+=(--csv "$TMP/$n.csv")
  grep -q -- '--commit' "$f" && args+=(--commit "$COMMIT")
  echo "\$ $b ${args[*]}"
  GIT_COMMIT=$COMMIT timeout "$(cap 180 60)" "$b" "${args[@]}" > "$TMP/$n.txt" 2>&1; rc=$?
  cat "$TMP/$n.txt"
  { echo "==== $n (rc=$rc)"; cat "$TMP/$n.txt"; } >> "$BENCHTXT"
  if grep -q 'no GPU' "$TMP/$n.txt"; then record "bench $n" FAIL "skipped: the bench saw no GPU"
  else record "bench $n: runs, results correct" "$(status_of $rc)" "rc=$rc"; fi
  # every target line of the bench is a step of its own
  tgt=$(grep -E 'target (>=|<=) ' "$TMP/$n.txt") # a floor's ratio is a <= target
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    case "$line" in *PASS) st=PASS ;; *) st=FAIL ;; esac
    record "bench $n: target" "$st" "${line%:*}"
  done <<< "$tgt"
  tab=$(sed -n '/^variant /,/^(GB\/s/p' "$TMP/$n.txt")
  [ -n "$tab$tgt" ] && BENCH_LINES+="== $n"$'\n'"$tab"$'\n'"$tgt"$'\n'
  if [ -f "$TMP/$n.csv" ]; then
    { if [ ${#BENCH_SRCS[@]} -gt 1 ]; then echo "# $n"; fi; cat "$TMP/$n.csv"; } >> "$BENCHCSV"
  fi
  # the kernels' memory and sync instructions: are the loads 16 bytes wide?
  if command -v cuobjdump > /dev/null; then
    { echo "==== $n"; cuobjdump -sass "$b" | grep -E 'Function :|LDG|STG|LDS|STS|SHFL|BAR|ATOM|RED|CALL|EXIT'; } \
      >> "$SASSTXT" 2>&1
  fi
done

# ---- compute-sanitizer ----
# sanitize NAME TOOL BINARY [ARGS...]: one run, its output appended to SANLOG
sanitize() {
  local name=$1 tool=$2 bin=$3 t rc summ
  shift 3
  if [ -z "$SANITIZER" ]; then record "$name" FAIL "compute-sanitizer not found"; return; fi
  if [ ! -x "$bin" ]; then record "$name" FAIL "not built"; return; fi
  t=$(cap 150 20)
  if [ "$t" -lt 15 ]; then record "$name" TIMEOUT "no time left"; return; fi
  echo "\$ compute-sanitizer --tool $tool --error-exitcode 1 $bin $*   (limit ${t}s)"
  timeout "$t" "$SANITIZER" --tool "$tool" --error-exitcode 1 "$bin" "$@" > "$TMP/san" 2>&1; rc=$?
  { echo "==== $name (rc=$rc)"; cat "$TMP/san"; echo; } >> "$SANLOG"
  summ=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$TMP/san" | tail -1 | sed 's/^========= //')
  [ "$rc" -ne 0 ] && grep -E '^========= (Invalid|Error|Race|Barrier|Uninit|Program hit)' "$TMP/san" | head -5
  record "$name" "$(status_of $rc)" "rc=$rc $summ"
}
section "compute-sanitizer on GPU tests"
for f in "${TESTS[@]}"; do
  n=$(basename "$f" .cu)
  q=(); grep -q -- '--quick' "$f" && q=(--quick)
  for tool in memcheck racecheck synccheck; do
    sanitize "sanitizer $tool $n${q[*]:+ ${q[*]}}" "$tool" "$BUILD/$n" "${q[@]}"
  done
done
section "compute-sanitizer memcheck of benches (--small)"
for f in "${BENCH_SRCS[@]}"; do
  n=$(basename "$f" .cu)
  grep -q -- '--small' "$f" || continue
  sanitize "sanitizer memcheck $n --small" memcheck "$BUILD/$n" --small --iters 2 --warmup 1
done

# ---- summary, last so that it is in the tail of the output ----
section "summary"
echo "commit $COMMIT, $(elapsed)s; files in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
[ -n "$BENCH_LINES" ] && printf '%s\n' "$BENCH_LINES"
printf '%-46s %-7s %s\n' "step" "status" "note"
printf '%s\n' "${ROWS[@]}"
rm -rf "$TMP"
if [ $FAILS -eq 0 ]; then echo "gpu-check: ALL PASS"; return 0; fi
echo "gpu-check: $FAILS step(s) FAILED"
return 1
}

main 2>&1 | tee "$OUT/gpu-check.log"
exit "${PIPESTATUS[0]}"
