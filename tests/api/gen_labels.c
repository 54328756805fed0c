/* mmaref_gen_directed_label: what each directed vector asks, on Hopper's mma.m16n8k16.f32.f16.f16.f32
 * (f16 A and B, f32 C and D, K = 16).  Every index has a label, the same modulo the count; each of the
 * papers' one-row questions is asked once, by a row that asks it; the first alignment ladder's rows are
 * C = 0, a0b0 = 2^E, a1b1 = -2^E, a2b2 = +-s 2^(E-j), nothing else, with E = 30 (f16's largest product,
 * 2^15 * 2^15) and every j down to f16's smallest product: 2^-48 (2^-24 * 2^-24) for s = 1, 1.5 2^-47
 * for s = 1.5 -- 79 + 78 rungs of each sign.  Prints "ok - ..." / "not ok - ..." lines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mmaref.h"

enum { K = 16, QUESTIONS = 16 };
static const char LADDER[] = "alignment ladder: a0b0 = 2^E, a1b1 = -2^E, a2b2 = +-s 2^(E-j)";
static int failures;

static void check(int cond, const char *what)
{
    printf("%s - %s\n", cond ? "ok" : "not ok", what);
    failures += !cond;
}

static double f16(uint64_t x) { return mmaref_format_to_double(MMAREF_F16, x); }

/* The rung of a ladder row: 1 with *s, *neg, *j set when the row is exactly that. */
static int ladder_rung(uint64_t c, const uint64_t *a, const uint64_t *b, int *s15, int *neg, int *j)
{
    double p[K];
    for (int k = 0; k < K; k++)
        p[k] = f16(a[k]) * f16(b[k]);
    for (int k = 3; k < K; k++)
        if (p[k] != 0)
            return 0;
    if (mmaref_format_to_double(MMAREF_F32, c) != 0 || p[0] != ldexp(1, 30) || p[1] != -ldexp(1, 30) || p[2] == 0)
        return 0;
    int e;
    double fr = frexp(fabs(p[2]), &e); /* |p2| = fr 2^e: s 2^(e-1) */
    *s15 = fr == 0.75, *neg = p[2] < 0, *j = 30 - (e - 1);
    return fr == 0.5 || fr == 0.75;
}

int main(void)
{
    mmaref_instr in;
    if (mmaref_lookup("hopper", "mma.m16n8k16.f32.f16.f16.f32", &in, NULL, 0) != MMAREF_OK)
        return 1;
    uint64_t n = mmaref_gen_directed_count(&in), c, a[K], b[K];
    int labelled = 1, periodic = 1, asked[QUESTIONS + 1] = {0}, nq = 0, rows_ask = 1, ladder_rows = 0, ladder_bad = 0;
    const char *qlabel[QUESTIONS + 1];
    static int rung[2][2][128];
    for (uint64_t i = 0; i < n; i++) {
        const char *l = mmaref_gen_directed_label(&in, i);
        labelled &= l && *l && strcmp(l, "?");
        if (!l)
            continue;
        periodic &= !strcmp(l, mmaref_gen_directed_label(&in, i + n));
        mmaref_gen_vector(&in, MMAREF_GEN_DIRECTED, 0, i, &c, a, b, NULL, NULL);
        if (!strcmp(l, LADDER)) {
            int s15, neg, j;
            ladder_rows++;
            if (ladder_rung(c, a, b, &s15, &neg, &j) && j >= 0 && j < 128)
                rung[s15][neg][j]++;
            else
                ladder_bad++;
        } else if (strchr(l, ':') && !strstr(l, "ladder")) {
            int q = 0;
            while (q < nq && strcmp(qlabel[q], l))
                q++;
            if (q == nq && nq <= QUESTIONS)
                qlabel[nq++] = l;
            asked[q < QUESTIONS ? q : QUESTIONS]++;
            double cv = mmaref_format_to_double(MMAREF_F32, c);
            if (!strcmp(l, "NaN encoding: C is NaN"))
                rows_ask &= c == 0x7fffffff;
            /* the canonical NaN with its sign set: f32 0xFFFFFFFF */
            if (!strcmp(l, "NaN encoding: C is a NaN of the other sign"))
                rows_ask &= c == 0xffffffff;
            if (!strcmp(l, "infinity: C = -inf"))
                rows_ask &= cv == -INFINITY;
            if (!strcmp(l, "NaN encoding: a[0] is NaN"))
                rows_ask &= isnan(f16(a[0])) && f16(b[0]) == 1;
            /* C = -(2^15 + 2^12 + 0x13) 2^-149 (bits 0x80009013), every product +0 x 2^15 (f16 0x7800) */
            if (!strcmp(l, "zero term: C = -(a subnormal), every product +0 x B's largest power of two"))
                for (int k = 0; k < K; k++)
                    rows_ask &= c == 0x80009013 && a[k] == 0 && b[k] == 0x7800;
            if (!strcmp(l, "overflow: every a, b and C at its largest finite value"))
                for (int k = 0; k < K; k++)
                    rows_ask &= f16(a[k]) == 65504 && f16(b[k]) == 65504 && cv == 0x1.fffffep127;
        }
    }
    check(n > 0 && labelled, "every directed vector has a label");
    check(periodic, "the label of index i + count is the label of i");
    int once = nq == QUESTIONS;
    for (int q = 0; q < nq; q++)
        once &= asked[q] == 1;
    check(once, "f16 A, f32 C: each of the 16 one-row questions asked once");
    check(rows_ask, "a question's row asks it (C the canonical NaN and that NaN negative, C = -inf, a[0] NaN times 1, every operand at its largest, "
                    "the zero term's C and products)");
    int full = 1;
    for (int s15 = 0; s15 < 2; s15++)
        for (int neg = 0; neg < 2; neg++)
            for (int j = 0; j < 128; j++)
                full &= rung[s15][neg][j] == (j <= (s15 ? 77 : 78));
    char what[200];
    snprintf(what, sizeof what, "the first alignment ladder: E = 30, j = 0..78 (s = 1), 0..77 (s = 1.5), both signs, "
             "once each (%d rows, %d not of its form)", ladder_rows, ladder_bad);
    check(full && !ladder_bad && ladder_rows == 2 * 79 + 2 * 78, what);
    check(!strcmp(mmaref_gen_directed_label(NULL, 0), "?"), "a bad argument: \"?\"");
    return failures != 0;
}
