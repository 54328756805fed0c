/* Which rules silicon decided: for each rule of the inventory (rules.c) on each architecture, whether
 * real silicon measured it (a run of this project's GPU harness whose vectors catch the rule, checked
 * against the run's data in docs/data/rules-silicon.tsv), a paper's experiments on that architecture's GPU
 * state it, or the model extrapolates it from another architecture, format or convention
 * (docs/rules.md, "Which rules silicon decided"). */
#include <string.h>

#include "rules.h"

/* The GPUs of the MMA-Sim paper's experiments (section V); CDNA1 was not among them, and M3XU is a
 * design. */
static const struct {
    const char *arch, *gpu;
} paper_gpus[] = {
    {"volta", "V100"},      {"turing", "T4"},    {"ampere", "A100"},
    {"ada", "RTX 4090"},    {"hopper", "H100"},  {"blackwell", "B200"},
    {"rtx-blackwell", "RTX PRO 6000 Blackwell"}, {"cdna2", "MI250X"},
    {"cdna3", "MI300X"},
};

/* The H200 runs of tools/gpu/session.sh (docs/hardware-validation.md): run 3 reproduced rule by rule by
 * tools/rules_silicon.py into docs/data/rules-silicon.tsv. */
#define H200_RUN3 "H200 run 3 (2026-11-27, seed 3): its seeded and directed vectors catch it, 0 mismatches"

/* What the paper's section III experiments ask (subnormal inputs and results, -0, overflow, NaN from
 * 0 x inf and inf - inf) and what section IV's algorithms state (F, groups, order, rounding). */
#define PAPER_SPECIAL "MMA-Sim paper, section III (special-value experiments)"
#define PAPER_ALGO "MMA-Sim paper, section IV and Tables III-IV (its experiments)"

typedef struct {
    mmaref_rule_id rule;
    const char *arch; /* the architectures it covers, comma-separated; NULL: every */
    const char *ab;   /* A's formats it covers, as mmaref_format_name spells them, comma-separated; NULL: every */
    mmaref_silicon kind;
    const char *source; /* with PAPER, the GPU it names is the paper's of the architecture */
} silicon_row;

/* The first row that matches (rule, architecture, A's format) is the evidence; a rule that applies and
 * matches none is extrapolated (the fallback row below). */
static const silicon_row table[] = {
    /* CDNA1 (MI100) is in no paper's experiments: each rule is CDNA2's, or CDNA3's for the FP64 FMA */
    /* M3XU is a proposed unit: its rules are its paper's design */
    {0, "m3xu", NULL, MMAREF_SILICON_PAPER, "the M3XU paper's design (a proposed unit: no silicon)"},
    {0, "cdna1", NULL, MMAREF_SILICON_EXTRAPOLATED, "CDNA1 (MI100) is not among the MMA-Sim paper's GPUs: the rule of its algorithm on CDNA2 and CDNA3"},

    /* extrapolated: what no paper or run decides */
    {RULE_NAN_CANONICAL, "cdna2,cdna3", NULL, MMAREF_SILICON_EXTRAPOLATED,
     "the paper leaves MFMA's NaN payload open (section V): NVIDIA's canonical NaN"},
    {RULE_NAN_CANONICAL, NULL, "f64", MMAREF_SILICON_EXTRAPOLATED,
     "the paper leaves DMMA's NaN payload open (section V): the f32 rule"},
    {RULE_ZERO_TERM_EXP, "hopper", "bf16,tf32", MMAREF_SILICON_MEASURED, H200_RUN3},
    {RULE_ZERO_TERM_EXP, "hopper", NULL, MMAREF_SILICON_EXTRAPOLATED,
     "bf16 and tf32's rule on the H200; build/gpu/craft's files decide it (docs/hardware-validation.md)"},
    /* every other rule of Hopper's harness instructions: measured on the H200 (t_model_rules holds this
     * row to the run's data, docs/data/rules-silicon.tsv: a rule the run does not catch fails it) */
    {0, "hopper", NULL, MMAREF_SILICON_MEASURED, H200_RUN3},
    {RULE_ZERO_OPERAND_EXP, NULL, NULL, MMAREF_SILICON_EXTRAPOLATED,
     "the MMA-Sim code's convention: the paper's experiments do not isolate it"},
    {RULE_F16_OPERANDS, NULL, NULL, MMAREF_SILICON_EXTRAPOLATED,
     "Hopper's rule on the H200; Khattak and Mikaitis's published B200 files agree (docs/hardware-validation.md)"},

    /* from the paper's experiments on its GPU of the architecture */
    {RULE_SUBNORMAL_OPERAND, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_SUBNORMAL_C, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_SCALE_BIAS, NULL, NULL, MMAREF_SILICON_PAPER, "MMA-Sim paper, section IV (QMMA.SF, UTCQMMMA)"},
    {RULE_SCALE_MAX, NULL, NULL, MMAREF_SILICON_PAPER,
     "MMA-Sim paper, section II (UE8M0: NaN and 2^-127 .. 2^127) and its random tests"},
    {RULE_NAN_CANONICAL, NULL, NULL, MMAREF_SILICON_PAPER, "MMA-Sim paper, section V (NaN outputs bit for bit)"},
    {RULE_INF_MINUS_INF, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_ZERO_TIMES_INF, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_SUBNORMAL_RESULT, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_OVERFLOW, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {RULE_ZERO_SIGN, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_SPECIAL},
    {0, NULL, NULL, MMAREF_SILICON_PAPER, PAPER_ALGO},
};

static const char *paper_gpu(const char *arch)
{
    for (size_t i = 0; i < sizeof paper_gpus / sizeof paper_gpus[0]; i++)
        if (!strcmp(paper_gpus[i].arch, arch))
            return paper_gpus[i].gpu;
    return NULL;
}

/* Is f one of the comma-separated names of list? */
static int in_list(const char *list, const char *f)
{
    size_t n = strlen(f);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, f, n))
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

mmaref_status mmaref_rule_silicon_of(const mmaref_instr *in, int i, mmaref_rule_evidence *out)
{
    if (!in || !out || !in->arch || !mmaref_rule_applies(in, i))
        return MMAREF_ERR_ARGUMENT;
    for (size_t row = 0; row < sizeof table / sizeof table[0]; row++) {
        const silicon_row *t = &table[row];
        if ((t->rule && (int)t->rule != i) || (t->arch && !in_list(t->arch, in->arch)) ||
            (t->ab && !in_list(t->ab, mmaref_format_name(in->a))))
            continue;
        const char *gpu = paper_gpu(in->arch);
        if (t->kind == MMAREF_SILICON_PAPER && !gpu && !t->arch)
            break; /* a GPU no paper measured: extrapolated */
        out->kind = t->kind;
        out->row = (int)row;
        out->gpu = t->kind == MMAREF_SILICON_PAPER ? gpu : NULL;
        out->source = t->source;
        return MMAREF_OK;
    }
    out->kind = MMAREF_SILICON_EXTRAPOLATED;
    out->row = -1;
    out->gpu = NULL;
    out->source = "no paper's experiments on this architecture: the rule of the algorithm the model gives it";
    return MMAREF_OK;
}

const char *mmaref_silicon_name(mmaref_silicon kind)
{
    switch (kind) {
    case MMAREF_SILICON_MEASURED: return "measured";
    case MMAREF_SILICON_PAPER: return "paper";
    case MMAREF_SILICON_EXTRAPOLATED: return "extrapolated";
    }
    return "?";
}
