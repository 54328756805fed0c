// TensorCore: the paper's 8 x 4 x 8 Tensor Core (the M3XU paper, Fig. 3) as an 8 x 4 array of Verilated
// M3XU dot-product units (rtl/m3xu_unit.sv, one per output element D[i][j], L = 8 lanes each).
// Operand distribution is SystemC wiring: row i of A is one signal broadcast to the 4 units of row i,
// column j of B one signal broadcast to the 8 units of column j, C[i][j] and D[i][j] belong to unit
// (i, j).  The array is one valid/ready channel: a tile is taken when every unit is ready (each unit
// sees in_valid && all ready), a D tile is offered when every unit has its D (each unit sees out_ready &&
// all valid).  The units run in lockstep (same mode, same steps); `lockstep_error` records any cycle in
// which they disagree.  The array is built of one design: the M3XU (PIPE = 0) or the paper's pipelined
// M3XU (PIPE = 1: a register after the data-assignment stage, one cycle more latency, the same rate).
#pragma once
#include <systemc.h>

#include <memory>
#include <type_traits>
#include <vector>

#include "Vm3xu_unit.h"
#include "Vm3xu_unit_mutant.h"
#include "Vm3xu_unit_pipe.h"

// The port types are the Verilated unit's: A and B IW = L x 16 bits, C and D 64 bits (f32c).
using operand_t = std::remove_reference_t<decltype(std::declval<Vm3xu_unit &>().a)>::data_type;
using acc_t     = std::remove_reference_t<decltype(std::declval<Vm3xu_unit &>().c)>::data_type;
using fmt_t     = std::remove_reference_t<decltype(std::declval<Vm3xu_unit &>().fmt)>::data_type;

SC_MODULE(TensorCore) {
    static constexpr int ROWS = 8, COLS = 4;  // M x N of the paper's 8 x 4 x 8 tile

    sc_in<bool> clk, rst_n;
    sc_in<bool> in_valid;
    sc_out<bool> in_ready;
    sc_in<fmt_t> fmt;                        // the mode: the operand format code (mma_pkg FMT_*)
    sc_vector<sc_in<operand_t>> a;           // [ROWS]: row i of A, L elements
    sc_vector<sc_in<operand_t>> b;           // [COLS]: column j of B
    sc_vector<sc_in<acc_t>> c;               // [ROWS * COLS]
    sc_out<bool> out_valid;
    sc_in<bool> out_ready;
    sc_vector<sc_out<acc_t>> d;              // [ROWS * COLS]

    bool lockstep_error = false;

    // mutant_row, mutant_col: the one element built from the MUTANT = 1 unit (a_L b_L dropped), or -1
    // (of the M3XU design only: a mutant element beside pipelined ones would be a cycle early).
    // pipelined: every unit the PIPE = 1 design.
    TensorCore(sc_module_name name, int mutant_row, int mutant_col, bool pipelined)
        : sc_module(name), a("a", ROWS), b("b", COLS), c("c", ROWS * COLS), d("d", ROWS * COLS),
          unit_in_valid("unit_in_valid", ROWS * COLS), unit_in_ready("unit_in_ready", ROWS * COLS),
          unit_out_valid("unit_out_valid", ROWS * COLS), unit_out_ready("unit_out_ready", ROWS * COLS),
          unit_busy("unit_busy", ROWS * COLS)
    {
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                std::string n = "unit_" + std::to_string(i) + "_" + std::to_string(j);
                if (i == mutant_row && j == mutant_col)
                    units.emplace_back(wire(new Vm3xu_unit_mutant(n.c_str()), i, j));
                else if (pipelined)
                    units.emplace_back(wire(new Vm3xu_unit_pipe(n.c_str()), i, j));
                else
                    units.emplace_back(wire(new Vm3xu_unit(n.c_str()), i, j));
            }
        SC_METHOD(join);
        for (int u = 0; u < ROWS * COLS; u++) sensitive << unit_in_ready[u] << unit_out_valid[u];
        sensitive << in_valid << out_ready << rst_n;
    }
    SC_HAS_PROCESS(TensorCore);

  private:
    sc_vector<sc_signal<bool>> unit_in_valid, unit_in_ready, unit_out_valid, unit_out_ready, unit_busy;
    std::vector<std::unique_ptr<sc_module>> units;

    // The clean, the mutant and the pipelined unit are three Verilated classes with the same ports.
    template <class Unit> sc_module *wire(Unit *u, int i, int j)
    {
        int e = i * COLS + j;
        u->clk(clk);
        u->rst_n(rst_n);
        u->in_valid(unit_in_valid[e]);
        u->in_ready(unit_in_ready[e]);
        u->fmt(fmt);
        u->a(a[i]);
        u->b(b[j]);
        u->c(c[e]);
        u->out_valid(unit_out_valid[e]);
        u->out_ready(unit_out_ready[e]);
        u->d(d[e]);
        u->busy(unit_busy[e]);
        return u;
    }

    void join()
    {
        bool all_ready = true, any_ready = false, all_valid = true, any_valid = false;
        for (int u = 0; u < ROWS * COLS; u++) {
            all_ready &= unit_in_ready[u].read();
            any_ready |= unit_in_ready[u].read();
            all_valid &= unit_out_valid[u].read();
            any_valid |= unit_out_valid[u].read();
        }
        if (rst_n.read() && (all_ready != any_ready || all_valid != any_valid)) lockstep_error = true;
        for (int u = 0; u < ROWS * COLS; u++) {
            unit_in_valid[u].write(in_valid.read() && all_ready);
            unit_out_ready[u].write(out_ready.read() && all_valid);
        }
        in_ready.write(all_ready);
        out_valid.write(all_valid);
    }
};
