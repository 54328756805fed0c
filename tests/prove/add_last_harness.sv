// make prove's harness for the last step of FP8 mma.sync, D = P + C, P the passes' result: the project's
// adder (rtl/mma_add_last.sv, as fda_unit's C_LAST instantiates it) against the specification's
// (fda_spec_add, tests/prove/fda_spec_add.svh, as fda_spec's C_LAST does), both given D's format from
// the output kind (mma_pkg::out_fmt_of: the format both sides derive for every output kind the
// instruction has).  It wears make verify's port contract so that make prove's harness can drive it: P is
// lanes 0-3 of A (any 32 bits, whatever a lane's format would allow), C the port c; the other inputs
// are not read.  A proof of SIDE = 0 against SIDE = 1 says the two adders agree on every P and C of
// D's format; with the rows that prove the passes' results equal (C_LAST = 0: the passes from any C, so
// from +0 too), it proves the units' D, which is that adder applied to those two values on both sides.
`include "tests/prove/spec_common.svh"
`include "tests/prove/fda_spec_add.svh"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that an adder does not read
module add_last_harness #(
  parameter int SIDE     = 0,                           // 0: rtl/mma_add_last.sv, 1: fda_spec_add,
                                                        // 2: a mutant (f32 rounded toward zero)
  parameter int K        = 16,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int AW       = 8,
  parameter int NSW      = 1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  logic [31:0] p, sum;
  assign p = a[31:0];
  generate
    if (SIDE == 0) begin : g_rtl
      mma_add_last #(.OUT_MASK(OUT_MASK)) u_add (.fmt(mma_pkg::out_fmt_of(OUT_MASK, out_kind)), .x(p), .y(c), .d(sum));
    end else if (SIDE == 2) begin : g_mutant  // the check that the proof can fail: RZ for RNE
      mma_fp_add #(.FMT(mma_pkg::FMT_F32), .OUT(mma_pkg::OUT_F32_RZ)) u_add (.x(p), .y(c), .d(sum));
    end else begin : g_spec
      fda_spec_add #(.OUT_MASK(OUT_MASK)) u_add (.fmt(mma_pkg::out_fmt_of(OUT_MASK, out_kind)), .x(p), .y(c), .d(sum));
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(sum),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDSIGNAL */
