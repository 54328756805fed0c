/* Shared pieces of the mmaref command-line tool: errors, value parsing and printing. */
#ifndef MMAREF_CLI_H
#define MMAREF_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "mmaref.h"

/* Print "mmaref: <message>" on stderr and return the exit status for usage/input errors (2).  Control
 * characters in the message (from the input it quotes) are written escaped (cli_put_escaped), so the
 * message is one line whatever the input. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s with every control byte escaped: \n, \t, \r, else \xNN (0x00..0x1f, 0x7f). */
void cli_put_escaped(FILE *out, const char *s);
/* A path given to option opt of cmd: refused (a printed error, returns 2) when empty or when it holds a
 * control character (a newline in a path is never meant, and would end a line of a generated script);
 * else 0.  Every option that takes a path goes through it. */
int cli_check_path(const char *cmd, const char *opt, const char *path);
/* A write to stdout failed: "cmd: error writing standard output: <why>" from errno, printed once however
 * often called; returns 2, the exit status of a write that fails (a full disk).  Where stdout's reader
 * has gone (a closed pipe: `mmaref list --json | head`) nothing is printed: cli_stdout_finish ends the
 * process by SIGPIPE once the command has returned, as the reader's going ends cat. */
int cli_stdout_error(const char *cmd);
/* After a command (status rc): stdout flushed and closed (a failure goes through cli_stdout_error), then,
 * if stdout's reader has gone, death by SIGPIPE (status 141 in a shell), quietly; else the status. */
int cli_stdout_finish(const char *cmd, int rc);

/* Parse one operand: "0x" + hex digits = raw bits (must fit the format), anything else a C99 strtod
 * number (1.5, 0x1p-24, -inf, nan) that must be exactly representable.  On error writes a message
 * naming `what` into err and returns nonzero. */
int cli_parse_value(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err,
                    size_t errlen);

/* A value of a real format (cli_real.c): raw bits "0x<hex>" (of any format: must fit its width), or a
 * number exactly representable in the format; text trimmed and not empty.  Its decimal rendering; and
 * whether a text is raw bits ("0x" and hex digits only). */
int cli_parse_real(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err, size_t errlen);
void cli_format_real(char *buf, size_t cap, mmaref_format f, uint64_t bits);
int cli_is_raw_hex(const char *t);

/* A complex operand (f32c) "RE+IMi", each part as cli_parse_real reads the part format; and its
 * decimal rendering "RE+IMi" (cli_complex.c). */
int cli_parse_complex(mmaref_format f, const char *text, const char *what, uint64_t *bits, char *err,
                      size_t errlen);
void cli_format_complex(char *buf, size_t cap, mmaref_format f, uint64_t bits);

/* Parse a comma-separated list of at most max values; *n gets the count. */
int cli_parse_list(mmaref_format f, const char *text, const char *what, uint64_t *vals, int max, int *n,
                   char *err, size_t errlen);

/* "0x3f800000 1" : bits zero-padded to the format's width, then the decimal value. */
void cli_print_value(FILE *out, mmaref_format f, uint64_t bits);

/* Decimal rendering of a value (exact for every format that fits a double). */
void cli_format_decimal(char *buf, size_t cap, mmaref_format f, uint64_t bits);

/* Hex digits needed for a format's width. */
int cli_hex_digits(mmaref_format f);
/* Two D's of format f agree: the same bits or, with nan_any, NaN against NaN -- part by part for a
 * complex D (f32c), whose parts are NaN independently. */
int cli_same_d(mmaref_format f, uint64_t x, uint64_t y, int nan_any);

/* Writes v as exactly `digits` lower-case hex digits at p; returns the end. */
char *cli_put_hex(char *p, uint64_t v, int digits);

/* The class of every byte of a batch line, one table lookup (cli.c): a hex digit's value + 1 (1..16);
 * CLI_HEX_BLANK between fields; CLI_HEX_END where a line's fields end (newline, NUL, a '#' comment). */
enum { CLI_HEX_BLANK = 0x20, CLI_HEX_END = 0x40 };
extern const unsigned char cli_hex_class[256];

/* One field of a batch line at *pp: hex digits (0x optional, at most 16) ending at a blank, the line's
 * end or a '#'; advances *pp past it.  Nonzero if it is not one.  Inline: `mmaref batch` parses millions
 * of lines a second through it. */
static inline int cli_parse_hex_field(const char **pp, uint64_t *v)
{
    const unsigned char *p = (const unsigned char *)*pp;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    const unsigned char *first = p;
    uint64_t x = 0;
    for (unsigned d; (d = cli_hex_class[*p] - 1u) < 16; p++)
        x = x << 4 | d;
    if (p == first || p - first > 16 || !(cli_hex_class[*p] & (CLI_HEX_BLANK | CLI_HEX_END)))
        return 1;
    *pp = (const char *)p;
    *v = x;
    return 0;
}
/* A non-negative integer (decimal, or 0x hex); nonzero if text is not one. */
int cli_parse_u64(const char *text, uint64_t *v);
/* A decimal count 0..max (no sign, no hex, no octal); nonzero if it is not one. */
int cli_parse_count(const char *text, long max, long *v);

/* A schedule as `mmaref list` writes it: "CoFDA(F=24,f32-rz)", "GDFS(F=35,G=16,ue4m3/16,f32-rz)",
 * "SFMA(f64-rne)"; passes with different parameters one by one, joined by '+'. */
void cli_schedule_text(char *buf, size_t cap, const mmaref_instr *in);
/* One pass as a JSON object, every field of mmaref_pass (mmaref list --json, the probe's report). */
void cli_pass_json(FILE *out, const mmaref_pass *p);

/* Look up ARCH INSTRUCTION, printing the library's message on failure (returns nonzero). */
int cli_lookup(const char *arch, const char *name, mmaref_instr *in);

/* The operand options of one dot-add (cli_operands.c; mmaref dot, mmaref explain):
 * -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST], as given and as read for an instruction. */
typedef struct {
    const char *a, *b, *c, *sa, *sb;
} cli_operand_text;
typedef struct {
    uint64_t c, a[MMAREF_MAX_K], b[MMAREF_MAX_K], sa[MMAREF_MAX_SCALES], sb[MMAREF_MAX_SCALES];
    int ns; /* scale factors per operand, 0 without */
} cli_operands;
/* argv[*i] is one of the options: takes its value (advancing *i) and returns 1; 0 if it is not one;
 * -1 after printing an error. */
int cli_operand_option(const char *cmd, cli_operand_text *o, int argc, char **argv, int *i);
/* The options read in the instruction's formats (fewer than K values: the rest +0; missing scales 1);
 * 0, or the exit status after printing an error. */
int cli_operand_read(const char *cmd, const mmaref_instr *in, const cli_operand_text *o, cli_operands *v);
/* ---- NumPy operand files, shared by `mmaref mma` and `mmaref gemm` (cmd_mma.c) ---- */
#include "npy.h"
/* One operand array: which option named it, its file, its format, the shape wanted (any_shape: any
 * matrix, rows and cols then set from the file), the command named in messages (NULL: "mma"). */
typedef struct {
    const char *opt, *path;
    mmaref_format fmt;
    uint64_t rows, cols;
    npy_array arr;
    const char *cmd;
    int any_shape;
} operand;
/* Read an operand's file: raw bits fitting its format, or floats of its width; 0 or a printed error (2). */
int load_operand(operand *op, const char *instr);
/* Bytes of the NumPy float dtype of a format (f16 2, f32 and tf32 4, f64 and f32c 8; else 0), its kind
 * ('f', 'c' for f32c), and bytes of the smallest unsigned dtype holding its bits. */
int float_bytes(mmaref_format f);
char float_kind(mmaref_format f);
int bits_bytes(mmaref_format f);
/* "--a X" / "--a=X": the slot an option fills (its name's length in *len), or NULL if it is not one. */
const char **option_slot(const char *o, const char **opts[], const char *names[][2], size_t n, size_t *len);
/* ARCH INSTRUCTION and the options of `mmaref mma` / `mmaref gemm`; -1 to go on, else the exit status. */
int parse_matrix_options(const char *cmd, const char *usage, int argc, char **argv, const char **opts[],
                         const char *names[][2], size_t n, const char *pos[2]);

int cmd_list(int argc, char **argv);
int cmd_gemm(int argc, char **argv);
int cmd_dot(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_mma(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_probe(int argc, char **argv);

#endif
