// What the producer and the consumer share: the modes run (an instruction of architecture m3xu each,
// with the counters the report reads) and the scoreboard, the tiles accepted by the array in order.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "mmaref.h"

struct Mode {
    std::string label;       // FP16, BF16, FP32, FP32C
    mmaref_instr in;         // from the instruction table: M, N, K, formats, the golden schedule
    // measured
    uint64_t tiles_sent = 0, tiles_checked = 0;
    uint64_t mismatches = 0, bad_tiles = 0;  // D elements that differ from the model; tiles with one
    uint64_t first_accept = 0, last_accept = 0, first_d = 0, last_d = 0;  // cycles
};

// One GEMM tile as mmaref_mma takes it: C[M][N], A[M][K], B[K][N], row-major raw bits.
struct Tile {
    size_t mode;
    uint64_t index;          // tile `index` of the (instruction, mixed, seed) generator stream
    std::vector<uint64_t> A, B, C;
};

struct TileStream {
    std::vector<Mode> modes;
    uint64_t tiles_per_mode = 0, seed = 1;
    std::deque<Tile> accepted;  // accepted by the array, D not yet checked
    bool producer_done = false;
};

// Cycle number of the current rising edge (the clock starts with a rising edge at time 0).
inline uint64_t cycle_now(const sc_clock &clk)
{
    return (uint64_t)(sc_time_stamp() / clk.period());
}
