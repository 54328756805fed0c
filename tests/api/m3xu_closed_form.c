/* The M3XU kind's step form (cmodel/src/algo_m3xu.c: 12-bit halves, the partial products of two multiply
 * steps, the 48-bit product register per lane pair) against its closed form, written here from
 * docs/m3xu.md without the model's code: every product sig_a * sig_b taken whole, every term truncated
 * once at F_w = 46 fractional bits below 2^e_max, the exact sum rounded to nearest even by the host's
 * double -> float conversion (the sum has at most 51 significant bits, so the double is exact and the
 * conversion rounds once, IEEE RNE with gradual underflow and overflow to inf).  Random vectors through
 * the public API (mmaref_dot on m3xu.f32 and m3xu.f32c); prints "ok - ..." / "not ok - ..." lines
 * (tests/t_model_paper_m3xu.sh). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mmaref.h"

enum { FW = 46, MAX_LANES = 8, SIGN = 1u << 31 };

static uint64_t state = 0x6A09E667F3BCC909ULL;
static uint64_t rnd(void) /* xorshift64* */
{
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}
static int below(int n) { return (int)(rnd() % (uint64_t)n); }

/* binary32 fields: value = (-1)^neg * sig * 2^(exp - 23); zero and subnormals at exponent -126 */
typedef struct {
    int neg, nan, inf, exp;
    uint64_t sig;
} val;

static val decode(uint32_t x)
{
    val v = {(int)(x >> 31), 0, 0, 0, 0};
    uint32_t field = x >> 23 & 0xFF, frac = x & 0x7FFFFF;
    v.nan = field == 0xFF && frac;
    v.inf = field == 0xFF && !frac;
    v.sig = field ? frac | 1u << 23 : frac;
    v.exp = field ? (int)field - 127 : -126;
    return v;
}

/* The closed form of one FP32-mode dot-add over n products. */
static uint32_t closed_f32(int n, const uint32_t *a, const uint32_t *b, uint32_t c)
{
    val vc = decode(c), x[2 * MAX_LANES], y[2 * MAX_LANES];
    int nan = vc.nan, pos_inf = vc.inf && !vc.neg, neg_inf = vc.inf && vc.neg;
    for (int i = 0; i < n; i++) {
        x[i] = decode(a[i]), y[i] = decode(b[i]);
        if (x[i].nan || y[i].nan)
            nan = 1;
        else if (x[i].inf || y[i].inf) {
            if ((!x[i].inf && x[i].sig == 0) || (!y[i].inf && y[i].sig == 0))
                nan = 1; /* inf * 0 */
            else if (x[i].neg ^ y[i].neg)
                neg_inf = 1;
            else
                pos_inf = 1;
        }
    }
    if (nan || (pos_inf && neg_inf))
        return 0x7FFFFFFF;
    if (pos_inf || neg_inf)
        return neg_inf ? 0xFF800000 : 0x7F800000;
    int e_max = vc.exp;
    for (int i = 0; i < n; i++)
        if (x[i].exp + y[i].exp > e_max)
            e_max = x[i].exp + y[i].exp;
    /* units of 2^(e_max - 46): a product (46 fractional bits) moves by e_p - e_max <= 0, c by 23 - (e_max - e_c) */
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t p = x[i].sig * y[i].sig;
        int drop = e_max - (x[i].exp + y[i].exp);
        uint64_t m = drop < 64 ? p >> drop : 0;
        sum += x[i].neg ^ y[i].neg ? -(int64_t)m : (int64_t)m;
    }
    int shift = FW - 23 - (e_max - vc.exp);
    uint64_t m = shift >= 0 ? vc.sig << shift : -shift < 64 ? vc.sig >> -shift : 0;
    sum += vc.neg ? -(int64_t)m : (int64_t)m;
    if (sum == 0)
        return 0; /* an exactly zero sum is +0 */
    float f = (float)ldexp((double)sum, e_max - FW);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* FP32C: the real part over (ar, br) and (-ai, bi), the imaginary part over (ar, bi) and (ai, br). */
static uint64_t closed_f32c(int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    uint32_t ra[2 * MAX_LANES], rb[2 * MAX_LANES], ia[2 * MAX_LANES], ib[2 * MAX_LANES];
    for (int i = 0; i < k; i++) {
        uint32_t ar = (uint32_t)a[i], ai = (uint32_t)(a[i] >> 32), br = (uint32_t)b[i], bi = (uint32_t)(b[i] >> 32);
        ra[2 * i] = ar, rb[2 * i] = br, ra[2 * i + 1] = ai ^ SIGN, rb[2 * i + 1] = bi;
        ia[2 * i] = ar, ib[2 * i] = bi, ia[2 * i + 1] = ai, ib[2 * i + 1] = br;
    }
    uint64_t re = closed_f32(2 * k, ra, rb, (uint32_t)c), im = closed_f32(2 * k, ia, ib, (uint32_t)(c >> 32));
    return re | im << 32;
}

/* ---- random f32 values ---- */

static const uint32_t specials[] = {0, SIGN, 1, SIGN | 1, 0x7FFFFF, 0x800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000,
                                    0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001};

/* (-1)^neg * (a random 24-bit significand, halves sometimes all ones) * 2^(e - 23), clamped into f32 */
static uint32_t value(int e)
{
    uint32_t sig = (uint32_t)(rnd() & 0x7FFFFF) | 1u << 23;
    switch (below(6)) {
    case 0: sig |= 0xFFF; break;     /* low half all ones */
    case 1: sig |= 0xFFF000; break;  /* high half all ones */
    case 2: sig = 0xFFFFFF; break;
    default: break;
    }
    uint32_t s = below(2) ? SIGN : 0;
    if (e > 127)
        return s | 0x7F7FFFFF;
    if (e < -126) {
        sig = -126 - e < 24 ? sig >> (-126 - e) : 0;
        return s | sig;
    }
    return s | (uint32_t)(e + 127) << 23 | (sig & 0x7FFFFF);
}

/* n lanes and c: raw bits, or clustered exponents with spreads from 0 to beyond F_w, exact cancellation
 * pairs, C from far below to above the products, and specials sprinkled in. */
static void vector(int n, uint32_t *a, uint32_t *b, uint32_t *c)
{
    static const int spreads[] = {0, 0, 1, 2, 5, 12, 23, 24, 25, 45, 46, 47, 60};
    static const int offsets[] = {-80, -48, -47, -46, -45, -24, -23, -1, 0, 0, 1, 3};
    if (below(5) == 0) {
        for (int i = 0; i < n; i++)
            a[i] = (uint32_t)rnd(), b[i] = (uint32_t)rnd();
        *c = (uint32_t)rnd();
        return;
    }
    int e0 = below(3) ? below(41) - 20 : below(260) - 150;
    int w = spreads[below(sizeof spreads / sizeof spreads[0])];
    for (int i = 0; i < n; i++) {
        a[i] = value(e0 + below(w + 1) - w / 2);
        b[i] = value(e0 + below(w + 1) - w / 2);
    }
    if (n > 1 && below(3) == 0)
        for (int t = below(n / 2) + 1; t > 0; t--) {
            int i = below(n), j = below(n);
            a[j] = a[i], b[j] = b[i] ^ SIGN;
        }
    *c = below(8) ? value(2 * e0 + offsets[below(sizeof offsets / sizeof offsets[0])]) : below(2) ? SIGN : 0;
    if (below(8) == 0) {
        uint32_t *field = below(3) == 0 ? c : below(2) ? &a[below(n)] : &b[below(n)];
        *field = specials[below(sizeof specials / sizeof specials[0])];
    }
}

static int failures;

static void report(int bad, const char *what, long vectors)
{
    printf("%s - %s: %ld random vectors, %d differ\n", bad ? "not ok" : "ok", what, vectors, bad);
    failures += bad != 0;
}

int main(void)
{
    mmaref_instr f32, f32c;
    char msg[512];
    if (mmaref_lookup("m3xu", "m3xu.f32", &f32, msg, sizeof msg) ||
        mmaref_lookup("m3xu", "m3xu.f32c", &f32c, msg, sizeof msg)) {
        printf("not ok - m3xu_closed_form: %s\n", msg);
        return 1;
    }
    enum { N32 = 300000, N32C = 100000 };
    int bad = 0;
    for (long v = 0; v < N32; v++) {
        uint32_t a[MAX_LANES], b[MAX_LANES], c;
        uint64_t a64[MAX_LANES], b64[MAX_LANES], d;
        vector(f32.k, a, b, &c);
        for (int i = 0; i < f32.k; i++)
            a64[i] = a[i], b64[i] = b[i];
        uint32_t want = closed_f32(f32.k, a, b, c);
        if (mmaref_dot(&f32, c, a64, b64, NULL, NULL, &d, msg, sizeof msg) || d != want) {
            if (bad++ < 3)
                printf("    f32 vector %ld: c %08x a %08x %08x %08x %08x b %08x %08x %08x %08x: model %08llx, closed form %08x\n",
                       v, c, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], (unsigned long long)d, want);
        }
    }
    report(bad, "M3XU FP32: step form (mmaref_dot m3xu.f32) == closed form", N32);
    bad = 0;
    for (long v = 0; v < N32C; v++) {
        uint32_t p[2 * MAX_LANES], q[2 * MAX_LANES], c[2];
        uint64_t a[MAX_LANES], b[MAX_LANES], d;
        vector(2 * f32c.k, p, q, &c[0]);
        c[1] = below(2) ? c[0] : value(below(61) - 30);
        for (int i = 0; i < f32c.k; i++) /* lanes 2i, 2i+1: the real and imaginary parts of element i */
            a[i] = p[2 * i] | (uint64_t)p[2 * i + 1] << 32, b[i] = q[2 * i] | (uint64_t)q[2 * i + 1] << 32;
        uint64_t cc = c[0] | (uint64_t)c[1] << 32, want = closed_f32c(f32c.k, a, b, cc);
        if (mmaref_dot(&f32c, cc, a, b, NULL, NULL, &d, msg, sizeof msg) || d != want) {
            if (bad++ < 3)
                printf("    f32c vector %ld: c %016llx a %016llx %016llx b %016llx %016llx: model %016llx, closed form %016llx\n",
                       v, (unsigned long long)cc, (unsigned long long)a[0], (unsigned long long)a[1],
                       (unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)d,
                       (unsigned long long)want);
        }
    }
    report(bad, "M3XU FP32C: step form (mmaref_dot m3xu.f32c) == closed form, each part", N32C);
    return failures != 0;
}
