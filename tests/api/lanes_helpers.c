/* The lane helpers of cmodel/src/lanes.h, which have an AVX2 or AVX-512 form beside the portable one,
 * against plain scalar C on edge values and random ones across every magnitude (tests/t_model_batch.sh
 * builds this once per SIMD path the CPU has, with that path's flags).  Some forms are taken by no
 * vector of the tables (the leading one of a sum at or above 2^52), so they are held here directly.
 * Prints one "ok" / "not ok" line per helper; exits 1 on a failure. */
#include <stdio.h>

#include "lanes.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) /* xorshift64*: the values, then a shift to spread their magnitudes */
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    uint64_t x = rng * 0x2545F4914F6CDD1DULL;
    return x >> (x & 63);
}

static const uint64_t edges[] = {0, 1, 2, 3, (1ULL << 52) - 1, 1ULL << 52, (1ULL << 52) + 1, (1ULL << 53) - 1,
                                 1ULL << 62, (1ULL << 63) - 1, 1ULL << 63, ~0ULL, 0xFFFFFFFFULL, 1ULL << 32};
enum { EDGES = sizeof edges / sizeof edges[0], RANDOM = 200000 };

static int failures;
static void check(const char *what, long bad, long total)
{
    printf("%s - lane helpers (%s): %s, %ld values, %ld wrong\n", bad ? "not ok" : "ok", PATH_NAME, what, total, bad);
    failures += bad != 0;
}

static uint64_t value(long i) { return i < EDGES ? edges[i] : next(); }

int main(void)
{
    long bad_msb = 0, bad_shr = 0, bad_lt = 0, bad_max = 0, bad_zero = 0, bad_small = 0, bad_negate = 0, bad_sel = 0;
    long total = 0;
    for (long i = 0; i < EDGES + RANDOM; i += LANES) {
        vu x, y;
        vi s;
        for (int l = 0; l < LANES; l++) {
            x[l] = value(i + l);
            y[l] = value(i + l + 1);
            s[l] = (int64_t)(next() % 80); /* shifts past 63 included */
        }
        /* the ranges each helper promises (lanes.h): v_shr_far x < 2^63; v_lt |x - y| < 2^63 */
        vu xs = x >> 1;
        vi a = (vi)(x >> 2) - (int64_t)(1ULL << 61), b = (vi)(y >> 2) - (int64_t)(1ULL << 61);
        vi msb = lane_msb(x), lt = v_lt(a, b), mx = v_max(a, b), mn = v_min(a, b), zero = v_zero((vi)(x & 7));
        vu shr = v_shr_far(xs, s);
        /* v_max_small, v_min_small: -2^31 <= x, y < 2^31 (the edges' low halves, sign-extended, included) */
        vi p, q;
        for (int l = 0; l < LANES; l++)
            p[l] = (int32_t)x[l], q[l] = (int32_t)y[l];
        vi smax = v_max_small(p, q), smin = v_min_small(p, q);
        /* v_negate_where: bit 63 of the sign word only; v_sel: all-ones or zero masks */
        vi neg = v_negate_where((vi)y, (vi)x), sel = v_sel(-(vi)(y & 1), (vi)x, (vi)y);
        for (int l = 0; l < LANES; l++) {
            bad_msb += msb[l] != (x[l] ? 63 - __builtin_clzll(x[l]) : 0);
            bad_shr += shr[l] != (s[l] >= 64 ? 0 : xs[l] >> s[l]);
            bad_lt += lt[l] != (a[l] < b[l] ? -1 : 0);
            bad_max += mx[l] != (a[l] > b[l] ? a[l] : b[l]) || mn[l] != (a[l] < b[l] ? a[l] : b[l]);
            bad_zero += zero[l] != ((x[l] & 7) == 0 ? -1 : 0);
            bad_small += smax[l] != (p[l] > q[l] ? p[l] : q[l]) || smin[l] != (p[l] < q[l] ? p[l] : q[l]);
            bad_negate += (uint64_t)neg[l] != (y[l] >> 63 ? -x[l] : x[l]);
            bad_sel += (uint64_t)sel[l] != (y[l] & 1 ? x[l] : y[l]);
        }
        total += LANES;
    }
    check("lane_msb: the leading one's position, 0 for 0", bad_msb, total);
    check("v_shr_far: x >> s, 0 from s = 64 on", bad_shr, total);
    check("v_lt: all ones where x < y", bad_lt, total);
    check("v_max, v_min", bad_max, total);
    check("v_zero: all ones where x == 0", bad_zero, total);
    check("v_max_small, v_min_small: 32-bit range", bad_small, total);
    check("v_negate_where: -x where bit 63 of s is set", bad_negate, total);
    check("v_sel: x where the mask is all ones, else y", bad_sel, total);
    return failures != 0;
}
