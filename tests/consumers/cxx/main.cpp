// A host C++ program (no CUDA): the CPU target through the C++ overloads.
#include "consumer.h"
int main() { return consumer_run("C++ consumer"); }
