/* C side of the DPI-C bridge (dpi/mmaref_dpi.c) for the testbench support (tb/tb_support.c); the
 * SystemVerilog declarations are in dpi/mmaref_dpi_pkg.sv. */
#ifndef MMAREF_DPI_H
#define MMAREF_DPI_H
#include <stdint.h>
#include "mmaref.h"

enum { DPI_MAX_K = 64, DPI_MAX_SCALE = 8, DPI_MAX_HANDLES = 256 };

/* The instruction behind a handle, or NULL. */
const mmaref_instr *mmaref_dpi_instr(int h);
/* "arch:name" of a handle. */
const char *mmaref_dpi_label(int h);
/* One of the instruction's parameters by name ("k", "frac_bits", "algo", ...), or -1. */
int mmaref_dpi_param(int h, const char *key);
#endif
