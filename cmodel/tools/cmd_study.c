/* mmaref study rounding-bias (issue 3). */
#include "cli.h"

int cmd_study(int argc, char **argv)
{
    (void)argc, (void)argv;
    return cli_error("study: not built yet");
}
