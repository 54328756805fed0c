/* The table of a build without the generated kernels (fast.h): the browser page, the sanitizer and
 * fuzzing builds, the generator itself.  Every batch then takes the reference path.  The library the
 * Makefile builds links build/gen/fast_kernels.c's table instead. */
#include "fast.h"

const fast_entry *const fast_table[] = {NULL};
const size_t fast_table_count = 0;
