/* libFuzzer: the .npy reader (cmodel/tools/npy.c, what `mmaref mma --a/--b/--c` reads) on arbitrary
 * bytes, given to npy_read as a file (a memfd, opened through /proc/self/fd).
 * Invariants:
 *   - a refusal is a non-empty one-line message and leaves the array empty (no data, count 0);
 *   - an accepted array has a supported dtype ("|u1" "<u2" "<u4" "<u8" "<f2" "<f4" "<f8", kind and
 *     itemsize agreeing with it), at most NPY_MAX_NDIM dimensions, count = the product of its shape,
 *     and the file is exactly the preamble, the header its length field declares and count * itemsize
 *     data bytes; every element is the little-endian value of its bytes in the file (read here from
 *     the input, independently of the reader);
 *   - npy_write of the array, read back, gives the same dtype, shape and elements. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "npy.h"

static int fd = -1;
static char fd_path[64], roundtrip_dir[64], roundtrip_path[128];

static void remove_roundtrip(void)
{
    unlink(roundtrip_path);
    rmdir(roundtrip_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fd = memfd_create("fuzz_npy", 0);
    if (fd < 0)
        abort();
    snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", fd);
    snprintf(roundtrip_dir, sizeof roundtrip_dir, "/tmp/fuzz_npy.XXXXXX");
    if (!mkdtemp(roundtrip_dir))
        abort();
    snprintf(roundtrip_path, sizeof roundtrip_path, "%s/roundtrip.npy", roundtrip_dir);
    atexit(remove_roundtrip);
    return 0;
}

static void check_refusal(const char *err, const npy_array *arr)
{
    FUZZ_CHECK(err[0] && !strchr(err, '\n'), "npy_read refusal message empty or of two lines: '%s'", err);
    FUZZ_CHECK(!arr->data && !arr->count, "npy_read refused ('%s') but left %zu elements", err, arr->count);
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void check_array(const uint8_t *file, size_t size, const npy_array *arr)
{
    static const char *const dtypes[] = {"|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8"};
    int known = 0;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        known |= !strcmp(arr->descr, dtypes[i]);
    FUZZ_CHECK(known && arr->kind == arr->descr[1] && arr->itemsize == arr->descr[2] - '0',
               "dtype '%s' kind '%c' itemsize %d", arr->descr, arr->kind, arr->itemsize);
    FUZZ_CHECK(arr->ndim >= 0 && arr->ndim <= NPY_MAX_NDIM, "ndim %d", arr->ndim);
    uint64_t count = 1;
    for (int i = 0; i < arr->ndim; i++)
        FUZZ_CHECK(!__builtin_mul_overflow(count, arr->shape[i], &count), "shape product overflows");
    FUZZ_CHECK(count == arr->count, "count %zu, shape product %llu", arr->count, (unsigned long long)count);

    /* the file's own layout: magic (6), version (2), header length (2 bytes in v1, 4 in v2), header */
    size_t pre = file[6] == 1 ? 10 : 12;
    FUZZ_CHECK(size >= pre, "accepted a file of %zu bytes", size);
    uint64_t data_at = pre + le(file + 8, (int)pre - 8);
    FUZZ_CHECK(data_at <= size && size - data_at == count * (uint64_t)arr->itemsize,
               "file of %zu bytes, data from %llu, %zu elements of %d bytes", size, (unsigned long long)data_at,
               arr->count, arr->itemsize);
    for (size_t i = 0; i < arr->count; i++) {
        uint64_t want = le(file + data_at + i * arr->itemsize, arr->itemsize);
        FUZZ_CHECK(arr->data[i] == want, "element %zu is 0x%llx, the file has 0x%llx", i,
                   (unsigned long long)arr->data[i], (unsigned long long)want);
    }
}

static void check_roundtrip(const npy_array *arr)
{
    char err[512] = "";
    npy_array back;
    FUZZ_CHECK(!npy_write(roundtrip_path, arr->kind, arr->itemsize, arr->ndim, arr->shape, arr->data, err, sizeof err),
               "npy_write of an array npy_read accepted fails: %s", err);
    FUZZ_CHECK(!npy_read(roundtrip_path, &back, err, sizeof err), "npy_write's file is refused: %s", err);
    FUZZ_CHECK(!strcmp(back.descr, arr->descr) && back.ndim == arr->ndim && back.count == arr->count &&
                   !memcmp(back.shape, arr->shape, arr->ndim * sizeof arr->shape[0]) &&
                   (!arr->count || !memcmp(back.data, arr->data, arr->count * sizeof arr->data[0])),
               "written and read back, the array differs (%s vs %s)", back.descr, arr->descr);
    npy_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        abort();
    char err[512] = "";
    npy_array arr;
    if (npy_read(fd_path, &arr, err, sizeof err)) {
        check_refusal(err, &arr);
        return 0;
    }
    check_array(data, size, &arr);
    check_roundtrip(&arr);
    npy_free(&arr);
    return 0;
}
