// The CUDA half of a mixed project: the kernel on the GPU (or its CPU target).
#include "consumer.h"
int consumer_cuda_half() { return consumer_run("C++/CUDA consumer, .cu"); }
