/* The mmaref command: main, the command-line front end of the golden model.  Subcommands live in
 * cmd_*.c. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mmaref <command> [options]\n"
    "\n"
    "commands:\n"
    "  list [ARCH] [--json]        instructions of one or every architecture\n"
    "  dot ARCH INSTR -a LIST -b LIST -c VALUE [--scale-a LIST --scale-b LIST]\n"
    "                              one dot-add; prints D's bits then its value\n"
    "  batch ARCH INSTR [--check]  dot-adds from stdin, one per line (hex bits)\n"
    "  gen ARCH INSTR [--n N] [--seed S] [--kind KIND]\n"
    "                              seeded stimulus, one dot-add per line, as batch reads it\n"
    "  mma ARCH INSTR --a A.npy --b B.npy --c C.npy -o D.npy\n"
    "                              whole tiles from NumPy files\n"
    "  gemm ARCH INSTR --a A.npy --b B.npy [--c C.npy] -o D.npy [--accumulate serial|split-k:S|promote:N]\n"
    "                              a whole GEMM as a kernel computes it with that instruction\n"
    "  study rounding-bias|m3xu [--out DIR]\n"
    "                              the paper's Fig. 2 (CDNA3's round-down bias); M3XU's FP32 accuracy\n"
    "  diff ARCH1 INSTR1 ARCH2 INSTR2 [--random N] [--seed S]\n"
    "                              how often and by how many ulps two instructions differ\n"
    "  explain ARCH INSTR -a LIST -b LIST -c VALUE [--vs ARCH2 INSTR2] [--all-lanes] [--json]\n"
    "                              one dot-add step by step: what each step keeps and drops\n"
    "  probe ARCH INSTR | --formats A,B,C,D --k K -- COMMAND\n"
    "                              which arithmetic a unit implements, in the table's terms\n"
    "  rules [ARCH INSTR [--catch]] the arithmetic rules the model encodes, each with its planted bug;\n"
    "                              --catch: the vectors of a batch stream that catch each\n"
    "\n"
    "'mmaref <command> --help' describes each command; 'mmaref --version' names the model.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    /* a write to a closed pipe fails with EPIPE instead of killing the process mid-command: the command
     * stops as on any write error, its temporary files removed, and cli_stdout_finish then ends the
     * process quietly by SIGPIPE; children started here (probe's device, gnuplot) get the default
     * action back */
    signal(SIGPIPE, SIG_IGN);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return cli_stdout_finish("--help", 0);
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) { /* the library's, linked in */
        printf("mmaref %s\n", mmaref_version());
        return cli_stdout_finish("--version", 0);
    }
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"list", cmd_list}, {"dot", cmd_dot}, {"batch", cmd_batch}, {"mma", cmd_mma}, {"gemm", cmd_gemm},
        {"study", cmd_study}, {"diff", cmd_diff}, {"gen", cmd_gen}, {"explain", cmd_explain},
        {"probe", cmd_probe}, {"rules", cmd_rules},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(cmd, commands[i].name)) {
            char msg[256]; /* a bad MMAREF_SIMD (the batched path, docs/speed.md) stops every command */
            if (mmaref_simd_select(NULL, msg, sizeof msg))
                return cli_error("%s", msg);
            /* a result that did not reach stdout (a full disk, a closed pipe) is a failure, not a pass */
            return cli_stdout_finish(cmd, commands[i].run(argc - 1, argv + 1));
        }
    cli_error("unknown command '%s' (try 'mmaref --help')", cmd);
    return 2;
}
