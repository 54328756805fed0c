/* A deliberately different device for `mmaref probe` (tests/t_cli_probe.sh): reads `mmaref batch` lines
 * and answers with a copy of ARCH INSTR's record changed one way, through the public API only.
 *   probe_dut ARCH INSTR f-1      F one bit short
 *   probe_dut ARCH INSTR rne      normalization rounds to nearest even (f32-rne) instead of RZ
 *   probe_dut ARCH INSTR chain    a sequential chain: one pass per product (at most 8 passes)
 *   probe_dut ARCH INSTR kulisch  an exact accumulator: F as large as the model takes (40)
 *   probe_dut ARCH INSTR same     the record unchanged */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmaref.h"

int main(int argc, char **argv)
{
    mmaref_instr in;
    char msg[256];
    if (argc != 4 || mmaref_lookup(argv[1], argv[2], &in, msg, sizeof msg)) {
        fprintf(stderr, "probe_dut: usage: probe_dut ARCH INSTR f-1|rne|chain|kulisch|same (%s)\n", argc == 4 ? msg : "");
        return 2;
    }
    const char *how = argv[3];
    mmaref_pass proto = in.pass[0];
    if (!strcmp(how, "f-1"))
        proto.frac_bits--;
    else if (!strcmp(how, "rne"))
        proto.out = MMAREF_OUT_F32_RNE;
    else if (!strcmp(how, "kulisch"))
        proto.frac_bits = 40;
    else if (strcmp(how, "chain") && strcmp(how, "same"))
        return fprintf(stderr, "probe_dut: unknown change '%s'\n", how), 2;
    int passes = !strcmp(how, "chain") ? in.k : in.passes;
    in.passes = passes;
    for (int i = 0; i < passes; i++) {
        in.pass[i] = proto;
        in.pass[i].k_count = in.k / passes;
        in.pass[i].k_first = i * (in.k / passes);
    }
    if (mmaref_check_schedule(&in, msg, sizeof msg))
        return fprintf(stderr, "probe_dut: %s\n", msg), 2;
    int K = in.k, S = mmaref_scale_count(&in), n = 1 + 2 * K + 2 * S;
    char line[1 << 14];
    uint64_t v[1 + 2 * MMAREF_MAX_K + 2 * MMAREF_MAX_SCALES], d;
    while (fgets(line, sizeof line, stdin)) {
        char *p = line;
        for (int i = 0; i < n; i++)
            v[i] = strtoull(p, &p, 16);
        if (mmaref_dot(&in, v[0], v + 1, v + 1 + K, S ? v + 1 + 2 * K : NULL, S ? v + 1 + 2 * K + S : NULL, &d, msg,
                       sizeof msg))
            return fprintf(stderr, "probe_dut: %s\n", msg), 2;
        printf("0x%llx\n", (unsigned long long)d);
    }
    return 0;
}
