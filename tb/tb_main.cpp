// Verilator main for tb_mma: runs the simulation; if a vector failed, runs it again alone with an FST
// waveform (+fst=PATH, default build/rtl/fail.fst; +nofst to skip).  Exit status 1 on any mismatch.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_mma.h"
#include "verilated.h"
#include "verilated_fst_c.h"

// tb/tb_support.c
extern "C" long long mmaref_tb_first_fail(void);
extern "C" void mmaref_tb_print_coverage(void);

static void simulate(int argc, char **argv, const std::vector<std::string> &extra, const char *fst)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    for (const auto &e : extra) {
        const char *arg[1] = {e.c_str()};
        ctx->commandArgsAdd(1, arg);
    }
    if (fst) ctx->traceEverOn(true);
    auto top = std::make_unique<Vtb_mma>(ctx.get());
    std::unique_ptr<VerilatedFstC> tfp;
    if (fst) {
        tfp = std::make_unique<VerilatedFstC>();
        top->trace(tfp.get(), 99);
        tfp->open(fst);
    }
    top->clk = 0;
    top->eval();
    while (!ctx->gotFinish()) {
        top->clk = !top->clk;
        top->eval();
        if (tfp) {
            ctx->timeInc(1);
            tfp->dump(ctx->time());
        }
    }
    top->final();
    if (tfp) tfp->close();
}

int main(int argc, char **argv)
{
    simulate(argc, argv, {}, nullptr);
    mmaref_tb_print_coverage();
    long long fail = mmaref_tb_first_fail();
    if (fail < 0) return 0;
    std::string fst = "build/rtl/fail.fst";
    bool want = true;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "+fst=", 5)) fst = argv[i] + 5;
        if (!strcmp(argv[i], "+nofst")) want = false;
    }
    if (want) {
        simulate(argc, argv, {"+replay=" + std::to_string(fail)}, fst.c_str());
        std::printf("waveform of index %lld: %s\n", fail, fst.c_str());
    }
    return 1;
}
