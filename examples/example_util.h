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
#endif
