// Checks mma_unpack (through tb/tb_unpack.sv) against the model: every raw value of every (real) format up to
// 16 bits, and for the wider ones every one-bit and all-but-one-bit pattern plus 2^20 seeded random values.  The RTL's
// (sign, exp, sig, class) must give the model's value (mmaref_format_to_double): the same number, sign of
// zero included, or NaN for NaN, inf for inf.  Prints "ok ..." / "not ok ..." lines; exits 1 on a mismatch.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include "Vtb_unpack.h"
#include "mmaref.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next_rand() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

int main() {
    Vtb_unpack top;
    top.eval();
    const int MW = top.mw;  // fractional bits of sig: the largest precision of the schema (f64's 52)
    int failures = 0;
    for (int f = 0; f < MMAREF_FORMAT_COUNT; f++) {
        if (mmaref_format_parts((mmaref_format)f) > 1) {  // f32c: the RTL unpacks each part as its f32
            std::printf("ok - unpack %s: %d parts of %s, decoded as that format\n", mmaref_format_name((mmaref_format)f),
                        mmaref_format_parts((mmaref_format)f), mmaref_format_name(mmaref_format_part((mmaref_format)f)));
            continue;
        }
        int w = mmaref_format_width((mmaref_format)f);
        uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1, n = w <= 16 ? (1ULL << w) : (1ULL << 20) + 64;
        uint64_t bad = 0, checked = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t raw = w <= 16 ? i : i < 64 ? ((i & 1) ? ~0ULL : 0) ^ (1ULL << (i / 2 % w)) : next_rand();
            raw &= mask;
            top.raw = raw;
            top.fmt = f;
            top.eval();
            uint32_t u = top.u;  // mma_pkg::fp_t: {sign, exp[12], is_zero, is_sub, is_inf, is_nan}
            int sign = (u >> 16) & 1, exp = (int)((u >> 4) & 0xFFF), nan = u & 1, inf = (u >> 1) & 1;
            if (exp & 0x800) exp -= 0x1000;
            double got = nan ? NAN : inf ? INFINITY : std::ldexp((double)top.sig, exp - MW);
            if (sign) got = -got;
            double want = mmaref_format_to_double((mmaref_format)f, raw);
            bool same = std::isnan(want) ? std::isnan(got)
                                         : !std::isnan(got) && got == want && std::signbit(got) == std::signbit(want);
            checked++;
            if (!same && bad++ < 3)
                std::printf("    %s 0x%llx: model %.17g, rtl %.17g (u=0x%x sig=0x%llx)\n", mmaref_format_name((mmaref_format)f),
                            (unsigned long long)raw, want, got, u, (unsigned long long)top.sig);
        }
        std::printf("%s - unpack %s: %llu values, %llu differ from the model\n", bad ? "not ok" : "ok",
                    mmaref_format_name((mmaref_format)f), (unsigned long long)checked, (unsigned long long)bad);
        failures += bad != 0;
    }
    return failures != 0;
}
