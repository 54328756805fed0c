// Verilator main of the benches -- tb_mma (the project's units) and, built with -DTB_VERIFY, make
// verify's verify_top (tb/verify/): runs the simulation, prints the vectors per stimulus kind and the coverage
// bins (a replay, +first=N > 0 or +show, names no hole); if a vector failed, runs it again alone with an
// FST waveform (+fst=PATH, default TB_FST; +nofst to skip).  Exit status 1 on any mismatch, else 3 when a
// reachable coverage bin was not hit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#ifdef TB_VERIFY
#include "Vverify_top.h"
#define TB_TOP Vverify_top
#define TB_FST "fail.fst"
#else
#include "Vtb_mma.h"
#define TB_TOP Vtb_mma
#define TB_FST "build/rtl/fail.fst"
#endif
#include "verilated.h"
#include "verilated_fst_c.h"

// tb/tb_support.c, tb/tb_coverage.c
extern "C" long long mmaref_tb_first_fail(void);
extern "C" void mmaref_tb_print_coverage(void);
extern "C" int mmaref_tb_print_classes(const char *replay);

#ifdef VL_USER_FINISH
// $finish without Verilator's "- file:line: Verilog $finish" line: in pipe mode (+pipe) stdout holds the
// D lines alone
void vl_finish(const char *, int, const char *) { Verilated::threadContextp()->gotFinish(true); }
#endif

static void simulate(int argc, char **argv, const std::vector<std::string> &extra, const char *fst)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    for (const auto &e : extra) {
        const char *arg[1] = {e.c_str()};
        ctx->commandArgsAdd(1, arg);
    }
    if (fst) ctx->traceEverOn(true);
    auto top = std::make_unique<TB_TOP>(ctx.get());
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

// A replay of chosen vectors -- a run from +first=N > 0 (a waveform's or a report's re-run) or one that
// shows every D (+show) -- as its plusargs, e.g. "+first=19946, +show"; empty for a run of the stream from
// its start, whose coverage holes are judged.
static std::string replay_of(int argc, char **argv)
{
    std::string r;
    for (int i = 1; i < argc; i++)
        if ((!strncmp(argv[i], "+first=", 7) && strtoull(argv[i] + 7, nullptr, 10) != 0) || !strcmp(argv[i], "+show"))
            r += (r.empty() ? "" : ", ") + std::string(argv[i]);
    return r;
}

int main(int argc, char **argv)
{
    simulate(argc, argv, {}, nullptr);
    mmaref_tb_print_coverage();
    std::string replay = replay_of(argc, argv);
    int holes = mmaref_tb_print_classes(replay.empty() ? nullptr : replay.c_str());
    long long fail = mmaref_tb_first_fail();
    if (fail < 0) return holes > 0 ? 3 : 0;  // a clean run that left a reachable coverage bin unhit
    std::string fst = TB_FST;
    bool want = true;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "+fst=", 5)) fst = argv[i] + 5;
        if (!strcmp(argv[i], "+nofst") || !strcmp(argv[i], "+pipe")) want = false;  // (stdin is spent)
    }
    if (want) {
        simulate(argc, argv, {"+replay=" + std::to_string(fail)}, fst.c_str());
        std::printf("waveform of index %lld: %s\n", fail, fst.c_str());
    }
    return 1;
}
