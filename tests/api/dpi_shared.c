/* The shared DPI library (build/dpi/libmmaref_dpi.so, `make dpi-shared`) as a simulator that loads DPI
 * libraries at run time uses it: dlopen, then look the bridge's functions up by name.  Checks the
 * MMA-Sim paper's precision case through the packed-vector entry point (no svdpi.h call on that path):
 * Hopper mma.m16n8k8.f32.f16.f16.f32, c = 1.0, four products 2^-12 * 2^-13 = 2^-25 -> 1 + 2^-23
 * (F = 25 keeps every product; docs/algorithms.md).  Prints "dpi shared: ok" or why not; exit 0/1. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int lookup_fn(const char *arch, const char *name);
typedef int dot_fn(int h, unsigned int c, const uint32_t *a, const uint32_t *b, const uint32_t *sa,
                   const uint32_t *sb, unsigned int *d);

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "build/dpi/libmmaref_dpi.so";
    void *so = dlopen(path, RTLD_LAZY | RTLD_LOCAL); /* lazy: the open-array calls need the simulator's sv* */
    if (!so) {
        printf("dpi shared: dlopen %s: %s\n", path, dlerror());
        return 1;
    }
    lookup_fn *lookup = (lookup_fn *)dlsym(so, "mmaref_dpi_lookup");
    dot_fn *dot = (dot_fn *)dlsym(so, "mmaref_dpi_dot");
    if (!lookup || !dot) {
        printf("dpi shared: mmaref_dpi_lookup or mmaref_dpi_dot not exported\n");
        return 1;
    }
    int h = lookup("hopper", "mma.m16n8k8.f32.f16.f16.f32");
    uint32_t a[64] = {0x0c00, 0x0c00, 0x0c00, 0x0c00}, b[64] = {0x0800, 0x0800, 0x0800, 0x0800}, none[8] = {0};
    unsigned int d = 0;
    int st = h >= 0 ? dot(h, 0x3f800000u, a, b, none, none, &d) : -1;
    if (st != 0 || d != 0x3f800001u) {
        printf("dpi shared: handle %d, status %d, d = 0x%08x (want 0x3f800001)\n", h, st, d);
        return 1;
    }
    printf("dpi shared: ok (hopper precision case 0x%08x)\n", d);
    return 0;
}
