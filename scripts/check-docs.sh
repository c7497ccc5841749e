#!/bin/sh
# Docs check (make docs-check, part of make test): every TILE_* macro or
# constant that README.md or docs/*.md names must be defined in include/
# (a #define, or an enum constant) or, for a user switch such as TILE_DEBUG,
# tested there (#ifdef, defined(...)), or be a CMake option of CMakeLists.txt. Names that are planned but not built yet
# may appear only if listed in PLANNED below and marked "planned" on the
# docs line that names them.
set -eu
cd "$(dirname "$0")/.."
PLANNED=""
fail=0
for doc in README.md docs/*.md; do
    [ -f "$doc" ] || continue
    for name in $(grep -ohE '\bTILE_[A-Za-z0-9_]*[A-Za-z0-9]\b' "$doc" | sort -u); do
        case $name in TILE__*) continue ;; esac # private names: not promised
        if grep -rqE "^[[:space:]]*#[[:space:]]*(define|ifdef|ifndef)[[:space:]]+$name\b|defined[[:space:]]*\(?[[:space:]]*$name\b|\b$name[[:space:]]*(=[^=]|,|$)" include/; then
            continue
        fi
        # a CMake option of this project
        grep -qE "option\($name\b" CMakeLists.txt && continue
        planned=0
        for p in $PLANNED; do [ "$p" = "$name" ] && planned=1; done
        if [ $planned = 1 ] && grep -E "\b$name\b" "$doc" | grep -qi planned; then continue; fi
        echo "check-docs: $doc names $name, which include/ does not define$([ $planned = 1 ] && echo ' (planned: say so on that line)')"
        grep -nE "\b$name\b" "$doc" | head -3 | sed 's/^/    /'
        fail=1
    done
done
[ $fail = 0 ] && echo "== docs name only macros that exist: ok"
exit $fail
