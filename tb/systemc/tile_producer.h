// TileProducer: feeds the Tensor Core GEMM tiles over its clocked valid/ready channel (SC_CTHREAD on
// the rising edge).  For every mode in turn, tiles 0 .. tiles_per_mode - 1 of the library's generator
// stream (mmaref_gen_tile, kind mixed: the directed tiles first, then random ones) are driven back to
// back: row i of A on a[i], column j of B on b[j], C[i][j] on c[i][j], the mode's operand format on fmt.
// A tile is taken on the rising edge where in_valid and in_ready are both high; it then goes to the
// scoreboard.  gap > 0 idles in_valid that many cycles after every tile (a test of the rate check).
#pragma once
#include <systemc.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#include "tensor_core.h"
#include "tile_stream.h"

SC_MODULE(TileProducer) {
    sc_in_clk clk;
    sc_out<bool> rst_n;
    sc_out<bool> in_valid;
    sc_in<bool> in_ready;
    sc_out<fmt_t> fmt;
    sc_vector<sc_out<operand_t>> a;
    sc_vector<sc_out<operand_t>> b;
    sc_vector<sc_out<acc_t>> c;

    TileProducer(sc_module_name name, TileStream &stream, const sc_clock &clock, int gap)
        : sc_module(name), a("a", TensorCore::ROWS), b("b", TensorCore::COLS),
          c("c", TensorCore::ROWS * TensorCore::COLS), stream(stream), clock(clock), gap(gap)
    {
        SC_CTHREAD(run, clk.pos());
    }
    SC_HAS_PROCESS(TileProducer);

    // `count` elements of `width` bits, element k at bits [k * width +: width] (the unit's operand
    // layout); elem[k * stride] is element k.  Refuses (exit 2) what does not fit the port.
    static operand_t pack(const uint64_t *elem, int count, int stride, int width)
    {
        operand_t word;
        const int words = (word.length() + 31) / 32;
        if (count * width > word.length()) {
            fprintf(stderr, "systemc: %d operands of %d bits do not fit the unit's %d-bit port\n", count,
                    width, word.length());
            exit(2);
        }
        std::vector<uint32_t> w((size_t)words, 0);
        for (int k = 0; k < count; k++) {
            uint64_t v = width < 64 ? elem[(size_t)k * stride] & ((1ull << width) - 1) : elem[(size_t)k * stride];
            for (int pos = k * width, left = width; left > 0;) {
                int off = pos % 32, take = std::min(32 - off, left);
                w[pos / 32] |= (uint32_t)((v & ((1ull << take) - 1)) << off);
                v >>= take;
                pos += take;
                left -= take;
            }
        }
        for (int i = 0; i < words; i++) word.set_word(i, w[i]);
        return word;
    }

  private:
    TileStream &stream;
    const sc_clock &clock;
    int gap;

    void run()
    {
        const int M = TensorCore::ROWS, N = TensorCore::COLS;
        in_valid.write(false);
        rst_n.write(false);  // synchronous reset: held over a few rising edges
        wait(3);
        rst_n.write(true);
        wait();
        for (size_t m = 0; m < stream.modes.size(); m++) {
            Mode &mode = stream.modes[m];
            const mmaref_instr &in = mode.in;
            const int K = in.k, width = mmaref_format_width(in.a);
            for (uint64_t t = 0; t < stream.tiles_per_mode; t++) {
                Tile tile{m, t, std::vector<uint64_t>((size_t)M * K), std::vector<uint64_t>((size_t)K * N),
                          std::vector<uint64_t>((size_t)M * N)};
                if (mmaref_gen_tile(&in, MMAREF_GEN_MIXED, stream.seed, t, tile.C.data(), tile.A.data(),
                                    tile.B.data(), nullptr, nullptr) < 0) {
                    fprintf(stderr, "systemc: mmaref_gen_tile refused %s tile %llu\n", in.name,
                            (unsigned long long)t);
                    exit(2);
                }
                fmt.write((fmt_t)in.a);
                for (int i = 0; i < M; i++) a[i].write(pack(&tile.A[(size_t)i * K], K, 1, width));
                for (int j = 0; j < N; j++) b[j].write(pack(&tile.B[j], K, N, width));
                for (int e = 0; e < M * N; e++) c[e].write(tile.C[e]);
                in_valid.write(true);
                do wait(); while (!in_ready.read());  // the handshake: taken on this edge
                uint64_t now = cycle_now(clock);
                if (mode.tiles_sent++ == 0) mode.first_accept = now;
                mode.last_accept = now;
                stream.accepted.push_back(std::move(tile));
                if (gap > 0) {
                    in_valid.write(false);
                    wait(gap);
                }
            }
        }
        in_valid.write(false);
        stream.producer_done = true;
        for (;;) wait();
    }
};
