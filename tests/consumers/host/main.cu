// A host-API consumer: C = A B (2 x 2) on the GPU when there is one (cuBLAS),
// and on the CPU; tile_host_release references cuSOLVER and cuFFT too, so the
// link needs all three libraries of tile::host.
#include <stdio.h>
#include <tile/host.h>

static int gemm_on(tile_exec ex) {
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, want[4] = {19, 22, 43, 50};
    float c[4] = {0, 0, 0, 0};
    float *da = (float *)tile_alloc(ex, sizeof a), *db = (float *)tile_alloc(ex, sizeof b);
    float *dc = (float *)tile_alloc(ex, sizeof c);
    int err = (!da || !db || !dc) ? TILE_ERR_NOMEM : TILE_OK;
    if (!err) err = tile_copy_to(ex, da, a, sizeof a);
    if (!err) err = tile_copy_to(ex, db, b, sizeof b);
    if (!err) err = tile_gemm_f32(ex, TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, da, 2, db, 2, 0.0f, dc, 2);
    if (!err) err = tile_synchronize(ex);
    if (!err) err = tile_copy_from(ex, c, dc, sizeof c);
    tile_free(ex, da), tile_free(ex, db), tile_free(ex, dc);
    for (int i = 0; i < 4 && !err; ++i)
        if (c[i] != want[i]) err = TILE_ERR_ARG;
    printf("host consumer: gemm on %s: %s\n", ex.device < 0 ? "cpu" : "gpu", err ? tile_error_string(err) : "ok");
    return err;
}

int main() {
    int err = gemm_on(tile_cpu());
    if (tile_gpu_count()) err |= gemm_on(tile_gpu(0));
    tile_host_release();
    return err ? 1 : 0;
}
