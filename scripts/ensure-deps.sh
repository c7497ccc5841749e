#!/usr/bin/env bash
# Find or install what the tests need beyond the CUDA toolkit: cmocka.
set -e
have_cmocka() { echo '#include <cmocka.h>' | ${CC:-gcc} -E -x c - -include stdarg.h -include stddef.h -include setjmp.h >/dev/null 2>&1; }
if have_cmocka; then exit 0; fi
echo "cmocka not found: installing Debian's libcmocka-dev"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
if command -v apt-get >/dev/null; then
  $SUDO apt-get install -y libcmocka-dev >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y libcmocka-dev >/dev/null; }
fi
have_cmocka || { echo "error: cmocka is missing and could not be installed (apt-get install libcmocka-dev)"; exit 1; }
