/* The README's "From C" example as a whole program, built against an installed mmaref (README,
 * "Installing"): one dot-add of Hopper's HMMA.16816.F32, d = c + a[0]*b[0] = 1 + 1*1 = 2, f32 0x40000000. */
#include <stdio.h>
#include <mmaref.h>

int main(void)
{
    mmaref_instr in;
    char msg[512];
    uint64_t a[16] = {0x3c00}, b[16] = {0x3c00}, d; /* f16 1.0 in lane 0, +0 in the others */
    if (mmaref_lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32", &in, msg, sizeof msg) ||
        mmaref_dot(&in, 0x3f800000 /* f32 1.0 */, a, b, NULL, NULL, &d, msg, sizeof msg)) {
        fprintf(stderr, "dot: %s\n", msg);
        return 1;
    }
    printf("0x%08llx\n", (unsigned long long)d);
    return 0;
}
