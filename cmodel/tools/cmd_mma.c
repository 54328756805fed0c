/* mmaref mma: whole tiles from NumPy files.
 *   mmaref mma ARCH INSTR --a A.npy --b B.npy --c C.npy -o D.npy [--scale-a SA.npy --scale-b SB.npy]
 *              [--d-dtype bits|float]
 * Each D element is mmaref_dot() of a row of A and a column of B (through mmaref_mma()). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"

static const char usage[] =
    "usage: mmaref mma ARCH INSTRUCTION --a A.npy --b B.npy --c C.npy -o D.npy\n"
    "                  [--scale-a SA.npy --scale-b SB.npy] [--d-dtype bits|float]\n"
    "  Computes the tile D = A*B + C as the instruction does: D[i][j] is the dot-add of row i of A and\n"
    "  column j of B with C[i][j] (what 'mmaref dot' gives for that row and column).\n"
    "  D is raw bits by default, even from float inputs: compared with NumPy floats (A @ B + C) it is\n"
    "  equal only with --d-dtype float (or read as D.view(np.float32), float16 for an f16 D).\n"
    "  Shapes, with M, N, K and the block size from 'mmaref list': A (M, K), B (K, N), C and D (M, N);\n"
    "  instructions with block scales also take SA (M, K/block) and SB (K/block, N).\n"
    "  Inputs are .npy files (NPY 1.0 or 2.0, C order, little-endian) holding either raw bits as\n"
    "  unsigned integers (<u1, <u2, <u4, <u8; every value must fit the operand's format), or, for f16,\n"
    "  f32, tf32 and f64 operands, floats of that width (<f2 for f16, <f4 for f32 and tf32, <f8 for f64;\n"
    "  complex64 <c8 for f32c) whose bit patterns are taken as they are.\n"
    "  -o, --output D.npy   where D goes (NPY 1.0): replaced only once D is completely written; a symbolic\n"
    "                       link is followed, a link to nothing refused\n"
    "  --d-dtype bits       D as raw bits, unsigned of D's width: <u2 (f16), <u4 (f32), <u8 (f64, f32c)\n"
    "                       (the default, whatever the inputs' dtype)\n"
    "  --d-dtype float      D as floats: <f2, <f4, <f8, or complex64 <c8 for f32c\n";

/* The NumPy float (or complex) dtype whose bits an operand format takes as they are: its kind ('f', or
 * 'c' for f32c = complex64, real part in the low half) and width in bytes; 0 if none. */
int float_bytes(mmaref_format f)
{
    switch (f) {
    case MMAREF_F16: return 2;
    case MMAREF_F32:
    case MMAREF_TF32: return 4;
    case MMAREF_F64:
    case MMAREF_F32C: return 8;
    default: return 0;
    }
}
char float_kind(mmaref_format f) { return f == MMAREF_F32C ? 'c' : 'f'; }

/* Bytes of the smallest unsigned dtype that holds a format's bits. */
int bits_bytes(mmaref_format f)
{
    int w = mmaref_format_width(f);
    return w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : 8;
}

int load_operand(operand *op, const char *instr)
{
    char err[512];
    const uint64_t want[2] = {op->rows, op->cols};
    const char *cmd = op->cmd ? op->cmd : "mma";
    int any = op->any_shape;
    if (cli_check_path(cmd, op->opt, op->path))
        return 2;
    int bad = npy_read_shaped(op->path, any ? -1 : 2, want, &op->arr, err, sizeof err);
    npy_array *a = &op->arr;
    const char *fname = mmaref_format_name(op->fmt);
    if (bad && bad != NPY_ERR_SHAPE)
        return cli_error("%s: %s '%s': %s", cmd, op->opt, op->path, err);
    if (bad || (any && a->ndim != 2)) {
        char got[64 + 24 * NPY_MAX_NDIM];
        npy_shape_str(got, sizeof got, a->ndim, a->shape);
        if (any)
            return cli_error("%s: %s '%s': shape %s, but a matrix (2 dimensions) is needed", cmd, op->opt, op->path,
                             got);
        return cli_error("%s: %s '%s': shape %s, but %s needs (%llu, %llu)", cmd, op->opt, op->path, got, instr,
                         (unsigned long long)op->rows, (unsigned long long)op->cols);
    }
    if (any)
        op->rows = a->shape[0], op->cols = a->shape[1];
    if (a->kind != 'u') {
        int fb = float_bytes(op->fmt);
        if (!fb)
            return cli_error("%s: %s '%s': dtype %s, but %s operands take raw bits as an unsigned array "
                             "(<u1 .. <u8)", cmd, op->opt, op->path, a->descr, fname);
        if (fb != a->itemsize || float_kind(op->fmt) != a->kind)
            return cli_error("%s: %s '%s': dtype %s, but %s operands take <%c%d (or raw bits as an unsigned "
                             "array)", cmd, op->opt, op->path, a->descr, fname, float_kind(op->fmt), fb);
        return 0;
    }
    for (size_t i = 0; i < a->count; i++)
        if (!mmaref_format_valid_bits(op->fmt, a->data[i]))
            return cli_error("%s: %s '%s': element [%llu, %llu] = 0x%llx does not fit in %s (%d bits)", cmd,
                             op->opt, op->path, (unsigned long long)(i / op->cols), (unsigned long long)(i % op->cols),
                             (unsigned long long)a->data[i], fname, mmaref_format_width(op->fmt));
    return 0;
}

/* Options: "--a X" or "--a=X".  Returns the slot an option fills, or NULL if it is not one. */
const char **option_slot(const char *o, const char **opts[], const char *names[][2], size_t n,
                                size_t *len)
{
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 2 && names[i][j]; j++) {
            size_t l = strlen(names[i][j]);
            if (!strncmp(o, names[i][j], l) && (o[l] == 0 || (o[l] == '=' && o[1] == '-'))) {
                *len = l;
                return opts[i];
            }
        }
    return NULL;
}

static int run(const mmaref_instr *in, operand *ops, int nops, const char *out_path, int d_float)
{
    for (int i = 0; i < nops; i++)
        if (load_operand(&ops[i], in->name))
            return 2;
    const operand *A = &ops[0], *B = &ops[1], *C = &ops[2];
    const uint64_t *SA = nops > 3 ? ops[3].arr.data : NULL, *SB = nops > 3 ? ops[4].arr.data : NULL;
    size_t mn = (size_t)in->m * in->n;
    uint64_t *D = malloc(mn * sizeof *D);
    if (!D)
        return cli_error("mma: out of memory");
    char msg[512];
    if (mmaref_mma(in, A->arr.data, B->arr.data, C->arr.data, SA, SB, D, msg, sizeof msg) != MMAREF_OK) {
        free(D);
        return cli_error("mma: %s", msg);
    }
    uint64_t shape[2] = {(uint64_t)in->m, (uint64_t)in->n};
    int bytes = d_float ? float_bytes(in->d) : bits_bytes(in->d);
    int bad = npy_write(out_path, d_float ? float_kind(in->d) : 'u', bytes, 2, shape, D, msg, sizeof msg);
    free(D);
    if (bad)
        return cli_error("mma: -o '%s': %s", out_path, msg);
    return 0;
}

/* The command line of `mmaref mma` and `mmaref gemm`: ARCH INSTRUCTION (into pos[0], pos[1]) and options
 * "--x V" / "--x=V" into their slots, each at most once; --help prints usage.  Returns -1 to go on, else
 * the exit status (0 after --help, 2 after a printed error). */
int parse_matrix_options(const char *cmd, const char *usage, int argc, char **argv, const char **opts[],
                         const char *names[][2], size_t n, const char *pos[2])
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        size_t len;
        const char **slot = option_slot(o, opts, names, n, &len);
        if (slot) {
            const char *val = o[len] == '=' ? o + len + 1 : NULL;
            if (!val) {
                if (i + 1 >= argc)
                    return cli_error("%s: %s needs a value", cmd, o);
                val = argv[++i];
            }
            if (*slot)
                return cli_error("%s: %.*s given twice", cmd, (int)len, o);
            *slot = val;
        } else if (o[0] == '-' && o[1]) {
            return cli_error("%s: unknown option '%s' (see 'mmaref %s --help')", cmd, o, cmd);
        } else if (npos < 2) {
            pos[npos++] = o;
        } else {
            return cli_error("%s: unexpected argument '%s'", cmd, o);
        }
    }
    if (npos < 2)
        return cli_error("%s: needs ARCH and INSTRUCTION (see 'mmaref %s --help')", cmd, cmd);
    return -1;
}

int cmd_mma(int argc, char **argv)
{
    const char *pos[2] = {0, 0}, *pa = NULL, *pb = NULL, *pc = NULL, *pd = NULL, *psa = NULL, *psb = NULL,
               *dtype = NULL;
    const char **opts[] = {&pa, &pb, &pc, &pd, &psa, &psb, &dtype};
    const char *names[][2] = {{"--a", "-a"},       {"--b", "-b"},       {"--c", "-c"},    {"-o", "--output"},
                              {"--scale-a", NULL}, {"--scale-b", NULL}, {"--d-dtype", NULL}};
    int rc = parse_matrix_options("mma", usage, argc, argv, opts, names, sizeof opts / sizeof *opts, pos);
    if (rc >= 0)
        return rc;
    int d_float = 0;
    if (dtype && strcmp(dtype, "bits") && !(d_float = !strcmp(dtype, "float")))
        return cli_error("mma: --d-dtype is 'bits' or 'float', not '%s'", dtype);
    mmaref_instr in;
    if (cli_lookup(pos[0], pos[1], &in))
        return 2;
    if (!pa || !pb || !pc || !pd)
        return cli_error("mma: %s needs %s (see 'mmaref mma --help')", in.name,
                         !pa ? "--a A.npy" : !pb ? "--b B.npy" : !pc ? "--c C.npy" : "-o D.npy");
    if (cli_check_path("mma", "-o", pd))
        return 2;
    int ns = mmaref_scale_count(&in);
    if (ns && (!psa || !psb))
        return cli_error("mma: %s takes block scales: give --scale-a SA.npy (%d, %d) and --scale-b SB.npy (%d, %d)",
                         in.name, in.m, ns, ns, in.n);
    if (!ns && (psa || psb))
        return cli_error("mma: %s has no block scales; drop --scale-a/--scale-b", in.name);
    if (d_float && !float_bytes(in.d))
        return cli_error("mma: --d-dtype float: %s has no float dtype", mmaref_format_name(in.d));

    operand ops[5] = {{.opt = "--a", .path = pa, .fmt = in.a, .rows = in.m, .cols = in.k},
                      {.opt = "--b", .path = pb, .fmt = in.b, .rows = in.k, .cols = in.n},
                      {.opt = "--c", .path = pc, .fmt = in.c, .rows = in.m, .cols = in.n},
                      {.opt = "--scale-a", .path = psa, .fmt = in.scale, .rows = in.m, .cols = ns},
                      {.opt = "--scale-b", .path = psb, .fmt = in.scale, .rows = ns, .cols = in.n}};
    int nops = ns ? 5 : 3;
    rc = run(&in, ops, nops, pd, d_float);
    for (int i = 0; i < nops; i++)
        npy_free(&ops[i].arr);
    return rc;
}
