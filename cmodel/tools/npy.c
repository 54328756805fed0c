/* A small reader/writer of NumPy's .npy format; see npy.h. */
#include "npy.h"
#include "outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* The largest array read, and the longest header accepted (NumPy itself refuses headers over 10000
 * bytes unless told otherwise). */
#define NPY_MAX_DATA_BYTES ((uint64_t)1 << 31)
#define NPY_MAX_HEADER_BYTES (1u << 20)

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 1;
}

void npy_shape_str(char *buf, size_t cap, int ndim, const uint64_t *shape)
{
    size_t n = 0;
    n += snprintf(buf + n, n < cap ? cap - n : 0, "(");
    for (int i = 0; i < ndim; i++)
        n += snprintf(buf + n, n < cap ? cap - n : 0, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
    snprintf(buf + n, n < cap ? cap - n : 0, ndim == 1 ? ",)" : ")");
}

/* ---- header: a Python dict literal with the keys descr, fortran_order and shape ---- */

typedef struct {
    const char *p, *end;
} cursor;

static void skip_blanks(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int eat(cursor *c, char ch)
{
    skip_blanks(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

static int peek(cursor *c, char ch)
{
    skip_blanks(c);
    return c->p < c->end && *c->p == ch;
}

/* A quoted Python string of printable ASCII without escapes ('<u2', "shape"). */
static int parse_string(cursor *c, char *out, size_t cap)
{
    skip_blanks(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return 1;
    char quote = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != quote) {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '\\' || ch < 0x20 || ch > 0x7e || n + 1 >= cap) /* printable ASCII: safe in messages */
            return 1;
        out[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return 1;
    c->p++;
    out[n] = 0;
    return 0;
}

static int parse_word(cursor *c, const char *word)
{
    skip_blanks(c);
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, word, n)) {
        c->p += n;
        return 1;
    }
    return 0;
}

/* "(16, 8)", "(5,)", "()"; Python 2 wrote "16L". */
static int parse_shape(cursor *c, int *ndim, uint64_t *shape, char *err, size_t errlen)
{
    if (!eat(c, '('))
        return fail(err, errlen, "header 'shape' is not a tuple");
    *ndim = 0;
    while (!eat(c, ')')) {
        skip_blanks(c);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return fail(err, errlen, "header 'shape' is not a tuple of non-negative integers");
        /* a Python integer literal: no leading zeros ("016" is a syntax error to NumPy) */
        if (*c->p == '0' && c->p + 1 < c->end && c->p[1] >= '0' && c->p[1] <= '9')
            return fail(err, errlen, "header 'shape' has an integer with a leading zero");
        uint64_t v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (UINT64_MAX - 9) / 10)
                return fail(err, errlen, "header 'shape' has a dimension too large");
            v = v * 10 + (uint64_t)(*c->p++ - '0');
        }
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
            c->p++;
        if (*ndim >= NPY_MAX_NDIM)
            return fail(err, errlen, "header 'shape' has more than %d dimensions", NPY_MAX_NDIM);
        shape[(*ndim)++] = v;
        if (!eat(c, ',') && !peek(c, ')'))
            return fail(err, errlen, "header 'shape' is not a tuple of non-negative integers");
    }
    return 0;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* Check a dtype string and normalise it: little-endian (or single-byte) u1/u2/u4/u8/f2/f4/f8. */
static int parse_descr(const char *descr, npy_array *arr, char *err, size_t errlen)
{
    const char *hint = "supported: unsigned raw bits <u1 <u2 <u4 <u8, floats <f2 <f4 <f8, or complex64 <c8";
    char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return fail(err, errlen, "dtype '%s' is not supported (%s)", descr, hint);
    char kind = descr[1];
    char *end;
    errno = 0;
    long size = kind ? strtol(descr + 2, &end, 10) : 0;
    int known = kind && descr[2] >= '1' && descr[2] <= '9' && !*end && !errno &&
                ((kind == 'u' && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                 (kind == 'f' && (size == 2 || size == 4 || size == 8)) || (kind == 'c' && size == 8));
    if (!known)
        return fail(err, errlen, "dtype '%s' is not supported (%s)", descr, hint);
    int big = order == '>' || (order == '=' && !host_is_little_endian());
    if (big && size > 1)
        return fail(err, errlen, "dtype '%s' is big-endian; save it little-endian (.astype('<%c%ld'))", descr,
                    kind, size);
    arr->kind = kind;
    arr->itemsize = (int)size;
    snprintf(arr->descr, sizeof arr->descr, "%c%c%ld", size == 1 ? '|' : '<', kind, size);
    return 0;
}

static int parse_header(const char *text, size_t len, npy_array *arr, char *err, size_t errlen)
{
    cursor c = {text, text + len};
    int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0;
    char descr[64] = "";
    if (!eat(&c, '{'))
        return fail(err, errlen, "header is not a Python dict");
    while (!eat(&c, '}')) {
        char key[64];
        if (parse_string(&c, key, sizeof key) || !eat(&c, ':'))
            return fail(err, errlen, "header is not a dict of quoted keys");
        if (!strcmp(key, "descr")) {
            if (have_descr++)
                return fail(err, errlen, "header has 'descr' twice");
            if (peek(&c, '['))
                return fail(err, errlen, "structured dtype is not supported (need a plain numeric array)");
            if (parse_string(&c, descr, sizeof descr))
                return fail(err, errlen, "header 'descr' is not a dtype string");
        } else if (!strcmp(key, "fortran_order")) {
            if (have_fortran++)
                return fail(err, errlen, "header has 'fortran_order' twice");
            if (parse_word(&c, "True"))
                fortran = 1;
            else if (!parse_word(&c, "False"))
                return fail(err, errlen, "header 'fortran_order' is neither True nor False");
        } else if (!strcmp(key, "shape")) {
            if (have_shape++)
                return fail(err, errlen, "header has 'shape' twice");
            if (parse_shape(&c, &arr->ndim, arr->shape, err, errlen))
                return 1;
        } else {
            return fail(err, errlen, "header has an unexpected key '%s'", key);
        }
        if (!eat(&c, ',') && !peek(&c, '}'))
            return fail(err, errlen, "header is not a well-formed dict");
    }
    skip_blanks(&c);
    if (c.p != c.end)
        return fail(err, errlen, "header has text after the dict");
    if (!have_descr || !have_fortran || !have_shape)
        return fail(err, errlen, "header lacks '%s'", !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
    if (fortran)
        return fail(err, errlen, "array is in Fortran order; only C order is read (save np.ascontiguousarray(x))");
    return parse_descr(descr, arr, err, errlen);
}

/* ---- reading ---- */

static uint64_t load_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Number of elements and data bytes of the shape, refusing what would not fit in memory. */
static int data_size(npy_array *arr, uint64_t *bytes, char *err, size_t errlen)
{
    uint64_t count = 1;
    for (int i = 0; i < arr->ndim; i++) {
        if (arr->shape[i] && count > NPY_MAX_DATA_BYTES / arr->shape[i])
            return fail(err, errlen, "array is larger than mmaref reads (2 GiB)");
        count *= arr->shape[i];
    }
    if (count * (uint64_t)arr->itemsize > NPY_MAX_DATA_BYTES)
        return fail(err, errlen, "array is larger than mmaref reads (2 GiB)");
    arr->count = (size_t)count;
    *bytes = count * (uint64_t)arr->itemsize;
    return 0;
}

/* The data bytes: a regular file's size is checked against the shape before anything is allocated; a
 * pipe is read in growing chunks, so memory follows what really arrives, not what the header claims. */
static int read_data(FILE *f, const npy_array *arr, uint64_t bytes, unsigned char **raw, char *err, size_t errlen)
{
    char shp[64 + 24 * NPY_MAX_NDIM];
    npy_shape_str(shp, sizeof shp, arr->ndim, arr->shape);
    struct stat st;
    long pos = ftell(f);
    if (pos >= 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t have = st.st_size > pos ? (uint64_t)(st.st_size - pos) : 0;
        if (have < bytes)
            return fail(err, errlen, "truncated: shape %s %s needs %llu data bytes, the file has %llu", shp,
                        arr->descr, (unsigned long long)bytes, (unsigned long long)have);
        if (have > bytes)
            return fail(err, errlen, "has bytes after the data of shape %s %s (%llu bytes)", shp, arr->descr,
                        (unsigned long long)bytes);
    }
    uint64_t got = 0, cap = 0;
    unsigned char *buf = NULL;
    while (got < bytes) {
        if (got == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            if (cap > bytes)
                cap = bytes;
            unsigned char *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                return fail(err, errlen, "out of memory");
            }
            buf = grown;
        }
        size_t n = fread(buf + got, 1, cap - got, f);
        if (n == 0)
            break;
        got += n;
    }
    int extra = got == bytes && fgetc(f) != EOF;
    if (got != bytes || extra) {
        free(buf);
        if (extra)
            return fail(err, errlen, "has bytes after the data of shape %s %s (%llu bytes)", shp, arr->descr,
                        (unsigned long long)bytes);
        return fail(err, errlen, "truncated: shape %s %s needs %llu data bytes, the file has %llu", shp, arr->descr,
                    (unsigned long long)bytes, (unsigned long long)got);
    }
    *raw = buf;
    return 0;
}

static int same_shape(const npy_array *arr, int want_ndim, const uint64_t *want_shape)
{
    if (arr->ndim != want_ndim)
        return 0;
    for (int i = 0; i < want_ndim; i++)
        if (arr->shape[i] != want_shape[i])
            return 0;
    return 1;
}

static int read_file(FILE *f, npy_array *arr, int want_ndim, const uint64_t *want_shape, char *err, size_t errlen)
{
    unsigned char pre[12];
    size_t got = fread(pre, 1, 8, f);
    if (got < 6 || memcmp(pre, npy_magic, 6))
        return fail(err, errlen, "not an NPY file (no \\x93NUMPY magic)");
    if (got < 8)
        return fail(err, errlen, "truncated NPY file (ends inside the preamble)");
    int major = pre[6], minor = pre[7];
    if ((major != 1 && major != 2) || minor != 0)
        return fail(err, errlen, "unsupported NPY version %d.%d (mmaref reads 1.0 and 2.0)", major, minor);
    int lenbytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lenbytes, f) != (size_t)lenbytes)
        return fail(err, errlen, "truncated NPY file (ends inside the preamble)");
    uint64_t hlen = load_le(pre + 8, lenbytes);
    if (hlen > NPY_MAX_HEADER_BYTES)
        return fail(err, errlen, "header length %llu is implausible", (unsigned long long)hlen);
    char *header = malloc(hlen + 1);
    if (!header)
        return fail(err, errlen, "out of memory");
    if (fread(header, 1, hlen, f) != hlen) {
        free(header);
        return fail(err, errlen, "truncated NPY file (ends inside the %llu-byte header)", (unsigned long long)hlen);
    }
    header[hlen] = 0;
    if (memchr(header, 0, hlen)) {
        free(header);
        return fail(err, errlen, "header contains a NUL byte");
    }
    int bad = parse_header(header, hlen, arr, err, errlen);
    free(header);
    if (bad)
        return 1;
    /* the shape the caller needs is checked before the data is sized, allocated or read */
    if (want_ndim >= 0 && !same_shape(arr, want_ndim, want_shape)) {
        fail(err, errlen, "shape mismatch");
        return NPY_ERR_SHAPE;
    }
    uint64_t bytes = 0;
    unsigned char *raw = NULL;
    if (data_size(arr, &bytes, err, errlen) || read_data(f, arr, bytes, &raw, err, errlen))
        return 1;
    arr->data = malloc(arr->count ? arr->count * sizeof *arr->data : 1);
    if (!arr->data) {
        free(raw);
        return fail(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < arr->count; i++)
        arr->data[i] = load_le(raw + i * arr->itemsize, arr->itemsize);
    free(raw);
    return 0;
}

int npy_read_shaped(const char *path, int want_ndim, const uint64_t *want_shape, npy_array *arr, char *err,
                    size_t errlen)
{
    memset(arr, 0, sizeof *arr);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, errlen, "cannot open: %s", strerror(errno));
    int bad = read_file(f, arr, want_ndim, want_shape, err, errlen);
    if (!bad && ferror(f))
        bad = fail(err, errlen, "read error: %s", strerror(errno));
    fclose(f);
    if (bad == NPY_ERR_SHAPE) { /* keep the file's shape for the caller's message */
        free(arr->data);
        arr->data = NULL;
    } else if (bad) {
        npy_free(arr);
    }
    return bad;
}

int npy_read(const char *path, npy_array *arr, char *err, size_t errlen)
{
    return npy_read_shaped(path, -1, NULL, arr, err, errlen);
}

void npy_free(npy_array *arr)
{
    free(arr->data);
    memset(arr, 0, sizeof *arr);
}

/* ---- writing ---- */

static void store_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* Write two buffers to path, through outfile.h: the file is replaced only when every byte is written. */
static int write_replacing(const char *path, const void *p1, size_t n1, const void *p2, size_t n2, char *err,
                           size_t errlen)
{
    out_file o;
    if (out_file_open(&o, path, err, errlen))
        return 1;
    errno = 0;
    if (fwrite(p1, 1, n1, o.f) != n1 || fwrite(p2, 1, n2, o.f) != n2) {
        int saved = errno;
        out_file_abandon(&o);
        return fail(err, errlen, "write error: %s", saved ? strerror(saved) : "write failed");
    }
    return out_file_commit(&o, err, errlen);
}

int npy_write(const char *path, char kind, int itemsize, int ndim, const uint64_t *shape, const uint64_t *data,
              char *err, size_t errlen)
{
    if (!((kind == 'u' && (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8)) ||
          (kind == 'f' && (itemsize == 2 || itemsize == 4 || itemsize == 8)) || (kind == 'c' && itemsize == 8)) ||
        ndim < 0 || ndim > NPY_MAX_NDIM)
        return fail(err, errlen, "npy_write: unsupported dtype or rank");
    uint64_t count = 1;
    for (int i = 0; i < ndim; i++)
        count *= shape[i];

    /* dict, then spaces, then '\n', so that magic + version + length + header is a multiple of 64 */
    char shp[64 + 24 * NPY_MAX_NDIM], dict[256 + sizeof shp];
    npy_shape_str(shp, sizeof shp, ndim, shape);
    int dlen = snprintf(dict, sizeof dict, "{'descr': '%c%c%d', 'fortran_order': False, 'shape': %s, }",
                        itemsize == 1 ? '|' : '<', kind, itemsize, shp);
    int major = 1;
    size_t pre = 10;
    size_t total = (pre + (size_t)dlen + 1 + 63) / 64 * 64;
    if (total - pre > 65535) { /* v2.0: 4-byte header length */
        major = 2, pre = 12;
        total = (pre + (size_t)dlen + 1 + 63) / 64 * 64;
    }
    size_t hlen = total - pre;
    unsigned char *head = malloc(total);
    unsigned char *raw = malloc(count ? count * itemsize : 1);
    if (!head || !raw) {
        free(head), free(raw);
        return fail(err, errlen, "out of memory");
    }
    memcpy(head, npy_magic, 6);
    head[6] = (unsigned char)major, head[7] = 0;
    store_le(head + 8, hlen, major == 1 ? 2 : 4);
    memcpy(head + pre, dict, dlen);
    memset(head + pre + dlen, ' ', hlen - dlen - 1);
    head[total - 1] = '\n';
    for (uint64_t i = 0; i < count; i++)
        store_le(raw + i * itemsize, data[i], itemsize);

    int bad = write_replacing(path, head, total, raw, (size_t)count * itemsize, err, errlen);
    free(head), free(raw);
    return bad;
}
