// SystemC co-simulation of the M3XU Tensor Core (docs/m3xu.md, "SystemC tile array"): a producer feeds
// GEMM tiles to the 8 x 4 array of Verilated M3XU units over a clocked valid/ready channel, a consumer
// checks every D tile against mmaref_mma bit for bit, and the measured throughput of each mode is held
// to the paper's Corollaries 1-3.  Exit status 0: every tile matches and every rate is the paper's;
// 1: a mismatch, a rate off, a hang or units out of lockstep; 2: bad arguments.
//   m3xu_systemc [--tiles N] [--seed S] [--modes f16,bf16,f32,f32c] [--design m3xu|m3xu-pipelined]
//                [--mutant ROW,COL] [--gap G] [--stall P] [--no-rate-check] [--show N]
#include <systemc.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "mmaref.h"
#include "tensor_core.h"
#include "tile_consumer.h"
#include "tile_producer.h"
#include "tile_stream.h"

// The paper's throughput of each mode (the M3XU paper, section III, Corollaries 1-3), relative to the
// baseline: the p-bit MXU does one M x N x K tile every c cycles (FP16/BF16: 8 x 4 x 8 every cycle).
//   Corollary 1: 2p-bit M x N x K/2 every 2c      -> FP32 8 x 4 x 4 in 2 cycles
//   Corollary 2: 2p-bit at 1/4 of the p-bit rate  -> FP32 MACs per cycle = FP16's / 4
//   Corollary 3: 2p-bit M x N x K CGEMM every 16c -> FP32C 8 x 4 x 2 complex in 16 * 2/8 = 4 cycles,
//                                                    complex MACs per cycle = FP16's / 16
// Expected cycles per tile = BASELINE_CYCLES * rate_divisor * K_mode / K_baseline (K from the table).
static const int BASELINE_CYCLES = 1;  // c: the baseline unit takes one FP16 tile per cycle
struct Expectation {
    const char *mode, *alias, *label;
    int rate_divisor;  // the mode's MACs per cycle (complex for FP32C) = the baseline's / rate_divisor
    const char *paper;
};
static const Expectation expectations[] = {
    {"f16", "m3xu.f16", "FP16", 1, "baseline"},
    {"bf16", "m3xu.bf16", "BF16", 1, "baseline"},
    {"f32", "m3xu.f32", "FP32", 4, "Corollaries 1-2: 1/4"},
    {"f32c", "m3xu.f32c", "FP32C", 16, "Corollary 3: 1/16 (complex)"},
};
static const char *const BASELINE_ALIAS = "m3xu.f16";

static void usage_error(const char *what)
{
    fprintf(stderr, "m3xu_systemc: %s (options: --tiles N --seed S --modes f16,bf16,f32,f32c "
                    "--design m3xu|m3xu-pipelined --mutant ROW,COL --gap G --stall P --no-rate-check --show N)\n", what);
    exit(2);
}

static uint64_t parse_count(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    char *end;
    errno = 0;
    unsigned long long v = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!s || *s < '0' || *s > '9' || *end || errno || v < lo || v > hi) {
        std::string m = std::string(opt) + ": '" + (s ? s : "") + "' is not a count in " + std::to_string(lo) +
                        ".." + std::to_string(hi);
        usage_error(m.c_str());
    }
    return v;
}

static const Expectation *expectation_of(const char *mode)
{
    for (const auto &e : expectations)
        if (!strcmp(e.mode, mode)) return &e;
    return nullptr;
}

static mmaref_instr lookup(const char *alias)
{
    mmaref_instr in;
    char msg[256];
    if (mmaref_lookup("m3xu", alias, &in, msg, sizeof msg) != MMAREF_OK) usage_error(msg);
    if (in.m != TensorCore::ROWS || in.n != TensorCore::COLS) {
        std::string m = std::string(alias) + " is " + std::to_string(in.m) + " x " + std::to_string(in.n) +
                        ", the array 8 x 4";
        usage_error(m.c_str());
    }
    return in;
}

int sc_main(int argc, char **argv)
{
    uint64_t tiles = 200, seed = 1;
    int gap = 0, stall = 0, show = 10, mutant_row = -1, mutant_col = -1;
    bool rate_check = true, pipelined = false;
    std::string modes = "f16,bf16,f32,f32c";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(o, "--tiles")) tiles = parse_count(o, v, 2, 100000000), i++;
        else if (!strcmp(o, "--seed")) seed = parse_count(o, v, 0, UINT64_MAX), i++;
        else if (!strcmp(o, "--gap")) gap = (int)parse_count(o, v, 0, 100), i++;  // below the consumer's hang timeout
        else if (!strcmp(o, "--stall")) stall = (int)parse_count(o, v, 0, 99), i++;
        else if (!strcmp(o, "--show")) show = (int)parse_count(o, v, 0, 1000000), i++;
        else if (!strcmp(o, "--no-rate-check")) rate_check = false;
        else if (!strcmp(o, "--modes") && v) modes = v, i++;
        else if (!strcmp(o, "--design") && v) {
            if (strcmp(v, "m3xu") && strcmp(v, "m3xu-pipelined"))
                usage_error((std::string("--design: unknown design '") + v + "' (m3xu, m3xu-pipelined)").c_str());
            pipelined = !strcmp(v, "m3xu-pipelined"), i++;
        }
        else if (!strcmp(o, "--mutant") && v) {
            int r, c, n = 0;
            if (sscanf(v, "%d,%d%n", &r, &c, &n) != 2 || v[n] || r < 0 || r >= TensorCore::ROWS || c < 0 ||
                c >= TensorCore::COLS)
                usage_error((std::string("--mutant: '") + v + "' is not ROW,COL in 0..7,0..3").c_str());
            mutant_row = r, mutant_col = c, i++;
        } else usage_error((std::string("unknown option or missing value: '") + o + "'").c_str());
    }

    TileStream stream;
    stream.tiles_per_mode = tiles;
    stream.seed = seed;
    std::vector<const Expectation *> expect;
    std::stringstream list(modes);
    for (std::string m; std::getline(list, m, ',');) {
        const Expectation *e = expectation_of(m.c_str());
        if (!e) usage_error(("--modes: unknown mode '" + m + "' (f16, bf16, f32, f32c)").c_str());
        Mode mode;
        mode.label = e->label;
        mode.in = lookup(e->alias);
        stream.modes.push_back(mode);
        expect.push_back(e);
    }
    if (stream.modes.empty()) usage_error("--modes: no mode");
    if (pipelined && mutant_row >= 0) usage_error("--mutant: the mutant element exists in the m3xu design only");
    const mmaref_instr baseline = lookup(BASELINE_ALIAS);

    sc_clock clk("clk", 1, SC_NS);
    sc_signal<bool> rst_n("rst_n"), in_valid("in_valid"), in_ready("in_ready"), out_valid("out_valid"),
        out_ready("out_ready");
    sc_signal<fmt_t> fmt("fmt");
    sc_vector<sc_signal<operand_t>> a("a", TensorCore::ROWS), b("b", TensorCore::COLS);
    sc_vector<sc_signal<acc_t>> c("c", TensorCore::ROWS * TensorCore::COLS),
        d("d", TensorCore::ROWS * TensorCore::COLS);

    TensorCore core("tensor_core", mutant_row, mutant_col, pipelined);
    core.clk(clk), core.rst_n(rst_n), core.in_valid(in_valid), core.in_ready(in_ready), core.fmt(fmt);
    core.a(a), core.b(b), core.c(c), core.out_valid(out_valid), core.out_ready(out_ready), core.d(d);
    TileProducer producer("producer", stream, clk, gap);
    producer.clk(clk), producer.rst_n(rst_n), producer.in_valid(in_valid), producer.in_ready(in_ready);
    producer.fmt(fmt), producer.a(a), producer.b(b), producer.c(c);
    TileConsumer consumer("consumer", stream, clk, stall, show);
    consumer.clk(clk), consumer.out_valid(out_valid), consumer.out_ready(out_ready), consumer.d(d);

    printf("SystemC 8x4 M3XU array: %d Verilated m3xu_unit%s (L = 8 lanes each) as the paper's 8x4x8 Tensor "
           "Core; seed %" PRIu64 ", %" PRIu64 " tiles per mode", TensorCore::ROWS * TensorCore::COLS,
           pipelined ? " PIPE = 1 (pipelined)" : "", seed, tiles);
    if (mutant_row >= 0) printf(", MUTANT unit (a_L*b_L dropped) at D[%d][%d]", mutant_row, mutant_col);
    if (gap) printf(", %d idle cycles after each tile", gap);
    if (stall) printf(", out_ready low %d %% of cycles", stall);
    printf("\n");
    sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);  // "stopped by user": sc_stop
    sc_start();

    // ---- report: per mode, and the verdict ----
    bool fail = consumer.hung || core.lockstep_error;
    if (consumer.hung) printf("FAIL: no D tile for a long time, or a D tile without a tile in (hang)\n");
    if (core.lockstep_error) printf("FAIL: the units of the array were not in lockstep\n");
    double base_mac = 0;
    printf("SystemC 8x4 M3XU array: %-5s %-9s %7s %10s %11s %7s %9s %10s %8s  %s\n", "mode", "alias", "tiles",
           "mismatches", "cycles/tile", "latency", "with-fill", "MAC/cycle", "vs FP16", "expected (paper)");
    for (size_t m = 0; m < stream.modes.size(); m++) {
        Mode &mode = stream.modes[m];
        const Expectation &e = *expect[m];
        const mmaref_instr &in = mode.in;
        // steady state: between the first and the last D tile of the mode, every cycle a tile could
        // come out (the fill, first accept to first D, is the latency column)
        double cycles = mode.tiles_checked > 1
                            ? (double)(mode.last_d - mode.first_d) / (double)(mode.tiles_checked - 1) : 0;
        // first tile in to last D out, the fill included
        double with_fill = mode.tiles_checked ? (double)(mode.last_d - mode.first_accept) / mode.tiles_checked : 0;
        double want_cycles = (double)BASELINE_CYCLES * e.rate_divisor * in.k / baseline.k;
        double macs = cycles > 0 ? (double)in.m * in.n * in.k / cycles : 0;
        double base_macs = (double)baseline.m * baseline.n * baseline.k / BASELINE_CYCLES;
        if (!strcmp(e.alias, BASELINE_ALIAS) && macs > 0) base_mac = macs;
        double ratio = macs / (base_mac > 0 ? base_mac : base_macs);
        bool complete = mode.tiles_checked == tiles && mode.tiles_sent == tiles;
        bool rate_ok = cycles == want_cycles && ratio * e.rate_divisor == 1.0;
        char vs[32];
        snprintf(vs, sizeof vs, "1/%.4g", 1 / ratio);
        printf("SystemC 8x4 M3XU array: %-5s %-9s %7" PRIu64 " %10" PRIu64 " %11.3f %7" PRIu64 " %9.3f %10.1f %8s  "
               "%g cycles/tile, %g %sMAC/cycle, %s%s\n",
               mode.label.c_str(), e.alias, mode.tiles_checked, mode.mismatches, cycles,
               mode.first_d - mode.first_accept, with_fill, macs, ratio == 1 ? "1" : vs, want_cycles,
               base_macs / e.rate_divisor, in.a == MMAREF_F32C ? "complex " : "", e.paper,
               rate_ok ? "" : rate_check ? "  <- RATE OFF" : "  (rate not checked)");
        if (!complete) printf("FAIL: %s: %" PRIu64 " tiles sent, %" PRIu64 " checked of %" PRIu64 "\n",
                              e.alias, mode.tiles_sent, mode.tiles_checked, tiles);
        if (mode.mismatches)
            printf("FAIL: %s: %" PRIu64 " D elements in %" PRIu64 " tiles differ from mmaref_mma\n", e.alias,
                   mode.mismatches, mode.bad_tiles);
        fail |= !complete || mode.mismatches || (rate_check && !rate_ok);
    }
    printf("RESULT %s\n", fail ? "FAIL" : "pass");
    return fail ? 1 : 0;
}
