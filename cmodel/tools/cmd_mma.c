/* mmaref mma: whole tiles from NumPy files (issue 2 section 6). */
#include "cli.h"

int cmd_mma(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error("mma: not built yet");
}
