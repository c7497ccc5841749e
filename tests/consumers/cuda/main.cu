// CUDA only (no CMAKE_CUDA_STANDARD here: tile::tile asks for cuda_std_17).
#include "consumer.h"
int main() { return consumer_run("CUDA consumer"); }
