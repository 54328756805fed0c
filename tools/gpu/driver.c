/* Options, tiles and the line writer shared by the GPU run and the dry run (driver.h). */
#define _GNU_SOURCE
#include "driver.h"
#include "gen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BATCH_TILES 2048L

static const char usage[] =
    "usage: %s [--out DIR] [--count N] [--seed S] [--only NAME[,NAME..]] [--stdout]\n"
    "       %s --list | --check-layouts | --dump-layouts\n"
    "  Runs each Hopper instruction of the cross-check on seeded inputs (tile t from the model's generator,\n"
    "  kind by t %% 3: raw, cluster, special) and writes DIR/hopper__NAME.txt (default DIR: out), one line\n"
    "  per output element: C A0..A(K-1) B0..B(K-1) D in hex, for `mmaref batch --check hopper NAME`.\n"
    "  --count N   at least N lines per instruction (whole tiles; default 4096)\n"
    "  --seed S    generator seed (default 1); the same seed gives the same inputs on every host\n"
    "  --only      just these instructions (names as --list prints them)\n"
    "  --stdout    write the lines to standard output instead (needs exactly one --only name)\n"
    "  --list      print NAME, the PTX opcode and the check command's extra flags, one per line\n"
    "  --check-layouts  check that every register-fragment layout is one-to-one\n"
    "  --dump-layouts   print every fragment element: NAME A|B|C thread element row column\n";

static int fail(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* Hex digits of a harness format's storage width. */
static int hex_digits(hw_fmt f) { return mmaref_format_width(gen_model_format(f)) / 4; }

void hw_emit_tile(FILE *f, const hw_instr *in, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                  const uint64_t *D)
{
    int da = hex_digits(in->a), db = hex_digits(in->b), dc = hex_digits(in->c);
    for (int i = 0; i < in->m; i++)
        for (int j = 0; j < in->n; j++) {
            fprintf(f, "%0*" PRIx64, dc, C[i * in->n + j]);
            for (int k = 0; k < in->k; k++)
                fprintf(f, " %0*" PRIx64, da, A[i * in->k + k]);
            for (int k = 0; k < in->k; k++)
                fprintf(f, " %0*" PRIx64, db, B[k * in->n + j]);
            fprintf(f, " %0*" PRIx64 "\n", dc, D[i * in->n + j]);
        }
}

/* One layout over a rows x cols matrix: every (thread, element) lands inside, each cell exactly once. */
static int check_one(const hw_instr *in, char which, int rows, int cols, char *msg, size_t msglen)
{
    int threads = hw_is_wgmma(in->frag) ? 128 : 32;
    int per = rows * cols / threads;
    unsigned char *seen = calloc((size_t)rows * cols, 1);
    if (!seen) {
        snprintf(msg, msglen, "out of memory");
        return 1;
    }
    int bad = 0;
    for (int th = 0; th < threads && !bad; th++)
        for (int i = 0; i < per && !bad; i++) {
            int r, c;
            if (which == 'A') hw_frag_a(in->frag, th, i, &r, &c);
            else if (which == 'B') hw_frag_b(in->frag, th, i, &r, &c);
            else hw_frag_c(in->frag, th, i, &r, &c);
            if (r < 0 || r >= rows || c < 0 || c >= cols || seen[r * cols + c]++) {
                snprintf(msg, msglen, "%s: %c fragment of thread %d element %d -> (%d,%d) %s", in->name,
                         which, th, i, r, c,
                         r < 0 || r >= rows || c < 0 || c >= cols ? "is outside the matrix" : "is taken twice");
                bad = 1;
            }
        }
    free(seen);
    return bad;
}

static int check_smem_b(const hw_instr *in, char *msg, size_t msglen)
{
    int bytes = hex_digits(in->b) / 2;
    unsigned char seen[256] = {0};
    for (int k = 0; k < in->k; k++)
        for (int n = 0; n < in->n; n++) {
            int off = hw_smem_b_offset(bytes, k, n);
            if (off < 0 || off + bytes > 256 || off % bytes || seen[off]++) {
                snprintf(msg, msglen, "%s: shared-memory B element (%d,%d) at byte %d overlaps or overflows",
                         in->name, k, n, off);
                return 1;
            }
        }
    return 0;
}

int hw_check_layouts(const hw_instr *in, char *msg, size_t msglen)
{
    if (check_one(in, 'A', in->m, in->k, msg, msglen) || check_one(in, 'C', in->m, in->n, msg, msglen))
        return 1;
    if (hw_is_wgmma(in->frag))
        return in->n != 8 ? (snprintf(msg, msglen, "%s: only N = 8 is laid out", in->name), 1)
                          : check_smem_b(in, msg, msglen);
    return check_one(in, 'B', in->k, in->n, msg, msglen);
}

/* Every (thread, element) -> (row, column) of the A, B and C fragments, for tests to hold against
 * another transcription of the layouts: "NAME A|B|C thread element row column". */
static void dump_layouts(const hw_instr *in)
{
    int threads = hw_is_wgmma(in->frag) ? 128 : 32, r, c;
    for (int th = 0; th < threads; th++) {
        for (int i = 0; i < in->m * in->k / threads; i++)
            hw_frag_a(in->frag, th, i, &r, &c), printf("%s A %d %d %d %d\n", in->name, th, i, r, c);
        for (int i = 0; !hw_is_wgmma(in->frag) && i < in->k * in->n / threads; i++)
            hw_frag_b(in->frag, th, i, &r, &c), printf("%s B %d %d %d %d\n", in->name, th, i, r, c);
        for (int i = 0; i < in->m * in->n / threads; i++)
            hw_frag_c(in->frag, th, i, &r, &c), printf("%s C %d %d %d %d\n", in->name, th, i, r, c);
    }
}

/* Writes `count` lines (whole tiles) of one instruction to f. */
static int run_instr(const hw_instr *in, long count, uint64_t seed, const char *source, FILE *f,
                     hw_compute_fn compute, char *msg, size_t msglen)
{
    long per_tile = (long)in->m * in->n, tiles = (count + per_tile - 1) / per_tile;
    size_t na = (size_t)in->m * in->k, nb = (size_t)in->k * in->n, nc = (size_t)per_tile;
    uint64_t *A = malloc(BATCH_TILES * na * 8), *B = malloc(BATCH_TILES * nb * 8);
    uint64_t *C = malloc(BATCH_TILES * nc * 8), *D = malloc(BATCH_TILES * nc * 8);
    int rc = 0;
    if (!A || !B || !C || !D) {
        snprintf(msg, msglen, "out of memory");
        rc = 1;
        goto done;
    }
    mmaref_instr mi;
    if (mmaref_lookup("hopper", in->name, &mi, msg, msglen) != MMAREF_OK) {
        rc = 1;
        goto done;
    }
    fprintf(f, "# mmaref gpu harness: hopper %s (%s) D from %s; seed %" PRIu64 ", %ld lines;"
               " tile t is mmaref_gen_tile(seed, t), kind by t%%3 (raw, cluster, special)\n",
            in->name, in->ptx, source, seed, tiles * per_tile);
    for (long t0 = 0; t0 < tiles && !rc; t0 += BATCH_TILES) {
        long nt = tiles - t0 < BATCH_TILES ? tiles - t0 : BATCH_TILES;
        for (long t = 0; t < nt; t++)
            gen_tile(&mi, seed, t0 + t, A + t * na, B + t * nb, C + t * nc);
        rc = compute(in, nt, A, B, C, D, msg, msglen);
        for (long t = 0; t < nt && !rc; t++)
            hw_emit_tile(f, in, A + t * na, B + t * nb, C + t * nc, D + t * nc);
    }
    if (!rc && ferror(f)) {
        snprintf(msg, msglen, "write error: %s", strerror(errno));
        rc = 1;
    }
done:
    free(A); free(B); free(C); free(D);
    return rc;
}

static int select_instrs(const char *prog, const char *list, char *selected)
{
    char *copy = strdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const hw_instr *in = hw_find(tok);
        if (!in) {
            rc = fail(prog, "--only: '%s' is not one of this harness's instructions (see --list)", tok);
            break;
        }
        selected[in - hw_instrs] = 1;
    }
    free(copy);
    return rc;
}

int hw_main(int argc, char **argv, const char *prog, const char *source, hw_compute_fn compute)
{
    const char *out = "out", *only = NULL;
    long count = 4096;
    uint64_t seed = 1;
    int to_stdout = 0;
    char msg[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(usage, prog, prog);
            return 0;
        } else if (!strcmp(a, "--list")) {
            for (int j = 0; j < hw_instr_count; j++)
                printf("%s\t%s\t%s\n", hw_instrs[j].name, hw_instrs[j].ptx, hw_instrs[j].nan_any ? "--nan-any" : "-");
            return 0;
        } else if (!strcmp(a, "--check-layouts")) {
            for (int j = 0; j < hw_instr_count; j++) {
                if (hw_check_layouts(&hw_instrs[j], msg, sizeof msg))
                    return fail(prog, "layout: %s", msg);
                printf("layout ok: %s\n", hw_instrs[j].name);
            }
            return 0;
        } else if (!strcmp(a, "--dump-layouts")) {
            for (int j = 0; j < hw_instr_count; j++)
                dump_layouts(&hw_instrs[j]);
            return 0;
        } else if (!strcmp(a, "--stdout")) {
            to_stdout = 1;
        } else if (strcmp(a, "--out") && strcmp(a, "--only") && strcmp(a, "--count") && strcmp(a, "--seed")) {
            return fail(prog, "unknown option '%s' (see --help)", a);
        } else if (!v) {
            return fail(prog, "%s needs a value (see --help)", a);
        } else if (!strcmp(a, "--out")) {
            out = v, i++;
        } else if (!strcmp(a, "--only")) {
            only = v, i++;
        } else if (!strcmp(a, "--count")) {
            count = strtol(v, &end, 0), i++;
            if (*end || count <= 0)
                return fail(prog, "--count needs a positive number, not '%s'", v);
        } else { /* --seed */
            errno = 0;
            seed = strtoull(v, &end, 0), i++;
            if (*end || errno || v[0] == '-')
                return fail(prog, "--seed needs a non-negative number, not '%s'", v);
        }
    }
    char selected[64] = {0};
    if (only) {
        if (select_instrs(prog, only, selected))
            return 2;
    } else {
        memset(selected, 1, sizeof selected);
    }
    int nsel = 0;
    for (int j = 0; j < hw_instr_count; j++)
        nsel += selected[j];
    if (to_stdout && (!only || nsel != 1))
        return fail(prog, "--stdout needs exactly one instruction named with --only");
    if (!to_stdout && mkdir(out, 0777) && errno != EEXIST)
        return fail(prog, "cannot create directory '%s': %s", out, strerror(errno));
    for (int j = 0; j < hw_instr_count; j++) {
        const hw_instr *in = &hw_instrs[j];
        if (!selected[j])
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/hopper__%s.txt", out, in->name);
        FILE *f = to_stdout ? stdout : fopen(path, "w");
        if (!f)
            return fail(prog, "cannot write '%s': %s", path, strerror(errno));
        int rc = run_instr(in, count, seed, source, f, compute, msg, sizeof msg);
        if (!to_stdout && fclose(f) && !rc) {
            snprintf(msg, sizeof msg, "write error on '%.300s': %s", path, strerror(errno));
            rc = 1;
        }
        if (rc)
            return fail(prog, "%s: %s", in->name, msg);
        if (!to_stdout)
            fprintf(stderr, "%s: wrote %s\n", prog, path);
    }
    if (to_stdout && fflush(stdout))
        return fail(prog, "write error on standard output");
    return 0;
}
