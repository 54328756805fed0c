/* mmaref diff ARCH1 INSTR1 ARCH2 INSTR2 (issue 3). */
#include "cli.h"

int cmd_diff(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error("diff: not built yet");
}
