/* Shared by the examples: pick the target (GPU 0 when there is one and the
 * first argument is not "cpu") and report errors without exiting silently. */
#ifndef EXAMPLE_UTIL_H
#define EXAMPLE_UTIL_H
#include <stdio.h>
#include <string.h>
#include <tile.h>

static tile_exec example_target(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "cpu") == 0) return TILE_CPU;
    return tile_gpu_count() > 0 ? TILE_GPU(0) : TILE_CPU;
}
static int example_check(int err, const char *what) {
    if (err) fprintf(stderr, "%s: %s\n", what, tile_error_string(err));
    return err;
}
static inline const char *example_target_name(tile_exec ex) { return ex.device < 0 ? "CPU" : "GPU"; }
/* The last line of every example: what the right answer is and whether the
 * run produced it; the return value is the program's exit status. On stderr,
 * like the line saying what an example computes: stdout keeps the result
 * lines the examples' comments promise (tests/cpu/test_examples.c compares
 * them). */
static inline int example_verdict(int ok, const char *expected) {
    fflush(stdout);
    fprintf(stderr, "expected %s: %s\n", expected, ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
#endif
