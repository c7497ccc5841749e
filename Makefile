# tile.h - thin front end. The library is header-only: nothing to build.
#   make test   CPU tests (cmocka), C11 build of every header and example,
#               nvcc -Werror build of every .cu (sm_90; sm_80 device code), ptxas check
#   make run    the benches on a GPU machine, the examples on the CPU elsewhere
CC      ?= gcc
NVCC    ?= nvcc
BUILD   ?= build
ARCHS   ?= 90 80
CFLAGS_C11 = -std=c11 -Wall -Wextra -pedantic -Werror -O2 -Iinclude
NVFLAGS = -std=c++17 -O3 -Iinclude -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
HEADERS  := include/tile.h $(wildcard include/tile/*.h) $(wildcard include/tile/host/*.h)
EXAMPLES := $(wildcard examples/*.cu)
CPU_TESTS:= $(wildcard tests/cpu/test_*.c)
GPU_TESTS:= $(wildcard tests/gpu/*.cu)
BENCHES  := $(wildcard bench/*.cu)
ALL_CU   := $(EXAMPLES) $(GPU_TESTS) $(BENCHES)
# The first arch builds and links every .cu (the binaries the tests run); the
# others compile the device code only (-cubin): warnings, ptxas check.
FIRST_ARCH := $(firstword $(ARCHS))
NVLIBS   := -lcublas -lcusolver -lcufft

.PHONY: test host-gates run deps c11 cxx std-check consumers docs-check strict-cpu compile-fail cpu-tests cu cu-compile ptxas-check gpu-tests bench examples clean

test: deps docs-check c11 cxx std-check strict-cpu compile-fail consumers host-gates cpu-tests cu-compile ptxas-check gpu-tests-cpu
	@echo "== all tests passed"

deps:
	@scripts/ensure-deps.sh

# Promise 1: every header compiles alone as C11; every example compiles as C.
c11: $(HEADERS) $(EXAMPLES)
	@mkdir -p $(BUILD)/c11
	@for h in $(HEADERS); do \
	  echo "#include \"$$h\"" | $(CC) $(CFLAGS_C11) -I. -x c -fsyntax-only - || exit 1; done
	@for e in $(EXAMPLES); do \
	  $(CC) $(CFLAGS_C11) -x c $$e -o $(BUILD)/c11/$$(basename $$e .cu) -lm || exit 1; \
	  $(BUILD)/c11/$$(basename $$e .cu) > /dev/null || exit 1; done
	@if command -v clang >/dev/null; then for h in $(HEADERS); do \
	  echo "#include \"$$h\"" | clang $(CFLAGS_C11) -I. -x c -fsyntax-only - || exit 1; done; fi
	@echo "== C11 build: ok"

# Impossible shapes are compile-time errors: each tests/compile_fail/*.c must
# fail to compile (as C11 and as CUDA), except ok_control.c, which must build;
# the `/* expect: REGEX */` line must match the output of each compiler.
compile-fail:
	@mkdir -p $(BUILD)
	@for f in tests/compile_fail/*.c; do \
	  want=fail; case $$f in *ok_control.c) want=ok;; esac; \
	  exp=$$(sed -n 's|^/\* expect: \(.*\) \*/$$|\1|p' $$f); \
	  if $(CC) $(CFLAGS_C11) -fsyntax-only $$f 2>$(BUILD)/cf.log; then got=ok; else got=fail; fi; \
	  if $(NVCC) $(NVFLAGS) -arch=sm_90 -x cu -c $$f -o /dev/null 2>$(BUILD)/cf-cu.log; then gotcu=ok; else gotcu=fail; fi; \
	  if [ $$got != $$want ] || [ $$gotcu != $$want ]; then \
	    echo "compile-fail: $$f: expected $$want, C11 gave $$got, CUDA gave $$gotcu"; cat $(BUILD)/cf.log $(BUILD)/cf-cu.log; exit 1; fi; \
	  if [ $$want = fail ] && ! { grep -qE "$$exp" $(BUILD)/cf.log && grep -qE "$$exp" $(BUILD)/cf-cu.log; }; then \
	    echo "compile-fail: $$f failed, but not with '$$exp' from both compilers:"; cat $(BUILD)/cf.log $(BUILD)/cf-cu.log; exit 1; fi; done
	@echo "== compile-time errors: ok"

# A host C++ build (no CUDA) of the CPU target: every example as C++17 with
# g++ (and clang++ where installed), run and checked like the C11 build.
CXXFLAGS_HOST = -std=c++17 -Wall -Wextra -Werror -O2 -Iinclude
cxx: $(HEADERS) $(EXAMPLES)
	@mkdir -p $(BUILD)/cxx
	@for cxx in g++ clang++; do command -v $$cxx >/dev/null || continue; \
	  echo '#include "include/tile.h"' | $$cxx $(CXXFLAGS_HOST) -I. -x c++ -fsyntax-only - || exit 1; \
	  for e in $(EXAMPLES); do b=$(BUILD)/cxx/$$(basename $$e .cu).$$cxx; \
	    $$cxx $(CXXFLAGS_HOST) -x c++ $$e -o $$b -lm || exit 1; \
	    $$b cpu > $$b.out || { cat $$b.out; echo "cxx: $$b failed"; exit 1; }; done; done
	@echo "== host C++ build: ok"

# nvcc below C++17 stops at one readable line (config.h), not deep in launch.h.
std-check:
	@mkdir -p $(BUILD)
	@if $(NVCC) -std=c++14 -Iinclude -x cu -c examples/row_sum.cu -o /dev/null > $(BUILD)/std.log 2>&1; then \
	  echo "std-check: nvcc -std=c++14 built"; exit 1; fi
	@grep -q "tile.h: nvcc builds need -std=c++17 or newer" $(BUILD)/std.log || { cat $(BUILD)/std.log; exit 1; }
	@echo "== nvcc -std=c++14 refused with the one-line message: ok"

# CMake consumers (C, C++, CUDA, C++/CUDA; add_subdirectory and find_package
# after an install): configure, build and run each.
consumers:
	@tests/consumers/run.sh $(BUILD)/consumers

# The strict CPU launch (tile/strict.h) as C11, host C++17 and nvcc's CPU target.
strict-cpu: tests/consumers/strict_cpu.c $(HEADERS)
	@mkdir -p $(BUILD)/strict
	@$(CC) $(CFLAGS_C11) $< -o $(BUILD)/strict/strict_c11 -lm && $(BUILD)/strict/strict_c11
	@g++ $(CXXFLAGS_HOST) -x c++ $< -o $(BUILD)/strict/strict_cxx && $(BUILD)/strict/strict_cxx
	@$(NVCC) $(NVFLAGS) -arch=sm_$(FIRST_ARCH) -x cu $< -o $(BUILD)/strict/strict_nvcc && $(BUILD)/strict/strict_nvcc

# Host-API feature gates: built with TILE_NO_CUBLAS/CUSOLVER/CUFFT and linked
# without the NVIDIA libraries (nvcc), and as C11; GPU calls -> DISABLED / NO_CUDA.
host-gates: tests/host_gates.cu $(HEADERS)
	@mkdir -p $(BUILD)
	@$(NVCC) $(NVFLAGS) -arch=sm_$(FIRST_ARCH) tests/host_gates.cu -o $(BUILD)/host_gates && $(BUILD)/host_gates
	@$(CC) $(CFLAGS_C11) -x c tests/host_gates.cu -o $(BUILD)/host_gates_c11 -lm && $(BUILD)/host_gates_c11
	@echo "== host-API gates: ok"

# Every TILE_* macro the docs name exists in include/.
docs-check:
	@scripts/check-docs.sh

$(BUILD)/cpu/%: tests/cpu/%.c $(HEADERS) tests/cpu/test_util.h tests/cpu/block_sim.h
	@mkdir -p $(BUILD)/cpu
	$(CC) $(CFLAGS_C11) -Itests/cpu $< -o $@ -lcmocka -lm

# headers shared by CPU and GPU tests (tests/*.h) rebuild both
TEST_HEADERS := $(wildcard tests/*.h)
$(patsubst tests/cpu/%.c,$(BUILD)/cpu/%,$(CPU_TESTS)) $(foreach a,$(ARCHS),$(BUILD)/sm$(a)/.stamp): $(TEST_HEADERS)
# the harness headers of the GPU tests and the benches rebuild them too
$(foreach a,$(ARCHS),$(BUILD)/sm$(a)/.stamp): $(wildcard tests/gpu/*.h bench/*.h)

cpu-tests: $(patsubst tests/cpu/%.c,$(BUILD)/cpu/%,$(CPU_TESTS))
	@for t in $^; do echo "-- $$t"; $$t || exit 1; done
	@$(CC) $(CFLAGS_C11) -DTILE_DEBUG -Itests/cpu tests/cpu/test_launch.c -o $(BUILD)/cpu/debug_launch -lcmocka -lm
	@$(BUILD)/cpu/debug_launch > /dev/null
	@echo "== CPU tests: ok"

# Promise 1 on the CUDA side: every .cu builds with warnings as errors.
# NVJOBS builds at once (one per core: nvcc is single-threaded); exit 255
# from a build stops xargs at the first failure.
NVJOBS ?= $(shell nproc 2>/dev/null || echo 2)
export NVCC NVFLAGS NVLIBS
$(BUILD)/sm%/.stamp: $(ALL_CU) $(HEADERS)
	@mkdir -p $(BUILD)/sm$*
	@printf '%s\n' $(ALL_CU) | xargs -P $(NVJOBS) -I{} scripts/nvcc-one.sh $* $(FIRST_ARCH) $(BUILD) {}
	@touch $@
cu-compile: $(foreach a,$(ARCHS),$(BUILD)/sm$(a)/.stamp)
	@echo "== nvcc build: ok"

# Promise 2: register-tile kernels use no stack and never spill.
ptxas-check: cu-compile
	@scripts/ptxas-check.sh $(BUILD)/sm90/*.ptxas $(BUILD)/sm80/*.ptxas

# The nvcc build of the GPU tests also runs here: on a machine without a GPU
# it checks the CPU launch path of the CUDA build against the references.
gpu-tests-cpu: cu-compile
	@for t in $(GPU_TESTS); do $(BUILD)/sm90/$$(basename $$t .cu) --cpu-only || exit 1; done

gpu-tests: cu-compile
	@for t in $(GPU_TESTS); do $(BUILD)/sm90/$$(basename $$t .cu) || exit 1; done

bench: cu-compile
	@for b in $(BENCHES); do $(BUILD)/sm90/$$(basename $$b .cu) || exit 1; done

examples: c11
	@for e in $(EXAMPLES); do echo "-- $$e (CPU)"; $(BUILD)/c11/$$(basename $$e .cu) cpu || exit 1; done

run:
	@if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory ARCHS=90 bench; \
	else echo "no GPU here: running the examples on the CPU"; $(MAKE) --no-print-directory examples; fi

clean:
	rm -rf $(BUILD)
