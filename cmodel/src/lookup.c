/* Public API: architectures, instruction lookup and listing, and the scale count of a record (mmaref_dot
 * and the schedule run in schedule.c, mmaref_mma and the batches in batch.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format.h"
#include "isa.h"
#include "schedule.h"

const char *const isa_arch_names[ARCH_COUNT + 1] = {
    "volta", "turing", "ampere", "ada", "hopper", "blackwell", "rtx-blackwell", "cdna1", "cdna2", "cdna3",
    "m3xu", NULL,
};

static const struct { const char *alias; isa_arch arch; } arch_aliases[] = {
    {"sm_70", ARCH_VOLTA},      {"sm_75", ARCH_TURING},          {"sm_80", ARCH_AMPERE},
    {"sm_89", ARCH_ADA},        {"sm_90", ARCH_HOPPER},          {"sm_90a", ARCH_HOPPER},
    {"sm_100", ARCH_BLACKWELL}, {"sm_100a", ARCH_BLACKWELL},     {"sm_120", ARCH_RTX_BLACKWELL},
    {"sm_120a", ARCH_RTX_BLACKWELL}, {"gfx908", ARCH_CDNA1},     {"gfx90a", ARCH_CDNA2},
    {"gfx942", ARCH_CDNA3},     {"ada-lovelace", ARCH_ADA},      {"rtx_blackwell", ARCH_RTX_BLACKWELL},
};

int isa_arch_index(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < ARCH_COUNT; i++)
        if (!strcasecmp(name, isa_arch_names[i]))
            return i;
    for (size_t i = 0; i < sizeof arch_aliases / sizeof arch_aliases[0]; i++)
        if (!strcasecmp(name, arch_aliases[i].alias))
            return (int)arch_aliases[i].arch;
    return -1;
}

/* "volta turing ... cdna3; aliases sm_70 ... gfx942": every accepted name, from the tables above. */
static void known_arch_names(char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < ARCH_COUNT && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "", isa_arch_names[i]);
    for (size_t i = 0; i < sizeof arch_aliases / sizeof arch_aliases[0] && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "; aliases ", arch_aliases[i].alias);
}

const char *mmaref_arch_canonical(const char *arch)
{
    int i = isa_arch_index(arch);
    return i < 0 ? NULL : isa_arch_names[i];
}

const char *const *mmaref_arch_names(void) { return isa_arch_names; }

const char *mmaref_version(void) { return MMAREF_VERSION; }

static int isa_each(isa_arch arch, isa_visit_fn visit, void *ctx)
{
    if (arch == ARCH_M3XU)
        return isa_m3xu_each(arch, visit, ctx);
    return arch <= ARCH_RTX_BLACKWELL ? isa_nvidia_each(arch, visit, ctx) : isa_amd_each(arch, visit, ctx);
}

/* ---- lookup ---- */

typedef struct summary_ctx summary_ctx;
static int summary_visit(const mmaref_instr *in, void *p);

/* One walk of the table finds the name and, until it does, lists what the architecture has for the
 * message of a name it lacks (a second walk doubled the cost of a refused lookup: 2 ms on Blackwell). */
typedef struct {
    const char *name;
    mmaref_instr found;
    int by_name, by_alias;
    char first_alias_match[96];
    summary_ctx *summary;
    int summary_full;
} lookup_ctx;

static int lookup_visit(const mmaref_instr *in, void *p)
{
    lookup_ctx *ctx = p;
    if (!strcasecmp(in->name, ctx->name)) {
        ctx->found = *in;
        ctx->by_name = 1;
        return 1;
    }
    if (in->sass[0] && !strcasecmp(in->sass, ctx->name)) {
        if (ctx->by_alias++ == 0) {
            ctx->found = *in;
            snprintf(ctx->first_alias_match, sizeof ctx->first_alias_match, "%s", in->name);
        }
    }
    if (!ctx->summary_full)
        ctx->summary_full = summary_visit(in, ctx->summary);
    return 0;
}

/* A short list of what an architecture has: the distinct instruction names with N collapsed to
 * "nN" for the N-parameterized families, so the message stays one line.  The names listed so far are
 * found again through a hash table of their places in buf (a scan of buf for each of Blackwell's
 * thousands of entries took 8 ms a refused lookup). */
enum { SUMMARY_LEN = 8192, SUMMARY_SLOTS = 8192 }; /* a slot per possible name: at least 2 bytes each */
struct summary_ctx {
    char *buf;
    size_t cap, len;
    char last[96];
    int count;
    uint16_t seen[SUMMARY_SLOTS]; /* 1 + the offset in buf of a listed name; 0: empty */
};

/* Is name listed in buf already?  If not, *slot is where its offset goes. */
static int summary_has(const summary_ctx *s, const char *name, size_t *slot)
{
    size_t n = strlen(name), h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    for (size_t i = h % SUMMARY_SLOTS;; i = (i + 1) % SUMMARY_SLOTS) {
        if (!s->seen[i]) {
            *slot = i;
            return 0;
        }
        const char *at = s->buf + s->seen[i] - 1;
        if (!strncmp(at, name, n) && (at[n] == ' ' || at[n] == 0))
            return 1;
    }
}

static void collapse_n(char *dst, size_t cap, const char *name)
{
    /* m64n128k16 -> m64nNk16 */
    size_t o = 0;
    for (const char *p = name; *p && o + 1 < cap; p++) {
        dst[o++] = *p;
        if (*p == 'n' && p > name && p[-1] >= '0' && p[-1] <= '9' && p[1] >= '0' && p[1] <= '9') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            if (o + 1 < cap)
                dst[o++] = 'N';
        }
    }
    dst[o] = 0;
}

static int summary_visit(const mmaref_instr *in, void *p)
{
    summary_ctx *s = p;
    char name[96];
    if (strstr(in->name, "wgmma") || strstr(in->name, "tcgen05"))
        collapse_n(name, sizeof name, in->name);
    else
        snprintf(name, sizeof name, "%s", in->name);
    /* collapsed families repeat consecutively; skip exact repeats of any earlier entry */
    size_t slot;
    if (!strcmp(name, s->last) || summary_has(s, name, &slot))
        return 0;
    snprintf(s->last, sizeof s->last, "%s", name);
    size_t at = s->len + (s->count ? 1 : 0); /* where the name starts, after its space */
    int w = snprintf(s->buf + s->len, s->cap - s->len, "%s%s", s->count++ ? " " : "", name);
    if (w > 0 && (size_t)w < s->cap - s->len) {
        s->len += (size_t)w;
        s->seen[slot] = (uint16_t)(at + 1);
    } else
        return 1;
    return 0;
}

/* A caller's string as a message quotes it: control and non-ASCII bytes as \xNN, at most 80 bytes shown,
 * so the message stays one printable line whatever the input. */
static const char *shown(char *buf, size_t cap, const char *s)
{
    size_t n = 0, i = 0;
    for (; s[i] && i < 80 && n + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        n += (size_t)snprintf(buf + n, cap - n, ch >= 0x20 && ch < 0x7f ? "%c" : "\\x%02x", ch);
    }
    if (s[i] && n + 4 < cap)
        n += (size_t)snprintf(buf + n, cap - n, "...");
    buf[n] = 0;
    return buf;
}

mmaref_status mmaref_lookup(const char *arch, const char *name, mmaref_instr *out, char *msg, size_t msglen)
{
    char q[400];
    int ai = isa_arch_index(arch);
    if (ai < 0) {
        char known[512];
        known_arch_names(known, sizeof known);
        set_msg(msg, msglen, "unknown architecture '%s' (known: %s)", arch ? shown(q, sizeof q, arch) : "(null)",
                known);
        return MMAREF_ERR_ARCH;
    }
    if (!name || !out) {
        set_msg(msg, msglen, "no instruction name given");
        return MMAREF_ERR_ARGUMENT;
    }
    char have[SUMMARY_LEN] = "";
    summary_ctx s = {.buf = have, .cap = sizeof have};
    lookup_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.name = name;
    ctx.summary = &s;
    /* AMD mnemonics may omit the v_mfma_ prefix */
    char prefixed[128];
    if (ai >= ARCH_CDNA1 && ai <= ARCH_CDNA3 && strncasecmp(name, "v_mfma_", 7)) {
        snprintf(prefixed, sizeof prefixed, "v_mfma_%s", name);
        ctx.name = prefixed;
    }
    isa_each((isa_arch)ai, lookup_visit, &ctx);
    if (ctx.by_name || ctx.by_alias == 1) {
        *out = ctx.found;
        return schedule_seal(out, msg, msglen); /* a table entry the model cannot run is an error */
    }
    if (ctx.by_alias > 1) {
        set_msg(msg, msglen, "'%s' is ambiguous on %s: %d instructions share that SASS name (e.g. %s); "
                "use the instruction name", shown(q, sizeof q, name), isa_arch_names[ai], ctx.by_alias,
                ctx.first_alias_match);
        return MMAREF_ERR_INSTRUCTION;
    }
    set_msg(msg, msglen, "%s has no instruction '%s'; it has: %s", isa_arch_names[ai], shown(q, sizeof q, name),
            s.count ? have : "(none modelled yet)");
    return MMAREF_ERR_INSTRUCTION;
}

/* ---- listing ---- */

typedef struct {
    mmaref_instr *out;
    size_t cap, n;
} list_ctx;

static int list_visit(const mmaref_instr *in, void *p)
{
    list_ctx *l = p;
    if (l->n < l->cap) {
        l->out[l->n] = *in;
        schedule_seal(&l->out[l->n], NULL, 0); /* a bad entry stays unsealed: mmaref_dot refuses it */
    }
    l->n++;
    return 0;
}

size_t mmaref_list(const char *arch, mmaref_instr *out, size_t cap)
{
    list_ctx l = {out, out ? cap : 0, 0};
    if (arch) {
        int ai = isa_arch_index(arch);
        if (ai >= 0)
            isa_each((isa_arch)ai, list_visit, &l);
    } else {
        for (int ai = 0; ai < ARCH_COUNT; ai++)
            isa_each((isa_arch)ai, list_visit, &l);
    }
    return l.n;
}

size_t mmaref_instr_size(void) { return sizeof(mmaref_instr); }

/* ---- computing ---- */

int mmaref_scale_count(const mmaref_instr *in)
{
    if (schedule_usable(in, NULL, 0) != MMAREF_OK) /* NULL, or a record the check refuses: none */
        return 0;
    return in->block_size > 0 ? in->k / in->block_size : 0;
}
