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
    "       %s --replay NAME < LINES\n"
    "       %s --list | --check-layouts | --dump-layouts\n"
    "  Runs each Hopper instruction of the cross-check on seeded inputs (tile t from the model's generator,\n"
    "  kind by t %% 3: raw, cluster, special) and writes DIR/hopper__NAME.txt (default DIR: out), one line\n"
    "  per output element: C A0..A(K-1) B0..B(K-1) D in hex, for `mmaref batch --check hopper NAME`.\n"
    "  --count N   at least N lines per instruction (whole tiles; default 4096)\n"
    "  --seed S    generator seed (default 1); the same seed gives the same inputs on every host\n"
    "  --only      just these instructions (names as --list prints them)\n"
    "  --stdout    write the lines to standard output instead (needs exactly one --only name)\n"
    "  --replay NAME  run the dot-adds read from standard input (C A0..A(K-1) B0..B(K-1), hex, as `mmaref gen`\n"
    "              writes them; a trailing D field is ignored) and write each with this run's D appended\n"
    "  --list      print NAME, the PTX opcode, the check command's extra flags and the model table whose\n"
    "              entry of the same name generates and checks it (ARCH for `mmaref batch ARCH NAME`)\n"
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

/* One line: C, A's row i, B's column j, D; a, b step through the K elements of the row and column. */
static void emit_line(FILE *f, const hw_instr *in, uint64_t c, const uint64_t *a, int a_step, const uint64_t *b,
                      int b_step, uint64_t d)
{
    int da = hex_digits(in->a), db = hex_digits(in->b), dc = hex_digits(in->c);
    fprintf(f, "%0*" PRIx64, dc, c);
    for (int k = 0; k < in->k; k++)
        fprintf(f, " %0*" PRIx64, da, a[k * a_step]);
    for (int k = 0; k < in->k; k++)
        fprintf(f, " %0*" PRIx64, db, b[k * b_step]);
    fprintf(f, " %0*" PRIx64 "\n", dc, d);
}

void hw_emit_tile(FILE *f, const hw_instr *in, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                  const uint64_t *D)
{
    for (int i = 0; i < in->m; i++)
        for (int j = 0; j < in->n; j++)
            emit_line(f, in, C[i * in->n + j], A + i * in->k, 1, B + j, in->n, D[i * in->n + j]);
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
    if (mmaref_lookup(in->arch, in->name, &mi, msg, msglen) != MMAREF_OK) {
        rc = 1;
        goto done;
    }
    fprintf(f, "# mmaref gpu harness: hopper %s (%s) D from %s; seed %" PRIu64 ", %ld lines;"
               " tile t is mmaref_gen_tile(seed, t) of %s %s, kind by t%%3 (raw, cluster, special)\n",
            in->name, in->ptx, source, seed, tiles * per_tile, in->arch, in->name);
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

/* Parses one replay line into c, a[K], b[K]: 1 + 2K hex fields, or 2 + 2K with a D (ignored). */
static int parse_line(const hw_instr *in, char *line, long lineno, uint64_t *c, uint64_t *a, uint64_t *b,
                      char *msg, size_t msglen)
{
    int n = 0, want = 1 + 2 * in->k;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save), n++) {
        char *end;
        errno = 0;
        uint64_t v = strtoull(tok, &end, 16);
        hw_fmt f = n == 0 || n > 2 * in->k ? in->c : n <= in->k ? in->a : in->b;
        int w = hex_digits(f) * 4;
        if (*end || errno || tok[0] == '-' || (w < 64 && v >> w)) {
            snprintf(msg, msglen, "line %ld: field %d '%.40s' is not a %d-bit hex value", lineno, n + 1, tok, w);
            return 1;
        }
        if (n == 0) *c = v;
        else if (n <= in->k) a[n - 1] = v;
        else if (n <= 2 * in->k) b[n - 1 - in->k] = v;
    }
    if (n != want && n != want + 1) {
        snprintf(msg, msglen, "line %ld: %d fields; %s needs %d (C, A0..A%d, B0..B%d), or %d with D", lineno, n,
                 in->name, want, in->k - 1, in->k - 1, want + 1);
        return 1;
    }
    return 0;
}

/* --replay: every dot-add of `fin` through compute(), written to `fout` with its D.  Each tile carries
 * N dot-adds on its diagonal: line j of the tile is A's row j, B's column j and C[j][j]; every other
 * element is +0 and the other outputs are not written. */
static int replay(const hw_instr *in, const char *source, FILE *fin, FILE *fout, hw_compute_fn compute, char *msg,
                  size_t msglen)
{
    size_t na = (size_t)in->m * in->k, nb = (size_t)in->k * in->n, nc = (size_t)in->m * in->n;
    uint64_t *A = calloc(BATCH_TILES * na, 8), *B = calloc(BATCH_TILES * nb, 8);
    uint64_t *C = calloc(BATCH_TILES * nc, 8), *D = malloc(BATCH_TILES * nc * 8);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, held = 0;
    int rc = 0, per_tile = in->n < in->m ? in->n : in->m, eof = 0;
    if (!A || !B || !C || !D) {
        snprintf(msg, msglen, "out of memory");
        rc = 1;
        goto out;
    }
    fprintf(fout, "# mmaref gpu harness: hopper %s (%s) D from %s; replayed dot-adds\n", in->name, in->ptx, source);
    while (!rc && !eof) {
        eof = getline(&line, &cap, fin) < 0;
        if (!eof) {
            lineno++;
            char *p = line + strspn(line, " \t\r\n");
            if (*p == 0 || *p == '#')
                continue;
            long t = held / per_tile, j = held % per_tile;
            uint64_t a[64], b[64];
            if (parse_line(in, p, lineno, &C[t * nc + j * in->n + j], a, b, msg, msglen)) {
                rc = 1;
                break;
            }
            for (int k = 0; k < in->k; k++) {
                A[t * na + j * in->k + k] = a[k];
                B[t * nb + k * in->n + j] = b[k];
            }
            held++;
        }
        if (held > 0 && (eof || held == BATCH_TILES * per_tile)) {
            long tiles = (held + per_tile - 1) / per_tile;
            rc = compute(in, tiles, A, B, C, D, msg, msglen);
            for (long e = 0; e < held && !rc; e++) {
                long t = e / per_tile, j = e % per_tile;
                emit_line(fout, in, C[t * nc + j * in->n + j], A + t * na + j * in->k, 1, B + t * nb + j, in->n,
                          D[t * nc + j * in->n + j]);
            }
            memset(A, 0, BATCH_TILES * na * 8);
            memset(B, 0, BATCH_TILES * nb * 8);
            memset(C, 0, BATCH_TILES * nc * 8);
            held = 0;
        }
    }
    if (!rc && ferror(fin)) {
        snprintf(msg, msglen, "read error: %s", strerror(errno));
        rc = 1;
    }
    if (!rc && (fflush(fout) || ferror(fout))) {
        snprintf(msg, msglen, "write error: %s", strerror(errno));
        rc = 1;
    }
out:
    free(A); free(B); free(C); free(D); free(line);
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
            printf(usage, prog, prog, prog);
            return 0;
        } else if (!strcmp(a, "--list")) {
            for (int j = 0; j < hw_instr_count; j++)
                printf("%s\t%s\t%s\t%s\n", hw_instrs[j].name, hw_instrs[j].ptx,
                       hw_instrs[j].nan_any ? "--nan-any" : "-", hw_instrs[j].arch);
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
        } else if (!strcmp(a, "--replay")) {
            if (!v)
                return fail(prog, "--replay needs an instruction name (see --list)");
            const hw_instr *in = hw_find(v);
            if (!in)
                return fail(prog, "--replay: '%s' is not one of this harness's instructions (see --list)", v);
            if (replay(in, source, stdin, stdout, compute, msg, sizeof msg))
                return fail(prog, "%s: %s", in->name, msg);
            return 0;
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
