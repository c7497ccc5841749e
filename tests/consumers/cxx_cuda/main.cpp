// The C++ half: the same header in a host C++ translation unit of the same
// program (every tile.h function is static: no clash with kernel.cu's).
#include "consumer.h"
int consumer_cuda_half();
int main() { return consumer_run("C++/CUDA consumer, .cpp") | consumer_cuda_half(); }
