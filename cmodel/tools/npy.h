/* A small reader/writer of NumPy's .npy format (format.py in NumPy; "NPY format" v1.0 and v2.0).
 *
 * File layout: the magic "\x93NUMPY", a major and a minor version byte, the header length (2 bytes
 * little-endian in v1.0, 4 bytes in v2.0), the header (a Python dict literal
 * "{'descr': '<u2', 'fortran_order': False, 'shape': (16, 8), }" padded with spaces and ending in '\n'),
 * then the raw element bytes.
 *
 * Only plain numeric arrays are handled: little-endian unsigned integers (u1, u2, u4, u8), floats
 * (f2, f4, f8) and complex64 (c8: the real f32 in the low 4 bytes, the imaginary in the high 4), in C order.  Elements travel as uint64_t holding each item's bytes (bits, not values),
 * which is exactly what mmaref's bits-in, bits-out interface wants.  No dependency beyond libc. */
#ifndef MMAREF_NPY_H
#define MMAREF_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_NDIM 32

typedef struct {
    char descr[16];               /* normalised dtype, e.g. "<u2", "<f4" ("|u1" for single bytes) */
    char kind;                    /* 'u' (unsigned integer), 'f' (IEEE float) or 'c' (complex64) */
    int itemsize;                 /* bytes per element: 1, 2, 4 or 8 */
    int ndim;
    uint64_t shape[NPY_MAX_NDIM];
    size_t count;                 /* number of elements (product of shape) */
    uint64_t *data;               /* count elements, each item's bytes read as a little-endian integer */
} npy_array;

/* Read a whole .npy file.  On error returns nonzero and writes a one-line message (without the file
 * name; the caller adds it) into err; arr is then empty and needs no npy_free. */
int npy_read(const char *path, npy_array *arr, char *err, size_t errlen);

/* As npy_read, but an array whose shape is not want_shape (want_ndim dimensions) is refused from its
 * header alone, before its data is sized or read: returns NPY_ERR_SHAPE with arr->ndim and arr->shape
 * holding the file's shape (no data; npy_free is harmless).  want_ndim < 0 accepts any shape.  A
 * regular file's size must match its shape before anything is allocated. */
enum { NPY_ERR_SHAPE = 2 };
int npy_read_shaped(const char *path, int want_ndim, const uint64_t *want_shape, npy_array *arr, char *err,
                    size_t errlen);

void npy_free(npy_array *arr);

/* "(16, 8)" / "(5,)" / "()" as Python writes a shape tuple. */
void npy_shape_str(char *buf, size_t cap, int ndim, const uint64_t *shape);

/* Write data (count = product of shape elements, the low itemsize bytes of each) as a C-order
 * little-endian array of kind 'u' or 'f' and itemsize 1, 2, 4 or 8.  The header is v1.0 (v2.0 only if
 * it would not fit in 65535 bytes), padded with spaces so that the data starts at a multiple of 64
 * bytes, ending in '\n'.  A regular file (or a new one) is written to a temporary file in the same
 * directory and renamed into place only when every byte is written, so a failed write leaves what was
 * there untouched; a symbolic link is followed, a dangling one refused; anything else (a device, a pipe)
 * is written directly and never removed (outfile.h).  On error
 * returns nonzero with a message in err. */
int npy_write(const char *path, char kind, int itemsize, int ndim, const uint64_t *shape, const uint64_t *data,
              char *err, size_t errlen);

#endif
