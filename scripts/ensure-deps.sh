#!/usr/bin/env bash
# Find or install what the tests need beyond the CUDA toolkit: cmocka, g++
# (host C++ build), cmake (consumer projects).
set -e
have_cmocka() { echo '#include <cmocka.h>' | ${CC:-gcc} -E -x c - -include stdarg.h -include stddef.h -include setjmp.h >/dev/null 2>&1; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
install() { # Debian package names
  echo "$1 not found: installing Debian's $2"
  command -v apt-get >/dev/null || return 1
  $SUDO apt-get install -y $2 >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y $2 >/dev/null; }
}
if ! have_cmocka; then install cmocka libcmocka-dev || true; fi
have_cmocka || { echo "error: cmocka is missing and could not be installed (apt-get install libcmocka-dev)"; exit 1; }
if ! command -v g++ >/dev/null; then install g++ g++ || true; fi
command -v g++ >/dev/null || { echo "error: g++ is missing (apt-get install g++)"; exit 1; }
if ! command -v cmake >/dev/null; then install cmake cmake || true; fi
command -v cmake >/dev/null || { echo "error: cmake is missing (apt-get install cmake)"; exit 1; }
