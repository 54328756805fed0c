/* Directed corner vectors of the M3XU FP32 and FP32C modes (docs/m3xu.md), for the RTL co-simulation:
 * the places where a unit built from 12-bit halves, a 48-bit product register and F_w = 46 truncation
 * can go wrong while random vectors rarely look.  The expected D is always the model's; these only
 * choose operands.  Offered before the library's stream (tb/tb_support.c), on every f32 or f32c
 * instruction of any K (the naive FP32 unit's K = 8 too): an f32 vector fills lanes 0..3 and leaves the
 * rest +0; for f32c the four values of A (and B) are the parts (re0, im0, re1, im1) and C is (c, c),
 * then the complex-only cases follow.
 *   - the paper's check value: a = (1 + 2^-23, -1), b = (1 + 2^-22, 1) -> 2^-22 + 2^-23 + 2^-45;
 *   - carries across the 12-bit split: significands with all-ones halves (0xFFF | 0xFFF), every lane;
 *   - only the low half present (subnormal sig < 2^12, so sig_H = 0) against every kind of B;
 *   - one-ulp cancellation, x*y - x*(y + ulp) = -x*ulp exactly, for halves 0x001, 0xFFF, 0x800,
 *     0x7FF: every partial product shows in the result;
 *   - total cancellation (the sum exactly 0 -> +0, also with C = -0);
 *   - subnormal operands and results, a negative result that rounds to zero (-0), subnormal ties;
 *   - overflow: max + half an ulp (a tie: rounds up to inf), max + a quarter (stays), max * 2;
 *   - RNE ties at 1.0: 1 + 2^-24 (to even: 1), 1 + 2^-23 + 2^-24 (up), a tie with a sticky bit from a
 *     third product, a tie whose would-be sticky bit lies below F_w = 46 and is truncated away;
 *   - f32c: the real part cancelling exactly (steps 0-1) while the imaginary part does not (steps
 *     2-3), inf in an imaginary part (the sign flip makes the real part -inf), inf - inf through C. */
#include <math.h>
#include <string.h>

#include "m3xu_directed.h"

enum { LANES = 4, MAX_VECS = 160 };

typedef struct {
    uint64_t c, a[LANES], b[LANES];
} f32_vec;

static f32_vec vecs[MAX_VECS];
static int nvecs;

/* f32 bits of an exactly representable value (inf and NaN too) */
static uint64_t f32(double x)
{
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* f32 bits from sign, significand (24 bits with the hidden one, or < 2^23 for a subnormal at
 * exponent -126) and exponent: the value (-1)^s sig 2^(e - 23) */
static uint64_t f32_sig(int sign, uint32_t sig, int e)
{
    return f32((sign ? -1.0 : 1.0) * ldexp((double)sig, e - 23));
}

static void add(uint64_t c, const uint64_t a[LANES], const uint64_t b[LANES])
{
    if (nvecs == MAX_VECS)
        return;
    f32_vec *v = &vecs[nvecs++];
    v->c = c;
    memcpy(v->a, a, sizeof v->a);
    memcpy(v->b, b, sizeof v->b);
}

static void build(void)
{
    if (nvecs)
        return;
    const double ulp = ldexp(1, -23), inf = INFINITY;
    /* the paper's check value (issue 9, docs/m3xu.md): 0x34c00001 */
    add(f32(0), (uint64_t[LANES]){f32(1 + ulp), f32(-1)}, (uint64_t[LANES]){f32(1 + 2 * ulp), f32(1)});
    /* carries across the 12-bit split: halves 0xFFF, on every lane; against C = 0, -16, just below 4 */
    static const uint32_t split_sigs[] = {0xFFFFFF, 0xFFF000 | 0xFFF, 0x800FFF, 0xFFF800, 0xFFFFFE};
    for (size_t i = 0; i < sizeof split_sigs / sizeof split_sigs[0]; i++) {
        uint64_t x = f32_sig(0, split_sigs[i], 0), a[LANES] = {x, x, x, x};
        add(f32(0), a, a);
        add(f32(-16), a, a);
        add(f32(4 - ldexp(1, -21)), a, a);
        uint64_t m[LANES] = {x, f32_sig(1, split_sigs[i], 0), x, f32_sig(1, 0xFFFFFF, -1)};
        add(f32(0), m, a);
    }
    /* only the low half: a subnormal with sig < 2^12 has sig_H = 0 */
    static const uint32_t low_sigs[] = {0xFFF, 0x001, 0x800, 0xABC};
    for (size_t i = 0; i < sizeof low_sigs / sizeof low_sigs[0]; i++) {
        uint64_t s = f32_sig(0, low_sigs[i], -126);
        add(f32(0), (uint64_t[LANES]){s, s, s, s},
            (uint64_t[LANES]){f32_sig(0, 0xFFFFFF, 100), f32_sig(0, 0x800FFF, 120), f32(1), f32_sig(1, 0xFFF001, 127)});
        add(f32(0), (uint64_t[LANES]){s}, (uint64_t[LANES]){s});                       /* underflows to 0 */
        add(f32_sig(0, 1, -126), (uint64_t[LANES]){s}, (uint64_t[LANES]){f32(ldexp(1, 126))});
    }
    /* one-ulp cancellation: x*y - x*(y + ulp) = -x*ulp, every partial product in the result */
    static const uint32_t halves[] = {0x001, 0xFFF, 0x800, 0x7FF};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            uint64_t x = f32_sig(0, 0x800000 | halves[i] << 12 | halves[j], 0);
            uint64_t y = f32_sig(0, 0x800000 | halves[j] << 12 | halves[i], 3);
            uint64_t y1 = f32_sig(0, (0x800000 | halves[j] << 12 | halves[i]) + 1, 3);
            add(f32(0), (uint64_t[LANES]){x, x ^ 0x80000000u}, (uint64_t[LANES]){y, y1});
            add(f32(ldexp(1, -40)), (uint64_t[LANES]){0, x, 0, x ^ 0x80000000u}, (uint64_t[LANES]){0, y1, 0, y});
        }
    /* total cancellation: an exactly zero sum is +0, whatever the signs of the zeros */
    {
        uint64_t x = f32_sig(0, 0xABCDEF, 5), y = f32_sig(0, 0x89ABCD, -7);
        add(f32(0), (uint64_t[LANES]){x, x, x, x}, (uint64_t[LANES]){y, y ^ 0x80000000u, y, y ^ 0x80000000u});
        add(f32(-0.0), (uint64_t[LANES]){x, x ^ 0x80000000u}, (uint64_t[LANES]){y, y});
        add(f32(-0.0), (uint64_t[LANES]){f32(-0.0)}, (uint64_t[LANES]){f32(0)});
        uint64_t p = f32(ldexp(1, 10) * (1 + 3 * ulp));
        add(p ^ 0x80000000u, (uint64_t[LANES]){p}, (uint64_t[LANES]){f32(1)});
    }
    /* subnormal results: exact, rounded (ties to even), a negative sum rounding to zero gives -0 */
    add(f32(0), (uint64_t[LANES]){f32(ldexp(1, -70))}, (uint64_t[LANES]){f32(ldexp(1, -70))});
    add(f32(0), (uint64_t[LANES]){f32(ldexp(1.5, -75))}, (uint64_t[LANES]){f32(ldexp(1, -75))});     /* 0.75 ulp: up */
    add(f32(0), (uint64_t[LANES]){f32(ldexp(1, -75))}, (uint64_t[LANES]){f32(ldexp(1, -75))});       /* half: 0 */
    add(f32(0), (uint64_t[LANES]){f32(-ldexp(1, -75))}, (uint64_t[LANES]){f32(ldexp(1, -75))});      /* -0 */
    add(f32(0), (uint64_t[LANES]){f32(-ldexp(1, -80))}, (uint64_t[LANES]){f32(ldexp(1, -80))});      /* -0 */
    add(f32_sig(0, 3, -126), (uint64_t[LANES]){f32(ldexp(1, -75))}, (uint64_t[LANES]){f32(ldexp(1, -75))});  /* 3.5: 4 */
    add(f32_sig(0, 2, -126), (uint64_t[LANES]){f32(ldexp(1, -75))}, (uint64_t[LANES]){f32(ldexp(1, -75))});  /* 2.5: 2 */
    add(f32_sig(1, 0x7FFFFF, -126), (uint64_t[LANES]){f32_sig(0, 1, -126)}, (uint64_t[LANES]){f32(1)});  /* normal - */
    add(f32(0), (uint64_t[LANES]){f32_sig(0, 1, -126), f32_sig(0, 0x7FFFFF, -126)},
        (uint64_t[LANES]){f32(ldexp(1, 60)), f32(ldexp(1, -10))});
    /* overflow with RNE: max + 2^103 is a tie (max's last bit is odd): inf; max + 2^102 stays max */
    {
        uint64_t max = f32_sig(0, 0xFFFFFF, 127);
        add(f32(ldexp(1, 103)), (uint64_t[LANES]){max}, (uint64_t[LANES]){f32(1)});
        add(f32(ldexp(1, 102)), (uint64_t[LANES]){max}, (uint64_t[LANES]){f32(1)});
        add(f32(-ldexp(1, 103)), (uint64_t[LANES]){max ^ 0x80000000u}, (uint64_t[LANES]){f32(1)});
        add(f32(0), (uint64_t[LANES]){max, max}, (uint64_t[LANES]){f32(2), f32(-1)});
        add(max, (uint64_t[LANES]){max, max, max, max}, (uint64_t[LANES]){max, max, max, max});
    }
    /* RNE ties at 1: the sum's bit below f32's last is 1 and nothing lies below it */
    {
        uint64_t h = f32(ldexp(1, -12));
        add(f32(1), (uint64_t[LANES]){h}, (uint64_t[LANES]){h});                                    /* 1 + 2^-24: 1 */
        add(f32(1 + ulp), (uint64_t[LANES]){h}, (uint64_t[LANES]){h});                              /* up */
        add(f32(1), (uint64_t[LANES]){h, f32(ldexp(1, -30))}, (uint64_t[LANES]){h, f32(ldexp(1, -30))});  /* sticky */
        /* 2^-50 lies below the 46 fractional bits kept at e_max = 0: truncated, the tie stays */
        add(f32(1), (uint64_t[LANES]){h, f32(ldexp(1, -25))}, (uint64_t[LANES]){h, f32(ldexp(1, -25))});
        add(f32(-1), (uint64_t[LANES]){h ^ 0x80000000u}, (uint64_t[LANES]){h});                     /* -1 - 2^-24 */
        add(f32(1), (uint64_t[LANES]){f32_sig(0, 0xFFFFFF, -12)}, (uint64_t[LANES]){f32_sig(0, 0xFFFFFF, -12)});
    }
    /* special values on every lane (the library's directed stream has more) */
    for (int l = 0; l < LANES; l++) {
        uint64_t a[LANES] = {f32(1), f32(1), f32(1), f32(1)}, b[LANES] = {f32(1), f32(1), f32(1), f32(1)};
        a[l] = f32(inf);
        add(f32(0), a, b);
        b[l] = f32(0);
        add(f32(0), a, b);  /* inf * 0 */
        b[l] = f32(-2);
        add(f32(inf), a, b);  /* -inf against C = +inf */
        a[l] = 0x7FC00001u;
        add(f32(0), a, b);
    }
}

static int f32_count(void)
{
    build();
    return nvecs;
}

/* The complex-only cases, as (re0, im0, re1, im1) of A and B and (re, im) of C. */
typedef struct {
    double a[LANES], b[LANES], c[2];
} f32c_case;

static const f32c_case complex_cases[] = {
    /* the real part cancels exactly: (x + xi)(y + yi) = 2xyi */
    {{1.5, 1.5, 0x1.fffffep0, 0x1.fffffep0}, {0x1.000002p0, 0x1.000002p0, 3, 3}, {0, 0}},
    {{1.5, 1.5, 0, 0}, {0x1.000002p0, 0x1.000002p0, 0, 0}, {-0.0, -0.0}},
    /* ai = inf: the real part is -(inf) * bi = -inf, the imaginary part inf * br */
    {{0, INFINITY, 0, 0}, {0, 1, 0, 0}, {0, 0}},
    {{0, INFINITY, 0, 0}, {1, 1, 0, 0}, {0, 0}},
    /* cr = +inf against -(ai bi) = -inf: NaN; ci = -inf with ai br = +inf: NaN */
    {{0, INFINITY, 0, 0}, {1, 1, 0, 0}, {INFINITY, -INFINITY}},
    /* the real part's sign flip on a subnormal and on -0 */
    {{0, 0x1p-149, 0, -0.0}, {0, 0x1p-1, 0, 1}, {0, 0}},
};

int m3xu_directed_count(const mmaref_instr *in)
{
    if (in->a == MMAREF_F32)
        return f32_count();
    if (in->a == MMAREF_F32C)
        return f32_count() + (int)(sizeof complex_cases / sizeof complex_cases[0]);
    return 0;
}

int m3xu_directed_vector(const mmaref_instr *in, uint64_t idx, uint64_t *c, uint64_t *a, uint64_t *b)
{
    if (idx >= (uint64_t)m3xu_directed_count(in))
        return 0;
    for (int i = 0; i < in->k; i++)
        a[i] = b[i] = 0;
    if (in->a == MMAREF_F32) {
        const f32_vec *v = &vecs[idx];
        *c = v->c;
        for (int i = 0; i < LANES && i < in->k; i++)
            a[i] = v->a[i], b[i] = v->b[i];
        return 1;
    }
    /* f32c: the parts of the (up to) two complex lanes */
    uint64_t pa[LANES], pb[LANES], pc[2];
    if (idx < (uint64_t)nvecs) {
        const f32_vec *v = &vecs[idx];
        memcpy(pa, v->a, sizeof pa);
        memcpy(pb, v->b, sizeof pb);
        pc[0] = pc[1] = v->c;
    } else {
        const f32c_case *x = &complex_cases[idx - (uint64_t)nvecs];
        for (int i = 0; i < LANES; i++)
            pa[i] = f32(x->a[i]), pb[i] = f32(x->b[i]);
        pc[0] = f32(x->c[0]), pc[1] = f32(x->c[1]);
    }
    for (int j = 0; j < LANES / 2 && j < in->k; j++) {
        a[j] = pa[2 * j] | pa[2 * j + 1] << 32;
        b[j] = pb[2 * j] | pb[2 * j + 1] << 32;
    }
    *c = pc[0] | pc[1] << 32;
    return 1;
}
