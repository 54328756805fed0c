/* Instruction tables: architectures, and the walk over every instruction each vendor table holds. */
#ifndef MMAREF_ISA_H
#define MMAREF_ISA_H

#include "mmaref.h"

typedef enum {
    ARCH_VOLTA, ARCH_TURING, ARCH_AMPERE, ARCH_ADA, ARCH_HOPPER, ARCH_BLACKWELL, ARCH_RTX_BLACKWELL,
    ARCH_CDNA1, ARCH_CDNA2, ARCH_CDNA3,
    ARCH_M3XU, /* the M3XU design (not a GPU): isa_m3xu.c */
    ARCH_COUNT
} isa_arch;

extern const char *const isa_arch_names[ARCH_COUNT + 1];

/* Canonical index of an architecture name or alias (case-insensitive), or -1. */
int isa_arch_index(const char *name);

/* Called for every instruction; returning nonzero stops the walk. */
typedef int (*isa_visit_fn)(const mmaref_instr *in, void *ctx);

/* Walk the instructions of one architecture in table order; returns nonzero if the visitor stopped. */
int isa_nvidia_each(isa_arch arch, isa_visit_fn visit, void *ctx);
int isa_amd_each(isa_arch arch, isa_visit_fn visit, void *ctx);
int isa_m3xu_each(isa_arch arch, isa_visit_fn visit, void *ctx);

#endif
