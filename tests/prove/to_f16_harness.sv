// make prove's harness for the first step of FP8 mma.sync, each A and B operand converted to f16: the
// project's conversion (rtl/mma_to_f16.sv, as fda_unit's AB_F16 instantiates it) against the
// specification's (spec_to_f16, tests/prove/spec_to_f16.svh, as fda_spec's AB_F16 does).  It wears make
// verify's port contract so that make prove's harness can drive it: lane 0 of A in A's format and lane 0
// of B in B's format, D = {B's f16, A's f16}; the other inputs are not read.  A proof of SIDE = 0 against
// SIDE = 1 says the two conversions agree on every operand of the instruction's formats; with the rows
// that prove fda_spec reading rtl/'s conversion (F16_CUT = 1) equal to the unit, it proves fda_spec with
// its own conversion equal to the unit (both apply the same passes to equal f16 operands).
`include "tests/prove/spec_common.svh"
`include "tests/prove/spec_to_f16.svh"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that a conversion does not read
module to_f16_harness #(
  parameter int SIDE     = 0,                           // 0: rtl/mma_to_f16.sv, 1: spec_to_f16,
                                                        // 2: a mutant (subnormals left unnormalized)
  parameter int K        = 16,
  parameter int AB_MASK  = (1 << mma_pkg::FMT_E4M3) | (1 << mma_pkg::FMT_E5M2),
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
  logic [15:0] ha, hb;
  generate
    if (SIDE == 0) begin : g_rtl
      mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_a (.raw(a[AW-1:0]), .fmt(fmt_a), .h(ha));
      mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_b (.raw(b[AW-1:0]), .fmt(fmt_b), .h(hb));
    end else begin : g_spec
      spec_to_f16 #(.MASK(AB_MASK), .AW(AW), .MUTANT(SIDE == 2 ? 1 : 0)) u_a (.fmt(fmt_a), .raw(a[AW-1:0]), .h(ha));
      spec_to_f16 #(.MASK(AB_MASK), .AW(AW), .MUTANT(SIDE == 2 ? 1 : 0)) u_b (.fmt(fmt_b), .raw(b[AW-1:0]), .h(hb));
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result({hb, ha}),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDSIGNAL */
