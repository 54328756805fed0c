/* C side of the DPI-C bridge (dpi/mmaref_dpi.c) for the testbench support (tb/tb_support.c); the
 * SystemVerilog declarations are in dpi/mmaref_dpi_pkg.sv. */
#ifndef MMAREF_DPI_H
#define MMAREF_DPI_H
#include <stdint.h>
#include "mmaref.h"

enum { DPI_MAX_K = 64, DPI_MAX_SCALE = 8, DPI_MAX_HANDLES = 256 };

/* Safe to call from several threads (a Verilator model built with --threads); see mmaref_dpi.c. */

/* Look ARCH NAME up once: a handle (the same for the same instruction), or -1 with a message on stderr. */
int mmaref_dpi_lookup(const char *arch, const char *name);
/* The instruction behind a handle, or NULL. */
const mmaref_instr *mmaref_dpi_instr(int h);
/* "arch:name" of a handle (a buffer of the calling thread, valid until its next call). */
const char *mmaref_dpi_label(int h);
/* One of the instruction's parameters by name ("k", "frac_bits", "algo", "c_last", ...), or -1. */
int mmaref_dpi_param(int h, const char *key);
#endif
