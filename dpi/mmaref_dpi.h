/* Internal declarations shared by the DPI-C sources (dpi/ C files); the SystemVerilog declarations are in
 * dpi/mmaref_dpi_pkg.sv. */
#ifndef MMAREF_DPI_H
#define MMAREF_DPI_H
#include <stdint.h>
#include "mmaref.h"

enum { DPI_MAX_K = 64, DPI_MAX_SCALE = 8 };

/* The instruction behind a handle, or NULL. */
const mmaref_instr *mmaref_dpi_instr(int h);
/* First failing vector index recorded by mmaref_tb_fail, or -1; used by tb/tb_main.cpp. */
long long mmaref_tb_first_fail(void);
#endif
