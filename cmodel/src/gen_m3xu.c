/* The directed corners of the M3XU kind (docs/m3xu.md), beside algo_m3xu.c: gen.c's families
 * gen_split_halves (offered to every f32 instruction, the M3XU check value first) and gen_complex_parts
 * (a complex instruction's own corners).  Written against gen.c's enumeration (gen_internal.h). */
#include <math.h>

#include "gen_internal.h"

/* Corners of units that split f32 significands into halves (M3XU, docs/m3xu.md).
 * An M3XU-style unit forms each f32 product from the 12-bit halves of the 24-bit significands (hardware:
 * 12-bit multipliers), keeps the partial products in a 48-bit register and aligns them to e_max with
 * F_w = 46 truncation; random vectors rarely reach where such a unit goes wrong.  Offered to every
 * instruction whose A, B and C (of a complex one: their parts) are f32, on lanes 0..3 where they exist;
 * a complex instruction also gets them with the four values of A (and of B) as the parts re0, im0, re1,
 * im1 of two complex lanes (C: the value in both parts), then the complex-only cases (gen_complex_parts).
 *   - the paper's check value: a = (1 + 2^-23, -1), b = (1 + 2^-22, 1) -> 2^-22 + 2^-23 + 2^-45;
 *   - carries across the 12-bit split: significands with all-ones halves, on every lane;
 *   - only the low half present (a subnormal sig < 2^12, so sig_H = 0) against every kind of B;
 *   - one-ulp cancellation, x*y - x*(y + ulp) = -x*ulp exactly, for halves 0x001, 0xFFF, 0x800, 0x7FF:
 *     every partial product shows in the result;
 *   - total cancellation (an exactly zero sum, also with C = -0);
 *   - subnormal operands and results, a negative result that rounds to zero, subnormal ties;
 *   - overflow: max + half an ulp (a tie: rounds up to inf), max + a quarter (stays), max * 2;
 *   - RNE ties at 1.0: 1 + 2^-24 (to even: 1), 1 + 2^-23 + 2^-24 (up), a tie with a sticky bit from a
 *     third product, a tie whose would-be sticky bit lies below F_w = 46 and is truncated away;
 *   - special values on every lane. */
enum { SPLIT_LANES = 4 };
typedef void split_put(sink *s, uint64_t c, const uint64_t a[SPLIT_LANES], const uint64_t b[SPLIT_LANES]);

/* f32 bits of an exactly representable value (inf too) */
static uint64_t f32_of(double x)
{
    uint64_t raw = 0;
    mmaref_format_from_double(MMAREF_F32, x, &raw);
    return raw;
}

/* f32 bits of (-1)^sign sig 2^(e - man_bits): sig the significand with its hidden one, or below
 * 2^man_bits for a subnormal at the smallest normal exponent */
static uint64_t f32_sig(const gen_fmt *f, int sign, uint32_t sig, int e)
{
    return f32_of((sign ? -1.0 : 1.0) * ldexp(sig, e - f->i.man_bits));
}

/* The vectors, in order, each handed to put (which takes it when it is the one wanted). */
static void split_corners(sink *s, split_put *put)
{
    const gen_fmt *f = &s->g->fa; /* f32 (split_applies) */
    const uint64_t sign = f->sign_bit;
    const double ulp = 0x1p-23;
    const uint64_t one = f32_of(1);
#define LANES(...) ((const uint64_t[SPLIT_LANES]){__VA_ARGS__})
    /* the paper's check value: 0x34c00001 */
    put(s, 0, LANES(f32_of(1 + ulp), f32_of(-1)), LANES(f32_of(1 + 2 * ulp), one));
    /* carries across the 12-bit split: halves 0xFFF, on every lane; against C = 0, -16, just below 4 */
    static const uint32_t split_sigs[] = {0xFFFFFF, 0x800FFF, 0xFFF800, 0xFFFFFE};
    for (size_t i = 0; i < sizeof split_sigs / sizeof split_sigs[0]; i++) {
        uint64_t x = f32_sig(f, 0, split_sigs[i], 0);
        const uint64_t *a = LANES(x, x, x, x);
        put(s, 0, a, a);
        put(s, f32_of(-16), a, a);
        put(s, f32_of(4 - 0x1p-21), a, a);
        put(s, 0, LANES(x, f32_sig(f, 1, split_sigs[i], 0), x, f32_sig(f, 1, 0xFFFFFF, -1)), a);
    }
    /* only the low half: a subnormal with sig < 2^12 has sig_H = 0 */
    static const uint32_t low_sigs[] = {0xFFF, 0x001, 0x800, 0xABC};
    for (size_t i = 0; i < sizeof low_sigs / sizeof low_sigs[0]; i++) {
        uint64_t x = f32_sig(f, 0, low_sigs[i], -126);
        put(s, 0, LANES(x, x, x, x),
            LANES(f32_sig(f, 0, 0xFFFFFF, 100), f32_sig(f, 0, 0x800FFF, 120), one, f32_sig(f, 1, 0xFFF001, 127)));
        put(s, 0, LANES(x), LANES(x)); /* underflows to 0 */
        put(s, f32_sig(f, 0, 1, -126), LANES(x), LANES(f32_of(0x1p126)));
    }
    /* one-ulp cancellation: x*y - x*(y + ulp) = -x*ulp, every partial product in the result */
    static const uint32_t halves[] = {0x001, 0xFFF, 0x800, 0x7FF};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            uint32_t sx = 0x800000 | halves[i] << 12 | halves[j], sy = 0x800000 | halves[j] << 12 | halves[i];
            uint64_t x = f32_sig(f, 0, sx, 0), y = f32_sig(f, 0, sy, 3), y1 = f32_sig(f, 0, sy + 1, 3);
            put(s, 0, LANES(x, x ^ sign), LANES(y, y1));
            put(s, f32_of(0x1p-40), LANES(0, x, 0, x ^ sign), LANES(0, y1, 0, y));
        }
    /* total cancellation: an exactly zero sum, whatever the signs of the zeros */
    uint64_t x = f32_sig(f, 0, 0xABCDEF, 5), y = f32_sig(f, 0, 0x89ABCD, -7), p = f32_of(0x1p10 * (1 + 3 * ulp));
    put(s, 0, LANES(x, x, x, x), LANES(y, y ^ sign, y, y ^ sign));
    put(s, sign, LANES(x, x ^ sign), LANES(y, y));
    put(s, sign, LANES(sign), LANES(0));
    put(s, p ^ sign, LANES(p), LANES(one));
    /* subnormal results: exact, rounded (ties to even), a negative sum rounding to zero */
    put(s, 0, LANES(f32_of(0x1p-70)), LANES(f32_of(0x1p-70)));
    put(s, 0, LANES(f32_of(0x1.8p-75)), LANES(f32_of(0x1p-75)));  /* 0.75 of the smallest: up */
    put(s, 0, LANES(f32_of(0x1p-75)), LANES(f32_of(0x1p-75)));    /* half of it: to 0 */
    put(s, 0, LANES(f32_of(-0x1p-75)), LANES(f32_of(0x1p-75)));   /* -0 */
    put(s, 0, LANES(f32_of(-0x1p-80)), LANES(f32_of(0x1p-80)));   /* -0 */
    put(s, f32_sig(f, 0, 3, -126), LANES(f32_of(0x1p-75)), LANES(f32_of(0x1p-75))); /* 3.5 ulps: 4 */
    put(s, f32_sig(f, 0, 2, -126), LANES(f32_of(0x1p-75)), LANES(f32_of(0x1p-75))); /* 2.5 ulps: 2 */
    put(s, f32_sig(f, 1, 0x7FFFFF, -126), LANES(f32_sig(f, 0, 1, -126)), LANES(one));   /* to the normal range */
    put(s, 0, LANES(f32_sig(f, 0, 1, -126), f32_sig(f, 0, 0x7FFFFF, -126)), LANES(f32_of(0x1p60), f32_of(0x1p-10)));
    /* overflow with RNE: max + 2^103 is a tie (max's last bit is odd): inf; max + 2^102 stays max */
    uint64_t max = f32_sig(f, 0, 0xFFFFFF, 127);
    put(s, f32_of(0x1p103), LANES(max), LANES(one));
    put(s, f32_of(0x1p102), LANES(max), LANES(one));
    put(s, f32_of(-0x1p103), LANES(max ^ sign), LANES(one));
    put(s, 0, LANES(max, max), LANES(f32_of(2), f32_of(-1)));
    put(s, max, LANES(max, max, max, max), LANES(max, max, max, max));
    /* RNE ties at 1: the sum's bit below f32's last is 1 and nothing lies below it */
    uint64_t h = f32_of(0x1p-12);
    put(s, one, LANES(h), LANES(h));                                                  /* 1 + 2^-24: 1 */
    put(s, f32_of(1 + ulp), LANES(h), LANES(h));                                      /* up */
    put(s, one, LANES(h, f32_of(0x1p-30)), LANES(h, f32_of(0x1p-30)));                /* sticky: up */
    /* 2^-50 lies below the 46 fractional bits kept at e_max = 0: truncated, the tie stays */
    put(s, one, LANES(h, f32_of(0x1p-25)), LANES(h, f32_of(0x1p-25)));
    put(s, f32_of(-1), LANES(h ^ sign), LANES(h));                                /* -1 - 2^-24 */
    put(s, one, LANES(f32_sig(f, 0, 0xFFFFFF, -12)), LANES(f32_sig(f, 0, 0xFFFFFF, -12)));
    /* special values on every lane: inf, inf * 0, -inf against C = +inf, a NaN with a payload */
    for (int l = 0; l < SPLIT_LANES; l++) {
        uint64_t a[SPLIT_LANES] = {one, one, one, one}, b[SPLIT_LANES] = {one, one, one, one};
        a[l] = f32_of(INFINITY);
        put(s, 0, a, b);
        b[l] = 0;
        put(s, 0, a, b);
        b[l] = f32_of(-2);
        put(s, f32_of(INFINITY), a, b);
        a[l] = f->i.inf | 1ULL << (f->i.man_bits - 1) | f->ulp; /* quiet NaN, payload 1 */
        put(s, 0, a, b);
    }
#undef LANES
}

static int split_applies(const gen_ctx *g)
{
    return g->fa.f == MMAREF_F32 && g->fb.f == MMAREF_F32 && g->fc.f == MMAREF_F32;
}

/* An f32 instruction (or the real view of an f32c one): the vector on lanes 0..3 that exist. */
static void put_lanes(sink *s, uint64_t c, const uint64_t a[SPLIT_LANES], const uint64_t b[SPLIT_LANES])
{
    if (!gen_take(s))
        return;
    s->v->c = c;
    for (int l = 0; l < SPLIT_LANES && l < s->g->k; l++) {
        s->v->a[l] = a[l];
        s->v->b[l] = b[l];
    }
}

void gen_split_halves(sink *s)
{
    s->label = "split-significand corners (M3XU)";
    if (split_applies(s->g))
        split_corners(s, put_lanes);
}

/* An f32c instruction: the four values as the parts re0, im0, re1, im1 of complex lanes 0 and 1, C as
 * (c_re, c_im). */
static void put_complex(sink *s, uint64_t c_re, uint64_t c_im, const uint64_t a[SPLIT_LANES],
                        const uint64_t b[SPLIT_LANES])
{
    if (!gen_take(s))
        return;
    const mmaref_instr *in = s->g->in;
    for (int l = 0; l < SPLIT_LANES / 2 && l < s->g->k; l++) {
        s->v->a[l] = mmaref_format_join_parts(in->a, (const uint64_t[2]){a[2 * l], a[2 * l + 1]});
        s->v->b[l] = mmaref_format_join_parts(in->b, (const uint64_t[2]){b[2 * l], b[2 * l + 1]});
    }
    s->v->c = mmaref_format_join_parts(in->c, (const uint64_t[2]){c_re, c_im});
}

/* The split corners on the parts of an f32c instruction: C in both parts. */
static void put_parts(sink *s, uint64_t c, const uint64_t a[SPLIT_LANES], const uint64_t b[SPLIT_LANES])
{
    put_complex(s, c, c, a, b);
}

/* The complex-only corners (an f32c instruction, its own operands rather than the real view's):
 * the split corners on both parts at once, then (re0, im0, re1, im1) of A and B and (re, im) of C:
 *   - the real part cancelling exactly, (x + xi)(y + yi) = 2xyi, while the imaginary part does not;
 *   - inf in an imaginary part: the real part is -(ai bi) = -inf (the unit's sign flip), the
 *     imaginary part ai br;
 *   - cr = +inf against -(ai bi) = -inf: NaN; ci = -inf with ai br = +inf: NaN;
 *   - the real part's sign flip on a subnormal and on -0. */
void gen_complex_parts(sink *s)
{
    s->label = "complex parts";
    static const struct {
        double a[SPLIT_LANES], b[SPLIT_LANES], c[2];
    } cases[] = {
        {{1.5, 1.5, 0x1.fffffep0, 0x1.fffffep0}, {0x1.000002p0, 0x1.000002p0, 3, 3}, {0, 0}},
        {{1.5, 1.5, 0, 0}, {0x1.000002p0, 0x1.000002p0, 0, 0}, {-0.0, -0.0}},
        {{0, INFINITY, 0, 0}, {0, 1, 0, 0}, {0, 0}},
        {{0, INFINITY, 0, 0}, {1, 1, 0, 0}, {0, 0}},
        {{0, INFINITY, 0, 0}, {1, 1, 0, 0}, {INFINITY, -INFINITY}},
        {{0, 0x1p-149, 0, -0.0}, {0, 0x1p-1, 0, 1}, {0, 0}},
    };
    const gen_ctx *g = s->g;
    if (!g->complex || !split_applies(g))
        return;
    split_corners(s, put_parts);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t a[SPLIT_LANES], b[SPLIT_LANES];
        for (int p = 0; p < SPLIT_LANES; p++)
            a[p] = f32_of(cases[i].a[p]), b[p] = f32_of(cases[i].b[p]);
        put_complex(s, f32_of(cases[i].c[0]), f32_of(cases[i].c[1]), a, b);
    }
}
