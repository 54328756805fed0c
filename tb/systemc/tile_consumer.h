// TileConsumer: collects D tiles from the Tensor Core (SC_CTHREAD on the rising edge) and checks each
// whole tile bit for bit against the golden model: mmaref_mma on the tile the scoreboard holds (the
// tiles come back in the order they were accepted).  out_ready is high every cycle, or low with
// probability stall % (backpressure: a test of the units' hold path).  Ends the simulation when every
// tile is checked, or after `timeout` cycles without a D tile (a hang).
#pragma once
#include <systemc.h>

#include <cstdio>
#include <cstdlib>

#include "tensor_core.h"
#include "tile_stream.h"

SC_MODULE(TileConsumer) {
    sc_in_clk clk;
    sc_in<bool> out_valid;
    sc_out<bool> out_ready;
    sc_vector<sc_in<acc_t>> d;

    bool hung = false;
    int mismatches_shown = 0;

    TileConsumer(sc_module_name name, TileStream &stream, const sc_clock &clock, int stall, int show)
        : sc_module(name), d("d", TensorCore::ROWS * TensorCore::COLS), stream(stream), clock(clock),
          stall(stall), show(show), rand_state(stream.seed ^ 0x5c0de5c0de)
    {
        SC_CTHREAD(run, clk.pos());
    }
    SC_HAS_PROCESS(TileConsumer);

  private:
    static constexpr uint64_t timeout = 1000;
    TileStream &stream;
    const sc_clock &clock;
    int stall, show;
    uint64_t rand_state;

    void run()
    {
        bool ready = true;
        uint64_t idle = 0;
        out_ready.write(ready);
        for (;;) {
            wait();
            // out_valid and D as registered before this edge; `ready` is what out_ready was
            if (out_valid.read() && ready) {
                idle = 0;
                check();
            } else if (++idle > timeout) {
                hung = true;
                sc_stop();
                return;
            }
            if (stream.producer_done && stream.accepted.empty()) {
                sc_stop();
                return;
            }
            ready = stall <= 0 || (int)(mmaref_rand(&rand_state) % 100) >= stall;
            out_ready.write(ready);
        }
    }

    void check()
    {
        const int M = TensorCore::ROWS, N = TensorCore::COLS;
        if (stream.accepted.empty()) {
            fprintf(stderr, "systemc: a D tile came out that no tile went in for\n");
            hung = true;  // reported as a protocol failure
            return;
        }
        Tile tile = std::move(stream.accepted.front());
        stream.accepted.pop_front();
        Mode &mode = stream.modes[tile.mode];
        std::vector<uint64_t> want((size_t)M * N);
        char msg[256];
        if (mmaref_mma(&mode.in, tile.A.data(), tile.B.data(), tile.C.data(), nullptr, nullptr, want.data(),
                       msg, sizeof msg) != MMAREF_OK) {
            fprintf(stderr, "systemc: mmaref_mma: %s\n", msg);
            exit(2);
        }
        uint64_t now = cycle_now(clock);
        if (mode.tiles_checked++ == 0) mode.first_d = now;
        mode.last_d = now;
        bool bad = false;
        for (int e = 0; e < M * N; e++) {
            uint64_t got = d[e].read();
            if (got == want[e]) continue;
            bad = true;
            mode.mismatches++;
            if (mismatches_shown++ < show)
                printf("MISMATCH %s tile %llu D[%d][%d]: array 0x%016llx, model 0x%016llx (cycle %llu)\n",
                       mode.in.name, (unsigned long long)tile.index, e / N, e % N, (unsigned long long)got,
                       (unsigned long long)want[e], (unsigned long long)now);
        }
        mode.bad_tiles += bad;
    }
};
