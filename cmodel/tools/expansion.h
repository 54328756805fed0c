/* Exact sums of binary64 values (Shewchuk's expansion arithmetic), for the tools that compare a model
 * result with the exact dot-add (study rounding-bias, diff).  Two-sum and the FMA-based two-product are
 * exact in binary64 barring overflow and underflow, so an expansion holds c + sum a_k b_k exactly and
 * its largest component carries the sign of the sum. */
#ifndef MMAREF_EXPANSION_H
#define MMAREF_EXPANSION_H

#include <math.h>

enum { EXPANSION_MAX = 160 };

typedef struct {
    double c[EXPANSION_MAX]; /* nonoverlapping components, increasing magnitude */
    int n;
} expansion;

static inline void expansion_add(expansion *e, double b)
{
    int m = 0;
    double q = b;
    for (int i = 0; i < e->n; i++) {
        double s = q + e->c[i], bv = s - q, err = (q - (s - bv)) + (e->c[i] - bv);
        if (err != 0 && m < EXPANSION_MAX - 1)
            e->c[m++] = err;
        q = s;
    }
    if (q != 0 || m == 0)
        e->c[m++] = q;
    e->n = m;
}

/* Adds x * y exactly (the product and its rounding error). */
static inline void expansion_add_product(expansion *e, double x, double y)
{
    double p = x * y;
    if (!isfinite(p)) {
        expansion_add(e, p);
        return;
    }
    expansion_add(e, fma(x, y, -p));
    expansion_add(e, p);
}

/* The value rounded to binary64 (summed from the smallest component up). */
static inline double expansion_value(const expansion *e)
{
    double s = 0;
    for (int i = 0; i < e->n; i++)
        s += e->c[i];
    return s;
}

#endif
