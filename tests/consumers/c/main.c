#include "consumer.h"
int main(void) { return consumer_run("C consumer"); }
